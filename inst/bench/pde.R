# pde.R -- issue 15 end to end from R: bsym_pde_solve() on m = 512 nodes and
# N = 200 time levels (Black-Scholes puts, Crank-Nicolson with 2 Rannacher
# steps, a non-uniform grid), European and American, double and single,
# coefficients shared by all options or given per option, beside what a user
# would write in R: a base-R Thomas loop over options and steps, and one
# bsym_tridiag_solve() call per time step for all options (both fully
# implicit, the cheapest scheme, so they are timed at their best). When
# bsym_gpu_available() is TRUE (and --gpu is not "no"), rows on device "gpu"
# besides: --gpu-options American puts (volatilities per option, 1e4 and 1e5
# by default), double and single, end to end from R (host arrays in, host
# array out: the transfers are timed); target 1e4 in <= 0.1 s. Without a
# GPU those rows are left out (one line says so).
#
#   Rscript inst/bench/pde.R [--options 1e4] [--base 5] [--steps-options 1000]
#                            [--device cpu] [--reps 3] [--gpu auto|no]
#                            [--gpu-options 1e4,1e5] [--quick]
#
# Every figure: the median elapsed time of --reps calls after a warm-up call,
# options/s = options / time. Checked before printing: the European price at
# S = K against Black-Scholes within 2e-3 (double) or 5e-3 (single), and the
# American one above the European; the GPU rows: served by the GPU (the
# result's device attribute), every value finite, the American price at S = K
# above the European Black-Scholes price, and max |gpu - cpu| / max |cpu| on
# 64 options spread over the batch (solved again on the CPU) within 1e-10
# (double) or 1e-3 (single); a failure prints FAIL, exit status 1.

suppressPackageStartupMessages(library(batchsym))
ref <- system.file("examples", "pde-reference.R", package = "batchsym")
if (!nzchar(ref)) ref <- "inst/examples/pde-reference.R" # run from the sources
source(ref)

args <- commandArgs(trailingOnly = TRUE)
opt <- list(options = 1e4, base = 5, `steps-options` = 1000, device = "cpu", reps = 3L, gpu = "auto",
            `gpu-options` = c(1e4, 1e5))
if ("--quick" %in% args)
  opt <- modifyList(opt, list(options = 1000, base = 2, `steps-options` = 200, `gpu-options` = 1e4))
args <- args[args != "--quick"]
for (i in which(seq_along(args) %% 2 == 1)) {
  key <- sub("^--", "", args[i])
  if (!key %in% names(opt) || i == length(args)) stop("usage: see the header of inst/bench/pde.R", call. = FALSE)
  opt[[key]] <- if (key %in% c("device", "gpu")) args[i + 1L] else as.numeric(strsplit(args[i + 1L], ",")[[1]])
}
if (!opt$gpu %in% c("auto", "no")) stop("--gpu must be auto or no", call. = FALSE)

m <- 512L; N <- 200L; K <- 100; r <- 0.03; T <- 1
lambda <- 20 # nodes packed near K, S = K on a node
xi_lo <- asinh(-K / lambda)
below <- round(-xi_lo / (asinh((400 - K) / lambda) - xi_lo) * (m - 1))
S <- K + lambda * sinh(xi_lo * (1 - seq(0, m - 1) / below))
S[1] <- 0
at_k <- which.min(abs(S - K))
tt <- seq(0, T, length.out = N)
n_opt <- opt$options
sig <- seq(0.15, 0.45, length.out = n_opt)            # one volatility per option
payoff <- matrix(pmax(K - S, 0), m, n_opt)

median_time <- function(f) {
  f()
  t <- numeric(opt$reps)
  for (k in seq_len(opt$reps)) {
    invisible(gc())
    t[k] <- system.time(f())[["elapsed"]]
  }
  median(t)
}

rows <- list()
failed <- FALSE
add <- function(way, precision, coef, style, options, seconds, check, device = opt$device) {
  rows[[length(rows) + 1L]] <<- data.frame(way = way, device = device, precision = precision,
                                           coefficients = coef, style = style, options = options,
                                           seconds = seconds, rate = options / seconds,
                                           check = check, stringsAsFactors = FALSE)
  if (startsWith(check, "FAIL")) failed <<- TRUE
}

a_shared <- 0.5 * 0.25^2 * S^2
a_per <- array(outer(S^2, 0.5 * sig^2), c(m, 1L, n_opt))
for (precision in c("double", "single")) for (coef in c("shared", "per option")) for (american in c(FALSE, TRUE)) {
  a <- if (coef == "shared") a_shared else a_per
  f <- function() bsym_pde_solve(S, tt, a = a, b = r * S, c = -r, final = payoff,
                                 obstacle = if (american) payoff, rannacher = 2, device = opt$device,
                                 precision = precision)
  u <- f()
  s_chk <- if (coef == "shared") rep(0.25, n_opt) else sig
  tol <- if (precision == "double") 2e-3 else 5e-3
  idx <- unique(round(seq(1, n_opt, length.out = 20)))
  err <- max(abs(u[at_k, idx] - bs_put(K, K, r, s_chk[idx], T)))
  check <- if (!american) {
    if (err <= tol) sprintf("ok (%.1e vs Black-Scholes)", err) else sprintf("FAIL: %.1e vs Black-Scholes", err)
  } else {
    eu <- bs_put(K, K, r, s_chk[idx], T)
    if (all(u[at_k, idx] > eu)) "ok (above European)" else "FAIL: not above the European price"
  }
  add("bsym_pde_solve", precision, coef, if (american) "American" else "European", n_opt, median_time(f), check)
}

# what a user would write in R (fully implicit, shared coefficients)
L <- pde_bands(S, a_shared, r * S, -r)
n_steps <- min(opt$`steps-options`, n_opt)
add("bsym_tridiag_solve per step", "double", "shared", "European", n_steps,
    median_time(function() implicit_steps(L, tt, payoff[, seq_len(n_steps)], "tridiag")), "-")
n_base <- min(opt$base, n_opt)
add("base-R Thomas loop", "double", "shared", "European", n_base,
    median_time(function() implicit_steps(L, tt, payoff[, seq_len(n_base), drop = FALSE], "base")), "-",
    device = "cpu")

# The GPU rows: American puts with a volatility per option, end to end from R.
gpu_note <- NULL
gpu_targets <- character()
if (opt$gpu == "no") {
  gpu_note <- "GPU rows left out (--gpu no)"
} else if (!bsym_gpu_available()) {
  gpu_note <- "GPU rows left out: bsym_gpu_available() is FALSE on this machine"
} else {
  for (precision in c("double", "single")) for (n_gpu in opt$`gpu-options`) {
    n_gpu <- as.integer(n_gpu)
    sig_g <- seq(0.15, 0.45, length.out = n_gpu)
    a_g <- array(outer(S^2, 0.5 * sig_g^2), c(m, 1L, n_gpu))
    pay_g <- matrix(pmax(K - S, 0), m, n_gpu)
    f <- function() bsym_pde_solve(S, tt, a = a_g, b = r * S, c = -r, final = pay_g, obstacle = pay_g,
                                   rannacher = 2, device = "gpu", precision = precision)
    u <- f()
    idx <- unique(round(seq(1, n_gpu, length.out = 64)))
    cpu <- bsym_pde_solve(S, tt, a = a_g[, , idx, drop = FALSE], b = r * S, c = -r, final = pay_g[, idx],
                          obstacle = pay_g[, idx], rannacher = 2, device = "cpu", precision = precision)
    diff <- max(abs(u[, idx] - cpu)) / max(abs(cpu))
    tol <- if (precision == "double") 1e-10 else 1e-3
    why <- c(if (!identical(attr(u, "device"), "gpu")) sprintf("served by %s", format(attr(u, "device"))),
             if (!all(is.finite(u))) "non-finite values",
             if (!all(u[at_k, idx] > bs_put(K, K, r, sig_g[idx], T))) "not above the European price",
             if (!(diff <= tol)) sprintf("%.1e vs CPU", diff))
    check <- if (is.null(why)) sprintf("ok (%.1e vs CPU)", diff) else paste("FAIL:", paste(why, collapse = "; "))
    secs <- median_time(f)
    add("bsym_pde_solve", precision, "per option", "American", n_gpu, secs, check, device = "gpu")
    if (n_gpu == 1e4)
      gpu_targets <- c(gpu_targets, sprintf("GPU, %s: 1e4 American puts end to end in %.3f s (target <= 0.1 s: %s)",
                                            precision, secs, if (secs <= 0.1) "met" else "NOT met"))
    rm(u, a_g, pay_g)
    invisible(gc())
  }
}

tab <- do.call(rbind, rows)
base_rate <- tab$rate[tab$way == "base-R Thomas loop"]
gpu_name <- if (is.null(gpu_note)) paste0(", GPU ", bsym_device_info()$name) else ""
cat(sprintf("pde.R: m = %d, N = %d, device %s, %d threads, batchsym %s%s, %s\n\n", m, N, opt$device,
            batchsym:::cpu_info()$threads, as.character(packageVersion("batchsym")), gpu_name,
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")))
cat("| way | device | precision | coefficients | style | options | median s | options/s | x base-R loop | check |\n",
    "|---|---|---|---|---|---|---|---|---|---|\n", sep = "")
cat(sprintf("| %s | %s | %s | %s | %s | %s | %.3f | %.3g | %.0f | %s |\n", tab$way, tab$device, tab$precision,
            tab$coefficients, tab$style, format(tab$options, scientific = FALSE), tab$seconds, tab$rate,
            tab$rate / base_rate, tab$check), sep = "")
if (!is.null(gpu_note)) cat("\n", gpu_note, "\n", sep = "")
if (length(gpu_targets)) cat("\n", paste0("- ", gpu_targets, collapse = "\n"), "\n", sep = "")
if (failed) {
  cat("\n*** FAIL: a result failed its check ***\n")
  quit(status = 1)
}
