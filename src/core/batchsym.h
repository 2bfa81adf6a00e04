/*
 * batchsym.h -- THE public header of the batchsym core.
 *
 * batchsym solves huge batches of small dense symmetric problems. A batch is
 * stored exactly as R and Octave store a 3-D array: column-major, matrix k of
 * an n x n x batch array starts at A + k*n*n; right-hand sides of an
 * n x nrhs x batch array start at B + k*n*nrhs.
 *
 * Conventions
 *   - every entry point returns a bsym_status (0 = ok, negative = error) and
 *     leaves a readable message on the context (bsym_ctx_message);
 *   - per-system numerical outcomes go into a caller-supplied int info[batch]:
 *       0   ok,
 *       j>0 breakdown at pivot j (1-based, LAPACK-like),
 *       -1  non-finite input (A's referenced triangle or B) in that system;
 *     a system with info != 0 gets NaN in every entry of its solution and the
 *     other systems are solved as usual;
 *   - the core never prints, exits, or calls R or Octave;
 *   - precision letters as in LAPACK: bsym_d* (double), bsym_s* (float).
 */
#ifndef BATCHSYM_H
#define BATCHSYM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ------------------------------------------------------ */
typedef enum {
    BSYM_OK = 0,
    BSYM_ERR_ARG = -1,         /* an argument is invalid (message names it) */
    BSYM_ERR_NOMEM = -2,       /* host or device memory could not be had    */
    BSYM_ERR_NODEVICE = -3,    /* the GPU was asked for and none is usable  */
    BSYM_ERR_CUDA = -4,        /* a CUDA call or kernel launch failed       */
    BSYM_ERR_SIZE = -5,        /* size not supported by the chosen device   */
    BSYM_ERR_INTERRUPTED = -6  /* the caller's interrupt hook asked to stop */
} bsym_status;

/* A constant English sentence for a status code (never NULL). */
const char *bsym_status_string(bsym_status status);

/* ---- choices ----------------------------------------------------------- */
typedef enum {
    BSYM_DEVICE_AUTO = 0,  /* GPU when usable and the batch is big enough */
    BSYM_DEVICE_CPU = 1,
    BSYM_DEVICE_GPU = 2
} bsym_device;

typedef enum {
    BSYM_METHOD_LDLT = 0,    /* LDL^T without pivoting (SPD, well conditioned) */
    BSYM_METHOD_TRIDIAG = 1  /* Householder A = Q T Q^T, PCR on T, x = Q z: any
                                nonsingular symmetric A, indefinite included */
} bsym_method;

/* uplo: 'L' reads the lower triangle (default), 'U' the upper one. */

/* Largest n the GPU LDL^T kernels take; larger systems run on the CPU under
 * BSYM_DEVICE_AUTO and give BSYM_ERR_SIZE under BSYM_DEVICE_GPU. */
#define BSYM_GPU_LDLT_MAX_N 64
/* Largest n of the GPU Householder kernels (bsym_*tridiagonalize and
 * BSYM_METHOD_TRIDIAG), and of the GPU tridiagonal solve (bsym_*tridiag_solve);
 * the same rules apply as for LDL^T. */
#define BSYM_GPU_HOUSEHOLDER_MAX_N 64
#define BSYM_GPU_PCR_MAX_N 16384

/* ---- context ----------------------------------------------------------- */
typedef struct bsym_ctx bsym_ctx;

/* Hook called from the calling thread between chunks of a long call; return
 * non-zero to stop the call with BSYM_ERR_INTERRUPTED. */
typedef int (*bsym_interrupt_fn)(void *data);

bsym_status bsym_ctx_create(bsym_ctx **ctx);
void bsym_ctx_destroy(bsym_ctx *ctx);             /* NULL is fine */
bsym_status bsym_ctx_set_device(bsym_ctx *ctx, bsym_device device);
bsym_status bsym_ctx_set_threads(bsym_ctx *ctx, int threads); /* 0 = OpenMP default */
void bsym_ctx_set_interrupt(bsym_ctx *ctx, bsym_interrupt_fn fn, void *data);
/* The message of the last failing call on this context ("" after success). */
const char *bsym_ctx_message(const bsym_ctx *ctx);
/* Which device served the last successful call: BSYM_DEVICE_CPU or _GPU. */
bsym_device bsym_ctx_last_device(const bsym_ctx *ctx);

/* ---- devices ----------------------------------------------------------- */
typedef struct {
    int built_with_cuda;     /* 1 when this build has CUDA kernels           */
    int gpu_available;       /* 1 when a usable CUDA device was found        */
    int device_count;
    char name[256];          /* device 0's name, or "" */
    size_t total_memory;     /* bytes, device 0 */
    size_t free_memory;      /* bytes, device 0, at the time of the call */
    int compute_major, compute_minor;
    int cuda_runtime_version, cuda_driver_version;  /* 0 when unknown */
    char reason[256];        /* why no GPU is usable, "" when one is */
} bsym_device_info;

/* Fills *info; never fails on a machine without a GPU or driver. */
bsym_status bsym_get_device_info(bsym_device_info *info);
int bsym_gpu_available(void);

/* ---- batched linear solves ---------------------------------------------
 * Solves A_k X_k = B_k for k = 0 .. batch-1, overwriting B with X.
 *   A     n x n x batch, column-major, read only; the triangle named by uplo
 *         is referenced, the other is never read.
 *   B     n x nrhs x batch; on return the solutions (NaN where info != 0).
 *   info  batch ints, see the header comment; BSYM_METHOD_TRIDIAG reports
 *         j > 0 when PCR on T met a zero or non-finite pivot in row j (T, and
 *         so A, singular or nearly so).
 * n >= 0, nrhs >= 0, batch >= 0; empty problems return BSYM_OK at once.
 * After an error status (BSYM_ERR_INTERRUPTED included) the contents of B
 * and info are unspecified: some systems may have been solved, others not.
 */
bsym_status bsym_dsolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const double *A, double *B, int *info);
bsym_status bsym_ssolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const float *A, float *B, int *info);

/* ---- Householder tridiagonalization --------------------------------------
 * A_k = Q_k T_k Q_k^T for k = 0 .. batch-1, Q_k orthogonal, T_k symmetric
 * tridiagonal.
 *   A     n x n x batch, read only; the triangle named by uplo is referenced.
 *   d     n x batch: the diagonal of T_k.
 *   e     (n-1) x batch: the off-diagonal of T_k, e[i] = T_k(i+1, i) (0-based);
 *         may be NULL when n <= 1.
 *   Q     n x n x batch, or NULL when Q is not wanted (it is then never formed).
 *   info  batch ints: 0 ok, -1 non-finite input (d, e and Q are NaN).
 */
bsym_status bsym_dtridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const double *A, double *d, double *e, double *Q, int *info);
bsym_status bsym_stridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const float *A, float *d, float *e, float *Q, int *info);

/* ---- batched tridiagonal solves (parallel cyclic reduction) ---------------
 * Solves T_k X_k = B_k for k = 0 .. batch-1, overwriting B with X, where T_k
 * is the general tridiagonal matrix with
 *   dl    (n-1) x batch sub-diagonal,   T_k(i+1, i) = dl[k*(n-1) + i],
 *   d     n x batch diagonal,           T_k(i, i)   = d[k*n + i],
 *   du    (n-1) x batch super-diagonal, T_k(i, i+1) = du[k*(n-1) + i],
 *         or NULL for a symmetric T_k (du = dl);
 * dl and du may be NULL when n <= 1; all are read only.
 *   B     n x nrhs x batch; on return the solutions (NaN where info != 0).
 *   info  0 ok; j > 0 when the reduction met a zero or non-finite pivot, or
 *         the solution a non-finite value, in row j (1-based; which row
 *         depends on the device's reduction order); -1 non-finite input.
 * No pivoting: safe for diagonally dominant and for symmetric positive
 * definite T; for other T the caller checks the residual.
 */
bsym_status bsym_dtridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const double *dl, const double *d, const double *du,
                                double *B, int *info);
bsym_status bsym_stridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const float *dl, const float *d, const float *du,
                                float *B, int *info);

/* ---- batched symmetric eigensolvers --------------------------------------
 * Eigenvalues (and optionally eigenvectors) of A_k (bsym_*syev, full
 * symmetric) or of the symmetric tridiagonal T_k (bsym_*stev), k = 0 ..
 * batch-1. Values-only calls use bisection with Sturm counts; calls with
 * vectors use divide and conquer (full matrices through the Householder
 * reduction A = Q T Q^T and back-transformation).
 *   sel   which eigenvalues, in ASCENDING order (NULL = all of them):
 *           BSYM_SELECT_ALL    all n;
 *           BSYM_SELECT_INDEX  the il-th to iu-th smallest (1-based,
 *                              1 <= il <= iu <= n), the same count for all;
 *           BSYM_SELECT_VALUE  those in the half-open interval (vl, vu],
 *                              vl < vu, a count per system.
 *   w     n x batch: system k's selected eigenvalues ascending in its first
 *         count[k] entries, NaN in the rest.
 *   V     n x n x batch, or NULL for values only: column j of system k is the
 *         unit eigenvector of w[j] (orthonormal columns), the columns past
 *         count[k] NaN.
 *   count batch ints (may be NULL): how many eigenvalues were selected.
 *   info  batch ints: 0 ok; -1 non-finite input (w and V NaN, count 0);
 *         j > 0 the secular equation's iteration did not converge (near the
 *         j-th eigenvalue, 1-based; w and V NaN).
 * bsym_*syev reads the triangle of A named by uplo; bsym_*stev reads d
 * (n x batch) and e ((n-1) x batch, e[i] = T(i+1, i); may be NULL for n <= 1).
 */
typedef enum {
    BSYM_SELECT_ALL = 0,
    BSYM_SELECT_INDEX = 1,
    BSYM_SELECT_VALUE = 2
} bsym_select_kind;

typedef struct {
    bsym_select_kind kind;
    int64_t il, iu;   /* BSYM_SELECT_INDEX: 1-based, ascending order */
    double vl, vu;    /* BSYM_SELECT_VALUE: the interval (vl, vu]      */
} bsym_select;

/* Largest n of the GPU eigensolver kernels (same rules as for LDL^T). */
#define BSYM_GPU_EIGEN_MAX_N 64

bsym_status bsym_dsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const double *A,
                       const bsym_select *sel, double *w, double *V, int *count, int *info);
bsym_status bsym_ssyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const float *A,
                       const bsym_select *sel, float *w, float *V, int *count, int *info);
bsym_status bsym_dstev(bsym_ctx *ctx, int64_t n, int64_t batch, const double *d, const double *e,
                       const bsym_select *sel, double *w, double *V, int *count, int *info);
bsym_status bsym_sstev(bsym_ctx *ctx, int64_t n, int64_t batch, const float *d, const float *e,
                       const bsym_select *sel, float *w, float *V, int *count, int *info);

#ifdef __cplusplus
}
#endif
#endif /* BATCHSYM_H */
