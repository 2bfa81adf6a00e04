/*
 * r_eigen.c -- .Call entry of bsym_eigen() and bsym_tridiag_eigen(): R
 * vectors <-> core views; the core's ascending eigenvalues become R's
 * decreasing ones through the core's packing (bsym_dselect_pack). R has
 * checked types and shapes; the core checks the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* Full input A (double, or complex Hermitian: values real, vectors complex;
 * n*n*batch; d = e = NULL) or tridiagonal input d
 * (n*batch) and e ((n-1)*batch, NULL for n <= 1; A = NULL). dims = c(n,
 * batch); vectors TRUE/FALSE; select = c(kind, a, b) from bsym_r_select,
 * kind 0 (all), 1 (index: the a-th to b-th smallest, 1-based) or 2
 * (interval (a, b]); shape from R's batch_shape(). Returns list(values = m
 * x batch decreasing, vectors = n x m x batch or NULL, count, info, device,
 * m, failed) with m the core's bsym_select_rows, values and vectors shaped
 * by bsym_r_batch_shape; NA for the systems that failed (count NA too). */
SEXP bsym_r_eigen(SEXP A, SEXP d, SEXP e, SEXP dims, SEXP vectors, SEXP select, SEXP device,
                  SEXP precision, SEXP uplo, SEXP threads, SEXP shape)
{
    const int64_t n = (int64_t)REAL(dims)[0], batch = (int64_t)REAL(dims)[1];
    const int full = !isNull(A);
    const char *fun = full ? "bsym_eigen" : "bsym_tridiag_eigen";
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    const int want_v = asLogical(vectors) == TRUE;
    const char up = bsym_r_code(BSYM_CHOICE_UPLO, uplo) == 0 ? 'L' : 'U';
    const double *s = REAL(select);
    bsym_select sel = {(bsym_select_kind)(int)s[0], 0, 0, 0.0, 0.0};
    if (sel.kind == BSYM_SELECT_INDEX) {
        sel.il = (int64_t)s[1];
        sel.iu = (int64_t)s[2];
    } else if (sel.kind == BSYM_SELECT_VALUE) {
        sel.vl = s[1];
        sel.vu = s[2];
    }
    const int bands = !full && n > 1; /* e is read only for n > 1 */
    const int64_t nw = n * batch, nv = n * n * batch;
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    /* the core's n-row output, in doubles */
    SEXP w = PROTECT(bsym_r_alloc_real((R_xlen_t)nw));
    const int cplx = full && TYPEOF(A) == CPLXSXP;
    SEXP V = PROTECT(!want_v ? R_NilValue
                     : cplx ? bsym_r_alloc_complex((R_xlen_t)nv) : bsym_r_alloc_real((R_xlen_t)nv));
    SEXP count = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    int *cnt = INTEGER(count), *inf = INTEGER(info);
    bsym_status st;
    if (cplx && !single) {
        st = bsym_zsyev(ctx, up, n, batch, (const bsym_cdouble *)COMPLEX(A), &sel, REAL(w),
                        want_v ? (bsym_cdouble *)COMPLEX(V) : NULL, cnt, inf);
    } else if (cplx) { /* complex float copies */
        float *fw = (float *)R_alloc((size_t)nw + 1, sizeof(float));
        bsym_cfloat *fv = want_v ? (bsym_cfloat *)R_alloc((size_t)nv + 1, sizeof(bsym_cfloat)) : NULL;
        st = bsym_csyev(ctx, up, n, batch, bsym_r_cfloats(A), &sel, fw, fv, cnt, inf);
        if (st == BSYM_OK) {
            bsym_r_from_floats(REAL(w), fw, nw);
            if (want_v)
                bsym_r_from_cfloats(COMPLEX(V), fv, nv);
        }
    } else if (!single) {
        double *pv = want_v ? REAL(V) : NULL;
        st = full ? bsym_dsyev(ctx, up, n, batch, REAL(A), &sel, REAL(w), pv, cnt, inf)
                  : bsym_dstev(ctx, n, batch, REAL(d), bands ? REAL(e) : NULL, &sel, REAL(w), pv,
                               cnt, inf);
    } else {
        float *fw = (float *)R_alloc((size_t)nw + 1, sizeof(float));
        float *fv = want_v ? (float *)R_alloc((size_t)nv + 1, sizeof(float)) : NULL;
        st = full ? bsym_ssyev(ctx, up, n, batch, bsym_r_floats(A), &sel, fw, fv, cnt, inf)
                  : bsym_sstev(ctx, n, batch, bsym_r_floats(d), bands ? bsym_r_floats(e) : NULL,
                               &sel, fw, fv, cnt, inf);
        if (st == BSYM_OK) {
            bsym_r_from_floats(REAL(w), fw, nw);
            if (want_v)
                bsym_r_from_floats(REAL(V), fv, nv);
        }
    }
    if (st != BSYM_OK)
        bsym_r_stop(fun, st);

    /* rows of the output (the core's count is 0 where info != 0), then the
     * selected values decreasing in them, NA in the rest */
    const int64_t m = bsym_select_rows(&sel, n, batch, cnt);
    SEXP ow = w, ov = V;
    if (m != n) {
        ow = allocVector(REALSXP, (R_xlen_t)(m * batch));
        PROTECT(ow);
        ov = !want_v ? R_NilValue
             : cplx ? bsym_r_alloc_complex((R_xlen_t)(n * m * batch))
                    : bsym_r_alloc_real((R_xlen_t)(n * m * batch));
        PROTECT(ov);
    }
    if (cplx && want_v) {
        /* the core's packing is real: the real and imaginary parts of the
         * vectors packed apart, out of place (the values packed twice, into
         * w2), then put together */
        const Rcomplex *cv = COMPLEX(V);
        const int64_t no = n * m * batch;
        double *re = (double *)R_alloc((size_t)nv + 1, sizeof(double));
        double *im = (double *)R_alloc((size_t)nv + 1, sizeof(double));
        double *reo = (double *)R_alloc((size_t)no + 1, sizeof(double));
        double *imo = (double *)R_alloc((size_t)no + 1, sizeof(double));
        double *w2 = (double *)R_alloc((size_t)(m * batch) + 1, sizeof(double));
        for (int64_t i = 0; i < nv; i++) {
            re[i] = cv[i].r;
            im[i] = cv[i].i;
        }
        bsym_dselect_pack(n, m, batch, cnt, inf, 1, NA_REAL, REAL(w), im, w2, imo);
        bsym_dselect_pack(n, m, batch, cnt, inf, 1, NA_REAL, REAL(w), re, w2, reo);
        if (m * batch > 0)
            memcpy(REAL(ow), w2, (size_t)(m * batch) * sizeof(double));
        Rcomplex *co = COMPLEX(ov);
        for (int64_t i = 0; i < no; i++) {
            co[i].r = reo[i];
            co[i].i = imo[i];
        }
    } else {
        bsym_dselect_pack(n, m, batch, cnt, inf, 1, NA_REAL, REAL(w), want_v ? REAL(V) : NULL,
                          REAL(ow), want_v ? REAL(ov) : NULL);
    }
    for (int64_t k = 0; k < batch; k++)
        if (inf[k] != 0)
            cnt[k] = NA_INTEGER;
    const int per_w[] = {(int)m}, per_v[] = {(int)n, (int)m};
    bsym_r_batch_shape(ow, per_w, 1, shape);
    bsym_r_batch_shape(ov, per_v, 2, shape);

    const char *names[] = {"values", "vectors", "count", "info", "device", "m", "failed", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, ow);
    SET_VECTOR_ELT(out, 1, ov);
    SET_VECTOR_ELT(out, 2, count);
    SET_VECTOR_ELT(out, 3, info);
    SET_VECTOR_ELT(out, 4, bsym_r_device_used(ctx));
    SET_VECTOR_ELT(out, 5, ScalarInteger((int)m));
    SET_VECTOR_ELT(out, 6, bsym_r_failed(BSYM_TASK_EIGEN, batch, inf, NULL));
    UNPROTECT(m != n ? 7 : 5);
    return out;
}
