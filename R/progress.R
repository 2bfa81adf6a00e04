# Progress of long calls through progressr, R's convention: silent unless the
# user has set handlers (progressr::handlers(), with_progress()). The core
# reports after each chunk of systems (bsym_ctx_set_progress); a call short
# enough to be one chunk reports nothing. progressr is only suggested: without
# it, nothing is reported.

# The value of expr, a .Call of a batch of `batch` systems, with a progressor
# of `batch` steps told of each chunk the core finishes.
with_progress_of <- function(batch, expr) {
  if (batch <= cpu_info()$chunk || !requireNamespace("progressr", quietly = TRUE))
    return(expr)
  p <- progressr::progressor(steps = batch)
  done <- 0
  # called from C between chunks: it must not throw (tryCatch), the core's
  # buffers are on the stack; a Ctrl-C it catches is passed on to the core's
  # next interrupt check, which stops the call
  .Call(bsym_r_set_progress, function(d, total) tryCatch({
    p(amount = d - done)
    done <<- d
  }, error = function(e) NULL, interrupt = function(e) .Call(bsym_r_note_interrupt)))
  on.exit(.Call(bsym_r_set_progress, NULL), add = TRUE)
  expr
}
