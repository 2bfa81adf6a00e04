# options(batchsym.gpus): the GPUs of a call. R checks the type, the core the
# ids (its errors name gpus); every bsym_* call reads the option, and
# bsym_device_info()$gpus says which GPUs the next call would use.

A <- array(diag(3) * 2, c(3, 3, 4))
B <- matrix(1, 3, 4)

test_that("a bad options(batchsym.gpus) is a batchsym_bad_argument naming gpus, in every function", {
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old), add = TRUE)
  d <- matrix(4, 5, 4)
  e <- matrix(1, 4, 4)
  calls <- list(
    solve = function() bsym_solve(A, B),
    eigen = function() bsym_eigen(A),
    tridiag_eigen = function() bsym_tridiag_eigen(d, e),
    tridiagonalize = function() bsym_tridiagonalize(A),
    tridiag_solve = function() bsym_tridiag_solve(e, d, NULL, matrix(1, 5, 4)),
    lsfit = function() bsym_lsfit(array(rnorm(5 * 2 * 4), c(5, 2, 4)), matrix(1, 5, 4)))
  bad <- list(-1, c(0, 0), "a", 1.5, NA, NA_real_, Inf, TRUE, list(0), 0:16)
  for (value in bad) {
    options(batchsym.gpus = value)
    for (f in names(calls)) {
      err <- tryCatch(calls[[f]](), batchsym_bad_argument = function(e) e)
      expect_s3_class(err, "batchsym_bad_argument")
      expect_s3_class(err, "error")
      expect_match(conditionMessage(err), "gpus", info = paste(f, deparse(value)))
    }
  }
  # the messages say what is wrong: the core's for the ids, R's for the type
  options(batchsym.gpus = -1)
  expect_error(bsym_solve(A, B), "gpus must be device ids >= 0 \\(got -1\\)", class = "batchsym_bad_argument")
  options(batchsym.gpus = c(0, 0))
  expect_error(bsym_solve(A, B), "gpus names device 0 twice", class = "batchsym_bad_argument")
  options(batchsym.gpus = 0:16)
  expect_error(bsym_solve(A, B), "gpus must list 0 to 16 device ids \\(got 17\\)",
               class = "batchsym_bad_argument")
  options(batchsym.gpus = 1.5)
  expect_error(bsym_solve(A, B), "options\\(batchsym.gpus\\) must be NULL.*whole numbers.*1.5",
               class = "batchsym_bad_argument")
  options(batchsym.gpus = "0")
  expect_error(bsym_solve(A, B), "options\\(batchsym.gpus\\) must be NULL.*\"0\"",
               class = "batchsym_bad_argument")
  # bsym_device_info() reads the option too
  expect_error(bsym_device_info(), "gpus", class = "batchsym_bad_argument")
})

test_that("the option is read at every call and resets cleanly", {
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old), add = TRUE)
  x0 <- bsym_solve(A, B)
  all_gpus <- bsym_device_info()$gpus
  options(batchsym.gpus = c(0, 0))
  expect_error(bsym_solve(A, B), "gpus", class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B), "gpus", class = "batchsym_bad_argument") # again: not only once
  options(batchsym.gpus = 0)
  expect_identical(c(bsym_solve(A, B)), c(x0))
  options(batchsym.gpus = -2)
  expect_error(bsym_solve(A, B), "got -2", class = "batchsym_bad_argument")
  options(batchsym.gpus = 0)
  expect_identical(bsym_solve(A, B), x0) # the same value again after an error
  # unset again: the next call uses every visible GPU, nothing left behind
  options(batchsym.gpus = NULL)
  expect_identical(bsym_device_info()$gpus, all_gpus)
  expect_identical(bsym_solve(A, B), x0)
  options(batchsym.gpus = integer(0)) # an empty vector: every visible GPU, as NULL
  expect_identical(bsym_device_info()$gpus, all_gpus)
})

test_that("bsym_device_info()$gpus is the integer ids of the next GPU call", {
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old), add = TRUE)
  info <- bsym_device_info()
  expect_true("gpus" %in% names(info))
  expect_type(info$gpus, "integer")
  if (!info$gpu_available) {
    expect_identical(info$gpus, integer(0))
    options(batchsym.gpus = c(0, 3)) # ids >= 0 are accepted where no GPU is visible; none is used
    expect_identical(bsym_device_info()$gpus, integer(0))
  } else {
    expect_identical(info$gpus, seq_len(min(info$device_count, 16L)) - 1L)
    options(batchsym.gpus = max(info$gpus))
    expect_identical(bsym_device_info()$gpus, max(info$gpus))
    options(batchsym.gpus = length(info$gpus)) # one past the last visible id
    expect_error(bsym_device_info(), "gpus names device", class = "batchsym_bad_argument")
  }
})

test_that("on the CPU, options(batchsym.gpus = 0) changes no result", {
  set.seed(61)
  n <- 9
  Ar <- random_spd(n, 30)
  Br <- matrix(rnorm(n * 30), n)
  X <- rnorm(7 * 3 * 30)
  run <- function() list(bsym_solve(Ar, Br, device = "cpu"),
                         bsym_solve(Ar, Br, device = "cpu", method = "tridiag", precision = "single"),
                         bsym_eigen(Ar, device = "cpu"),
                         bsym_tridiagonalize(Ar, device = "cpu"),
                         bsym_lsfit(array(X, c(7, 3, 30)), matrix(1, 7, 30), device = "cpu"))
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old), add = TRUE)
  without <- run()
  options(batchsym.gpus = 0)
  expect_identical(run(), without)
  options(batchsym.gpus = rev(seq_len(max(1L, length(bsym_device_info()$gpus))) - 1L)) # all, listed backwards
  expect_identical(run(), without)
})

test_that("on the GPU, every single GPU and all of them give identical results", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old), add = TRUE)
  all_gpus <- bsym_device_info()$gpus
  set.seed(62)
  n <- 32
  # large enough to be spread over every GPU: each gets at least 32 MiB of A
  batch <- 8200L * length(all_gpus) + 37L
  base <- random_spd(n, 1)[, , 1]
  Ab <- array(base, c(n, n, batch))
  Ab[1, 1, ] <- Ab[1, 1, ] + seq_len(batch) / batch
  Ab[2, 2, ] <- Ab[2, 2, ] + rev(seq_len(batch)) / batch
  Bb <- matrix(rnorm(n * batch), n)
  run <- function() list(ldlt = bsym_solve(Ab, Bb, method = "ldlt", device = "gpu"),
                         auto = bsym_solve(Ab, Bb, device = "gpu", precision = "single"),
                         eigen = bsym_eigen(Ab, vectors = FALSE, device = "gpu")$values)
  on_all <- run()
  expect_identical(attr(on_all$ldlt, "device"), "gpu")
  expect_identical(attr(on_all$ldlt, "info"), integer(batch))
  for (g in all_gpus) {
    options(batchsym.gpus = g)
    expect_identical(bsym_device_info()$gpus, g)
    expect_identical(run(), on_all, info = sprintf("GPU %d alone", g))
  }
  options(batchsym.gpus = rev(all_gpus)) # the same GPUs listed in another order
  expect_identical(run(), on_all)
})

test_that("link_rate() measures the host link, or says there is no GPU", {
  expect_error(batchsym:::link_rate("a"), "bytes", class = "batchsym_bad_argument")
  expect_error(batchsym:::link_rate(0), "bytes", class = "batchsym_bad_argument")
  expect_error(batchsym:::link_rate(1e6, gpu = 0.5), "gpu", class = "batchsym_bad_argument")
  if (!bsym_gpu_available()) {
    expect_error(batchsym:::link_rate(1e6), class = "batchsym_no_device")
  } else {
    r <- batchsym:::link_rate(2^24)
    expect_identical(names(r), c("h2d", "d2h"))
    expect_true(all(is.finite(r) & r > 0))
    expect_error(batchsym:::link_rate(2^20, gpu = -1), "gpu", class = "batchsym_bad_argument")
    expect_error(batchsym:::link_rate(2^20, gpu = c(0, 0)), "twice", class = "batchsym_bad_argument")
    all_gpus <- seq_len(bsym_device_info()$device_count) - 1L
    together <- batchsym:::link_rate(2^24, gpu = all_gpus) # every GPU at once
    expect_true(all(is.finite(together) & together > 0))
  }
})
