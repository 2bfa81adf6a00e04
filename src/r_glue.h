/*
 * r_glue.h -- what the R glue files share: the cached core context, the
 * translation of a core status into an R error, and small conversions
 * between R vectors and the core's arrays.
 */
#ifndef BSYM_R_GLUE_H
#define BSYM_R_GLUE_H

#include <stdint.h>

#include <R.h>
#include <Rinternals.h>

#include "core/batchsym.h"

/* The package's context (created on first use, freed when the DLL unloads). */
bsym_ctx *bsym_r_ctx(void);
/* The same with the device (a name of the core's device list) and thread
 * count set for this call and R's interrupt hook installed. */
bsym_ctx *bsym_r_context(const char *device, int threads);
void bsym_r_context_free(void);

/* Raises the R error of a status: a condition of class
 * c("batchsym_<bsym_status_id>", "error", "condition") with message msg. */
void bsym_r_raise(bsym_status status, const char *msg)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Raises the error of a failing core call: "<fun>: <status sentence>: <the
 * context's message>", classed as bsym_r_raise. */
void bsym_r_stop(const char *fun, bsym_status status)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* The core's code of a name (an R string) in list `kind`, which R has
 * checked (bsym_r_choice). */
int bsym_r_code(bsym_choice kind, SEXP name);

/* The core's sentence about the failed systems of a call (bsym_failure_summary),
 * as an R string ("" when none failed). */
SEXP bsym_r_failed(bsym_task task, int64_t batch, const int *info, const int *used);

/* allocVector(REALSXP, len) for a result the core fills, prepared by
 * bsym_host_touch (huge pages where the system gives them, first touched by
 * the OpenMP team: first-touch faults inside the call cost more than the
 * eigensolver itself on some virtual machines). */
SEXP bsym_r_alloc_real(R_xlen_t len);
SEXP bsym_r_alloc_complex(R_xlen_t len); /* the same for CPLXSXP */

/* fn(done, total) after each chunk of the next calls (R/progress.R), or NULL. */
SEXP bsym_r_set_progress(SEXP fn);
/* Records an interrupt caught by the progress function: the core's next
 * interrupt check reports it. */
SEXP bsym_r_note_interrupt(void);

/* Conversions longer than this many entries run on the OpenMP team. */
#define BSYM_R_PARALLEL_MIN ((R_xlen_t)1 << 20)

/* A float copy of the double vector x (NULL for R's NULL), in R_alloc memory:
 * R releases it when the .Call returns, also after an error. */
static inline float *bsym_r_floats(SEXP x)
{
    if (isNull(x))
        return NULL;
    const R_xlen_t len = XLENGTH(x);
    float *f = (float *)R_alloc(len > 0 ? (size_t)len : 1, sizeof(float));
    const double *v = REAL(x);
    /* split over the OpenMP team: a 1e6-system batch is gigabytes, and one
     * thread converting it costs more than the GPU solve */
#pragma omp parallel for schedule(static) if (len > BSYM_R_PARALLEL_MIN)
    for (R_xlen_t i = 0; i < len; i++)
        f[i] = (float)v[i];
    return f;
}

/* dst[i] = src[i] for i < len: single-precision results back to doubles. */
static inline void bsym_r_from_floats(double *dst, const float *src, int64_t len)
{
#pragma omp parallel for schedule(static) if (len > BSYM_R_PARALLEL_MIN)
    for (int64_t i = 0; i < len; i++)
        dst[i] = (double)src[i];
}

/* A complex float copy of the complex vector x (NULL for R's NULL), in
 * R_alloc memory (as bsym_r_floats), and the way back. */
static inline bsym_cfloat *bsym_r_cfloats(SEXP x)
{
    if (isNull(x))
        return NULL;
    const R_xlen_t len = XLENGTH(x);
    bsym_cfloat *f = (bsym_cfloat *)R_alloc(len > 0 ? (size_t)len : 1, sizeof(bsym_cfloat));
    const Rcomplex *v = COMPLEX(x);
#pragma omp parallel for schedule(static) if (len > BSYM_R_PARALLEL_MIN)
    for (R_xlen_t i = 0; i < len; i++) {
        f[i].re = (float)v[i].r;
        f[i].im = (float)v[i].i;
    }
    return f;
}

static inline void bsym_r_from_cfloats(Rcomplex *dst, const bsym_cfloat *src, int64_t len)
{
#pragma omp parallel for schedule(static) if (len > BSYM_R_PARALLEL_MIN)
    for (int64_t i = 0; i < len; i++) {
        dst[i].r = (double)src[i].re;
        dst[i].i = (double)src[i].im;
    }
}

/* A result's shape, set in C on the vector the .Call returns: in R,
 * setting an attribute of a vector that a list (the .Call's result) also
 * holds copies it, a gigabyte for large batches.
 *   bsym_r_shape_like: x's dim, dimnames and names are like's (its right-
 *     hand side's shape: a vector, a matrix or a 3-d array);
 *   bsym_r_batch_shape: x holds `batch` outputs of shape per[0..nper-1]
 *     (n values, n x m vectors); shape = list(one, names, batch) from R's
 *     batch_shape(): for one system x has the shape per (no dim when per is
 *     one number), else c(per, batch) with the batch names, if any, on the
 *     last dimension. NULL x stays NULL. */
void bsym_r_shape_like(SEXP x, SEXP like);
void bsym_r_batch_shape(SEXP x, const int *per, int nper, SEXP shape);

/* NA (not NaN) in the `per` entries of every system k with info[k] != 0 of
 * an array of `batch` systems. */
static inline void bsym_r_na_failed(double *x, int64_t per, int64_t batch, const int *info)
{
    for (int64_t k = 0; k < batch; k++)
        if (info[k] != 0)
            for (int64_t i = 0; i < per; i++)
                x[k * per + i] = NA_REAL;
}

/* "gpu" or "cpu": who served the last call on ctx. */
static inline SEXP bsym_r_device_used(const bsym_ctx *ctx)
{
    return mkString(bsym_choice_name(BSYM_CHOICE_DEVICE, bsym_ctx_last_device(ctx)));
}

/* The solutions x as R returns them: NA for the failed systems, shaped like
 * `like` (the right-hand sides), with attributes info and device (set here:
 * see bsym_r_shape_like). */
static inline void bsym_r_mark_solution(SEXP x, SEXP info, SEXP like, int64_t per_system, const bsym_ctx *ctx)
{
    if (TYPEOF(x) == CPLXSXP) /* complex: both parts of each entry NA (as R's NA_complex_) */
        bsym_r_na_failed((double *)COMPLEX(x), 2 * per_system, XLENGTH(info), INTEGER(info));
    else
        bsym_r_na_failed(REAL(x), per_system, XLENGTH(info), INTEGER(info));
    bsym_r_shape_like(x, like);
    setAttrib(x, install("info"), info);
    setAttrib(x, install("device"), bsym_r_device_used(ctx));
}

/* list(x, failed) of a `task`: x marked by bsym_r_mark_solution; x and info
 * are protected by the caller (2 protections, released here). */
static inline SEXP bsym_r_solution(SEXP x, SEXP info, SEXP like, int64_t per_system, const bsym_ctx *ctx,
                                   bsym_task task)
{
    bsym_r_mark_solution(x, info, like, per_system, ctx);
    const char *names[] = {"x", "failed", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, x);
    SET_VECTOR_ELT(out, 1, bsym_r_failed(task, XLENGTH(info), INTEGER(info), NULL));
    UNPROTECT(3);
    return out;
}

/* What bsym_solve() and bsym_lsfit() share (r_solve.c): the six plan fields
 * (doubles, the core's order) <-> the C struct, checked by the core; the
 * options c(method code, rcond, tol) that bsym_r_solve_opts checked and the
 * plan fields (or NULL) as core options, the plan kept in *plan; rank set NA
 * where info != 0 (in place) and the names of the methods that solved the
 * systems (NA where info != 0). */
void bsym_r_plan_in(SEXP fields, bsym_plan *plan);
SEXP bsym_r_plan_out(const bsym_plan *plan);
bsym_solve_opts bsym_r_opts(SEXP opts, SEXP fields, bsym_plan *plan);
SEXP bsym_r_rank_method(SEXP rank, const int *used, const int *info);

/* The .Call entries of the rules the bindings share (r_rules.c). */
SEXP bsym_r_rules(void);
SEXP bsym_r_choice(SEXP kind, SEXP arg, SEXP value);
SEXP bsym_r_arg_error(SEXP msg);
SEXP bsym_r_solve_opts(SEXP method, SEXP rcond, SEXP tol);
SEXP bsym_r_select(SEXP index, SEXP interval, SEXP n);

SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP opts, SEXP plan, SEXP device, SEXP precision,
                  SEXP uplo, SEXP threads);
SEXP bsym_r_plan_start(SEXP plan);
SEXP bsym_r_cpu_info(void);
SEXP bsym_r_lsfit(SEXP X, SEXP Y, SEXP w, SEXP dims, SEXP opts, SEXP plan, SEXP device,
                  SEXP precision, SEXP threads);
SEXP bsym_r_tridiag_solve(SEXP lower, SEXP diag, SEXP upper, SEXP rhs, SEXP dims,
                          SEXP device, SEXP precision, SEXP threads);
SEXP bsym_r_tridiagonalize(SEXP A, SEXP dims, SEXP vectors, SEXP device, SEXP precision,
                           SEXP uplo, SEXP threads, SEXP shape);
SEXP bsym_r_eigen(SEXP A, SEXP d, SEXP e, SEXP dims, SEXP vectors, SEXP select, SEXP device,
                  SEXP precision, SEXP uplo, SEXP threads, SEXP shape);
SEXP bsym_r_device_info(void);
SEXP bsym_r_set_gpus(SEXP ids);
SEXP bsym_r_link_rate(SEXP bytes, SEXP gpu);
SEXP bsym_r_pde_solve(SEXP x, SEXP t, SEXP arrays, SEXP dims, SEXP theta, SEXP rannacher, SEXP lower,
                      SEXP upper, SEXP device, SEXP precision, SEXP threads); /* r_pde.c */

#endif
