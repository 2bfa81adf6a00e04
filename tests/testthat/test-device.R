# Device reporting, and CPU and GPU giving the same answers.

test_that("bsym_device_info() describes the build and the device", {
  info <- bsym_device_info()
  expect_type(info, "list")
  expect_true(all(c("built_with_cuda", "gpu_available", "name", "total_memory", "reason") %in% names(info)))
  expect_identical(bsym_gpu_available(), info$gpu_available)
  if (!info$gpu_available) expect_true(nzchar(info$reason))
})

test_that("the CPU and the GPU give the same answers", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(11)
  for (n in c(1, 3, 8, 16, 31, 32, 33, 48, 64)) {
    A <- random_spd(n, 50)
    B <- array(rnorm(n * 2 * 50), c(n, 2, 50))
    for (precision in c("double", "single")) {
      Xc <- bsym_solve(A, B, device = "cpu", precision = precision)
      Xg <- bsym_solve(A, B, device = "gpu", precision = precision)
      expect_equal(attr(Xg, "device"), "gpu")
      expect_equal(attr(Xg, "info"), attr(Xc, "info"))
      expect_lt(max(abs(Xc - Xg)) / max(abs(Xc)), 100 * n * eps_of(precision))
    }
  }
})

test_that("the GPU reports bad systems like the CPU", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  A <- random_spd(5, 4)
  A[, , 2] <- 1
  A[3, 3, 3] <- NaN
  B <- matrix(1, 5, 4)
  expect_warning(Xg <- bsym_solve(A, B, method = "ldlt", device = "gpu"), "2 of 4")
  expect_equal(attr(Xg, "info"), c(0L, 2L, -1L, 0L))
  expect_true(all(is.na(Xg[, 2:3])))
})

test_that("a batch larger than one GPU chunk is solved completely", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  n <- 32
  batch <- 70000 # 70000 * 8 KiB > one 128 MiB chunk
  base <- random_spd(n, 1)[, , 1]
  A <- array(base, c(n, n, batch))
  A[1, 1, ] <- A[1, 1, ] + seq_len(batch) / batch
  B <- matrix(1, n, batch)
  X <- bsym_solve(A, B, device = "gpu")
  expect_equal(attr(X, "info"), integer(batch))
  idx <- c(1, 16384, 16385, 40000, batch)
  expect_lt(backward_error(A[, , idx], B[, idx], X[, idx]), 10 * n * eps_of("double"))
})
