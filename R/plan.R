# bsym_plan(): the history that steers bsym_solve(method = "auto") and
# bsym_lsfit(method = "auto") (documented in man/bsym_plan.Rd).
#
# A plan is an environment (reference semantics: every call that is given
# the plan updates the caller's object) of class "bsym_plan" holding the
# core's bsym_plan fields as numbers. The glue copies them into a C
# bsym_plan before the call and back after it, only when the call succeeds.

bsym_plan <- function() {
  plan <- new.env(parent = emptyenv())
  for (f in core_rules()$plan_fields) assign(f, 0, envir = plan)
  class(plan) <- "bsym_plan"
  plan
}

# An error naming plan unless it is an object made by bsym_plan().
check_plan <- function(plan) {
  if (!is.environment(plan) || !inherits(plan, "bsym_plan"))
    arg_error(sprintf("plan must be NULL or a plan made by bsym_plan() (got %s)",
                      paste(class(plan), collapse = "/")))
  invisible(plan)
}

# The six fields as doubles in the core's order, each a single number, for
# the .Call (whose core checks them: whole numbers >= 0, consistent).
plan_values <- function(plan) {
  fields <- core_rules()$plan_fields
  vapply(fields, function(f) {
    v <- get0(f, envir = plan, inherits = FALSE)
    if (!is.numeric(v) || length(v) != 1L)
      arg_error(sprintf("plan: field %s must be a single number (got %s); make a new plan with bsym_plan()",
                        f, got_text(v)))
    as.double(v)
  }, numeric(1))
}

# Stores the core's updated fields v (the .Call's plan output) into plan.
plan_store <- function(plan, v) {
  if (!is.null(plan) && !is.null(v)) {
    fields <- core_rules()$plan_fields
    for (i in seq_along(fields)) assign(fields[i], v[[i]], envir = plan)
  }
  invisible(plan)
}

# c(step, reason): the step the next automatic call with the plan starts
# with, "ldlt", "tridiag" or "eigen", and why (the core's bsym_plan_start and
# bsym_plan_reason).
plan_start <- function(plan) .Call(bsym_r_plan_start, plan_values(check_plan(plan)))

format.bsym_plan <- function(x, ...) {
  v <- plan_values(x)
  start <- plan_start(x)
  num <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)
  c(sprintf("<bsym_plan> %s automatic call%s, %s system%s seen", num(v[["calls"]]),
            if (v[["calls"]] == 1) "" else "s", num(v[["systems"]]),
            if (v[["systems"]] == 1) "" else "s"),
    sprintf("  not positive definite: %s; needed the truncated spectrum: %s",
            num(v[["not_spd"]]), num(v[["fallback"]])),
    sprintf("  last call: %s system%s, %s needed the truncated spectrum", num(v[["last_systems"]]),
            if (v[["last_systems"]] == 1) "" else "s", num(v[["last_fallback"]])),
    sprintf("  next call starts with \"%s\" (%s)", start[1], start[2]))
}

print.bsym_plan <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

as.list.bsym_plan <- function(x, ...) {
  c(as.list(plan_values(x)), list(start = plan_start(x)[1]))
}
