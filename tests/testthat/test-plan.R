# bsym_plan(): the history that steers method = "auto", its reference
# semantics, its counts and the rules of bsym_plan_start (batchsym.h):
#   tridiag  no history, or mixed;
#   eigen    more than half of the last call's systems needed the truncated
#            spectrum;
#   ldlt     every system seen was positive definite and none needed it.

fields <- c("calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback")

counts <- function(plan) unlist(as.list(plan)[fields])

# Well-conditioned indefinite n x n matrices with known negative eigenvalues.
indefinite <- function(n, batch)
  stack_of(lapply(seq_len(batch), function(k)
    sym_with_values(seq(1, 0.1, length.out = n) * rep(c(1, -1), length.out = n))))

# Matrices with `drop` eigenvalues 1e-9 max|l|, below the default cut.
ill <- function(n, batch, drop = 2, indefinite = FALSE)
  stack_of(lapply(seq_len(batch), function(k) sym_with_values(cut_spectrum(n, drop, 2, indefinite))))

test_that("a new plan is empty and starts with the Householder path", {
  p <- bsym_plan()
  expect_s3_class(p, "bsym_plan")
  expect_true(is.environment(p))
  expect_equal(counts(p), setNames(numeric(6), fields))
  expect_equal(as.list(p)$start, "tridiag")
  expect_equal(names(as.list(p)), c(fields, "start"))
  expect_type(format(p), "character")
  expect_output(print(p), "0 automatic calls, 0 systems seen")
  expect_output(print(p), "next call starts with \"tridiag\" (no history)", fixed = TRUE)
  capture_output(expect_invisible(print(p)))
  set.seed(61)
  A <- random_spd(5, 4)
  B <- matrix(rnorm(20), 5, 4)
  X <- bsym_solve(A, B, plan = p)
  expect_equal(attr(X, "method"), rep("tridiag", 4))
})

test_that("a plan has reference semantics: every holder sees the calls", {
  set.seed(62)
  p <- bsym_plan()
  q <- p
  A <- random_spd(4, 3)
  B <- matrix(rnorm(12), 4, 3)
  solve_in <- function(plan) invisible(bsym_solve(A, B, plan = plan))
  solve_in(p)
  bsym_solve(A, B, plan = p)
  expect_equal(q$calls, 2)
  expect_equal(q$systems, 6)
  # a second plan has its own history
  r <- bsym_plan()
  expect_equal(r$calls, 0)
})

test_that("after well-conditioned SPD systems the next call starts with LDL^T", {
  set.seed(63)
  n <- 12
  A <- random_spd(n, 10)
  B <- matrix(rnorm(n * 10), n, 10)
  for (precision in c("double", "single")) {
    p <- bsym_plan()
    X1 <- bsym_solve(A, B, plan = p, precision = precision)
    expect_equal(attr(X1, "method"), rep("tridiag", 10))
    expect_equal(as.list(p)$start, "ldlt")
    expect_output(print(p), "next call starts with \"ldlt\"", fixed = TRUE)
    X2 <- bsym_solve(A, B, plan = p, precision = precision)
    expect_equal(attr(X2, "method"), rep("ldlt", 10))
    expect_equal(attr(X2, "rank"), rep(n, 10))
    expect_lt(backward_error(A, B, X2), 10 * n * eps_of(precision))
    for (k in 1:10) # cond(A) <= 4n + 4
      expect_lt(rel_err(X2[, k], solve(A[, , k], B[, k])), 10 * n * (4 * n + 4) * eps_of(precision))
    expect_equal(counts(p), c(calls = 2, systems = 20, not_spd = 0, fallback = 0, last_systems = 10,
                              last_fallback = 0))
  }
})

test_that("the plan counts the systems not positive definite and those that needed the truncated spectrum", {
  set.seed(64)
  n <- 10
  p <- bsym_plan()
  A <- array(c(random_spd(n, 4), indefinite(n, 3), ill(n, 3)), c(n, n, 10))
  B <- matrix(rnorm(n * 10), n, 10)
  X <- bsym_solve(A, B, plan = p)
  expect_equal(attr(X, "method"), rep(c("tridiag", "eigen"), c(7, 3)))
  expect_equal(counts(p), c(calls = 1, systems = 10, not_spd = 3, fallback = 3, last_systems = 10,
                            last_fallback = 3))
  expect_equal(as.list(p)$start, "tridiag") # mixed
  expect_output(print(p), "mixed history")
  # more than half of this call's systems need the truncated spectrum ...
  A2 <- array(c(ill(n, 4, 3, indefinite = TRUE), random_spd(n, 2)), c(n, n, 6))
  B2 <- matrix(rnorm(n * 6), n, 6)
  X2 <- bsym_solve(A2, B2, plan = p)
  expect_equal(attr(X2, "method"), rep(c("eigen", "tridiag"), c(4, 2)))
  expect_equal(counts(p), c(calls = 2, systems = 16, not_spd = 7, fallback = 7, last_systems = 6,
                            last_fallback = 4))
  expect_equal(as.list(p)$start, "eigen")
  expect_output(print(p), "next call starts with \"eigen\" (more than half", fixed = TRUE)
  # ... so the next call starts with it for every system: full rank for the
  # well-conditioned ones, which do not count as needing it
  A3 <- random_spd(n, 5)
  B3 <- matrix(rnorm(n * 5), n, 5)
  X3 <- bsym_solve(A3, B3, plan = p)
  expect_equal(attr(X3, "method"), rep("eigen", 5))
  expect_equal(attr(X3, "rank"), rep(n, 5))
  for (k in 1:5) expect_lt(rel_err(X3[, k], solve(A3[, , k], B3[, k])), 10 * n * (4 * n + 4) * eps_of("double"))
  expect_equal(counts(p), c(calls = 3, systems = 21, not_spd = 7, fallback = 7, last_systems = 5,
                            last_fallback = 0))
  expect_equal(as.list(p)$start, "tridiag")
  # started with the truncated spectrum, a system whose truncation drops an
  # eigenvalue counts as needing it
  q <- bsym_plan()
  bsym_solve(ill(n, 3), matrix(rnorm(n * 3), n, 3), plan = q)
  expect_equal(as.list(q)$start, "eigen")
  X4 <- bsym_solve(array(c(ill(n, 2), random_spd(n, 1)), c(n, n, 3)), matrix(rnorm(n * 3), n, 3), plan = q)
  expect_equal(attr(X4, "method"), rep("eigen", 3))
  expect_equal(attr(X4, "rank"), c(n - 2L, n - 2L, n))
  expect_equal(q$last_fallback, 2)
  expect_equal(q$fallback, 5)
  expect_equal(as.list(q)$start, "eigen")
})

test_that("'more than half' of the last call: exactly half does not start with the truncated spectrum", {
  set.seed(65)
  n <- 8
  for (precision in c("double", "single")) {
    p <- bsym_plan()
    bsym_solve(array(c(ill(n, 2), random_spd(n, 2)), c(n, n, 4)), matrix(rnorm(n * 4), n, 4),
               plan = p, precision = precision)
    expect_equal(c(p$last_systems, p$last_fallback), c(4, 2))
    expect_equal(as.list(p)$start, "tridiag")
    bsym_solve(array(c(ill(n, 3), random_spd(n, 2)), c(n, n, 5)), matrix(rnorm(n * 5), n, 5),
               plan = p, precision = precision)
    expect_equal(c(p$last_systems, p$last_fallback), c(5, 3))
    expect_equal(as.list(p)$start, "eigen")
  }
})

test_that("the audit call of an LDL^T plan finds indefinite systems and ends the LDL^T start", {
  # an LDL^T start reads no signs of D: indefinite systems solved stably there
  # are not counted; every 8th call (calls %% 8 == 7) is an audit with the
  # full checks, which counts them
  set.seed(66)
  n <- 6
  p <- bsym_plan()
  bsym_solve(random_spd(n, 5), matrix(rnorm(n * 5), n, 5), plan = p)
  expect_equal(as.list(p)$start, "ldlt")
  for (i in 2:7) {
    X <- bsym_solve(indefinite(n, 2), matrix(rnorm(n * 2), n, 2), plan = p)
    expect_true(all(attr(X, "method") %in% c("ldlt", "eigen")))
  }
  expect_equal(p$calls, 7)
  expect_equal(as.list(p)$start, "tridiag") # the audit, or off LDL^T already
  X <- bsym_solve(indefinite(n, 2), matrix(rnorm(n * 2), n, 2), plan = p)
  expect_true(all(attr(X, "method") %in% c("tridiag", "eigen")))
  expect_gte(p$not_spd, 2)
  expect_false(as.list(p)$start == "ldlt")
})

test_that("systems with non-finite input are not counted", {
  set.seed(67)
  n <- 5
  p <- bsym_plan()
  A <- random_spd(n, 5)
  A[2, 2, 3] <- NA
  expect_warning(bsym_solve(A, matrix(rnorm(n * 5), n, 5), plan = p), "1 of 5 systems")
  expect_equal(counts(p), c(calls = 1, systems = 4, not_spd = 0, fallback = 0, last_systems = 4,
                            last_fallback = 0))
})

test_that("a call that fails leaves the plan as it was", {
  set.seed(68)
  p <- bsym_plan()
  bsym_solve(random_spd(3, 2), matrix(1, 3, 2), plan = p)
  before <- as.list(p)
  # no GPU: the device error; a GPU: n above its limits
  n <- if (bsym_gpu_available()) 65 else 3
  expect_error(bsym_solve(random_spd(n, 2), matrix(1, n, 2), plan = p, device = "gpu"), "bsym_solve: ")
  expect_equal(as.list(p), before)
  # and an argument error before the call
  expect_error(bsym_solve(random_spd(3, 2), matrix(1, 4, 2), plan = p), "B does not match A")
  expect_equal(as.list(p), before)
})

test_that("a plan is only used by method = 'auto': other methods warn and leave it alone", {
  set.seed(69)
  p <- bsym_plan()
  A <- random_spd(4, 2)
  B <- matrix(rnorm(8), 4, 2)
  for (method in c("ldlt", "tridiag", "eigen")) {
    expect_warning(X <- bsym_solve(A, B, method = method, plan = p),
                   sprintf("plan is only used by method = \"auto\"; it is ignored (and not updated) with method = \"%s\"",
                           method), fixed = TRUE)
    expect_equal(attr(X, "method"), rep(method, 2))
    expect_equal(p$calls, 0)
  }
})

test_that("a spoiled plan is an error naming the field", {
  A <- random_spd(3, 1)
  B <- matrix(1, 3, 1)
  # values: the core's rule
  for (bad in list(-1, 1.5, Inf, NA_real_, 2^53 + 2)) {
    p <- bsym_plan()
    assign("fallback", bad, envir = p)
    expect_error(bsym_solve(A, B, plan = p), "plan: field fallback must be a whole number >= 0", fixed = TRUE,
                 class = "batchsym_bad_argument")
    expect_error(print(p), "plan: field fallback must be a whole number >= 0", fixed = TRUE)
  }
  # R types
  for (bad in list(NA, "a", c(1, 2), NULL)) {
    p <- bsym_plan()
    assign("fallback", bad, envir = p)
    expect_error(bsym_solve(A, B, plan = p), "plan: field fallback must be a single number", fixed = TRUE,
                 class = "batchsym_bad_argument")
    expect_error(print(p), "plan: field fallback must be a single number", fixed = TRUE)
  }
  # counts that no call could have written
  p <- bsym_plan()
  p$systems <- 3
  p$fallback <- 4
  expect_error(bsym_solve(A, B, plan = p), "plan is not a plan that batchsym wrote (fallback exceeds systems)",
               fixed = TRUE)
  expect_error(bsym_solve(A, B, plan = as.list(bsym_plan())), "plan must be NULL or a plan made by bsym_plan()",
               fixed = TRUE)
})

test_that("large counts print with separators", {
  p <- bsym_plan()
  p$calls <- 3
  p$systems <- 3e6
  p$last_systems <- 1e6
  expect_output(print(p), "3 automatic calls, 3,000,000 systems seen", fixed = TRUE)
  expect_equal(as.list(p)$start, "ldlt")
})
