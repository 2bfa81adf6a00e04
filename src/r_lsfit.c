/*
 * r_lsfit.c -- .Call entry of bsym_lsfit(): R vectors <-> core views.
 * R has checked types and shapes; the core checks the rest (weights
 * included: a negative or non-finite one fails its system, info -1).
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* X (double, m*p*batch), Y (double, m*nrhs*batch), w (double, NULL for
 * unit weights), dims = c(m, p, nrhs, batch, w_stride) with w_stride m
 * (w is m*batch) or 0 (w is m weights shared by every system), opts and
 * plan (NULL or the six fields) as for bsym_r_solve.
 * Returns list(beta = p*nrhs*batch coefficients, rss = nrhs*batch, both NA
 * for failed systems, info, device, rank (NA where info != 0), method (per
 * system), plan = the updated fields or NULL, failed = the core's sentence
 * about the failed systems). */
SEXP bsym_r_lsfit(SEXP X, SEXP Y, SEXP w, SEXP dims, SEXP opts, SEXP plan, SEXP device,
                  SEXP precision, SEXP threads)
{
    const double *dm = REAL(dims);
    const int64_t m = (int64_t)dm[0], p = (int64_t)dm[1], nrhs = (int64_t)dm[2],
                  batch = (int64_t)dm[3], w_stride = (int64_t)dm[4];
    const int64_t nb = p * nrhs * batch, nr = nrhs * batch;
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    bsym_plan pl;
    const bsym_solve_opts o = bsym_r_opts(opts, plan, &pl);
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP beta = PROTECT(bsym_r_alloc_real((R_xlen_t)nb));
    SEXP rss = PROTECT(allocVector(REALSXP, (R_xlen_t)nr));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    SEXP rank = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    int *used = (int *)R_alloc((size_t)batch + 1, sizeof(int));
    bsym_status st;
    if (!single) {
        st = bsym_dlsfit(ctx, &o, m, p, nrhs, batch, REAL(X), REAL(Y),
                         isNull(w) ? NULL : REAL(w), w_stride, REAL(beta), REAL(rss), INTEGER(rank), used,
                         INTEGER(info));
    } else {
        float *fb = (float *)R_alloc((size_t)nb + 1, sizeof(float));
        float *fr = (float *)R_alloc((size_t)nr + 1, sizeof(float));
        st = bsym_slsfit(ctx, &o, m, p, nrhs, batch, bsym_r_floats(X), bsym_r_floats(Y),
                         bsym_r_floats(w), w_stride, fb, fr, INTEGER(rank), used, INTEGER(info));
        if (st == BSYM_OK) {
            bsym_r_from_floats(REAL(beta), fb, nb);
            bsym_r_from_floats(REAL(rss), fr, nr);
        }
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_lsfit", st);
    bsym_r_na_failed(REAL(beta), p * nrhs, batch, INTEGER(info));
    bsym_r_na_failed(REAL(rss), nrhs, batch, INTEGER(info));
    SEXP meth = PROTECT(bsym_r_rank_method(rank, used, INTEGER(info)));
    SEXP pout = PROTECT(o.plan ? bsym_r_plan_out(o.plan) : R_NilValue);
    const char *names[] = {"beta", "rss", "info", "device", "rank", "method", "plan", "failed", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, beta);
    SET_VECTOR_ELT(res, 1, rss);
    SET_VECTOR_ELT(res, 2, info);
    SET_VECTOR_ELT(res, 3, bsym_r_device_used(ctx));
    SET_VECTOR_ELT(res, 4, rank);
    SET_VECTOR_ELT(res, 5, meth);
    SET_VECTOR_ELT(res, 6, pout);
    SET_VECTOR_ELT(res, 7, bsym_r_failed(BSYM_TASK_LSFIT, batch, INTEGER(info), used));
    UNPROTECT(7);
    return res;
}
