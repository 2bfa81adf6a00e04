/*
 * backend.h -- the one interface between the dispatcher (dispatch.c) and the
 * backends that do the work: the CPU backend (cpu_backend.c, always there)
 * and the CUDA backend (cuda/backend.cu, in a build with CUDA). Plain C: a
 * backend includes this header, the core never includes a backend's.
 *
 * The dispatcher validates a call, describes it in one bsym__job, picks a
 * backend and calls one row of that backend's table:
 *
 *     backend->op[BSYM__OP_LDLT][BSYM__PREC_D](&exec, &job)
 *
 * Adding a method is one operation id here plus one function per backend in
 * its table; adding a precision is one column (the complex types have
 * theirs: the CPU fills them for the solves LDLT, BK and AASEN, and for
 * TRIDIAGONALIZE and EIG, whose d, e and w are then real, in the real type
 * of the parts: bsym_[zc]tridiagonalize, bsym_[zc]syev; the GPU has none).
 */
#ifndef BSYM_BACKEND_H
#define BSYM_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "batchsym.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The element types, in LAPACK's letters: the columns of a backend table. */
typedef enum {
    BSYM__PREC_S = 0, /* float          */
    BSYM__PREC_D = 1, /* double         */
    BSYM__PREC_C = 2, /* complex float  */
    BSYM__PREC_Z = 3, /* complex double */
    BSYM__PREC_DS = 4, /* float arithmetic on double storage (prec_mixed.h);
                          an operation without it gets float copies
                          (dispatch.c, run_staged) */
    BSYM__PREC_ZC = 5, /* complex float arithmetic on complex double storage
                          (bsym_zcsolvex); an operation without it gets
                          complex float copies (run_staged, as DS) */
    BSYM__PRECS
} bsym__prec;

/* The operation families: the rows of a backend table. */
typedef enum {
    BSYM__OP_LDLT = 0,      /* bsym_*solve, LDL^T without pivoting (complex:
                               LDL^H, D real)                                  */
    BSYM__OP_HHSOLVE,       /* bsym_*solve, Householder + PCR (TRIDIAG)        */
    BSYM__OP_TRIDIAGONALIZE,/* bsym_*tridiagonalize                            */
    BSYM__OP_PCR,           /* bsym_*tridiag_solve                             */
    BSYM__OP_EIG,           /* bsym_*syev (A given) and bsym_*stev (d, e)      */
    BSYM__OP_STRATEGY,      /* bsym_*solvex, methods EIGEN and AUTO            */
    BSYM__OP_LSFIT,         /* bsym_*lsfit                                     */
    BSYM__OP_BK,            /* bsym_*solve(x), BSYM_METHOD_BUNCH_KAUFMAN       */
    BSYM__OP_AASEN,         /* bsym_*solve(x), BSYM_METHOD_AASEN               */
    /* issue 15 (PDE) */
    BSYM__OP_PDE,           /* bsym_*pde_solve: θ-scheme, Thomas per step      */
    BSYM__OPS
} bsym__op;

/* What one call of the truncated-spectrum and automatic solves (and of least
 * squares, which solves its normal equations that way) decided before its
 * chunks:
 *   start  BSYM_METHOD_EIGEN: every system by the truncated spectrum;
 *          BSYM_METHOD_TRIDIAG or _LDLT: the cheap solve, then per system the
 *          backward error (and after TRIDIAG the conditioning test on T); the
 *          systems that fail are solved again by the truncated spectrum. */
typedef struct {
    char uplo;
    int64_t n, nrhs;
    bsym_method start;
    int check;           /* 1 (AUTO): steps 2 and 3 after LDLT or TRIDIAG;
                            0: LDLT or TRIDIAG alone (least squares)       */
    double rcond, tol;
    int64_t w_stride;    /* lsfit: system k's weights at w + k * w_stride (m or 0) */
} bsym__strategy;

/* info of a system that a backend's PDE solve (BSYM__OP_PDE) hands back
 * unsolved: the GPU kernel does not pivot, and a system whose elimination
 * broke down or whose step failed its backward-error test is solved again
 * by the dispatcher on the CPU backend, which pivots where it must
 * (dispatch.c, pde_retry). Never returned to a caller of the host API. */
#define BSYM__PDE_RETRY (-2)

/* What a strategy call saw, for the plan (systems with info != 0 not counted). */
typedef struct {
    int64_t solved;    /* systems with info == 0                              */
    int64_t fallback;  /* solved by EIGEN after the checks; with start EIGEN:
                          rank < n                                            */
    int64_t not_spd;   /* found with an eigenvalue <= 0                       */
} bsym__strategy_stats;

/* One call, as the entry point was given it; the fields an operation does
 * not use are zero (NULL). Per-system extents, which the dispatcher uses to
 * cut a job into chunks (bsym__job_slice in dispatch.c):
 *   A, Q, V n*n;  B n*nrhs;  d, dd, w n;  e, dl, du n-1;  info, count, rank,
 *   used 1;  X m*n;  Y m*nrhs;  wts w_stride (m, or 0: shared);  rss nrhs. */
typedef struct {
    bsym__op op;
    bsym__prec prec;
    char uplo;
    int64_t n, nrhs, batch;
    const void *A;                /* n x n x batch                        */
    const void *dl, *dd, *du;     /* tridiagonal input (stev: dd, dl = e) */
    void *B;                      /* n x nrhs x batch, in/out             */
    void *d, *e, *Q;              /* tridiagonalization output            */
    const bsym_select *sel;       /* eigensolvers: never NULL             */
    void *w, *V;                  /* eigenvalues n x batch, vectors       */
    int *count;                   /* eigensolvers: may be NULL            */
    int *info;
    const bsym__strategy *strategy; /* STRATEGY and LSFIT                 */
    bsym__strategy_stats *stats;  /* STRATEGY and LSFIT: accumulated (+=) */
    int *rank, *used;             /* STRATEGY and LSFIT: never NULL       */
    int64_t m;                    /* lsfit: rows of X, Y (n is p)         */
    const void *X, *Y, *wts;
    int64_t w_stride;             /* lsfit: m, or 0 (weights shared by all) */
    void *rss;
    /* ---- issue 15 (PDE): bsym_*pde_solve, n = pde->m -------------------
     * pde is the caller's problem, never advanced; pde_k0 is the slice's
     * first system in it: system k of the slice reads its coefficients and
     * boundary values at entry k' = pde_k0 + k (v + k' * sk: a coefficient
     * with sk = 0 is shared and stays put) and its obstacle at
     * pde->obstacle + k' * m. final and u (m per system) are sliced as the
     * other arrays. */
    const bsym_pde *pde;
    int64_t pde_k0;
    const void *final;
    void *u;
} bsym__job;

/* How a backend runs one job: the context's settings it needs, and where its
 * message goes when it fails. */
typedef struct {
    void **state;                 /* the backend's cached state on the context
                                     (streams, staging), created on first use */
    int threads;                  /* OpenMP threads, 0 = the runtime default */
    bsym_interrupt_fn interrupt;  /* polled between chunks; may be NULL      */
    void *interrupt_data;
    char *msg;                    /* the context's message buffer            */
    size_t msglen;
    const int *gpus;              /* GPU backend: the devices to use (ids of  */
    int ngpus;                    /* bsym_ctx_set_gpus, resolved; >= 1)      */
} bsym__exec;

/* One operation in one precision; NULL where a backend has none. Returns a
 * status and, when it is not BSYM_OK, leaves a message in exec->msg. */
typedef bsym_status (*bsym__op_fn)(const bsym__exec *exec, const bsym__job *job);

typedef struct {
    const char *name;             /* "CPU", "CUDA", for messages              */
    bsym_device device;           /* BSYM_DEVICE_CPU or BSYM_DEVICE_GPU        */
    /* Systems per call between two interrupt checks by the dispatcher; 0: the
     * backend takes the whole batch and polls the interrupt itself. */
    int64_t chunk;
    /* Largest n per operation, for real [0] and complex [1] elements (the
     * kernels differ, so may their limits); 0 = any. */
    int64_t max_n[BSYM__OPS][2];
    /* Fills the backend's part of *info (built_with_cuda, gpu_available,
     * the device's properties, reason); never fails. */
    void (*query)(bsym_device_info *info);
    /* Releases a context's cached state (NULL is fine). */
    void (*release)(void *state);
    /* GPU backend: number of visible devices (0 without a usable one), and
     * the pinned-copy rates of bsym_gpus_link_rate on devices gpus[0..n). */
    int (*devices)(void);
    bsym_status (*link_rate)(const int *gpus, int n, size_t bytes, double *h2d, double *d2h, char *msg,
                             size_t msglen);
    bsym__op_fn op[BSYM__OPS][BSYM__PRECS];
} bsym__backend;

/* Systems [first, first + count) of job j as a job of their own (the
 * extents listed at bsym__job); dispatch.c, for backends that split a batch
 * (the GPU backend over several devices). */
bsym__job bsym__job_slice(const bsym__job *j, int64_t first, int64_t count);
/* Bytes of job j's matrix input (the entries of dispatch.c's automatic
 * device choice, in j's storage precision), for the split over devices. */
size_t bsym__job_input_bytes(const bsym__job *j);

/* The CPU backend (cpu_backend.c). */
extern const bsym__backend bsym__cpu_backend;

/* The GPU backend: the CUDA table (cuda/backend.cu) in a build with CUDA,
 * NULL otherwise. */
const bsym__backend *bsym__gpu_backend(void);

#ifdef __cplusplus
}
#endif
#endif
