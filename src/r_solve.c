/*
 * r_solve.c -- .Call entries of bsym_solve() and of the plan's queries, and
 * what the solve and least-squares glue share: the method by name, the plan
 * copied in and out, the per-system rank and method turned into R vectors.
 * R has checked types, shapes and choices; the core validates the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

static const char *method_names[] = {"ldlt", "tridiag", "eigen", "auto"};

bsym_method bsym_r_method(SEXP method)
{
    const char *s = CHAR(STRING_ELT(method, 0));
    for (int m = 0; m < 4; m++)
        if (strcmp(s, method_names[m]) == 0)
            return (bsym_method)m; /* LDLT 0, TRIDIAG 1, EIGEN 2, AUTO 3 */
    error("batchsym: unknown method \"%s\"", s); /* R has matched it */
}

/* The plan fields (calls, systems, not_spd, fallback, last_systems,
 * last_fallback) as doubles, R's order <-> the C struct. */
void bsym_r_plan_in(SEXP fields, bsym_plan *plan)
{
    const double *v = REAL(fields);
    plan->calls = (int64_t)v[0];
    plan->systems = (int64_t)v[1];
    plan->not_spd = (int64_t)v[2];
    plan->fallback = (int64_t)v[3];
    plan->last_systems = (int64_t)v[4];
    plan->last_fallback = (int64_t)v[5];
}

SEXP bsym_r_plan_out(const bsym_plan *plan)
{
    SEXP out = allocVector(REALSXP, 6);
    double *v = REAL(out);
    v[0] = (double)plan->calls;
    v[1] = (double)plan->systems;
    v[2] = (double)plan->not_spd;
    v[3] = (double)plan->fallback;
    v[4] = (double)plan->last_systems;
    v[5] = (double)plan->last_fallback;
    return out;
}

/* The options for the core: opts = c(rcond, tol) (tol 0: the default),
 * the plan from `fields` (R's NULL: none) into *plan. */
bsym_solve_opts bsym_r_opts(SEXP method, SEXP opts, SEXP fields, bsym_plan *plan)
{
    bsym_solve_opts o;
    o.method = bsym_r_method(method);
    o.rcond = REAL(opts)[0];
    o.tol = REAL(opts)[1];
    o.plan = NULL;
    if (!isNull(fields)) {
        bsym_r_plan_in(fields, plan);
        o.plan = plan;
    }
    return o;
}

/* rank: NA where info != 0 (the core's -1), in place. Returns the method
 * names of the core's `used` codes, NA where info != 0 or the code is not
 * one of LDLT, TRIDIAG, EIGEN. */
SEXP bsym_r_rank_method(SEXP rank, const int *used, const int *info)
{
    const R_xlen_t batch = XLENGTH(rank);
    int *r = INTEGER(rank);
    SEXP names[3];
    for (int m = 0; m < 3; m++)
        names[m] = PROTECT(mkChar(method_names[m]));
    SEXP out = PROTECT(allocVector(STRSXP, batch));
    for (R_xlen_t k = 0; k < batch; k++) {
        const int ok = info[k] == 0;
        if (!ok)
            r[k] = NA_INTEGER;
        const int u = used[k];
        SET_STRING_ELT(out, k, ok && u >= 0 && u <= 2 ? names[u] : NA_STRING);
    }
    UNPROTECT(4);
    return out;
}

/* A (double, n*n*batch), B (double, n*nrhs*batch), dims = c(n, nrhs, batch),
 * method "ldlt", "tridiag", "eigen" or "auto" (matched by R), opts =
 * c(rcond, tol), plan = NULL or the six plan fields (doubles).
 * Returns list(x = solutions with NA for failed systems, info, device,
 * rank (NA where info != 0), method (per system), plan = the updated fields
 * or NULL). */
SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP method, SEXP opts, SEXP plan, SEXP device,
                  SEXP precision, SEXP uplo, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], nrhs = (int64_t)REAL(dims)[1],
                  batch = (int64_t)REAL(dims)[2];
    const int64_t nx = n * nrhs * batch;
    const int single = strcmp(CHAR(STRING_ELT(precision, 0)), "single") == 0;
    const char up = CHAR(STRING_ELT(uplo, 0))[0];
    bsym_plan pl;
    const bsym_solve_opts o = bsym_r_opts(method, opts, plan, &pl);
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP x = PROTECT(allocVector(REALSXP, (R_xlen_t)nx));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    SEXP rank = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    int *used = (int *)R_alloc((size_t)batch + 1, sizeof(int));
    bsym_status st;
    if (!single) {
        if (nx > 0)
            memcpy(REAL(x), REAL(B), (size_t)nx * sizeof(double));
        st = bsym_dsolvex(ctx, &o, up, n, nrhs, batch, REAL(A), REAL(x), INTEGER(info),
                          INTEGER(rank), used);
    } else {
        float *fa = bsym_r_floats(A), *fx = bsym_r_floats(B);
        st = bsym_ssolvex(ctx, &o, up, n, nrhs, batch, fa, fx, INTEGER(info), INTEGER(rank),
                          used);
        bsym_r_from_floats(REAL(x), fx, nx);
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_solve", st);
    bsym_r_na_failed(REAL(x), n * nrhs, batch, INTEGER(info));
    SEXP meth = PROTECT(bsym_r_rank_method(rank, used, INTEGER(info)));
    SEXP pout = PROTECT(o.plan ? bsym_r_plan_out(o.plan) : R_NilValue);
    const char *names[] = {"x", "info", "device", "rank", "method", "plan", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, x);
    SET_VECTOR_ELT(res, 1, info);
    SET_VECTOR_ELT(res, 2, bsym_r_device_used(ctx));
    SET_VECTOR_ELT(res, 3, rank);
    SET_VECTOR_ELT(res, 4, meth);
    SET_VECTOR_ELT(res, 5, pout);
    UNPROTECT(6);
    return res;
}

/* plan = the six fields: the path the next automatic call starts with,
 * "tridiag", "ldlt" or "eigen" (bsym_plan_start). */
SEXP bsym_r_plan_start(SEXP plan)
{
    bsym_plan pl;
    bsym_r_plan_in(plan, &pl);
    const bsym_method m = bsym_plan_start(&pl);
    return mkString(m >= BSYM_METHOD_LDLT && m <= BSYM_METHOD_EIGEN ? method_names[m] : "auto");
}
