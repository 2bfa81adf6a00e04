# heev.R -- complex Hermitian eigendecompositions end to end from R (issue
# 16): bsym_eigen() with vectors on a complex double batch, host arrays in
# and out, on the GPU and on the CPU, against a base-R loop of
# eigen(symmetric = TRUE) (timed on 200 matrices, as a rate). Median of 3
# calls after one warm-up call; gc() before each, the result freed outside
# the clock.
#
#   Rscript inst/bench/heev.R [n,n,...] [batch]     (default 8,32,64,128 and
#       2e4 systems; prints one markdown row per n)
suppressMessages(library(batchsym))
args <- commandArgs(TRUE)
ns <- if (length(args) >= 1) as.integer(strsplit(args[1], ",")[[1]]) else c(8L, 32L, 64L, 128L)
batch <- if (length(args) >= 2) as.integer(args[2]) else 20000L

herm <- function(n, batch) {
  X <- array(complex(real = rnorm(n * n * batch), imaginary = rnorm(n * n * batch)), c(n, n, batch))
  (X + Conj(aperm(X, c(2L, 1L, 3L)))) / 2
}
time_call <- function(f, reps = 3L) {
  f() # warm-up (and the context)
  ts <- numeric(reps)
  for (r in seq_len(reps)) {
    gc()
    t0 <- proc.time()[["elapsed"]]
    res <- f()
    ts[r] <- proc.time()[["elapsed"]] - t0
    rm(res)
  }
  median(ts)
}

cat(sprintf("heev.R on %s, %d CPU cores, batchsym %s, %s UTC\n\n", Sys.info()[["nodename"]],
            parallel::detectCores(), as.character(utils::packageVersion("batchsym")),
            format(Sys.time(), tz = "UTC")))
cat("| n | batch | GPU s | GPU matrices/s | CPU s | CPU matrices/s | base-R eigen() loop matrices/s | GPU / CPU | GPU / base R |\n")
cat("|---|---|---|---|---|---|---|---|---|\n")
set.seed(16)
for (n in ns) {
  A <- herm(n, batch)
  gpu <- if (bsym_gpu_available()) time_call(function() bsym_eigen(A, device = "gpu")) else NA_real_
  cpu <- time_call(function() bsym_eigen(A, device = "cpu"))
  m <- min(200L, batch)
  t0 <- proc.time()[["elapsed"]]
  for (k in seq_len(m)) eigen(A[, , k], symmetric = TRUE)
  base <- m / (proc.time()[["elapsed"]] - t0)
  cat(sprintf("| %d | %d | %.4f | %.3g | %.4f | %.3g | %.3g | %.2f | %.1f |\n", n, batch, gpu, batch / gpu, cpu,
              batch / cpu, base, cpu / gpu, batch / gpu / base))
}
