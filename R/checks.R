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

# The device and precision choices checked, with the thread option: what
# every bsym_* call hands to its .Call entry.
run_choices <- function(device, precision) {
  list(device = match_choice(device, "device", c("auto", "cpu", "gpu")),
       precision = match_choice(precision, "precision", c("double", "single")),
       threads = as.integer(getOption("batchsym.threads", 0L)))
}

# x as doubles: integers are converted, a double array (or NULL) is passed
# as it is (no copy).
as_double <- function(x) {
  if (!is.null(x) && !is.double(x)) storage.mode(x) <- "double"
  x
}

# TRUE or FALSE, or an error naming the argument.
check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    stop(sprintf("%s must be TRUE or FALSE (got %s)", name,
                 paste(deparse(x, nlines = 1L), collapse = "")), call. = FALSE)
  x
}

# Real numeric (double or integer) data, or an error naming the argument.
check_numeric <- function(x, name) {
  if (is.complex(x))
    stop(name, " must be real: complex values are not supported", call. = FALSE)
  if (!is.numeric(x)) # also FALSE for logical, character, factor, Date, list, NULL
    stop(sprintf("%s must be a numeric array (got %s)", name,
                 paste(class(x), collapse = "/")), call. = FALSE)
}

# "a vector", "2 dimensions (3 x 4)": what x is, for messages.
shape_text <- function(x) {
  d <- dim(x)
  if (length(d) <= 1L) return(sprintf("a vector of length %d", length(x)))
  sprintf("%d dimensions (%s)", length(d), paste(d, collapse = " x "))
}

# list(n, batch, one) of A: an n x n matrix (one = TRUE: a batch of one) or an
# n x n x batch array.
batch_dims <- function(A) {
  d <- dim(A)
  if (is.null(d) || !(length(d) %in% 2:3))
    stop("A must be an n x n matrix or an n x n x batch array (got ",
         if (is.null(d)) "a vector" else paste0(length(d), " dimensions"), ")",
         call. = FALSE)
  if (d[1] != d[2])
    stop(sprintf("A must be square: its first two dimensions are %d x %d", d[1], d[2]),
         call. = FALSE)
  list(n = d[1], batch = if (length(d) == 3L) d[3] else 1L, one = length(d) == 2L)
}

# list(n, batch, one) of the diagonal of tridiagonal systems: a vector (one =
# TRUE: a single system of order length(x)) or an n x batch matrix.
band_dims <- function(x, name = "diag") {
  d <- dim(x)
  if (length(d) <= 1L)
    return(list(n = length(x), batch = 1L, one = TRUE))
  if (length(d) != 2L)
    stop(sprintf("%s must be a vector (one system) or an n x batch matrix (got %s)",
                 name, shape_text(x)), call. = FALSE)
  list(n = d[1], batch = d[2], one = FALSE)
}

# An off-diagonal band matching band_dims() `dd` of the diagonal: n - 1
# entries per system (0 when n <= 1), as a vector when the diagonal is a
# vector, else as an (n - 1) x batch matrix; errors name the argument.
check_offdiag <- function(x, name, dd, against = "diag") {
  m <- max(dd$n - 1L, 0L)
  d <- dim(x)
  if (dd$one) {
    if (length(d) > 1L || length(x) != m)
      stop(sprintf("%s does not match %s (n = %d): a vector of length %d (n - 1) expected, got %s",
                   name, against, dd$n, m, shape_text(x)), call. = FALSE)
  } else if (length(d) != 2L || d[1] != m || d[2] != dd$batch) {
    stop(sprintf("%s does not match %s (n = %d, batch = %d): an (n - 1) x batch = %d x %d matrix expected, got %s",
                 name, against, dd$n, dd$batch, m, dd$batch, shape_text(x)), call. = FALSE)
  }
  invisible(x)
}

# Right-hand sides per system for B given the dims `da` of the systems
# (batch_dims() or band_dims()); errors name B as `name`, the systems as
# `against` and their order (da$n) as `rows`. With a single system
# (da$one), an n x k matrix B holds k right-hand sides, as in solve().
rhs_shape <- function(B, da, name = "B", against = "A", rows = "n") {
  n <- da$n
  batch <- da$batch
  d <- dim(B)
  mismatch <- function(what)
    stop(sprintf("%s does not match %s (%s = %d, batch = %d): %s", name, against, rows, n, batch,
                 what), call. = FALSE)
  if (is.null(d)) {
    if (batch != 1L)
      mismatch(sprintf("a vector %s is only for a batch of one; use an %s x batch matrix", name, rows))
    if (length(B) != n) mismatch(sprintf("%s has length %d", name, length(B)))
    return(list(nrhs = 1L))
  }
  if (d[1] != n) mismatch(sprintf("%s has %d rows", name, d[1]))
  if (length(d) == 2L) {
    if (da$one)
      return(list(nrhs = d[2]))
    if (d[2] != batch) mismatch(sprintf("%s has %d columns, one per system expected", name, d[2]))
    return(list(nrhs = 1L))
  }
  if (length(d) == 3L) {
    if (d[3] != batch) mismatch(sprintf("%s holds %d systems", name, d[3]))
    return(list(nrhs = d[2]))
  }
  stop(sprintf("%s must be a vector, an %s x batch matrix or an %s x k x batch array (got %d dimensions)",
               name, rows, rows, length(d)), call. = FALSE)
}

# x (a plain vector of solutions) shaped like the right-hand sides B, with B's
# dim, dimnames and names.
shape_like <- function(x, B) {
  if (is.null(dim(B))) dim(x) <- NULL else {
    dim(x) <- dim(B)
    dimnames(x) <- dimnames(B)
  }
  names(x) <- names(B)
  x
}

# x with the attributes info and device of the .Call result res, after one
# warning for the systems that failed (warn_failed's arguments in ...).
with_outcome <- function(x, res, fun, ...) {
  warn_failed(res$info, fun, ...)
  attr(x, "info") <- res$info
  attr(x, "device") <- res$device
  x
}

# x (the batch of outputs of per-system shape `per`, e.g. n or c(n, n)) with
# dims per x batch and the batch dimension's names, or for a batch of one
# (da$one) per alone (a vector when per is a single number); NULL stays NULL.
as_batch <- function(x, per, da, names_k = NULL) {
  if (is.null(x)) return(NULL)
  if (da$one) {
    if (length(per) > 1L) dim(x) <- per
    return(x)
  }
  dim(x) <- c(per, da$batch)
  if (!is.null(names_k)) dimnames(x) <- c(rep(list(NULL), length(per)), list(names_k))
  x
}

# One warning with the count of systems that failed; `see` says where the
# info codes are.
warn_failed <- function(info, fun, what = "solved",
                        why = "non-finite input or a pivot breakdown",
                        see = "attr(, \"info\")") {
  bad <- sum(info != 0L)
  if (bad > 0L)
    warning(sprintf("%s: %d of %d systems could not be %s (%s); they are NA, see %s",
                    fun, bad, length(info), what, why, see), call. = FALSE)
}

# The deparsed value, for messages.
got_text <- function(x) paste(deparse(x, nlines = 1L), collapse = "")

# The options of a truncated-spectrum / automatic solve, checked: c(rcond,
# tol) for the core, tol 0 meaning its default 16 n eps; errors name the
# argument.
solve_options <- function(rcond, tol) {
  if (!is.numeric(rcond) || length(rcond) != 1L || is.na(rcond) || rcond < 0 || rcond >= 1)
    stop(sprintf("rcond must be a single number in [0, 1) (got %s)", got_text(rcond)),
         call. = FALSE)
  if (!is.null(tol) && (!is.numeric(tol) || length(tol) != 1L || !is.finite(tol) || tol <= 0))
    stop(sprintf("tol must be NULL (the default, 16 n eps) or a single positive number (got %s)",
                 got_text(tol)), call. = FALSE)
  as.double(c(rcond, if (is.null(tol)) 0 else tol))
}

# The methods of bsym_solve() and bsym_lsfit(); "ldlt" first so that the
# message of a wrong choice starts as it always has.
solve_methods <- c("ldlt", "tridiag", "eigen", "auto")

# The plan's fields for the core (NULL when there is none, or when method
# is not "auto": a plan is only read by the automatic strategy, so it is
# ignored, with a warning, for the other methods).
plan_for <- function(plan, method, fun) {
  if (is.null(plan)) return(NULL)
  check_plan(plan)
  if (method != "auto") {
    warning(sprintf("%s: plan is only used by method = \"auto\"; it is ignored (and not updated) with method = \"%s\"",
                    fun, method), call. = FALSE)
    return(NULL)
  }
  plan_values(plan)
}

# Why systems of a solve by `method` can fail, for the warning.
solve_failure <- function(method)
  if (method %in% c("ldlt", "tridiag")) "non-finite input or a pivot breakdown" else
    "non-finite input or no convergence"
