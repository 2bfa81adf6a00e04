# bsym_tridiag_solve() and bsym_tridiagonalize() (documented in man/).

bsym_tridiag_solve <- function(lower, diag, upper = NULL, rhs,
                               device = getOption("batchsym.device", "auto"),
                               precision = getOption("batchsym.precision", "double")) {
  device <- match_choice(device, "device", c("auto", "cpu", "gpu"))
  precision <- match_choice(precision, "precision", c("double", "single"))
  check_numeric(lower, "lower")
  check_numeric(diag, "diag")
  if (!is.null(upper)) check_numeric(upper, "upper")
  check_numeric(rhs, "rhs")
  dd <- band_dims(diag, "diag")
  check_offdiag(lower, "lower", dd)
  if (!is.null(upper)) check_offdiag(upper, "upper", dd)
  shape <- rhs_shape(rhs, dd, "rhs", "diag")
  # integers to doubles; double arrays are passed as they are (no copy)
  if (!is.double(lower)) storage.mode(lower) <- "double"
  if (!is.double(diag)) storage.mode(diag) <- "double"
  if (!is.null(upper) && !is.double(upper)) storage.mode(upper) <- "double"
  if (!is.double(rhs)) storage.mode(rhs) <- "double"
  threads <- as.integer(getOption("batchsym.threads", 0L))
  res <- .Call(bsym_r_tridiag_solve, lower, diag, upper, rhs,
               as.double(c(dd$n, shape$nrhs, dd$batch)), device, precision, threads)
  x <- shape_like(res$x, rhs)
  warn_failed(res$info, "bsym_tridiag_solve")
  attr(x, "info") <- res$info
  attr(x, "device") <- res$device
  x
}

bsym_tridiagonalize <- function(A, vectors = TRUE,
                                device = getOption("batchsym.device", "auto"),
                                precision = getOption("batchsym.precision", "double"),
                                uplo = "L") {
  check_flag(vectors, "vectors")
  device <- match_choice(device, "device", c("auto", "cpu", "gpu"))
  precision <- match_choice(precision, "precision", c("double", "single"))
  uplo <- match_choice(uplo, "uplo", c("L", "U"))
  check_numeric(A, "A")
  da <- batch_dims(A)
  if (!is.double(A)) storage.mode(A) <- "double"
  threads <- as.integer(getOption("batchsym.threads", 0L))
  res <- .Call(bsym_r_tridiagonalize, A, as.double(c(da$n, da$batch)), vectors,
               device, precision, uplo, threads)
  n <- da$n
  d <- res$d
  e <- res$e
  Q <- res$Q
  if (!da$one) {
    names_k <- dimnames(A)[[3]]
    dim(d) <- c(n, da$batch)
    dim(e) <- c(max(n - 1L, 0L), da$batch)
    if (!is.null(names_k)) {
      dimnames(d) <- list(NULL, names_k)
      dimnames(e) <- list(NULL, names_k)
    }
    if (!is.null(Q)) {
      dim(Q) <- c(n, n, da$batch)
      if (!is.null(names_k)) dimnames(Q) <- list(NULL, NULL, names_k)
    }
  } else if (!is.null(Q)) {
    dim(Q) <- c(n, n)
  }
  out <- list(d = d, e = e, Q = Q) # Q = NULL stays in the list
  warn_failed(res$info, "bsym_tridiagonalize", "tridiagonalized", "non-finite input")
  attr(out, "info") <- res$info
  attr(out, "device") <- res$device
  out
}
