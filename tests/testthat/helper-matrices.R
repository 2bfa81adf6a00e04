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

# ---- truncated spectrum, automatic solves and least squares ----------------

# Q diag(lambda) Q' with a random orthogonal Q, exactly symmetric.
sym_with_values <- function(lambda) {
  n <- length(lambda)
  Q <- qr.Q(qr(matrix(rnorm(n * n), n)))
  A <- Q %*% (lambda * t(Q))
  (A + t(A)) / 2
}

# An n x n x length(mats) array of the matrices in the list.
stack_of <- function(mats) {
  n <- NROW(mats[[1]])
  array(unlist(mats), c(n, n, length(mats)))
}

# Eigenvalues for an n x n matrix whose spectrum is cut by rcond = 1e-5:
# max |lambda| = 1, `drop` of them of size 1e-9 (dropped), the others of
# size 10^-(0 .. kept_decades) (kept), signs random when indefinite.
cut_spectrum <- function(n, drop, kept_decades = 2, indefinite = FALSE) {
  kept <- n - drop
  l <- c(10^-seq(0, kept_decades, length.out = max(kept, 1))[seq_len(kept)], rep(1e-9, drop))
  if (indefinite) l <- l * sample(c(-1, 1), n, replace = TRUE)
  l
}

# The truncated-spectrum reference of eigen() in double: x = V_k diag(1 /
# l_k) V_k' b over the pairs with |l| >= rcond max |l| (and l != 0), for an
# n x n matrix a and an n x k matrix b. A backward-stable truncated solve
# (eigenpairs of a + E, ||E|| <= c n u ||a||) errs by about
#   ||dx|| <= c n u (kappa_eff + max|l| / gap) ||A_k^+|| ||b||
# (kappa_eff = max|l| / min kept |l|, gap the distance between the kept and
# the dropped eigenvalues), and by ||dx|| <= c n u kappa_eff ||x|| when
# nothing is dropped. list(x, rank, scale, bound): errors are measured
# relative to `scale` (max |x|, or at least max |b| / min kept |l| when
# something is dropped) and in units of n u `bound`; `margin` is the
# distance of the cut rcond max |l| from the nearest |l|, relative to
# max |l| (a fair test keeps it well above the eigenvalues' rounding errors,
# a few n u max |l|).
trunc_ref <- function(a, b, rcond = 1e-5) {
  e <- eigen(a, symmetric = TRUE)
  l <- e$values
  top <- max(abs(l))
  keep <- abs(l) >= rcond * top & l != 0
  V <- e$vectors[, keep, drop = FALSE]
  x <- V %*% (crossprod(V, as.matrix(b)) / l[keep])
  low <- if (any(keep)) min(abs(l[keep])) else top
  kappa <- if (any(keep)) top / low else 1
  gap <- if (any(keep) && any(!keep)) min(abs(outer(l[keep], l[!keep], "-"))) else Inf
  scale <- max(abs(x))
  if (any(!keep) && low > 0) scale <- max(scale, max(abs(b)) / low)
  list(x = x, rank = sum(keep), scale = scale, bound = kappa + top / gap,
       margin = if (top > 0) min(abs(abs(l) - rcond * top)) / top else Inf)
}

# max |x - ref| / max |ref| (0 when both are 0).
rel_err <- function(x, ref) {
  d <- max(abs(x - ref))
  if (d == 0) 0 else d / max(abs(ref))
}

# The minimum-norm weighted least-squares solution from svd(W^(1/2) X),
# singular values d kept when d^2 >= rcond max d^2 (the cut bsym_lsfit()
# applies to G = X'WX); y a vector or an m x k matrix. Through the normal
# equations (G and X'Wy formed with errors of m u ||X||^2 and m u ||X||
# ||y||, then solved backward stably) the coefficients err by about
#   ||dbeta|| <= c m u (kappa + max d^2 / gap) (||beta|| + ||y|| / ||X||)
# with kappa = max d^2 / min kept d^2 = cond(X)^2 over the kept part and
# gap as in trunc_ref() for G. list(beta, rank, scale, bound): errors are
# measured relative to scale = max(max |beta|, max |W^(1/2) y| / max d) and
# in units of m u bound.
lsfit_ref <- function(X, y, w = NULL, rcond = 1e-5) {
  if (is.null(w)) w <- rep(1, nrow(X))
  s <- svd(sqrt(w) * X)
  d2 <- s$d^2
  keep <- d2 >= rcond * max(d2) & d2 > 0
  U <- s$u[, keep, drop = FALSE]
  V <- s$v[, keep, drop = FALSE]
  wy <- sqrt(w) * as.matrix(y)
  beta <- V %*% (crossprod(U, wy) / s$d[keep])
  kappa <- if (any(keep)) max(d2) / min(d2[keep]) else 1
  cut <- c(d2[!keep], rep(0, ncol(X) - length(d2))) # G's dropped eigenvalues (m < p: zeros)
  gap <- if (any(keep) && length(cut)) min(d2[keep]) - max(cut) else Inf
  list(beta = beta, rank = sum(keep), bound = kappa + max(d2) / gap,
       scale = max(max(abs(beta)), if (max(d2) > 0) max(abs(wy)) / sqrt(max(d2)) else 0))
}

# The device for a dense call of order n (n, or p for a fit) whose method
# the GPU takes up to n = 256 (eigen, auto, least squares; the same rule as
# tests/octave/dev_for.m): the suite's device option, or "auto" above 256,
# so that a suite run with options(batchsym.device = "gpu") lets the CPU
# serve those sizes.
dev_for <- function(n) if (n > 256) "auto" else getOption("batchsym.device", "auto")

# The device for a call the GPU may have no kernel for (complex Hermitian
# input with the solve methods tridiag, eigen or auto: issue 14; complex
# bsym_eigen and bsym_tridiagonalize run on the GPU): the suite's device
# option, except that "gpu" (the option tools/gpu-check.sh sets) becomes
# "auto", which takes the CPU. With
# no argument it is the value for a call's device argument; given an
# environment, it sets the option there for the rest of that test block.
cpu_only_device <- function(envir = NULL) {
  dev <- getOption("batchsym.device", "auto")
  if (identical(dev, "gpu")) dev <- "auto"
  if (!is.null(envir)) withr::local_options(list(batchsym.device = dev), .local_envir = envir)
  dev
}
