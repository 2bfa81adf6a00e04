# Argument checks shared by the bsym_* functions: R types and shapes only.
# The rules (names users type, option, plan and selection checks, the
# sentence about failed systems) are the C core's, read through .Call; every
# error is a condition of class c("batchsym_<status id>", "error",
# "condition"), so that tryCatch(..., batchsym_bad_argument = ) catches it.

# The core's tables: list(method, device, precision, uplo, plan_fields,
# status_ids), read once.
core_rules <- local({
  rules <- NULL
  function() {
    if (is.null(rules)) rules <<- .Call(bsym_r_rules)
    rules
  }
})

# Raises the message (pasted from ...) as an error of class
# batchsym_bad_argument (built by the C glue, as for the core's errors).
arg_error <- function(...) invisible(.Call(bsym_r_arg_error, paste0(...)))

# x when it is one of the core's names of the list `kind` ("method",
# "device", "precision", "uplo"); else the core's error naming `name`.
match_choice <- function(x, name, kind = name) .Call(bsym_r_choice, kind, name, x)

# The device and precision choices checked, with the thread option: what
# every bsym_* call hands to its .Call entry. The GPUs option goes to the
# package's context here (use_gpus).
run_choices <- function(device, precision) {
  run <- list(device = match_choice(device, "device"),
              precision = match_choice(precision, "precision"),
              threads = as.integer(getOption("batchsym.threads", 0L)))
  use_gpus()
  run
}

# options(batchsym.gpus) handed to the package's context (bsym_ctx_set_gpus):
# the GPUs of the next calls, device ids as CUDA numbers them after
# CUDA_VISIBLE_DEVICES; NULL (unset) = every visible GPU. R checks the type
# (whole numbers); the core checks the ids (>= 0, distinct, visible, at most
# 16) and its error names gpus. The value last handed over is remembered, so
# an unchanged option costs one getOption() and identical().
use_gpus <- local({
  last <- NULL # what the context holds: NULL, every visible GPU, is its default
  function() {
    ids <- getOption("batchsym.gpus")
    if (identical(ids, last)) return(invisible(NULL))
    if (!is.null(ids) && (!is.numeric(ids) || anyNA(ids) || any(abs(ids) > .Machine$integer.max) ||
                          any(ids != trunc(ids))))
      arg_error(sprintf("options(batchsym.gpus) must be NULL (every visible GPU) or GPU device ids, whole numbers such as c(0, 1) (got %s)",
                        got_text(ids)))
    .Call(bsym_r_set_gpus, if (is.null(ids)) NULL else as.integer(ids))
    last <<- ids
    invisible(NULL)
  }
})

# x as doubles: integers are converted, a double array (or NULL) is passed
# as it is (no copy).
as_double <- function(x) {
  if (!is.null(x) && !is.double(x)) storage.mode(x) <- "double"
  x
}

# x as complex when `complex` (real data converted, a complex array passed as
# it is), else as_double(x).
as_data <- function(x, complex) {
  if (!complex) return(as_double(x))
  if (!is.complex(x)) storage.mode(x) <- "complex"
  x
}

# TRUE or FALSE, or an error naming the argument.
check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    arg_error(sprintf("%s must be TRUE or FALSE (got %s)", name, got_text(x)))
  x
}

# Real numeric (double or integer) data, or an error naming the argument;
# with complex = TRUE complex data too.
check_numeric <- function(x, name, complex = FALSE) {
  if (is.complex(x) && !complex)
    arg_error(name, " must be real: complex values are not supported (of the bsym_ functions only bsym_solve, bsym_eigen and bsym_tridiagonalize take them)")
  if (!is.numeric(x) && !(complex && is.complex(x))) # not numeric: logical, character, factor, Date, list, NULL
    arg_error(sprintf("%s must be a numeric array (got %s)", name, paste(class(x), collapse = "/")))
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
    arg_error("A must be an n x n matrix or an n x n x batch array (got ",
              if (is.null(d)) "a vector" else paste0(length(d), " dimensions"), ")")
  if (d[1] != d[2])
    arg_error(sprintf("A must be square: its first two dimensions are %d x %d", d[1], d[2]))
  list(n = d[1], batch = if (length(d) == 3L) d[3] else 1L, one = length(d) == 2L)
}

# list(n, batch, one) of the diagonal of tridiagonal systems: a vector (one =
# TRUE: a single system of order length(x)) or an n x batch matrix.
band_dims <- function(x, name = "diag") {
  d <- dim(x)
  if (length(d) <= 1L)
    return(list(n = length(x), batch = 1L, one = TRUE))
  if (length(d) != 2L)
    arg_error(sprintf("%s must be a vector (one system) or an n x batch matrix (got %s)",
                      name, shape_text(x)))
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
      arg_error(sprintf("%s does not match %s (n = %d): a vector of length %d (n - 1) expected, got %s",
                        name, against, dd$n, m, shape_text(x)))
  } else if (length(d) != 2L || d[1] != m || d[2] != dd$batch) {
    arg_error(sprintf("%s does not match %s (n = %d, batch = %d): an (n - 1) x batch = %d x %d matrix expected, got %s",
                      name, against, dd$n, dd$batch, m, dd$batch, shape_text(x)))
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
    arg_error(sprintf("%s does not match %s (%s = %d, batch = %d): %s", name, against, rows, n, batch,
                      what))
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
  arg_error(sprintf("%s must be a vector, an %s x batch matrix or an %s x k x batch array (got %d dimensions)",
                    name, rows, rows, length(d)))
}

# What the C glue needs to shape a batch of outputs (bsym_r_batch_shape in
# src/r_glue.c, where the shapes are set: in R, setting the dim of a vector
# that the .Call's result list also holds would copy it): the batch dims
# `da` (one system or a batch) and the batch dimension's names.
batch_shape <- function(da, names_k = NULL) {
  list(one = isTRUE(da$one), names = names_k, batch = as.integer(da$batch))
}

# x (a list of outputs) with the attributes info and device of the .Call
# result res, after one warning for the systems that failed (warn_failed's
# `see` in ...).
with_outcome <- function(x, res, fun, ...) {
  warn_failed(res$failed, fun, ...)
  attr(x, "info") <- res$info
  attr(x, "device") <- res$device
  x
}

# One warning about the systems that failed: `failed` is the core's sentence
# (the .Call result's $failed, "" when none failed); `see` says where the
# info codes are.
warn_failed <- function(failed, fun, see = "attr(, \"info\")") {
  if (nzchar(failed))
    warning(sprintf("%s: %s; they are NA, see %s", fun, failed, see), call. = FALSE)
}

# The deparsed value, for messages.
got_text <- function(x) paste(deparse(x, nlines = 1L), collapse = "")

# The method and options of a truncated-spectrum / automatic solve, checked
# (R types here, values by the core): c(method code, rcond, tol) for the
# .Call, tol 0 meaning the core's default 16 n eps.
solve_options <- function(method, rcond, tol) {
  method <- match_choice(method, "method")
  if (!is.numeric(rcond) || length(rcond) != 1L)
    arg_error(sprintf("rcond must be a single number in [0, 1) (got %s)", got_text(rcond)))
  if (!is.null(tol) && (!is.numeric(tol) || length(tol) != 1L))
    arg_error(sprintf("tol must be a single positive finite number, or NULL for the default 16 n eps (got %s)",
                      got_text(tol)))
  .Call(bsym_r_solve_opts, method, as.double(rcond), if (is.null(tol)) NULL else as.double(tol))
}

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
