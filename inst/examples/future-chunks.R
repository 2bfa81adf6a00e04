# batchsym past one machine: R's future framework is the engine.
#
# A huge batch is cut into chunks; each chunk is one bsym_*() call on a
# future worker. plan() decides where the workers are: background R sessions
# on this machine (multisession), forked processes (multicore), other
# machines (cluster), or jobs of an HPC scheduler through the batchtools-backed
# plans of future.batchtools (plan(batchtools_slurm) etc.). batchsym adds no
# scheduler of its own.
#
# Ship little to the workers: here the chunks of A and B travel with the
# futures, which is right when they are small; for a batch too large for one
# machine, let each worker read or generate its own chunk from its index.
#
# One GPU per worker when several workers share a node: by the worker's rank,
# options(batchsym.gpus = (rank - 1) %% n_gpus), n_gpus the GPUs the worker
# sees (ids as CUDA numbers them after CUDA_VISIBLE_DEVICES). Without a GPU
# the workers solve on their CPUs. (A single session uses every GPU of its
# machine by itself: a large batch is spread over them.)
#
#   Rscript inst/examples/future-chunks.R [workers] [batch]
library(batchsym)
library(future.apply)

args <- commandArgs(trailingOnly = TRUE)
workers <- if (length(args) >= 1) as.integer(args[1]) else 2L
batch <- if (length(args) >= 2) as.integer(args[2]) else 40000L
n <- 32L
set.seed(1)
A <- array(runif(n * n * batch, -1, 1), c(n, n, batch))
A <- (A + aperm(A, c(2L, 1L, 3L))) / 2
for (i in seq_len(n)) A[i, i, ] <- A[i, i, ] + n
B <- matrix(rnorm(n * batch), n, batch)

plan(multisession, workers = workers)

# Chunk k of the batch: system indices, one chunk per worker (more chunks than
# workers balance better when chunks differ in cost).
chunks <- split(seq_len(batch), cut(seq_len(batch), workers, labels = FALSE))

# Chunk `rank` on its worker, on GPU (rank - 1) %% n_gpus of the worker's node
# when it has GPUs (the option is put back afterwards: a worker serves
# several futures).
solve_chunk <- function(k, rank) {
  old <- options(batchsym.gpus = NULL)
  on.exit(options(old))
  n_gpus <- length(bsym_device_info()$gpus) # every GPU the worker sees; 0 without
  if (n_gpus > 0L) options(batchsym.gpus = (rank - 1L) %% n_gpus)
  bsym_solve(A[, , k, drop = FALSE], B[, k, drop = FALSE])
}
t <- system.time(parts <- future_mapply(solve_chunk, chunks, seq_along(chunks), SIMPLIFY = FALSE,
                                        future.seed = TRUE))[["elapsed"]]
X <- do.call(cbind, parts)

t1 <- system.time(X1 <- bsym_solve(A, B))[["elapsed"]]
cat(sprintf("%d systems on %d workers: %.3f s; in this session: %.3f s; same solutions: %s\n",
            batch, workers, t, t1, isTRUE(all.equal(unclass(X), unclass(X1), check.attributes = FALSE))))
plan(sequential)
