# bsym_eigen() and bsym_tridiag_eigen() (documented in man/).

bsym_eigen <- function(A, vectors = TRUE, index = NULL, interval = NULL,
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  check_flag(vectors, "vectors")
  run <- run_choices(device, precision)
  uplo <- match_choice(uplo, "uplo")
  check_numeric(A, "A", complex = TRUE) # complex: Hermitian (values real, vectors complex)
  da <- batch_dims(A)
  sel <- eigen_select(index, interval, da$n)
  shape <- batch_shape(da, if (da$one) NULL else dimnames(A)[[3]])
  res <- with_progress_of(da$batch, .Call(bsym_r_eigen, as_data(A, is.complex(A)), NULL, NULL,
                                          as.double(c(da$n, da$batch)), vectors, sel, run$device,
                                          run$precision, uplo, run$threads, shape))
  eigen_result(res, interval, "bsym_eigen")
}

bsym_tridiag_eigen <- function(diag, offdiag, vectors = TRUE, index = NULL, interval = NULL,
                               device = getOption("batchsym.device", "auto"),
                               precision = getOption("batchsym.precision", "double")) {
  check_flag(vectors, "vectors")
  run <- run_choices(device, precision)
  check_numeric(diag, "diag")
  check_numeric(offdiag, "offdiag")
  dd <- band_dims(diag, "diag")
  check_offdiag(offdiag, "offdiag", dd)
  sel <- eigen_select(index, interval, dd$n)
  res <- .Call(bsym_r_eigen, NULL, as_double(diag), as_double(offdiag),
               as.double(c(dd$n, dd$batch)), vectors, sel, run$device, run$precision, "L",
               run$threads, batch_shape(dd, if (dd$one) NULL else dimnames(diag)[[2]]))
  eigen_result(res, interval, "bsym_tridiag_eigen")
}

# The selection c(kind, a, b) handed to the core, which counts eigenvalues in
# ascending order: kind 0 all; 1 the a-th to b-th smallest, from index =
# c(i, j) (the i-th to j-th largest, in R's decreasing order); 2 the
# interval (a, b]. R checks the types; the core the values (bsym_select_make).
eigen_select <- function(index, interval, n) {
  if (!is.null(index) && (!is.numeric(index) || length(index) != 2L))
    arg_error(sprintf("index must be two integers (got %s)", got_text(index)))
  if (!is.null(interval) && (!is.numeric(interval) || length(interval) != 2L))
    arg_error(sprintf("interval must be two numbers (got %s)", got_text(interval)))
  .Call(bsym_r_select, if (is.null(index)) NULL else as.double(index),
        if (is.null(interval)) NULL else as.double(interval), as.double(n))
}

# The list R returns from the .Call result res (values and vectors already
# decreasing, m rows, NA where a system failed, shaped by the C glue);
# count only for an interval; one warning for the systems that failed.
eigen_result <- function(res, interval, fun) {
  out <- list(values = res$values, vectors = res$vectors) # NULL stays in the list
  if (!is.null(interval)) out$count <- res$count
  out$info <- res$info
  warn_failed(res$failed, fun, "$info")
  attr(out, "device") <- res$device
  out
}
