# Test matrices and error measures shared by the test files.

eps_of <- function(precision) if (precision == "single") 2^-23 else .Machine$double.eps

# n x n x batch random SPD: M M' / n + I (condition number around 4n at most).
random_spd <- function(n, batch) {
  A <- array(0, c(n, n, batch))
  for (k in seq_len(batch)) {
    M <- matrix(rnorm(n * n), n)
    A[, , k] <- tcrossprod(M) / n + diag(n)
  }
  A
}

# Q of the Householder tridiagonalisation Q' A Q = T of a symmetric matrix.
householder_q <- function(A) {
  n <- nrow(A)
  Q <- diag(n)
  if (n < 3) return(Q)
  for (j in 1:(n - 2)) {
    x <- A[(j + 1):n, j]
    alpha <- -sign(x[1] + (x[1] == 0)) * sqrt(sum(x^2))
    v <- x
    v[1] <- v[1] - alpha
    if (sum(v^2) == 0) next
    H <- diag(n)
    H[(j + 1):n, (j + 1):n] <- diag(n - j) - 2 * tcrossprod(v) / sum(v^2)
    A <- H %*% A %*% H
    Q <- Q %*% H
  }
  Q
}

# The paper's randomised Xi_rho (Sect. 3.3): Q R Q' with Q from the
# Householder reduction of Xi_rho (1 on the diagonal, rho elsewhere) and R a
# random diagonally dominant symmetric tridiagonal matrix.
xi_rho_random <- function(n, batch, rho = 0.5) {
  Xi <- matrix(rho, n, n)
  diag(Xi) <- 1
  Q <- householder_q(Xi)
  A <- array(0, c(n, n, batch))
  for (k in seq_len(batch)) {
    off <- runif(max(n - 1, 0))
    d <- runif(n) + c(off, 0) + c(0, off) + 0.1
    R <- diag(d, n)
    if (n > 1) {
      R[cbind(2:n, 1:(n - 1))] <- off
      R[cbind(1:(n - 1), 2:n)] <- off
    }
    A[, , k] <- Q %*% R %*% t(Q)
  }
  A
}

# Largest normwise backward error over systems and right-hand sides:
# ||b - A x|| / (||A|| ||x|| + ||b||), infinity norms.
backward_error <- function(A, B, X) {
  n <- dim(A)[1]
  batch <- dim(A)[3]
  B <- array(B, c(n, length(B) / (n * batch), batch))
  X <- array(X, dim(B))
  worst <- 0
  for (k in seq_len(batch)) {
    a <- matrix(A[, , k], n, n)
    b <- matrix(B[, , k], n)
    x <- matrix(X[, , k], n)
    r <- b - a %*% x
    den <- max(rowSums(abs(a))) * max(abs(x)) + max(abs(b))
    worst <- max(worst, max(abs(r)) / den)
  }
  worst
}

# ---- symmetric indefinite and tridiagonal test matrices --------------------

# n x n x batch random symmetric indefinite: (M + M') / 2, M standard normal.
random_sym <- function(n, batch) {
  A <- array(0, c(n, n, batch))
  for (k in seq_len(batch)) {
    M <- matrix(rnorm(n * n), n)
    A[, , k] <- (M + t(M)) / 2
  }
  A
}

# The dense n x n tridiagonal matrix with bands l (sub), d and u (super).
tridiag_dense <- function(l, d, u = l) {
  n <- length(d)
  Tm <- diag(d, n)
  if (n > 1) {
    Tm[cbind(2:n, 1:(n - 1))] <- l
    Tm[cbind(1:(n - 1), 2:n)] <- u
  }
  Tm
}

# The paper's Xi_rho family with an indefinite core: Q R Q' with Q from the
# Householder reduction of Xi_rho and R a random symmetric tridiagonal
# matrix that is NOT diagonally dominant (normal diagonal and off-diagonal).
xi_rho_indefinite <- function(n, batch, rho = 0.5) {
  Xi <- matrix(rho, n, n)
  diag(Xi) <- 1
  Q <- householder_q(Xi)
  A <- array(0, c(n, n, batch))
  for (k in seq_len(batch)) {
    R <- tridiag_dense(rnorm(max(n - 1, 0)), rnorm(n))
    A[, , k] <- Q %*% R %*% t(Q)
  }
  (A + aperm(A, c(2, 1, 3))) / 2
}

# n x n x batch symmetric matrices Q diag(s) Q' with singular values spread
# from 1 to 1 / cond (condition number `cond`), random Q, random signs when
# indefinite = TRUE.
conditioned_sym <- function(n, batch, cond, indefinite = FALSE) {
  A <- array(0, c(n, n, batch))
  for (k in seq_len(batch)) {
    Q <- qr.Q(qr(matrix(rnorm(n * n), n)))
    s <- 10^seq(0, -log10(cond), length.out = n)
    if (indefinite) s <- s * sample(c(-1, 1), n, replace = TRUE)
    A[, , k] <- Q %*% diag(s, n) %*% t(Q)
  }
  (A + aperm(A, c(2, 1, 3))) / 2
}

# Bands of `batch` random diagonally dominant (by rows and by columns)
# general tridiagonal matrices of order n, diagonal of random sign:
# list(lower, diag, upper) with (n-1) x batch, n x batch, (n-1) x batch.
dd_tridiag <- function(n, batch) {
  m <- max(n - 1, 0)
  l <- matrix(rnorm(m * batch), m, batch)
  u <- matrix(rnorm(m * batch), m, batch)
  pad <- function(x) rbind(0, x) + rbind(x, 0) # |neighbours| of each row
  margin <- matrix(0.5 + runif(n * batch), n, batch)
  d <- (pad(abs(l)) + pad(abs(u)))[seq_len(n), , drop = FALSE] + margin
  d <- d * sample(c(-1, 1), n * batch, replace = TRUE)
  list(lower = l, diag = d, upper = u)
}

# Bands of `batch` symmetric positive definite tridiagonal matrices
# T = B B' with B lower bidiagonal (diagonal in [1, 2], sub-diagonal of
# random sign and size in [0.5, 1.5]): most are not diagonally dominant,
# and cond(T) stays moderate. list(lower, diag) (upper = lower).
spd_tridiag <- function(n, batch) {
  m <- max(n - 1, 0)
  b <- matrix(runif(n * batch, 1, 2), n, batch)
  c <- matrix(runif(m * batch, 0.5, 1.5) * sample(c(-1, 1), m * batch, replace = TRUE), m, batch)
  d <- b^2 + rbind(0, c^2)[seq_len(n), , drop = FALSE]
  l <- c * b[seq_len(m), , drop = FALSE]
  list(lower = l, diag = d)
}

# T %*% X for the tridiagonal matrix with bands (vectors) l, d, u and the
# n x k matrix X, without forming T.
tridiag_mult <- function(l, d, u, X) {
  X <- as.matrix(X)
  n <- length(d)
  Y <- d * X
  if (n > 1) {
    Y[-n, ] <- Y[-n, ] + u * X[-1, , drop = FALSE]
    Y[-1, ] <- Y[-1, ] + l * X[-n, , drop = FALSE]
  }
  Y
}

# Largest normwise backward error ||b - T x|| / (||T|| ||x|| + ||b||)
# (infinity norms) over the systems of a tridiagonal batch: bands as given
# to bsym_tridiag_solve (matrices or one system's vectors), B and X n x batch
# or n x k x batch (or one system's vector / n x k matrix).
tridiag_backward_error <- function(lower, diag, upper, B, X) {
  if (is.null(upper)) upper <- lower
  n <- NROW(diag)
  batch <- NCOL(diag)
  m <- max(n - 1, 0)
  l <- matrix(lower, m, batch)
  d <- matrix(diag, n, batch)
  u <- matrix(upper, m, batch)
  B <- array(B, c(n, length(B) / (n * batch), batch))
  X <- array(X, dim(B))
  worst <- 0
  for (k in seq_len(batch)) {
    x <- matrix(X[, , k], n)
    b <- matrix(B[, , k], n)
    r <- b - tridiag_mult(l[, k], d[, k], u[, k], x)
    tnorm <- max(abs(d[, k]) + c(abs(l[, k]), 0) + c(0, abs(u[, k])))
    worst <- max(worst, max(abs(r)) / (tnorm * max(abs(x)) + max(abs(b))))
  }
  worst
}

# The Thomas algorithm (Gaussian elimination without pivoting) for one
# tridiagonal system, a reference for large diagonally dominant n.
thomas <- function(l, d, u, b) {
  n <- length(d)
  cp <- numeric(n)
  dp <- numeric(n)
  cp[1] <- if (n > 1) u[1] / d[1] else 0
  dp[1] <- b[1] / d[1]
  if (n > 1) for (i in 2:n) {
    den <- d[i] - l[i - 1] * cp[i - 1]
    if (i < n) cp[i] <- u[i] / den
    dp[i] <- (b[i] - l[i - 1] * dp[i - 1]) / den
  }
  x <- numeric(n)
  x[n] <- dp[n]
  if (n > 1) for (i in (n - 1):1) x[i] <- dp[i] - cp[i] * x[i + 1]
  x
}

# Tridiagonal T from bsym_tridiagonalize()'s d and e of one system.
tridiag_of <- function(d, e) tridiag_dense(e, d, e)
