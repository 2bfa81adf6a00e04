/*
 * r_solve.c -- .Call entries of bsym_solve() and of the plan's queries, and
 * what the solve and least-squares glue share: the method by name, the plan
 * copied in and out, the per-system rank and method turned into R vectors.
 * R has checked types and shapes; the core checks the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* The plan fields (doubles, the core's order: bsym_plan_field_name) into
 * the C struct, checked by the core (whole numbers >= 0, consistent); an
 * error names the plan. */
void bsym_r_plan_in(SEXP fields, bsym_plan *plan)
{
    bsym_ctx *ctx = bsym_r_ctx();
    if (bsym_plan_from_fields(ctx, "plan", REAL(fields), plan) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
}

SEXP bsym_r_plan_out(const bsym_plan *plan)
{
    SEXP out = allocVector(REALSXP, BSYM_PLAN_FIELDS);
    bsym_plan_to_fields(plan, REAL(out));
    return out;
}

/* The options for the core: opts = c(method code, rcond, tol) as
 * bsym_r_solve_opts returned them (tol 0: the default), the plan from
 * `fields` (R's NULL: none) into *plan. */
bsym_solve_opts bsym_r_opts(SEXP opts, SEXP fields, bsym_plan *plan)
{
    bsym_solve_opts o;
    o.method = (bsym_method)(int)REAL(opts)[0];
    o.rcond = REAL(opts)[1];
    o.tol = REAL(opts)[2];
    o.plan = NULL;
    if (!isNull(fields)) {
        bsym_r_plan_in(fields, plan);
        o.plan = plan;
    }
    return o;
}

/* rank: NA where info != 0 (the core's -1), in place. Returns the names of
 * the methods that solved the systems (bsym_used_name: NA where info != 0). */
SEXP bsym_r_rank_method(SEXP rank, const int *used, const int *info)
{
    const R_xlen_t batch = XLENGTH(rank);
    int *r = INTEGER(rank);
    /* each method's CHARSXP made once (the core's list, in code order) */
    SEXP names = PROTECT(allocVector(STRSXP, 16));
    int nnames = 0;
    for (const char *s; nnames < 16 && (s = bsym_choice_name(BSYM_CHOICE_METHOD, nnames)) != NULL; nnames++)
        SET_STRING_ELT(names, nnames, mkChar(s));
    SEXP out = PROTECT(allocVector(STRSXP, batch));
    for (R_xlen_t k = 0; k < batch; k++) {
        if (info[k] != 0)
            r[k] = NA_INTEGER;
        const int ok = bsym_used_name(used[k], info[k]) != NULL && used[k] >= 0 && used[k] < nnames;
        SET_STRING_ELT(out, k, ok ? STRING_ELT(names, used[k]) : NA_STRING);
    }
    UNPROTECT(2);
    return out;
}

/* A (double, n*n*batch), B (double, n*nrhs*batch), dims = c(n, nrhs, batch),
 * opts = c(method code, rcond, tol) from bsym_r_solve_opts, plan = NULL or
 * the six plan fields (doubles); device, precision, uplo checked names.
 * Returns list(x = the solutions shaped like B, NA for failed systems, with
 * attributes info, device, rank (NA where info != 0) and method (per
 * system); plan = the updated fields or NULL; failed = the core's sentence
 * about the failed systems). */
SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP opts, SEXP plan, SEXP device,
                  SEXP precision, SEXP uplo, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], nrhs = (int64_t)REAL(dims)[1],
                  batch = (int64_t)REAL(dims)[2];
    const int64_t nx = n * nrhs * batch;
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    const char up = bsym_r_code(BSYM_CHOICE_UPLO, uplo) == 0 ? 'L' : 'U';
    bsym_plan pl;
    const bsym_solve_opts o = bsym_r_opts(opts, plan, &pl);
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    /* complex A and B (R has made both complex when either is): R's Rcomplex
     * is the core's bsym_cdouble, {re, im} */
    const int cplx = TYPEOF(A) == CPLXSXP;
    SEXP x = PROTECT(cplx ? bsym_r_alloc_complex((R_xlen_t)nx) : bsym_r_alloc_real((R_xlen_t)nx));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    SEXP rank = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    int *used = (int *)R_alloc((size_t)batch + 1, sizeof(int));
    /* single: float arithmetic on R's own doubles (bsym_dssolvex, and
     * bsym_zcsolvex for complex), no copies by R */
    bsym_status st;
    if (cplx) {
        if (nx > 0)
            bsym_host_copy(COMPLEX(x), COMPLEX(B), (size_t)nx * sizeof(Rcomplex));
        st = (single ? bsym_zcsolvex : bsym_zsolvex)(ctx, &o, up, n, nrhs, batch, (const bsym_cdouble *)COMPLEX(A),
                                                    (bsym_cdouble *)COMPLEX(x), INTEGER(info), INTEGER(rank), used);
    } else {
        if (nx > 0)
            bsym_host_copy(REAL(x), REAL(B), (size_t)nx * sizeof(double));
        st = (single ? bsym_dssolvex : bsym_dsolvex)(ctx, &o, up, n, nrhs, batch, REAL(A), REAL(x), INTEGER(info),
                                                     INTEGER(rank), used);
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_solve", st);
    bsym_r_mark_solution(x, info, B, n * nrhs, ctx);
    SEXP meth = PROTECT(bsym_r_rank_method(rank, used, INTEGER(info)));
    SEXP pout = PROTECT(o.plan ? bsym_r_plan_out(o.plan) : R_NilValue);
    setAttrib(x, install("rank"), rank);
    setAttrib(x, install("method"), meth);
    const char *names[] = {"x", "plan", "failed", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, x);
    SET_VECTOR_ELT(res, 1, pout);
    SET_VECTOR_ELT(res, 2, bsym_r_failed(BSYM_TASK_SOLVE, batch, INTEGER(info), used));
    UNPROTECT(6);
    return res;
}

/* plan = the six fields: the step the next automatic call starts with,
 * "ldlt", "tridiag" or "eigen" (bsym_plan_start), and why (bsym_plan_reason). */
SEXP bsym_r_plan_start(SEXP plan)
{
    bsym_plan pl;
    bsym_r_plan_in(plan, &pl);
    SEXP res = PROTECT(allocVector(STRSXP, 2));
    SET_STRING_ELT(res, 0, mkChar(bsym_choice_name(BSYM_CHOICE_METHOD, bsym_plan_start(&pl))));
    SET_STRING_ELT(res, 1, mkChar(bsym_plan_reason(&pl)));
    UNPROTECT(1);
    return res;
}
