# bsym_solve() against base::solve on random SPD and the paper's matrices.

sizes <- c(1, 2, 3, 5, 16, 31, 32, 33, 64)

test_that("random SPD batches match solve() in double and single", {
  set.seed(1)
  for (n in sizes) {
    batch <- if (n <= 16) 40 else 9
    A <- random_spd(n, batch)
    B <- matrix(rnorm(n * batch), n, batch)
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, precision = precision)
      expect_equal(dim(X), dim(B))
      expect_equal(attr(X, "info"), integer(batch))
      expect_lt(backward_error(A, B, X), 10 * n * eps_of(precision))
      ref <- vapply(seq_len(batch), function(k) solve(A[, , k], B[, k]), numeric(n))
      ref <- matrix(ref, n, batch)
      # forward error: cond(A) <= 4n + 4 for these matrices
      expect_lt(max(abs(X - ref)) / max(abs(ref)), 100 * n * n * eps_of(precision))
    }
  }
})

test_that("the paper's randomised Xi_rho matrices are solved to backward stability", {
  set.seed(2)
  for (n in c(5, 16, 30, 32, 33, 64)) {
    A <- xi_rho_random(n, 6, rho = 0.7)
    B <- matrix(rnorm(n * 6), n, 6)
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, precision = precision)
      expect_equal(attr(X, "info"), integer(6))
      expect_lt(backward_error(A, B, X), 10 * n * eps_of(precision))
    }
  }
})

test_that("ill-conditioned SPD systems are backward stable and agree with solve()", {
  set.seed(3)
  n <- 12
  Q <- qr.Q(qr(matrix(rnorm(n * n), n)))
  A <- array(0, c(n, n, 3))
  for (k in 1:3) A[, , k] <- Q %*% diag(10^seq(0, -(2 * k + 2), length.out = n)) %*% t(Q)
  A <- (A + aperm(A, c(2, 1, 3))) / 2
  B <- matrix(rnorm(n * 3), n, 3)
  X <- bsym_solve(A, B)
  expect_equal(attr(X, "info"), integer(3))
  expect_lt(backward_error(A, B, X), 10 * n * eps_of("double"))
  for (k in 1:3) {
    ref <- solve(A[, , k], B[, k])
    cond <- kappa(A[, , k], exact = TRUE)
    expect_lt(max(abs(X[, k] - ref)) / max(abs(ref)), 10 * n * cond * eps_of("double"))
  }
})

test_that("multiple right-hand sides, n x k x batch", {
  set.seed(4)
  n <- 7
  A <- random_spd(n, 5)
  B <- array(rnorm(n * 3 * 5), c(n, 3, 5))
  X <- bsym_solve(A, B)
  expect_equal(dim(X), c(n, 3, 5))
  for (k in 1:5) expect_equal(X[, , k], solve(A[, , k], B[, , k]), tolerance = 1e-10)
  expect_lt(backward_error(A, B, X), 10 * n * eps_of("double"))
})

test_that("a matrix A is a batch of one, and the result keeps B's shape", {
  set.seed(5)
  A <- random_spd(4, 1)[, , 1]
  b <- rnorm(4)
  x <- bsym_solve(A, b)
  expect_null(dim(x))
  expect_equal(as.vector(x), solve(A, b), tolerance = 1e-12)
  Bk <- matrix(rnorm(8), 4, 2, dimnames = list(letters[1:4], c("u", "v")))
  X <- bsym_solve(A, Bk)
  expect_equal(dimnames(X), dimnames(Bk))
  expect_equal(unclass(X)[, ], solve(A, Bk), tolerance = 1e-12, ignore_attr = TRUE)
})

test_that("dimnames of the batch dimension are kept", {
  A <- random_spd(3, 2)
  B <- matrix(1, 3, 2, dimnames = list(NULL, c("first", "second")))
  X <- bsym_solve(A, B)
  expect_equal(colnames(X), c("first", "second"))
})

test_that("uplo = 'U' reads only the upper triangle, 'L' only the lower", {
  set.seed(6)
  n <- 6
  A <- random_spd(n, 4)
  B <- matrix(rnorm(n * 4), n, 4)
  ref <- bsym_solve(A, B)
  Au <- A
  Al <- A
  for (k in 1:4) {
    Au[, , k][lower.tri(Au[, , k])] <- NA
    Al[, , k][upper.tri(Al[, , k])] <- NA
  }
  expect_equal(bsym_solve(Au, B, uplo = "U"), ref, tolerance = 1e-12, ignore_attr = TRUE)
  expect_equal(bsym_solve(Al, B, uplo = "L"), ref, tolerance = 1e-12, ignore_attr = TRUE)
})

test_that("integer input is accepted", {
  A <- array(c(2L, 0L, 0L, 4L), c(2, 2, 1))
  X <- bsym_solve(A, matrix(c(2L, 4L), 2, 1))
  expect_equal(as.vector(X), c(1, 1))
})

test_that("bad systems are NA with one warning, the others are solved", {
  set.seed(7)
  n <- 4
  A <- random_spd(n, 6)
  B <- matrix(rnorm(n * 6), n, 6)
  A[2, 1, 2] <- Inf                   # non-finite: info -1
  A[, , 4] <- matrix(1, n, n)         # rank one: D_2 = 0, info 2
  A[, , 5] <- 0                       # zero: info 1
  B[3, 6] <- NA                       # non-finite right-hand side
  expect_warning(X <- bsym_solve(A, B), "4 of 6 systems", fixed = TRUE)
  expect_equal(attr(X, "info"), c(0L, -1L, 0L, 2L, 1L, -1L))
  expect_true(all(is.na(X[, c(2, 4, 5, 6)])))
  expect_false(any(is.nan(X[, c(2, 4, 5, 6)])))
  for (k in c(1, 3)) expect_equal(X[, k], solve(A[, , k], B[, k]), tolerance = 1e-12)
})

test_that("symmetric indefinite systems with safe pivots are solved", {
  A <- array(diag(c(-2, 3, -4)), c(3, 3, 1))
  X <- bsym_solve(A, matrix(1, 3, 1))
  expect_equal(as.vector(X), c(-1 / 2, 1 / 3, -1 / 4))
})

test_that("an empty batch gives an empty result of the right shape", {
  X <- bsym_solve(array(0, c(3, 3, 0)), matrix(0, 3, 0))
  expect_equal(dim(X), c(3L, 0L))
  expect_equal(attr(X, "info"), integer(0))
  X3 <- bsym_solve(array(0, c(3, 3, 0)), array(0, c(3, 2, 0)))
  expect_equal(dim(X3), c(3L, 2L, 0L))
})

test_that("n larger than the GPU limit is solved on the CPU under auto", {
  set.seed(8)
  n <- 70
  A <- random_spd(n, 2)
  B <- matrix(rnorm(n * 2), n, 2)
  X <- bsym_solve(A, B, device = "auto")
  expect_equal(attr(X, "device"), "cpu")
  expect_lt(backward_error(A, B, X), 10 * n * eps_of("double"))
})
