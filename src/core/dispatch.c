/*
 * dispatch.c -- the dispatcher: every public entry point of the batched
 * operations (solves, least squares, tridiagonalization, tridiagonal solves,
 * eigensolvers) validates its arguments, describes its call in one bsym__job
 * and hands it to run(), which picks the backend (CPU, or the GPU backend
 * when the build has one; see backend.h), cuts the batch into chunks where
 * the backend wants them, checks for interrupts between chunks and calls one
 * row of the backend's table. These steps are written once, here.
 */
#include <float.h>
#include <math.h> /* issue 15: fabs */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What messages call each operation family. */
static const char *const op_names[BSYM__OPS] = {
    [BSYM__OP_LDLT] = "LDL^T",
    [BSYM__OP_HHSOLVE] = "Householder",
    [BSYM__OP_TRIDIAGONALIZE] = "Householder",
    [BSYM__OP_PCR] = "tridiagonal solve",
    [BSYM__OP_EIG] = "eigensolver",
    [BSYM__OP_STRATEGY] = "truncated-spectrum",
    [BSYM__OP_LSFIT] = "least-squares",
    [BSYM__OP_BK] = "Bunch-Kaufman",
    [BSYM__OP_AASEN] = "Aasen",
    [BSYM__OP_PDE] = "PDE solver", /* issue 15 */
};

/* Matrix entries of one system, for the automatic device choice. */
static int64_t job_entries(const bsym__job *j)
{
    switch (j->op) {
    case BSYM__OP_PCR:
        return j->n * (j->nrhs + 3);
    case BSYM__OP_EIG:
        return j->A != NULL || j->V != NULL ? j->n * j->n : 3 * j->n;
    case BSYM__OP_LSFIT:
        return j->m * (j->n + j->nrhs);
    case BSYM__OP_PDE: /* issue 15: the grid, m x N (the scheme's work) */
        return j->n * j->pde->N;
    default:
        return j->n * j->n;
    }
}

/* Bytes of one element of the job's precision. */
static size_t prec_size(bsym__prec p)
{
    static const size_t size[BSYM__PRECS] = {4, 8, 8, 16, 8, 16}; /* DS, ZC: the storage */
    return size[p];
}

/* The unit roundoff of the precision the job computes in (float for DS and
 * ZC, whose storage is double). */
static double prec_unit_roundoff(bsym__prec p)
{
    return p == BSYM__PREC_D || p == BSYM__PREC_Z ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
}

size_t bsym__job_input_bytes(const bsym__job *j)
{
    return (size_t)j->batch * (size_t)job_entries(j) * prec_size(j->prec);
}

/* p advanced by k0 systems of `per` elements of `size` bytes (NULL stays NULL). */
static const void *advance(const void *p, int64_t per, int64_t k0, size_t size)
{
    return p == NULL ? NULL : (const char *)p + (size_t)(per * k0) * size;
}
#define ADVANCE(field, per) ((void *)advance(j->field, (per), k0, size))
#define ADVANCE_INT(field) (j->field == NULL ? NULL : j->field + k0)

/* Systems [k0, k0 + count) of job j as a job of their own (backend.h). */
bsym__job bsym__job_slice(const bsym__job *j, int64_t k0, int64_t count)
{
    const size_t size = prec_size(j->prec);
    const int64_t n = j->n, off = n > 0 ? n - 1 : 0;
    /* d, e and w are real in every precision: the complex TRIDIAGONALIZE and
     * EIG give a real T and real eigenvalues (half the complex element) */
    const int cplx = j->prec == BSYM__PREC_C || j->prec == BSYM__PREC_Z || j->prec == BSYM__PREC_ZC;
    bsym__job s = *j;
    s.batch = count;
    s.A = ADVANCE(A, n * n);
    s.Q = ADVANCE(Q, n * n);
    s.V = ADVANCE(V, n * n);
    s.B = ADVANCE(B, n * j->nrhs);
    const size_t rsize = cplx ? size / 2 : size;
    s.d = (void *)advance(j->d, n, k0, rsize);
    s.dd = ADVANCE(dd, n);
    s.w = (void *)advance(j->w, n, k0, rsize);
    s.e = (void *)advance(j->e, off, k0, rsize);
    s.dl = ADVANCE(dl, off);
    s.du = ADVANCE(du, off);
    s.X = ADVANCE(X, j->m * n);
    s.Y = ADVANCE(Y, j->m * j->nrhs);
    s.wts = ADVANCE(wts, j->w_stride);
    s.rss = ADVANCE(rss, j->nrhs);
    s.info = ADVANCE_INT(info);
    s.count = ADVANCE_INT(count);
    s.rank = ADVANCE_INT(rank);
    s.used = ADVANCE_INT(used);
    /* issue 15 (PDE): final and u m = n per system; the coefficients,
     * boundary values and obstacle through pde_k0 (see bsym__job) */
    s.final = ADVANCE(final, n);
    s.u = ADVANCE(u, n);
    s.pde_k0 = j->pde_k0 + k0;
    return s;
}
#undef ADVANCE
#undef ADVANCE_INT

/* Sizes must be >= 0 and every array of the call addressable. */
static bsym_status check_sizes(bsym_ctx *ctx, const bsym__job *c)
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

/* The arithmetic of a mixed precision (DS: float, ZC: complex float), or
 * the precision itself. */
static bsym__prec arith_prec(bsym__prec p)
{
    return p == BSYM__PREC_DS ? BSYM__PREC_S : p == BSYM__PREC_ZC ? BSYM__PREC_C : p;
}

/* 1 when backend b has job j's operation in j's precision (double storage
 * under float arithmetic, DS or ZC: natively, or through float copies). */
static int has_prec(const bsym__backend *b, const bsym__job *j)
{
    return b->op[j->op][j->prec] != NULL || b->op[j->op][arith_prec(j->prec)] != NULL;
}
/* Backend b's largest n for job j's operation and kind of element (0: any). */
static int64_t max_n_of(const bsym__backend *b, const bsym__job *j)
{
    const bsym__prec p = arith_prec(j->prec);
    return b->max_n[j->op][p == BSYM__PREC_C || p == BSYM__PREC_Z];
}
static int serves(const bsym__backend *b, const bsym__job *j)
{
    const int64_t m = max_n_of(b, j);
    return has_prec(b, j) && (m == 0 || j->n <= m);
}

/* Picks the backend of a call (*be). */
static bsym_status choose_backend(bsym_ctx *ctx, const bsym__job *j, const bsym__backend **be)
{
    const bsym__backend *gpu = bsym__gpu_backend();
    *be = &bsym__cpu_backend;
    if (ctx->device == BSYM_DEVICE_CPU)
        return BSYM_OK;
    bsym_device_info dev;
    bsym_get_device_info(&dev);
    if (ctx->device == BSYM_DEVICE_GPU) {
        if (!dev.gpu_available)
            return bsym__fail(ctx, BSYM_ERR_NODEVICE, "the GPU was requested but no GPU is usable: %s",
                              dev.reason);
        if (!has_prec(gpu, j))
            return bsym__fail(ctx, BSYM_ERR_SIZE, "the GPU has no %s in this precision; use the CPU",
                              op_names[j->op]);
        if (!serves(gpu, j))
            return bsym__fail(ctx, BSYM_ERR_SIZE,
                              "n = %lld exceeds the GPU %s limit of %lld; use the CPU or the automatic device choice",
                              (long long)j->n, op_names[j->op], (long long)max_n_of(gpu, j));
        *be = gpu;
        return BSYM_OK;
    }
    if (dev.gpu_available && serves(gpu, j) && j->batch * job_entries(j) >= BSYM_AUTO_GPU_MIN_ENTRIES)
        *be = gpu;
    return BSYM_OK;
}

static bsym_status run_on(bsym_ctx *ctx, const bsym__backend *be, const bsym__job *j);

/* A job of double storage under float arithmetic on a backend without it
 * (the CPU's Householder solve; the complex solves of bsym_zcsolvex): float
 * copies of A and B, the float (complex float) operation, B back. The jobs
 * with double storage are solves (bsym_dssolvex, bsym_zcsolvex): A in, B in
 * and out. A complex element is two reals, so complex storage converts as
 * twice the reals. */
static bsym_status run_staged(bsym_ctx *ctx, const bsym__backend *be, const bsym__job *j)
{
    const size_t parts = j->prec == BSYM__PREC_ZC ? 2 : 1;
    const size_t na = (size_t)(j->n * j->n * j->batch) * parts, nb = (size_t)(j->n * j->nrhs * j->batch) * parts;
    float *A = bsym__malloc_big(na * sizeof(float)), *B = bsym__malloc_big(nb * sizeof(float));
    bsym_status st = BSYM_OK;
    if (A == NULL || B == NULL) {
        st = bsym__fail(ctx, BSYM_ERR_NOMEM, "no memory for the single-precision copies (%.3g GB)",
                        (double)(na + nb) * sizeof(float) / 1e9);
    } else {
        const double *a = j->A, *b = j->B;
#pragma omp parallel for schedule(static) num_threads(bsym__team((int64_t)(na / 4096 + 1), ctx->threads))
        for (size_t e = 0; e < na; e++)
            A[e] = (float)a[e];
        for (size_t e = 0; e < nb; e++)
            B[e] = (float)b[e];
        bsym__job f = *j;
        f.prec = arith_prec(j->prec);
        f.A = A;
        f.B = B;
        st = run_on(ctx, be, &f);
        double *out = j->B;
        for (size_t e = 0; st == BSYM_OK && e < nb; e++)
            out[e] = B[e];
    }
    free(A);
    free(B);
    return st;
}

/* The walk every entry point shares, after its own pointer checks: the
 * backend, then its operation on the whole batch or chunk by chunk. */
static bsym_status run(bsym_ctx *ctx, const bsym__job *j)
{
    const bsym__backend *be = NULL;
    bsym_status st = choose_backend(ctx, j, &be);
    if (st != BSYM_OK)
        return st;
    if (arith_prec(j->prec) != j->prec && be->op[j->op][j->prec] == NULL && j->n > 0 && j->batch > 0)
        return run_staged(ctx, be, j);
    return run_on(ctx, be, j);
}

/* run() on the backend chosen. */
static bsym_status run_on(bsym_ctx *ctx, const bsym__backend *be, const bsym__job *j)
{
    bsym_status st = BSYM_OK;
    if (j->n == 0 || j->batch == 0) {
        for (int64_t k = 0; k < j->batch && j->info != NULL; k++)
            j->info[k] = 0;
        ctx->last_device = be->device;
        return BSYM_OK;
    }
    const bsym__op_fn fn = be->op[j->op][j->prec];
    if (fn == NULL)
        return bsym__fail(ctx, BSYM_ERR_SIZE, "the %s backend has no %s in this precision", be->name,
                          op_names[j->op]);
    int gpus[BSYM_MAX_GPUS];
    const int ngpus = be->device == BSYM_DEVICE_GPU ? bsym_ctx_gpus(ctx, gpus, BSYM_MAX_GPUS) : 0;
    if (be->device == BSYM_DEVICE_GPU && ngpus == 0)
        return bsym__fail(ctx, BSYM_ERR_NODEVICE, "none of the GPUs named by gpus is visible");
    const bsym__exec x = {&ctx->gpu_state, ctx->threads, ctx->interrupt, ctx->interrupt_data,
                          ctx->message, sizeof ctx->message, gpus, ngpus};
    if (be->chunk == 0) {
        st = fn(&x, j);
        if (st == BSYM_OK && ctx->progress != NULL)
            ctx->progress(ctx->progress_data, j->batch, j->batch);
    } else {
        for (int64_t k0 = 0; k0 < j->batch && st == BSYM_OK; k0 += be->chunk) {
            const int64_t cnt = j->batch - k0 < be->chunk ? j->batch - k0 : be->chunk;
            const bsym__job part = bsym__job_slice(j, k0, cnt);
            st = k0 > 0 && bsym__interrupted(ctx)
                     ? bsym__fail(ctx, BSYM_ERR_INTERRUPTED, "interrupted by the user")
                     : fn(&x, &part);
            if (st == BSYM_OK && ctx->progress != NULL)
                ctx->progress(ctx->progress_data, k0 + cnt, j->batch);
        }
    }
    if (st == BSYM_OK)
        ctx->last_device = be->device;
    return st;
}

/* uplo must name a triangle. */
static bsym_status check_uplo(bsym_ctx *ctx, char uplo)
{
    if (uplo != 'L' && uplo != 'U')
        return bsym__fail(ctx, BSYM_ERR_ARG, "uplo must be 'L' or 'U' (got '%c')", uplo);
    return BSYM_OK;
}

/* 1 when the call has at least one system with n > 0 (pointers needed). */
static int nonempty(const bsym__job *c)
{
    return c->n > 0 && c->batch > 0;
}

/* Records a successful automatic call's outcome in the plan. */
static void plan_record(bsym_plan *plan, const bsym__strategy_stats *st)
{
    plan->calls++;
    plan->systems += st->solved;
    plan->fallback += st->fallback;
    plan->not_spd += st->not_spd;
    plan->last_systems = st->solved;
    plan->last_fallback = st->fallback;
}

/* Starts a solvex or lsfit call on ctx (NULL: an argument error), checks
 * the options (NULL: AUTO with the defaults) and fills the call's strategy
 * (the default tol from the unit roundoff of c->prec). */
static bsym_status strategy_setup(bsym_ctx *ctx, const bsym_solve_opts *opts, const bsym__job *c,
                                  bsym__strategy *job, bsym_method *method)
{
    static const bsym_solve_opts defaults = {BSYM_METHOD_AUTO, BSYM_RCOND_DEFAULT, 0.0, NULL};
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    const bsym_solve_opts *o = opts != NULL ? opts : &defaults;
    bsym_status st = bsym_solve_opts_check(ctx, o); /* rules.c: the one rule */
    if (st != BSYM_OK)
        return st;
    const bsym_plan *pl = o->method == BSYM_METHOD_AUTO ? o->plan : NULL;
    *method = o->method;
    job->uplo = c->uplo;
    job->n = c->n;
    job->nrhs = c->nrhs;
    job->start = o->method == BSYM_METHOD_AUTO ? bsym_plan_start(pl) : o->method;
    job->check = o->method == BSYM_METHOD_AUTO;
    job->rcond = o->rcond;
    job->tol = o->tol > 0 ? o->tol : 16.0 * (double)c->n * prec_unit_roundoff(c->prec);
    job->w_stride = 0;
    return BSYM_OK;
}

/* Runs op on a call with per-system rank and used (internal arrays when the
 * caller passed NULL; written here when `plain`, an op that does not write
 * them), then records an automatic call in the plan. */
static bsym_status strategy_run(bsym_ctx *ctx, const bsym_solve_opts *opts,
                          int plain, bsym_method method, const bsym__strategy *job, bsym__job *c)
{
    bsym__strategy_stats stats = {0, 0, 0};
    int *own = NULL;
    if ((c->rank == NULL || c->used == NULL) && c->batch > 0) {
        own = malloc(2 * (size_t)c->batch * sizeof(int));
        if (own == NULL)
            return bsym__fail(ctx, BSYM_ERR_NOMEM, "no memory for the per-system ranks");
    }
    int *caller_rank = c->rank, *caller_used = c->used;
    c->rank = caller_rank != NULL ? caller_rank : own;
    c->used = caller_used != NULL ? caller_used : own + c->batch;
    c->strategy = job;
    c->stats = &stats;
    bsym_status st = run(ctx, c);
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

/* ---- bsym_[d s ds z c zc]solvex, bsym_[d s z c]solve ------------------------
 * The methods map to the operations LDLT (complex: LDL^H), HHSOLVE
 * (TRIDIAG), BK, AASEN and STRATEGY (EIGEN, AUTO), in every precision. */
static bsym_status solvex(bsym_ctx *ctx, const bsym_solve_opts *opts, bsym__job *c)
{
    bsym__strategy job;
    bsym_method method = BSYM_METHOD_AUTO;
    bsym_status st = strategy_setup(ctx, opts, c, &job, &method);
    if (st != BSYM_OK)
        return st;
    if ((st = check_uplo(ctx, c->uplo)) != BSYM_OK || (st = check_sizes(ctx, c)) != BSYM_OK)
        return st;
    if (nonempty(c) && (c->A == NULL || c->info == NULL || (c->nrhs > 0 && c->B == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "A, B and info must not be NULL");
    c->op = method == BSYM_METHOD_LDLT            ? BSYM__OP_LDLT
            : method == BSYM_METHOD_TRIDIAG       ? BSYM__OP_HHSOLVE
            : method == BSYM_METHOD_BUNCH_KAUFMAN ? BSYM__OP_BK
            : method == BSYM_METHOD_AASEN         ? BSYM__OP_AASEN
                                                  : BSYM__OP_STRATEGY;
    return strategy_run(ctx, opts, c->op != BSYM__OP_STRATEGY, method, &job, c);
}

/* The entry points: the job of one element type, then solvex; the plain
 * bsym_?solve are solvex with the method and the default options. */
#define SOLVEX_ENTRY(name, PREC_ID, TA)                                                                       \
    bsym_status name(bsym_ctx *ctx, const bsym_solve_opts *opts, char uplo, int64_t n, int64_t nrhs,        \
                     int64_t batch, const TA *A, TA *B, int *info, int *rank, int *used)                    \
    {                                                                                                        \
        bsym__job c = {.prec = PREC_ID, .uplo = uplo, .n = n, .nrhs = nrhs, .batch = batch,                  \
                       .A = A, .B = B, .info = info, .rank = rank, .used = used};                            \
        return solvex(ctx, opts, &c);                                                                        \
    }
#define SOLVE_ENTRY(name, solvex_name, TA)                                                                    \
    bsym_status name(bsym_ctx *ctx, bsym_method method, char uplo, int64_t n, int64_t nrhs, int64_t batch,  \
                     const TA *A, TA *B, int *info)                                                          \
    {                                                                                                        \
        const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};                                   \
        return solvex_name(ctx, &o, uplo, n, nrhs, batch, A, B, info, NULL, NULL);                           \
    }
SOLVEX_ENTRY(bsym_dsolvex, BSYM__PREC_D, double)
SOLVEX_ENTRY(bsym_ssolvex, BSYM__PREC_S, float)
SOLVEX_ENTRY(bsym_dssolvex, BSYM__PREC_DS, double)
SOLVEX_ENTRY(bsym_zsolvex, BSYM__PREC_Z, bsym_cdouble)
SOLVEX_ENTRY(bsym_csolvex, BSYM__PREC_C, bsym_cfloat)
SOLVEX_ENTRY(bsym_zcsolvex, BSYM__PREC_ZC, bsym_cdouble)
SOLVE_ENTRY(bsym_dsolve, bsym_dsolvex, double)
SOLVE_ENTRY(bsym_ssolve, bsym_ssolvex, float)
SOLVE_ENTRY(bsym_zsolve, bsym_zsolvex, bsym_cdouble)
SOLVE_ENTRY(bsym_csolve, bsym_csolvex, bsym_cfloat)
#undef SOLVEX_ENTRY
#undef SOLVE_ENTRY

/* ---- bsym_dlsfit / bsym_slsfit -------------------------------------------- */
static bsym_status lsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, bsym__job *c)
{
    bsym__strategy job;
    bsym_method method = BSYM_METHOD_AUTO;
    bsym_status st = strategy_setup(ctx, opts, c, &job, &method);
    if (st != BSYM_OK)
        return st;
    if (method == BSYM_METHOD_BUNCH_KAUFMAN || method == BSYM_METHOD_AASEN)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "method \"%s\" is not for least squares (the normal equations X'WX are positive "
                          "semidefinite): use \"ldlt\", \"tridiag\", \"eigen\" or \"auto\"",
                          bsym_choice_name(BSYM_CHOICE_METHOD, method));
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
    c->op = BSYM__OP_LSFIT;
    return strategy_run(ctx, opts, 0, method, &job, c);
}

bsym_status bsym_dlsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const double *X, const double *Y,
                        const double *w, int64_t w_stride, double *beta, double *rss, int *rank,
                        int *used, int *info)
{
    bsym__job c = {.prec = BSYM__PREC_D, .uplo = 'L', .n = p, .nrhs = nrhs, .batch = batch, .m = m,
              .X = X, .Y = Y, .wts = w, .w_stride = w_stride, .B = beta, .rss = rss, .info = info, .rank = rank,
              .used = used};
    return lsfit(ctx, opts, &c);
}

bsym_status bsym_slsfit(bsym_ctx *ctx, const bsym_solve_opts *opts, int64_t m, int64_t p,
                        int64_t nrhs, int64_t batch, const float *X, const float *Y,
                        const float *w, int64_t w_stride, float *beta, float *rss, int *rank,
                        int *used, int *info)
{
    bsym__job c = {.prec = BSYM__PREC_S, .uplo = 'L', .n = p, .nrhs = nrhs, .batch = batch, .m = m,
              .X = X, .Y = Y, .wts = w, .w_stride = w_stride, .B = beta, .rss = rss, .info = info, .rank = rank,
              .used = used};
    return lsfit(ctx, opts, &c);
}

/* ---- bsym_dtridiagonalize / bsym_stridiagonalize ------------------------ */
static bsym_status tridiagonalize(bsym_ctx *ctx, bsym__job *c)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym_status st = check_uplo(ctx, c->uplo);
    if (st == BSYM_OK)
        st = check_sizes(ctx, c);
    if (st != BSYM_OK)
        return st;
    if (nonempty(c) && (c->A == NULL || c->d == NULL || c->info == NULL || (c->n > 1 && c->e == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "A, d, e (for n > 1) and info must not be NULL");
    return run(ctx, c);
}

bsym_status bsym_dtridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const double *A, double *d, double *e, double *Q, int *info)
{
    bsym__job c = {.op = BSYM__OP_TRIDIAGONALIZE, .prec = BSYM__PREC_D, .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &c);
}

bsym_status bsym_stridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const float *A, float *d, float *e, float *Q, int *info)
{
    bsym__job c = {.op = BSYM__OP_TRIDIAGONALIZE, .prec = BSYM__PREC_S, .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &c);
}

/* Complex Hermitian A: T real (d, e in the real type of the parts), Q
 * unitary (the CPU's hetrd.c, the GPU's cuda/hetrd.cu). */
bsym_status bsym_ztridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const bsym_cdouble *A, double *d, double *e, bsym_cdouble *Q,
                                 int *info)
{
    bsym__job c = {.op = BSYM__OP_TRIDIAGONALIZE, .prec = BSYM__PREC_Z, .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &c);
}

bsym_status bsym_ctridiagonalize(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch,
                                 const bsym_cfloat *A, float *d, float *e, bsym_cfloat *Q, int *info)
{
    bsym__job c = {.op = BSYM__OP_TRIDIAGONALIZE, .prec = BSYM__PREC_C, .uplo = uplo, .n = n, .batch = batch,
              .A = A, .d = d, .e = e, .Q = Q, .info = info};
    return tridiagonalize(ctx, &c);
}

/* ---- bsym_dtridiag_solve / bsym_stridiag_solve -------------------------- */
static bsym_status tridiag_solve(bsym_ctx *ctx, bsym__job *c)
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
    return run(ctx, c);
}

bsym_status bsym_dtridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const double *dl, const double *d, const double *du,
                                double *B, int *info)
{
    bsym__job c = {.op = BSYM__OP_PCR, .prec = BSYM__PREC_D, .n = n, .nrhs = nrhs, .batch = batch,
              .dl = dl, .dd = d, .du = du, .B = B, .info = info};
    return tridiag_solve(ctx, &c);
}

bsym_status bsym_stridiag_solve(bsym_ctx *ctx, int64_t n, int64_t nrhs, int64_t batch,
                                const float *dl, const float *d, const float *du,
                                float *B, int *info)
{
    bsym__job c = {.op = BSYM__OP_PCR, .prec = BSYM__PREC_S, .n = n, .nrhs = nrhs, .batch = batch,
              .dl = dl, .dd = d, .du = du, .B = B, .info = info};
    return tridiag_solve(ctx, &c);
}

/* ---- bsym_*syev / bsym_*stev ---------------------------------------------- */
/* full: bsym_*syev (A), else bsym_*stev (d, e). */
static bsym_status eig(bsym_ctx *ctx, int full, const bsym_select *sel, bsym__job *c)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym_status st = full ? check_uplo(ctx, c->uplo) : BSYM_OK;
    if (st == BSYM_OK)
        st = check_sizes(ctx, c);
    if (st != BSYM_OK)
        return st;
    c->sel = sel != NULL ? sel : &all;
    if ((st = bsym_select_check(ctx, c->sel, c->n)) != BSYM_OK) /* rules.c: the one rule */
        return st;
    if (c->n > INT32_MAX / 4)
        return bsym__fail(ctx, BSYM_ERR_SIZE, "n = %lld is too large for the eigensolvers",
                          (long long)c->n);
    if (nonempty(c) && full && c->A == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "A must not be NULL");
    if (nonempty(c) && !full && (c->dd == NULL || (c->n > 1 && c->dl == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "d and e (for n > 1) must not be NULL");
    if (nonempty(c) && (c->w == NULL || c->info == NULL))
        return bsym__fail(ctx, BSYM_ERR_ARG, "w and info must not be NULL");
    return run(ctx, c);
}

bsym_status bsym_dsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const double *A,
                       const bsym_select *sel, double *w, double *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_D, .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, 1, sel, &c);
}

bsym_status bsym_ssyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const float *A,
                       const bsym_select *sel, float *w, float *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_S, .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, 1, sel, &c);
}

/* Complex Hermitian A: w real, V complex (the CPU's hetrd.c, the GPU's
 * cuda/hetrd.cu: the complex reduction, then the real eigensolver on T, then
 * V = Q Z). */
bsym_status bsym_zsyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const bsym_cdouble *A,
                       const bsym_select *sel, double *w, bsym_cdouble *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_Z, .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, 1, sel, &c);
}

bsym_status bsym_csyev(bsym_ctx *ctx, char uplo, int64_t n, int64_t batch, const bsym_cfloat *A,
                       const bsym_select *sel, float *w, bsym_cfloat *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_C, .uplo = uplo, .n = n, .batch = batch, .A = A, .w = w,
              .V = V, .count = count, .info = info};
    return eig(ctx, 1, sel, &c);
}

bsym_status bsym_dstev(bsym_ctx *ctx, int64_t n, int64_t batch, const double *d, const double *e,
                       const bsym_select *sel, double *w, double *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_D, .uplo = 'L', .n = n, .batch = batch, .dd = d, .dl = e,
              .w = w, .V = V, .count = count, .info = info};
    return eig(ctx, 0, sel, &c);
}

bsym_status bsym_sstev(bsym_ctx *ctx, int64_t n, int64_t batch, const float *d, const float *e,
                       const bsym_select *sel, float *w, float *V, int *count, int *info)
{
    bsym__job c = {.op = BSYM__OP_EIG, .prec = BSYM__PREC_S, .uplo = 'L', .n = n, .batch = batch, .dd = d, .dl = e,
              .w = w, .V = V, .count = count, .info = info};
    return eig(ctx, 0, sel, &c);
}

/* ---- issue 15: bsym_dpde_solve / bsym_spde_solve / bsym_dspde_solve -------
 * All the rules of the PDE solver's arguments, here and only here. */

/* Grid value i of x (double or float storage). */
static double pde_at(const void *x, int single, int64_t i)
{
    return single ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

/* x (len values, called `name`) finite and strictly increasing. */
static bsym_status pde_check_grid(bsym_ctx *ctx, const char *name, const void *x, int single, int64_t len)
{
    for (int64_t i = 0; i < len; i++) {
        const double v = pde_at(x, single, i);
        if (!(fabs(v) <= DBL_MAX))
            return bsym__fail(ctx, BSYM_ERR_ARG, "%s must be finite (%s[%lld] = %g)", name, name,
                              (long long)i + 1, v);
        if (i > 0 && !(v > pde_at(x, single, i - 1)))
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "%s must be strictly increasing (%s[%lld] = %.17g, %s[%lld] = %.17g)", name,
                              name, (long long)i, pde_at(x, single, i - 1), name, (long long)i + 1, v);
    }
    return BSYM_OK;
}

/* A coefficient's strides >= 0 (boundary values: si ignored) and its last
 * entry addressable. */
static bsym_status pde_check_coef(bsym_ctx *ctx, const char *name, const bsym_pde_coef *c, int boundary,
                                  const bsym_pde *p)
{
    if (c->v == NULL)
        return BSYM_OK;
    const int64_t si = boundary ? 0 : c->si;
    if (si < 0 || c->sn < 0 || c->sk < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG, "%s: strides must be >= 0 (si = %lld, sn = %lld, sk = %lld)", name,
                          (long long)c->si, (long long)c->sn, (long long)c->sk);
    const double last = (double)(p->m - 1) * (double)si + (double)(p->N - 1) * (double)c->sn +
                        (double)(p->batch > 0 ? p->batch - 1 : 0) * (double)c->sk;
    if (last >= 0x1p62)
        return bsym__fail(ctx, BSYM_ERR_SIZE, "%s: the strides address past 2^62 entries", name);
    return BSYM_OK;
}

/* The systems a backend handed back unsolved (info BSYM__PDE_RETRY, see
 * backend.h: the GPU kernel does not pivot) solved again by the CPU
 * backend, which pivots where it must; each run of consecutive ones as one
 * slice of the job (its u still holds what it held before the call). */
static bsym_status pde_retry(bsym_ctx *ctx, const bsym__job *j)
{
    const bsym__op_fn cpu = bsym__cpu_backend.op[BSYM__OP_PDE][j->prec];
    const bsym__exec x = {&ctx->gpu_state, ctx->threads, ctx->interrupt, ctx->interrupt_data,
                          ctx->message, sizeof ctx->message, NULL, 0};
    bsym_status st = BSYM_OK;
    for (int64_t k = 0; k < j->batch && st == BSYM_OK; k++) {
        if (j->info[k] != BSYM__PDE_RETRY)
            continue;
        int64_t e = k + 1;
        while (e < j->batch && j->info[e] == BSYM__PDE_RETRY)
            e++;
        const bsym__job part = bsym__job_slice(j, k, e - k);
        st = cpu(&x, &part);
        k = e - 1;
    }
    return st;
}

static bsym_status pde_solve(bsym_ctx *ctx, bsym__prec prec, const bsym_pde *p, const void *final, void *u,
                             int *info)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (p == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "p (the problem) must not be NULL");
    const int single = prec == BSYM__PREC_S;
    if (p->m < 3)
        return bsym__fail(ctx, BSYM_ERR_ARG, "m must be >= 3 nodes (got %lld)", (long long)p->m);
    if (p->N < 2)
        return bsym__fail(ctx, BSYM_ERR_ARG, "N must be >= 2 time levels (got %lld)", (long long)p->N);
    if (p->batch < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG, "batch must be >= 0 (got %lld)", (long long)p->batch);
    if (p->batch > 0 && p->m > INT64_MAX / 4 / p->batch)
        return bsym__fail(ctx, BSYM_ERR_SIZE, "the batch is too large to address");
    if (!(p->theta >= 0 && p->theta <= 1))
        return bsym__fail(ctx, BSYM_ERR_ARG, "theta must be in [0, 1] (got %g)", p->theta);
    if (p->rannacher < 0 || p->rannacher > p->N - 1)
        return bsym__fail(ctx, BSYM_ERR_ARG, "rannacher must be in [0, N - 1] = [0, %lld] (got %d)",
                          (long long)(p->N - 1), p->rannacher);
    if ((int)p->lower != BSYM_PDE_LINEAR && (int)p->lower != BSYM_PDE_DIRICHLET)
        return bsym__fail(ctx, BSYM_ERR_ARG, "lower must be BSYM_PDE_LINEAR or BSYM_PDE_DIRICHLET (got %d)",
                          (int)p->lower);
    if ((int)p->upper != BSYM_PDE_LINEAR && (int)p->upper != BSYM_PDE_DIRICHLET)
        return bsym__fail(ctx, BSYM_ERR_ARG, "upper must be BSYM_PDE_LINEAR or BSYM_PDE_DIRICHLET (got %d)",
                          (int)p->upper);
    if (p->x == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "x (the nodes) must not be NULL");
    if (p->t == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "t (the times) must not be NULL");
    bsym_status st;
    if ((st = pde_check_grid(ctx, "x", p->x, single, p->m)) != BSYM_OK ||
        (st = pde_check_grid(ctx, "t", p->t, single, p->N)) != BSYM_OK)
        return st;
    if ((st = pde_check_coef(ctx, "a", &p->a, 0, p)) != BSYM_OK ||
        (st = pde_check_coef(ctx, "b", &p->b, 0, p)) != BSYM_OK ||
        (st = pde_check_coef(ctx, "c", &p->c, 0, p)) != BSYM_OK ||
        (st = pde_check_coef(ctx, "d", &p->d, 0, p)) != BSYM_OK ||
        (st = pde_check_coef(ctx, "lower_value", &p->lower_value, 1, p)) != BSYM_OK ||
        (st = pde_check_coef(ctx, "upper_value", &p->upper_value, 1, p)) != BSYM_OK)
        return st;
    if (p->batch > 0 && final == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "final must not be NULL");
    if (p->batch > 0 && u == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "u must not be NULL");
    if (p->batch > 0 && info == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "info must not be NULL");
    bsym__job c = {.op = BSYM__OP_PDE, .prec = prec, .n = p->m, .batch = p->batch, .info = info,
                   .pde = p, .pde_k0 = 0, .final = final, .u = u};
    if ((st = run(ctx, &c)) != BSYM_OK)
        return st;
    return pde_retry(ctx, &c);
}

bsym_status bsym_dpde_solve(bsym_ctx *ctx, const bsym_pde *p, const double *final, double *u, int *info)
{
    return pde_solve(ctx, BSYM__PREC_D, p, final, u, info);
}

bsym_status bsym_spde_solve(bsym_ctx *ctx, const bsym_pde *p, const float *final, float *u, int *info)
{
    return pde_solve(ctx, BSYM__PREC_S, p, final, u, info);
}

bsym_status bsym_dspde_solve(bsym_ctx *ctx, const bsym_pde *p, const double *final, double *u, int *info)
{
    return pde_solve(ctx, BSYM__PREC_DS, p, final, u, info);
}
/* ---- end of issue 15 ------------------------------------------------------ */
