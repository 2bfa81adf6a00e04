/*
 * solve.c -- the batched entry points (solves, tridiagonalization,
 * tridiagonal solves): argument validation, device choice, chunking with
 * interrupt checks, dispatch to the CPU or CUDA backend. Every entry point
 * describes its call in one `call` and hands it to run(), so that these steps
 * are written once.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../cuda/bsym_cuda.h"

/* Everything one entry point was given; the fields an operation does not use
 * stay zero. */
typedef struct {
    size_t size;                  /* sizeof(T): 8 or 4 */
    char uplo;
    int64_t n, nrhs, batch;
    const void *A;                /* n x n x batch                     */
    const void *dl, *dd, *du;     /* tridiagonal input                 */
    void *B;                      /* n x nrhs x batch, in/out          */
    void *d, *e, *Q;              /* tridiagonalization output         */
    const bsym_select *sel;       /* eigensolvers: never NULL          */
    void *w, *V;                  /* eigenvalues n x batch, vectors    */
    int *count;                   /* eigensolvers: may be NULL         */
    int *info;
    const bsym__sx_job *sx;       /* solvex (EIGEN, AUTO) and lsfit    */
    bsym__sx_stats *stats;
    int *rank, *used;
    int64_t m;                    /* lsfit: rows of X, Y (n is p)      */
    const void *X, *Y, *wts;
    int64_t w_stride;             /* lsfit: m, or 0 (shared weights)   */
    void *rss;
} call;

/* One operation in one precision: its backends and limits. */
typedef struct {
    const char *name;             /* for messages */
    int64_t gpu_max_n;
    /* entries of one system, for the automatic device choice */
    int64_t (*entries)(const call *c);
    /* systems [k0, k0 + count) on the CPU; 0, or -1 for no memory */
    int (*cpu)(const call *c, int64_t k0, int64_t count, int threads);
    bsym_status (*gpu)(const call *c, bsym_ctx *ctx);
} operation;

/* Byte offset of system k0 in an array of `per` elements per system. */
#define AT(p, per, k0) ((p) == NULL ? NULL : (char *)(p) + (size_t)((per) * (k0)) * c->size)
#define CAT(p, per, k0) ((p) == NULL ? NULL : (const char *)(p) + (size_t)((per) * (k0)) * c->size)

static int64_t square_entries(const call *c) { return c->n * c->n; }
static int64_t row_entries(const call *c) { return c->n * (c->nrhs + 3); }
static int64_t eig_entries(const call *c) { return c->A != NULL || c->V != NULL ? c->n * c->n : 3 * c->n; }
static int64_t ls_entries(const call *c) { return c->m * (c->n + c->nrhs); }

/* The typed backend calls, written once for both precisions. */
#define DEFINE_OPS(P, T)                                                                        \
    static int ldlt_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                      \
    {                                                                                           \
        return bsym__ldlt_cpu_##P(c->uplo, c->n, c->nrhs, cnt, (const T *)CAT(c->A, c->n * c->n, k0), \
                                  (T *)AT(c->B, c->n * c->nrhs, k0), c->info + k0, t);           \
    }                                                                                           \
    static bsym_status ldlt_gpu_##P(const call *c, bsym_ctx *x)                                 \
    {                                                                                           \
        return bsym_cuda_ldlt_##P(&x->cuda, c->uplo, c->n, c->nrhs, c->batch, (const T *)c->A,  \
                                  (T *)c->B, c->info, x->interrupt, x->interrupt_data,          \
                                  x->message, sizeof x->message);                               \
    }                                                                                           \
    static int hhsolve_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                   \
    {                                                                                           \
        return bsym__hhsolve_cpu_##P(c->uplo, c->n, c->nrhs, cnt,                               \
                                     (const T *)CAT(c->A, c->n * c->n, k0),                     \
                                     (T *)AT(c->B, c->n * c->nrhs, k0), c->info + k0, t, NULL, NULL); \
    }                                                                                           \
    static bsym_status hhsolve_gpu_##P(const call *c, bsym_ctx *x)                              \
    {                                                                                           \
        return bsym_cuda_hhsolve_##P(&x->cuda, c->uplo, c->n, c->nrhs, c->batch,                \
                                     (const T *)c->A, (T *)c->B, c->info, x->interrupt,         \
                                     x->interrupt_data, x->message, sizeof x->message);         \
    }                                                                                           \
    static int trd_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                       \
    {                                                                                           \
        return bsym__tridiagonalize_cpu_##P(c->uplo, c->n, cnt,                                 \
                                            (const T *)CAT(c->A, c->n * c->n, k0),              \
                                            (T *)AT(c->d, c->n, k0), (T *)AT(c->e, c->n - 1, k0), \
                                            (T *)AT(c->Q, c->n * c->n, k0), c->info + k0, t);   \
    }                                                                                           \
    static bsym_status trd_gpu_##P(const call *c, bsym_ctx *x)                                  \
    {                                                                                           \
        return bsym_cuda_tridiagonalize_##P(&x->cuda, c->uplo, c->n, c->batch, (const T *)c->A, \
                                            (T *)c->d, (T *)c->e, (T *)c->Q, c->info,           \
                                            x->interrupt, x->interrupt_data, x->message,        \
                                            sizeof x->message);                                 \
    }                                                                                           \
    static int pcr_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                       \
    {                                                                                           \
        return bsym__pcr_cpu_##P(c->n, c->nrhs, cnt, (const T *)CAT(c->dl, c->n - 1, k0),       \
                                 (const T *)CAT(c->dd, c->n, k0), (const T *)CAT(c->du, c->n - 1, k0), \
                                 (T *)AT(c->B, c->n * c->nrhs, k0), c->info + k0, t);            \
    }                                                                                           \
    static bsym_status pcr_gpu_##P(const call *c, bsym_ctx *x)                                  \
    {                                                                                           \
        return bsym_cuda_pcr_##P(&x->cuda, c->n, c->nrhs, c->batch, (const T *)c->dl,           \
                                 (const T *)c->dd, (const T *)c->du, (T *)c->B, c->info,        \
                                 x->interrupt, x->interrupt_data, x->message, sizeof x->message); \
    }                                                                                           \
    static int eig_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                       \
    {                                                                                           \
        return bsym__eig_cpu_##P(c->uplo, c->n, cnt, (const T *)CAT(c->A, c->n * c->n, k0),      \
                                 (const T *)CAT(c->dd, c->n, k0), (const T *)CAT(c->dl, c->n - 1, k0), \
                                 c->sel, (T *)AT(c->w, c->n, k0), (T *)AT(c->V, c->n * c->n, k0), \
                                 c->count == NULL ? NULL : c->count + k0, c->info + k0, t);     \
    }                                                                                           \
    static bsym_status eig_gpu_##P(const call *c, bsym_ctx *x)                                  \
    {                                                                                           \
        return bsym_cuda_eig_##P(&x->cuda, c->uplo, c->n, c->batch, (const T *)c->A,             \
                                 (const T *)c->dd, (const T *)c->dl, c->sel, (T *)c->w, (T *)c->V, \
                                 c->count, c->info, x->interrupt, x->interrupt_data, x->message, \
                                 sizeof x->message);                                            \
    }                                                                                           \
    static int sx_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                        \
    {                                                                                           \
        return bsym__solvex_cpu_##P(c->sx, cnt, (const T *)CAT(c->A, c->n * c->n, k0),           \
                                    (T *)AT(c->B, c->n * c->nrhs, k0), c->info + k0, c->rank + k0, \
                                    c->used + k0, c->stats, t);                                 \
    }                                                                                           \
    static bsym_status sx_gpu_##P(const call *c, bsym_ctx *x)                                   \
    {                                                                                           \
        return bsym_cuda_solvex_##P(&x->cuda, c->sx, c->batch, (const T *)c->A, (T *)c->B,       \
                                    c->info, c->rank, c->used, c->stats, x->interrupt,          \
                                    x->interrupt_data, x->message, sizeof x->message);          \
    }                                                                                           \
    static int ls_cpu_##P(const call *c, int64_t k0, int64_t cnt, int t)                        \
    {                                                                                           \
        return bsym__lsfit_cpu_##P(c->sx, c->m, cnt, (const T *)CAT(c->X, c->m * c->n, k0),     \
                                   (const T *)CAT(c->Y, c->m * c->nrhs, k0),                    \
                                   (const T *)CAT(c->wts, c->sx->w_stride, k0),                 \
                                   (T *)AT(c->B, c->n * c->nrhs, k0), (T *)AT(c->rss, c->nrhs, k0), \
                                   c->info + k0, c->rank + k0, c->used + k0, c->stats, t);      \
    }                                                                                           \
    static bsym_status ls_gpu_##P(const call *c, bsym_ctx *x)                                   \
    {                                                                                           \
        return bsym_cuda_lsfit_##P(&x->cuda, c->sx, c->m, c->batch, (const T *)c->X,            \
                                   (const T *)c->Y, (const T *)c->wts, (T *)c->B, (T *)c->rss,  \
                                   c->info, c->rank, c->used, c->stats, x->interrupt,           \
                                   x->interrupt_data, x->message, sizeof x->message);           \
    }                                                                                           \
    static const operation SX_##P = {"truncated-spectrum", BSYM_GPU_EIGEN_MAX_N, square_entries, \
                                     sx_cpu_##P, sx_gpu_##P};                                   \
    static const operation LS_##P = {"least-squares", BSYM_GPU_EIGEN_MAX_N, ls_entries,         \
                                     ls_cpu_##P, ls_gpu_##P};                                   \
    static const operation EIG_##P = {"eigensolver", BSYM_GPU_EIGEN_MAX_N, eig_entries,          \
                                      eig_cpu_##P, eig_gpu_##P};                                \
    static const operation LDLT_##P = {"LDL^T", BSYM_GPU_LDLT_MAX_N, square_entries,            \
                                       ldlt_cpu_##P, ldlt_gpu_##P};                             \
    static const operation HHSOLVE_##P = {"Householder", BSYM_GPU_HOUSEHOLDER_MAX_N,            \
                                          square_entries, hhsolve_cpu_##P, hhsolve_gpu_##P};    \
    static const operation TRD_##P = {"Householder", BSYM_GPU_HOUSEHOLDER_MAX_N, square_entries, \
                                      trd_cpu_##P, trd_gpu_##P};                                \
    static const operation PCR_##P = {"tridiagonal solve", BSYM_GPU_PCR_MAX_N, row_entries,     \
                                      pcr_cpu_##P, pcr_gpu_##P};

DEFINE_OPS(d, double)
DEFINE_OPS(s, float)

/* Sizes must be >= 0 and every array of the call addressable. */
static bsym_status check_sizes(bsym_ctx *ctx, const call *c)
{
    int64_t n = c->n, batch = c->batch, nrhs = c->nrhs;
    if (n < 0 || nrhs < 0 || batch < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "sizes must be >= 0 (n = %lld, nrhs = %lld, batch = %lld)",
                          (long long)n, (long long)nrhs, (long long)batch);
    if (n > 0 && batch > 0 &&
        (n > INT64_MAX / n / batch || (nrhs > 0 && nrhs > INT64_MAX / n / batch)))
        return bsym__fail(ctx, BSYM_ERR_SIZE, "the batch is too large to address");
    return BSYM_OK;
}

/* Decides between CPU and GPU for a call; sets *gpu. */
static bsym_status choose_device(bsym_ctx *ctx, const operation *op, const call *c, int *gpu)
{
    bsym_device_info dev;
    *gpu = 0;
    if (ctx->device == BSYM_DEVICE_CPU)
        return BSYM_OK;
    bsym_get_device_info(&dev);
    if (ctx->device == BSYM_DEVICE_GPU) {
        if (!dev.gpu_available)
            return bsym__fail(ctx, BSYM_ERR_NODEVICE, "the GPU was requested but no GPU is usable: %s",
                              dev.reason);
        if (c->n > op->gpu_max_n)
            return bsym__fail(ctx, BSYM_ERR_SIZE,
                              "n = %lld exceeds the GPU %s limit of %lld; use the CPU or the automatic device choice",
                              (long long)c->n, op->name, (long long)op->gpu_max_n);
        *gpu = 1;
        return BSYM_OK;
    }
    *gpu = dev.gpu_available && c->n <= op->gpu_max_n &&
           c->batch * op->entries(c) >= BSYM_AUTO_GPU_MIN_ENTRIES;
    return BSYM_OK;
}

/* The walk every entry point shares, after its own pointer checks. */
static bsym_status run(bsym_ctx *ctx, const operation *op, const call *c)
{
    int gpu = 0;
    bsym_status st = choose_device(ctx, op, c, &gpu);
    if (st != BSYM_OK)
        return st;
    if (c->n == 0 || c->batch == 0) {
        for (int64_t k = 0; k < c->batch && c->info != NULL; k++)
            c->info[k] = 0;
    } else if (gpu) {
        st = op->gpu(c, ctx);
    } else {
        for (int64_t k0 = 0; k0 < c->batch && st == BSYM_OK; k0 += BSYM_CPU_CHUNK) {
            int64_t cnt = c->batch - k0 < BSYM_CPU_CHUNK ? c->batch - k0 : BSYM_CPU_CHUNK;
            if (k0 > 0 && bsym__interrupted(ctx))
                st = bsym__fail(ctx, BSYM_ERR_INTERRUPTED, "interrupted by the user");
            else if (op->cpu(c, k0, cnt, ctx->threads) != 0)
                st = bsym__fail(ctx, BSYM_ERR_NOMEM, "no memory for the %s workspace (n = %lld)",
                                op->name, (long long)c->n);
        }
    }
    if (st == BSYM_OK)
        ctx->last_device = gpu ? BSYM_DEVICE_GPU : BSYM_DEVICE_CPU;
    return st;
}

/* 1 when the call has at least one system with n > 0 (pointers needed). */
static int nonempty(const call *c)
{
    return c->n > 0 && c->batch > 0;
}

/* ---- plans ----------------------------------------------------------------- */
void bsym_plan_init(bsym_plan *plan)
{
    if (plan != NULL)
        memset(plan, 0, sizeof *plan);
}

bsym_method bsym_plan_start(const bsym_plan *plan)
{
    if (plan == NULL || plan->systems <= 0)
        return BSYM_METHOD_TRIDIAG;
    if (2 * plan->last_fallback > plan->last_systems)
        return BSYM_METHOD_EIGEN;
    if (plan->not_spd == 0 && plan->fallback == 0) /* every BSYM_PLAN_AUDIT-th call: full checks */
        return plan->calls % BSYM_PLAN_AUDIT == BSYM_PLAN_AUDIT - 1 ? BSYM_METHOD_TRIDIAG : BSYM_METHOD_LDLT;
    return BSYM_METHOD_TRIDIAG;
}

/* Records a successful automatic call's outcome in the plan. */
static void plan_record(bsym_plan *plan, const bsym__sx_stats *st)
{
    plan->calls++;
    plan->systems += st->solved;
    plan->fallback += st->fallback;
    plan->not_spd += st->not_spd;
    plan->last_systems = st->solved;
    plan->last_fallback = st->fallback;
}

/* Checks the options (NULL: AUTO with the defaults) and fills the job of a
 * call; eps is the unit roundoff of the precision. */
static bsym_status sx_setup(bsym_ctx *ctx, const bsym_solve_opts *opts, const call *c, double eps,
                            bsym__sx_job *job, bsym_method *method)
{
    static const bsym_solve_opts defaults = {BSYM_METHOD_AUTO, BSYM_RCOND_DEFAULT, 0.0, NULL};
    const bsym_solve_opts *o = opts != NULL ? opts : &defaults;
    if (o->method < BSYM_METHOD_LDLT || o->method > BSYM_METHOD_AUTO)
        return bsym__fail(ctx, BSYM_ERR_ARG, "method: unknown method code %d", (int)o->method);
    if (!(o->rcond >= 0 && o->rcond < 1))
        return bsym__fail(ctx, BSYM_ERR_ARG, "rcond must be in [0, 1) (got %g)", o->rcond);
    if (!(o->tol <= DBL_MAX))
        return bsym__fail(ctx, BSYM_ERR_ARG, "tol must be a finite number (got %g; <= 0 selects the default)",
                          o->tol);
    const bsym_plan *pl = o->method == BSYM_METHOD_AUTO ? o->plan : NULL;
    if (pl != NULL &&
        (pl->calls < 0 || pl->systems < 0 || pl->not_spd < 0 || pl->fallback < 0 ||
         pl->last_systems < 0 || pl->last_fallback < 0 || pl->not_spd > pl->systems ||
         pl->fallback > pl->systems || pl->last_systems > pl->systems ||
         pl->last_fallback > pl->last_systems))
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "plan: its counts must be >= 0 and within the systems it has seen");
    *method = o->method;
    job->uplo = c->uplo;
    job->n = c->n;
    job->nrhs = c->nrhs;
    job->start = o->method == BSYM_METHOD_AUTO ? bsym_plan_start(pl) : o->method;
    job->check = o->method == BSYM_METHOD_AUTO;
    job->rcond = o->rcond;
    job->tol = o->tol > 0 ? o->tol : 16.0 * (double)c->n * eps;
    return BSYM_OK;
}

/* Runs op on a call with per-system rank and used (internal arrays when the
 * caller passed NULL; written here when `plain`, an op that does not write
 * them), then records an automatic call in the plan. */
static bsym_status sx_run(bsym_ctx *ctx, const operation *op, const bsym_solve_opts *opts,
                          int plain, bsym_method method, const bsym__sx_job *job, call *c)
{
    bsym__sx_stats stats = {0, 0, 0};
    int *own = NULL;
    if ((c->rank == NULL || c->used == NULL) && c->batch > 0) {
        own = malloc(2 * (size_t)c->batch * sizeof(int));
        if (own == NULL)
            return bsym__fail(ctx, BSYM_ERR_NOMEM, "no memory for the per-system ranks");
    }
    int *caller_rank = c->rank, *caller_used = c->used;
    c->rank = caller_rank != NULL ? caller_rank : own;
    c->used = caller_used != NULL ? caller_used : own + c->batch;
    c->sx = job;
    c->stats = &stats;
    bsym_status st = run(ctx, op, c);
    if (st == BSYM_OK && (c->n == 0 || plain))
        for (int64_t k = 0; k < c->batch; k++) { /* the paths that do not write them */
            c->rank[k] = c->info[k] == 0 ? (int)c->n : -1;
            c->used[k] = job->start;
        }
    if (st == BSYM_OK && method == BSYM_METHOD_AUTO && opts != NULL && opts->plan != NULL)
        plan_record(opts->plan, &stats);
    c->rank = caller_rank;
    c->used = caller_used;
    free(own);
    return st;
}

/* ---- bsym_dsolvex / bsym_ssolvex, bsym_dsolve / bsym_ssolve -------------- */
static bsym_status solvex(bsym_ctx *ctx, const bsym_solve_opts *opts, const operation *ldlt,
                          const operation *hh, const operation *sx, double eps, call *c)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym__sx_job job;
    bsym_method method = BSYM_METHOD_AUTO;
    bsym_status st = sx_setup(ctx, opts, c, eps, &job, &method);
    if (st != BSYM_OK)
        return st;
    if (c->uplo != 'L' && c->uplo != 'U')
        return bsym__fail(ctx, BSYM_ERR_ARG, "uplo must be 'L' or 'U' (got '%c')", c->uplo);
    if ((st = check_sizes(ctx, c)) != BSYM_OK)
        return st;
    if (nonempty(c) && (c->A == NULL || c->info == NULL || (c->nrhs > 0 && c->B == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "A, B and info must not be NULL");
    const operation *op = method == BSYM_METHOD_LDLT ? ldlt : method == BSYM_METHOD_TRIDIAG ? hh : sx;
    return sx_run(ctx, op, opts, op != sx, method, &job, c);
}

bsym_status bsym_dsolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo, int64_t n,
                         int64_t nrhs, int64_t batch, const double *A, double *B, int *info,
                         int *rank, int *used)
{
    call c = {.size = sizeof(double), .uplo = uplo, .n = n, .nrhs = nrhs, .batch = batch,
              .A = A, .B = B, .info = info, .rank = rank, .used = used};
    return solvex(ctx, opts, &LDLT_d, &HHSOLVE_d, &SX_d, DBL_EPSILON / 2, &c);
}

bsym_status bsym_ssolvex(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo, int64_t n,
                         int64_t nrhs, int64_t batch, const float *A, float *B, int *info,
                         int *rank, int *used)
{
    call c = {.size = sizeof(float), .uplo = uplo, .n = n, .nrhs = nrhs, .batch = batch,
              .A = A, .B = B, .info = info, .rank = rank, .used = used};
    return solvex(ctx, opts, &LDLT_s, &HHSOLVE_s, &SX_s, FLT_EPSILON / 2, &c);
}

bsym_status bsym_dsolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const double *A, double *B, int *info)
{
    const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
    return bsym_dsolvex(ctx, &o, uplo, n, nrhs, batch, A, B, info, NULL, NULL);
}

bsym_status bsym_ssolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const float *A, float *B, int *info)
{
    const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
    return bsym_ssolvex(ctx, &o, uplo, n, nrhs, batch, A, B, info, NULL, NULL);
}

/* ---- bsym_dlsfit / bsym_slsfit -------------------------------------------- */
static bsym_status lsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, const operation *op,
                         double eps, call *c)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym__sx_job job;
    bsym_method method = BSYM_METHOD_AUTO;
    bsym_status st = sx_setup(ctx, opts, c, eps, &job, &method);
    if (st != BSYM_OK)
        return st;
    job.w_stride = c->w_stride;
    if (c->wts != NULL && c->w_stride != 0 && c->w_stride != c->m)
        return bsym__fail(ctx, BSYM_ERR_ARG, "w_stride must be m = %lld or 0 (got %lld)",
                          (long long)c->m, (long long)c->w_stride);
    if (c->m < 0 || c->n < 1)
        return bsym__fail(ctx, BSYM_ERR_ARG, "need m >= 0 rows and p >= 1 columns (m = %lld, p = %lld)",
                          (long long)c->m, (long long)c->n);
    if ((st = check_sizes(ctx, c)) != BSYM_OK)
        return st;
    if (c->m > 0 && c->batch > 0 &&
        (c->m > INT64_MAX / c->batch / (c->n + c->nrhs + 1) || c->m > INT32_MAX / (c->n + c->nrhs + 1)))
        return bsym__fail(ctx, BSYM_ERR_SIZE, "the batch is too large to address (m = %lld)",
                          (long long)c->m);
    if (c->batch > 0 && (c->info == NULL || (c->m > 0 && c->X == NULL) ||
                         (c->nrhs > 0 && (c->B == NULL || (c->m > 0 && c->Y == NULL)))))
        return bsym__fail(ctx, BSYM_ERR_ARG, "X, Y, beta and info must not be NULL");
    return sx_run(ctx, op, opts, 0, method, &job, c);
}

bsym_status bsym_dlsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const double *X, const double *Y,
                        const double *w, int64_t w_stride, double *beta, double *rss, int *rank,
                        int *used, int *info)
{
    call c = {.size = sizeof(double), .uplo = 'L', .n = p, .nrhs = nrhs, .batch = batch, .m = m,
              .X = X, .Y = Y, .wts = w, .w_stride = w_stride, .B = beta, .rss = rss, .info = info,
              .rank = rank, .used = used};
    return lsfit(ctx, opts, &LS_d, DBL_EPSILON / 2, &c);
}

bsym_status bsym_slsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const float *X, const float *Y,
                        const float *w, int64_t w_stride, float *beta, float *rss, int *rank,
                        int *used, int *info)
{
    call c = {.size = sizeof(float), .uplo = 'L', .n = p, .nrhs = nrhs, .batch = batch, .m = m,
              .X = X, .Y = Y, .wts = w, .w_stride = w_stride, .B = beta, .rss = rss, .info = info,
              .rank = rank, .used = used};
    return lsfit(ctx, opts, &LS_s, FLT_EPSILON / 2, &c);
}

/* ---- bsym_dtridiagonalize / bsym_stridiagonalize ------------------------ */
static bsym_status tridiagonalize(bsym_ctx *ctx, const operation *op, call *c)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (c->uplo != 'L' && c->uplo != 'U')
        return bsym__fail(ctx, BSYM_ERR_ARG, "uplo must be 'L' or 'U' (got '%c')", c->uplo);
    bsym_status st = check_sizes(ctx, c);
    if (st != BSYM_OK)
        return st;
    if (nonempty(c) && (c->A == NULL || c->d == NULL || c->info == NULL || (c->n > 1 && c->e == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "A, d, e (for n > 1) and info must not be NULL");
    return run(ctx, op, c);
}

bsym_status bsym_dtridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const double *A, double *d, double *e, double *Q, int *info)
{
    call c = {.size = sizeof(double), .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &TRD_d, &c);
}

bsym_status bsym_stridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const float *A, float *d, float *e, float *Q, int *info)
{
    call c = {.size = sizeof(float), .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &TRD_s, &c);
}

/* ---- bsym_dtridiag_solve / bsym_stridiag_solve -------------------------- */
static bsym_status tridiag_solve(bsym_ctx *ctx, const operation *op, call *c)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym_status st = check_sizes(ctx, c);
    if (st != BSYM_OK)
        return st;
    if (nonempty(c) && (c->dd == NULL || c->info == NULL || (c->nrhs > 0 && c->B == NULL) ||
                        (c->n > 1 && c->dl == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "dl (for n > 1), d, B and info must not be NULL");
    return run(ctx, op, c);
}

bsym_status bsym_dtridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const double *dl, const double *d, const double *du,
                                double *B, int *info)
{
    call c = {.size = sizeof(double), .n = n, .nrhs = nrhs, .batch = batch,
              .dl = dl, .dd = d, .du = du, .B = B, .info = info};
    return tridiag_solve(ctx, &PCR_d, &c);
}

bsym_status bsym_stridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const float *dl, const float *d, const float *du,
                                float *B, int *info)
{
    call c = {.size = sizeof(float), .n = n, .nrhs = nrhs, .batch = batch,
              .dl = dl, .dd = d, .du = du, .B = B, .info = info};
    return tridiag_solve(ctx, &PCR_s, &c);
}

/* ---- bsym_*syev / bsym_*stev ---------------------------------------------- */
/* full: bsym_*syev (A), else bsym_*stev (d, e). */
static bsym_status eig(bsym_ctx *ctx, const operation *op, int full, const bsym_select *sel, call *c)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (full && c->uplo != 'L' && c->uplo != 'U')
        return bsym__fail(ctx, BSYM_ERR_ARG, "uplo must be 'L' or 'U' (got '%c')", c->uplo);
    bsym_status st = check_sizes(ctx, c);
    if (st != BSYM_OK)
        return st;
    c->sel = sel != NULL ? sel : &all;
    switch (c->sel->kind) {
    case BSYM_SELECT_ALL:
        break;
    case BSYM_SELECT_INDEX:
        if (c->sel->il < 1 || c->sel->il > c->sel->iu || c->sel->iu > c->n)
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "index: need 1 <= il <= iu <= n (il = %lld, iu = %lld, n = %lld)",
                              (long long)c->sel->il, (long long)c->sel->iu, (long long)c->n);
        break;
    case BSYM_SELECT_VALUE:
        if (!(c->sel->vl < c->sel->vu))
            return bsym__fail(ctx, BSYM_ERR_ARG, "interval: need vl < vu (vl = %g, vu = %g)",
                              c->sel->vl, c->sel->vu);
        break;
    default:
        return bsym__fail(ctx, BSYM_ERR_ARG, "sel: unknown selection kind %d", (int)c->sel->kind);
    }
    if (c->n > INT32_MAX / 4)
        return bsym__fail(ctx, BSYM_ERR_SIZE, "n = %lld is too large for the eigensolvers",
                          (long long)c->n);
    if (nonempty(c) && full && c->A == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "A must not be NULL");
    if (nonempty(c) && !full && (c->dd == NULL || (c->n > 1 && c->dl == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "d and e (for n > 1) must not be NULL");
    if (nonempty(c) && (c->w == NULL || c->info == NULL))
        return bsym__fail(ctx, BSYM_ERR_ARG, "w and info must not be NULL");
    return run(ctx, op, c);
}

bsym_status bsym_dsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const double *A,
                       const bsym_select *sel, double *w, double *V, int *count, int *info)
{
    call c = {.size = sizeof(double), .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, &EIG_d, 1, sel, &c);
}

bsym_status bsym_ssyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const float *A,
                       const bsym_select *sel, float *w, float *V, int *count, int *info)
{
    call c = {.size = sizeof(float), .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, &EIG_s, 1, sel, &c);
}

bsym_status bsym_dstev(bsym_ctx *ctx, int64_t n, int64_t batch, const double *d, const double *e,
                       const bsym_select *sel, double *w, double *V, int *count, int *info)
{
    call c = {.size = sizeof(double), .uplo = 'L', .n = n, .batch = batch, .dd = d, .dl = e,
              .w = w, .V = V, .count = count, .info = info};
    return eig(ctx, &EIG_d, 0, sel, &c);
}

bsym_status bsym_sstev(bsym_ctx *ctx, int64_t n, int64_t batch, const float *d, const float *e,
                       const bsym_select *sel, float *w, float *V, int *count, int *info)
{
    call c = {.size = sizeof(float), .uplo = 'L', .n = n, .batch = batch, .dd = d, .dl = e,
              .w = w, .V = V, .count = count, .info = info};
    return eig(ctx, &EIG_s, 0, sel, &c);
}
