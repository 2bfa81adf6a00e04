# Pivoted symmetric-indefinite solves (Bunch-Kaufman, Aasen) and complex
# Hermitian input (issue 14: every method, tridiag, eigen and auto included),
# on the CPU, against base R solve(): every method x precision x uplo on
# random indefinite, positive definite, graded, tiny-leading-pivot and
# exact-2x2-pivot batches, real and complex.

# n x n x batch Hermitian (complex = TRUE) or symmetric matrices of a family.
herm_batch <- function(n, batch, family, complex) {
  A <- array(if (complex) 0i else 0, c(n, n, batch))
  for (k in seq_len(batch)) {
    M <- matrix(rnorm(n * n), n)
    if (complex) M <- M + 1i * matrix(rnorm(n * n), n)
    a <- switch(family,
      random = (M + Conj(t(M))) / 2,                      # indefinite
      hpd = M %*% Conj(t(M)) / n + diag(n),               # positive definite
      graded = {                                          # D H D, D = 10^-(0..3)
        g <- 10^-(3 * (seq_len(n) - 1) / max(1, n - 1))
        h <- (M + Conj(t(M))) / 2 + diag(2 * sqrt(n), n)
        h * outer(g, g)
      },
      tiny = {                                            # a11 tiny: no-pivot LDL^H fails
        h <- (M + Conj(t(M))) / 2
        h[1, 1] <- 1e-12
        h
      },
      swap = {                                            # zero diagonal, 2 x 2 pivots
        h <- (M + Conj(t(M))) / 2
        diag(h) <- 0
        h
      })
    A[, , k] <- a
  }
  A
}

# A with the triangle that `uplo` does not name overwritten by garbage and,
# when complex, garbage in the imaginary part of the diagonal: the solver must
# read neither.
spoil <- function(A, uplo) {
  n <- dim(A)[1]
  junk <- if (uplo == "L") upper.tri(diag(n)) else lower.tri(diag(n))
  for (k in seq_len(dim(A)[3])) {
    a <- matrix(A[, , k], n, n)
    a[junk] <- 1e30
    if (is.complex(a)) diag(a) <- Re(diag(a)) + 7i
    A[, , k] <- a
  }
  A
}

# X (n x batch) against solve(): the backward error within 30 n eps of the
# precision, and the forward error of the first and last systems within
# the condition number.
expect_like_solve <- function(A, B, X, precision, what) {
  n <- dim(A)[1]
  batch <- dim(A)[3]
  eps <- eps_of(precision)
  expect_lt(backward_error(A, B, X), 30 * n * eps, label = what)
  for (k in c(1L, batch)) {
    a <- matrix(A[, , k], n, n)
    ref <- solve(a, B[, k])
    kap <- kappa(a, exact = TRUE)
    expect_lt(max(Mod(X[, k] - ref)) / max(Mod(ref)), 100 * n * eps * kap, label = paste(what, "system", k))
  }
}

methods_for <- function(family) {
  if (family == "hpd") c("ldlt", "bunch-kaufman", "aasen") else c("bunch-kaufman", "aasen")
}

test_that("bunch-kaufman and aasen solve real and complex batches like solve()", {
  set.seed(14)
  for (complex in c(FALSE, TRUE)) for (family in c("random", "hpd", "graded", "tiny", "swap")) {
    for (n in c(1L, 2L, 5L, 16L, 32L)) {
      if (family == "swap" && n == 1L) next # a zero 1 x 1 matrix is singular
      batch <- 6L
      A <- herm_batch(n, batch, family, complex)
      B <- matrix(rnorm(n * batch), n, batch)
      if (complex) B <- B + 1i * matrix(rnorm(n * batch), n, batch)
      for (method in methods_for(family)) for (precision in c("double", "single")) for (uplo in c("L", "U")) {
        what <- sprintf("%s %s n=%d %s %s uplo=%s", if (complex) "complex" else "real", family, n, method,
                        precision, uplo)
        X <- bsym_solve(spoil(A, uplo), B, method = method, precision = precision, uplo = uplo, device = "cpu")
        expect_identical(is.complex(X), complex, info = what)
        expect_identical(dim(X), dim(B), info = what)
        expect_identical(attr(X, "info"), integer(batch), info = what)
        expect_identical(attr(X, "method"), rep(method, batch), info = what)
        expect_like_solve(A, B, X, precision, what)
      }
    }
  }
})

test_that("several right-hand sides, and a real B with a complex A (or the reverse), give complex solutions", {
  cpu_only_device(environment())
  set.seed(141)
  n <- 7L; batch <- 4L
  A <- herm_batch(n, batch, "random", TRUE)
  B3 <- array(rnorm(n * 3 * batch), c(n, 3, batch), dimnames = list(NULL, c("a", "b", "c"), NULL))
  X <- bsym_solve(A, B3, method = "bunch-kaufman")
  expect_true(is.complex(X))
  expect_identical(dimnames(X), dimnames(B3))
  for (k in seq_len(batch)) expect_equal(unname(X[, , k]), solve(A[, , k], B3[, , k]), tolerance = 1e-10)
  S <- herm_batch(n, batch, "random", FALSE)
  Bz <- matrix(complex(real = rnorm(n * batch), imaginary = rnorm(n * batch)), n)
  Z <- bsym_solve(S, Bz, method = "aasen")
  expect_true(is.complex(Z))
  for (k in seq_len(batch)) expect_equal(Z[, k], solve(S[, , k], Bz[, k]), tolerance = 1e-10)
  # one matrix, one vector, as solve()
  z <- bsym_solve(A[, , 2], B3[, 1, 2], method = "ldlt")
  expect_equal(as.vector(z), solve(A[, , 2], B3[, 1, 2]), tolerance = 1e-8)
})

test_that("LDL^T without pivoting breaks down where bunch-kaufman does not", {
  S <- matrix(c(0, 1, 1, 0), 2)
  x <- suppressWarnings(bsym_solve(S, c(1, 2), method = "ldlt", device = "cpu"))
  expect_identical(attr(x, "info"), 1L)
  for (method in c("bunch-kaufman", "aasen")) {
    x <- bsym_solve(S, c(1, 2), method = method, device = "cpu")
    expect_equal(as.vector(x), c(2, 1), tolerance = 1e-15, info = method)
  }
})

test_that("a bad system is reported for itself and the rest are solved", {
  set.seed(142)
  n <- 6L; batch <- 5L
  for (complex in c(FALSE, TRUE)) for (method in c("bunch-kaufman", "aasen")) {
    A <- herm_batch(n, batch, "random", complex)
    A[3, 2, 2] <- NA                       # non-finite input: info -1
    A[, , 4] <- 0                          # singular: a zero pivot
    B <- matrix(rnorm(n * batch), n, batch)
    expect_warning(X <- bsym_solve(A, B, method = method, device = "cpu"), "2 of 5")
    info <- attr(X, "info")
    expect_identical(info[c(1, 3, 5)], c(0L, 0L, 0L), info = method)
    expect_identical(info[2], -1L, info = method)
    expect_gt(info[4], 0L)
    expect_true(all(is.na(X[, c(2, 4)])))
    expect_identical(attr(X, "method")[c(2, 4)], c(NA_character_, NA_character_))
    for (k in c(1, 3, 5)) expect_equal(X[, k], solve(A[, , k], B[, k]), tolerance = 1e-9)
  }
})

test_that("complex ldlt across SIMD lanes: a NaN system and a zero pivot mid-batch, the rest as solve()", {
  # n <= 64 solves several systems at once (indef_lanes_impl.h); 11 systems
  # fill two groups of 4 (complex double) and part of a third, one of 8
  # (complex float) and part of a second
  set.seed(144)
  for (n in c(3L, 33L)) for (precision in c("double", "single")) for (uplo in c("L", "U")) {
    batch <- 11L
    A <- herm_batch(n, batch, "hpd", TRUE)
    A[2, 2, 5] <- NaN                      # non-finite input: info -1
    A[, 2, 7] <- 0                         # a zero pivot at 2 (the first pivot is fine)
    A[2, , 7] <- 0
    B <- array(complex(real = rnorm(n * 2 * batch), imaginary = rnorm(n * 2 * batch)), c(n, 2L, batch))
    what <- sprintf("n=%d %s uplo=%s", n, precision, uplo)
    expect_warning(X <- bsym_solve(spoil(A, uplo), B, method = "ldlt", precision = precision, uplo = uplo,
                                   device = "cpu"), "2 of 11", info = what)
    info <- attr(X, "info")
    expect_identical(info, replace(integer(batch), c(5, 7), c(-1L, 2L)), info = what)
    expect_true(all(is.na(X[, , c(5, 7)])), info = what)
    tol <- if (precision == "double") 1e-10 else 1e-3
    for (k in setdiff(seq_len(batch), c(5, 7)))
      expect_equal(X[, , k], solve(A[, , k], B[, , k]), tolerance = tol, info = paste(what, "system", k))
  }
})

test_that("tridiag, eigen and auto solve complex Hermitian batches like solve()", {
  # eigen and auto at rcond = 0 (every pair kept: the accuracy of the full
  # solve); the truncation has its own test below
  cpu_only_device(environment())
  set.seed(143)
  for (family in c("random", "hpd", "graded", "tiny", "swap")) for (n in c(1L, 2L, 5L, 16L, 32L)) {
    if (family == "swap" && n == 1L) next
    batch <- 5L
    A <- herm_batch(n, batch, family, TRUE)
    B <- matrix(complex(real = rnorm(n * batch), imaginary = rnorm(n * batch)), n, batch)
    for (method in c("tridiag", "eigen", "auto")) for (precision in c("double", "single")) for (uplo in c("L", "U")) {
      what <- sprintf("complex %s n=%d %s %s uplo=%s", family, n, method, precision, uplo)
      X <- bsym_solve(spoil(A, uplo), B, method = method, rcond = 0, precision = precision, uplo = uplo)
      expect_true(is.complex(X), info = what)
      expect_identical(dim(X), dim(B), info = what)
      expect_identical(attr(X, "info"), integer(batch), info = what)
      expect_identical(attr(X, "rank"), rep(n, batch), info = what)
      used <- attr(X, "method")
      if (method == "auto") {
        expect_true(all(used %in% c("ldlt", "tridiag", "eigen")), info = what)
        if (family == "hpd") expect_identical(used, rep("ldlt", batch), info = what)       # certified
        if (family == "swap") expect_false(any(used == "ldlt"), info = what)              # indefinite
      } else {
        expect_identical(used, rep(method, batch), info = what)
      }
      expect_like_solve(A, B, X, precision, what)
    }
  }
})

test_that("auto and eigen truncate a complex ill-conditioned system, and only it", {
  cpu_only_device(environment())
  set.seed(144)
  n <- 6L; batch <- 4L
  U <- qr.Q(qr(matrix(complex(real = rnorm(n * n), imaginary = rnorm(n * n)), n)))
  lam <- list(c(0.5, 1, 2, 3, 4, 8), c(-4, -1, 0.5, 1, 2, 6), c(1e-9, 0.5, 1, 2, 3, 8), c(-6, -1, -1e-9, 1, 2, 3))
  A <- array(0i, c(n, n, batch))
  for (k in seq_len(batch)) A[, , k] <- U %*% diag(lam[[k]]) %*% Conj(t(U))
  B <- matrix(complex(real = rnorm(n * batch), imaginary = rnorm(n * batch)), n, batch)
  for (precision in c("double", "single")) for (uplo in c("L", "U")) {
    X <- bsym_solve(A, B, precision = precision, uplo = uplo) # auto, rcond 1e-5
    E <- bsym_solve(A, B, method = "eigen", precision = precision, uplo = uplo)
    what <- paste(precision, uplo)
    expect_identical(attr(X, "method"), c("ldlt", "tridiag", "eigen", "eigen"), info = what)
    expect_identical(attr(X, "rank"), c(n, n, n - 1L, n - 1L), info = what)
    expect_identical(attr(E, "rank"), c(n, n, n - 1L, n - 1L), info = what)
    for (k in seq_len(batch)) {
      keep <- abs(lam[[k]]) >= 1e-5 * max(abs(lam[[k]]))
      ref <- U[, keep] %*% ((Conj(t(U[, keep])) %*% B[, k]) / lam[[k]][keep])
      for (Y in list(X, E))
        expect_lt(max(Mod(Y[, k] - ref)) / max(Mod(ref)), 100 * n * eps_of(precision) * 16,
                  label = paste(what, "system", k))
    }
  }
})

test_that("complex tridiag, eigen and auto: a bad system is reported for itself and the rest are solved", {
  cpu_only_device(environment())
  set.seed(145)
  n <- 6L; batch <- 5L
  for (method in c("tridiag", "eigen", "auto")) for (precision in c("double", "single")) {
    A <- herm_batch(n, batch, "random", TRUE)
    A[3, 2, 2] <- NA                       # non-finite input: info -1
    A[, , 4] <- 0                          # the zero matrix
    B <- matrix(complex(real = rnorm(n * batch), imaginary = rnorm(n * batch)), n, batch)
    what <- paste(method, precision)
    X <- suppressWarnings(bsym_solve(A, B, method = method, precision = precision))
    info <- attr(X, "info")
    expect_identical(info[c(1, 3, 5)], c(0L, 0L, 0L), info = what)
    expect_identical(info[2], -1L, info = what)
    expect_true(all(is.na(X[, 2])), info = what)
    if (method == "tridiag") {             # T singular: a zero pivot
      expect_gt(info[4], 0L)
      expect_true(all(is.na(X[, 4])), info = what)
    } else {                               # rank 0: the minimum-norm solution 0
      expect_identical(info[4], 0L, info = what)
      expect_identical(attr(X, "rank")[4], 0L, info = what)
      expect_identical(attr(X, "method")[4], "eigen", info = what)
      expect_equal(X[, 4], rep(0i, n), info = what)
    }
    tol <- if (precision == "single") 1e-3 else 1e-9
    for (k in c(1, 3, 5)) expect_equal(X[, k], solve(A[, , k], B[, k]), tolerance = tol, info = what)
  }
})

test_that("bsym_eigen takes complex Hermitian A: the values of base R's eigen()", {
  A <- herm_batch(3L, 2L, "hpd", TRUE)
  expect_equal(bsym_eigen(A[, , 1], device = cpu_only_device())$values, eigen(A[, , 1], symmetric = TRUE)$values, tolerance = 1e-12)
})

test_that("the GPU's Bunch-Kaufman, Aasen and complex LDL^H take n up to 256 (a block a system above 64)", {
  skip_if_not(bsym_gpu_available())
  for (n in c(65L, 130L, 256L)) {
    for (cx in c(FALSE, TRUE)) {
      A <- herm_batch(n, 3L, "random", cx)
      B <- matrix(rnorm(n * 3), n, 3)
      for (method in c("bunch-kaufman", "aasen")) for (precision in c("double", "single")) {
        what <- paste(method, precision, n, if (cx) "complex" else "real")
        x <- bsym_solve(A, B, method = method, device = "gpu", precision = precision)
        expect_identical(attr(x, "device"), "gpu", info = what)
        expect_lt(backward_error(A, B, x), 30 * n * eps_of(precision), label = what)
      }
    }
    H <- herm_batch(n, 3L, "hpd", TRUE)
    x <- bsym_solve(H, B, method = "ldlt", device = "gpu")
    expect_lt(backward_error(H, B, x), 30 * n * eps_of("double"), label = paste("LDL^H", n))
    # complex tridiag, eigen and auto (issue 16), on an indefinite batch
    Z <- herm_batch(n, 3L, "random", TRUE)
    for (method in c("tridiag", "eigen", "auto")) for (precision in c("double", "single")) {
      what <- paste("complex", method, precision, n)
      x <- bsym_solve(Z, B, method = method, device = "gpu", precision = precision, rcond = 0)
      expect_identical(attr(x, "device"), "gpu", info = what)
      expect_lt(backward_error(Z, B, x), 30 * n * eps_of(precision), label = what)
    }
  }
  expect_error(bsym_solve(herm_batch(257L, 1L, "random", FALSE), matrix(1, 257, 1), method = "aasen",
                          device = "gpu"), class = "batchsym_size_unsupported")
})

test_that("the GPU has Bunch-Kaufman, Aasen and every complex method, with the CPU's answers", {
  A <- herm_batch(4L, 3L, "random", FALSE)
  B <- matrix(1, 4, 3)
  x <- bsym_solve(A, B, method = "bunch-kaufman", device = "auto")
  expect_identical(attr(x, "device"), "cpu") # a small batch
  cls <- if (bsym_gpu_available()) "batchsym_size_unsupported" else "batchsym_no_device"
  H <- herm_batch(4L, 3L, "hpd", TRUE)
  if (bsym_gpu_available()) { # the GPU's answers are the CPU's, to rounding
    xg <- bsym_solve(A, B, method = "bunch-kaufman", device = "gpu")
    expect_identical(attr(xg, "device"), "gpu")
    expect_equal(as.vector(xg), as.vector(x), tolerance = 1e-12)
    hg <- bsym_solve(H, B, method = "ldlt", device = "gpu")
    expect_equal(as.vector(hg), as.vector(bsym_solve(H, B, method = "ldlt", device = "cpu")), tolerance = 1e-12)
    xa <- bsym_solve(A, B, method = "aasen", device = "gpu")
    expect_identical(attr(xa, "device"), "gpu")
    expect_equal(as.vector(xa), as.vector(bsym_solve(A, B, method = "aasen", device = "cpu")), tolerance = 1e-12)
    ha <- bsym_solve(H, B, method = "aasen", device = "gpu") # complex
    expect_equal(as.vector(ha), as.vector(bsym_solve(H, B, method = "aasen", device = "cpu")), tolerance = 1e-12)
  } else {
    expect_error(bsym_solve(A, B, method = "bunch-kaufman", device = "gpu"), class = cls)
    expect_error(bsym_solve(A, B, method = "aasen", device = "gpu"), class = cls)
  }
  expect_error(bsym_solve(A, B, method = "bunch-kaufmann"), "method", class = "batchsym_bad_argument")
  # complex input's tridiag, eigen and auto: a small batch takes the CPU under
  # "auto"; the GPU (issue 16) gives the CPU's answers, used and rank
  H <- herm_batch(4L, 3L, "hpd", TRUE)
  Z <- herm_batch(4L, 3L, "random", TRUE)
  for (method in c("tridiag", "eigen", "auto")) {
    x <- bsym_solve(H, B, method = method, device = "auto")
    expect_identical(attr(x, "device"), "cpu", info = method)
    if (bsym_gpu_available()) {
      for (M in list(H, Z)) {
        xc <- bsym_solve(M, B, method = method, device = "cpu")
        xg <- bsym_solve(M, B, method = method, device = "gpu")
        expect_identical(attr(xg, "device"), "gpu", info = method)
        expect_equal(as.vector(xg), as.vector(xc), tolerance = 1e-10, info = method)
        expect_identical(attr(xg, "method"), attr(xc, "method"), info = method)
        expect_identical(attr(xg, "rank"), attr(xc, "rank"), info = method)
      }
    } else {
      expect_error(bsym_solve(H, B, method = method, device = "gpu"), class = "batchsym_no_device")
    }
  }
})
