# Every bad argument gets an error naming it.

A <- array(diag(2), c(2, 2, 3))
B <- matrix(1, 2, 3)

test_that("A must be numeric (real or complex), square, 2-D or 3-D", {
  expect_error(bsym_solve(array("a", c(2, 2, 3)), B), "A must be a numeric array")
  expect_error(bsym_solve(array(TRUE, c(2, 2, 3)), B), "A must be a numeric array")
  # complex A is Hermitian input, solved by every method (the default too):
  # [0 -i; i 0] (the lower triangle, the diagonal's imaginary part dropped) is its own inverse
  expect_equal(as.vector(bsym_solve(array(1i, c(2, 2, 3)), B, device = cpu_only_device())), rep(c(-1i, 1i), 3))
  # bsym_eigen takes complex (Hermitian) A: the lower triangle read, i below the diagonal
  expect_equal(bsym_eigen(array(1i, c(2, 2, 3)))$values, matrix(c(1, -1), 2, 3), tolerance = 1e-14)
  expect_error(bsym_solve(list(1), B), "A must be a numeric array")
  expect_error(bsym_solve(1:4, B), "A must be an n x n matrix")
  expect_error(bsym_solve(array(0, c(2, 3, 3)), B), "A must be square")
  expect_error(bsym_solve(array(0, c(2, 2, 3, 1)), B), "A must be an n x n matrix")
})

test_that("B must be numeric (real or complex) and match A", {
  expect_error(bsym_solve(A, matrix("x", 2, 3)), "B must be a numeric array")
  expect_error(bsym_solve(A, matrix(TRUE, 2, 3)), "B must be a numeric array")
  expect_equal(as.vector(bsym_solve(A, matrix(1i, 2, 3), device = cpu_only_device())), rep(1i, 6))
  expect_error(bsym_tridiag_solve(1, c(4, 4), rhs = c(1i, 1)), "rhs must be real")
  expect_error(bsym_solve(A, matrix(1, 3, 3)), "B does not match A.*3 rows")
  expect_error(bsym_solve(A, matrix(1, 2, 4)), "B does not match A.*4 columns")
  expect_error(bsym_solve(A, array(1, c(2, 1, 4))), "B does not match A.*4 systems")
  expect_error(bsym_solve(A, c(1, 2)), "B does not match A.*vector")
  expect_error(bsym_solve(diag(2), c(1, 2, 3)), "B does not match A.*length 3")
  expect_error(bsym_solve(A, array(1, c(2, 1, 3, 1))), "B must be a vector")
})

test_that("unknown choices are errors naming the argument", {
  expect_error(bsym_solve(A, B, method = "qr"), "method must be one of \"ldlt\"")
  expect_error(bsym_solve(A, B, device = "tpu"), "device must be one of")
  expect_error(bsym_solve(A, B, precision = "half"), "precision must be one of")
  expect_error(bsym_solve(A, B, uplo = "X"), "uplo must be one of")
  expect_error(bsym_solve(A, B, uplo = c("L", "U")), "uplo must be one of")
  expect_error(bsym_solve(A, B, device = NA_character_), "device must be one of")
})

test_that("device = 'gpu' without a usable GPU says why", {
  skip_if(bsym_gpu_available())
  expect_error(bsym_solve(A, B, device = "gpu"), "no GPU is usable: .+")
})

test_that("device = 'gpu' with n above the kernel limit is a clear size error", {
  skip_if_not(bsym_gpu_available())
  expect_error(bsym_solve(array(diag(257), c(257, 257, 1)), matrix(1, 257, 1), method = "ldlt", device = "gpu"),
               "exceeds the GPU LDL\\^T limit of 256")
  expect_error(bsym_solve(array(diag(257), c(257, 257, 1)), matrix(1, 257, 1), device = "gpu"),
               "exceeds the GPU truncated-spectrum limit of 256")
})
