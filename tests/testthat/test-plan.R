# bsym_plan(): the history that steers method = "auto", its reference
# semantics, its counts and the rules of bsym_plan_start (batchsym.h):
#   eigen    more than half of the last call's systems needed the truncated
#            spectrum;
#   tridiag  else, more than half of the systems seen were not positive
#            definite;
#   ldlt     else (no history included): LDL^T, certified per system.

fields <- c("calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback")

counts <- function(plan) unlist(as.list(plan)[fields])

# Well-conditioned indefinite n x n matrices with known negative eigenvalues.
indefinite <- function(n, batch)
  stack_of(lapply(seq_len(batch), function(k)
    sym_with_values(seq(1, 0.1, length.out = n) * rep(c(1, -1), length.out = n))))

# Matrices with `drop` eigenvalues 1e-9 max|l|, below the default cut.
ill <- function(n, batch, drop = 2, indefinite = FALSE)
  stack_of(lapply(seq_len(batch), function(k) sym_with_values(cut_spectrum(n, drop, 2, indefinite))))

test_that("a new plan is empty and starts with the certified LDL^T", {
  p <- bsym_plan()
  expect_s3_class(p, "bsym_plan")
  expect_true(is.environment(p))
  expect_equal(counts(p), setNames(numeric(6), fields))
  expect_equal(as.list(p)$start, "ldlt")
  expect_equal(names(as.list(p)), c(fields, "start"))
  expect_type(format(p), "character")
  expect_output(print(p), "0 automatic calls, 0 systems seen")
  expect_output(print(p), "next call starts with \"ldlt\" (no history: LDL^T, certified per system)", fixed = TRUE)
  capture_output(expect_invisible(print(p)))
  set.seed(61)
  A <- random_spd(5, 4)
  B <- matrix(rnorm(20), 5, 4)
  X <- bsym_solve(A, B, plan = p)
  expect_equal(attr(X, "method"), rep("ldlt", 4))
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
    expect_equal(attr(X1, "method"), rep("ldlt", 10))
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
  # certified LDL^T for the SPD ones, Householder for the indefinite ones,
  # the truncated spectrum for the ill-conditioned ones
  expect_equal(attr(X, "method"), rep(c("ldlt", "tridiag", "eigen"), c(4, 3, 3)))
  expect_equal(counts(p), c(calls = 1, systems = 10, not_spd = 3, fallback = 3, last_systems = 10,
                            last_fallback = 3))
  expect_equal(as.list(p)$start, "ldlt") # 3 of 10 not positive definite
  expect_output(print(p), "next call starts with \"ldlt\" (LDL^T, certified per system)", fixed = TRUE)
  # more than half of this call's systems need the truncated spectrum ...
  A2 <- array(c(ill(n, 4, 3, indefinite = TRUE), random_spd(n, 2)), c(n, n, 6))
  B2 <- matrix(rnorm(n * 6), n, 6)
  X2 <- bsym_solve(A2, B2, plan = p)
  expect_equal(attr(X2, "method"), rep(c("eigen", "ldlt"), c(4, 2)))
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
  expect_equal(as.list(p)$start, "ldlt")
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
    expect_equal(as.list(p)$start, "ldlt")
    bsym_solve(array(c(ill(n, 3), random_spd(n, 2)), c(n, n, 5)), matrix(rnorm(n * 5), n, 5),
               plan = p, precision = precision)
    expect_equal(c(p$last_systems, p$last_fallback), c(5, 3))
    expect_equal(as.list(p)$start, "eigen")
  }
})

test_that("a history of mostly indefinite systems starts with Householder, and leaves it when it changes", {
  # the certified LDL^T reads the signs of D (through A - sigma I): indefinite
  # systems are found and counted in every call
  set.seed(66)
  n <- 6
  p <- bsym_plan()
  X <- bsym_solve(indefinite(n, 5), matrix(rnorm(n * 5), n, 5), plan = p)
  expect_equal(attr(X, "method"), rep("tridiag", 5))
  expect_equal(p$not_spd, 5)
  expect_equal(as.list(p)$start, "tridiag")
  expect_output(print(p), "more than half of the systems seen were not positive definite", fixed = TRUE)
  A2 <- indefinite(n, 2)
  B2 <- matrix(rnorm(n * 2), n, 2)
  X <- bsym_solve(A2, B2, plan = p)
  expect_equal(attr(X, "method"), rep("tridiag", 2))
  expect_lt(backward_error(A2, B2, X), 10 * n * eps_of("double"))
  # a batch of SPD systems large enough to bring not_spd under half
  X <- bsym_solve(random_spd(n, 8), matrix(rnorm(n * 8), n, 8), plan = p)
  expect_equal(attr(X, "method"), rep("tridiag", 8))
  expect_equal(c(p$systems, p$not_spd), c(15, 7))
  expect_equal(as.list(p)$start, "ldlt")
  X <- bsym_solve(indefinite(n, 2), matrix(rnorm(n * 2), n, 2), plan = p)
  expect_equal(attr(X, "method"), rep("tridiag", 2)) # not certified: Householder
  expect_equal(p$not_spd, 9)
})

# The families of the equivalence test: n x n x 6 each.
equivalence_families <- function(n) {
  edge <- function(sign, batch = 6) stack_of(lapply(seq_len(batch), function(k) {
    l <- runif(n, 1, 2) * if (k %% 2) rep(c(1, 1, -1), length.out = n) else 1
    l[n] <- 1e-5 * max(abs(l[-n])) * (1 + sign * 2^-10) # the largest of the others
    sym_with_values(l)
  }))
  list(random = random_spd(n, 6),
       xi_rho = xi_rho_random(n, 6),
       graded = stack_of(lapply(1:6, function(k) sym_with_values(2^-seq(0, 15, length.out = n)))),
       graded_cut = stack_of(lapply(1:6, function(k) sym_with_values(2^-seq(0, 20, length.out = n)))),
       clustered = stack_of(lapply(1:6, function(k) sym_with_values(c(1, 1e-5 * (1 + 1e-3 * seq_len(n - 1)))))),
       indefinite = random_sym(n, 6),
       edge_low = edge(-1),
       edge_high = edge(1))
}

test_that("the certified LDL^T start sends exactly the systems of the Householder start to the truncated spectrum", {
  set.seed(70)
  for (precision in c("double", "single"))
    for (n in c(5, 16, 32)) {
      fam <- equivalence_families(n)
      for (f in names(fam)) {
        A <- fam[[f]]
        B <- matrix(rnorm(n * dim(A)[3]), n, dim(A)[3])
        house <- bsym_plan() # a history of indefinite systems: the Householder start
        house$calls <- 1; house$systems <- 10; house$not_spd <- 10; house$last_systems <- 10
        expect_equal(as.list(house)$start, "tridiag")
        X1 <- bsym_solve(A, B, precision = precision)               # no history: LDL^T first
        X2 <- bsym_solve(A, B, precision = precision, plan = house)
        label <- sprintf("%s, n = %d, %s", f, n, precision)
        expect_equal(attr(X1, "method") == "eigen", attr(X2, "method") == "eigen", label = label)
        expect_equal(attr(X1, "rank"), attr(X2, "rank"), label = label)
        expect_false(any(attr(X2, "method") == "ldlt"), label = label)
        if (f %in% c("random", "xi_rho") && precision == "double")
          expect_equal(attr(X1, "method"), rep("ldlt", dim(A)[3]), label = label)
      }
    }
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
  # no GPU: the device error; a GPU: n above its limits (method auto's: 256)
  n <- if (bsym_gpu_available()) 257 else 3
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
