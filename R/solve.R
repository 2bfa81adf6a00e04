# bsym_solve() and the device queries (documented in man/).

bsym_solve <- function(A, B, method = "ldlt",
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  method <- match_choice(method, "method", c("ldlt", "tridiag"))
  run <- run_choices(device, precision)
  uplo <- match_choice(uplo, "uplo", c("L", "U"))
  check_numeric(A, "A")
  check_numeric(B, "B")
  da <- batch_dims(A)
  shape <- rhs_shape(B, da)
  res <- .Call(bsym_r_solve, as_double(A), as_double(B), as.double(c(da$n, shape$nrhs, da$batch)),
               method, run$device, run$precision, uplo, run$threads)
  with_outcome(shape_like(res$x, B), res, "bsym_solve")
}

bsym_gpu_available <- function() {
  isTRUE(.Call(bsym_r_device_info)$gpu_available)
}

bsym_device_info <- function() {
  .Call(bsym_r_device_info)
}
