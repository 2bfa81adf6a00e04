#' Solve a batch of small symmetric linear systems
#'
#' Solves \eqn{A_k x_k = b_k} for every system \eqn{k} of a batch, on the GPU
#' (CUDA kernels) or on the CPU (the same C core, OpenMP over the batch).
#'
#' @param A an \code{n x n x batch} numeric array of symmetric matrices, or an
#'   \code{n x n} matrix (a batch of one). Only the triangle named by
#'   \code{uplo} is read.
#' @param B right-hand sides: \code{n x batch} (one per system),
#'   \code{n x k x batch} (k per system), or, for a batch of one, a length-n
#'   vector or an \code{n x k} matrix (like \code{solve()}).
#' @param method \code{"ldlt"}: \eqn{LDL^T} without pivoting, for symmetric
#'   positive definite, well-conditioned systems.
#' @param device \code{"auto"} (GPU when usable and the batch is large enough),
#'   \code{"cpu"} or \code{"gpu"}.
#' @param precision \code{"double"} or \code{"single"} (computes in float,
#'   returns doubles).
#' @param uplo \code{"L"} (lower triangle, default) or \code{"U"}.
#' @return An array shaped like \code{B} (dimnames kept) with attributes
#'   \code{"info"} (integer per system: 0 ok, \code{j > 0} breakdown at pivot
#'   \code{j}, \code{-1} non-finite input) and \code{"device"} (\code{"cpu"}
#'   or \code{"gpu"}, the device that computed). Systems with \code{info != 0}
#'   are \code{NA}, with one warning giving their count.
#' @examples
#' A <- array(0, c(3, 3, 2))
#' A[, , 1] <- diag(3) * 2
#' A[, , 2] <- crossprod(matrix(c(2, 1, 0, 1, 3, 1, 0, 1, 4), 3)) + diag(3)
#' B <- matrix(1, 3, 2)
#' X <- bsym_solve(A, B)
#' all.equal(X[, 2], solve(A[, , 2], B[, 2]))
bsym_solve <- function(A, B, method = "ldlt",
                       device = getOption("batchsym.device", "auto"),
                       precision = getOption("batchsym.precision", "double"),
                       uplo = "L") {
  method <- match_choice(method, "method", "ldlt")
  device <- match_choice(device, "device", c("auto", "cpu", "gpu"))
  precision <- match_choice(precision, "precision", c("double", "single"))
  uplo <- match_choice(uplo, "uplo", c("L", "U"))
  check_numeric(A, "A")
  check_numeric(B, "B")
  da <- batch_dims(A)
  shape <- rhs_shape(B, da)
  if (device == "gpu" && !bsym_gpu_available())
    stop("bsym_solve: device = \"gpu\" but no GPU is usable: ",
         bsym_device_info()$reason, call. = FALSE)
  # integers to doubles; a double array is passed as it is (no copy)
  if (!is.double(A)) storage.mode(A) <- "double"
  if (!is.double(B)) storage.mode(B) <- "double"
  threads <- as.integer(getOption("batchsym.threads", 0L))
  res <- .Call(bsym_r_solve, A, B, as.double(c(da$n, shape$nrhs, da$batch)),
               method, device, precision, uplo, threads)
  x <- res$x
  if (is.null(dim(B))) dim(x) <- NULL else {
    dim(x) <- dim(B)
    dimnames(x) <- dimnames(B)
  }
  names(x) <- names(B)
  warn_failed(res$info, "bsym_solve")
  attr(x, "info") <- res$info
  attr(x, "device") <- res$device
  x
}

#' Is a GPU usable by batchsym?
#'
#' @return \code{TRUE} when the package was built with CUDA and a CUDA device
#'   that can run its kernels is present, else \code{FALSE}.
#' @examples
#' bsym_gpu_available()
bsym_gpu_available <- function() {
  isTRUE(.Call(bsym_r_device_info)$gpu_available)
}

#' Describe the device batchsym would use
#'
#' @return A list: \code{built_with_cuda}, \code{gpu_available},
#'   \code{device_count}, \code{name}, \code{total_memory} and
#'   \code{free_memory} (bytes), \code{compute_capability},
#'   \code{cuda_runtime_version}, \code{cuda_driver_version} and
#'   \code{reason} (why no GPU is usable, \code{""} when one is).
#' @examples
#' str(bsym_device_info())
bsym_device_info <- function() {
  .Call(bsym_r_device_info)
}
