# bsym_solve() and the device queries (documented in man/).

bsym_solve <- function(A, B, method = "ldlt",
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  method <- match_choice(method, "method", c("ldlt", "tridiag"))
  device <- match_choice(device, "device", c("auto", "cpu", "gpu"))
  precision <- match_choice(precision, "precision", c("double", "single"))
  uplo <- match_choice(uplo, "uplo", c("L", "U"))
  check_numeric(A, "A")
  check_numeric(B, "B")
  da <- batch_dims(A)
  shape <- rhs_shape(B, da)
  # integers to doubles; a double array is passed as it is (no copy)
  if (!is.double(A)) storage.mode(A) <- "double"
  if (!is.double(B)) storage.mode(B) <- "double"
  threads <- as.integer(getOption("batchsym.threads", 0L))
  res <- .Call(bsym_r_solve, A, B, as.double(c(da$n, shape$nrhs, da$batch)),
               method, device, precision, uplo, threads)
  x <- shape_like(res$x, B)
  warn_failed(res$info, "bsym_solve")
  attr(x, "info") <- res$info
  attr(x, "device") <- res$device
  x
}

bsym_gpu_available <- function() {
  isTRUE(.Call(bsym_r_device_info)$gpu_available)
}

bsym_device_info <- function() {
  .Call(bsym_r_device_info)
}
