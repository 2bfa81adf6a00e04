# bsym_pde_solve() (issue 15): European puts and calls against Black-Scholes,
# second-order convergence in space, time-dependent and per-system
# coefficients, non-uniform grids, the American put against a binomial tree,
# single precision, CPU and GPU agreeing, and every bad input.

bs_price <- function(S, K, r, s, T, call = FALSE) {
  d1 <- (log(S / K) + (r + s^2 / 2) * T) / (s * sqrt(T))
  d2 <- d1 - s * sqrt(T)
  if (call) S * pnorm(d1) - K * exp(-r * T) * pnorm(d2)
  else K * exp(-r * T) * pnorm(-d2) - S * pnorm(-d1)
}

# Black-Scholes in S: a = s^2 S^2 / 2 (per system when s is a vector), b = r S, c = -r.
bs_coef <- function(S, s) {
  if (length(s) == 1L) 0.5 * s^2 * S^2 else array(outer(S^2, 0.5 * s^2), c(length(S), 1L, length(s)))
}

# The price at S0 by linear interpolation on the grid.
at <- function(S, u, S0) if (is.matrix(u)) apply(u, 2, function(v) approx(S, v, S0)$y) else approx(S, u, S0)$y

# Cox-Ross-Rubinstein American put.
crr_put <- function(S0, K, r, s, T, steps = 2000) {
  dt <- T / steps
  u <- exp(s * sqrt(dt)); d <- 1 / u
  p <- (exp(r * dt) - d) / (u - d)
  disc <- exp(-r * dt)
  ST <- S0 * u^(steps:0) * d^(0:steps)
  v <- pmax(K - ST, 0)
  for (i in steps:1) {
    ST <- S0 * u^((i - 1):0) * d^(0:(i - 1))
    v <- pmax(disc * (p * v[-length(v)] + (1 - p) * v[-1]), K - ST)
  }
  v
}

K <- 100; r <- 0.05; T <- 1

test_that("European puts and calls match Black-Scholes, several volatilities in one call", {
  S <- seq(0, 400, length.out = 401)
  tt <- seq(0, T, length.out = 201)
  s <- c(0.1, 0.2, 0.35)
  put <- matrix(pmax(K - S, 0), length(S), 3)
  call <- matrix(pmax(S - K, 0), length(S), 3)
  for (device in c("cpu", "auto")) {
    up <- bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = put, rannacher = 2, device = device)
    uc <- bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = call, rannacher = 2, device = device)
    expect_identical(dim(up), dim(put))
    expect_identical(attr(up, "info"), integer(3))
    for (S0 in c(80, 100, 120)) {
      expect_lt(max(abs(at(S, up, S0) - bs_price(S0, K, r, s, T))), 0.02)
      expect_lt(max(abs(at(S, uc, S0) - bs_price(S0, K, r, s, T, call = TRUE))), 0.02)
    }
  }
})

test_that("the error falls by 4 when the grid is halved (second order in space)", {
  s <- 0.25
  err <- sapply(c(101, 201, 401), function(m) {
    S <- seq(0, 400, length.out = m)
    u <- bsym_pde_solve(S, seq(0, T, length.out = 801), a = bs_coef(S, s), b = r * S, c = -r,
                        final = pmax(K - S, 0), rannacher = 2)
    abs(u[S == 100] - bs_price(100, K, r, s, T))
  })
  ratio <- err[-3] / err[-1]
  expect_true(all(ratio > 3 & ratio < 5.5), info = paste(signif(ratio, 3), collapse = ", "))
})

test_that("a non-uniform grid concentrated at the strike is more accurate for the same nodes", {
  s <- 0.2
  m <- 121
  lambda <- 25 # S = K + lambda sinh(xi), xi uniform: nodes packed near the strike
  xi <- seq(asinh((0 - K) / lambda), asinh((400 - K) / lambda), length.out = m)
  S_nu <- K + lambda * sinh(xi)
  S_nu[1] <- 0
  S_u <- seq(0, 400, length.out = m)
  tt <- seq(0, T, length.out = 401)
  price <- function(S) at(S, bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r,
                                            final = pmax(K - S, 0), rannacher = 2), 100)
  e_nu <- abs(price(S_nu) - bs_price(100, K, r, s, T))
  e_u <- abs(price(S_u) - bs_price(100, K, r, s, T))
  expect_lt(e_nu, 0.01)
  expect_lt(e_nu, e_u)
})

test_that("Dirichlet boundaries: the put's discounted strike at S = 0, zero far out", {
  S <- seq(0, 400, length.out = 401)
  tt <- seq(0, T, length.out = 201)
  lv <- K * exp(-r * (T - tt)) # per time level
  u <- bsym_pde_solve(S, tt, a = bs_coef(S, 0.2), b = r * S, c = -r, final = pmax(K - S, 0),
                      lower = "dirichlet", lower_value = lv, upper = "dirichlet", upper_value = 0, rannacher = 2)
  expect_equal(u[1], lv[1], tolerance = 1e-12)
  expect_lt(abs(u[S == 100] - bs_price(100, K, r, 0.2, T)), 0.02)
})

test_that("time-dependent coefficients: a rate r(t) priced with its integral", {
  S <- seq(0, 400, length.out = 401)
  tt <- seq(0, T, length.out = 401)
  rt <- 0.02 + 0.06 * tt # r(t)
  m <- length(S); N <- length(tt)
  b <- outer(S, rt)      # m x N
  cc <- matrix(-rt, m, N, byrow = TRUE)
  u <- bsym_pde_solve(S, tt, a = bs_coef(S, 0.2), b = b, c = cc, final = pmax(K - S, 0), rannacher = 2)
  rbar <- (0.02 * T + 0.03 * T^2) / T # the average rate over [0, T]
  expect_lt(abs(u[S == 100] - bs_price(100, K, rbar, 0.2, T)), 0.02)
})

test_that("per-system coefficients give what each system alone gives", {
  S <- seq(0, 300, length.out = 151)
  tt <- seq(0, 0.5, length.out = 51)
  s <- c(0.15, 0.3, 0.45, 0.6)
  both <- bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = matrix(pmax(K - S, 0), 151, 4))
  for (k in seq_along(s)) {
    one <- bsym_pde_solve(S, tt, a = 0.5 * s[k]^2 * S^2, b = r * S, c = -r, final = pmax(K - S, 0))
    expect_equal(both[, k], as.vector(one), tolerance = 1e-13)
  }
})

test_that("the American put is above the European one and matches a binomial tree", {
  S <- seq(0, 400, length.out = 801)
  tt <- seq(0, T, length.out = 801)
  payoff <- pmax(K - S, 0)
  for (s in c(0.2, 0.4)) {
    am <- bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = payoff, obstacle = payoff,
                         rannacher = 2)
    eu <- bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = payoff, rannacher = 2)
    expect_true(all(am >= payoff - 1e-12))
    expect_gt(am[S == 100], eu[S == 100] + 0.05)
    expect_lt(abs(am[S == 100] - crr_put(100, K, r, s, T)), 0.02)
  }
})

test_that("single precision is close to double; the result comes back as doubles", {
  S <- seq(0, 400, length.out = 201)
  tt <- seq(0, T, length.out = 101)
  d <- bsym_pde_solve(S, tt, a = bs_coef(S, 0.2), b = r * S, c = -r, final = pmax(K - S, 0))
  s <- bsym_pde_solve(S, tt, a = bs_coef(S, 0.2), b = r * S, c = -r, final = pmax(K - S, 0), precision = "single")
  expect_type(s, "double")
  expect_lt(max(abs(s - d)), 1e-3)
})

test_that("a non-finite input spoils only its system, with one warning", {
  S <- seq(0, 300, length.out = 61)
  tt <- seq(0, 1, length.out = 21)
  f <- matrix(pmax(K - S, 0), 61, 3)
  f[5, 2] <- NA
  expect_warning(u <- bsym_pde_solve(S, tt, a = bs_coef(S, 0.2), b = r * S, c = -r, final = f), "1 of 3 systems")
  expect_identical(attr(u, "info"), c(0L, -1L, 0L))
  expect_true(all(is.na(u[, 2])))
  expect_false(anyNA(u[, c(1, 3)]))
})

test_that("bad input is an error naming the argument", {
  S <- seq(0, 300, length.out = 31)
  tt <- seq(0, 1, length.out = 11)
  f <- pmax(K - S, 0)
  call <- function(...) {
    args <- modifyList(list(x = S, t = tt, a = 0.02 * S^2, final = f), list(...))
    do.call(bsym_pde_solve, args)
  }
  bad <- function(pattern, ...) expect_error(call(...), pattern, class = "batchsym_bad_argument")
  bad("x.*increasing", x = rev(S))
  bad("t.*increasing", t = c(0, 0.5, 0.5, 1))
  bad("x", x = c(1, 2))                         # fewer than 3 nodes
  bad("t", t = 1)                               # fewer than 2 levels
  bad("theta", theta = 1.5)
  bad("theta", theta = "a")
  bad("rannacher", rannacher = -1)
  bad("rannacher", rannacher = 0.5)
  bad("^a must be", a = matrix(1, 5, 5))
  bad("^b must be", b = rep(1, 7))
  bad("final", final = f[-1])
  bad("obstacle", obstacle = matrix(0, 31, 2))
  bad("lower", lower = "neumann")
  bad("lower_value is only used", lower_value = 1)
  bad("upper_value", upper = "dirichlet", upper_value = rep(1, 7))
  bad("must be real", a = 1i)
  bad("numeric", final = "a")
})

test_that("the CPU and the GPU agree: American puts, per-system volatility, Rannacher, double and single", {
  skip_if_not(bsym_gpu_available(), "no usable GPU")
  S <- seq(0, 400, length.out = 513)
  tt <- seq(0, T, length.out = 101)
  s <- seq(0.1, 0.5, length.out = 50)
  P <- matrix(pmax(K - S, 0), length(S), length(s))
  for (precision in c("double", "single")) {
    run <- function(device)
      bsym_pde_solve(S, tt, a = bs_coef(S, s), b = r * S, c = -r, final = P, obstacle = P, rannacher = 2,
                     device = device, precision = precision)
    uc <- run("cpu")
    ug <- run("gpu")
    expect_identical(attr(ug, "device"), "gpu")
    expect_identical(attr(ug, "info"), integer(length(s)))
    eps <- if (precision == "single") 2^-23 else .Machine$double.eps
    expect_lt(max(abs(uc - ug)), length(tt) * length(S) * eps * max(abs(uc)))
  }
})
