# The rules R shares with Octave live in the C core: errors classed by the
# core's status ids, the names users type read from the core's tables.

A <- array(diag(2), c(2, 2, 3))
B <- matrix(1, 2, 3)

test_that("errors are conditions of class batchsym_<status id>", {
  expect_error(bsym_solve(A, B, method = "qr"), class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B, device = "tpu"), class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B, precision = 1), class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B, uplo = "X"), class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, B, rcond = 2), class = "batchsym_bad_argument")
  expect_error(bsym_solve(A, matrix(1, 3, 3)), class = "batchsym_bad_argument")
  expect_error(bsym_solve(array("a", c(2, 2, 3)), B), class = "batchsym_bad_argument")
  expect_error(bsym_eigen(A, index = c(0, 1)), class = "batchsym_bad_argument")
  expect_error(bsym_lsfit(matrix(1, 3, 2), 1:2), class = "batchsym_bad_argument")
  expect_error(bsym_tridiagonalize(A, vectors = NA), class = "batchsym_bad_argument")
  e <- tryCatch(bsym_solve(A, B, method = "qr"), batchsym_bad_argument = function(e) e)
  expect_s3_class(e, c("batchsym_bad_argument", "error", "condition"), exact = TRUE)
  expect_identical(conditionMessage(e),
                   paste("method must be one of \"ldlt\", \"tridiag\", \"eigen\", \"auto\", \"bunch-kaufman\",",
                         "\"aasen\" (got \"qr\")"))
  # a plain tryCatch(error = ) still sees them
  expect_identical(tryCatch(bsym_solve(A, B, device = 1), error = function(e) "caught"), "caught")
})

test_that("device = 'gpu' without a usable GPU raises batchsym_no_device", {
  skip_if(bsym_gpu_available())
  expect_error(bsym_solve(A, B, device = "gpu"), "bsym_solve: no usable GPU: .+", class = "batchsym_no_device")
  expect_error(bsym_eigen(diag(2), device = "gpu"), class = "batchsym_no_device")
  expect_error(bsym_lsfit(matrix(1:6, 3, 2), 1:3, device = "gpu"), class = "batchsym_no_device")
  got <- tryCatch(bsym_tridiag_solve(1, c(4, 4), rhs = c(1, 1), device = "gpu"),
                  batchsym_no_device = function(e) "fell back", batchsym_bad_argument = function(e) "wrong")
  expect_identical(got, "fell back")
})

test_that("a size above the GPU limit raises batchsym_size_unsupported", {
  skip_if_not(bsym_gpu_available())
  expect_error(bsym_eigen(diag(257), device = "gpu"), class = "batchsym_size_unsupported")
  expect_error(bsym_solve(array(diag(257), c(257, 257, 1)), matrix(1, 257, 1), device = "gpu"),
               class = "batchsym_size_unsupported")
})

# The quoted values of argument `arg` in the installed help page `topic`
# (the \item{arg}{...} of its arguments section), e.g. c("auto", "cpu", "gpu").
documented_choices <- function(topic, arg) {
  rd <- tools::Rd_db("batchsym")[[paste0(topic, ".Rd")]]
  args <- Filter(function(x) identical(attr(x, "Rd_tag"), "\\arguments"), rd)[[1]]
  item <- Filter(function(x) identical(attr(x, "Rd_tag"), "\\item") &&
                   identical(paste(unlist(x[[1]]), collapse = ""), arg), args)[[1]]
  text <- paste(unlist(item[[2]]), collapse = "")
  unique(regmatches(text, gregexpr("(?<=\")[A-Za-z-]+(?=\")", text, perl = TRUE))[[1]])
}

test_that("the core's name tables, the R functions' defaults and their help pages agree", {
  rules <- .Call(batchsym:::bsym_r_rules)
  expect_identical(rules$method, c("ldlt", "tridiag", "eigen", "auto", "bunch-kaufman", "aasen"))
  expect_identical(rules$device, c("auto", "cpu", "gpu"))
  expect_identical(rules$precision, c("double", "single"))
  expect_identical(rules$uplo, c("L", "U"))
  expect_identical(rules$plan_fields, c("calls", "systems", "not_spd", "fallback", "last_systems",
                                        "last_fallback"))
  expect_identical(unname(rules$status_ids), c("ok", "bad_argument", "out_of_memory", "no_device",
                                               "cuda_failure", "size_unsupported", "interrupted"))
  # every documented choice is in the core's table, and every table entry documented
  expect_setequal(documented_choices("bsym_solve", "method"), rules$method)
  # least squares solves positive semidefinite normal equations: no pivoted LDL^T
  expect_setequal(documented_choices("bsym_lsfit", "method"), setdiff(rules$method, c("bunch-kaufman", "aasen")))
  for (topic in c("bsym_solve", "bsym_lsfit", "bsym_eigen")) {
    expect_setequal(documented_choices(topic, "device"), rules$device)
    expect_setequal(documented_choices(topic, "precision"), rules$precision)
  }
  for (topic in c("bsym_solve", "bsym_eigen"))
    expect_setequal(documented_choices(topic, "uplo"), rules$uplo)
  # each function's defaults are names of the core
  for (f in list(bsym_solve, bsym_lsfit)) expect_true(eval(formals(f)$method) %in% rules$method)
  for (f in list(bsym_solve, bsym_lsfit, bsym_eigen, bsym_tridiag_eigen, bsym_tridiag_solve,
                 bsym_tridiagonalize)) {
    old <- options(batchsym.device = NULL, batchsym.precision = NULL)
    expect_true(eval(formals(f)$device) %in% rules$device)
    expect_true(eval(formals(f)$precision) %in% rules$precision)
    options(old)
  }
  # a plan holds the core's fields
  expect_setequal(ls(bsym_plan()), rules$plan_fields)
  # every name the core lists is accepted
  X <- array(c(2, 0, 0, 2), c(2, 2, 1))
  for (method in rules$method)
    expect_silent(bsym_solve(X, c(1, 1), method = method, device = getOption("batchsym.device", "auto")))
  for (precision in rules$precision) expect_silent(bsym_solve(X, c(1, 1), precision = precision))
  for (uplo in rules$uplo) expect_silent(bsym_solve(X, c(1, 1), uplo = uplo))
  expect_silent(bsym_solve(X, c(1, 1), device = "cpu"))
})

test_that("weights shared by every system give what the same weights per system give", {
  set.seed(5)
  m <- 9; p <- 3; batch <- 4
  X <- array(rnorm(m * p * batch), c(m, p, batch))
  Y <- matrix(rnorm(m * batch), m, batch)
  w <- runif(m, 0.5, 2)
  for (precision in c("double", "single")) {
    shared <- bsym_lsfit(X, Y, weights = w, precision = precision, device = "cpu")
    expanded <- bsym_lsfit(X, Y, weights = matrix(w, m, batch), precision = precision, device = "cpu")
    expect_identical(shared, expanded)
  }
})

test_that("failed systems give one warning, the core's sentence, for every function", {
  A2 <- A
  A2[1, 1, 2] <- NaN
  expect_warning(bsym_solve(A2, B), paste0("bsym_solve: 1 of 3 systems could not be solved (1 non-finite input; ",
                                           "the first is system 2, info -1); they are NA, see attr(, \"info\")"),
                 fixed = TRUE)
  expect_warning(bsym_eigen(A2), "bsym_eigen: 1 of 3 systems could not be diagonalized (1 non-finite input;",
                 fixed = TRUE)
  expect_warning(bsym_tridiagonalize(A2), "bsym_tridiagonalize: 1 of 3 systems could not be tridiagonalized",
                 fixed = TRUE)
  S <- A
  S[, , 2] <- 0
  S[1, 1, 3] <- NaN
  expect_warning(bsym_solve(S, B, method = "ldlt"),
                 paste0("bsym_solve: 2 of 3 systems could not be solved (1 non-finite input, 1 pivot breakdown: ",
                        "singular or nearly so; the first is system 2, info 1)"), fixed = TRUE)
})
