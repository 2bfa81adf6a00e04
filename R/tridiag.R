# bsym_tridiag_solve() and bsym_tridiagonalize() (documented in man/).

bsym_tridiag_solve <- function(lower, diag, upper = NULL, rhs,
                               device = getOption("batchsym.device", "auto"),
                               precision = getOption("batchsym.precision", "double")) {
  run <- run_choices(device, precision)
  check_numeric(lower, "lower")
  check_numeric(diag, "diag")
  if (!is.null(upper)) check_numeric(upper, "upper")
  check_numeric(rhs, "rhs")
  dd <- band_dims(diag, "diag")
  check_offdiag(lower, "lower", dd)
  if (!is.null(upper)) check_offdiag(upper, "upper", dd)
  shape <- rhs_shape(rhs, dd, "rhs", "diag")
  res <- .Call(bsym_r_tridiag_solve, as_double(lower), as_double(diag), as_double(upper),
               as_double(rhs), as.double(c(dd$n, shape$nrhs, dd$batch)),
               run$device, run$precision, run$threads)
  warn_failed(res$failed, "bsym_tridiag_solve")
  res$x # shaped, with its attributes, by the C glue (bsym_r_shape_like)
}

bsym_tridiagonalize <- function(A, vectors = TRUE,
                                device = getOption("batchsym.device", "auto"),
                                precision = getOption("batchsym.precision", "double"),
                                uplo = "L") {
  check_flag(vectors, "vectors")
  run <- run_choices(device, precision)
  uplo <- match_choice(uplo, "uplo")
  check_numeric(A, "A", complex = TRUE) # complex: Hermitian (d, e real, Q unitary)
  da <- batch_dims(A)
  names_k <- if (da$one) NULL else dimnames(A)[[3]]
  res <- .Call(bsym_r_tridiagonalize, as_data(A, is.complex(A)), as.double(c(da$n, da$batch)), vectors,
               run$device, run$precision, uplo, run$threads, batch_shape(da, names_k))
  out <- list(d = res$d, e = res$e, Q = res$Q) # shaped by the C glue; Q = NULL stays in the list
  with_outcome(out, res, "bsym_tridiagonalize")
}
