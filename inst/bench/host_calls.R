# host_calls.R -- the calls of issue 11's Octave-against-R comparison, timed
# from R: bsym_solve (default method) at n = 32 in double with 1e4 and 1e5
# systems, and bsym_eigen with vectors on 1e5 matrices; host arrays in and
# out, median of 5 calls after one warm-up call (which creates the context).
# host_calls.m times the same calls from Octave.
#
#   Rscript inst/bench/host_calls.R [device]    (device: gpu (default), cpu, auto)
# Prints one markdown row per call.
suppressMessages(library(batchsym))
args <- commandArgs(TRUE)
device <- if (length(args) >= 1) args[1] else "gpu"
n <- 32L
# random symmetric, diagonally dominant (so positive definite) batches
spd <- function(batch) {
  X <- array(rnorm(n * n * batch), c(n, n, batch))
  A <- X + aperm(X, c(2L, 1L, 3L))
  d <- seq.int(1L, n * n, by = n + 1L)
  for (k in seq_len(batch)) A[, , k][d] <- A[, , k][d] + 2 * n
  A
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
for (batch in c(1e4, 1e5)) {
  A <- spd(batch)
  B <- matrix(rnorm(n * batch), n, batch)
  t <- time_call(function() bsym_solve(A, B, device = device))
  rows <- c(rows, sprintf("| R | bsym_solve | %g | %s | %.4f | %.3g |", batch, device, t, batch / t))
}
t <- time_call(function() bsym_eigen(A, device = device))
rows <- c(rows, sprintf("| R | bsym_eigen | %g | %s | %.4f | %.3g |", 1e5, device, t, 1e5 / t))
cat("| from | call | systems | device | median s | systems/s |\n|---|---|---|---|---|---|\n")
cat(rows, sep = "\n")
cat("\n")
