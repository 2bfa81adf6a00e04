# bsym_tridiagonalize(): A = Q T Q' against base R (crossprod, eigen).
#
# Bounds, per system, for n in 1..64 (u = eps of the working precision):
#   ||A - Q T Q'||_F / ||A||_F <= C_TRD * n * u
#   ||Q'Q - I||_F              <= C_TRD * n * u
#   max |eig(T) - eig(A)|      <= C_TRD * n * u * ||A||_2
# C_TRD = 10: Householder tridiagonalization is backward stable with an error
# of a small multiple of n u (Higham, ch. 19). Measured on the CPU over 2700
# matrices of these generators (n = 1 .. 64), the largest error / (n u) was
# 1.6 (decomposition), 1.3 (orthogonality) and 1.8 (eigenvalues, eigen()'s
# own error included), in double and in single.

C_TRD <- 10
sizes <- c(1, 2, 3, 5, 16, 31, 32, 33, 64)

# Largest of the three measures above over the batch, each divided by n u.
trd_errors <- function(A, tr, precision) {
  n <- dim(A)[1]
  batch <- dim(A)[3]
  u <- eps_of(precision)
  d <- matrix(tr$d, n)
  e <- matrix(tr$e, max(n - 1, 0))
  Q <- array(tr$Q, c(n, n, batch))
  worst <- c(decomposition = 0, orthogonality = 0, eigenvalues = 0)
  for (k in seq_len(batch)) {
    a <- matrix(A[, , k], n, n)
    t <- tridiag_of(d[, k], e[, k])
    q <- matrix(Q[, , k], n)
    anorm <- max(norm(a, "F"), .Machine$double.xmin)
    ev <- eigen(a, symmetric = TRUE, only.values = TRUE)$values
    et <- eigen(t, symmetric = TRUE, only.values = TRUE)$values
    worst <- pmax(worst, c(norm(a - q %*% t %*% t(q), "F") / anorm,
                           norm(crossprod(q) - diag(n), "F"),
                           max(abs(ev - et)) / max(abs(ev), .Machine$double.xmin)) / (n * u))
  }
  worst
}

test_that("random symmetric indefinite matrices: A = Q T Q', Q orthogonal, same eigenvalues", {
  set.seed(21)
  for (n in sizes) {
    batch <- if (n <= 16) 20 else 6
    A <- random_sym(n, batch)
    for (precision in c("double", "single")) {
      tr <- bsym_tridiagonalize(A, precision = precision)
      expect_equal(attr(tr, "info"), integer(batch))
      expect_equal(dim(tr$d), c(n, batch))
      expect_equal(dim(tr$e), c(max(n - 1, 0), batch))
      expect_equal(dim(tr$Q), c(n, n, batch))
      err <- trd_errors(A, tr, precision)
      for (what in names(err))
        expect_lt(err[[what]], C_TRD, label = sprintf("%s error / (n u), n = %d, %s", what, n, precision))
    }
  }
})

test_that("the paper's Xi_rho family with a non-dominant tridiagonal core", {
  set.seed(22)
  for (n in sizes) {
    batch <- if (n <= 16) 10 else 4
    for (rho in c(0.5, 0.9)) {
      A <- xi_rho_indefinite(n, batch, rho)
      for (precision in c("double", "single")) {
        tr <- bsym_tridiagonalize(A, precision = precision)
        expect_equal(attr(tr, "info"), integer(batch))
        err <- trd_errors(A, tr, precision)
        for (what in names(err))
          expect_lt(err[[what]], C_TRD,
                    label = sprintf("%s error / (n u), n = %d, rho = %g, %s", what, n, rho, precision))
      }
    }
  }
})

test_that("vectors = FALSE gives the same d and e and no Q", {
  set.seed(23)
  for (n in c(1, 4, 33)) {
    A <- random_sym(n, 5)
    for (precision in c("double", "single")) {
      tol <- C_TRD * n * eps_of(precision)
      full <- bsym_tridiagonalize(A, precision = precision)
      tr <- bsym_tridiagonalize(A, vectors = FALSE, precision = precision)
      expect_true("Q" %in% names(tr))
      expect_null(tr$Q)
      expect_equal(attr(tr, "info"), integer(5))
      scale <- max(abs(A))
      expect_lt(max(abs(tr$d - full$d)), tol * scale)
      expect_lt(max(abs(tr$e - full$e), 0), tol * scale)
    }
  }
})

test_that("uplo = 'U' reads only the upper triangle, 'L' only the lower", {
  set.seed(24)
  n <- 9
  A <- random_sym(n, 4)
  Au <- A
  Al <- A
  for (k in 1:4) {
    Au[, , k][lower.tri(Au[, , k])] <- NA # never read with uplo = "U"
    Al[, , k][upper.tri(Al[, , k])] <- NA # never read with uplo = "L"
  }
  for (precision in c("double", "single")) {
    tol <- C_TRD * n * eps_of(precision)
    for (uplo in c("U", "L")) {
      ref <- bsym_tridiagonalize(A, uplo = uplo, precision = precision)
      tr <- bsym_tridiagonalize(if (uplo == "U") Au else Al, uplo = uplo, precision = precision)
      expect_equal(attr(tr, "info"), integer(4))
      expect_equal(tr$d, ref$d, tolerance = tol)
      expect_equal(tr$e, ref$e, tolerance = tol)
      expect_equal(tr$Q, ref$Q, tolerance = tol)
      expect_true(all(trd_errors(A, tr, precision) < C_TRD))
    }
  }
  # an Inf in the unread triangle is not seen
  Ai <- A
  Ai[2, 1, 3] <- Inf
  expect_silent(tr <- bsym_tridiagonalize(Ai, uplo = "U"))
  expect_equal(attr(tr, "info"), integer(4))
})

test_that("a matrix is a batch of one: d and e are vectors, Q a matrix", {
  set.seed(25)
  A <- random_sym(6, 1)[, , 1]
  tr <- bsym_tridiagonalize(A)
  expect_named(tr, c("d", "e", "Q"))
  expect_null(dim(tr$d))
  expect_null(dim(tr$e))
  expect_length(tr$d, 6)
  expect_length(tr$e, 5)
  expect_equal(dim(tr$Q), c(6L, 6L))
  expect_equal(tr$Q %*% tridiag_of(tr$d, tr$e) %*% t(tr$Q), A, tolerance = 1e-12)
  expect_equal(attr(tr, "info"), 0L)
  expect_true(attr(tr, "device") %in% c("cpu", "gpu"))
  # n = 1: T = A, Q = 1
  tr1 <- bsym_tridiagonalize(matrix(-3, 1, 1))
  expect_equal(tr1$d, -3)
  expect_equal(tr1$e, numeric(0))
  expect_equal(tr1$Q, matrix(1, 1, 1))
  # integer input
  tri <- bsym_tridiagonalize(matrix(c(2L, 1L, 1L, 2L), 2, 2))
  expect_equal(sort(eigen(tridiag_of(tri$d, tri$e))$values), c(1, 3))
})

test_that("dimnames of the batch dimension name the batch dimension of d, e and Q", {
  set.seed(26)
  A <- random_sym(3, 2)
  dimnames(A) <- list(c("a", "b", "c"), c("a", "b", "c"), c("first", "second"))
  tr <- bsym_tridiagonalize(A)
  expect_equal(colnames(tr$d), c("first", "second"))
  expect_equal(colnames(tr$e), c("first", "second"))
  expect_equal(dimnames(tr$Q)[[3]], c("first", "second"))
  expect_null(dimnames(bsym_tridiagonalize(A, vectors = FALSE)$Q))
  dimnames(A) <- NULL
  tr <- bsym_tridiagonalize(A)
  expect_null(dimnames(tr$d))
  expect_null(dimnames(tr$Q))
})

test_that("a non-finite system is NA with info -1 and one warning, the others are done", {
  set.seed(27)
  n <- 5
  A <- random_sym(n, 4)
  A[4, 2, 2] <- Inf
  A[3, 3, 4] <- NaN
  for (precision in c("double", "single")) {
    expect_warning(tr <- bsym_tridiagonalize(A, precision = precision), "2 of 4 systems", fixed = TRUE)
    expect_equal(attr(tr, "info"), c(0L, -1L, 0L, -1L))
    for (x in list(tr$d[, c(2, 4)], tr$e[, c(2, 4)], tr$Q[, , c(2, 4)])) {
      expect_true(all(is.na(x)))
      expect_false(any(is.nan(x)))
    }
    err <- trd_errors(A[, , c(1, 3)], list(d = tr$d[, c(1, 3)], e = tr$e[, c(1, 3)], Q = tr$Q[, , c(1, 3)]),
                      precision)
    expect_true(all(err < C_TRD))
  }
})

test_that("empty problems give empty results of the right shape", {
  tr <- bsym_tridiagonalize(array(0, c(4, 4, 0)))
  expect_equal(dim(tr$d), c(4L, 0L))
  expect_equal(dim(tr$e), c(3L, 0L))
  expect_equal(dim(tr$Q), c(4L, 4L, 0L))
  expect_equal(attr(tr, "info"), integer(0))
  tr0 <- bsym_tridiagonalize(array(0, c(0, 0, 2)))
  expect_equal(dim(tr0$d), c(0L, 2L))
  expect_equal(dim(tr0$e), c(0L, 2L))
  expect_equal(attr(tr0, "info"), integer(2))
})

test_that("bad arguments are errors naming the argument", {
  A <- array(diag(3), c(3, 3, 2))
  expect_error(bsym_tridiagonalize(array("a", c(3, 3, 2))), "A must be a numeric array")
  expect_error(bsym_tridiagonalize(array(TRUE, c(3, 3, 2))), "A must be a numeric array")
  # complex A is Hermitian input: d, e real
  expect_true(is.double(bsym_tridiagonalize(array(1i, c(3, 3, 2)))$d))
  expect_error(bsym_tridiagonalize(list(1)), "A must be a numeric array")
  expect_error(bsym_tridiagonalize(1:9), "A must be an n x n matrix")
  expect_error(bsym_tridiagonalize(array(0, c(3, 2, 2))), "A must be square")
  expect_error(bsym_tridiagonalize(array(0, c(3, 3, 2, 1))), "A must be an n x n matrix")
  expect_error(bsym_tridiagonalize(A, vectors = NA), "vectors must be TRUE or FALSE")
  expect_error(bsym_tridiagonalize(A, vectors = "yes"), "vectors must be TRUE or FALSE")
  expect_error(bsym_tridiagonalize(A, vectors = c(TRUE, FALSE)), "vectors must be TRUE or FALSE")
  expect_error(bsym_tridiagonalize(A, device = "tpu"), "device must be one of")
  expect_error(bsym_tridiagonalize(A, precision = "half"), "precision must be one of")
  expect_error(bsym_tridiagonalize(A, uplo = "X"), "uplo must be one of")
})

test_that("device = 'gpu' without a usable GPU says why", {
  skip_if(bsym_gpu_available())
  expect_error(bsym_tridiagonalize(array(diag(2), c(2, 2, 3)), device = "gpu"),
               "bsym_tridiagonalize: .*no GPU is usable: .+")
})

test_that("n above the GPU limit: a size error on the GPU, the CPU under auto", {
  set.seed(28)
  A <- random_sym(257, 2)
  tr <- bsym_tridiagonalize(A, device = "auto")
  expect_equal(attr(tr, "device"), "cpu")
  expect_true(all(trd_errors(A, tr, "double") < C_TRD))
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  expect_error(bsym_tridiagonalize(A, device = "gpu"), "exceeds the GPU Householder limit of 256")
})

test_that("the CPU and the GPU give the same tridiagonalization", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(29)
  # past 64 the GPU's block kernel (shared memory; double 256: a global head)
  for (n in c(sizes, 65, 100, 256)) {
    A <- random_sym(n, 40)
    A[1, 1, 7] <- NaN
    for (precision in c("double", "single")) {
      tc <- suppressWarnings(bsym_tridiagonalize(A, device = "cpu", precision = precision))
      tg <- suppressWarnings(bsym_tridiagonalize(A, device = "gpu", precision = precision))
      expect_equal(attr(tg, "device"), "gpu")
      expect_equal(attr(tg, "info"), attr(tc, "info"))
      expect_true(all(is.na(tg$d[, 7])))
      expect_true(all(trd_errors(A[, , -7, drop = FALSE],
                                 list(d = tg$d[, -7], e = tg$e[, -7], Q = tg$Q[, , -7]), precision) < C_TRD))
      # Both are backward stable, and T has the same eigenvalues on both. d, e
      # and Q themselves are not compared: in exact arithmetic T is unique up
      # to the signs of e, but the reduction is not forward stable (Lanczos'
      # sensitivity): measured on an H200, the CPU's and the GPU's d differ by
      # up to 0.06 for n = 64 in single (||A|| about 11) while both meet
      # every bound above.
      for (k in seq_len(40)[-7]) {
        ec <- eigen(tridiag_of(tc$d[, k], tc$e[, k]), symmetric = TRUE, only.values = TRUE)$values
        eg <- eigen(tridiag_of(tg$d[, k], tg$e[, k]), symmetric = TRUE, only.values = TRUE)$values
        expect_lt(max(abs(ec - eg)), 2 * C_TRD * n * eps_of(precision) * max(abs(ec)))
      }
    }
  }
})

test_that("a matrix with dimnames is a batch of one (no batch names to keep)", {
  a <- matrix(c(2, 1, 1, 3), 2, dimnames = list(c("a", "b"), c("a", "b")))
  td <- bsym_tridiagonalize(a)
  expect_null(dim(td$d))
  expect_equal(dim(td$Q), c(2L, 2L))
  expect_equal(td$d, c(2, 3))
  expect_equal(td$e, 1)
})
