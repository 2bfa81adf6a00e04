# bench_r.R -- end-to-end benchmark of bsym_solve() from R: host arrays in,
# host arrays out, everything a user waits for (checks, copies, transfers).
#
#   Rscript inst/bench/bench_r.R [--n=32] [--systems=1e6] [--cpu-systems=1e5]
#                                [--base-systems=2000] [--reps=3]
#                                [--precision=double] [--quick] [--out=FILE.md]
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

suppressPackageStartupMessages(library(batchsym))

# ---- options -------------------------------------------------------------

parse_args <- function(args) {
  opt <- list(n = 32, systems = 1e6, cpu_systems = 1e5, base_systems = 2000,
              reps = 3, precision = "double", out = "")
  for (a in args) {
    if (a == "--quick") {
      opt$systems <- 2e4; opt$cpu_systems <- 1e4; opt$base_systems <- 200
      next
    }
    kv <- regmatches(a, regexec("^--([a-z-]+)=(.*)$", a))[[1]]
    if (length(kv) != 3L) stop("unknown argument: ", a, call. = FALSE)
    key <- gsub("-", "_", kv[2]); value <- kv[3]
    if (key %in% c("precision", "out")) {
      opt[[key]] <- value
    } else if (key %in% c("n", "systems", "cpu_systems", "base_systems", "reps")) {
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
  if (failed) {
    cat("\n*** FAIL: a solution failed its check (see above) ***\n")
    quit(status = 1)
  }
}

main()
