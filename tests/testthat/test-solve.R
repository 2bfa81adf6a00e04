# bsym_solve() against base::solve on random SPD and the paper's matrices
# (LDL^T and the automatic strategy), then the truncated spectrum (method =
# "eigen") and the automatic strategy against references built from eigen().

sizes <- c(1, 2, 3, 5, 16, 31, 32, 33, 64)

test_that("random SPD batches match solve() in double and single", {
  set.seed(1)
  for (n in sizes) {
    batch <- if (n <= 16) 40 else 9
    A <- random_spd(n, batch)
    B <- matrix(rnorm(n * batch), n, batch)
    for (precision in c("double", "single")) for (method in c("ldlt", "auto")) {
      X <- bsym_solve(A, B, method = method, precision = precision)
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
    for (precision in c("double", "single")) for (method in c("ldlt", "auto")) {
      X <- bsym_solve(A, B, method = method, precision = precision)
      expect_equal(attr(X, "info"), integer(6))
      expect_lt(backward_error(A, B, X), 10 * n * eps_of(precision))
    }
  }
})

test_that("LDL^T: ill-conditioned SPD systems are backward stable and agree with solve()", {
  set.seed(3)
  n <- 12
  Q <- qr.Q(qr(matrix(rnorm(n * n), n)))
  A <- array(0, c(n, n, 3))
  for (k in 1:3) A[, , k] <- Q %*% diag(10^seq(0, -(2 * k + 2), length.out = n)) %*% t(Q)
  A <- (A + aperm(A, c(2, 1, 3))) / 2
  B <- matrix(rnorm(n * 3), n, 3)
  # (cond up to 1e10: the automatic strategy would truncate their spectrum)
  X <- bsym_solve(A, B, method = "ldlt")
  expect_equal(attr(X, "info"), integer(3))
  expect_equal(attr(X, "rank"), rep(n, 3))
  expect_equal(attr(X, "method"), rep("ldlt", 3))
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

test_that("LDL^T: bad systems are NA with one warning, the others are solved", {
  set.seed(7)
  n <- 4
  A <- random_spd(n, 6)
  B <- matrix(rnorm(n * 6), n, 6)
  A[2, 1, 2] <- Inf                   # non-finite: info -1
  A[, , 4] <- matrix(1, n, n)         # rank one: D_2 = 0, info 2
  A[, , 5] <- 0                       # zero: info 1
  B[3, 6] <- NA                       # non-finite right-hand side
  expect_warning(X <- bsym_solve(A, B, method = "ldlt"), "4 of 6 systems", fixed = TRUE)
  expect_equal(attr(X, "info"), c(0L, -1L, 0L, 2L, 1L, -1L))
  expect_equal(attr(X, "rank"), c(n, NA, n, NA, NA, NA))
  expect_equal(attr(X, "method"), c("ldlt", NA, "ldlt", NA, NA, NA))
  expect_true(all(is.na(X[, c(2, 4, 5, 6)])))
  expect_false(any(is.nan(X[, c(2, 4, 5, 6)])))
  for (k in c(1, 3)) expect_equal(X[, k], solve(A[, , k], B[, k]), tolerance = 1e-12)
  # the automatic strategy solves the rank-one and the zero systems by the
  # truncated spectrum (ranks 1 and 0); only the non-finite ones fail
  expect_warning(Xa <- bsym_solve(A, B), "2 of 6 systems", fixed = TRUE)
  expect_equal(attr(Xa, "info"), c(0L, -1L, 0L, 0L, 0L, -1L))
  expect_equal(attr(Xa, "rank"), c(n, NA, n, 1L, 0L, NA))
  expect_equal(attr(Xa, "method"), c("ldlt", NA, "ldlt", "eigen", "eigen", NA))
  expect_true(all(is.na(Xa[, c(2, 6)])))
  expect_false(any(is.nan(Xa[, c(2, 6)])))
  expect_equal(Xa[, 4], rep(sum(B[, 4]) / n^2, n), tolerance = 1e-12) # pinv(1 1') b
  expect_identical(Xa[, 5], numeric(n))
  for (k in c(1, 3)) expect_equal(Xa[, k], solve(A[, , k], B[, k]), tolerance = 1e-12)
})

test_that("symmetric indefinite systems with safe pivots are solved", {
  A <- array(diag(c(-2, 3, -4)), c(3, 3, 1))
  for (method in c("ldlt", "auto")) {
    X <- bsym_solve(A, matrix(1, 3, 1), method = method)
    expect_equal(as.vector(X), c(-1 / 2, 1 / 3, -1 / 4))
  }
})

test_that("an empty batch gives an empty result of the right shape", {
  X <- bsym_solve(array(0, c(3, 3, 0)), matrix(0, 3, 0))
  expect_equal(dim(X), c(3L, 0L))
  expect_equal(attr(X, "info"), integer(0))
  expect_equal(attr(X, "rank"), integer(0))
  expect_equal(attr(X, "method"), character(0))
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

# ---- method = "eigen": the truncated spectrum ---------------------------------
#
# Reference: trunc_ref() (helper-matrices.R), x = V_k diag(1 / l_k) V_k' b
# over the eigenpairs of eigen() with |l| >= rcond max |l|. Bound, per
# system: max|x - x_ref| / scale <= C_TRUNC * n * u * bound, with scale and
# bound from trunc_ref(): kappa_eff relative to max|x| when nothing is
# dropped, (kappa_eff + max|l| / gap) relative to max|b| / min kept |l|
# when something is; u = eps of the working precision. The rank must be the
# reference's exactly: every test matrix keeps its eigenvalues more than
# n * u * max|l| (the scale of their rounding errors) away from the cut,
# which is checked; in single precision and n near 70 the default cut 1e-5
# max|l| is itself only about that far from 0, so the matrices with dropped
# eigenvalues put them at 1e-9 max|l|.

C_TRUNC <- 10
sizes_x <- c(1, 2, 5, 16, 30, 33, 64, 70)

# Random symmetric indefinite n x n x batch, each matrix redrawn until no
# eigenvalue lies near the cut rcond max |l| (as the checks below demand in
# single precision).
random_sym_clear <- function(n, batch, rcond = 1e-5) {
  A <- random_sym(n, batch)
  for (k in seq_len(batch))
    while (trunc_ref(matrix(A[, , k], n), numeric(n), rcond)$margin <= 20 * n * eps_of("single"))
      A[, , k] <- random_sym(n, 1)[, , 1]
  A
}

# The worst error of the systems `which` of X (a bsym_solve() result for A
# and B, n x batch or n x k x batch) against trunc_ref(), in units of the
# bound above, and whether the ranks of those systems match the reference's.
trunc_check <- function(A, B, X, precision, which = seq_len(dim(A)[3]), rcond = 1e-5) {
  n <- dim(A)[1]
  batch <- dim(A)[3]
  B3 <- array(B, c(n, length(B) / (n * batch), batch))
  X3 <- array(X, dim(B3))
  worst <- 0
  ranks <- integer(0)
  for (k in which) {
    r <- trunc_ref(matrix(A[, , k], n), matrix(B3[, , k], n), rcond)
    stopifnot(r$margin > max(n, 1) * eps_of(precision)) # the premise of the test
    ranks[as.character(k)] <- r$rank
    d <- max(abs(matrix(X3[, , k], n) - r$x))
    e <- if (d == 0) 0 else d / r$scale / (max(n, 1) * eps_of(precision) * r$bound)
    worst <- max(worst, e)
  }
  list(worst = worst, rank_ok = identical(attr(X, "rank")[which], unname(ranks)))
}

expect_trunc_ok <- function(A, B, X, precision, label, which = seq_len(dim(A)[3]), rcond = 1e-5) {
  chk <- trunc_check(A, B, X, precision, which, rcond)
  expect_true(chk$rank_ok, label = sprintf("ranks %s (reference: see trunc_ref) %s, %s",
                                           paste(attr(X, "rank")[which], collapse = " "),
                                           label, precision))
  expect_lt(chk$worst, C_TRUNC, label = sprintf("worst error / bound, %s, %s", label, precision))
}

test_that("method = 'eigen' on well-conditioned SPD and random indefinite batches: full rank", {
  set.seed(21)
  for (n in sizes_x) {
    batch <- if (n <= 33) 6 else 3
    A <- array(c(random_spd(n, batch), random_sym_clear(n, batch)), c(n, n, 2 * batch))
    B <- matrix(rnorm(n * 2 * batch), n, 2 * batch)
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, method = "eigen", precision = precision, device = dev_for(n))
      expect_equal(attr(X, "info"), integer(2 * batch))
      expect_equal(attr(X, "method"), rep("eigen", 2 * batch))
      expect_equal(attr(X, "rank"), rep(as.integer(n), 2 * batch))
      expect_trunc_ok(A, B, X, precision, sprintf("random SPD and indefinite, n = %d", n))
    }
  }
})

test_that("method = 'eigen' drops the eigenvalues below rcond max|l|: rank n - dropped", {
  set.seed(22)
  for (n in sizes_x[-1]) {
    drops <- unique(c(1, max(1, n %/% 3), n - 1))
    mats <- list()
    for (indefinite in c(FALSE, TRUE))
      for (d in drops)
        mats[[length(mats) + 1]] <- sym_with_values(cut_spectrum(n, d, 2, indefinite))
    A <- stack_of(mats)
    batch <- dim(A)[3]
    B <- array(rnorm(n * 2 * batch), c(n, 2, batch)) # two right-hand sides each
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, method = "eigen", precision = precision, device = dev_for(n))
      expect_equal(dim(X), dim(B))
      expect_equal(attr(X, "info"), integer(batch))
      expect_equal(attr(X, "rank"), as.integer(n - rep(drops, 2)))
      expect_trunc_ok(A, B, X, precision, sprintf("1e-9 eigenvalues, n = %d", n))
    }
  }
})

test_that("method = 'eigen' on exactly singular matrices gives the minimum-norm solution", {
  set.seed(23)
  for (n in sizes_x) {
    zero <- matrix(0, n, n)
    ones <- matrix(1, n, n)
    mats <- list(zero, ones)
    if (n >= 2) {
      r <- max(1, n %/% 2)                  # Q diag(l, 0) Q' of rank r
      mats[[3]] <- sym_with_values(c(runif(r, 0.5, 2) * sample(c(-1, 1), r, TRUE), rep(0, n - r)))
      mats[[4]] <- diag(c(rep(2, n - 1), 0)) # an exact zero eigenvalue
    }
    A <- stack_of(mats)
    batch <- dim(A)[3]
    B <- matrix(rnorm(n * batch), n, batch)
    for (precision in c("double", "single")) {
      X <- bsym_solve(A, B, method = "eigen", precision = precision, device = dev_for(n))
      expect_equal(attr(X, "info"), integer(batch))
      expect_identical(X[, 1], numeric(n))  # A = 0: nothing kept, x = 0
      expect_equal(attr(X, "rank")[1:2], c(0L, 1L))
      # A = 1 1': x = 1 1' b / n^2, orthogonal to the null space
      expect_lt(rel_err(X[, 2], rep(sum(B[, 2]) / n^2, n)), C_TRUNC * n * eps_of(precision))
      if (n >= 2) expect_equal(attr(X, "rank")[3:4], c(max(1L, n %/% 2L), n - 1L))
      expect_trunc_ok(A, B, X, precision, sprintf("singular, n = %d", n), which = seq_len(batch)[-1])
    }
  }
})

test_that("rcond moves the cut: 0 keeps every non-zero eigenvalue, 0.5 only the largest", {
  set.seed(24)
  n <- 16
  l <- c(1, 0.9, -0.8, 0.3, -0.2, 10^-(1:11))  # max 1
  A <- stack_of(list(sym_with_values(l), sym_with_values(l)))
  B <- matrix(rnorm(n * 2), n, 2)
  X0 <- bsym_solve(A, B, method = "eigen", rcond = 0)
  expect_equal(attr(X0, "rank"), c(n, n))
  for (k in 1:2) # the full solve, cond(A) = 1e11
    expect_lt(rel_err(X0[, k], solve(A[, , k], B[, k])), 10 * n * eps_of("double") * 1e11)
  for (precision in c("double", "single")) {
    X5 <- bsym_solve(A, B, method = "eigen", rcond = 0.5, precision = precision)
    expect_equal(attr(X5, "rank"), c(3L, 3L))
    expect_trunc_ok(A, B, X5, precision, "rcond = 0.5", rcond = 0.5)
    X1 <- bsym_solve(A, B, method = "eigen", rcond = 0.05, precision = precision)
    expect_equal(attr(X1, "rank"), c(6L, 6L))
    expect_trunc_ok(A, B, X1, precision, "rcond = 0.05", rcond = 0.05)
  }
})

test_that("the truncated spectrum reads only the triangle named by uplo", {
  set.seed(25)
  n <- 9
  A <- stack_of(list(sym_with_values(cut_spectrum(n, 2)), sym_with_values(cut_spectrum(n, 4, 2, TRUE))))
  B <- matrix(rnorm(n * 2), n, 2)
  ref <- bsym_solve(A, B, method = "eigen")
  Au <- A
  Al <- A
  for (k in 1:2) {
    Au[, , k][lower.tri(Au[, , k])] <- NA
    Al[, , k][upper.tri(Al[, , k])] <- NA
  }
  for (method in c("eigen", "auto")) {
    expect_equal(bsym_solve(Au, B, method = method, uplo = "U"), ref, tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(bsym_solve(Al, B, method = method, uplo = "L"), ref, tolerance = 1e-10, ignore_attr = TRUE)
  }
  expect_equal(attr(ref, "rank"), c(n - 2L, n - 4L))
})

# ---- method = "auto" ------------------------------------------------------------

# The path of method "auto" for well-conditioned systems: the certified
# LDL^T for the positive definite ones (conditioned_sym's random signs can
# all come out positive), Householder for the others.
cheap_path <- function(A)
  ifelse(apply(A, 3, function(a) all(eigen(a, symmetric = TRUE, only.values = TRUE)$values > 0)),
         "ldlt", "tridiag")

test_that("auto: well-conditioned SPD batches keep the certified LDL^T, indefinite ones take the Householder path, at full rank", {
  set.seed(31)
  for (n in sizes_x) {
    batch <- if (n <= 33) 10 else 4
    A <- array(c(random_spd(n, batch), conditioned_sym(n, batch, 100, indefinite = TRUE)),
               c(n, n, 2 * batch))
    B <- matrix(rnorm(n * 2 * batch), n, 2 * batch)
    for (precision in c("double", "single")) {
      u <- eps_of(precision)
      X <- bsym_solve(A, B, precision = precision, device = dev_for(n))
      expect_equal(attr(X, "info"), integer(2 * batch))
      expect_equal(attr(X, "method"), cheap_path(A))
      expect_equal(attr(X, "rank"), rep(as.integer(n), 2 * batch))
      expect_lt(backward_error(A, B, X), 10 * n * u)
      worst <- 0
      for (k in seq_len(2 * batch)) {
        a <- matrix(A[, , k], n)
        worst <- max(worst, rel_err(X[, k], solve(a, B[, k])) / kappa(a, exact = TRUE))
      }
      expect_lt(worst, 10 * n * u)
    }
  }
})

test_that("auto: exactly the systems with eigenvalues below the cut are redone by the truncated spectrum", {
  set.seed(32)
  for (n in sizes_x[-1]) {
    batch <- 8
    ill <- c(2, 5, 7)
    drop <- c(1, max(1, n %/% 4), n - 1)
    A <- array(c(random_spd(n, 3), conditioned_sym(n, 2, 1e3, indefinite = TRUE), random_spd(n, 3)),
               c(n, n, batch))
    for (i in seq_along(ill))
      A[, , ill[i]] <- sym_with_values(cut_spectrum(n, drop[i], 2, indefinite = i == 2))
    B <- matrix(rnorm(n * batch), n, batch)
    for (precision in c("double", "single")) {
      u <- eps_of(precision)
      X <- bsym_solve(A, B, precision = precision, device = dev_for(n))
      expect_equal(attr(X, "info"), integer(batch))
      expect_equal(attr(X, "method"), ifelse(seq_len(batch) %in% ill, "eigen", cheap_path(A)))
      rank <- rep(as.integer(n), batch)
      rank[ill] <- as.integer(n - drop)
      expect_equal(attr(X, "rank"), rank)
      expect_trunc_ok(A, B, X, precision, sprintf("mixed batch, n = %d", n))
    }
  }
})

test_that("auto: conditioning short of the cut (cond 1e4) is solved at full rank like solve()", {
  set.seed(33)
  for (n in c(2, 5, 16, 33, 64)) {
    A <- array(c(conditioned_sym(n, 3, 1e4), conditioned_sym(n, 3, 1e4, indefinite = TRUE)),
               c(n, n, 6))
    B <- matrix(rnorm(n * 6), n, 6)
    for (precision in c("double", "single")) {
      u <- eps_of(precision)
      X <- bsym_solve(A, B, precision = precision)
      # the SPD ones: certified LDL^T in double; in single the certificate's
      # margin for rounding (n (n + 1) eps max a_ii) may exceed 1e-4 max|l|,
      # and Householder takes them; the indefinite ones: Householder
      path <- cheap_path(A)
      expect_true(all(attr(X, "method") == path | (precision == "single" & path == "ldlt" &
                                                    attr(X, "method") == "tridiag")))
      expect_equal(attr(X, "rank"), rep(as.integer(n), 6))
      expect_lt(backward_error(A, B, X), 10 * n * u)
      for (k in 1:6)
        expect_lt(rel_err(X[, k], solve(A[, , k], B[, k])), 10 * n * u * 1e4)
    }
  }
})

test_that("auto: a non-finite system is NA with info -1, its neighbours are solved", {
  set.seed(34)
  n <- 12
  A <- random_spd(n, 6)
  A[, , 2] <- sym_with_values(cut_spectrum(n, 3))
  A[4, 2, 3] <- NaN
  B <- matrix(rnorm(n * 6), n, 6)
  B[1, 5] <- Inf
  for (precision in c("double", "single")) {
    expect_warning(X <- bsym_solve(A, B, precision = precision), "2 of 6 systems", fixed = TRUE)
    expect_equal(attr(X, "info"), c(0L, 0L, -1L, 0L, -1L, 0L))
    expect_equal(attr(X, "rank"), c(n, n - 3L, NA, n, NA, n))
    expect_equal(attr(X, "method"), c("ldlt", "eigen", NA, "ldlt", NA, "ldlt"))
    expect_true(all(is.na(X[, c(3, 5)])) && !any(is.nan(X[, c(3, 5)])))
    expect_trunc_ok(A, B, X, precision, "beside non-finite systems", which = c(1, 2, 4, 6))
  }
})

test_that("auto: tol moves the backward-error test and nothing else", {
  set.seed(35)
  n <- 16
  batch <- 20
  A <- array(c(random_spd(n, 10), conditioned_sym(n, 10, 100, indefinite = TRUE)), c(n, n, batch))
  A[, , 20] <- sym_with_values(cut_spectrum(n, 2))
  B <- matrix(rnorm(n * batch), n, batch)
  default <- bsym_solve(A, B)
  # tol = 2: no backward error exceeds it (it is at most 1); the
  # ill-conditioned system is still caught by its spectrum
  loose <- bsym_solve(A, B, tol = 2)
  expect_equal(attr(loose, "method"), c(cheap_path(A)[1:19], "eigen"))
  expect_equal(unclass(loose), unclass(default), ignore_attr = TRUE)
  # tol = 1e-300: every system whose Householder solution has a non-zero
  # residual fails the test (so does its LDL^T solution, unless exact) and is
  # redone by the truncated spectrum, here at full rank (nothing below the
  # cut) -- and still solved
  tiny <- bsym_solve(A, B, tol = 1e-300)
  Xt <- bsym_solve(A, B, method = "tridiag")
  be <- vapply(seq_len(batch), function(k) backward_error(A[, , k, drop = FALSE], B[, k], Xt[, k]), 0)
  expect_gt(sum(be > 1e-20), 10)
  expect_true(all(attr(tiny, "method")[be > 1e-20] == "eigen"))
  expect_true(all(attr(default, "method") != "eigen" | attr(tiny, "method") == "eigen"))
  expect_equal(attr(tiny, "rank"), c(rep(n, 19), n - 2L))
  expect_trunc_ok(A, B, tiny, "double", "tol = 1e-300")
})

test_that("auto and eigen keep B's shape: a vector, an n x k matrix, n x k x batch", {
  set.seed(36)
  n <- 5
  a <- sym_with_values(cut_spectrum(n, 2))
  b <- rnorm(n)
  for (method in c("auto", "eigen")) {
    x <- bsym_solve(a, b, method = method)
    expect_null(dim(x))
    expect_equal(attr(x, "rank"), n - 2L)
    expect_equal(attr(x, "method"), "eigen")
    expect_lt(rel_err(as.vector(x), trunc_ref(a, b)$x), 1e-10)
    Bk <- matrix(rnorm(n * 3), n, 3, dimnames = list(letters[1:n], c("u", "v", "w")))
    X <- bsym_solve(a, Bk, method = method)
    expect_equal(dimnames(X), dimnames(Bk))
    expect_lt(rel_err(unclass(X)[, ], trunc_ref(a, Bk)$x), 1e-10)
  }
})

test_that("ldlt and tridiag report full rank and their own name; rcond and tol do not matter to them", {
  set.seed(37)
  n <- 6
  A <- random_spd(n, 3)
  B <- matrix(rnorm(n * 3), n, 3)
  for (method in c("ldlt", "tridiag")) {
    X <- bsym_solve(A, B, method = method)
    expect_equal(attr(X, "rank"), rep(n, 3))
    expect_equal(attr(X, "method"), rep(method, 3))
    expect_identical(bsym_solve(A, B, method = method, rcond = 0.9, tol = 1e-300), X)
  }
})

test_that("rcond, tol, method and plan are checked, each error naming its argument", {
  A <- random_spd(3, 2)
  B <- matrix(1, 3, 2)
  for (bad in list(-1e-9, 1, 2, NA_real_, c(1e-5, 1e-5), "1e-5", NULL, Inf))
    expect_error(bsym_solve(A, B, rcond = bad), "rcond must be a single number in [0, 1)", fixed = TRUE)
  for (bad in list(0, -1, NA_real_, c(1, 2), "1", Inf, NaN, TRUE))
    expect_error(bsym_solve(A, B, tol = bad), "tol must be a single positive finite number, or ", fixed = TRUE,
                 class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B, method = "svd"), "method must be one of \"ldlt\", \"tridiag\", \"eigen\", \"auto\"",
               fixed = TRUE)
  expect_error(bsym_solve(A, B, method = NULL), "method must be one of")
  for (bad in list(list(), new.env(), 1, "plan", structure(list(), class = "bsym_plan")))
    expect_error(bsym_solve(A, B, plan = bad), "plan must be NULL or a plan made by bsym_plan()", fixed = TRUE)
  expect_silent(bsym_solve(A, B, rcond = 0, tol = 1e-3))
})

# ---- devices ---------------------------------------------------------------------

test_that("eigen and auto: the CPU and the GPU agree on methods, ranks and solutions", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(38)
  # single precision up to n = 65 only: above, the cut rcond max|l| = 1e-5
  # max|l| lies within float's rounding, n u max|l| (trunc_check's premise)
  for (n in c(1, 2, 5, 16, 30, 33, 64, 65, 100, 256)) {
    batch <- 40
    A <- array(c(random_spd(n, 20), conditioned_sym(n, 20, 100, indefinite = TRUE)), c(n, n, batch))
    if (n >= 2) for (k in c(3, 17, 30)) A[, , k] <- sym_with_values(cut_spectrum(n, max(1, n %/% 3), 2, k == 30))
    A[, , 9] <- 0
    A[1, 1, 11] <- NaN
    B <- matrix(rnorm(n * batch), n, batch)
    for (precision in if (n <= 65) c("double", "single") else "double") for (method in c("eigen", "auto")) {
      Xc <- suppressWarnings(bsym_solve(A, B, method = method, device = "cpu", precision = precision))
      Xg <- suppressWarnings(bsym_solve(A, B, method = method, device = "gpu", precision = precision))
      expect_equal(attr(Xg, "device"), "gpu")
      expect_equal(attr(Xg, c("info")), attr(Xc, "info"))
      expect_equal(attr(Xg, "rank"), attr(Xc, "rank"))
      expect_equal(attr(Xg, "method"), attr(Xc, "method"))
      expect_trunc_ok(A, B, Xg, precision, sprintf("GPU, %s, n = %d", method, n), which = seq_len(batch)[-11])
    }
  }
})
