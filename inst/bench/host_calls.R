# host_calls.R -- the calls of issue 11's Octave-against-R comparison, timed
# from R: bsym_solve (default method) at n = 32 in double with 1e4 and 1e5
# systems, and bsym_eigen with vectors on 1e5 matrices; and, at the size of
# issue 13's target, bsym_solve (method "ldlt") on 1e6 systems (skipped, with
# a note, on a machine with less than 48 GB of RAM: its A alone is 8.2 GB);
# host arrays in and out, median of 5 calls after one warm-up call (which
# creates the context). host_calls.m times the same calls from Octave.
#
#   Rscript inst/bench/host_calls.R [device]    (device: gpu (default), cpu, auto)
#   BSYM_BENCH_QUICK=1 Rscript inst/bench/host_calls.R cpu   # a smoke test:
#       1e3 and 1e4 systems, eigen on 1e4, ldlt on 2e4 (figures not to record)
# Prints one markdown row per call (notes, if any, after the table).
suppressMessages(library(batchsym))
args <- commandArgs(TRUE)
device <- if (length(args) >= 1) args[1] else "gpu"
quick <- identical(Sys.getenv("BSYM_BENCH_QUICK"), "1")
n <- 32L
# random symmetric, diagonally dominant (so positive definite) batches
spd <- function(batch) {
  X <- array(rnorm(n * n * batch), c(n, n, batch))
  A <- X + aperm(X, c(2L, 1L, 3L))
  d <- seq.int(1L, n * n, by = n + 1L)
  for (k in seq_len(batch)) A[, , k][d] <- A[, , k][d] + 2 * n
  A
}
# The same kind of batch for a large size: 4096 distinct matrices from spd(),
# repeated in turn to `batch` (one allocation of A, no temporary copies).
spd_rep <- function(batch, distinct = 4096L) {
  A <- rep_len(as.vector(spd(min(distinct, batch))), n * n * batch)
  dim(A) <- c(n, n, batch)
  A
}
# MemTotal of /proc/meminfo in GB (NA where there is none).
mem_total_gb <- function() {
  l <- grep("^MemTotal:", tryCatch(readLines("/proc/meminfo"), error = function(e) character()), value = TRUE)
  if (length(l)) as.numeric(gsub("[^0-9]", "", l[1])) * 1024 / 1e9 else NA_real_
}
# The result is kept until the clock has stopped and freed outside it (gc()
# before each call), as host_calls.m does: freeing 819 MB of vectors takes
# a noticeable part of a call.
time_call <- function(f, reps = 5L) {
  r <- f() # warm-up
  t <- numeric(reps)
  for (i in seq_len(reps)) {
    r <- NULL
    invisible(gc())
    t[i] <- system.time(r <- f())[["elapsed"]]
  }
  median(t)
}
set.seed(1)
rows <- character()
notes <- character()
for (batch in if (quick) c(1e3, 1e4) else c(1e4, 1e5)) {
  A <- spd(batch)
  B <- matrix(rnorm(n * batch), n, batch)
  t <- time_call(function() bsym_solve(A, B, device = device))
  rows <- c(rows, sprintf("| R | bsym_solve | %g | %s | %.4f | %.3g |", batch, device, t, batch / t))
}
t <- time_call(function() bsym_eigen(A, device = device))
rows <- c(rows, sprintf("| R | bsym_eigen | %g | %s | %.4f | %.3g |", dim(A)[3], device, t, dim(A)[3] / t))
# issue 13's size: method "ldlt", 1e6 systems
rm(A, B)
invisible(gc())
batch <- if (quick) 2e4 else 1e6
ram <- mem_total_gb()
if (!quick && !is.na(ram) && ram < 48) {
  notes <- c(notes, sprintf("bsym_solve ldlt on %g systems skipped: %.0f GB of RAM, less than 48 GB", batch, ram))
} else {
  A <- spd_rep(batch)
  B <- matrix(rnorm(n * batch), n, batch)
  t <- time_call(function() bsym_solve(A, B, method = "ldlt", device = device))
  rows <- c(rows, sprintf("| R | bsym_solve ldlt | %g | %s | %.4f | %.3g |", batch, device, t, batch / t))
  rm(A, B)
}
cat("| from | call | systems | device | median s | systems/s |\n|---|---|---|---|---|---|\n")
cat(rows, sep = "\n")
if (length(notes)) cat(paste("\nnote:", notes), sep = "")
cat("\n")
