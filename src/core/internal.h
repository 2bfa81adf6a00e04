/*
 * internal.h -- what the core's files share and nobody outside the core sees.
 */
#ifndef BSYM_INTERNAL_H
#define BSYM_INTERNAL_H

#include "backend.h"

struct bsym_ctx {
    bsym_device device;          /* the caller's choice                     */
    bsym_device last_device;     /* who served the last successful call     */
    int threads;                 /* OpenMP threads, 0 = runtime default     */
    bsym_interrupt_fn interrupt; /* may be NULL                             */
    void *interrupt_data;
    bsym_progress_fn progress;   /* may be NULL                             */
    void *progress_data;
    void *gpu_state;             /* the GPU backend's cached state, or NULL */
    int gpus[BSYM_MAX_GPUS];     /* bsym_ctx_set_gpus; ngpus 0 = all visible */
    int ngpus;
    char message[512];           /* message of the last failing call        */
};

/* Records a formatted message on ctx and returns status (for `return fail(...)`). */
bsym_status bsym__fail(bsym_ctx *ctx, bsym_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears the message; called at the start of every entry point. */
void bsym__begin(bsym_ctx *ctx);

/* 1 when the caller's interrupt hook asks to stop (calling thread only). */
int bsym__interrupted(bsym_ctx *ctx);

/* Systems handed to the CPU backend between two interrupt checks. */
#define BSYM_CPU_CHUNK 16384

/* Under BSYM_DEVICE_AUTO the GPU serves when batch * n * n reaches this many
 * matrix entries (below it, transfer and launch latency beat the CPU). */
#define BSYM_AUTO_GPU_MIN_ENTRIES ((int64_t)1 << 18)

/* The CPU LDL^T runs 64 bytes' worth of systems at once (8 in double, 16 in
 * float), interleaved so that the arithmetic vectorises across systems, when
 * n <= BSYM_CPU_LANES_MAX_N; larger n go one system at a time. */
#define BSYM_CPU_LANES 8
#define BSYM_CPU_LANES_MAX_N 64

/* The CPU eigensolvers run tiles of 64 / sizeof(T) systems at once (SIMD
 * across the batch: Householder, implicit QL, back-transformation) when
 * n <= BSYM_CPU_EIG_LANES_MAX_N; larger n go one system at a time (divide
 * and conquer, bisection). */
#define BSYM_CPU_EIG_LANES_MAX_N 64

/* malloc for large scratch arrays (release with free): from 4 MiB on, where
 * the system has transparent huge pages on request (Linux), the array asks
 * for them before its first touch, so that it costs a few page faults
 * instead of one per 4 KiB (on some virtual machines those cost more than
 * the solves that use the array). */
void *bsym__malloc_big(size_t bytes);

/* OpenMP team for `units` independent pieces of work: `threads` (0 = the
 * OpenMP default, 1 in a build without OpenMP), at most one per unit, at
 * least one. */
int bsym__team(int64_t units, int threads);

/* One group of a bsym__team_run: group g (0 <= g < groups) of the caller's
 * work, described by ctx, on the calling thread's workspace `work`. */
typedef void (*bsym__team_body)(void *ctx, int64_t g, void *work);

/* The CPU backends' OpenMP loop over independent groups of systems (a group:
 * one system, or one SIMD tile of them): body(ctx, g, work) for every g in
 * [0, groups) on a team of bsym__team(groups, threads) threads. Each thread
 * owns one workspace of `bytes` bytes, 64-byte aligned (bsym__malloc_big,
 * so huge pages from 4 MiB), kept across its groups and released at the
 * end. chunk 0 hands the groups out by schedule(static) (groups of equal
 * cost), chunk > 0 by schedule(dynamic, chunk) (groups of uneven cost).
 * Returns 0, or -1 when some thread's workspace could not be allocated:
 * then no group has run. The body is called once per group, so the
 * indirect call costs nothing beside a group's work. */
int bsym__team_run(int64_t groups, int threads, size_t bytes, int chunk, bsym__team_body body, void *ctx);

/* bytes rounded up to a whole number of 64-byte lines: where the next array
 * of a workspace starts, so that it is 64-byte aligned as the first. */
static inline size_t bsym__align64(size_t bytes)
{
    return (bytes + 63) / 64 * 64;
}

/* CPU LDL^T solves of systems [0, count) of a batch (ldlt.c), OpenMP over the
 * batch with `threads` threads (0 = default). Returns 0, or -1 when a thread's
 * workspace could not be allocated. */
int bsym__ldlt_cpu_d(char uplo, int64_t n, int64_t nrhs, int64_t count,
                     const double *A, double *B, int *info, int threads);
int bsym__ldlt_cpu_s(char uplo, int64_t n, int64_t nrhs, int64_t count,
                     const float *A, float *B, int *info, int threads);
/* The same, and the certificate of the automatic strategy's first step
 * (strategy_numerics.h): ok[k] = 1 when system k keeps its LDL^T solution
 * (info 0, A - sigma I positive definite, backward error <= tol). */
int bsym__ldlt_cert_cpu_d(char uplo, int64_t n, int64_t nrhs, int64_t count, const double *A, double *B,
                          int *info, int *ok, double rcond, double tol, int threads);
int bsym__ldlt_cert_cpu_s(char uplo, int64_t n, int64_t nrhs, int64_t count, const float *A, float *B,
                          int *info, int *ok, double rcond, double tol, int threads);
/* Float arithmetic on double storage (prec_mixed.h: suffix m). */
int bsym__ldlt_cpu_m(char uplo, int64_t n, int64_t nrhs, int64_t count, const double *A, double *B, int *info,
                     int threads);
int bsym__ldlt_cert_cpu_m(char uplo, int64_t n, int64_t nrhs, int64_t count, const double *A, double *B,
                          int *info, int *ok, double rcond, double tol, int threads);

/* CPU solves of symmetric indefinite and complex Hermitian systems (indef.c),
 * systems [0, count) of a batch, OpenMP over the batch with `threads`
 * threads (0 = default): method BSYM_METHOD_BUNCH_KAUFMAN or
 * BSYM_METHOD_AASEN (every precision), or BSYM_METHOD_LDLT (complex only:
 * LDL^H without pivoting; the real LDL^T is ldlt.c's). A and B as
 * bsym_*solve (complex as C99 complex, i.e. bsym_cfloat / bsym_cdouble),
 * info as bsym_zsolvex. Returns 0, or -1 when a thread's workspace could not
 * be allocated. */
int bsym__indef_cpu_s(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const float *A, float *B,
                      int *info, int threads);
int bsym__indef_cpu_d(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const double *A, double *B,
                      int *info, int threads);
int bsym__indef_cpu_c(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const float _Complex *A,
                      float _Complex *B, int *info, int threads);
int bsym__indef_cpu_z(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const double _Complex *A,
                      double _Complex *B, int *info, int threads);

/* CPU Householder backend (householder.c), systems [0, count) of a batch,
 * OpenMP over the batch; arguments as the public entry points. Return 0, or
 * -1 when a thread's workspace could not be allocated.
 *   tridiagonalize: A = Q T Q^T (Q may be NULL: not formed);
 *   hhsolve:        BSYM_METHOD_TRIDIAG solves (Householder, PCR on T with
 *                   Q^T b, x = Q z; Q is never formed); d (n x count) and
 *                   e (n x count, n per system) receive T scaled by a power of
 *                   two when not NULL (for the conditioning test). */
int bsym__tridiagonalize_cpu_d(char uplo, int64_t n, int64_t count, const double *A,
                               double *d, double *e, double *Q, int *info, int threads);
int bsym__tridiagonalize_cpu_s(char uplo, int64_t n, int64_t count, const float *A,
                               float *d, float *e, float *Q, int *info, int threads);
int bsym__hhsolve_cpu_d(char uplo, int64_t n, int64_t nrhs, int64_t count, const double *A,
                        double *B, int *info, int threads, double *d, double *e);
int bsym__hhsolve_cpu_s(char uplo, int64_t n, int64_t nrhs, int64_t count, const float *A,
                        float *B, int *info, int threads, float *d, float *e);

/* The real TRIDIAG method's tridiagonal solve (householder.c: PCR, then
 * Gaussian elimination with partial pivoting where PCR's residual is not
 * small) of one real right-hand side x (overwritten), T symmetric
 * tridiagonal (d n, e n-1 entries); work bsym__hh_tridiag_work_*(n)
 * elements. Returns 0 or the 1-based row of a breakdown. The complex TRIDIAG
 * solve (hetrd.c) solves its real T with it. */
size_t bsym__hh_tridiag_work_d(int64_t n);
size_t bsym__hh_tridiag_work_s(int64_t n);
int bsym__hh_tridiag_solve_one_d(int64_t n, const double *d, const double *e, double *x, double *work);
int bsym__hh_tridiag_solve_one_s(int64_t n, const float *d, const float *e, float *x, float *work);

/* The pieces of the complex automatic solve's first step on one system
 * (indef.c; see indef_impl.h): the LDL^H solve of method LDLT that stops
 * at a pivot that is not positive (the factors stay in work), and the
 * signs of the pivots of A - sigma I; work bsym__ldlh_cert_work_*(n)
 * elements. */
size_t bsym__ldlh_cert_work_z(int64_t n);
size_t bsym__ldlh_cert_work_c(int64_t n);
int bsym__ldlh_cert_solve_z(char uplo, int64_t n, int64_t nrhs, const double _Complex *A, double _Complex *B,
                            double _Complex *work);
int bsym__ldlh_cert_solve_c(char uplo, int64_t n, int64_t nrhs, const float _Complex *A, float _Complex *B,
                            float _Complex *work);
int bsym__ldlh_shift_pos_z(char uplo, int64_t n, const double _Complex *A, double sigma, double _Complex *work);
int bsym__ldlh_shift_pos_c(char uplo, int64_t n, const float _Complex *A, float sigma, float _Complex *work);

/* One system's Householder tridiagonalization (householder.c), as
 * bsym_*tridiagonalize; work: BSYM_HH_TRD_WORK(n) elements. Returns 0 or -1
 * (non-finite input: d, e, Q NaN). */
#define BSYM_HH_TRD_WORK(n) ((size_t)(n) * (size_t)(n) + 2 * (size_t)(n))
int bsym__hh_tridiagonalize_one_d(char uplo, int64_t n, const double *A, double *d, double *e,
                                  double *Q, double *work);
int bsym__hh_tridiagonalize_one_s(char uplo, int64_t n, const float *A, float *d, float *e,
                                  float *Q, float *work);

/* Complex Hermitian tridiagonalization and eigensolvers (hetrd.c), systems
 * [0, count), arguments as bsym_[zc]tridiagonalize and bsym_[zc]syev (T
 * real: d, e, w in the real type of the parts; sel never NULL; Q, V, cnt
 * may be NULL). Return 0, or -1 (no memory). One system's reduction:
 * work BSYM_HE_TRD_WORK(n) complex elements; returns 0 or -1. */
#define BSYM_HE_TRD_WORK(n) ((size_t)(n) * (size_t)(n) + 3 * (size_t)(n))
int bsym__he_tridiagonalize_one_z(char uplo, int64_t n, const double _Complex *A, double *d,
                                  double *e, double _Complex *Q, double _Complex *work);
int bsym__he_tridiagonalize_one_c(char uplo, int64_t n, const float _Complex *A, float *d,
                                  float *e, float _Complex *Q, float _Complex *work);
int bsym__tridiagonalize_cpu_z(char uplo, int64_t n, int64_t count, const double _Complex *A,
                               double *d, double *e, double _Complex *Q, int *info, int threads);
int bsym__tridiagonalize_cpu_c(char uplo, int64_t n, int64_t count, const float _Complex *A,
                               float *d, float *e, float _Complex *Q, int *info, int threads);
/* BSYM_METHOD_TRIDIAG on complex Hermitian systems (hetrd.c), as
 * bsym__hhsolve_cpu_d: T' (d, e, n x count each, real) when not NULL. */
int bsym__hhsolve_cpu_z(char uplo, int64_t n, int64_t nrhs, int64_t count, const double _Complex *A,
                        double _Complex *B, int *info, int threads, double *d, double *e);
int bsym__hhsolve_cpu_c(char uplo, int64_t n, int64_t nrhs, int64_t count, const float _Complex *A,
                        float _Complex *B, int *info, int threads, float *d, float *e);
int bsym__eig_cpu_z(char uplo, int64_t n, int64_t count, const double _Complex *A,
                    const bsym_select *sel, double *w, double _Complex *V, int *cnt, int *info,
                    int threads);
int bsym__eig_cpu_c(char uplo, int64_t n, int64_t count, const float _Complex *A,
                    const bsym_select *sel, float *w, float _Complex *V, int *cnt, int *info,
                    int threads);

/* One system's eigensolver (eigen.c), as bsym_*syev (A != NULL) or
 * bsym_*stev (d, e): n values in w, V n x n or NULL, the selected count in
 * *cnt; work bsym__eig_work_*(n) elements, iwork TE_WORK_I(n) ints. Returns
 * the info code. */
size_t bsym__eig_work_d(int64_t n);
size_t bsym__eig_work_s(int64_t n);
int bsym__eig_one_d(char uplo, int n, const double *A, const double *d, const double *e,
                    const bsym_select *sel, double *w, double *V, int *cnt, double *work, int *iwork);
int bsym__eig_one_s(char uplo, int n, const float *A, const float *d, const float *e,
                    const bsym_select *sel, float *w, float *V, int *cnt, float *work, int *iwork);

/* CPU eigensolvers (eigen.c), systems [0, count) of bsym_*syev (A != NULL)
 * or bsym_*stev (A == NULL: d, e), arguments as the entry points (sel never
 * NULL, V and cnt may be NULL). Returns 0, or -1 (no memory). */
int bsym__eig_cpu_d(char uplo, int64_t n, int64_t count, const double *A, const double *d,
                    const double *e, const bsym_select *sel, double *w, double *V, int *cnt,
                    int *info, int threads);
int bsym__eig_cpu_s(char uplo, int64_t n, int64_t count, const float *A, const float *d,
                    const float *e, const bsym_select *sel, float *w, float *V, int *cnt,
                    int *info, int threads);

/* CPU drivers (strategy.c), systems [0, count): A n x n x count, B n x nrhs x
 * count overwritten with X; info, rank, used as bsym_*solvex; stats
 * accumulated (+=). Return 0, or -1 when a workspace could not be allocated. */
int bsym__strategy_cpu_d(const bsym__strategy *job, int64_t count, const double *A, double *B,
                       int *info, int *rank, int *used, bsym__strategy_stats *stats, int threads);
int bsym__strategy_cpu_s(const bsym__strategy *job, int64_t count, const float *A, float *B,
                       int *info, int *rank, int *used, bsym__strategy_stats *stats, int threads);
int bsym__strategy_cpu_m(const bsym__strategy *job, int64_t count, const double *A, double *B,
                       int *info, int *rank, int *used, bsym__strategy_stats *stats, int threads);
/* Complex Hermitian (strategy.c: EIGEN and AUTO; AUTO's steps LDL^H,
 * TRIDIAG and EIGEN as the real ones). */
int bsym__strategy_cpu_z(const bsym__strategy *job, int64_t count, const double _Complex *A,
                         double _Complex *B, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                         int threads);
int bsym__strategy_cpu_c(const bsym__strategy *job, int64_t count, const float _Complex *A,
                         float _Complex *B, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                         int threads);
/* bsym_*lsfit on systems [0, count): job->n = p, job->nrhs = the responses;
 * X m x p x count, Y m x nrhs x count, w (system k's at w + k * job->w_stride)
 * or NULL, beta p x nrhs x
 * count, rss nrhs x count or NULL. */
int bsym__lsfit_cpu_d(const bsym__strategy *job, int64_t m, int64_t count, const double *X,
                      const double *Y, const double *w, double *beta, double *rss, int *info,
                      int *rank, int *used, bsym__strategy_stats *stats, int threads);
int bsym__lsfit_cpu_s(const bsym__strategy *job, int64_t m, int64_t count, const float *X,
                      const float *Y, const float *w, float *beta, float *rss, int *info,
                      int *rank, int *used, bsym__strategy_stats *stats, int threads);

/* CPU PCR backend (pcr.c): bsym_*tridiag_solve on systems [0, count), du NULL
 * for symmetric; returns 0 or -1 (no memory). */
int bsym__pcr_cpu_d(int64_t n, int64_t nrhs, int64_t count, const double *dl, const double *d,
                    const double *du, double *B, int *info, int threads);
int bsym__pcr_cpu_s(int64_t n, int64_t nrhs, int64_t count, const float *dl, const float *d,
                    const float *du, float *B, int *info, int threads);

/* ---- issue 15 (PDE) ------------------------------------------------------
 * CPU θ-scheme solves (pde.c) of systems [0, count) of a batch: system k's
 * inputs at entry pde_k0 + k of p (see bsym__job), final and u m x count.
 * OpenMP over groups of systems. Returns 0, or -1 (no memory). */
int bsym__pde_cpu_d(const bsym_pde *p, int64_t pde_k0, int64_t count, const double *final, double *u,
                    int *info, int threads);
int bsym__pde_cpu_s(const bsym_pde *p, int64_t pde_k0, int64_t count, const float *final, float *u,
                    int *info, int threads);
int bsym__pde_cpu_m(const bsym_pde *p, int64_t pde_k0, int64_t count, const double *final, double *u,
                    int *info, int threads);
/* The grid's finite-difference weights, shared by the CPU and the GPU
 * solvers (pde.c): w (6 m doubles) gets, per node i (0 at the two ends),
 * those of the first derivative (Egloff's eq. 17: w1m, w1c, w1p at w[i],
 * w[m + i], w[2m + i]) and of the second (eq. 18: w2m, w2c, w2p at w[3m + i],
 * w[4m + i], w[5m + i]); bl, bu the one-sided 1 / (x_1 - x_0) and
 * 1 / (x_{m-1} - x_{m-2}) of the "linear" boundaries. x_float: p->x holds
 * floats (bsym_spde_solve), else doubles. Each solver rounds them to its
 * arithmetic's type. */
void bsym__pde_weights(const bsym_pde *p, int x_float, double *w, double *bl, double *bu);

#endif
