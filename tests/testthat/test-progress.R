# Progress of long calls through progressr (R/progress.R): one report per
# chunk of systems the core finishes, silent without handlers, nothing for a
# call of one chunk.

test_that("a long call reports its progress per chunk through progressr", {
  skip_if_not_installed("progressr")
  old <- options(progressr.enable = TRUE) # progressr's default: only in interactive sessions
  on.exit(options(old), add = TRUE)
  chunk <- batchsym:::cpu_info()$chunk
  n <- 2
  batch <- 2 * chunk + 5 # three chunks on the CPU
  A <- array(rep(c(2, 0.5, 0.5, 2), batch), c(n, n, batch))
  B <- matrix(1, n, batch)
  steps <- list()
  record <- function(expr) withCallingHandlers(expr, progression = function(p) steps[[length(steps) + 1L]] <<- p)
  X <- progressr::with_progress(record(bsym_solve(A, B, device = "cpu")), handlers = progressr::handler_void())
  amounts <- vapply(steps, function(p) as.numeric(p$amount), 0)
  types <- vapply(steps, function(p) p$type, "")
  expect_equal(amounts[types == "update"], c(chunk, chunk, 5))
  expect_equal(max(abs(X - 0.4)), 0)
  # one chunk: no progressor at all
  steps <- list()
  progressr::with_progress(record(bsym_solve(A[, , 1:10], B[, 1:10], device = "cpu")),
                           handlers = progressr::handler_void())
  expect_length(steps, 0)
  # without handlers: silent
  expect_silent(bsym_solve(A, B, device = "cpu"))
})

