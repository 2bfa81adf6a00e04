# bsym_lsfit() against lm.fit(), lm.wfit() and the minimum-norm solution of
# svd().
#
# Bound, per system (the normal equations square the condition number):
#   max|beta - beta_ref| / scale <= C_LS * m * u * bound
# full rank: bound = kappa(W^(1/2) X)^2 (kappa(, exact = TRUE)), scale =
# max(max|beta_ref|, max|W^(1/2) y| / ||W^(1/2) X||_2) (the second term
# covers responses far from the range of X); rank deficient: bound and
# scale from lsfit_ref() (helper-matrices.R). u = eps of the working
# precision. rss: against sum(w (y - X beta)^2) evaluated in R at the
# returned beta, within C_LS * m * u * sum(w (|y| + |X| |beta|)^2).

C_LS <- 10

# A design with an intercept and p - 1 standard normal columns (p >= 1).
design <- function(m, p) cbind(1, matrix(rnorm(m * (p - 1)), m, p - 1))

# The reference and the bound of one system (X m x p, y m x k, weights w or
# NULL): lm.wfit / lm.fit at full rank, lsfit_ref() otherwise.
ls_reference <- function(X, y, w = NULL, rcond = 1e-5) {
  y <- as.matrix(y)
  ref <- lsfit_ref(X, y, w, rcond)
  if (ref$rank == ncol(X) && nrow(X) >= ncol(X)) {
    fit <- if (is.null(w)) lm.fit(X, y) else lm.wfit(X, y, w)
    ww <- if (is.null(w)) rep(1, nrow(X)) else w
    sx <- sqrt(ww) * X
    ref$beta <- matrix(fit$coefficients, ncol(X))
    ref$bound <- kappa(sx, exact = TRUE)^2
    ref$scale <- max(max(abs(ref$beta)), max(abs(sqrt(ww) * y)) / norm(sx, "2"))
  }
  ref
}

# The worst coefficient error (in units of the bound) and rss error (in
# units of its bound) over the systems `which` of fit = bsym_lsfit(X, Y,
# weights), Y m x batch or m x k x batch, X m x p x batch; whether the ranks
# match the references'.
ls_check <- function(X, Y, weights, fit, precision, which = NULL, rcond = 1e-5) {
  m <- dim(X)[1]
  p <- dim(X)[2]
  batch <- dim(X)[3]
  Y3 <- array(Y, c(m, length(Y) / (m * batch), batch))
  k <- dim(Y3)[2]
  B3 <- array(fit$coefficients, c(p, k, batch))
  R2 <- matrix(fit$rss, k, batch)
  W <- if (is.null(weights)) NULL else matrix(weights, m, batch)
  u <- eps_of(precision)
  if (is.null(which)) which <- seq_len(batch)
  worst <- c(coef = 0, rss = 0)
  ranks <- integer(0)
  for (b in which) {
    x <- matrix(X[, , b], m, p)
    y <- matrix(Y3[, , b], m, k)
    w <- if (is.null(W)) NULL else W[, b]
    ref <- ls_reference(x, y, w, rcond)
    ranks[as.character(b)] <- ref$rank
    beta <- matrix(B3[, , b], p, k)
    d <- max(abs(beta - ref$beta))
    e1 <- if (d == 0) 0 else d / ref$scale / (m * u * ref$bound)
    ww <- if (is.null(w)) rep(1, m) else w
    rss_r <- colSums(ww * (y - x %*% beta)^2)
    size <- colSums(ww * (abs(y) + abs(x) %*% abs(beta))^2)
    e2 <- max(abs(R2[, b] - rss_r) / (m * u * size))
    worst <- pmax(worst, c(e1, e2))
  }
  list(worst = worst, rank_ok = identical(fit$rank[which], unname(ranks)))
}

expect_ls_ok <- function(X, Y, weights, fit, precision, label, which = NULL, rcond = 1e-5) {
  chk <- ls_check(X, Y, weights, fit, precision, which, rcond)
  expect_true(chk$rank_ok, label = sprintf("ranks %s, %s, %s", paste(fit$rank, collapse = " "), label, precision))
  expect_lt(max(chk$worst), C_LS, label = sprintf("worst error / bound (coef %.3g, rss %.3g), %s, %s",
                                                  chk$worst[1], chk$worst[2], label, precision))
}

shapes <- list(c(12, 1), c(20, 2), c(30, 5), c(60, 16), c(100, 30), c(120, 33), c(200, 64), c(150, 70))

test_that("full-rank designs match lm.fit(), double and single", {
  set.seed(81)
  for (s in shapes) {
    m <- s[1]
    p <- s[2]
    batch <- if (p <= 16) 6 else 3
    X <- array(0, c(m, p, batch))
    Y <- matrix(0, m, batch)
    for (b in seq_len(batch)) {
      X[, , b] <- design(m, p)
      Y[, b] <- matrix(X[, , b], m, p) %*% rnorm(p) + rnorm(m) * 10^(b %% 3 - 1) # residuals small to large
    }
    for (precision in c("double", "single")) {
      fit <- bsym_lsfit(X, Y, precision = precision, device = dev_for(p))
      expect_equal(names(fit), c("coefficients", "rank", "rss", "info", "method", "device"))
      expect_equal(dim(fit$coefficients), c(p, batch))
      expect_equal(length(fit$rss), batch)
      expect_equal(fit$info, integer(batch))
      expect_equal(fit$rank, rep(as.integer(p), batch))
      expect_equal(fit$method, rep("ldlt", batch))
      expect_ls_ok(X, Y, NULL, fit, precision, sprintf("m = %d, p = %d", m, p))
    }
  }
})

test_that("every method gives the same full-rank fit", {
  set.seed(82)
  m <- 40
  p <- 6
  X <- array(replicate(4, design(m, p)), c(m, p, 4))
  Y <- matrix(rnorm(m * 4), m, 4)
  for (method in c("ldlt", "tridiag", "eigen", "auto")) {
    fit <- bsym_lsfit(X, Y, method = method)
    expect_equal(fit$method, rep(if (method == "auto") "ldlt" else method, 4))
    expect_equal(fit$rank, rep(p, 4))
    expect_ls_ok(X, Y, NULL, fit, "double", method)
  }
})

test_that("weights: one vector for every system, or a column per system, match lm.wfit()", {
  set.seed(83)
  m <- 50
  p <- 7
  batch <- 5
  X <- array(replicate(batch, design(m, p)), c(m, p, batch))
  Y <- matrix(rnorm(m * batch), m, batch)
  w1 <- runif(m, 0.1, 3)
  w1[c(3, 9)] <- 0                                # zero weights drop rows
  W <- matrix(rexp(m * batch), m, batch)
  W[1:5, 2] <- 0
  for (precision in c("double", "single")) {
    f1 <- bsym_lsfit(X, Y, weights = w1, precision = precision)
    expect_ls_ok(X, Y, rep(w1, batch), f1, precision, "shared weights")
    fW <- bsym_lsfit(X, Y, weights = W, precision = precision)
    expect_ls_ok(X, Y, W, fW, precision, "weights per system")
    # weights 1 are no weights
    expect_equal(bsym_lsfit(X, Y, weights = rep(1, m), precision = precision),
                 bsym_lsfit(X, Y, precision = precision))
  }
  # integer weights, X and Y are accepted
  Xi <- array(as.integer(round(X * 10)), dim(X))
  Xi[, 1, ] <- 1L
  fi <- bsym_lsfit(Xi, array(as.integer(round(Y * 10)), dim(Y)), weights = as.integer(1 + (seq_len(m) %% 3)))
  expect_ls_ok(array(as.double(Xi), dim(Xi)), round(Y * 10), rep(1 + (seq_len(m) %% 3), batch), fi, "double",
               "integers")
})

test_that("several responses per system: Y m x k x batch, coefficients p x k x batch, rss k x batch", {
  set.seed(84)
  m <- 30
  p <- 4
  k <- 3
  batch <- 4
  X <- array(replicate(batch, design(m, p)), c(m, p, batch),
             dimnames = list(NULL, c("(Intercept)", "a", "b", "c"), paste0("s", 1:batch)))
  Y <- array(rnorm(m * k * batch), c(m, k, batch), dimnames = list(NULL, c("y1", "y2", "y3"), NULL))
  w <- runif(m)
  for (precision in c("double", "single")) {
    fit <- bsym_lsfit(X, Y, weights = w, precision = precision)
    expect_equal(dim(fit$coefficients), c(p, k, batch))
    expect_equal(dimnames(fit$coefficients), list(dimnames(X)[[2]], c("y1", "y2", "y3"), paste0("s", 1:batch)))
    expect_equal(dim(fit$rss), c(k, batch))
    expect_equal(dimnames(fit$rss), list(c("y1", "y2", "y3"), paste0("s", 1:batch)))
    expect_ls_ok(X, Y, rep(w, batch), fit, precision, "3 responses")
    # the same as one response at a time
    for (j in 1:k) {
      f1 <- bsym_lsfit(X, Y[, j, ], weights = w, precision = precision)
      expect_equal(unname(f1$coefficients), unname(fit$coefficients[, j, ]),
                   tolerance = 100 * m * eps_of(precision))
    }
  }
  # rss against lm.wfit's residuals
  fit <- bsym_lsfit(X, Y, weights = w)
  for (b in 1:batch) {
    ref <- lm.wfit(X[, , b], Y[, , b], w)
    expect_equal(unname(fit$rss[, b]), unname(colSums(w * ref$residuals^2)), tolerance = 1e-10)
  }
})

test_that("a matrix X is one system: a vector y gives a named vector, an m x k Y a p x k matrix", {
  set.seed(85)
  m <- 25
  X <- cbind("(Intercept)" = 1, x1 = rnorm(m), x2 = rnorm(m))
  y <- drop(X %*% c(1, 2, -1)) + rnorm(m, sd = 0.1)
  fit <- bsym_lsfit(X, y)
  ref <- lm.fit(X, y)
  expect_equal(fit$coefficients, ref$coefficients, tolerance = 1e-10)
  expect_equal(names(fit$coefficients), colnames(X))
  expect_length(fit$rss, 1)
  expect_equal(fit$rss, sum(ref$residuals^2), tolerance = 1e-10)
  expect_equal(list(fit$rank, fit$info, fit$method), list(3L, 0L, "ldlt"))
  expect_true(fit$device %in% c("cpu", "gpu"))
  Y <- cbind(u = y, v = rnorm(m))
  fk <- bsym_lsfit(X, Y, weights = rep(2, m))
  expect_equal(dim(fk$coefficients), c(3L, 2L))
  expect_equal(dimnames(fk$coefficients), list(colnames(X), c("u", "v")))
  expect_equal(fk$coefficients, lm.fit(X, Y)$coefficients, tolerance = 1e-10, ignore_attr = TRUE)
  expect_equal(names(fk$rss), c("u", "v"))
  expect_equal(unname(fk$rss), unname(2 * colSums(lm.fit(X, Y)$residuals^2)), tolerance = 1e-10)
  # without column names, none are made up
  fn <- bsym_lsfit(unname(X), y)
  expect_null(names(fn$coefficients))
  # an m x p x 1 array is a batch of one: p x 1 coefficients
  f3 <- bsym_lsfit(array(X, c(m, 3, 1)), matrix(y, m, 1))
  expect_equal(dim(f3$coefficients), c(3L, 1L))
  expect_equal(as.vector(f3$coefficients), unname(ref$coefficients), tolerance = 1e-10)
  # batch names from Y when X has none
  fy <- bsym_lsfit(array(X, c(m, 3, 2)), matrix(y, m, 2, dimnames = list(NULL, c("p", "q"))))
  expect_equal(colnames(fy$coefficients), c("p", "q"))
  expect_equal(names(fy$rss), c("p", "q"))
})

test_that("rank-deficient designs give the minimum-norm solution of svd()", {
  set.seed(86)
  for (precision in c("double", "single")) {
    for (s in list(c(30, 4), c(40, 16), c(80, 33), c(150, 70))) {
      m <- s[1]
      p <- s[2]
      X <- array(0, c(m, p, 4))
      X[, , 1] <- design(m, p)
      X[, p, 1] <- X[, 2, 1]                  # a duplicated column: rank p - 1
      if (p > 2) X[, , 2] <- design(m, p)
      X[, 1, 2] <- 0                          # a zero column: rank p - 1
      X[, , 3] <- design(m, p)
      X[, , 3] <- X[, , 3] %*% diag(c(rep(1, p - min(2, p - 1)), rep(0, min(2, p - 1))), p) # zero columns at the end
      X[, , 4] <- design(m, p)                # full rank
      Y <- matrix(rnorm(m * 4), m, 4)
      fit <- bsym_lsfit(X, Y, precision = precision, device = dev_for(p))
      expect_equal(fit$info, integer(4))
      expect_equal(fit$rank, as.integer(c(p - 1, p - 1, p - min(2, p - 1), p)))
      expect_equal(fit$method, c("eigen", "eigen", "eigen", "ldlt"))
      expect_ls_ok(X, Y, NULL, fit, precision, sprintf("rank deficient, m = %d, p = %d", m, p))
    }
    # fewer observations than coefficients: rank m, an exact fit of least norm
    for (s in list(c(1, 2), c(3, 5), c(8, 20), c(30, 64))) {
      m <- s[1]
      p <- s[2]
      X <- array(rnorm(m * p * 3), c(m, p, 3))
      Y <- matrix(rnorm(m * 3), m, 3)
      w <- runif(m, 0.5, 2)
      fit <- bsym_lsfit(X, Y, weights = w, precision = precision)
      expect_equal(fit$rank, rep(as.integer(m), 3))
      expect_ls_ok(X, Y, rep(w, 3), fit, precision, sprintf("m = %d < p = %d", m, p))
      expect_lt(max(fit$rss), 1e3 * m * eps_of(precision) * sum(w * Y^2) / 3)
    }
  }
})

test_that("rcond applies to the eigenvalues of X'WX, the squared singular values of X", {
  set.seed(87)
  m <- 40
  p <- 6
  make <- function(d) {
    U <- qr.Q(qr(matrix(rnorm(m * p), m)))
    V <- qr.Q(qr(matrix(rnorm(p * p), p)))
    U %*% (d * t(V))
  }
  d <- c(1, 0.8, 0.5, 0.3, 0.1, 1e-3)         # cond(X) = 1e3: cond(X'X) = 1e6 > 1e5
  X <- array(c(make(d), make(d)), c(m, p, 2))
  Y <- matrix(rnorm(m * 2), m, 2)
  fit <- bsym_lsfit(X, Y)
  expect_equal(fit$rank, c(p - 1L, p - 1L))
  expect_equal(fit$method, c("eigen", "eigen"))
  expect_ls_ok(X, Y, NULL, fit, "double", "default rcond")
  keep <- bsym_lsfit(X, Y, rcond = 1e-7)
  expect_equal(keep$rank, c(p, p))
  expect_ls_ok(X, Y, NULL, keep, "double", "rcond = 1e-7", rcond = 1e-7)
  cut <- bsym_lsfit(X, Y, rcond = 0.1)           # keeps d^2 >= 0.1: 1, 0.8, 0.5
  expect_equal(cut$rank, c(3L, 3L))
  expect_ls_ok(X, Y, NULL, cut, "double", "rcond = 0.1", rcond = 0.1)
  # the weights enter the cut: rows weighted 0 can leave X'WX singular
  Xs <- X[, , 1, drop = FALSE]
  w <- c(rep(1, p - 2), rep(0, m - p + 2))        # only p - 2 rows count
  fw <- bsym_lsfit(Xs, Y[, 1, drop = FALSE], weights = w)
  expect_equal(fw$rank, p - 2L)
  expect_ls_ok(Xs, Y[, 1, drop = FALSE], w, fw, "double", "rows weighted 0")
})

test_that("a bad system is NA with one warning, the others are fitted", {
  set.seed(88)
  m <- 20
  p <- 3
  batch <- 6
  X <- array(replicate(batch, design(m, p)), c(m, p, batch))
  Y <- matrix(rnorm(m * batch), m, batch)
  W <- matrix(1, m, batch)
  X[4, 2, 2] <- NaN
  Y[7, 4] <- Inf
  W[2, 5] <- NA
  for (precision in c("double", "single")) {
    expect_warning(fit <- bsym_lsfit(X, Y, weights = W, precision = precision),
                   "bsym_lsfit: 3 of 6 systems could not be fitted", fixed = TRUE)
    expect_equal(fit$info, c(0L, -1L, 0L, -1L, -1L, 0L))
    expect_equal(fit$rank, c(p, NA, p, NA, NA, p))
    expect_equal(fit$method, c("ldlt", NA, "ldlt", NA, NA, "ldlt"))
    expect_true(all(is.na(fit$coefficients[, c(2, 4, 5)])) && !any(is.nan(fit$coefficients[, c(2, 4, 5)])))
    expect_true(all(is.na(fit$rss[c(2, 4, 5)])))
    expect_ls_ok(X, Y, W, fit, precision, "beside bad systems", which = c(1, 3, 6))
  }
  # a negative weight fails its system only (the core's rule: info -1); a
  # negative weight shared by every system fails them all
  W[2, 5] <- 1
  W[3, 3] <- -1
  expect_warning(fit <- bsym_lsfit(X, Y, weights = W),
                 "bsym_lsfit: 3 of 6 systems could not be fitted (3 non-finite data or a negative or non-finite weight",
                 fixed = TRUE)
  expect_equal(fit$info, c(0L, -1L, -1L, -1L, 0L, 0L))
  expect_true(all(is.na(fit$coefficients[, 3])) && all(!is.na(fit$coefficients[, c(1, 5, 6)])))
  for (bad in c(-1, -Inf)) {
    expect_warning(fit <- bsym_lsfit(X, Y, weights = c(bad, rep(1, m - 1))),
                   "bsym_lsfit: 6 of 6 systems could not be fitted", fixed = TRUE)
    expect_equal(fit$info, rep(-1L, 6))
  }
  # an infinite weight fails its system too
  W[2, 5] <- Inf
  expect_warning(fit <- bsym_lsfit(X[, , 5, drop = FALSE], Y[, 5, drop = FALSE], weights = W[, 5, drop = FALSE]),
                 "1 of 1")
  expect_equal(fit$info, -1L)
})

test_that("an empty batch gives empty results of the right shapes", {
  fit <- bsym_lsfit(array(0, c(5, 2, 0)), matrix(0, 5, 0))
  expect_equal(dim(fit$coefficients), c(2L, 0L))
  expect_equal(fit$rank, integer(0))
  expect_equal(fit$rss, numeric(0))
  expect_equal(fit$method, character(0))
  fit3 <- bsym_lsfit(array(0, c(5, 2, 0)), array(0, c(5, 3, 0)))
  expect_equal(dim(fit3$coefficients), c(2L, 3L, 0L))
  expect_equal(dim(fit3$rss), c(3L, 0L))
})

test_that("a plan records least-squares calls like solves", {
  set.seed(89)
  m <- 30
  p <- 5
  X <- array(replicate(8, design(m, p)), c(m, p, 8))
  Y <- matrix(rnorm(m * 8), m, 8)
  plan <- bsym_plan()
  f1 <- bsym_lsfit(X, Y, plan = plan)
  expect_equal(f1$method, rep("ldlt", 8))
  expect_equal(c(plan$calls, plan$systems, plan$fallback), c(1, 8, 0))
  f2 <- bsym_lsfit(X, Y, plan = plan)
  expect_equal(f2$method, rep("ldlt", 8))
  expect_ls_ok(X, Y, NULL, f2, "double", "LDL^T start")
  expect_warning(bsym_lsfit(X, Y, method = "eigen", plan = plan), "bsym_lsfit: plan is only used by method = \"auto\"")
  expect_equal(plan$calls, 2)
})

test_that("every argument error names its argument", {
  X <- array(rnorm(60), c(10, 2, 3))
  Y <- matrix(rnorm(30), 10, 3)
  expect_error(bsym_lsfit(rnorm(10), Y), "X must be an m x p matrix or an m x p x batch array (got a vector of length 10)",
               fixed = TRUE)
  expect_error(bsym_lsfit(array(0, c(10, 2, 3, 1)), Y), "X must be an m x p matrix or an m x p x batch array (got 4 dimensions",
               fixed = TRUE)
  expect_error(bsym_lsfit(array("a", c(10, 2, 3)), Y), "X must be a numeric array")
  expect_error(bsym_lsfit(array(1i, c(10, 2, 3)), Y), "X must be real")
  expect_error(bsym_lsfit(X, matrix("a", 10, 3)), "Y must be a numeric array")
  expect_error(bsym_lsfit(X, matrix(0, 9, 3)), "Y does not match X (m = 10, batch = 3): Y has 9 rows", fixed = TRUE)
  expect_error(bsym_lsfit(X, matrix(0, 10, 4)), "Y does not match X.*4 columns")
  expect_error(bsym_lsfit(X, array(0, c(10, 2, 4))), "Y does not match X.*holds 4 systems")
  expect_error(bsym_lsfit(X, rnorm(10)), "Y does not match X.*a vector Y is only for a batch of one")
  expect_error(bsym_lsfit(X[, , 1], rnorm(9)), "Y does not match X.*length 9")
  expect_error(bsym_lsfit(X, array(0, c(10, 1, 3, 1))), "Y must be a vector, an m x batch matrix")
  expect_error(bsym_lsfit(X, Y, weights = rep(1, 9)), "weights must be a vector of length m = 10")
  expect_error(bsym_lsfit(X, Y, weights = matrix(1, 10, 2)), "weights must be a vector of length m = 10 .*got 2 dimensions")
  expect_error(bsym_lsfit(X, Y, weights = array(1, c(10, 3, 1))), "weights must be a vector of length m")
  expect_error(bsym_lsfit(X, Y, weights = rep("1", 10)), "weights must be a numeric array")
  expect_error(bsym_lsfit(X, Y, weights = rep(TRUE, 10)), "weights must be a numeric array")
  expect_error(bsym_lsfit(X, Y, rcond = 1), "rcond must be a single number in [0, 1)", fixed = TRUE)
  expect_error(bsym_lsfit(X, Y, rcond = -0.1), "rcond must be a single number in [0, 1)", fixed = TRUE)
  expect_error(bsym_lsfit(X, Y, tol = 0), "tol must be a single positive finite number", fixed = TRUE)
  expect_error(bsym_lsfit(X, Y, method = "qr"), "method must be one of \"ldlt\", \"tridiag\", \"eigen\", \"auto\"",
               fixed = TRUE)
  expect_error(bsym_lsfit(X, Y, plan = list()), "plan must be NULL or a plan made by bsym_plan()", fixed = TRUE)
  expect_error(bsym_lsfit(X, Y, device = "tpu"), "device must be one of")
  expect_error(bsym_lsfit(X, Y, precision = "half"), "precision must be one of")
})

test_that("device = 'gpu' without a usable GPU says why", {
  skip_if(bsym_gpu_available())
  expect_error(bsym_lsfit(matrix(rnorm(10), 5, 2), rnorm(5), device = "gpu"), "bsym_lsfit: .*no GPU is usable")
})

test_that("the CPU and the GPU give the same fits", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  set.seed(90)
  for (s in list(c(12, 1), c(30, 5), c(60, 16), c(120, 33), c(200, 64), c(300, 100))) {
    m <- s[1]
    p <- s[2]
    batch <- 50
    X <- array(replicate(batch, design(m, p)), c(m, p, batch))
    if (p > 1) X[, p, 3] <- X[, 1, 3]
    X[1, 1, 7] <- NaN
    Y <- array(rnorm(m * 2 * batch), c(m, 2, batch))
    W <- matrix(runif(m * batch), m, batch)
    for (precision in c("double", "single")) {
      fc <- suppressWarnings(bsym_lsfit(X, Y, weights = W, device = "cpu", precision = precision))
      fg <- suppressWarnings(bsym_lsfit(X, Y, weights = W, device = "gpu", precision = precision))
      expect_equal(fg$device, "gpu")
      expect_equal(fg[c("rank", "info", "method")], fc[c("rank", "info", "method")])
      expect_ls_ok(X, Y, W, fg, precision, sprintf("GPU, m = %d, p = %d", m, p), which = seq_len(batch)[-7])
    }
  }
})

test_that("the pivoted methods of bsym_solve are refused for least squares, by name", {
  X <- cbind(1, matrix(rnorm(40), 20))
  for (method in c("bunch-kaufman", "aasen"))
    expect_error(bsym_lsfit(X, rnorm(20), method = method), paste0("\"", method, "\" is not for least squares"),
                 class = "batchsym_bad_argument")
})
