# indef.R -- issue 14 end to end from R: bsym_solve() with the methods "ldlt",
# "bunch-kaufman" and "aasen" on real symmetric and complex Hermitian batches
# (complex: also "tridiag", "auto" and "eigen", on the GPU too since session 37),
# double and single, against a base-R loop of solve() on the same systems.
#
#   Rscript inst/bench/indef.R [--n 8,16,32,64] [--systems 1e4] [--base 500]
#                              [--device cpu] [--reps 3] [--input real,complex] [--quick]
#
# Inputs: random Hermitian (complex) or symmetric (real) indefinite matrices
# (M + M^H) / 2, M standard normal, one right-hand side each; "ldlt" runs on
# positive definite ones (M M^H / n + I) because it does not pivot, and so
# does complex "auto" a second time ("auto, definite"). Every
# figure is the median elapsed time of --reps calls after a warm-up call;
# systems/s = systems / that time. The base-R loop is solve(A[, , k], B[, k])
# over the first --base systems (LAPACK's zgesv / dgesv through R), its
# systems/s the yardstick of the "x base R" column. Each result is checked
# before it is printed: the largest backward error
# ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) over 50 systems must be
# at most 100 n eps of the working precision, else FAIL and exit status 1.
# Also printed: the ratios between the methods (the seed paper's MAGMA
# figures: no pivoting 3-5x Bunch-Kaufman, Bunch-Kaufman 2.5-3x Aasen).

suppressPackageStartupMessages(library(batchsym))

args <- commandArgs(trailingOnly = TRUE)
opt <- list(n = c(8L, 16L, 32L, 64L), systems = 1e4, base = 500, device = "cpu", reps = 3L,
            input = c("real", "complex"))
if ("--quick" %in% args) opt <- modifyList(opt, list(n = c(8L, 32L), systems = 2000, base = 100))
args <- args[args != "--quick"]
for (i in which(seq_along(args) %% 2 == 1)) {
  key <- sub("^--", "", args[i])
  if (!key %in% names(opt) || i == length(args)) stop("usage: see the header of inst/bench/indef.R", call. = FALSE)
  v <- args[i + 1L]
  opt[[key]] <- switch(key, n = as.integer(strsplit(v, ",")[[1]]), device = v,
                       reps = as.integer(v), input = strsplit(v, ",")[[1]], as.numeric(v))
}

now <- function() as.numeric(Sys.time())
median_time <- function(f) {
  f()
  t <- numeric(opt$reps)
  for (r in seq_len(opt$reps)) {
    invisible(gc())
    t0 <- now()
    f()
    t[r] <- now() - t0
  }
  median(t)
}

make_batch <- function(n, count, complex, spd) {
  M <- array(rnorm(n * n * count), c(n, n, count))
  if (complex) M <- M + 1i * array(rnorm(n * n * count), c(n, n, count))
  H <- aperm(if (complex) Conj(M) else M, c(2L, 1L, 3L))
  if (!spd) return((M + H) / 2)
  A <- array(if (complex) 0i else 0, c(n, n, count))
  for (k in seq_len(count)) A[, , k] <- M[, , k] %*% H[, , k] / n + diag(n)
  A
}

backward <- function(A, B, X, idx) {
  max(vapply(idx, function(k) {
    a <- A[, , k]; b <- B[, k]; x <- X[, k]
    max(Mod(b - a %*% x)) / (max(rowSums(Mod(a))) * max(Mod(x)) + max(Mod(b)))
  }, 0))
}

rows <- list()
failed <- FALSE
set.seed(2026)
cat(sprintf("indef.R: %s, %d threads, batchsym %s, %s\n", opt$device, batchsym:::cpu_info()$threads,
            as.character(packageVersion("batchsym")), format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")))
for (complex in c(FALSE, TRUE)[c("real", "complex") %in% opt$input]) for (n in opt$n) {
  kind <- if (complex) "complex" else "real"
  A <- make_batch(n, opt$systems, complex, spd = FALSE)
  P <- make_batch(n, opt$systems, complex, spd = TRUE)
  B <- matrix(rnorm(n * opt$systems), n)
  if (complex) B <- B + 1i * matrix(rnorm(n * opt$systems), n)
  nb <- min(opt$base, opt$systems)
  base_s <- median_time(function() for (k in seq_len(nb)) solve(A[, , k], B[, k]))
  base_rate <- nb / base_s
  rates <- c()
  # complex input: also the methods that reach complex through the Householder
  # reduction (on the GPU too since session 37; the real ones are bench_r.R's)
  # ("auto, definite": method "auto" on the positive definite batch, where
  # its certified LDL^H start keeps every system)
  methods <- c("ldlt", "bunch-kaufman", "aasen", if (complex) c("tridiag", "auto", "auto, definite", "eigen"))
  for (method in methods) for (precision in c("double", "single")) {
    M <- if (method %in% c("ldlt", "auto, definite")) P else A
    f <- function() bsym_solve(M, B, method = sub(", definite$", "", method), precision = precision,
                               device = opt$device)
    X <- f()
    eps <- if (precision == "double") .Machine$double.eps else 2^-23
    be <- backward(M, B, X, unique(round(seq(1, opt$systems, length.out = 50))))
    ok <- is.finite(be) && be <= 100 * n * eps && all(attr(X, "info") == 0L)
    if (!ok) failed <- TRUE
    s <- median_time(f)
    rate <- opt$systems / s
    if (precision == "double") rates[method] <- rate
    rows[[length(rows) + 1L]] <- data.frame(
      input = kind, n = n, method = method, precision = precision, systems = opt$systems,
      seconds = s, rate = rate, vs_base = rate / base_rate, backward = be,
      check = if (ok) "ok" else "FAIL", stringsAsFactors = FALSE)
  }
  rows[[length(rows) + 1L]] <- data.frame(
    input = kind, n = n, method = "base R solve() loop", precision = "double", systems = nb,
    seconds = base_s, rate = base_rate, vs_base = 1, backward = NA, check = "-", stringsAsFactors = FALSE)
  cat(sprintf("%s n = %d: ldlt / bunch-kaufman %.2f, bunch-kaufman / aasen %.2f (double)\n", kind, n,
              rates[["ldlt"]] / rates[["bunch-kaufman"]], rates[["bunch-kaufman"]] / rates[["aasen"]]))
}
tab <- do.call(rbind, rows)
cat("\n| input | n | method | precision | systems | median s | systems/s | x base R | backward error | check |\n",
    "|---|---|---|---|---|---|---|---|---|---|\n", sep = "")
cat(sprintf("| %s | %d | %s | %s | %s | %.4f | %.3g | %.1f | %s | %s |\n", tab$input, tab$n, tab$method,
            tab$precision, format(tab$systems, scientific = FALSE), tab$seconds, tab$rate, tab$vs_base,
            ifelse(is.na(tab$backward), "-", sprintf("%.1e", tab$backward)), tab$check), sep = "")
if (failed) {
  cat("\n*** FAIL: a result failed its check ***\n")
  quit(status = 1)
}
