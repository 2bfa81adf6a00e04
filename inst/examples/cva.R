## CVA of an American (Bermudan) basket put by nested Monte Carlo, with the
## Longstaff-Schwartz regressions of all outer paths batched in bsym_lsfit().
##
## The setting of Abbas-Turki & Graillat (2017), Sect. 2: Black-Scholes with
## d = 29 independent assets, sigma = 0.1, mu = r = 0.1, S0 = 1, time grid
## t_k = k dt (dt = 0.1, k = 0 .. N), M0 outer paths, M inner paths per outer
## state, regression basis psi(S) = (1, S^1, ..., S^29) (p = 30).
##
## Shared by vignettes/cva-regression.Rmd and demo/cva-short.R:
##   library(batchsym)
##   source(system.file("examples", "cva.R", package = "batchsym"))
##   par <- cva_params(M0 = 100L)
##   res <- cva_run(par, cva_variants(par))
##   cva_print(res)
##
## Everything here is base R plus bsym_lsfit() and bsym_plan().

## Parameters; any of them can be changed through `...`.
cva_params <- function(...) {
  par <- list(
    d = 29L,           # assets
    sigma = 0.1,       # volatility of every asset
    r = 0.1,           # interest rate = drift mu (risk-neutral outer paths)
    S0 = 1,            # spot of every asset
    dt = 0.1,          # t_k = k dt
    N = 10L,           # T = N dt: maturity of the put and CVA horizon
    M0 = 1000L,        # outer paths
    M = 300L,          # inner paths per outer state (M_k in the paper)
    K = 1.05,          # strike of the put on the arithmetic mean of the assets
    lambda = 0.03,     # constant default intensity of the counterparty
    recovery = 0.4,    # R
    rcond = 1e-5,      # the paper's cap: condition number 1e5 of A_hat
    seed = 1L,
    kappa = TRUE,      # condition numbers of every A_hat (base R eigen, double)
    keep = c(1L, 2L),  # (outer step k, inner date j): return that batch's X, Y
    verbose = FALSE)
  extra <- list(...)
  unknown <- setdiff(names(extra), names(par))
  if (length(unknown)) stop("unknown parameter(s): ", paste(unknown, collapse = ", "))
  modifyList(par, extra)
}

## The put's payoff on the arithmetic mean of the assets.
cva_payoff <- function(basket, K) pmax(K - basket, 0)

## The regression variants compared. Each is a function(X, Y) of the batch
## X (M x p x L) and Y (M x L) returning list(coefficients = p x L, rank,
## method, info). The "double QR" reference is base R (.lm.fit: Householder
## QR of X in double, one regression at a time); the others are one
## bsym_lsfit() call each. The automatic variants keep a plan across calls.
cva_variants <- function(par, which = c("single ldlt", "single auto", "double auto",
                                        "double QR")) {
  dev <- getOption("batchsym.device", "auto")
  plan_s <- bsym_plan()
  plan_d <- bsym_plan()
  all <- list(
    "single ldlt" = function(X, Y)
      bsym_lsfit(X, Y, method = "ldlt", device = dev, precision = "single"),
    "single auto" = function(X, Y)
      bsym_lsfit(X, Y, method = "auto", rcond = par$rcond, plan = plan_s,
                 device = dev, precision = "single"),
    "double ldlt" = function(X, Y)
      bsym_lsfit(X, Y, method = "ldlt", device = dev, precision = "double"),
    "double auto" = function(X, Y)
      bsym_lsfit(X, Y, method = "auto", rcond = par$rcond, plan = plan_d,
                 device = dev, precision = "double"),
    "double QR" = function(X, Y) cva_qr_fit(X, Y))
  all[which]
}

## Base-R reference: one Householder QR least-squares fit per system.
cva_qr_fit <- function(X, Y) {
  p <- dim(X)[2L]; L <- dim(X)[3L]
  beta <- matrix(NA_real_, p, L)
  rank <- integer(L)
  for (l in seq_len(L)) {
    f <- .lm.fit(X[, , l], Y[, l])
    beta[f$pivot, l] <- f$coefficients
    rank[l] <- f$rank
  }
  list(coefficients = beta, rank = rank, method = rep("qr", L), info = integer(L),
       device = "cpu (base R)")
}

## Outer paths: array d x M0 x (N + 1), exact log-normal steps.
cva_outer <- function(par) {
  d <- par$d; L <- par$M0; N <- par$N; dt <- par$dt
  S <- array(0, c(d, L, N + 1L))
  S[, , 1L] <- par$S0
  for (k in seq_len(N)) {
    S[, , k + 1L] <- S[, , k] * exp((par$r - par$sigma^2 / 2) * dt +
                                     par$sigma * sqrt(dt) * rnorm(d * L))
  }
  S
}

## Condition numbers (2-norm) of A_hat = X^T X / M for every system of a batch,
## from base R's symmetric eigensolver in double.
cva_kappa <- function(X) {
  L <- dim(X)[3L]; M <- dim(X)[1L]
  vapply(seq_len(L), function(l) {
    ev <- eigen(crossprod(X[, , l]) / M, symmetric = TRUE, only.values = TRUE)$values
    ev[1L] / ev[length(ev)]
  }, numeric(1))
}

## The same batch in the centred basis (1, S - mean of S over the inner paths),
## which spans the same functions as psi(S) on each system.
cva_center <- function(X) {
  M <- dim(X)[1L]
  Xc <- X - rep(colMeans(X), each = M)
  Xc[, 1L, ] <- 1
  Xc
}

## One outer time step k (1 <= k <= N - 1): inner paths from every outer state
## S_{t_k}^l, Longstaff-Schwartz on them for every variant, the inner estimate
## of the continuation value at t_k. The inner paths are drawn backwards by a
## Brownian bridge (W at t_N first, then t_{N-1}, ...), so that only one inner
## date is held in memory at a time: M x d x M0 doubles (70 MB at full size).
## Every (inner date, variant) is ONE batched fit of the M0 regressions.
cva_step <- function(par, k, Sk, fits, stats) {
  d <- par$d; M <- par$M; L <- ncol(Sk); N <- par$N; dt <- par$dt
  r <- par$r; sig <- par$sigma
  p <- d + 1L
  nv <- length(fits); vn <- names(fits)
  ref <- if ("double QR" %in% vn) "double QR" else vn[[nv]]
  nj <- N - k                                   # inner dates t_{k+1} .. t_N
  tau <- seq_len(nj) * dt                       # time since t_k
  base <- rep(log(Sk), each = M)                # [i, a, l] layout, M x d x L
  disc <- exp(-r * dt)

  ## the states at one inner date, as the regression batch X = psi(S)
  states <- function(W, t) {
    X <- array(1, c(M, p, L))
    X[, -1L, ] <- exp(base + (r - sig^2 / 2) * t + sig * W)
    X
  }
  basket_of <- function(X) {
    b <- X[, 2L, ]
    for (a in 3L:p) b <- b + X[, a, ]
    b / d
  }

  W <- sqrt(tau[nj]) * rnorm(M * d * L)          # W_{t_N - t_k}
  X <- states(W, tau[nj])
  h <- cva_payoff(basket_of(X), par$K)
  V <- rep(list(h), nv); names(V) <- vn           # cash flows at the current date
  kept <- NULL
  if (nj >= 2L) for (jj in (nj - 1L):1L) {
    ## Brownian bridge: W at tau[jj] given W at tau[jj + 1] (and W = 0 at t_k)
    W <- (tau[jj] / tau[jj + 1L]) * W +
      sqrt(tau[jj] * (tau[jj + 1L] - tau[jj]) / tau[jj + 1L]) * rnorm(M * d * L)
    X <- states(W, tau[jj])
    h <- cva_payoff(basket_of(X), par$K)
    itm <- h > 0
    j <- k + jj                                    # the inner date is t_j
    beta <- vector("list", nv); names(beta) <- vn
    Ys <- beta
    for (v in vn) {
      Y <- V[[v]] * disc                           # discounted to t_j
      tm <- system.time(fit <- fits[[v]](X, Y))[["elapsed"]]
      st <- stats[[v]]
      st$time <- st$time + tm
      st$calls <- st$calls + 1L
      st$regressions <- st$regressions + L
      st$eigen <- st$eigen + sum(fit$method == "eigen")
      st$rank_def <- st$rank_def + sum(fit$rank < p, na.rm = TRUE)
      bad <- fit$info != 0L | is.na(colSums(fit$coefficients))
      st$failed <- st$failed + sum(bad)
      st$device <- fit$device
      st$methods <- st$methods + table(factor(fit$method, c("ldlt", "tridiag", "eigen", "qr")))
      stats[[v]] <- st
      beta[[v]] <- fit$coefficients
      Ys[[v]] <- Y
      V[[v]] <- Y
      if (length(par$keep) == 2L && all(par$keep == c(k, j)) && v == ref) kept <- list(X = X, Y = Y, k = k, j = j)
    }
    ## continuation values X %*% beta for all variants, one system at a time
    Bl <- array(unlist(beta, use.names = FALSE), c(p, L, nv))
    C <- array(NA_real_, c(M, L, nv))
    for (l in seq_len(L)) C[, l, ] <- X[, , l] %*% Bl[, l, ]
    ## solver error alone: where a variant regressed the same Y as the
    ## reference (no earlier decision of its differed), the relative 2-norm
    ## distance of its continuation values from the reference's
    iref <- match(ref, vn)
    Cref <- matrix(C[, , iref], M, L)
    nref <- sqrt(colSums(Cref^2))
    for (iv in seq_len(nv)[-iref]) {
      same <- colSums(Ys[[iv]] != Ys[[iref]]) == 0 & nref > 0
      if (any(same)) {
        D <- matrix(C[, , iv], M, L)[, same, drop = FALSE] - Cref[, same, drop = FALSE]
        err <- sqrt(colSums(D^2)) / nref[same]
        stats[[vn[iv]]]$fit_err <- c(stats[[vn[iv]]]$fit_err, err)
        stats[[vn[iv]]]$fit_err_tau <- c(stats[[vn[iv]]]$fit_err_tau, rep(tau[jj], sum(same)))
      }
    }
    ex <- vector("list", nv); names(ex) <- vn
    for (iv in seq_len(nv)) {
      e <- itm & h >= matrix(C[, , iv], M, L)      # exercise: in the money and
      e[is.na(e)] <- FALSE                         # payoff >= continuation
      ex[[iv]] <- e
      V[[iv]][e] <- h[e]
    }
    for (v in vn) {
      st <- stats[[v]]
      st$decisions <- st$decisions + length(h)
      st$itm <- st$itm + sum(itm)
      st$exercised <- st$exercised + sum(ex[[v]])
      st$differ <- st$differ + sum(ex[[v]] != ex[[ref]])
      stats[[v]] <- st
    }
    if (isTRUE(par$kappa)) {
      stats$kappa[[length(stats$kappa) + 1L]] <-
        list(k = k, j = j, tau = tau[jj], kappa = cva_kappa(X))
    }
  }
  cont <- vapply(V, function(v) colMeans(v) * disc, numeric(L))   # L x nv
  list(cont = matrix(cont, L, nv, dimnames = list(NULL, vn)), stats = stats, kept = kept)
}

## The whole nested Monte Carlo: outer paths, inner Longstaff-Schwartz at every
## outer date t_1 .. t_{N-1}, the exposure of every variant, its CVA.
## Two exposures at t_k on outer path l, and a CVA for each:
##   value: the price of the put, max(payoff, continuation) (at t_N the
##          payoff), what the counterparty owes while the put is held;
##   held:  the same, but 0 after the holder has exercised on the outer path
##          (at the first t_k where the put is in the money and the payoff is
##          at least the inner estimate of the continuation value).
cva_run <- function(par = cva_params(), fits = cva_variants(par)) {
  set.seed(par$seed)
  t0 <- proc.time()[["elapsed"]]
  N <- par$N; L <- par$M0; vn <- names(fits); nv <- length(fits)
  outer <- cva_outer(par)
  zero <- list(time = 0, calls = 0L, regressions = 0, eigen = 0, rank_def = 0, failed = 0,
               decisions = 0, itm = 0, exercised = 0, differ = 0, device = NA_character_,
               fit_err = numeric(0), fit_err_tau = numeric(0),
               methods = table(factor(character(0), c("ldlt", "tridiag", "eigen", "qr"))))
  stats <- rep(list(zero), nv); names(stats) <- vn
  stats$kappa <- list()
  ## exposures at t_1 .. t_N: the value of the put (not exercised yet), and the
  ## exposure of a holder who exercises on the outer path
  value <- held <- array(0, c(N, L, nv), dimnames = list(NULL, NULL, vn))
  exercise <- array(FALSE, c(N, L, nv), dimnames = list(NULL, NULL, vn))
  alive <- matrix(TRUE, L, nv, dimnames = list(NULL, vn))
  kept <- NULL
  for (k in seq_len(N)) {
    Sk <- outer[, , k + 1L, drop = FALSE]
    dim(Sk) <- dim(outer)[1:2]
    h <- cva_payoff(colMeans(Sk), par$K)
    if (k < N) {
      st <- cva_step(par, k, Sk, fits, stats)
      stats <- st$stats
      if (!is.null(st$kept)) kept <- st$kept
      cont <- st$cont
      v <- pmax(h, cont)
      ex <- h > 0 & h >= cont
    } else {
      v <- matrix(h, L, nv)
      ex <- matrix(h > 0, L, nv)
    }
    value[k, , ] <- v
    held[k, , ] <- alive * v
    exercise[k, , ] <- ex
    alive <- alive & !ex
    if (isTRUE(par$verbose))
      message(sprintf("outer step %d/%d done (%.0f s)", k, N, proc.time()[["elapsed"]] - t0))
  }
  tk <- seq_len(N) * par$dt
  weight <- (1 - par$recovery) * exp(-par$r * tk) *
    (exp(-par$lambda * (tk - par$dt)) - exp(-par$lambda * tk))
  cva_of <- function(P) {
    EE <- apply(pmax(P, 0), c(1L, 3L), mean)                      # N x nv: E[P_{t_k}^+]
    dimnames(EE) <- list(format(tk), vn)
    per_path <- apply(pmax(P, 0), c(2L, 3L), function(x) sum(x * weight))   # L x nv
    ref <- per_path[, nv]
    list(EE = EE, cva = colSums(EE * weight),
         se = apply(per_path, 2L, sd) / sqrt(L),                  # Monte Carlo standard error
         diff_se = apply(per_path - ref, 2L, sd) / sqrt(L))       # ... of the difference
  }
  first_ex <- apply(exercise, c(2L, 3L), function(e) if (any(e)) which(e)[1L] else NA_integer_)
  list(par = par, variants = vn, t = tk,
       value = cva_of(value), held = cva_of(held),
       exercise_share = apply(exercise, c(1L, 3L), mean),          # N x nv: in the exercise region
       exercised = colMeans(!is.na(first_ex)),                     # holder exercised by T
       exercised_early = colMeans(!is.na(first_ex) & first_ex < N),
       first_ex = first_ex, stats = stats[vn], kappa = stats$kappa, kept = kept,
       elapsed = proc.time()[["elapsed"]] - t0)
}

## One line per variant: regressions, ill-conditioned ones, decisions, CVA.
cva_table <- function(res) {
  ref <- res$variants[length(res$variants)]
  data.frame(
    variant = res$variants,
    regressions = vapply(res$stats, `[[`, 0, "regressions"),
    eigen = vapply(res$stats, `[[`, 0, "eigen"),
    rank_lt_p = vapply(res$stats, `[[`, 0, "rank_def"),
    failed = vapply(res$stats, `[[`, 0, "failed"),
    inner_ex_pct = 100 * vapply(res$stats, function(s) s$exercised / s$decisions, 0),
    differ_pct = 100 * vapply(res$stats, function(s) s$differ / s$decisions, 0),
    differ_itm_pct = 100 * vapply(res$stats, function(s) s$differ / max(s$itm, 1), 0),
    outer_ex_pct = 100 * unname(res$exercised),
    CVA = unname(res$value$cva),
    se = unname(res$value$se),
    CVA_held = unname(res$held$cva),
    fit_s = vapply(res$stats, `[[`, 0, "time"),
    row.names = NULL, check.names = FALSE)
}

cva_print <- function(res) {
  par <- res$par
  cat(sprintf(paste0("CVA of a Bermudan put on the mean of %d assets (K = %g, T = %g, ",
                     "%d dates), %d outer x %d inner paths, lambda = %g, R = %g\n"),
              par$d, par$K, par$N * par$dt, par$N, par$M0, par$M, par$lambda, par$recovery))
  dev <- vapply(res$stats, function(s) as.character(s$device)[1L], "")
  cat(sprintf("bsym_lsfit device: %s; threads option: %s; %d regressions per variant ",
              paste(unique(dev[!grepl("base R", dev)]), collapse = ", "),
              format(getOption("batchsym.threads", "default")),
              as.integer(res$stats[[1L]]$regressions)))
  cat(sprintf("(%d batched calls of %d)\n", res$stats[[1L]]$calls, par$M0))
  if (length(res$kappa)) {
    kap <- unlist(lapply(res$kappa, `[[`, "kappa"))
    cat(sprintf("condition numbers of A_hat (double): median %.3g, max %.3g; > 1e5: %d of %d\n",
                median(kap), max(kap), sum(kap > 1 / par$rcond), length(kap)))
  }
  tab <- cva_table(res)
  fmt <- tab
  fmt$inner_ex_pct <- sprintf("%.2f", tab$inner_ex_pct)
  fmt$differ_pct <- sprintf("%.3f", tab$differ_pct)
  fmt$differ_itm_pct <- sprintf("%.3f", tab$differ_itm_pct)
  fmt$outer_ex_pct <- sprintf("%.1f", tab$outer_ex_pct)
  fmt$CVA <- sprintf("%.4e", tab$CVA)
  fmt$se <- sprintf("%.1e", tab$se)
  fmt$CVA_held <- sprintf("%.4e", tab$CVA_held)
  fmt$fit_s <- sprintf("%.2f", tab$fit_s)
  print(fmt, row.names = FALSE)
  cat(sprintf("(eigen: systems solved by the truncated spectrum; rank_lt_p: rank < %d; differ: inner\n",
              par$d + 1L))
  cat(sprintf(" exercise decisions unlike the %s reference, of all / of in-the-money ones;\n",
              res$variants[length(res$variants)]))
  cat(" CVA: exposure = the price of the put; CVA_held: 0 after the holder exercises on the\n")
  cat(" outer path; outer_ex: outer paths the holder exercised by T; fit_s: seconds in the fits)\n")
  cat(sprintf("total %.1f s\n", res$elapsed))
  invisible(tab)
}
