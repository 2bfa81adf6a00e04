# Argument checks shared by the bsym_* functions: R types and shapes only;
# the C core validates sizes and numerics.

# A single string among `choices`, or an error naming the argument.
match_choice <- function(x, name, choices) {
  if (!is.character(x) || length(x) != 1L || is.na(x) || !(x %in% choices))
    stop(sprintf("%s must be one of %s (got %s)", name,
                 paste0("\"", choices, "\"", collapse = ", "),
                 paste(deparse(x, nlines = 1L), collapse = "")), call. = FALSE)
  x
}

# Real numeric (double or integer) data, or an error naming the argument.
check_numeric <- function(x, name) {
  if (is.complex(x))
    stop(name, " must be real: complex values are not supported", call. = FALSE)
  if (!is.numeric(x)) # also FALSE for logical, character, factor, Date, list
    stop(sprintf("%s must be a numeric array (got %s)", name,
                 paste(class(x), collapse = "/")), call. = FALSE)
}

# list(n, batch, matrix) of A: an n x n matrix (batch of one) or an n x n x batch array.
batch_dims <- function(A) {
  d <- dim(A)
  if (is.null(d) || !(length(d) %in% 2:3))
    stop("A must be an n x n matrix or an n x n x batch array (got ",
         if (is.null(d)) "a vector" else paste0(length(d), " dimensions"), ")",
         call. = FALSE)
  if (d[1] != d[2])
    stop(sprintf("A must be square: its first two dimensions are %d x %d", d[1], d[2]),
         call. = FALSE)
  list(n = d[1], batch = if (length(d) == 3L) d[3] else 1L, matrix = length(d) == 2L)
}

# Right-hand sides per system for B given batch_dims(A); errors name B. With
# A a matrix, an n x k matrix B holds k right-hand sides, as in solve().
rhs_shape <- function(B, da) {
  n <- da$n
  batch <- da$batch
  d <- dim(B)
  mismatch <- function(what)
    stop(sprintf("B does not match A (n = %d, batch = %d): %s", n, batch, what), call. = FALSE)
  if (is.null(d)) {
    if (batch != 1L) mismatch("a vector B is only for a batch of one; use an n x batch matrix")
    if (length(B) != n) mismatch(sprintf("B has length %d", length(B)))
    return(list(nrhs = 1L))
  }
  if (d[1] != n) mismatch(sprintf("B has %d rows", d[1]))
  if (length(d) == 2L) {
    if (da$matrix)
      return(list(nrhs = d[2]))
    if (d[2] != batch) mismatch(sprintf("B has %d columns, one per system expected", d[2]))
    return(list(nrhs = 1L))
  }
  if (length(d) == 3L) {
    if (d[3] != batch) mismatch(sprintf("B holds %d systems", d[3]))
    return(list(nrhs = d[2]))
  }
  stop("B must be a vector, an n x batch matrix or an n x k x batch array (got ",
       length(d), " dimensions)", call. = FALSE)
}

# One warning with the count of systems that could not be solved.
warn_failed <- function(info, fun) {
  bad <- sum(info != 0L)
  if (bad > 0L)
    warning(sprintf("%s: %d of %d systems could not be solved (non-finite input or a pivot breakdown); they are NA, see attr(, \"info\")",
                    fun, bad, length(info)), call. = FALSE)
}
