# bench_r.R -- end-to-end benchmark of bsym_solve() from R: host arrays in,
# host arrays out, everything a user waits for (checks, copies, transfers).
#
#   Rscript inst/bench/bench_r.R [--n=32] [--systems=1e6] [--cpu-systems=1e5]
#                                [--base-systems=2000] [--reps=3]
#                                [--precision=double] [--quick] [--out=FILE.md]
#                                [--tridiag=1] [--tri-n=32,1024]
#                                [--tri-elements=3.2e7] [--tri-cpu-elements=3.2e6]
#                                [--tri-base-systems=2000]
#                                [--eigen=1] [--eig-n=32] [--eig-systems=2e5]
#                                [--eig-cpu-systems=2e4] [--eig-base-systems=1000]
#                                [--lsfit=1] [--ls-m=300] [--ls-p=30] [--ls-systems=2e4]
#                                [--ls-cpu-systems=5000] [--ls-base-systems=500]
#                                [--auto=1] [--auto-systems=2e5] [--auto-cpu-systems=2e4]
#
# Rows of the table:
#   bsym_solve, gpu   `--systems` systems on the GPU (the CPU when no GPU is
#                     usable; the row says which device served the call);
#   bsym_solve, cpu   `--cpu-systems` systems with device = "cpu" (OpenMP,
#                     threads from option batchsym.threads, 0 = all);
#   base R solve()    a loop of solve(A[, , k], B[, k]) over `--base-systems`
#                     systems, the yardstick of the speed-up column.
# Every figure is the median elapsed time of `--reps` runs (system.time(),
# which runs gc() first); one small untimed call on each device comes first
# so that starting CUDA is not counted. Before any figure is printed, the
# solutions are checked: no NA, and the backward error
# ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) on a sample of systems
# at most 100 n eps; a failure prints FAIL and the exit status is 1.
# --quick shrinks the sizes (2e4 / 1e4 / 200 systems) for a smoke test.
#
# A second table (issue 3; --tridiag=0 leaves it out), same timing and checks:
#   bsym_tridiag_solve   symmetric (upper = NULL) diagonally dominant
#                        tridiagonal systems, for each n of `--tri-n`, in
#                        double and single, on the GPU (when usable):
#                        floor(`--tri-elements` / n) systems (1e6 at n = 32,
#                        31250 at n = 1024), and the CPU:
#                        floor(`--tri-cpu-elements` / n) (1e5 at n = 32);
#   base R loop          solve() of the dense n x n tridiagonal matrix (built
#                        from the bands inside the loop, as a base-R user must)
#                        over `--tri-base-systems` systems at n = 32, scaled by
#                        (32 / n)^3 for larger n (at least 2): the yardstick of
#                        the speed-up column for its n;
#   bsym_solve(method = "tridiag")  n = 32 SPD systems (the inputs of the first
#                        table when --n=32), double and single, GPU (`--systems`)
#                        and CPU (`--cpu-systems`), beside the base-R loop of
#                        solve() at n = 32.
# --quick shrinks these too (6.4e5 / 3.2e5 elements, 200 base systems).
#
# A third table (issue 4; --eigen=0 leaves it out): bsym_eigen() with vectors
# and values only, double and single, on the GPU (`--eig-systems` random
# symmetric matrices, when usable) and the CPU (`--eig-cpu-systems`), for each
# n of `--eig-n`, beside base-R loops of eigen(symmetric = TRUE) (with and
# without only.values) over `--eig-base-systems` matrices. Checked on a
# sample: ||A V - V diag(w)||_F / ||A||_F (vectors) or max |w - eigen()| /
# ||A||_2 (values) at most 100 n eps. --quick: 2e4 / 4e3 / 200.
#
# A fourth table (issue 5; --lsfit=0 leaves it out): bsym_lsfit() on
# `--ls-systems` (GPU, when usable) and `--ls-cpu-systems` (CPU) least-squares
# problems of `--ls-m` rows and `--ls-p` columns (an intercept and uniform
# columns, one response), method "auto" in double and single and method
# "ldlt" in single, beside a base-R loop of lm.fit() over `--ls-base-systems`
# problems. Checked on a sample against lm.fit(): the relative coefficient
# error at most 10 p eps cond(X)^2 (normal equations square the condition).
# --quick: 2000 / 1000 / 100.
#
# A fifth table (issue 5; --auto=0 leaves it out): bsym_solve(method =
# "auto") at n = `--n` on `--auto-systems` (GPU, when usable) and
# `--auto-cpu-systems` (CPU) SPD systems of which 0 %, 1 %, 10 % or 100 % are
# made ill-conditioned (one eigenvalue 1e-9: A <- P A P + 1e-9 u u', u =
# ones / sqrt(n), P = I - u u'), double and single, beside method "tridiag"
# and "ldlt" (no checks) on the same batches and the base-R loop of solve().
# Checked: every ill system solved by "eigen" at rank n - 1, every other one
# by "tridiag" at rank n, and the backward error of the well-conditioned
# ones on a sample at most 100 n eps. --quick: 2e4 / 4e3.
#
# A sixth table (issue 12; --ratios=0 leaves it out): the CPU against base-R
# loops, each ratio of one run on `--ratio-systems` (2e4) SPD systems of
# order n = 32 in double (the first table's kind), with the machine's thread
# count and the vector instructions the kernels chose: the default
# bsym_solve(A, B), method "ldlt", the default with 10 % ill-conditioned
# systems (against solve()), bsym_eigen(A) with vectors and values only
# (against eigen(symmetric = TRUE) with and without only.values), and
# precision "single" against "double" with method "ldlt". The loops run over
# `--ratio-base` (1000) systems. --quick: 4000 / 200.

suppressPackageStartupMessages(library(batchsym))

# ---- options -------------------------------------------------------------

parse_args <- function(args) {
  opt <- list(n = 32, systems = 1e6, cpu_systems = 1e5, base_systems = 2000,
              reps = 3, precision = "double", out = "",
              tridiag = 1, tri_n = c(32, 1024), tri_elements = 3.2e7, tri_cpu_elements = 3.2e6,
              tri_base_systems = 2000, eigen = 1, eig_n = 32, eig_systems = 2e5,
              eig_cpu_systems = 2e4, eig_base_systems = 1000,
              lsfit = 1, ls_m = 300, ls_p = 30, ls_systems = 2e4, ls_cpu_systems = 5000,
              ls_base_systems = 500, auto = 1, auto_systems = 2e5, auto_cpu_systems = 2e4,
              ratios = 1, ratio_systems = 2e4, ratio_base = 1000)
  for (a in args) {
    if (a == "--quick") {
      opt$systems <- 2e4; opt$cpu_systems <- 1e4; opt$base_systems <- 200
      opt$tri_elements <- 6.4e5; opt$tri_cpu_elements <- 3.2e5; opt$tri_base_systems <- 200
      opt$eig_systems <- 2e4; opt$eig_cpu_systems <- 4e3; opt$eig_base_systems <- 200
      opt$ls_systems <- 2000; opt$ls_cpu_systems <- 1000; opt$ls_base_systems <- 100
      opt$auto_systems <- 2e4; opt$auto_cpu_systems <- 4e3
      opt$ratio_systems <- 4000; opt$ratio_base <- 200
      next
    }
    kv <- regmatches(a, regexec("^--([a-z-]+)=(.*)$", a))[[1]]
    if (length(kv) != 3L) stop("unknown argument: ", a, call. = FALSE)
    key <- gsub("-", "_", kv[2]); value <- kv[3]
    if (key %in% c("precision", "out")) {
      opt[[key]] <- value
    } else if (key %in% c("tridiag", "eigen", "lsfit", "auto", "ratios")) {
      if (!value %in% c("0", "1")) stop("--", kv[2], " must be 0 or 1", call. = FALSE)
      opt[[key]] <- as.numeric(value)
    } else if (key %in% c("tri_n", "eig_n")) {
      v <- suppressWarnings(as.numeric(strsplit(value, ",", fixed = TRUE)[[1]]))
      if (!length(v) || anyNA(v) || any(v < 2) || any(v != floor(v)))
        stop("--", kv[2], " must be a comma-separated list of whole numbers >= 2 (got ", value, ")",
             call. = FALSE)
      opt[[key]] <- v
    } else if (key %in% c("n", "systems", "cpu_systems", "base_systems", "reps",
                          "tri_elements", "tri_cpu_elements", "tri_base_systems",
                          "eig_systems", "eig_cpu_systems", "eig_base_systems",
                          "ls_m", "ls_p", "ls_systems", "ls_cpu_systems", "ls_base_systems",
                          "auto_systems", "auto_cpu_systems", "ratio_systems", "ratio_base")) {
      v <- suppressWarnings(as.numeric(value))
      if (is.na(v) || v < 1 || v != floor(v))
        stop("--", kv[2], " must be a positive whole number (got ", value, ")", call. = FALSE)
      opt[[key]] <- v
    } else {
      stop("unknown option --", kv[2], call. = FALSE)
    }
  }
  if (!opt$precision %in% c("double", "single"))
    stop("--precision must be double or single", call. = FALSE)
  opt$cpu_systems <- min(opt$cpu_systems, opt$systems)
  opt$base_systems <- min(opt$base_systems, opt$cpu_systems)
  opt
}

# ---- inputs ----------------------------------------------------------------

# count SPD n x n systems without a loop over systems: a base SPD matrix S
# plus, per system k, a small random rank-one term and a diagonal shift,
#   A_k = S + 0.1 v_k v_k' + d_k I,  v_k uniform in (-1, 1)^n, d_k in (0, 1),
# built a chunk of systems at a time (vectorised within the chunk) so that the
# temporaries stay small beside A itself (about 30 s for 1e6 systems, n = 32,
# on a slow 2-core machine; not timed).
make_spd_batch <- function(n, count, chunk = 512) {
  M <- matrix(rnorm(n * n), n, n)
  S <- crossprod(M) / n + diag(n)
  s_vec <- as.vector(S)
  diag_pos <- seq(1L, n * n, by = n + 1L)
  ii <- rep(seq_len(n), times = n)  # row of each entry of a column-major n x n
  jj <- rep(seq_len(n), each = n)   # its column
  A <- array(0, c(n, n, count))
  for (first in seq(1, count, by = chunk)) {
    m <- min(chunk, count - first + 1)
    V <- matrix(runif(n * m, -1, 1), n, m)
    blk <- V[ii, , drop = FALSE] * V[jj, , drop = FALSE] * 0.1 + s_vec  # n^2 x m
    blk[diag_pos, ] <- blk[diag_pos, ] + rep(runif(m), each = n)
    A[, , first:(first + m - 1)] <- blk
  }
  A
}

# ---- checks ----------------------------------------------------------------

# Largest backward error over the systems idx (inf norms, in double).
backward_error <- function(A, B, X, idx) {
  max(vapply(idx, function(k) {
    a <- A[, , k]; b <- B[, k]; x <- X[, k]
    r <- b - drop(a %*% x)
    max(abs(r)) / (max(rowSums(abs(a))) * max(abs(x)) + max(abs(b)))
  }, numeric(1)))
}

# "" when X solves the first count systems of (A, B) well, else why not.
check_solution <- function(X, A, B, count, eps, sample = 200) {
  if (anyNA(X)) return(sprintf("%d NA entries in the solution", sum(is.na(X))))
  n <- dim(A)[1]
  idx <- unique(round(seq(1, count, length.out = min(sample, count))))
  berr <- backward_error(A, B, X, idx)
  bound <- 100 * n * eps
  if (!(berr <= bound)) return(sprintf("backward error %.2e > %.2e", berr, bound))
  attr(berr, "bound") <- bound
  berr
}

# ---- timing ----------------------------------------------------------------

# Median elapsed seconds of reps evaluations of f(); the last result kept.
time_median <- function(f, reps) {
  result <- NULL
  secs <- vapply(seq_len(reps), function(r) {
    system.time(result <<- f(), gcFirst = TRUE)[["elapsed"]]
  }, numeric(1))
  list(seconds = median(secs), all = secs, result = result)
}

# ---- tridiagonal systems (issue 3) -------------------------------------------

eps_of <- function(precision) if (precision == "double") .Machine$double.eps else 2^-23

# count symmetric, strictly diagonally dominant tridiagonal systems of order n
# (off-diagonal entries uniform in (-1, 1), diagonal in (2.5, 3.5)) with one
# right-hand side each, in the layout of bsym_tridiag_solve().
make_tridiag_batch <- function(n, count) {
  list(lower = matrix(runif((n - 1) * count, -1, 1), n - 1, count),
       diag = matrix(runif(n * count, 2.5, 3.5), n, count),
       rhs = matrix(runif(n * count, -1, 1), n, count))
}

# Largest ||b - T x||_inf / (||T||_inf ||x||_inf + ||b||_inf) over the systems
# (columns) idx of the symmetric tridiagonal batch s, vectorised over them.
tridiag_berr <- function(s, X, idx) {
  n <- nrow(s$diag)
  d <- s$diag[, idx, drop = FALSE]; x <- X[, idx, drop = FALSE]; b <- s$rhs[, idx, drop = FALSE]
  Tx <- d * x
  rowsum <- abs(d)
  if (n > 1) {
    l <- s$lower[, idx, drop = FALSE]  # symmetric: the super-diagonal is l too
    Tx[-1, ] <- Tx[-1, , drop = FALSE] + l * x[-n, , drop = FALSE]
    Tx[-n, ] <- Tx[-n, , drop = FALSE] + l * x[-1, , drop = FALSE]
    rowsum[-1, ] <- rowsum[-1, , drop = FALSE] + abs(l)
    rowsum[-n, ] <- rowsum[-n, , drop = FALSE] + abs(l)
  }
  colmax <- function(M) apply(abs(M), 2, max)
  max(colmax(b - Tx) / (colmax(rowsum) * colmax(x) + colmax(b)))
}

# As check_solution(), for the first count systems of the tridiagonal batch s.
check_tridiag <- function(X, s, count, eps, sample = 200) {
  if (!is.matrix(X) || ncol(X) != count) return("the solution does not have one column per system")
  if (anyNA(X)) return(sprintf("%d NA entries in the solution", sum(is.na(X))))
  n <- nrow(s$diag)
  idx <- unique(round(seq(1, count, length.out = min(sample, count))))
  berr <- tridiag_berr(s, X, idx)
  bound <- 100 * n * eps
  if (!(berr <= bound)) return(sprintf("backward error %.2e > %.2e", berr, bound))
  attr(berr, "bound") <- bound
  berr
}

# The base-R yardstick: solve() of each dense tridiagonal matrix, built from
# the bands inside the loop (what a base-R user must do).
dense_tridiag_loop <- function(s, count) {
  n <- nrow(s$diag)
  i <- seq_len(n)
  sub <- cbind(i[-1], i[-n])
  sup <- cbind(i[-n], i[-1])
  vapply(seq_len(count), function(k) {
    Tk <- matrix(0, n, n)
    Tk[cbind(i, i)] <- s$diag[, k]
    if (n > 1) {
      Tk[sub] <- s$lower[, k]
      Tk[sup] <- s$lower[, k]
    }
    solve(Tk, s$rhs[, k])
  }, numeric(n))
}

# One row of the second table: label, n, precision, systems, the timed call
# f(), its untimed small warm-up call warm() (first kernel launches, lazy
# module loading), check(X) -> berr or "why", the device asked for (NA for
# base R) and the group whose base-R row is the yardstick.
tri_run <- function(label, n, precision, systems, f, warm, check, device, group, base = FALSE)
  list(label = label, n = n, precision = precision, systems = systems, f = f, warm = warm,
       check = check, device = device, group = group, base = base)

# Times and checks one run; errors become a FAIL row instead of ending the script.
time_tri_run <- function(run, reps) {
  cat(sprintf("timing: %s, n = %d, %s, %g systems ...\n", run$label, run$n, run$precision, run$systems))
  res <- tryCatch({
    invisible(run$warm())
    t <- time_median(run$f, reps)
    list(t = t, check = run$check(t$result))
  }, error = function(e) list(t = NULL, check = paste("error:", conditionMessage(e))))
  what <- run$label
  if (!is.null(res$t) && !is.na(run$device)) {
    served <- attr(res$t$result, "device")
    if (!is.null(served) && !identical(served, run$device))
      what <- sprintf("%s (served by %s)", what, served)
  }
  failed <- is.character(res$check)
  if (failed) {
    cat(sprintf("\n*** FAIL: %s, n = %d, %s: %s ***\n\n", run$label, run$n, run$precision, res$check))
    check_txt <- paste("FAIL:", res$check)
  } else {
    what_err <- if (is.null(attr(res$check, "what"))) "max backward error" else attr(res$check, "what")
    check_txt <- sprintf("ok (%s %.1e <= %.1e)", what_err, res$check, attr(res$check, "bound"))
  }
  seconds <- if (is.null(res$t)) NA_real_ else res$t$seconds
  data.frame(what = what, n = run$n, precision = run$precision, systems = run$systems,
             seconds = seconds, rate = run$systems / seconds, check = check_txt,
             runs = if (is.null(res$t)) "-" else paste(sprintf("%.3f", res$t$all), collapse = " "),
             group = run$group, base = run$base, failed = failed, stringsAsFactors = FALSE)
}

# The second table: bsym_tridiag_solve() and bsym_solve(method = "tridiag").
# A32, B32 (and their first cpu_systems systems A32_cpu, B32_cpu): n = 32 SPD
# inputs of the first table, or NULL to generate them here.
tridiag_section <- function(opt, gpu, A32, B32, A32_cpu, B32_cpu) {
  devices <- c(if (gpu) "gpu", "cpu")
  precisions <- c("double", "single")
  warm_count <- 1000
  rows <- list()
  # Times the runs of one group at once (their inputs are freed afterwards).
  time_group <- function(runs) lapply(runs, time_tri_run, reps = opt$reps)

  for (n in opt$tri_n) {
    runs <- list()
    n <- as.integer(n)
    count <- max(1, floor(opt$tri_elements / n))
    cat(sprintf("generating %g symmetric tridiagonal systems, n = %d ...\n", count, n))
    s <- make_tridiag_batch(n, count)
    w <- seq_len(min(warm_count, count))
    sw <- list(lower = s$lower[, w, drop = FALSE], diag = s$diag[, w, drop = FALSE],
               rhs = s$rhs[, w, drop = FALSE])
    group <- sprintf("tridiagonal, n = %d", n)
    # the CPU's share: the first cpu_count systems
    cpu_count <- min(count, max(1, floor(opt$tri_cpu_elements / n)))
    c_idx <- seq_len(cpu_count)
    s_cpu <- list(lower = s$lower[, c_idx, drop = FALSE], diag = s$diag[, c_idx, drop = FALSE],
                  rhs = s$rhs[, c_idx, drop = FALSE])
    for (precision in precisions) for (device in devices) {
      runs[[length(runs) + 1]] <- local({
        dev <- device; prec <- precision
        sd <- if (dev == "gpu") s else s_cpu
        m <- ncol(sd$diag)
        tri_run(sprintf("bsym_tridiag_solve, %s", dev), n, prec, m,
                f = function() bsym_tridiag_solve(sd$lower, sd$diag, NULL, sd$rhs, device = dev,
                                                  precision = prec),
                warm = function() bsym_tridiag_solve(sw$lower, sw$diag, NULL, sw$rhs, device = dev,
                                                     precision = prec),
                check = function(X) check_tridiag(X, sd, m, eps_of(prec)),
                device = dev, group = group)
      })
    }
    base_count <- min(count, max(2, round(opt$tri_base_systems * (32 / n)^3)))
    runs[[length(runs) + 1]] <- local({
      bc <- base_count
      tri_run("base R loop of solve() (dense tridiagonal)", n, "double", bc,
              f = function() dense_tridiag_loop(s, bc), warm = function() NULL,
              check = function(X) check_tridiag(X, s, bc, .Machine$double.eps),
              device = NA, group = group, base = TRUE)
    })
    rows <- c(rows, time_group(runs))
    rm(s, s_cpu, sw, runs)
  }

  # bsym_solve(method = "tridiag") at n = 32.
  runs <- list()
  if (is.null(A32)) {
    cat(sprintf("generating %g SPD systems, n = 32 ...\n", opt$systems))
    A32 <- make_spd_batch(32L, opt$systems)
    B32 <- matrix(runif(32 * opt$systems, -1, 1), 32, opt$systems)
    A32_cpu <- A32[, , seq_len(opt$cpu_systems), drop = FALSE]
    B32_cpu <- B32[, seq_len(opt$cpu_systems), drop = FALSE]
  }
  w <- seq_len(min(warm_count, opt$cpu_systems))
  Aw <- A32[, , w, drop = FALSE]
  Bw <- B32[, w, drop = FALSE]
  group <- "dense SPD, n = 32"
  for (precision in precisions) for (device in devices) {
    runs[[length(runs) + 1]] <- local({
      dev <- device; prec <- precision
      A <- if (dev == "gpu") A32 else A32_cpu
      B <- if (dev == "gpu") B32 else B32_cpu
      count <- dim(A)[3]
      tri_run(sprintf("bsym_solve(method = \"tridiag\"), %s", dev), 32L, prec, count,
              f = function() bsym_solve(A, B, method = "tridiag", device = dev, precision = prec),
              warm = function() bsym_solve(Aw, Bw, method = "tridiag", device = dev, precision = prec),
              check = function(X) check_solution(X, A, B, count, eps_of(prec)),
              device = dev, group = group)
    })
  }
  runs[[length(runs) + 1]] <- local({
    bc <- min(opt$base_systems, dim(A32)[3])
    tri_run("base R loop of solve()", 32L, "double", bc,
            f = function() vapply(seq_len(bc), function(k) solve(A32[, , k], B32[, k]), numeric(32)),
            warm = function() NULL,
            check = function(X) check_solution(X, A32, B32, bc, .Machine$double.eps),
            device = NA, group = group, base = TRUE)
  })

  rows <- c(rows, time_group(runs))
  notes <- c(
    sprintf("bsym_tridiag_solve: symmetric (upper = NULL), strictly diagonally dominant systems (off-diagonal uniform in (-1, 1), diagonal in (2.5, 3.5)), one right-hand side; floor(%g / n) systems per call on the GPU, floor(%g / n) on the CPU", opt$tri_elements, opt$tri_cpu_elements),
    sprintf("base R loop (dense tridiagonal): solve() of the n x n matrix built from the bands, %g systems at n = 32 scaled by (32/n)^3 (at least 2); its systems/s is the yardstick of its n", opt$tri_base_systems),
    sprintf("bsym_solve(method = \"tridiag\"): the n = 32 SPD systems of the first table (A_k = S + 0.1 v_k v_k' + d_k I), %g per call on the GPU (when usable), %g on the CPU; yardstick: base R loop of solve() at n = 32", opt$systems, opt$cpu_systems),
    "single-precision rows compute in float (results returned as doubles) and are compared with the base-R rate in double; median elapsed of the runs after one small untimed call of the same kind")
  runs_table(rows, notes)
}

# The markdown table (with the speed-up over each group's base-R row), the
# check lines and the notes of a list of timed runs (time_tri_run rows).
runs_table <- function(rows, notes) {
  tab <- do.call(rbind, rows)
  base_rate <- vapply(tab$group, function(g) {
    r <- tab$rate[tab$group == g & tab$base]
    if (length(r)) r[1] else NA_real_
  }, numeric(1))
  tab$speedup <- tab$rate / base_rate

  fmt_num <- function(x, f) ifelse(is.na(x), "-", sprintf(f, x))
  md <- c(
    "| what | n | precision | systems | seconds | systems/s | speed-up over base R |",
    "|---|---|---|---|---|---|---|",
    sprintf("| %s | %d | %s | %s | %s | %s | %s |", tab$what, tab$n, tab$precision,
            format(tab$systems, big.mark = ",", scientific = FALSE, trim = TRUE),
            fmt_num(tab$seconds, "%.3f"), fmt_num(tab$rate, "%.3g"), fmt_num(tab$speedup, "%.1fx")))
  checks <- sprintf("- %s, n = %d, %s: %s; runs (s): %s", tab$what, tab$n, tab$precision,
                    tab$check, tab$runs)
  list(md = md, checks = checks, notes = notes, failed = any(tab$failed))
}

# ---- eigensolvers (issue 4) ---------------------------------------------------

# count random symmetric n x n matrices (entries uniform in (-1, 1)).
make_sym_batch <- function(n, count) {
  A <- array(runif(n * n * count, -1, 1), c(n, n, count))
  A + aperm(A, c(2, 1, 3))
}

# The worst residual (vectors) or eigenvalue error (values only) over a sample
# of the results r of bsym_eigen on A (decreasing values, like eigen()), or a
# "why" string; attr "bound" = 100 n eps.
check_eigen <- function(r, A, count, eps, sample = 100) {
  n <- dim(A)[1]
  bound <- 100 * n * eps
  if (anyNA(r$values)) return("NA in the values")
  W <- matrix(r$values, n)
  worst <- 0
  for (k in unique(round(seq(1, count, length.out = min(sample, count))))) {
    a <- A[, , k]
    if (!is.null(r$vectors)) {
      V <- matrix(r$vectors[, , k], n)
      e <- norm(a %*% V - V %*% diag(W[, k], n), "F") / norm(a, "F")
    } else {
      e <- max(abs(W[, k] - eigen(a, symmetric = TRUE, only.values = TRUE)$values)) / norm(a, "2")
    }
    worst <- max(worst, e)
  }
  if (worst > bound) return(sprintf("error %.2e > %.2e", worst, bound))
  structure(worst, bound = bound,
            what = if (!is.null(r$vectors)) "max ||AV - V diag(w)||_F / ||A||_F" else "max |w - eigen()| / ||A||_2")
}

# The third table: bsym_eigen() with and without vectors against eigen() loops.
eigen_section <- function(opt, gpu) {
  devices <- c(if (gpu) "gpu", "cpu")
  rows <- list()
  for (n in as.integer(opt$eig_n)) {
    count <- if (gpu) opt$eig_systems else opt$eig_cpu_systems
    cat(sprintf("generating %g symmetric matrices, n = %d ...\n", count, n))
    A <- make_sym_batch(n, count)
    A_cpu <- A[, , seq_len(min(count, opt$eig_cpu_systems)), drop = FALSE]
    Aw <- A[, , seq_len(min(count, 200)), drop = FALSE]
    runs <- list()
    for (vectors in c(TRUE, FALSE)) {
      group <- sprintf("eigen, n = %d, %s", n, if (vectors) "vectors" else "values only")
      for (precision in c("double", "single")) for (device in devices) {
        runs[[length(runs) + 1]] <- local({
          dev <- device; prec <- precision; vec <- vectors
          Ad <- if (dev == "gpu") A else A_cpu
          m <- dim(Ad)[3]
          tri_run(sprintf("bsym_eigen(vectors = %s), %s", vec, dev), n, prec, m,
                  f = function() bsym_eigen(Ad, vectors = vec, device = dev, precision = prec),
                  warm = function() bsym_eigen(Aw, vectors = vec, device = dev, precision = prec),
                  check = function(r) check_eigen(r, Ad, m, eps_of(prec)),
                  device = dev, group = group)
        })
      }
      runs[[length(runs) + 1]] <- local({
        vec <- vectors
        bc <- min(opt$eig_base_systems, count)
        tri_run(sprintf("base R loop of eigen(%s)", if (vec) "symmetric = TRUE" else "only.values = TRUE"),
                n, "double", bc,
                f = function() {
                  res <- lapply(seq_len(bc), function(k) eigen(A[, , k], symmetric = TRUE, only.values = !vec))
                  list(values = vapply(res, `[[`, numeric(n), "values"),
                       vectors = if (vec) array(unlist(lapply(res, `[[`, "vectors")), c(n, n, bc)))
                },
                warm = function() NULL,
                check = function(r) check_eigen(r, A, bc, .Machine$double.eps),
                device = NA, group = group, base = TRUE)
      })
    }
    rows <- c(rows, lapply(runs, time_tri_run, reps = opt$reps))
    rm(A, A_cpu, Aw, runs)
  }
  notes <- c(
    sprintf("random symmetric matrices (entries uniform in (-1, 1)); %g per call on the GPU (when usable), %g on the CPU; yardsticks: base-R loops over %g matrices of eigen(symmetric = TRUE), with vectors or only.values = TRUE", opt$eig_systems, opt$eig_cpu_systems, opt$eig_base_systems),
    "single-precision rows compute in float (results returned as doubles); median elapsed of the runs after one small untimed call of the same kind")
  runs_table(rows, notes)
}

# ---- least squares (issue 5) -------------------------------------------------

# The worst relative coefficient error of the fits r (a list with
# coefficients p x count) against lm.fit on a sample, or a "why" string; attr
# "bound" = 10 p eps cond(X)^2, the largest over the sample.
check_lsfit <- function(r, X, Y, count, eps, sample = 50) {
  p <- dim(X)[2]
  if (anyNA(r$coefficients)) return("NA in the coefficients")
  worst <- 0; bound <- 0
  for (k in unique(round(seq(1, count, length.out = min(sample, count))))) {
    ref <- lm.fit(X[, , k], Y[, k])$coefficients
    e <- max(abs(r$coefficients[, k] - ref)) / max(abs(ref))
    b <- 10 * p * eps * kappa(X[, , k], exact = TRUE)^2
    if (e > b) return(sprintf("system %d: error %.2e > %.2e", k, e, b))
    worst <- max(worst, e); bound <- max(bound, b)
  }
  structure(worst, bound = bound, what = "max relative coefficient error vs lm.fit")
}

# The fourth table: bsym_lsfit() against a base-R loop of lm.fit().
lsfit_section <- function(opt, gpu) {
  m <- as.integer(opt$ls_m); p <- as.integer(opt$ls_p)
  count <- if (gpu) opt$ls_systems else opt$ls_cpu_systems
  cat(sprintf("generating %g least-squares problems, %d x %d ...\n", count, m, p))
  X <- array(runif(m * p * count, -1, 1), c(m, p, count))
  X[, 1, ] <- 1
  Y <- matrix(rnorm(m * count), m, count)
  cpu_idx <- seq_len(min(count, opt$ls_cpu_systems))
  Xc <- X[, , cpu_idx, drop = FALSE]; Yc <- Y[, cpu_idx, drop = FALSE]
  Xw <- X[, , seq_len(min(count, 100)), drop = FALSE]; Yw <- Y[, seq_len(min(count, 100)), drop = FALSE]
  group <- sprintf("lsfit, m = %d, p = %d", m, p)
  fit <- function(X, Y, method, dev, prec) {
    r <- bsym_lsfit(X, Y, method = method, device = dev, precision = prec)
    structure(r, device = r$device)
  }
  runs <- list()
  for (cfg in list(c("auto", "double"), c("auto", "single"), c("ldlt", "single")))
    for (device in c(if (gpu) "gpu", "cpu")) {
      runs[[length(runs) + 1]] <- local({
        meth <- cfg[1]; prec <- cfg[2]; dev <- device
        Xd <- if (dev == "gpu") X else Xc
        Yd <- if (dev == "gpu") Y else Yc
        tri_run(sprintf("bsym_lsfit(method = \"%s\"), %s", meth, dev), p, prec, dim(Xd)[3],
                f = function() fit(Xd, Yd, meth, dev, prec),
                warm = function() fit(Xw, Yw, meth, dev, prec),
                check = function(r) check_lsfit(r, Xd, Yd, dim(Xd)[3], eps_of(prec)),
                device = dev, group = group)
      })
    }
  bc <- min(opt$ls_base_systems, count)
  runs[[length(runs) + 1]] <- tri_run(
    "base R loop of lm.fit()", p, "double", bc,
    f = function() list(coefficients = vapply(seq_len(bc), function(k) lm.fit(X[, , k], Y[, k])$coefficients,
                                              numeric(p))),
    warm = function() NULL,
    check = function(r) check_lsfit(r, X, Y, bc, .Machine$double.eps),
    device = NA, group = group, base = TRUE)
  rows <- lapply(runs, time_tri_run, reps = opt$reps)
  notes <- c(
    sprintf("%g problems per call on the GPU (when usable), %g on the CPU, %d x %d designs (an intercept and columns uniform in (-1, 1)), one response; yardstick: a base-R loop of lm.fit() over %g problems", count, length(cpu_idx), m, p, bc),
    "the n column is p; single-precision rows compute in float (X, Y converted by the R glue, results returned as doubles); median elapsed of the runs after one small untimed call of the same kind")
  runs_table(rows, notes)
}

# ---- the automatic strategy (issue 5) ----------------------------------------

# The systems of A (n x n x count) whose index is in ill, made ill-conditioned:
# P A P + 1e-9 u u' with u = ones / sqrt(n), P = I - u u' (one eigenvalue
# 1e-9, the others those of A compressed to u's complement).
make_ill <- function(A, ill) {
  n <- dim(A)[1]
  u <- rep(1 / sqrt(n), n)
  P <- diag(n) - tcrossprod(u)
  for (k in ill) A[, , k] <- P %*% A[, , k] %*% P + 1e-9 * tcrossprod(u)
  A
}

# The paths, ranks and backward errors of a bsym_solve(method = "auto") result.
check_auto <- function(X, A, B, ill, eps, sample = 200) {
  n <- dim(A)[1]; count <- dim(A)[3]
  expect_m <- ifelse(seq_len(count) %in% ill, "eigen", "ldlt") # SPD: the certified LDL^T
  bad <- sum(attr(X, "method") != expect_m | attr(X, "rank") != ifelse(expect_m == "eigen", n - 1L, n))
  if (bad > 0) return(sprintf("%d systems with an unexpected path or rank", bad))
  well <- setdiff(seq_len(count), ill)
  if (!length(well)) return(structure(0, bound = 100 * n * eps, what = "paths and ranks as expected; max backward error"))
  idx <- well[unique(round(seq(1, length(well), length.out = min(sample, length(well)))))]
  berr <- backward_error(A, B, X, idx)
  if (!(berr <= 100 * n * eps)) return(sprintf("backward error %.2e > %.2e", berr, 100 * n * eps))
  structure(berr, bound = 100 * n * eps, what = "paths and ranks as expected; max backward error")
}

# The fifth table: method "auto" at 0, 1, 10 and 100 % ill-conditioned systems.
auto_section <- function(opt, gpu) {
  n <- as.integer(opt$n)
  count <- if (gpu) opt$auto_systems else opt$auto_cpu_systems
  cat(sprintf("generating %g SPD systems, n = %d ...\n", count, n))
  A0 <- make_spd_batch(n, count)
  B <- matrix(runif(n * count, -1, 1), n, count)
  rows <- list()
  for (pct in c(0, 1, 10, 100)) {
    ill <- which(seq_len(count) %% 100 < pct)
    A <- make_ill(A0, ill)
    cpu_n <- min(count, opt$auto_cpu_systems)
    group <- sprintf("auto, %g %% ill", pct)
    runs <- list()
    # one timed call of bsym_solve(method = me) on the first k systems
    solve_run <- function(label, me, pr, d, check) {
      k <- if (d == "gpu") count else cpu_n
      Ad <- A[, , seq_len(k), drop = FALSE]; Bd <- B[, seq_len(k), drop = FALSE]
      tri_run(sprintf("%s, %s", label, d), n, pr, k,
              f = function() bsym_solve(Ad, Bd, method = me, device = d, precision = pr),
              warm = function() bsym_solve(Ad[, , 1:2, drop = FALSE], Bd[, 1:2], method = me, device = d,
                                           precision = pr),
              check = function(r) check(r, Ad, Bd, ill[ill <= k], eps_of(pr)),
              device = d, group = group)
    }
    for (prec in c("double", "single")) for (dev in c(if (gpu) "gpu", "cpu")) {
      runs[[length(runs) + 1]] <- solve_run(sprintf("bsym_solve(method = \"auto\"), %g %% ill", pct), "auto",
                                            prec, dev, check_auto)
      if (pct == 0)
        for (meth in c("tridiag", "ldlt"))
          runs[[length(runs) + 1]] <- solve_run(sprintf("bsym_solve(method = \"%s\") (no checks)", meth), meth,
                                                prec, dev, function(r, Ad, Bd, ill, eps)
                                                  check_solution(r, Ad, Bd, dim(Ad)[3], eps))
    }
    bc <- min(opt$base_systems, count)
    # the yardstick: solve() (wrong on the ill systems, without complaint);
    # at 100 % the truncated solve by eigen() a base-R user would write
    truncated <- function(a, b) {
      e <- eigen(a, symmetric = TRUE)
      keep <- abs(e$values) >= 1e-5 * max(abs(e$values))
      drop(e$vectors[, keep, drop = FALSE] %*% (crossprod(e$vectors[, keep, drop = FALSE], b) / e$values[keep]))
    }
    runs[[length(runs) + 1]] <- tri_run(
      if (pct < 100) "base R loop of solve()" else "base R loop of eigen() + truncated solution", n, "double", bc,
      f = function() vapply(seq_len(bc), function(k) if (pct < 100) solve(A[, , k], B[, k]) else truncated(A[, , k], B[, k]),
                            numeric(n)),
      warm = function() NULL,
      check = function(r) structure(0, bound = 0, what = "the yardstick, not checked:"),
      device = NA, group = group, base = TRUE)
    rows <- c(rows, lapply(runs, time_tri_run, reps = opt$reps))
  }
  notes <- c(
    sprintf("%g SPD systems per call on the GPU (when usable), %g on the CPU, n = %d, one right-hand side; an ill-conditioned system has one eigenvalue 1e-9 (rank n - 1 after truncation at rcond = 1e-5); yardstick: a base-R loop over %g systems of the same batch of solve() (which returns a wrong answer on the ill-conditioned ones without complaint), at 100 %% of eigen() and the truncated solution", count, min(count, opt$auto_cpu_systems), n, min(opt$base_systems, count)),
    "median elapsed of the runs after one small untimed call")
  runs_table(rows, notes)
}

# The sixth table: the ratios of issue 12 on the CPU, from one run.
ratios_section <- function(opt) {
  n <- 32L
  count <- opt$ratio_systems
  nb <- min(opt$ratio_base, count)
  cat(sprintf("generating %g SPD systems, n = %d, for the CPU ratios ...\n", count, n))
  A <- make_spd_batch(n, count)
  B <- matrix(runif(n * count, -1, 1), n, count)
  ill <- which(seq_len(count) %% 10 == 0)
  Aill <- make_ill(A, ill)
  cpu <- batchsym:::cpu_info()
  # median seconds of one call: each timed run repeats the call k times, k
  # such that a run lasts about 0.25 s (system.time() counts milliseconds)
  t_of <- function(f) {
    first <- system.time(f())[["elapsed"]] # untimed: loading and allocation
    k <- max(1L, as.integer(ceiling(0.25 / max(first, 1e-3))))
    result <- NULL
    t <- time_median(function() { for (i in seq_len(k)) result <<- f(); result }, opt$reps)
    t$seconds <- t$seconds / k
    t
  }
  per <- function(f, k) t_of(f)$seconds / k
  base_solve <- per(function() for (k in seq_len(nb)) solve(A[, , k], B[, k]), nb)
  base_eig <- per(function() for (k in seq_len(nb)) eigen(A[, , k], symmetric = TRUE), nb)
  base_val <- per(function() for (k in seq_len(nb)) eigen(A[, , k], symmetric = TRUE, only.values = TRUE), nb)
  chk_text <- function(chk) if (is.character(chk)) paste("FAIL:", chk) else
    sprintf("%.2e <= %.2e", chk, attr(chk, "bound"))
  runs <- list(
    list("default bsym_solve(A, B) (method \"auto\")", "loop of solve()", base_solve, 20,
         function() bsym_solve(A, B, device = "cpu"),
         function(X) check_auto(X, A, B, integer(0), eps_of("double"))),
    list("method = \"ldlt\"", "loop of solve()", base_solve, 50,
         function() bsym_solve(A, B, method = "ldlt", device = "cpu"),
         function(X) check_solution(X, A, B, count, eps_of("double"))),
    list("default, 10 % ill-conditioned", "loop of solve()", base_solve, 8,
         function() bsym_solve(Aill, B, device = "cpu"),
         function(X) check_auto(X, Aill, B, ill, eps_of("double"))),
    list("bsym_eigen(A), vectors", "loop of eigen()", base_eig, 15,
         function() bsym_eigen(A, device = "cpu"),
         function(r) check_eigen(r, A, count, eps_of("double"))),
    list("bsym_eigen(A, vectors = FALSE)", "loop of eigen(only.values = TRUE)", base_val, 15,
         function() bsym_eigen(A, vectors = FALSE, device = "cpu"),
         function(r) check_eigen(r, A, count, eps_of("double"))))
  rows <- lapply(runs, function(r) {
    t <- t_of(r[[5]])
    chk <- r[[6]](t$result)
    data.frame(what = r[[1]], against = r[[2]], seconds = t$seconds, ratio = r[[3]] * count / t$seconds,
               target = r[[4]], check = chk_text(chk), failed = is.character(chk))
  })
  # double and single in turn, so that the machine's drift hits both alike
  one <- function(pr) function() bsym_solve(A, B, method = "ldlt", device = "cpu", precision = pr)
  pair <- lapply(seq_len(opt$reps), function(r) c(t_of(one("double"))$seconds, t_of(one("single"))$seconds))
  t_d <- list(seconds = median(vapply(pair, `[`, 0, 1)))
  t_s <- list(seconds = median(vapply(pair, `[`, 0, 2)), result = one("single")())
  chk <- check_solution(t_s$result, A, B, count, eps_of("single"))
  rows[[length(rows) + 1]] <- data.frame(
    what = "precision = \"single\", ldlt", against = "the same in double", seconds = t_s$seconds,
    ratio = t_d$seconds / t_s$seconds, target = 1.3, check = chk_text(chk), failed = is.character(chk))
  tab <- do.call(rbind, rows)
  md <- c(sprintf("CPU: %d threads, %s; n = 32, double, %s SPD systems per call; base-R loops over %g systems",
                  cpu$threads, cpu$simd, format(count, big.mark = ",", scientific = FALSE), nb),
          "",
          "| call | against | seconds | ratio | target | met |",
          "|---|---|---|---|---|---|",
          sprintf("| %s | %s | %.4f | %.1fx | >= %gx | %s |", tab$what, tab$against, tab$seconds, tab$ratio,
                  tab$target, ifelse(tab$ratio >= tab$target, "yes", "no")))
  list(md = md, checks = sprintf("- %s: %s", tab$what, tab$check),
       notes = "median elapsed of the runs after one untimed call, each run repeating the call to last about 0.25 s; ratio: the base-R loop's time per system times the batch, over batchsym's time",
       failed = any(tab$failed))
}

# Prints a section's table (a runs_table() result) under its title, appends
# it with its notes to the file out (when not ""); TRUE when a check failed.
show_section <- function(sec, title, what, out) {
  cat("\n", title, "\n\n", paste0(sec$md, "\n"), "\n", paste0(sec$checks, "\n"), sep = "")
  if (nzchar(out)) {
    cat(c("", title, "", paste("-", sec$notes), "", sec$md, "", sec$checks, ""), file = out,
        sep = "\n", append = TRUE)
    cat("appended the", what, "to", out, "\n")
  }
  sec$failed
}

# ---- main ------------------------------------------------------------------

main <- function() {
  opt <- parse_args(commandArgs(trailingOnly = TRUE))
  n <- as.integer(opt$n)
  eps <- if (opt$precision == "double") .Machine$double.eps else 2^-23
  set.seed(20240601)

  info <- bsym_device_info()
  gpu <- bsym_gpu_available()
  main_device <- if (gpu) "gpu" else "cpu"
  cpu_name <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)
    if (length(l)) sub("^model name\\s*:\\s*", "", l[1]) else "unknown"
  }, error = function(e) "unknown")
  header <- c(
    sprintf("date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S UTC", tz = "UTC")),
    sprintf("%s; batchsym %s", R.version.string, as.character(packageVersion("batchsym"))),
    sprintf("GPU: %s", if (gpu) info$name else paste("none usable -", info$reason)),
    sprintf("CPU: %s, %d logical cores; option batchsym.threads = %s", cpu_name,
            parallel::detectCores(), format(getOption("batchsym.threads", 0L))),
    sprintf("command: Rscript inst/bench/bench_r.R %s",
            paste(commandArgs(trailingOnly = TRUE), collapse = " ")),
    sprintf("n = %d, %s precision, method = \"ldlt\"; median elapsed of %d runs",
            n, opt$precision, opt$reps))
  cat("bench_r.R\n", paste0("  ", header, "\n"), sep = "")

  cat(sprintf("generating %g SPD systems ...\n", opt$systems))
  A <- make_spd_batch(n, opt$systems)
  B <- matrix(runif(n * opt$systems, -1, 1), n, opt$systems)
  A_cpu <- A[, , seq_len(opt$cpu_systems), drop = FALSE]
  B_cpu <- B[, seq_len(opt$cpu_systems), drop = FALSE]

  solve_on <- function(device, A, B)
    function() bsym_solve(A, B, method = "ldlt", device = device, precision = opt$precision)
  warm <- seq_len(min(1000, opt$cpu_systems))
  for (d in unique(c(main_device, "cpu")))  # start CUDA / OpenMP outside the timings
    invisible(solve_on(d, A[, , warm, drop = FALSE], B[, warm, drop = FALSE])())

  runs <- list(
    list(what = sprintf("bsym_solve, %s", main_device), systems = opt$systems,
         f = solve_on(main_device, A, B), A = A, B = B, eps = eps),
    list(what = "bsym_solve, cpu", systems = opt$cpu_systems,
         f = solve_on("cpu", A_cpu, B_cpu), A = A_cpu, B = B_cpu, eps = eps),
    list(what = "base R loop of solve()", systems = opt$base_systems,
         f = function() vapply(seq_len(opt$base_systems),
                               function(k) solve(A[, , k], B[, k]), numeric(n)),
         A = A, B = B, eps = .Machine$double.eps))

  failed <- FALSE
  rows <- lapply(runs, function(run) {
    cat(sprintf("timing: %s on %g systems ...\n", run$what, run$systems))
    t <- time_median(run$f, opt$reps)
    served <- attr(t$result, "device")
    requested <- sub("^bsym_solve, ", "", run$what)
    what <- if (is.null(served) || identical(served, requested)) run$what
            else sprintf("%s (served by %s)", run$what, served)
    check <- check_solution(t$result, run$A, run$B, run$systems, run$eps)
    if (is.character(check)) {
      failed <<- TRUE
      cat(sprintf("\n*** FAIL: %s: %s ***\n\n", run$what, check))
      check_txt <- paste("FAIL:", check)
    } else {
      check_txt <- sprintf("ok (max backward error %.1e <= %.1e)", check, attr(check, "bound"))
    }
    data.frame(what = what, systems = run$systems, seconds = t$seconds,
               rate = run$systems / t$seconds, check = check_txt,
               runs = paste(sprintf("%.3f", t$all), collapse = " "),
               stringsAsFactors = FALSE)
  })
  tab <- do.call(rbind, rows)
  base_rate <- tab$rate[nrow(tab)]
  tab$speedup <- tab$rate / base_rate

  md <- c(
    "| what | systems | seconds | systems/s | speed-up over base R |",
    "|---|---|---|---|---|",
    sprintf("| %s | %s | %.3f | %.3g | %.1fx |", tab$what,
            format(tab$systems, big.mark = ",", scientific = FALSE, trim = TRUE),
            tab$seconds, tab$rate, tab$speedup))
  checks <- sprintf("- %s: %s; runs (s): %s", tab$what, tab$check, tab$runs)
  cat("\n", paste0(md, "\n"), "\n", paste0(checks, "\n"), sep = "")
  if (nzchar(opt$out)) {
    dir.create(dirname(opt$out), showWarnings = FALSE, recursive = TRUE)
    writeLines(c("# bench_r.R: bsym_solve() end to end from R", "",
                 paste("-", header), "", md, "", checks), opt$out)
    cat("wrote", opt$out, "\n")
  }
  if (opt$tridiag == 1) {
    same <- n == 32L
    tri <- tridiag_section(opt, gpu, if (same) A, if (same) B, if (same) A_cpu, if (same) B_cpu)
    failed <- show_section(tri, "## bsym_tridiag_solve() and bsym_solve(method = \"tridiag\") end to end from R",
                           "tridiagonal table", opt$out) || failed
  }
  if (opt$eigen == 1)
    failed <- show_section(eigen_section(opt, gpu), "## bsym_eigen() end to end from R",
                           "eigensolver table", opt$out) || failed
  if (opt$lsfit == 1)
    failed <- show_section(lsfit_section(opt, gpu), "## bsym_lsfit() end to end from R",
                           "least-squares table", opt$out) || failed
  if (opt$auto == 1)
    failed <- show_section(auto_section(opt, gpu), "## bsym_solve(method = \"auto\") end to end from R",
                           "automatic-strategy table", opt$out) || failed
  if (opt$ratios == 1)
    failed <- show_section(ratios_section(opt), "## The CPU against base-R loops (issue 12's ratios, one run)",
                           "CPU ratio table", opt$out) || failed
  if (failed) {
    cat("\n*** FAIL: a solution failed its check (see above) ***\n")
    quit(status = 1)
  }
}

main()
