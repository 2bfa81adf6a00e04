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
