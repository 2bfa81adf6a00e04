# host_path.R -- issue 13's host path, end to end from R: host arrays in,
# host arrays out, everything a user waits for, each GPU figure printed beside
# the host-link bound measured in the same run (a pinned copy of the bytes
# that must cross, batchsym:::link_rate).
#
#   Rscript inst/bench/host_path.R [--quick] [--scaling] [--systems 1e6] [--eigen 1e5]
#   (also --systems=1e6; --quick: 2e4 systems and 4e3 matrices, a smoke test
#    whose figures are not the ones to record; an explicit size wins;
#    --eigen 0 leaves the eigensolver out; --scaling: only the GPU scaling
#    table below)
#
# All calls at n = 32, one right-hand side, from the same pool of random SPD
# matrices. Rows, by table:
#
# Solves (`--systems` systems, default 1e6):
#   1. bsym_solve(A, B, method = "ldlt", device = "gpu"), double;
#   2. the same with precision = "single" (4-byte elements cross the link),
#      ratio: its systems/s over row 1's;
#   3. the default method (no method argument), double, device = "gpu";
#   6. rows 1 and 3 with device = "cpu" (the CPU backend, all threads),
#      ratio: the GPU row's systems/s over the CPU row's;
#   7. when bsym_device_info()$gpus holds 2 or more ids: rows 1 and 3 with
#      options(batchsym.gpus = <first id>), ratio: all GPUs (rows 1 and 3,
#      the default: every visible GPU) over the one GPU.
# Eigendecompositions (`--eigen` matrices, default 1e5):
#   4. bsym_eigen(A, device = "gpu") with vectors, and values only
#      (vectors = FALSE);
#   6. the same with device = "cpu", ratio GPU / CPU.
# Latency (one call of 1000 systems, median of 20 calls, in ms):
#   5. bsym_solve(method = "ldlt") and the default method, device = "gpu".
# GPU scaling (--scaling, instead of the tables above; median of 3 calls):
#   8. bsym_solve ldlt and default (`--systems`) and bsym_eigen with vectors
#      (`--eigen`), double, on the first 1, 2, 4, ... and all GPUs in use
#      (options(batchsym.gpus)); ratio: over the same call on one GPU; the
#      check also fails where a result is not identical to the one-GPU one.
#
# Columns:
#   median s      median elapsed time of 5 timed calls after one untimed
#                 warm-up call of the same size; gc() runs before each call
#                 and the previous result is dropped before it, so freeing a
#                 result is never timed (as host_calls.R); the clock is
#                 Sys.time() (microseconds; proc.time() counts milliseconds);
#   systems/s     systems (matrices) per call / median s;
#   link bound    the systems/s the host link allows: per system the bytes
#                 that must cross, in: the referenced triangle n(n+1)/2
#                 elements (+ B, n elements), out: X (n elements) or the
#                 values (n) and vectors (n*n) + a 4-byte info; elements of 8
#                 bytes, 4 in single. With the rates h2d, d2h of a pinned copy
#                 of the input bytes (batchsym:::link_rate(bytes_in, gpu),
#                 best of 3, GB/s = 1e9 B/s; at most 1 GiB a GPU, past
#                 which the rate no longer grows), the bound time is
#                 max(bytes_in / h2d, bytes_out / d2h). On several GPUs
#                 (the rule of src/cuda/device.cu, on_gpus: as many GPUs as
#                 the batch gives 32 MiB of input each, at most all) the
#                 copies to and from every GPU of the call run at once, and
#                 h2d, d2h are what the links carry together;
#   % of bound    systems/s / link bound;
#   ratio         as listed above (speed over speed: > 1 means faster);
#   residual      the largest backward error over a sample of 100 systems
#                 spread over the batch and the last one:
#                 ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf); for the
#                 eigensolver max(||A V - V diag(w)||_F / ||A||_F, ||V'V - I||_F);
#   vs base R     on the same sample, the largest ||x - solve(A, b)||_inf /
#                 ||solve(A, b)||_inf, or max |w - eigen(A)$values| /
#                 max |eigen(A)$values|.
# A check fails (FAIL in the table, exit status 1) when the residual is above
# 100 n eps of the working precision or the difference from base R above
# 100 n eps times 2n (the pool's condition numbers are below 2n).
#
# On a machine without a usable GPU, or before batchsym:::link_rate,
# options(batchsym.gpus) and bsym_device_info()$gpus exist, the rows that
# need them are skipped (or their bound left out) with a printed note; the
# CPU rows always run.

suppressPackageStartupMessages(library(batchsym))

N <- 32L            # the order of every matrix
POOL <- 4096L       # distinct random matrices, replicated to the batch
SAMPLE <- 100L      # systems checked against base R per row
REPS <- 5L          # timed calls per figure (after one warm-up call)
LAT_SYSTEMS <- 1000L
LAT_REPS <- 20L
SPLIT_MIN_BYTES <- 32 * 2^20  # BSYM_GPU_SPLIT_MIN_BYTES of src/core/batchsym.h

# ---- options -----------------------------------------------------------------

# --quick, --systems N, --eigen N (also --systems=N); an explicit size wins
# over --quick whatever the order.
parse_args <- function(args) {
  quick <- "--quick" %in% args
  opt <- list(quick = quick, scaling = "--scaling" %in% args, systems = if (quick) 2e4 else 1e6,
              eigen = if (quick) 4e3 else 1e5)
  args <- args[!args %in% c("--quick", "--scaling")] # (setdiff would drop a repeated value)
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    kv <- regmatches(a, regexec("^--(systems|eigen)(=(.*))?$", a))[[1]]
    if (!length(kv)) stop("unknown argument: ", a, call. = FALSE)
    value <- kv[4]
    if (!nzchar(kv[3])) { # "--systems 1e6": the value is the next argument
      i <- i + 1L
      if (i > length(args)) stop("--", kv[2], " needs a value", call. = FALSE)
      value <- args[i]
    }
    v <- suppressWarnings(as.numeric(value))
    if (is.na(v) || v < (kv[2] == "systems") || v != floor(v))
      stop("--", kv[2], " must be a ", if (kv[2] == "systems") "positive" else "non-negative",
           " whole number (got ", value, ")", call. = FALSE)
    opt[[kv[2]]] <- v
    i <- i + 1L
  }
  opt
}

# ---- the machine and the package ---------------------------------------------

# A function of batchsym's namespace, or NULL when this build lacks it (the
# benchmark runs before and after the functions it prefers exist).
ns_fun <- function(name)
  get0(name, envir = asNamespace("batchsym"), mode = "function", inherits = FALSE)

# A field of /proc/meminfo in GB (NA where there is none).
meminfo_gb <- function(field) {
  l <- tryCatch(readLines("/proc/meminfo", warn = FALSE), error = function(e) character())
  l <- grep(paste0("^", field, ":"), l, value = TRUE)
  if (!length(l)) return(NA_real_)
  as.numeric(gsub("[^0-9]", "", l[1])) * 1024 / 1e9
}

# The GPU ids a default call uses: bsym_device_info()$gpus where the build
# has it, else every visible GPU (the core's default); integer(0) without a
# usable GPU.
gpus_in_use <- function(info = bsym_device_info()) {
  if (!isTRUE(info$gpu_available)) return(integer(0))
  if (!is.null(info$gpus)) return(as.integer(info$gpus))
  seq_len(info$device_count) - 1L
}

# The GPUs of the first `use` ids that a call of `count` systems occupies
# (src/cuda/device.cu, on_gpus: each gets at least 32 MiB of input, counted
# by bsym__job_input_bytes as the n x n matrices in R's doubles).
gpus_of_call <- function(gpus, count) {
  bytes <- count * 8 * N * N
  gpus[seq_len(max(1, min(length(gpus), floor(bytes / SPLIT_MIN_BYTES))))]
}

# ---- inputs ------------------------------------------------------------------

# m random symmetric n x n matrices, off-diagonal entries uniform in [-1, 1),
# diagonal 1 + the row's sum of |off-diagonal| (diagonally dominant, so SPD,
# eigenvalues in [1, 2n - 1)), as one n x n x m array, vectorised over m.
spd_pool <- function(n, m) {
  X <- array(runif(n * n * m, -1, 1), c(n, n, m))
  A <- (X + aperm(X, c(2L, 1L, 3L))) / 2
  d <- rep(seq.int(1L, n * n, by = n + 1L), m) + rep((seq_len(m) - 1L) * n * n, each = n)
  A[d] <- 0
  dim(A) <- c(n, n * m)
  A[d] <- 1 + colSums(abs(A)) # symmetric: column sums are row sums
  dim(A) <- c(n, n, m)
  A
}

# count matrices of the pool, repeated in turn: one allocation of the full
# array (rep_len), the dim attribute set in place (no temporary copy of a
# batch that can be 8.2 GB).
replicate_batch <- function(pool, count) {
  n <- dim(pool)[1]
  A <- rep_len(as.vector(pool), n * n * count)
  dim(A) <- c(n, n, count)
  A
}

# n x count right-hand sides uniform in [-1, 1), all distinct.
make_rhs <- function(n, count) {
  B <- runif(n * count, -1, 1)
  dim(B) <- c(n, count)
  B
}

# The systems checked: SAMPLE spread over the batch, the last one included.
sample_of <- function(count) unique(round(seq(1, count, length.out = min(SAMPLE, count))))

# ---- timing ------------------------------------------------------------------

now <- function() as.numeric(Sys.time())

# One untimed warm-up call of f(), then reps timed calls: the previous result
# dropped and gc() run before each, outside the clock; the last result kept.
time_calls <- function(f, reps = REPS) {
  r <- f()
  secs <- numeric(reps)
  for (i in seq_len(reps)) {
    r <- NULL
    invisible(gc())
    t0 <- now()
    r <- f()
    secs[i] <- now() - t0
  }
  list(seconds = median(secs), all = secs, result = r)
}

# ---- the host-link bound -------------------------------------------------------

# A memo of batchsym:::link_rate(bytes, gpus) (NULL when the build lacks it or
# it fails: the reason goes to `notes`), and the list of what was measured.
LINK_MAX_BYTES <- 2^30 # per GPU: the copy rate has stopped growing well below
link_meter <- function() {
  rate_fun <- ns_fun("link_rate")
  cache <- list()
  failed <- character()
  problems <- character()
  rate <- function(bytes, gpus) {
    if (is.null(rate_fun)) return(NULL)
    bytes <- min(bytes, LINK_MAX_BYTES)
    key <- sprintf("%.0f@%s", bytes, paste(gpus, collapse = ","))
    if (key %in% failed) return(NULL) # measured once, failed: not tried again
    if (is.null(cache[[key]])) {
      r <- tryCatch(rate_fun(bytes, gpu = gpus), error = function(e) {
        problems <<- c(problems, sprintf("link_rate(%.0f, gpu = %s): %s", bytes, paste(gpus, collapse = ","),
                                         conditionMessage(e)))
        NULL
      })
      if (is.null(r)) {
        failed <<- c(failed, key)
        return(NULL)
      }
      cache[[key]] <<- list(bytes = bytes, gpu = paste(gpus, collapse = ","), h2d = r[["h2d"]], d2h = r[["d2h"]])
    }
    cache[[key]]
  }
  # systems/s the links of `gpus` allow for count systems of in_b bytes in
  # and out_b bytes out each (equal contiguous shares, one per GPU, all
  # copies at once: the rates the links carry together)
  bound <- function(in_b, out_b, count, gpus) {
    share <- ceiling(count / length(gpus))
    r <- rate(in_b * share, gpus)
    if (is.null(r)) return(NA_real_)
    count / max(in_b * count / (r$h2d * 1e9), out_b * count / (r$d2h * 1e9))
  }
  list(bound = bound, available = !is.null(rate_fun),
       measured = function() cache, problems = function() problems)
}

# Bytes per system that must cross, in and out (elements of elem bytes).
solve_bytes <- function(n, elem) c(inp = (n * (n + 1) / 2 + n) * elem, out = n * elem + 4)
eigen_bytes <- function(n, elem, vectors)
  c(inp = n * (n + 1) / 2 * elem, out = (n + if (vectors) n * n else 0) * elem + 4)

# ---- checks ------------------------------------------------------------------

eps_of <- function(precision) if (precision == "double") .Machine$double.eps else 2^-23

# The residual and the difference from base R solve() on the systems idx.
check_solve <- function(X, A, B, idx) {
  if (!is.matrix(X) || ncol(X) != ncol(B)) return(list(residual = NA, vs_base = NA, why = "no n x batch result"))
  if (anyNA(X[, idx])) return(list(residual = NA, vs_base = NA, why = "NA in the solution"))
  m <- vapply(idx, function(k) {
    a <- A[, , k]; b <- B[, k]; x <- X[, k]
    ref <- solve(a, b)
    c(max(abs(b - drop(a %*% x))) / (max(rowSums(abs(a))) * max(abs(x)) + max(abs(b))),
      max(abs(x - ref)) / max(abs(ref)))
  }, numeric(2))
  list(residual = max(m[1, ]), vs_base = max(m[2, ]), why = "")
}

# The residual (vectors) and the difference of the values from eigen() on idx.
check_eigen <- function(res, A, idx, vectors) {
  if (anyNA(res$values[, idx])) return(list(residual = NA, vs_base = NA, why = "NA in the values"))
  m <- vapply(idx, function(k) {
    a <- A[, , k]; w <- res$values[, k]
    ref <- eigen(a, symmetric = TRUE, only.values = TRUE)$values
    r <- if (vectors) {
      V <- res$vectors[, , k]
      max(norm(a %*% V - V %*% diag(w), "F") / norm(a, "F"), norm(crossprod(V) - diag(nrow(a)), "F"))
    } else NA_real_
    c(r, max(abs(w - ref)) / max(abs(ref)))
  }, numeric(2))
  list(residual = if (vectors) max(m[1, ]) else NA_real_, vs_base = max(m[2, ]), why = "")
}

# "" when a check passes, else why not.
verdict <- function(chk, precision) {
  if (nzchar(chk$why)) return(chk$why)
  bound <- 100 * N * eps_of(precision)
  if (!is.na(chk$residual) && !(chk$residual <= bound)) return(sprintf("residual %.1e > %.1e", chk$residual, bound))
  if (!(chk$vs_base <= bound * 2 * N)) return(sprintf("difference from base R %.1e > %.1e", chk$vs_base, bound * 2 * N))
  ""
}

# ---- one row -----------------------------------------------------------------

# Times f() (reps calls after a warm-up), checks its last result with
# check(result) and returns one row: label, device, systems, median seconds,
# systems/s, the link bound (systems/s, NA when not measured), the check and
# the individual times. An error becomes a FAIL row.
run_row <- function(label, device, count, f, check, precision = "double", bound = function() NA_real_,
                    reps = REPS) {
  cat(sprintf("timing: %s, %s, %s systems ...\n", label, device, fmt_count(count)))
  out <- tryCatch({
    t <- time_calls(f, reps)
    served <- attr(t$result, "device")
    chk <- check(t$result)
    methods <- attr(t$result, "method")
    t$result <- NULL
    list(t = t, chk = chk, why = verdict(chk, precision), served = served,
         methods = if (is.null(methods)) "" else paste(names(tab <- table(methods)), tab, collapse = ", "))
  }, error = function(e) list(t = NULL, chk = list(residual = NA, vs_base = NA), why = paste("error:", conditionMessage(e)),
                               served = NULL, methods = ""))
  invisible(gc())
  if (nzchar(out$why)) cat(sprintf("\n*** FAIL: %s, %s: %s ***\n\n", label, device, out$why))
  if (!is.null(out$served) && !identical(out$served, device)) label <- sprintf("%s (served by %s)", label, out$served)
  seconds <- if (is.null(out$t)) NA_real_ else out$t$seconds
  data.frame(label = label, device = device, systems = count, seconds = seconds, rate = count / seconds,
             bound = if (is.null(out$t)) NA_real_ else bound(), ratio = "", residual = out$chk$residual,
             vs_base = out$chk$vs_base, why = out$why, methods = out$methods,
             runs = if (is.null(out$t)) "-" else paste(sprintf("%.4f", out$t$all), collapse = " "),
             stringsAsFactors = FALSE)
}

# Sets the ratio text of row `at` to row i's systems/s over row j's.
with_ratio <- function(rows, at, i, j, what) {
  rows$ratio[at] <- sprintf("%.2fx %s", rows$rate[i] / rows$rate[j], what)
  rows
}

# ---- printing ------------------------------------------------------------------

fmt_count <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)
fmt_g <- function(x, digits = 3) ifelse(is.na(x), "-", formatC(x, digits = digits, format = "g"))
fmt_e <- function(x) ifelse(is.na(x), "-", sprintf("%.1e", x))

# A markdown table of rows (seconds, or milliseconds when ms = TRUE).
print_table <- function(title, rows, ms = FALSE) {
  if (!nrow(rows)) return(invisible())
  time_col <- if (ms) "median ms" else "median s"
  time <- if (ms) sprintf("%.3f", rows$seconds * 1e3) else sprintf("%.4f", rows$seconds)
  bound_col <- if (ms) "link bound ms" else "link bound systems/s"
  bound <- if (ms) ifelse(is.na(rows$bound), "-", sprintf("%.3f", rows$systems / rows$bound * 1e3)) else fmt_g(rows$bound)
  pct <- ifelse(is.na(rows$bound), "-", sprintf("%.0f %%", 100 * rows$rate / rows$bound))
  check <- ifelse(nzchar(rows$why), paste("FAIL:", rows$why), "ok")
  cat("\n", title, "\n\n", sep = "")
  cat(sprintf("| call | device | systems | %s | systems/s | %s | %% of bound | ratio | residual | vs base R | check |\n",
              time_col, bound_col),
      "|---|---|---|---|---|---|---|---|---|---|---|\n", sep = "")
  cat(sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", rows$label, rows$device,
              fmt_count(rows$systems), time, fmt_g(rows$rate), bound, pct,
              ifelse(nzchar(rows$ratio), rows$ratio, "-"), fmt_e(rows$residual), fmt_e(rows$vs_base), check),
      sep = "")
  cat("\n", sprintf("- %s, %s: runs (s): %s%s\n", rows$label, rows$device, rows$runs,
                    ifelse(nzchar(rows$methods), paste0("; methods: ", rows$methods), "")), sep = "")
}

# ---- sections ------------------------------------------------------------------

# Rows 1, 2, 3, 6 (solves) and 7 on `count` systems.
solve_section <- function(count, pool, gpus, meter, notes) {
  need <- 8 * count * (N * N + 3 * N) / 1e9 * 1.1
  avail <- meminfo_gb("MemAvailable")
  if (!is.na(avail) && need > avail)
    stop(sprintf("%s systems need about %.1f GB of RAM, %.1f GB available: use --systems", fmt_count(count), need, avail),
         call. = FALSE)
  cat(sprintf("generating %s SPD systems (%.1f GB) ...\n", fmt_count(count), 8 * count * N * N / 1e9))
  A <- replicate_batch(pool, count)
  B <- make_rhs(N, count)
  idx <- sample_of(count)
  chk <- function(X) check_solve(X, A, B, idx)
  bound_of <- function(precision, ids) {
    elem <- if (precision == "double") 8 else 4
    b <- solve_bytes(N, elem)
    function() if (length(ids)) meter$bound(b[["inp"]], b[["out"]], count, gpus_of_call(ids, count)) else NA_real_
  }
  ldlt <- function(device, precision = "double") function() bsym_solve(A, B, method = "ldlt", device = device, precision = precision)
  default <- function(device) function() bsym_solve(A, B, device = device)
  gpu <- length(gpus) > 0
  rows <- NULL
  add <- function(r) rows <<- rbind(rows, r)
  if (gpu) {
    add(run_row("bsym_solve ldlt, double", "gpu", count, ldlt("gpu"), chk, bound = bound_of("double", gpus)))
    add(run_row("bsym_solve ldlt, single", "gpu", count, ldlt("gpu", "single"), chk, "single", bound_of("single", gpus)))
    rows <- with_ratio(rows, 2, 2, 1, "single/double")
    add(run_row("bsym_solve default, double", "gpu", count, default("gpu"), chk, bound = bound_of("double", gpus)))
  }
  # Row 6: the CPU, its ratio cell the GPU row's systems/s over its own.
  add(run_row("bsym_solve ldlt, double", "cpu", count, ldlt("cpu"), chk))
  if (gpu) rows <- with_ratio(rows, nrow(rows), 1, nrow(rows), "GPU/CPU")
  add(run_row("bsym_solve default, double", "cpu", count, default("cpu"), chk))
  if (gpu) rows <- with_ratio(rows, nrow(rows), 3, nrow(rows), "GPU/CPU")
  # Row 7: one GPU against all (rows 1 and 3, which ran with the default).
  if (length(gpus) >= 2) {
    one <- gpus[1]
    options(batchsym.gpus = one)
    used <- bsym_device_info()$gpus
    if (identical(as.integer(used), as.integer(one))) {
      for (r in list(list(label = "bsym_solve ldlt, double", f = ldlt("gpu"), all = 1),
                     list(label = "bsym_solve default, double", f = default("gpu"), all = 3))) {
        add(run_row(sprintf("%s, GPU %d only", r$label, one), "gpu", count, r$f, chk,
                    bound = bound_of("double", one)))
        rows <- with_ratio(rows, nrow(rows), r$all, nrow(rows), sprintf("all %d GPUs / GPU %d", length(gpus), one))
      }
    } else {
      notes$add(sprintf("row 7 (one GPU against all) skipped: options(batchsym.gpus = %d) left bsym_device_info()$gpus = %s",
                        one, if (is.null(used)) "NULL (not in this build)" else paste(used, collapse = ", ")))
    }
    options(batchsym.gpus = NULL)
  } else if (gpu) {
    notes$add(sprintf("row 7 (one GPU against all) skipped: %d GPU in use (bsym_device_info()$gpus)", length(gpus)))
  }
  rm(A, B)
  invisible(gc())
  rows
}

# Rows 4 and 6 (eigen) on `count` matrices.
eigen_section <- function(count, pool, gpus, meter) {
  cat(sprintf("generating %s SPD matrices for the eigensolver ...\n", fmt_count(count)))
  A <- replicate_batch(pool, count)
  idx <- sample_of(count)
  rows <- NULL
  add <- function(r) rows <<- rbind(rows, r)
  for (vectors in c(TRUE, FALSE)) {
    label <- if (vectors) "bsym_eigen, vectors" else "bsym_eigen, vectors = FALSE"
    chk <- function(res) check_eigen(res, A, idx, vectors)
    f <- function(device) function() bsym_eigen(A, vectors = vectors, device = device)
    b <- eigen_bytes(N, 8, vectors)
    if (length(gpus)) {
      add(run_row(label, "gpu", count, f("gpu"), chk,
                  bound = function() meter$bound(b[["inp"]], b[["out"]], count, gpus_of_call(gpus, count))))
      i <- nrow(rows)
    }
    add(run_row(label, "cpu", count, f("cpu"), chk))
    if (length(gpus)) rows <- with_ratio(rows, nrow(rows), i, nrow(rows), "GPU/CPU")
  }
  rm(A)
  invisible(gc())
  rows
}

# Row 5: the latency of one call of LAT_SYSTEMS systems on the GPU.
latency_section <- function(pool, gpus, meter) {
  count <- LAT_SYSTEMS
  A <- replicate_batch(pool, count)
  B <- make_rhs(N, count)
  idx <- sample_of(count)
  chk <- function(X) check_solve(X, A, B, idx)
  b <- solve_bytes(N, 8)
  bound <- function() meter$bound(b[["inp"]], b[["out"]], count, gpus_of_call(gpus, count))
  rbind(run_row("bsym_solve ldlt, double", "gpu", count, function() bsym_solve(A, B, method = "ldlt", device = "gpu"),
                chk, bound = bound, reps = LAT_REPS),
        run_row("bsym_solve default, double", "gpu", count, function() bsym_solve(A, B, device = "gpu"),
                chk, bound = bound, reps = LAT_REPS))
}

# Row 8: the GPU scaling. Each call on the first k GPUs in use, k = 1, 2, 4,
# ... and all, its ratio over k = 1 and its result compared with k = 1's.
SCALING_REPS <- 3L
scaling_section <- function(systems, matrices, pool, gpus, meter) {
  ks <- unique(c(2^(0:4)[2^(0:4) < length(gpus)], length(gpus)))
  rows <- NULL
  add <- function(r) rows <<- rbind(rows, r)
  # one call f at every k: check(result) extended by the comparison with k = 1
  over_gpus <- function(label, count, f, check, b) {
    ref <- NULL
    first <- NULL
    for (k in ks) {
      use <- gpus[seq_len(k)]
      options(batchsym.gpus = use)
      same_check <- function(res) {
        chk <- check(res)
        if (is.null(ref)) ref <<- res
        else if (!nzchar(chk$why) && !same_result(res, ref)) chk$why <- "not identical to the one-GPU result"
        chk
      }
      add(run_row(sprintf("%s, %d GPU%s", label, k, if (k > 1) "s" else ""), "gpu", count, f, same_check,
                  bound = function() meter$bound(b[["inp"]], b[["out"]], count, gpus_of_call(use, count)),
                  reps = SCALING_REPS))
      if (is.null(first)) first <- nrow(rows)
      else rows <<- with_ratio(rows, nrow(rows), nrow(rows), first, sprintf("%d GPUs / 1", k))
    }
    options(batchsym.gpus = NULL)
    ref <- NULL
    invisible(gc())
  }
  if (systems > 0) {
    cat(sprintf("generating %s SPD systems (%.1f GB) ...\n", fmt_count(systems), 8 * systems * N * N / 1e9))
    A <- replicate_batch(pool, systems)
    B <- make_rhs(N, systems)
    idx <- sample_of(systems)
    chk <- function(X) check_solve(X, A, B, idx)
    b <- solve_bytes(N, 8)
    over_gpus("bsym_solve ldlt, double", systems, function() bsym_solve(A, B, method = "ldlt", device = "gpu"), chk, b)
    over_gpus("bsym_solve default, double", systems, function() bsym_solve(A, B, device = "gpu"), chk, b)
    rm(A, B)
    invisible(gc())
  }
  if (matrices > 0) {
    cat(sprintf("generating %s SPD matrices for the eigensolver ...\n", fmt_count(matrices)))
    A <- replicate_batch(pool, matrices)
    idx <- sample_of(matrices)
    over_gpus("bsym_eigen, vectors", matrices, function() bsym_eigen(A, device = "gpu"),
              function(res) check_eigen(res, A, idx, TRUE), eigen_bytes(N, 8, TRUE))
    rm(A)
    invisible(gc())
  }
  rows
}

# Two results (a solution matrix, or bsym_eigen's list) hold the same values.
same_result <- function(a, b) {
  if (is.list(a)) return(all(vapply(c("values", "vectors"), function(k) same_result(a[[k]], b[[k]]), TRUE)))
  identical(dim(a), dim(b)) && !anyNA(a) && all(a == b)
}

# ---- main --------------------------------------------------------------------

main <- function() {
  args <- commandArgs(trailingOnly = TRUE)
  opt <- parse_args(args)
  set.seed(20261126)
  options(batchsym.gpus = NULL, batchsym.threads = 0L) # every visible GPU, every CPU thread
  notes <- local({ v <- character(); list(add = function(x) v <<- c(v, x), get = function() v) })

  info <- bsym_device_info()
  gpus <- gpus_in_use(info)
  cpu <- batchsym:::cpu_info()
  meter <- link_meter()
  if (!length(gpus)) {
    notes$add(sprintf("GPU rows (1-5, 7) skipped: no usable GPU (%s)", if (nzchar(info$reason)) info$reason else "none found"))
  } else {
    if (is.null(info$gpus))
      notes$add("bsym_device_info()$gpus is not in this build: every visible GPU assumed in use; row 7 needs options(batchsym.gpus)")
    if (!meter$available)
      notes$add("host-link bound not measured: batchsym:::link_rate is not in this build")
  }
  commit <- tryCatch(suppressWarnings(system("git rev-parse --short HEAD 2>/dev/null", intern = TRUE)),
                     error = function(e) character())
  header <- c(
    sprintf("date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S UTC", tz = "UTC")),
    sprintf("GPU: %s", if (length(gpus)) sprintf("%s; ids in use: %s", info$name, paste(gpus, collapse = ", "))
                       else paste("none usable -", info$reason)),
    sprintf("CPU: %d threads (batchsym:::cpu_info()), %s; RAM %.0f GB", cpu$threads, cpu$simd, meminfo_gb("MemTotal")),
    sprintf("%s; batchsym %s%s", R.version.string, as.character(packageVersion("batchsym")),
            if (length(commit)) paste0(", commit ", commit[1]) else ""),
    sprintf("command: Rscript inst/bench/host_path.R %s", paste(args, collapse = " ")),
    sprintf("n = %d, one right-hand side; median of %d calls after a warm-up call (latency: %d calls)", N, REPS, LAT_REPS))
  cat("host_path.R\n", paste0("  ", header, "\n"), sep = "")

  pool <- spd_pool(N, POOL)
  solves <- eigens <- latency <- scaling <- NULL
  if (opt$scaling) {
    if (length(gpus) >= 2) scaling <- scaling_section(opt$systems, opt$eigen, pool, gpus, meter)
    else notes$add(sprintf("--scaling needs 2 or more GPUs in use (%d here): nothing timed", length(gpus)))
  } else {
    solves <- solve_section(opt$systems, pool, gpus, meter, notes)
    if (opt$eigen > 0) eigens <- eigen_section(opt$eigen, pool, gpus, meter)
    latency <- if (length(gpus)) latency_section(pool, gpus, meter)
  }

  if (!is.null(solves)) print_table(sprintf("## Solves, %s systems, n = %d", fmt_count(opt$systems), N), solves)
  if (!is.null(eigens)) print_table(sprintf("## Eigendecompositions, %s matrices, n = %d", fmt_count(opt$eigen), N), eigens)
  if (!is.null(latency)) print_table(sprintf("## Latency of one call of %s systems (median of %d)", fmt_count(LAT_SYSTEMS), LAT_REPS),
                                     latency, ms = TRUE)
  if (!is.null(scaling)) print_table(sprintf("## GPU scaling, n = %d, double (median of %d calls)", N, SCALING_REPS), scaling)
  m <- meter$measured()
  if (length(m)) {
    cat("\n## Host link (batchsym:::link_rate, pinned copies, best of 3; several GPUs: all at once, bytes per GPU)\n\n| GPUs | bytes | h2d GB/s | d2h GB/s |\n|---|---|---|---|\n")
    for (r in m) cat(sprintf("| %s | %s | %.1f | %.1f |\n", r$gpu, fmt_count(r$bytes), r$h2d, r$d2h))
  }
  for (p in meter$problems()) notes$add(paste("host-link bound not measured:", p))
  if (length(notes$get())) cat("\nNotes:\n", paste0("- ", notes$get(), "\n"), sep = "")
  failed <- any(nzchar(c(solves$why, eigens$why, latency$why, scaling$why)))
  if (failed) {
    cat("\n*** FAIL: a call failed or its result failed its check (see above) ***\n")
    quit(status = 1)
  }
}

main()
