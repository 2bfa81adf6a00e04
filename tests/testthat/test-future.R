# R's future framework as the engine past one session (README, "Past one
# machine"): a batch cut into chunks, each solved by bsym_*() on a
# future.apply worker, gives exactly the results of one call.

test_that("chunks on two multisession workers give the results of one call", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  # an R without its socket routines (the runtime packed for the GPU
  # machine) cannot start workers: nothing of batchsym's to test there
  oplan <- tryCatch(future::plan(future::multisession, workers = 2),
                    error = function(e) skip(paste("no multisession workers here:", conditionMessage(e))))
  on.exit(future::plan(oplan), add = TRUE)
  set.seed(81)
  n <- 8
  batch <- 60
  A <- array(c(random_spd(n, 40), conditioned_sym(n, 20, 1e7)), c(n, n, batch))
  B <- matrix(rnorm(n * batch), n, batch)
  chunks <- split(seq_len(batch), rep(1:3, each = 20))
  parts <- future.apply::future_lapply(chunks, function(k) {
    x <- batchsym::bsym_solve(A[, , k, drop = FALSE], B[, k, drop = FALSE], device = "cpu")
    list(x = unclass(x), method = attr(x, "method"), rank = attr(x, "rank"), pid = Sys.getpid())
  }, future.seed = TRUE)
  one <- bsym_solve(A, B, device = "cpu")
  X <- do.call(cbind, lapply(parts, `[[`, "x"))
  expect_identical(dim(X), dim(one))
  expect_identical(c(X), c(one)) # the same numbers, bit for bit
  expect_equal(unlist(lapply(parts, `[[`, "method"), use.names = FALSE), attr(one, "method"))
  expect_equal(unlist(lapply(parts, `[[`, "rank"), use.names = FALSE), attr(one, "rank"))
  expect_true(all(vapply(parts, `[[`, 0, "pid") != Sys.getpid())) # solved by the workers
  # eigendecompositions too
  ev <- future.apply::future_lapply(chunks, function(k) batchsym::bsym_eigen(A[, , k, drop = FALSE],
                                                                            device = "cpu")$values)
  expect_identical(c(do.call(cbind, ev)), c(bsym_eigen(A, device = "cpu")$values))
})
