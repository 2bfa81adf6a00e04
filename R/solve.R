# bsym_solve() and the device queries (documented in man/).

bsym_solve <- function(A, B, method = "auto", rcond = 1e-5, tol = NULL, plan = NULL,
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  opts <- solve_options(method, rcond, tol)
  run <- run_choices(device, precision)
  uplo <- match_choice(uplo, "uplo")
  check_numeric(A, "A", complex = TRUE)
  check_numeric(B, "B", complex = TRUE)
  da <- batch_dims(A)
  shape <- rhs_shape(B, da)
  fields <- plan_for(plan, method, "bsym_solve")
  cplx <- is.complex(A) || is.complex(B) # then both go complex (Hermitian A)
  res <- with_progress_of(da$batch, .Call(bsym_r_solve, as_data(A, cplx), as_data(B, cplx),
                                          as.double(c(da$n, shape$nrhs, da$batch)), opts, fields,
                                          run$device, run$precision, uplo, run$threads))
  plan_store(plan, res$plan)
  warn_failed(res$failed, "bsym_solve")
  res$x # shaped, with its attributes, by the C glue (bsym_r_shape_like)
}

bsym_gpu_available <- function() {
  isTRUE(.Call(bsym_r_device_info)$gpu_available)
}

bsym_device_info <- function() {
  use_gpus() # $gpus: the GPUs of the next call, options(batchsym.gpus) included
  .Call(bsym_r_device_info)
}

# The host link of GPU `gpu` (not exported; for the benchmarks): c(h2d, d2h),
# the rates in GB/s (1e9 bytes/s) of pinned copies of `bytes` to the device
# and back, each the best of three (bsym_gpus_link_rate). With several ids,
# `bytes` to and from each of them at once, the rates those links carry
# together. An error of class batchsym_no_device without a usable GPU.
link_rate <- function(bytes, gpu = 0L) {
  if (!is.numeric(bytes) || length(bytes) != 1L || !is.finite(bytes) || bytes < 1)
    arg_error(sprintf("bytes must be a single number >= 1 (got %s)", got_text(bytes)))
  if (!is.numeric(gpu) || !length(gpu) || anyNA(gpu) || any(gpu != trunc(gpu)) ||
      any(abs(gpu) > .Machine$integer.max))
    arg_error(sprintf("gpu must be device ids, whole numbers (got %s)", got_text(gpu)))
  .Call(bsym_r_link_rate, as.double(bytes), as.integer(gpu))
}

# The CPU backend: list(threads, simd, chunk), the OpenMP threads by default,
# the vector instructions chosen at run time and the systems between two
# interrupt checks and progress reports.
cpu_info <- function() .Call(bsym_r_cpu_info)
