# batchsym demo: 100 000 random symmetric positive definite 32 x 32 systems
# solved in one call, checked, and timed against a base-R loop of solve().
library(batchsym)
set.seed(42)
n <- 32L
batch <- 100000L
cat(sprintf("batchsym demo: %d random SPD %d x %d systems\n", batch, n, n))

# Random symmetric matrices with entries in (-1, 1), made positive definite by
# a diagonal that dominates every row; one right-hand side per system.
A <- array(runif(n * n * batch, -1, 1), c(n, n, batch))
A <- (A + aperm(A, c(2L, 1L, 3L))) / 2
for (i in seq_len(n)) A[i, i, ] <- A[i, i, ] + n
B <- matrix(rnorm(n * batch), n, batch)

info <- bsym_device_info()
cat(sprintf("GPU: %s\n", if (info$gpu_available) info$name else paste("none -", info$reason)))
elapsed <- system.time(X <- bsym_solve(A, B))[["elapsed"]]
cat(sprintf("device used: %s; paths: %s\n", attr(X, "device"),
            paste(names(table(attr(X, "method"))), table(attr(X, "method")), sep = " ", collapse = ", ")))
cat(sprintf("time: %.3f s (%.3g systems/s)\n", elapsed, batch / max(elapsed, 1e-9)))

# Backward error ||b - A x|| / (||A|| ||x|| + ||b||) of every system (inf norms),
# computed column by column over the whole batch.
R <- B
normA <- 0
for (j in seq_len(n)) {
  R <- R - A[, j, ] * rep(X[j, ], each = n)
}
normA <- apply(abs(A), 3L, function(a) max(rowSums(a)))
berr <- apply(abs(R), 2L, max) / (normA * apply(abs(X), 2L, max) + apply(abs(B), 2L, max))
cat(sprintf("largest backward error: %.3g (n * eps = %.3g); failed systems: %d\n",
            max(berr), n * .Machine$double.eps, sum(attr(X, "info") != 0L)))

# The same systems one by one with base R on a sample, for the speed-up.
sample_size <- 2000L
t_base <- system.time(for (k in seq_len(sample_size)) solve(A[, , k], B[, k]))[["elapsed"]]
per_base <- t_base / sample_size
cat(sprintf("base-R loop of solve(): %.3g systems/s (on %d systems)\n", 1 / per_base, sample_size))
cat(sprintf("speed-up of bsym_solve over the base-R loop: %.1fx\n", per_base * batch / elapsed))
