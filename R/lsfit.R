# bsym_lsfit(): batched weighted least squares through the normal equations
# (documented in man/bsym_lsfit.Rd).

bsym_lsfit <- function(X, Y, weights = NULL, rcond = 1e-5, method = "auto", tol = NULL,
                       plan = NULL, device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double")) {
  opts <- solve_options(method, rcond, tol)
  run <- run_choices(device, precision)
  check_numeric(X, "X")
  check_numeric(Y, "Y")
  dx <- design_dims(X)
  shape <- rhs_shape(Y, list(n = dx$m, batch = dx$batch, one = dx$one), "Y", "X", "m")
  w <- lsfit_weights(weights, dx)
  fields <- plan_for(plan, method, "bsym_lsfit")
  res <- with_progress_of(dx$batch, .Call(bsym_r_lsfit, as_double(X), as_double(Y), w$w,
                                          as.double(c(dx$m, dx$p, shape$nrhs, dx$batch, w$stride)),
                                          opts, fields, run$device, run$precision, run$threads))
  plan_store(plan, res$plan)
  warn_failed(res$failed, "bsym_lsfit", "$info")
  lsfit_result(res, X, Y, dx, shape$nrhs)
}

# list(m, p, batch, one) of the design X: an m x p matrix (one = TRUE: a
# batch of one) or an m x p x batch array.
design_dims <- function(X) {
  d <- dim(X)
  if (length(d) < 2L || length(d) > 3L)
    arg_error(sprintf("X must be an m x p matrix or an m x p x batch array (got %s)", shape_text(X)))
  list(m = d[1], p = d[2], batch = if (length(d) == 3L) d[3] else 1L, one = length(d) == 2L)
}

# The weights for the core: list(w, stride) with w NULL (all ones), the m
# weights of a vector shared by every system (stride 0), or an m x batch
# matrix (stride m). Their values are the core's: a negative, NA, NaN or
# infinite weight fails its system (info -1). Errors name weights.
lsfit_weights <- function(weights, dx) {
  if (is.null(weights)) return(list(w = NULL, stride = 0))
  check_numeric(weights, "weights")
  m <- dx$m
  batch <- dx$batch
  d <- dim(weights)
  vector <- length(d) <= 1L
  if (if (vector) length(weights) != m else length(d) != 2L || d[1] != m || d[2] != batch)
    arg_error(sprintf("weights must be a vector of length m = %d (the rows of X) or an m x batch = %d x %d matrix (got %s)",
                      m, m, batch, shape_text(weights)))
  list(w = as.double(weights), stride = if (vector) 0 else m)
}

# The list bsym_lsfit() returns from the .Call result res, shaped after Y:
# one system (X a matrix) with Y a vector -> coefficients a vector of length
# p and rss a number; with Y an m x k matrix -> p x k and k; a batch with Y
# m x batch -> p x batch and batch; Y m x k x batch -> p x k x batch and
# k x batch. Coefficient rows are named after X's columns, the batch after
# X's third dimension (else Y's last).
lsfit_result <- function(res, X, Y, dx, nrhs) {
  p <- dx$p
  dy <- dim(Y)
  coef_names <- dimnames(X)[[2]]
  names_k <- if (dx$one) NULL else dimnames(X)[[3]]
  if (is.null(names_k) && !dx$one && length(dy) >= 2L) names_k <- dimnames(Y)[[length(dy)]]
  beta <- res$beta
  rss <- res$rss
  if (is.null(dy)) {
    names(beta) <- coef_names
  } else if (length(dy) == 2L && dx$one) {
    resp <- dimnames(Y)[[2]]
    dim(beta) <- c(p, nrhs)
    if (!is.null(coef_names) || !is.null(resp)) dimnames(beta) <- list(coef_names, resp)
    names(rss) <- resp
  } else if (length(dy) == 2L) {
    dim(beta) <- c(p, dx$batch)
    if (!is.null(coef_names) || !is.null(names_k)) dimnames(beta) <- list(coef_names, names_k)
    names(rss) <- names_k
  } else {
    resp <- dimnames(Y)[[2]]
    dim(beta) <- c(p, nrhs, dx$batch)
    if (!is.null(coef_names) || !is.null(resp) || !is.null(names_k))
      dimnames(beta) <- list(coef_names, resp, names_k)
    dim(rss) <- c(nrhs, dx$batch)
    if (!is.null(resp) || !is.null(names_k)) dimnames(rss) <- list(resp, names_k)
  }
  list(coefficients = beta, rank = res$rank, rss = rss, info = res$info, method = res$method,
       device = res$device)
}
