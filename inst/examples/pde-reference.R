# pde-reference.R -- base-R references for bsym_pde_solve() (issue 15), shared
# by vignettes/pde-pricing.Rmd and inst/bench/pde.R: the Black-Scholes put,
# a Cox-Ross-Rubinstein American put, the theta-scheme operator on a
# non-uniform grid (the same discretization as the C core: Egloff 2010, eqs.
# 17-18, "linear" boundaries) and the Thomas algorithm, so that what a user
# would write in R is timed and compared against the batched call.

# Black-Scholes European put.
bs_put <- function(S, K, r, s, T) {
  d1 <- (log(S / K) + (r + s^2 / 2) * T) / (s * sqrt(T))
  K * exp(-r * T) * pnorm(-(d1 - s * sqrt(T))) - S * pnorm(-d1)
}

# Cox-Ross-Rubinstein American put with `steps` steps.
crr_put <- function(S0, K, r, s, T, steps = 4000) {
  dt <- T / steps; u <- exp(s * sqrt(dt)); d <- 1 / u
  p <- (exp(r * dt) - d) / (u - d); disc <- exp(-r * dt)
  v <- pmax(K - S0 * u^(steps:0) * d^(0:steps), 0)
  for (i in steps:1) {
    ST <- S0 * u^((i - 1):0) * d^(0:(i - 1))
    v <- pmax(disc * (p * v[-length(v)] + (1 - p) * v[-1]), K - ST)
  }
  v
}

# The operator L u = a u_xx + b u_x + c u on the grid S as three bands (lo:
# rows 2..m, dg, up: rows 1..m-1), "linear" boundaries (the a-term dropped
# and u_x one-sided at both ends); a, b per node, c a number.
pde_bands <- function(S, a, b, c) {
  m <- length(S); h <- diff(S)
  i <- 2:(m - 1); hl <- h[i - 1]; hu <- h[i]
  lo <- c(2 * a[i] / (hl * (hl + hu)) - b[i] * hu / (hl * (hl + hu)), -b[m] / h[m - 1])
  up <- c(b[1] / h[1], 2 * a[i] / (hu * (hl + hu)) + b[i] * hl / (hu * (hl + hu)))
  dg <- c(-b[1] / h[1] + c, -2 * a[i] / (hl * hu) + b[i] * (1 / hl - 1 / hu) + c, b[m] / h[m - 1] + c)
  list(lo = lo, dg = dg, up = up)
}

# The Thomas algorithm for one tridiagonal system (no pivoting).
thomas <- function(lo, dg, up, rhs) {
  n <- length(dg); cp <- numeric(n); dp <- numeric(n)
  cp[1] <- up[1] / dg[1]; dp[1] <- rhs[1] / dg[1]
  for (i in 2:n) {
    den <- dg[i] - lo[i - 1] * cp[i - 1]
    if (i < n) cp[i] <- up[i] / den
    dp[i] <- (rhs[i] - lo[i - 1] * dp[i - 1]) / den
  }
  x <- numeric(n); x[n] <- dp[n]
  for (i in (n - 1):1) x[i] <- dp[i] - cp[i] * x[i + 1]
  x
}

# Fully implicit steps backward over the times tt with the constant operator
# L (pde_bands), from the values `final` (m x batch): per option and step with
# thomas() (`loop = "base"`), or per step for all options at once with
# bsym_tridiag_solve() (`loop = "tridiag"`).
implicit_steps <- function(L, tt, final, loop = c("base", "tridiag")) {
  loop <- match.arg(loop)
  m <- nrow(final); n_opt <- ncol(final); N <- length(tt)
  u <- final
  for (n in (N - 1):1) {
    dt <- tt[n + 1] - tt[n]
    if (loop == "base") {
      for (k in seq_len(n_opt)) u[, k] <- thomas(-dt * L$lo, 1 - dt * L$dg, -dt * L$up, u[, k])
    } else {
      u <- bsym_tridiag_solve(matrix(-dt * L$lo, m - 1, n_opt), matrix(1 - dt * L$dg, m, n_opt),
                              matrix(-dt * L$up, m - 1, n_opt), u)
    }
  }
  u
}
