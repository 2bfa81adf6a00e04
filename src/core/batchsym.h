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
 *   - precision letters as in LAPACK: bsym_d* (double), bsym_s* (float),
 *     bsym_z* (complex double), bsym_c* (complex float).
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
    BSYM_METHOD_TRIDIAG = 1, /* Householder A = Q T Q^T, PCR on T, x = Q z: any
                                nonsingular symmetric A, indefinite included */
    BSYM_METHOD_EIGEN = 2,   /* truncated spectrum: A = V diag(l) V^T by divide
                                and conquer, x = sum over the kept pairs of
                                v (v^T b) / l, kept: |l| >= rcond max|l| */
    BSYM_METHOD_AUTO = 3,    /* the strategy: LDL^T first, certified per
                                system (Sylvester's inertia of A - sigma I
                                and the backward error); the systems that
                                fail go to TRIDIAG, checked again (backward
                                error, Sturm-count conditioning test), and
                                those that still fail, and only they, to
                                EIGEN (see bsym_dsolvex) */
    BSYM_METHOD_BUNCH_KAUFMAN = 4, /* P A P^T = L D L^H, D block diagonal
                                (1x1 and 2x2 Hermitian blocks), Bunch-Kaufman
                                partial pivoting (LAPACK's *sytrf / *hetrf
                                rule, alpha = (1 + sqrt(17)) / 8): any
                                nonsingular symmetric or Hermitian A; GPU
                                for n <= BSYM_GPU_INDEF_MAX_N */
    BSYM_METHOD_AASEN = 5    /* P A P^T = L T L^H, T Hermitian tridiagonal,
                                L unit lower triangular with first column e1
                                (Aasen's algorithm with partial pivoting), T
                                solved by Gaussian elimination with partial
                                pivoting: any nonsingular symmetric or
                                Hermitian A; GPU for n <=
                                BSYM_GPU_INDEF_MAX_N */
} bsym_method;

/* Complex elements, stored as C99 complex, R's Rcomplex and Octave's
 * interleaved complex arrays are: the real part, then the imaginary part. */
typedef struct {
    float re, im;
} bsym_cfloat;
typedef struct {
    double re, im;
} bsym_cdouble;

/* uplo: 'L' reads the lower triangle (default), 'U' the upper one. */

/* Largest n the GPU LDL^T kernels take (real; the complex LDL^H stops at
 * BSYM_GPU_INDEF_MAX_N); larger systems run on the CPU under
 * BSYM_DEVICE_AUTO and give BSYM_ERR_SIZE under BSYM_DEVICE_GPU. */
#define BSYM_GPU_LDLT_MAX_N 256
/* Largest n of the GPU Householder kernels (bsym_*tridiagonalize and
 * BSYM_METHOD_TRIDIAG: a warp per system up to 64, a block per system above);
 * the GPU eigensolvers, which use the same reduction, stop at
 * BSYM_GPU_EIGEN_MAX_N, the truncated-spectrum and automatic solves and the
 * least-squares fits at BSYM_GPU_STRATEGY_MAX_N. The same rules apply as for
 * LDL^T. */
#define BSYM_GPU_HOUSEHOLDER_MAX_N 256
/* Largest n of the GPU tridiagonal solve (bsym_*tridiag_solve); the same rules. */
#define BSYM_GPU_PCR_MAX_N 16384
/* Largest number of grid nodes m of the GPU PDE solver (bsym_*pde_solve). */
#define BSYM_GPU_PDE_MAX_N 8192
/* Largest n of the GPU Bunch-Kaufman and Aasen solves (real and complex)
 * and of the GPU LDL^H (complex); the same rules apply as for LDL^T. */
#define BSYM_GPU_INDEF_MAX_N 256

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
/* Progress of long calls: fn(data, done, total) on the calling thread after
 * each chunk of systems (the CPU's every bsym_cpu_chunk() systems, a GPU's
 * whole batch), done of the call's total systems. NULL: none. */
typedef void (*bsym_progress_fn)(void *data, int64_t done, int64_t total);
void bsym_ctx_set_progress(bsym_ctx *ctx, bsym_progress_fn fn, void *data);
/* The GPUs a call on this context may use: ids of the visible CUDA devices
 * (0 .. device_count - 1; CUDA_VISIBLE_DEVICES decides which are visible),
 * distinct, at most BSYM_MAX_GPUS; count 0 (the default) = every visible
 * device. A call on the GPU spreads its batch over them (large batches only:
 * each device gets at least BSYM_GPU_SPLIT_MIN_BYTES of input); the result of
 * every system is the same as on one GPU. */
#define BSYM_MAX_GPUS 16
#define BSYM_GPU_SPLIT_MIN_BYTES ((size_t)32 << 20)
bsym_status bsym_ctx_set_gpus(bsym_ctx *ctx, const int *ids, int count);
/* The GPUs the next GPU call would use (ids into ids[0 .. max-1]); returns
 * their number, 0 when no GPU is usable. */
int bsym_ctx_gpus(const bsym_ctx *ctx, int *ids, int max);
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

/* The host link of GPU `gpu` (an id as in bsym_ctx_set_gpus): the rates in
 * GB/s (1e9 bytes/s) of copying `bytes` from pinned host memory to the device
 * (*h2d) and back (*d2h), each the best of three copies: the bound any
 * host <-> device transfer of those bytes meets. BSYM_ERR_NODEVICE without a
 * usable GPU. */
bsym_status bsym_gpu_link_rate(bsym_ctx *ctx, int gpu, size_t bytes, double *h2d, double *d2h);
/* The same for ngpus GPUs (distinct ids) at once: `bytes` to and from each,
 * all copies in flight together; the rates are the bytes of all GPUs over
 * the time the slowest took (what their links carry together, where they
 * share the host's memory and buses). */
bsym_status bsym_gpus_link_rate(bsym_ctx *ctx, const int *gpus, int ngpus, size_t bytes, double *h2d, double *d2h);

/* Fills *info; never fails on a machine without a GPU or driver. */
bsym_status bsym_get_device_info(bsym_device_info *info);
int bsym_gpu_available(void);
/* The CPU backend: the vector instructions its kernels chose at run time
 * ("AVX-512", "AVX2 + FMA" or the baseline; a static string) and the
 * threads it uses by default (OpenMP's maximum). */
const char *bsym_cpu_simd(void);
int bsym_cpu_threads(void);
/* Systems the CPU backend solves between two interrupt checks and progress
 * reports. */
int64_t bsym_cpu_chunk(void);

/* ---- host memory, for the bindings ---------------------------------------
 * bsym_host_touch: a result array the caller has just allocated (not yet
 * written), prepared for the call that fills it: where the system has
 * transparent huge pages on request (Linux), the hint for them, then the
 * first touch of every page by the OpenMP team, so that the kernel zeroes
 * the new pages in parallel and not one at a time inside the call (on the
 * H200 machine: 20 ms for 800 MB so, against 60 ms inside the GPU call).
 * Arrays below 4 MB are left as they are.
 * bsym_host_copy: memcpy by the OpenMP team (a 1e6-system right-hand side
 * is 256 MB, which one thread copies in a fifth of the GPU's whole call). */
void bsym_host_touch(void *p, size_t bytes);
void bsym_host_copy(void *dst, const void *src, size_t bytes);

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

/* ---- truncated-spectrum and automatic solves -----------------------------
 * bsym_dsolvex / bsym_ssolvex solve as bsym_dsolve with options and two more
 * per-system outputs. bsym_dsolve / bsym_ssolve take every method too, with
 * the default options and no plan.
 *
 * BSYM_METHOD_EIGEN: x = sum over the eigenpairs (l, v) of A with
 *   |l| >= rcond * max|l| and l != 0 of v (v^T b) / l: the minimum-norm
 *   solution of the truncated problem (rank = the number of pairs kept).
 * BSYM_METHOD_AUTO, per system: a system goes to EIGEN if and only if its
 * cheap solve breaks down or fails the backward-error test, or A has an
 * eigenvalue in (-tau, tau], tau = rcond max|l| (max|l| found by bisection on
 * Sturm counts to a relative 2^-10, which may flag a system whose smallest |l|
 * is within that margin of the threshold: it is then solved by EIGEN at full
 * rank). The steps, each taking only the systems the one before let through:
 *   1. LDL^T, certified: the system keeps this solution when the LDL^T
 *      factorization of A - sigma I has only positive pivots (Sylvester's
 *      law of inertia: A is positive definite with every eigenvalue above
 *      sigma >= tau; sigma from min(||A||_inf, ||A||_F) and the rounding
 *      of that factorization, see strategy_numerics.h) and the backward
 *      error max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf + ||b_j||_inf),
 *      computed in double, is at most tol;
 *   2. Householder + PCR (BSYM_METHOD_TRIDIAG), for the systems not certified
 *      (indefinite, or ill-conditioned, or near the threshold): kept when the
 *      backward error is at most tol and Sturm counts on T find no eigenvalue
 *      in (-tau, tau];
 *   3. the rest, and systems whose solve broke down (info > 0), are solved
 *      again from the original B by BSYM_METHOD_EIGEN.
 *   The plan (below) may start at step 2 or 3 instead.
 */
typedef struct {
    int64_t calls;         /* automatic calls recorded                       */
    int64_t systems;       /* systems seen by them                           */
    int64_t not_spd;       /* of which found with an eigenvalue <= 0         */
    int64_t fallback;      /* of which needed the truncated spectrum (*)     */
    int64_t last_systems;  /* the latest call's systems ...                  */
    int64_t last_fallback; /* ... and how many of them needed it (*)         */
} bsym_plan;
/* (*) Started with LDLT or TRIDIAG: solved by EIGEN after the checks. Started
 * with EIGEN: a system whose truncation dropped an eigenvalue (rank < n).
 * A plan is plain data: bindings copy it in and out; all zero = no history.
 * Systems with info != 0 are not counted. */

/* All fields zero (NULL is fine). */
void bsym_plan_init(bsym_plan *plan);
/* The step the next automatic call with this plan starts with:
 *   BSYM_METHOD_EIGEN    more than half of the last call's systems needed the
 *                        truncated spectrum;
 *   BSYM_METHOD_TRIDIAG  else, when more than half of the systems seen were
 *                        not positive definite (LDL^T would fail most);
 *   BSYM_METHOD_LDLT     else, no history included: the certified LDL^T. */
bsym_method bsym_plan_start(const bsym_plan *plan);
/* Why bsym_plan_start chose its step, in words (a static string). */
const char *bsym_plan_reason(const bsym_plan *plan);

/* Default options: rcond BSYM_RCOND_DEFAULT; tol <= 0 means the default
 * 16 * n * eps of the working precision (eps = 2^-53 or 2^-24). */
#define BSYM_RCOND_DEFAULT 1e-5
typedef struct {
    bsym_method method;
    double rcond;      /* EIGEN and AUTO: 0 <= rcond < 1                      */
    double tol;        /* AUTO: backward error threshold; <= 0: the default   */
    bsym_plan *plan;   /* AUTO: read, then updated with this call; may be NULL */
} bsym_solve_opts;

/* opts NULL: method AUTO with the defaults. Arguments as bsym_dsolve, and
 *   rank  batch ints or NULL: pairs kept by EIGEN, n for the other paths,
 *         -1 where info != 0;
 *   used  batch ints or NULL: the bsym_method that produced each solution
 *         (LDLT, TRIDIAG or EIGEN; BUNCH_KAUFMAN or AASEN when asked for).
 * info: 0 ok; -1 non-finite input; with LDLT or TRIDIAG (not AUTO) j > 0 a
 * breakdown as bsym_dsolve; with BUNCH_KAUFMAN j > 0 when D(j, j) is exactly
 * zero (A singular), with AASEN when the pivoted tridiagonal solve met an
 * exactly zero pivot in row j (see bsym_zsolvex); with EIGEN or AUTO j > 0
 * when the eigensolver did not converge (never seen). BUNCH_KAUFMAN and AASEN
 * run on the GPU for n <= BSYM_GPU_INDEF_MAX_N (beyond: device GPU gives
 * BSYM_ERR_SIZE, AUTO the CPU), with the CPU's pivot choices and info codes.
 * After an error status the plan is unchanged. */
bsym_status bsym_dsolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                         int64_t n, int64_t nrhs, int64_t batch,
                         const double *A, double *B, int *info, int *rank, int *used);
bsym_status bsym_ssolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                         int64_t n, int64_t nrhs, int64_t batch,
                         const float *A, float *B, int *info, int *rank, int *used);
/* As bsym_ssolvex (single-precision arithmetic, eps = 2^-24), on double
 * arrays (as LAPACK's dsgesv): the CPU converts while it packs its tiles and
 * writes its results, the GPU while it packs its staging buffers, so no copy
 * of A or B is made and only floats cross the host link. */
bsym_status bsym_dssolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                          int64_t n, int64_t nrhs, int64_t batch,
                          const double *A, double *B, int *info, int *rank, int *used);

/* ---- complex Hermitian solves --------------------------------------------
 * bsym_zsolvex (complex double), bsym_csolvex (complex float) and
 * bsym_zcsolvex (complex float arithmetic, eps = 2^-24, on complex double
 * arrays: for R, which has no complex float; the CPU solves float copies)
 * solve A_k X_k = B_k for Hermitian A_k, arguments and outputs as
 * bsym_dsolvex:
 *   A     n x n x batch complex, read only; the triangle named by uplo is
 *         referenced (uplo 'U': entry (i, j), i > j, is conj(A(j, i))); the
 *         imaginary part of the diagonal is ignored (taken as zero), and so is
 *         the other triangle.
 *   B     n x nrhs x batch complex; on return the solutions (NaN + NaN i
 *         where info != 0).
 *   opts  every method, as bsym_dsolvex (opts NULL: AUTO with the defaults):
 *         BSYM_METHOD_LDLT (LDL^H without pivoting, D real),
 *         BSYM_METHOD_BUNCH_KAUFMAN, BSYM_METHOD_AASEN;
 *         BSYM_METHOD_TRIDIAG: A = Q T Q^H with T real symmetric tridiagonal
 *         (bsym_ztridiagonalize's reduction), T y = Q^H b solved by the real
 *         method's tridiagonal solver (PCR, Gaussian elimination with partial
 *         pivoting where PCR's residual is not small) on the real and the
 *         imaginary part, x = Q y;
 *         BSYM_METHOD_EIGEN: A = V diag(l) V^H (l real), x = sum over the
 *         pairs with |l| >= rcond max|l| and l != 0 of v (v^H b) / l, rank
 *         the pairs kept, as the real method;
 *         BSYM_METHOD_AUTO: the real strategy's steps and rules (see
 *         bsym_dsolvex), step 1 LDL^H certified by the inertia of the LDL^H
 *         factorization of A - sigma I and the backward error (moduli of
 *         the complex entries), step 2 TRIDIAG above, step 3 EIGEN above;
 *         tol and plan as bsym_dsolvex.
 *   info  batch ints: 0 ok; -1 a non-finite entry in the referenced triangle
 *         (the diagonal's real part) or in B; j > 0: LDLT the first pivot j
 *         with |d_j| <= n eps max|a_ij| or not finite; BUNCH_KAUFMAN D(j, j)
 *         is exactly zero (A singular, LAPACK's zhetrf rule); AASEN the
 *         pivoted tridiagonal solve met an exactly zero pivot in row j;
 *         TRIDIAG a zero pivot of the tridiagonal solve, or a non-finite
 *         solution, in row j (T, and so A, singular or nearly so); EIGEN
 *         and AUTO as bsym_dsolvex.
 *   rank  batch ints or NULL: n (EIGEN, and AUTO's systems solved by EIGEN:
 *         the pairs kept), or -1 where info != 0.
 *   used  batch ints or NULL: the method (bsym_used_name names it); AUTO:
 *         LDLT, TRIDIAG or EIGEN per system.
 * The GPU has LDLT, BUNCH_KAUFMAN and AASEN, n <= BSYM_GPU_INDEF_MAX_N; for
 * the others device GPU gives BSYM_ERR_SIZE (or BSYM_ERR_NODEVICE without a
 * GPU), device AUTO chooses the CPU.
 * The real solves (bsym_dsolvex, bsym_ssolvex, bsym_dssolvex, bsym_dsolve,
 * bsym_ssolve) take BUNCH_KAUFMAN and AASEN too, with the same info codes. */
bsym_status bsym_zsolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                         int64_t n, int64_t nrhs, int64_t batch,
                         const bsym_cdouble *A, bsym_cdouble *B, int *info, int *rank, int *used);
bsym_status bsym_csolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                         int64_t n, int64_t nrhs, int64_t batch,
                         const bsym_cfloat *A, bsym_cfloat *B, int *info, int *rank, int *used);
bsym_status bsym_zcsolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo,
                          int64_t n, int64_t nrhs, int64_t batch,
                          const bsym_cdouble *A, bsym_cdouble *B, int *info, int *rank, int *used);
/* As bsym_zsolvex / bsym_csolvex with the method alone (default options, no
 * rank or used), as bsym_dsolve. */
bsym_status bsym_zsolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const bsym_cdouble *A, bsym_cdouble *B, int *info);
bsym_status bsym_csolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const bsym_cfloat *A, bsym_cfloat *B, int *info);

/* ---- batched least squares -----------------------------------------------
 * For k = 0 .. batch-1: the weighted least-squares fit Y_k ~ X_k beta_k,
 * through the normal equations G = X^T W X, C = X^T W Y (formed on the
 * device that solves them, by batchsym's own kernel), solved as bsym_dsolvex
 * with opts (rcond applies to the eigenvalues of G, the squares of the
 * singular values of W^(1/2) X: rcond = 1e-5 caps cond(X) near 316).
 *   X     m x p x batch, read only;
 *   Y     m x nrhs x batch, read only;
 *   w     weights (>= 0), or NULL for all ones: system k's m weights start
 *         at w + k * w_stride;
 *   w_stride  m (an m x batch array: weights per system) or 0 (one vector of
 *         m weights shared by every system); ignored when w is NULL;
 *   beta  p x nrhs x batch: the coefficients (NaN where info != 0);
 *   rss   nrhs x batch or NULL: sum_i w_i (y_i - x_i^T beta)^2 per column;
 *   rank, used, info as bsym_dsolvex (rank of G's truncated spectrum);
 *         info -1 also for a negative or non-finite weight.
 */
bsym_status bsym_dlsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const double *X, const double *Y,
                        const double *w, int64_t w_stride, double *beta, double *rss,
                        int *rank, int *used, int *info);
bsym_status bsym_slsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const float *X, const float *Y,
                        const float *w, int64_t w_stride, float *beta, float *rss,
                        int *rank, int *used, int *info);

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
/* Complex Hermitian A_k (complex double, complex float): A_k = Q_k T_k Q_k^H,
 * Q_k unitary, T_k REAL symmetric tridiagonal with e >= 0 (a complex
 * Householder reduction as LAPACK's zhetrd, then a unitary diagonal scaling
 * that makes the off-diagonal real and non-negative, folded into Q). d and e
 * are real (double, float); the rest as above. Only the triangle named by
 * uplo is read (the other as its conjugate transpose), the diagonal's
 * imaginary part is ignored (neither read nor checked). On the CPU, or on
 * the GPU for n <= BSYM_GPU_HOUSEHOLDER_MAX_N (cuda/hetrd.cu: the same
 * results up to rounding). */
bsym_status bsym_ztridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const bsym_cdouble *A, double *d, double *e, bsym_cdouble *Q,
                                 int *info);
bsym_status bsym_ctridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const bsym_cfloat *A, float *d, float *e, bsym_cfloat *Q, int *info);

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
 * reduction A = Q T Q^T and back-transformation). On the CPU, n <= 64 runs
 * tiles of systems SIMD across the batch instead: Householder, then implicit
 * QL (values, and vectors by accumulating its rotations into Q).
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
 *   info  batch ints: 0 ok; -1 non-finite input; j > 0 the secular
 *         equation's iteration did not converge (near the j-th eigenvalue,
 *         1-based; never seen in testing). Every system with info != 0, of
 *         either kind and on either device, has w and V NaN and count 0.
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

/* Largest n of the GPU eigensolver kernels (bsym_*syev, bsym_*stev; same
 * rules as for LDL^T). */
#define BSYM_GPU_EIGEN_MAX_N 256
/* Largest n of the GPU truncated-spectrum and automatic solves
 * (BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO) and least-squares fits (p). */
#define BSYM_GPU_STRATEGY_MAX_N 256

bsym_status bsym_dsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const double *A,
                       const bsym_select *sel, double *w, double *V, int *count, int *info);
bsym_status bsym_ssyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const float *A,
                       const bsym_select *sel, float *w, float *V, int *count, int *info);
bsym_status bsym_dstev(bsym_ctx *ctx, int64_t n, int64_t batch, const double *d, const double *e,
                       const bsym_select *sel, double *w, double *V, int *count, int *info);
/* Complex Hermitian A (complex double, complex float): as bsym_dsyev /
 * bsym_ssyev in every respect (sel, w, count, info, ordering), with w REAL
 * and V complex (unit eigenvectors, orthonormal columns: V^H V = I). The
 * triangle named by uplo is read as bsym_ztridiagonalize reads it, and
 * solved as A = Q T Q^H (bsym_ztridiagonalize), then the real tridiagonal
 * eigensolver on T (the bsym_*stev path), then V = Q Z; on the CPU, or on
 * the GPU for n <= BSYM_GPU_EIGEN_MAX_N (as bsym_ztridiagonalize). */
bsym_status bsym_zsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const bsym_cdouble *A,
                       const bsym_select *sel, double *w, bsym_cdouble *V, int *count, int *info);
bsym_status bsym_csyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const bsym_cfloat *A,
                       const bsym_select *sel, float *w, bsym_cfloat *V, int *count, int *info);
bsym_status bsym_sstev(bsym_ctx *ctx, int64_t n, int64_t batch, const float *d, const float *e,
                       const bsym_select *sel, float *w, float *V, int *count, int *info);

/* ---- names, ids and checks the bindings share ---------------------------
 * The rules that R and Octave would otherwise each write out: names users
 * type, status ids, option, plan and selection checks, the shape of the
 * eigensolvers' output, the one warning about failed systems. A binding
 * checks only its own types and shapes and hands values to these. Functions
 * taking a ctx leave their message on it (ctx may be NULL: no message) and
 * never print. */

/* A stable lower-case id of a status: "ok", "bad_argument", "out_of_memory",
 * "no_device", "cuda_failure", "size_unsupported", "interrupted" ("unknown"
 * for a code not in bsym_status). R raises condition class batchsym_<id>,
 * Octave the identifier batchsym:<id>. */
const char *bsym_status_id(bsym_status status);

typedef enum {
    BSYM_PRECISION_DOUBLE = 0,
    BSYM_PRECISION_SINGLE = 1
} bsym_precision;

/* The lists of names users type; a name's code is its position:
 *   METHOD     "ldlt", "tridiag", "eigen", "auto",
 *              "bunch-kaufman", "aasen"            (= bsym_method)
 *   DEVICE     "auto", "cpu", "gpu"                (= bsym_device)
 *   PRECISION  "double", "single"                  (= bsym_precision)
 *   UPLO       "L", "U"                            (code 0 reads the lower
 *                                                   triangle, 1 the upper)
 *   BOUNDARY   "linear", "dirichlet"               (= bsym_pde_boundary) */
typedef enum {
    BSYM_CHOICE_METHOD = 0,
    BSYM_CHOICE_DEVICE = 1,
    BSYM_CHOICE_PRECISION = 2,
    BSYM_CHOICE_UPLO = 3,
    BSYM_CHOICE_BOUNDARY = 4
} bsym_choice;

/* The name of `code` in list `kind`; NULL past the end (a binding lists the
 * choices with for (i = 0; bsym_choice_name(kind, i); i++)) or for an
 * unknown kind. */
const char *bsym_choice_name(bsym_choice kind, int code);

/* *code = the position of `value` in list `kind` (exact match: the names are
 * lower case but for uplo; a binding whose convention ignores case folds
 * the value first). Otherwise BSYM_ERR_ARG with the message
 *   <arg> must be one of "a", "b", ... (got "x")
 * where value NULL stands for anything that is not a single string
 * ("(got something other than a single string)"). */
bsym_status bsym_choice_parse(bsym_ctx *ctx, bsym_choice kind, const char *arg, const char *value,
                              int *code);

/* Options as a binding receives them: method a bsym_method code, rcond as
 * given, tol NULL when not given (the default 16 n eps), else it must be
 * positive and finite; plan (may be NULL) is stored in out->plan. Checks
 * them (and through bsym_solve_opts_check), messages naming rcond or tol. */
bsym_status bsym_solve_opts_make(bsym_ctx *ctx, int method, double rcond, const double *tol,
                                 bsym_plan *plan, bsym_solve_opts *out);

/* The rule bsym_*solvex and bsym_*lsfit apply to their options: a known
 * method, 0 <= rcond < 1, tol finite (<= 0: the default) and, with method
 * AUTO, a plan that passes bsym_plan_check. */
bsym_status bsym_solve_opts_check(bsym_ctx *ctx, const bsym_solve_opts *opts);

/* A plan as numbers, for the bindings: the six counts in this order. */
#define BSYM_PLAN_FIELDS 6
/* "calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback";
 * NULL past the end. */
const char *bsym_plan_field_name(int i);
void bsym_plan_to_fields(const bsym_plan *plan, double fields[BSYM_PLAN_FIELDS]);
/* *plan from the fields (each a whole number 0 <= f <= 2^53), then checked
 * as bsym_plan_check; messages name the plan as `arg` ("plan"). */
bsym_status bsym_plan_from_fields(bsym_ctx *ctx, const char *arg,
                                  const double fields[BSYM_PLAN_FIELDS], bsym_plan *plan);
/* A plan that batchsym could have written: every count >= 0, and not_spd,
 * fallback, last_systems <= systems, last_fallback <= last_systems. */
bsym_status bsym_plan_check(bsym_ctx *ctx, const bsym_plan *plan);

/* The selection of bsym_*syev / bsym_*stev checked for order n: kind known;
 * INDEX 1 <= il <= iu <= n; VALUE vl < vu (neither NaN). NULL is fine (all). */
bsym_status bsym_select_check(bsym_ctx *ctx, const bsym_select *sel, int64_t n);

/* *sel from the values a user gives: index (two numbers, or NULL) the i-th
 * to j-th eigenvalue, whole numbers 1 <= i <= j <= n, counted from the
 * largest when `descending` (R) else from the smallest (Octave); interval
 * (two numbers lo < hi, or NULL) the values in (lo, hi]; neither: all; not
 * both. Messages name index and interval. */
bsym_status bsym_select_make(bsym_ctx *ctx, const double *index, const double *interval,
                             int64_t n, int descending, bsym_select *sel);

/* The rows of the eigensolvers' output as the bindings return it: n for
 * all, iu - il + 1 for an index range, the largest count[k] (0 where info
 * != 0, see bsym_*syev) for a value interval; count may be NULL but for
 * BSYM_SELECT_VALUE. sel NULL means all. */
int64_t bsym_select_rows(const bsym_select *sel, int64_t n, int64_t batch, const int *count);

/* Packs the core's n x batch values w and n x n x batch vectors V (NULL:
 * none) into rows x batch and n x rows x batch (ow, ov; ow == w and ov == V
 * packs in place): system k's c = count[k] selected values (0 where
 * info[k] != 0; at most rows) ascending, or descending when `descending`
 * (their vector columns likewise), then `fill` in the rest of its rows and
 * columns (R's NA, Octave's NaN). rows <= n. */
void bsym_dselect_pack(int64_t n, int64_t rows, int64_t batch, const int *count, const int *info,
                       int descending, double fill, const double *w, const double *V, double *ow,
                       double *ov);
void bsym_sselect_pack(int64_t n, int64_t rows, int64_t batch, const int *count, const int *info,
                       int descending, float fill, const float *w, const float *V, float *ow,
                       float *ov);

/* What a call did, for the summary of its failed systems. */
typedef enum {
    BSYM_TASK_SOLVE = 0,      /* bsym_*solve(x): info > 0 is a pivot breakdown
                                 (used LDLT or TRIDIAG) or no convergence (used
                                 EIGEN; used NULL: breakdown)                  */
    BSYM_TASK_LSFIT = 1,      /* bsym_*lsfit: as SOLVE; -1 also bad weights    */
    BSYM_TASK_TRIDIAG_SOLVE = 2,
    BSYM_TASK_TRIDIAGONALIZE = 3,
    BSYM_TASK_EIGEN = 4,      /* bsym_*syev, bsym_*stev: > 0 no convergence    */
    BSYM_TASK_PDE = 5         /* bsym_*pde_solve: > 0 a pivot breakdown at a
                                 time level                                    */
} bsym_task;

/* The one sentence about the systems of info[batch] that failed, into buf
 * (len bytes, truncated, NUL-terminated; "" when none failed), e.g.
 *   2 of 6 systems could not be solved (1 non-finite input, 1 pivot
 *   breakdown: singular or nearly so; the first is system 3, info -1)
 * (system numbers 1-based). A binding prefixes its function's name and may
 * append where the info codes are. Returns the number of failed systems. */
int64_t bsym_failure_summary(bsym_task task, int64_t batch, const int *info, const int *used,
                             char *buf, size_t len);

/* The name ("ldlt", "tridiag", "eigen", "bunch-kaufman" or "aasen") of the
 * method that solved a system, from bsym_*solvex's used[k] and info[k]; NULL
 * (NA) where info != 0 or the code is not one of those (AUTO is not).
 * (rank[k] is -1 exactly where info != 0.) */
const char *bsym_used_name(int used, int info);


/* ---- batched PDE solves (θ-scheme, issue 15) ---------------------------- */
/* For k = 0 .. batch-1 the PDE
 *     du/dt + a d2u/dx2 + b du/dx + c u + d = 0
 * solved BACKWARD from u(t_N, .) = final to t_1 on the grid x_1 < ... < x_m
 * (m >= 3, possibly non-uniform) and times t_1 < ... < t_N (N >= 2), by the
 * θ-scheme of Egloff (2010, sect. 2.3): with the three-point non-uniform
 * weights of the first (eq. 17) and second (eq. 18) derivative,
 *     (L^n u)_i = a_i^n (w2 . u)_i + b_i^n (w1 . u)_i + c_i^n u_i
 * and between levels n and n+1 (dt = t_{n+1} - t_n)
 *     (I - θ dt L^n) u^n = (I + (1 - θ) dt L^{n+1}) u^{n+1}
 *                          + dt (θ d^n + (1 - θ) d^{n+1}),
 * one tridiagonal solve per system and step. rannacher = r: the first r
 * intervals counted from t_N are each taken as two fully implicit half steps
 * (the midpoint's coefficients and boundary values: the average of levels
 * n and n+1). Boundaries, each end on its own:
 *   LINEAR     at the boundary node the a-term is dropped and du/dx is taken
 *              one-sided from the neighbour: (L u)_1 = b_1 (u_2 - u_1) /
 *              (x_2 - x_1) + c_1 u_1 (+ d_1), (L u)_m = b_m (u_m - u_{m-1}) /
 *              (x_m - x_{m-1}) + c_m u_m (+ d_m);
 *   DIRICHLET  u_1^n = the lower value at level n (u_m^n the upper one) at
 *              every level, the half steps' midpoints included.
 * obstacle (American exercise): u = max(u, obstacle) after every (half) step.
 * The CPU solves each step by Gaussian elimination without pivoting
 * (Thomas), vectorized across groups of systems; a system whose pivot is
 * zero or not finite is solved again with partial pivoting. */
typedef enum { BSYM_PDE_LINEAR = 0, BSYM_PDE_DIRICHLET = 1 } bsym_pde_boundary;

/* A coefficient on the grid, broadcast by strides (0 = the same along that
 * axis): entry (node i, level n, system k) is v[i * si + n * sn + k * sk],
 * i < m, n < N, k < batch. A scalar has all strides 0; a length-m vector
 * si = 1; an m x N matrix si = 1, sn = m; m x 1 x batch si = 1, sk = m;
 * m x N x batch si = 1, sn = m, sk = m * N. v == NULL means 0 everywhere.
 * For boundary values only sn and sk are used (si ignored). The element type
 * is the entry point's (double for bsym_dpde_solve and bsym_dspde_solve,
 * float for bsym_spde_solve). */
typedef struct {
    const void *v;
    int64_t si, sn, sk;
} bsym_pde_coef;

typedef struct {
    int64_t m, N, batch;            /* nodes, time levels, systems */
    const void *x, *t;              /* m nodes, N times, strictly increasing */
    bsym_pde_coef a, b, c, d;       /* the coefficients */
    double theta;                   /* in [0, 1] */
    int rannacher;                  /* >= 0, at most N - 1 */
    bsym_pde_boundary lower, upper;
    bsym_pde_coef lower_value, upper_value; /* DIRICHLET only (NULL v: 0) */
    const void *obstacle;           /* m x batch, or NULL */
} bsym_pde;

/* Solves the batch backward from u(t_N) = final (m x batch) to t_1 and writes
 * u(t_1) into u (m x batch; u may equal final). info: batch ints, 0 solved;
 * -1 a non-finite value among the system's own inputs that the call reads
 * (final, and its coefficients, boundary values and obstacle entries) — then
 * its u is all NaN; j > 0: a zero or non-finite pivot, or a non-finite value,
 * at time level j (1-based: the level being computed), its u all NaN. Every
 * other system is solved. Errors (BSYM_ERR_ARG, naming the field): m < 3,
 * N < 2, batch < 0, theta outside [0,1] or NaN, rannacher < 0 or > N - 1, x
 * or t not strictly increasing or not finite (message says which and where),
 * a bad boundary code, NULL x, t, final, u, info (when batch > 0), negative
 * strides. */
bsym_status bsym_dpde_solve(bsym_ctx *ctx, const bsym_pde *p, const double *final, double *u, int *info);
bsym_status bsym_spde_solve(bsym_ctx *ctx, const bsym_pde *p, const float *final, float *u, int *info);
/* double storage (every array of p, final, u), float arithmetic (R's precision = "single") */
bsym_status bsym_dspde_solve(bsym_ctx *ctx, const bsym_pde *p, const double *final, double *u, int *info);
/* ---- end of batched PDE solves (issue 15) ------------------------------- */

/* ---- the shapes of a PDE call's arrays (pde_rules.c) ---------------------
 * The one rule by which R and Octave turn an argument's dimensions into a
 * bsym_pde_coef (strides; v is left to the caller): dims[0..ndims-1] as the
 * binding sees them (R's dim or a vector's length, Octave's size); trailing
 * extents of 1 do not count, and a matrix with one row or one column is a
 * vector. Each returns BSYM_ERR_ARG with a message naming the argument
 * `name` and the shapes it may take.
 * bsym_pde_coef_shape: a coefficient (a, b, c, d): a scalar, a vector of m
 *   (per node), an m x N matrix (per node and level), or an m x 1 x batch or
 *   m x N x batch array (per system).
 * bsym_pde_boundary_shape: a Dirichlet value (lower_value, upper_value) of
 *   the boundary `side` whose condition is `kind`: a scalar, a vector of N
 *   (per level) or of batch (per system; an error when N = batch, which
 *   needs the N x batch matrix), or an N x batch matrix; an error when kind
 *   is not BSYM_PDE_DIRICHLET.
 * bsym_pde_values_shape: terminal values or an obstacle, m x batch (a
 *   vector of m for one system); *batch < 0 on entry: this argument decides
 *   the batch (set on return), else it must match *batch. */
bsym_status bsym_pde_coef_shape(bsym_ctx *ctx, const char *name, int ndims, const int64_t *dims, int64_t m,
                                int64_t N, int64_t batch, bsym_pde_coef *out);
bsym_status bsym_pde_boundary_shape(bsym_ctx *ctx, const char *name, const char *side, bsym_pde_boundary kind,
                                    int ndims, const int64_t *dims, int64_t N, int64_t batch, bsym_pde_coef *out);
bsym_status bsym_pde_values_shape(bsym_ctx *ctx, const char *name, int ndims, const int64_t *dims, int64_t m,
                                  int64_t *batch);

#ifdef __cplusplus
}
#endif
#endif /* BATCHSYM_H */
