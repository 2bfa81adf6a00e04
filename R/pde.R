# bsym_pde_solve(): many one-factor PDEs at once by the theta-scheme (issue
# 15). R checks the types of its arguments and hands their dimensions to the
# C glue; the core's rules (src/core/pde_rules.c) decide which shapes are
# accepted and what they mean, the same for R and Octave.

bsym_pde_solve <- function(x, t, a, b = 0, c = 0, d = 0, final, theta = 0.5, rannacher = 0,
                           lower = "linear", upper = "linear", lower_value = NULL, upper_value = NULL,
                           obstacle = NULL, device = getOption("batchsym.device", "auto"),
                           precision = getOption("batchsym.precision", "double")) {
  run <- run_choices(device, precision)
  lower <- match_choice(lower, "lower", "boundary")
  upper <- match_choice(upper, "upper", "boundary")
  for (arg in c("x", "t", "a", "b", "c", "d", "final")) {
    v <- get(arg)
    check_numeric(v, arg)
    if (!length(v)) arg_error(sprintf("%s must not be empty", arg))
  }
  for (arg in c("lower_value", "upper_value", "obstacle")) {
    v <- get(arg)
    if (!is.null(v)) check_numeric(v, arg)
  }
  if (!is.null(dim(x)) && length(dim(x)) > 1L && sum(dim(x) > 1L) > 1L)
    arg_error(sprintf("x must be a vector of nodes (got %s)", shape_text(x)))
  if (!is.null(dim(t)) && length(dim(t)) > 1L && sum(dim(t) > 1L) > 1L)
    arg_error(sprintf("t must be a vector of times (got %s)", shape_text(t)))
  for (arg in c("theta", "rannacher")) {
    v <- get(arg)
    if (!is.numeric(v) || length(v) != 1L || is.na(v))
      arg_error(sprintf("%s must be a single number (got %s)", arg, got_text(v)))
  }
  if (rannacher != trunc(rannacher) || abs(rannacher) > .Machine$integer.max)
    arg_error(sprintf("rannacher must be a whole number of intervals (got %s)", got_text(rannacher)))
  dims_of <- function(v) as.double(if (is.null(dim(v))) length(v) else dim(v))
  arrays <- list(a, b, c, d, final, lower_value, upper_value, obstacle)
  batch <- if (is.null(dim(final))) 1 else prod(dim(final)[-1L])
  res <- with_progress_of(batch, .Call(bsym_r_pde_solve, as_double(x), as_double(t),
                                   lapply(arrays, as_double), lapply(arrays, dims_of),
                                   as.double(theta), as.integer(rannacher), lower, upper,
                                   run$device, run$precision, run$threads))
  warn_failed(res$failed, "bsym_pde_solve")
  res$x # shaped like final, with attributes info and device (the C glue)
}
