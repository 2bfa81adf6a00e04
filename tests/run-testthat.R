# Runs the testthat suite against the installed package and writes "P F"
# (passed and failed expectations) to the file named by the first argument.
# A second argument sets options(batchsym.device = ...) for the whole suite
# (tools/gpu-check.sh runs it with "gpu").
args <- commandArgs(trailingOnly = TRUE)
counts <- if (length(args)) args[[1]] else NULL
if (length(args) > 1) options(batchsym.device = args[[2]])
library(testthat)
options(testthat.progress.max_fails = .Machine$integer.max) # every failure listed, not the first 10
library(batchsym)
res <- as.data.frame(test_dir("tests/testthat", package = "batchsym", load_package = "installed",
                              reporter = ProgressReporter$new(show_praise = FALSE),
                              stop_on_failure = FALSE))
failed <- sum(res$failed) + sum(res$error)
passed <- sum(res$nb) - sum(res$failed) - sum(res$skipped)
cat(sprintf("R tests: %d passed, %d failed, %d skipped (device option: %s)\n", passed, failed,
            sum(res$skipped), getOption("batchsym.device", "auto")))
if (!is.null(counts)) writeLines(sprintf("%d %d", passed, failed), counts)
quit(status = if (failed > 0) 1 else 0)
