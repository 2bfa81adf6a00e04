# bsym_tridiag_solve() and bsym_solve(method = "tridiag") against base R.
#
# Bounds (u = eps of the working precision), per system:
#   backward error ||b - T x|| / (||T|| ||x|| + ||b||)  <= C_BWD * n * u
#   forward error  ||x - x_ref|| / ||x_ref||            <= C_FWD * n * u * kappa
# with kappa an upper bound (Varah) or LAPACK's estimate of the condition
# number, and x_ref from solve() (the Thomas algorithm for n = 5000).
#
# C_BWD = C_FWD = 10. Measured on the CPU (200 systems per case, n = 1 ..
# 1000): bsym_tridiag_solve on diagonally dominant and on SPD (not dominant)
# T has backward errors <= 0.7 n u and forward errors <= 1.1 n u kappa;
# method "tridiag" on the Xi_rho matrices with a dominant core <= 0.11 n u.
#
# What PCR does not give, and so the tests do not ask:
# - a small residual for ill-conditioned systems: every unknown comes out of
#   its own chain of Schur complements, so x is forward-accurate (observed
#   <= 0.05 n u cond at cond 1e8) but ||b - A x|| is not small: backward
#   errors of 200 .. 47000 n u at cond 1e8 (the Thomas algorithm on the same
#   T: 0.003 n u; a plain PCR written in R: the same as the core). Only the
#   forward error is bounded there.
# - stability on symmetric INDEFINITE T: like LDL^T, PCR does not pivot, so
#   a small pivot of T spoils that system (bsym_tridiag_solve reports only
#   exact breakdowns). bsym_solve(method = "tridiag") therefore checks the
#   residual of PCR on T y = Q^T b and, where it is not below 4 n u, solves
#   T again by Gaussian elimination with partial pivoting: its solutions are
#   backward stable on indefinite and ill-conditioned A too (before that
#   fallback, 2 to 3.5 % of random indefinite systems had a backward error
#   above 10 n u, the largest 6000 n u; A[1, 1] = 0 stopped the CPU).

C_BWD <- 10
C_FWD <- 10

# Forward error of X against the reference R, relative to max |R| per system.
fwd_err <- function(X, R) max(abs(X - R)) / max(abs(R))

# Dense solves of a tridiagonal batch, one column per system (nrhs = 1).
dense_solves <- function(lower, diag, upper, B) {
  if (is.null(upper)) upper <- lower
  n <- nrow(diag)
  vapply(seq_len(ncol(diag)), function(k)
    solve(tridiag_dense(lower[, k], diag[, k], upper[, k]), B[, k]), numeric(n))
}

# ---- bsym_tridiag_solve ------------------------------------------------------

tsizes <- c(1, 2, 3, 7, 32, 33, 100, 1000)

test_that("diagonally dominant general systems match solve() in double and single", {
  set.seed(31)
  for (n in tsizes) {
    batch <- if (n <= 33) 20 else if (n <= 100) 6 else 2
    s <- dd_tridiag(n, batch)
    B <- matrix(rnorm(n * batch), n, batch)
    ref <- matrix(dense_solves(s$lower, s$diag, s$upper, B), n, batch)
    # kappa_inf(T) <= ||T||_inf / min_i (|d_i| - |l_{i-1}| - |u_i|) (Varah)
    rows <- abs(s$diag) - rbind(0, abs(s$lower)) - rbind(abs(s$upper), 0)
    tnorm <- max(abs(s$diag) + rbind(0, abs(s$lower)) + rbind(abs(s$upper), 0))
    kappa <- tnorm / min(rows)
    for (precision in c("double", "single")) {
      X <- bsym_tridiag_solve(s$lower, s$diag, s$upper, B, precision = precision)
      expect_equal(dim(X), dim(B))
      expect_equal(attr(X, "info"), integer(batch))
      u <- eps_of(precision)
      expect_lt(tridiag_backward_error(s$lower, s$diag, s$upper, B, X), C_BWD * n * u,
                label = sprintf("backward error, n = %d, %s", n, precision))
      expect_lt(fwd_err(X, ref), C_FWD * n * u * kappa,
                label = sprintf("forward error, n = %d, %s", n, precision))
    }
  }
})

test_that("symmetric positive definite, not diagonally dominant systems (upper = NULL)", {
  set.seed(32)
  for (n in tsizes) {
    batch <- if (n <= 33) 20 else if (n <= 100) 6 else 2
    s <- spd_tridiag(n, batch)
    if (n >= 7) { # the generator's promise: some rows are not dominant
      rows <- s$diag - rbind(0, abs(s$lower)) - rbind(abs(s$lower), 0)
      expect_true(any(rows < 0))
    }
    B <- matrix(rnorm(n * batch), n, batch)
    ref <- matrix(dense_solves(s$lower, s$diag, NULL, B), n, batch)
    kappa <- max(vapply(seq_len(batch), function(k)
      1 / rcond(tridiag_dense(s$lower[, k], s$diag[, k])), 0))
    for (precision in c("double", "single")) {
      X <- bsym_tridiag_solve(s$lower, s$diag, rhs = B, precision = precision)
      expect_equal(attr(X, "info"), integer(batch))
      u <- eps_of(precision)
      expect_lt(tridiag_backward_error(s$lower, s$diag, NULL, B, X), C_BWD * n * u,
                label = sprintf("backward error, n = %d, %s", n, precision))
      expect_lt(fwd_err(X, ref), C_FWD * n * u * kappa,
                label = sprintf("forward error, n = %d, %s", n, precision))
      # upper = NULL is upper = lower
      X2 <- bsym_tridiag_solve(s$lower, s$diag, s$lower, B, precision = precision)
      expect_lt(fwd_err(X2, X), C_FWD * n * u * kappa)
    }
  }
})

test_that("a long system, n = 5000, against the Thomas algorithm", {
  set.seed(33)
  n <- 5000
  s <- dd_tridiag(n, 1)
  b <- rnorm(n)
  ref <- thomas(s$lower[, 1], s$diag[, 1], s$upper[, 1], b)
  kappa <- max(abs(s$diag) + c(0, abs(s$lower)) + c(abs(s$upper), 0)) /
    min(abs(s$diag) - c(0, abs(s$lower)) - c(abs(s$upper), 0))
  for (precision in c("double", "single")) {
    u <- eps_of(precision)
    x <- bsym_tridiag_solve(s$lower[, 1], s$diag[, 1], s$upper[, 1], b, precision = precision)
    expect_null(dim(x))
    expect_equal(attr(x, "info"), 0L)
    expect_lt(tridiag_backward_error(s$lower, s$diag, s$upper, b, x), C_BWD * n * u)
    expect_lt(fwd_err(x, ref), C_FWD * n * u * kappa)
  }
  sp <- spd_tridiag(n, 1)
  x <- bsym_tridiag_solve(sp$lower, sp$diag, rhs = matrix(b, n, 1))
  expect_equal(attr(x, "info"), 0L)
  expect_lt(tridiag_backward_error(sp$lower, sp$diag, NULL, b, x), C_BWD * n * eps_of("double"))
})

test_that("multiple right-hand sides, n x k x batch, and dimnames", {
  set.seed(34)
  n <- 9
  s <- dd_tridiag(n, 4)
  B <- array(rnorm(n * 3 * 4), c(n, 3, 4), dimnames = list(NULL, c("a", "b", "c"), paste0("s", 1:4)))
  for (precision in c("double", "single")) {
    X <- bsym_tridiag_solve(s$lower, s$diag, s$upper, B, precision = precision)
    expect_equal(dim(X), c(n, 3L, 4L))
    expect_equal(dimnames(X), dimnames(B))
    expect_lt(tridiag_backward_error(s$lower, s$diag, s$upper, B, X), C_BWD * n * eps_of(precision))
    for (k in 1:4) {
      ref <- solve(tridiag_dense(s$lower[, k], s$diag[, k], s$upper[, k]), B[, , k])
      expect_equal(unname(X[, , k]), unname(ref), tolerance = 100 * n * eps_of(precision))
    }
  }
  Bc <- matrix(1, n, 4, dimnames = list(NULL, c("w", "x", "y", "z")))
  expect_equal(colnames(bsym_tridiag_solve(s$lower, s$diag, s$upper, Bc)), c("w", "x", "y", "z"))
})

test_that("one system: vector bands, a vector or an n x k matrix rhs, as solve()", {
  set.seed(35)
  n <- 6
  s <- dd_tridiag(n, 1)
  l <- s$lower[, 1]
  d <- s$diag[, 1]
  up <- s$upper[, 1]
  Tm <- tridiag_dense(l, d, up)
  b <- setNames(rnorm(n), letters[1:n])
  x <- bsym_tridiag_solve(l, d, up, b)
  expect_null(dim(x))
  expect_equal(names(x), letters[1:n])
  expect_equal(as.vector(x), as.vector(solve(Tm, b)), tolerance = 1e-12)
  Bk <- matrix(rnorm(2 * n), n, 2, dimnames = list(NULL, c("u", "v")))
  X <- bsym_tridiag_solve(l, d, up, Bk)
  expect_equal(dim(X), c(n, 2L))
  expect_equal(dimnames(X), dimnames(Bk))
  expect_equal(unclass(X)[, ], solve(Tm, Bk), tolerance = 1e-12, ignore_attr = TRUE)
  # symmetric
  xs <- bsym_tridiag_solve(l, abs(d) + 2, rhs = b)
  expect_equal(as.vector(xs), as.vector(solve(tridiag_dense(l, abs(d) + 2), b)), tolerance = 1e-12)
  # n = 1: empty bands
  expect_equal(as.vector(bsym_tridiag_solve(numeric(0), 4, rhs = 2)), 0.5)
  X1 <- bsym_tridiag_solve(matrix(0, 0, 3), matrix(c(1, 2, 4), 1, 3), matrix(0, 0, 3), matrix(2, 1, 3))
  expect_equal(as.vector(X1), c(2, 1, 0.5))
  # integers
  xi <- bsym_tridiag_solve(c(1L, 1L), c(4L, 4L, 4L), rhs = c(5L, 6L, 5L))
  expect_equal(as.vector(xi), c(1, 1, 1))
})

test_that("a singular system is NA with info > 0 and one warning, its neighbours are solved", {
  set.seed(36)
  n <- 8
  s <- dd_tridiag(n, 5)
  B <- matrix(rnorm(n * 5), n, 5)
  # system 2: row 4 is zero; system 4: an all-zero matrix
  s$diag[4, 2] <- 0
  s$lower[3, 2] <- 0
  s$upper[4, 2] <- 0
  s$diag[, 4] <- 0
  s$lower[, 4] <- 0
  s$upper[, 4] <- 0
  for (precision in c("double", "single")) {
    expect_warning(X <- bsym_tridiag_solve(s$lower, s$diag, s$upper, B, precision = precision),
                   "2 of 5 systems", fixed = TRUE)
    info <- attr(X, "info")
    expect_true(all(info[c(2, 4)] > 0 & info[c(2, 4)] <= n))
    expect_equal(info[c(1, 3, 5)], integer(3))
    expect_true(all(is.na(X[, c(2, 4)])))
    expect_false(any(is.nan(X[, c(2, 4)])))
    ok <- c(1, 3, 5)
    expect_lt(tridiag_backward_error(s$lower[, ok], s$diag[, ok], s$upper[, ok], B[, ok], X[, ok]),
              C_BWD * n * eps_of(precision))
  }
})

test_that("non-finite input is info -1 for that system only", {
  set.seed(37)
  n <- 5
  s <- dd_tridiag(n, 6)
  B <- matrix(rnorm(n * 6), n, 6)
  s$lower[2, 2] <- NaN
  s$diag[5, 3] <- Inf
  s$upper[1, 4] <- NA
  B[3, 5] <- -Inf
  for (precision in c("double", "single")) {
    expect_warning(X <- bsym_tridiag_solve(s$lower, s$diag, s$upper, B, precision = precision),
                   "4 of 6 systems", fixed = TRUE)
    expect_equal(attr(X, "info"), c(0L, -1L, -1L, -1L, -1L, 0L))
    expect_true(all(is.na(X[, 2:5])))
    expect_false(any(is.nan(X[, 2:5])))
    expect_lt(tridiag_backward_error(s$lower[, c(1, 6)], s$diag[, c(1, 6)], s$upper[, c(1, 6)],
                                     B[, c(1, 6)], X[, c(1, 6)]), C_BWD * n * eps_of(precision))
  }
  # upper = NULL: a NaN in lower is in both bands
  sp <- spd_tridiag(n, 2)
  sp$lower[4, 1] <- NaN
  expect_warning(X <- bsym_tridiag_solve(sp$lower, sp$diag, rhs = B[, 1:2]), "1 of 2")
  expect_equal(attr(X, "info"), c(-1L, 0L))
})

test_that("an empty batch gives an empty result of the right shape", {
  X <- bsym_tridiag_solve(matrix(0, 2, 0), matrix(0, 3, 0), NULL, matrix(0, 3, 0))
  expect_equal(dim(X), c(3L, 0L))
  expect_equal(attr(X, "info"), integer(0))
  X3 <- bsym_tridiag_solve(matrix(0, 2, 0), matrix(0, 3, 0), matrix(0, 2, 0), array(0, c(3, 2, 0)))
  expect_equal(dim(X3), c(3L, 2L, 0L))
})

test_that("every bad argument is an error naming it", {
  l <- matrix(1, 2, 4)
  d <- matrix(4, 3, 4)
  b <- matrix(1, 3, 4)
  # types
  for (bad in list("a", TRUE, list(1), NULL, factor("a")))
    expect_error(bsym_tridiag_solve(bad, d, l, b), "lower must be a numeric array")
  expect_error(bsym_tridiag_solve(l, matrix("4", 3, 4), l, b), "diag must be a numeric array")
  expect_error(bsym_tridiag_solve(l, matrix(TRUE, 3, 4), l, b), "diag must be a numeric array")
  expect_error(bsym_tridiag_solve(l, d, matrix("1", 2, 4), b), "upper must be a numeric array")
  expect_error(bsym_tridiag_solve(l, d, list(1), b), "upper must be a numeric array")
  expect_error(bsym_tridiag_solve(l, d, l, matrix("1", 3, 4)), "rhs must be a numeric array")
  expect_error(bsym_tridiag_solve(l, d, l, NULL), "rhs must be a numeric array")
  expect_error(bsym_tridiag_solve(l, d, l), "rhs")
  # complex
  expect_error(bsym_tridiag_solve(l + 0i, d, l, b), "lower must be real")
  expect_error(bsym_tridiag_solve(l, d + 0i, l, b), "diag must be real")
  expect_error(bsym_tridiag_solve(l, d, l + 0i, b), "upper must be real")
  expect_error(bsym_tridiag_solve(l, d, l, b + 0i), "rhs must be real")
  # shapes
  expect_error(bsym_tridiag_solve(l, array(4, c(3, 4, 1)), l, b), "diag must be a vector .* or an n x batch matrix")
  expect_error(bsym_tridiag_solve(matrix(1, 3, 4), d, l, b), "lower does not match diag.*2 x 4 matrix expected")
  expect_error(bsym_tridiag_solve(matrix(1, 2, 3), d, l, b), "lower does not match diag.*2 x 4 matrix expected")
  expect_error(bsym_tridiag_solve(c(1, 1), d, l, b), "lower does not match diag")
  expect_error(bsym_tridiag_solve(array(1, c(2, 4, 1)), d, l, b), "lower does not match diag")
  expect_error(bsym_tridiag_solve(l, d, matrix(1, 2, 5), b), "upper does not match diag")
  expect_error(bsym_tridiag_solve(l, d, c(1, 1), b), "upper does not match diag")
  expect_error(bsym_tridiag_solve(l, d, l, matrix(1, 4, 4)), "rhs does not match diag.*4 rows")
  expect_error(bsym_tridiag_solve(l, d, l, matrix(1, 3, 5)), "rhs does not match diag.*5 columns")
  expect_error(bsym_tridiag_solve(l, d, l, array(1, c(3, 2, 5))), "rhs does not match diag.*5 systems")
  expect_error(bsym_tridiag_solve(l, d, l, rep(1, 3)), "rhs does not match diag.*vector")
  expect_error(bsym_tridiag_solve(l, d, l, array(1, c(3, 1, 4, 1))), "rhs must be a vector")
  # one system in vector form
  expect_error(bsym_tridiag_solve(c(1, 1, 1), c(4, 4, 4), rhs = c(1, 1, 1)), "lower does not match diag.*length 2")
  expect_error(bsym_tridiag_solve(matrix(1, 2, 1), c(4, 4, 4), rhs = c(1, 1, 1)), "lower does not match diag.*length 2")
  expect_error(bsym_tridiag_solve(c(1, 1), c(4, 4, 4), c(1, 1, 1), c(1, 1, 1)), "upper does not match diag")
  expect_error(bsym_tridiag_solve(c(1, 1), c(4, 4, 4), rhs = c(1, 1)), "rhs does not match diag.*length 2")
  expect_error(bsym_tridiag_solve(c(1, 1), c(4, 4, 4), rhs = matrix(1, 2, 2)), "rhs does not match diag.*2 rows")
  # n = 1: bands with no rows
  expect_error(bsym_tridiag_solve(1, 4, rhs = 1), "lower does not match diag.*length 0")
  # choices
  expect_error(bsym_tridiag_solve(l, d, l, b, device = "tpu"), "device must be one of")
  expect_error(bsym_tridiag_solve(l, d, l, b, precision = "half"), "precision must be one of")
})

test_that("device = 'gpu' without a usable GPU says why", {
  skip_if(bsym_gpu_available())
  expect_error(bsym_tridiag_solve(c(1, 1), c(4, 4, 4), rhs = c(1, 1, 1), device = "gpu"),
               "bsym_tridiag_solve: .*no GPU is usable: .+")
})

test_that("device = 'gpu' with n above the PCR limit is a clear size error", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  n <- 16385
  expect_error(bsym_tridiag_solve(rep(1, n - 1), rep(4, n), rhs = rep(1, n), device = "gpu"),
               "exceeds the GPU tridiagonal solve limit of 16384")
})

test_that("the CPU and the GPU give the same tridiagonal solutions", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(38)
  for (n in c(1, 2, 3, 7, 32, 33, 100, 1000, 5000, 16384)) {
    batch <- if (n <= 100) 50 else 2
    s <- dd_tridiag(n, batch)
    B <- array(rnorm(n * 2 * batch), c(n, 2, batch))
    if (batch > 3) s$diag[1, 3] <- NaN
    for (precision in c("double", "single")) {
      Xc <- suppressWarnings(bsym_tridiag_solve(s$lower, s$diag, s$upper, B, device = "cpu", precision = precision))
      Xg <- suppressWarnings(bsym_tridiag_solve(s$lower, s$diag, s$upper, B, device = "gpu", precision = precision))
      expect_equal(attr(Xg, "device"), "gpu")
      expect_equal(attr(Xg, "info"), attr(Xc, "info"))
      expect_lt(max(abs(Xc - Xg), na.rm = TRUE) / max(abs(Xc), na.rm = TRUE), 100 * n * eps_of(precision))
    }
    sp <- spd_tridiag(n, batch)
    Xc <- bsym_tridiag_solve(sp$lower, sp$diag, rhs = B, device = "cpu")
    Xg <- bsym_tridiag_solve(sp$lower, sp$diag, rhs = B, device = "gpu")
    expect_lt(tridiag_backward_error(sp$lower, sp$diag, NULL, B, Xg), C_BWD * n * eps_of("double"))
    expect_lt(max(abs(Xc - Xg)) / max(abs(Xc)), 1e4 * n * eps_of("double"))
  }
})

# ---- bsym_solve(method = "tridiag") -----------------------------------------

sizes <- c(1, 2, 3, 5, 16, 31, 32, 33, 64)

# Backward error of each system of a batch (nrhs = 1).
backward_errors <- function(A, B, X)
  vapply(seq_len(dim(A)[3]), function(k) backward_error(A[, , k, drop = FALSE], B[, k], X[, k]), 0)

test_that("random symmetric indefinite systems, double and single", {
  set.seed(41)
  for (n in sizes) {
    batch <- 30
    A <- random_sym(n, batch)
    B <- matrix(rnorm(n * batch), n, batch)
    ref <- matrix(vapply(seq_len(batch), function(k) solve(A[, , k], B[, k]), numeric(n)), n)
    kappa <- vapply(seq_len(batch), function(k) kappa(matrix(A[, , k], n), exact = TRUE), 0)
    for (precision in c("double", "single")) {
      u <- eps_of(precision)
      X <- bsym_solve(A, B, method = "tridiag", precision = precision)
      expect_equal(attr(X, "info"), integer(batch))
      expect_lt(max(backward_errors(A, B, X)), C_BWD * n * u,
                label = sprintf("largest backward error / (n u), n = %d, %s", n, precision))
      for (k in seq_len(batch))
        expect_lt(fwd_err(X[, k], ref[, k]), C_FWD * n * u * kappa[k],
                  label = sprintf("forward error, n = %d, system %d, %s", n, k, precision))
    }
  }
})

test_that("the paper's Xi_rho matrices, with a dominant and with an indefinite core, are backward stable", {
  set.seed(42)
  for (n in c(5, 16, 30, 32, 33, 64)) {
    A <- xi_rho_random(n, 10, rho = 0.7)
    Ai <- xi_rho_indefinite(n, 10, rho = 0.5)
    B <- matrix(rnorm(n * 10), n, 10)
    kappa <- vapply(1:10, function(k) kappa(Ai[, , k], exact = TRUE), 0)
    for (precision in c("double", "single")) {
      u <- eps_of(precision)
      X <- bsym_solve(A, B, method = "tridiag", precision = precision)
      expect_equal(attr(X, "info"), integer(10))
      expect_lt(backward_error(A, B, X), C_BWD * n * u,
                label = sprintf("backward error, n = %d, %s", n, precision))
      Xi <- bsym_solve(Ai, B, method = "tridiag", precision = precision)
      expect_equal(attr(Xi, "info"), integer(10))
      expect_lt(max(backward_errors(Ai, B, Xi)), C_BWD * n * u)
      for (k in 1:10)
        expect_lt(fwd_err(Xi[, k], solve(Ai[, , k], B[, k])), C_FWD * n * u * kappa[k])
    }
  }
})

test_that("ill-conditioned systems (cond 1e8): backward stable, forward error below C_FWD n cond eps", {
  set.seed(43)
  n <- 16
  for (indefinite in c(FALSE, TRUE)) {
    A <- conditioned_sym(n, 4, cond = 1e8, indefinite = indefinite)
    B <- matrix(rnorm(n * 4), n, 4)
    X <- bsym_solve(A, B, method = "tridiag")
    expect_equal(attr(X, "info"), integer(4))
    for (k in 1:4) {
      cond <- kappa(A[, , k], exact = TRUE)
      expect_lt(fwd_err(X[, k], solve(A[, , k], B[, k])), C_FWD * n * cond * eps_of("double"))
    }
    expect_lt(max(backward_errors(A, B, X)), C_BWD * n * eps_of("double"))
  }
})

test_that("where LDL^T without pivoting breaks down, the Householder method solves", {
  S <- matrix(c(1, 2, 3,
                2, 4, 5,
                3, 5, 6), 3, 3) # leading 2 x 2 minor 0: LDL^T pivot 2 breaks down
  b <- c(1, 2, 3)
  expect_warning(xl <- bsym_solve(S, b, method = "ldlt"), "1 of 1")
  expect_equal(attr(xl, "info"), 2L)
  x <- bsym_solve(S, b, method = "tridiag")
  expect_equal(attr(x, "info"), 0L)
  expect_equal(as.vector(x), solve(S, b), tolerance = 1e-12)
})

test_that("multiple right-hand sides, single precision, uplo, shapes", {
  set.seed(44)
  n <- 12
  A <- xi_rho_random(n, 5)
  B <- array(rnorm(n * 3 * 5), c(n, 3, 5))
  for (precision in c("double", "single")) {
    X <- bsym_solve(A, B, method = "tridiag", precision = precision)
    expect_equal(dim(X), c(n, 3L, 5L))
    expect_lt(backward_error(A, B, X), C_BWD * n * eps_of(precision))
    for (k in 1:5)
      expect_equal(unclass(X)[, , k], solve(A[, , k], B[, , k]), tolerance = 100 * n * eps_of(precision))
  }
  As <- random_sym(n, 5)
  X <- bsym_solve(As, B, method = "tridiag")
  Au <- As
  for (k in 1:5) Au[, , k][lower.tri(Au[, , k])] <- NA # never read with uplo = "U"
  expect_equal(bsym_solve(Au, B, method = "tridiag", uplo = "U"), X, tolerance = 1e-10, ignore_attr = TRUE)
  a <- A[, , 1]
  Bk <- matrix(rnorm(2 * n), n, 2, dimnames = list(NULL, c("u", "v")))
  Xk <- bsym_solve(a, Bk, method = "tridiag")
  expect_equal(dimnames(Xk), dimnames(Bk))
  expect_equal(unclass(Xk)[, ], solve(a, Bk), tolerance = 1e-12, ignore_attr = TRUE)
  x <- bsym_solve(a, Bk[, 1], method = "tridiag")
  expect_null(dim(x))
  expect_equal(as.vector(x), as.vector(solve(a, Bk[, 1])), tolerance = 1e-12)
})

test_that("bad systems are NA with one warning under method = 'tridiag'", {
  set.seed(45)
  n <- 6
  A <- xi_rho_random(n, 5)
  B <- matrix(rnorm(n * 5), n, 5)
  A[4, 2, 2] <- Inf       # non-finite: info -1
  A[, , 4] <- 0           # singular: T = 0, info > 0
  B[1, 5] <- NaN          # non-finite right-hand side: info -1
  for (precision in c("double", "single")) {
    expect_warning(X <- bsym_solve(A, B, method = "tridiag", precision = precision), "3 of 5 systems",
                   fixed = TRUE)
    info <- attr(X, "info")
    expect_equal(info[c(1, 2, 3, 5)], c(0L, -1L, 0L, -1L))
    expect_true(info[4] > 0 && info[4] <= n)
    expect_true(all(is.na(X[, c(2, 4, 5)])))
    expect_false(any(is.nan(X[, c(2, 4, 5)])))
    expect_lt(backward_error(A[, , c(1, 3)], B[, c(1, 3)], X[, c(1, 3)]), C_BWD * n * eps_of(precision))
  }
})

test_that("A[1, 1] = 0 (the first pivot of T, where PCR breaks down): solved on every device", {
  set.seed(48)
  n <- 6
  A <- xi_rho_random(n, 3)
  A[1, 1, 2] <- 0 # nonsingular
  B <- matrix(rnorm(n * 3), n, 3)
  devices <- if (bsym_gpu_available()) c("cpu", "gpu") else "cpu"
  for (device in devices)
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, method = "tridiag", device = device, precision = precision)
      expect_equal(attr(X, "info"), integer(3))
      expect_lt(max(backward_errors(A, B, X)), C_BWD * n * eps_of(precision))
    }
})

test_that("method = 'tridiag': n above the GPU limit runs on the CPU under auto", {
  set.seed(46)
  n <- 257
  A <- random_spd(n, 2)
  B <- matrix(rnorm(n * 2), n, 2)
  X <- bsym_solve(A, B, method = "tridiag", device = "auto")
  expect_equal(attr(X, "device"), "cpu")
  expect_lt(backward_error(A, B, X), C_BWD * n * eps_of("double"))
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  expect_error(bsym_solve(A, B, method = "tridiag", device = "gpu"), "exceeds the GPU Householder limit of 256")
})

test_that("method = 'tridiag': the CPU and the GPU give the same answers", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(47)
  # past 64 the GPU's block kernel (shared memory; double 256: a global head)
  for (n in c(sizes, 65, 100, 256)) {
    A <- random_spd(n, 50)
    B <- array(rnorm(n * 2 * 50), c(n, 2, 50))
    A[1, 1, 9] <- NaN
    for (precision in c("double", "single")) {
      Xc <- suppressWarnings(bsym_solve(A, B, method = "tridiag", device = "cpu", precision = precision))
      Xg <- suppressWarnings(bsym_solve(A, B, method = "tridiag", device = "gpu", precision = precision))
      expect_equal(attr(Xg, "device"), "gpu")
      expect_equal(attr(Xg, "info"), attr(Xc, "info"))
      expect_lt(max(abs(Xc - Xg), na.rm = TRUE) / max(abs(Xc), na.rm = TRUE), 100 * n * eps_of(precision))
    }
    Ax <- xi_rho_random(n, 50)
    Xg <- bsym_solve(Ax, B, method = "tridiag", device = "gpu")
    expect_lt(backward_error(Ax, B, Xg), C_BWD * n * eps_of("double"))
    # random indefinite: the GPU and the CPU agree within the forward error bound
    As <- random_sym(n, 50)
    Xc <- bsym_solve(As, B, method = "tridiag", device = "cpu")
    Xg <- bsym_solve(As, B, method = "tridiag", device = "gpu")
    expect_lt(backward_error(As, B, Xg), C_BWD * n * eps_of("double"))
    for (k in 1:50)
      expect_lt(fwd_err(Xg[, , k], Xc[, , k]),
                2 * C_FWD * n * eps_of("double") * kappa(matrix(As[, , k], n), exact = TRUE))
  }
})
