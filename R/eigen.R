# bsym_eigen() and bsym_tridiag_eigen() (documented in man/).

bsym_eigen <- function(A, vectors = TRUE, index = NULL, interval = NULL,
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  check_flag(vectors, "vectors")
  run <- run_choices(device, precision)
  uplo <- match_choice(uplo, "uplo", c("L", "U"))
  check_numeric(A, "A")
  da <- batch_dims(A)
  sel <- eigen_select(index, interval, da$n)
  res <- .Call(bsym_r_eigen, as_double(A), NULL, NULL, as.double(c(da$n, da$batch)), vectors,
               sel, run$device, run$precision, uplo, run$threads)
  eigen_result(res, da, if (da$one) NULL else dimnames(A)[[3]], interval, "bsym_eigen")
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
               run$threads)
  eigen_result(res, dd, if (dd$one) NULL else dimnames(diag)[[2]], interval, "bsym_tridiag_eigen")
}

# The selection c(kind, a, b) handed to the core, which counts eigenvalues in
# ascending order: kind 0 all; 1 the a-th to b-th smallest, from index =
# c(i, j) (the i-th to j-th largest, in R's decreasing order); 2 the
# interval (a, b]. Errors name the argument.
eigen_select <- function(index, interval, n) {
  if (!is.null(index) && !is.null(interval))
    stop("index and interval cannot both be given: choose the eigenvalues by rank or by value",
         call. = FALSE)
  got <- function(x) paste(deparse(x, nlines = 1L), collapse = "")
  if (!is.null(index)) {
    ok <- is.numeric(index) && length(index) == 2L && all(is.finite(index)) &&
      all(index == round(index)) && index[1] >= 1 && index[1] <= index[2] && index[2] <= n
    if (!ok)
      stop(sprintf("index must be two integers 1 <= i <= j <= n (n = %d, got %s)", n, got(index)),
           call. = FALSE)
    return(as.double(c(1, n - index[2] + 1, n - index[1] + 1)))
  }
  if (!is.null(interval)) {
    ok <- is.numeric(interval) && length(interval) == 2L && !anyNA(interval) &&
      interval[1] < interval[2]
    if (!ok)
      stop(sprintf("interval must be two numbers lo < hi, the values in (lo, hi] being kept (got %s)",
                   got(interval)), call. = FALSE)
    return(as.double(c(2, interval)))
  }
  c(0, 0, 0)
}

# The list R returns from the .Call result res (values and vectors already
# decreasing, m rows, NA where a system failed), shaped for the batch dims
# `da` with the batch names names_k; count only for an interval; one warning
# for the systems that failed.
eigen_result <- function(res, da, names_k, interval, fun) {
  n <- da$n
  out <- list(values = as_batch(res$values, res$m, da, names_k),
              vectors = as_batch(res$vectors, c(n, res$m), da, names_k)) # NULL stays in the list
  if (!is.null(interval)) out$count <- res$count
  out$info <- res$info
  warn_failed(res$info, fun, "diagonalized", "non-finite input or no convergence", "$info")
  attr(out, "device") <- res$device
  out
}
