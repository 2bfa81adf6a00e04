/*
 * r_eigen.c -- .Call entry of bsym_eigen() and bsym_tridiag_eigen(): R
 * vectors <-> core views, and the one place where the core's ascending
 * eigenvalues become R's decreasing ones. R has checked types, shapes and
 * choices; the core validates the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* The m x batch values and n x m x batch vectors R returns, from the core's
 * n x batch w and n x n x batch V (V may be NULL): system k's c = cnt[k]
 * selected values, ascending in w's first c entries, go decreasing into the
 * first c of its m rows, their vector columns likewise, and NA fills the
 * rest; a system with info[k] != 0 is NA throughout. dst may be src when
 * m == n (the order is then reversed in place). */
static void eigen_output(const double *w, const double *V, double *dw, double *dv, int64_t n,
                         int64_t m, int64_t batch, const int *cnt, const int *info)
{
    const int in_place = w == dw;
#pragma omp parallel for schedule(static) if (batch * (n + 1) * m > BSYM_R_PARALLEL_MIN)
    for (int64_t k = 0; k < batch; k++) {
        int64_t c = info[k] != 0 ? 0 : cnt[k];
        if (c < 0)
            c = 0;
        if (c > m)
            c = m;
        const double *sw = w + k * n;
        double *ow = dw + k * m;
        if (in_place) {
            for (int64_t i = 0; i < c / 2; i++) {
                const double t = ow[i];
                ow[i] = ow[c - 1 - i];
                ow[c - 1 - i] = t;
            }
        } else {
            for (int64_t i = 0; i < c; i++)
                ow[i] = sw[c - 1 - i];
        }
        for (int64_t i = c; i < m; i++)
            ow[i] = NA_REAL;
        if (V == NULL)
            continue;
        const double *sv = V + k * n * n;
        double *ov = dv + k * n * m;
        if (in_place) {
            for (int64_t j = 0; j < c / 2; j++) {
                double *a = ov + j * n, *b = ov + (c - 1 - j) * n;
                for (int64_t i = 0; i < n; i++) {
                    const double t = a[i];
                    a[i] = b[i];
                    b[i] = t;
                }
            }
        } else {
            for (int64_t j = 0; j < c; j++)
                memcpy(ov + j * n, sv + (c - 1 - j) * n, (size_t)n * sizeof(double));
        }
        for (int64_t i = c * n; i < m * n; i++)
            ov[i] = NA_REAL;
    }
}

/* Full input A (double, n*n*batch; d = e = NULL) or tridiagonal input d
 * (n*batch) and e ((n-1)*batch, NULL for n <= 1; A = NULL). dims = c(n,
 * batch); vectors TRUE/FALSE; select = c(kind, a, b) with kind 0 (all), 1
 * (index: the a-th to b-th smallest, 1-based) or 2 (interval (a, b]).
 * Returns list(values = m x batch decreasing, vectors = n x m x batch or
 * NULL, count, info, device, m) with m = n, b - a + 1, or the largest count
 * of the interval; NA for the systems that failed (count NA too). */
SEXP bsym_r_eigen(SEXP A, SEXP d, SEXP e, SEXP dims, SEXP vectors, SEXP select, SEXP device,
                  SEXP precision, SEXP uplo, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], batch = (int64_t)REAL(dims)[1];
    const int full = !isNull(A);
    const char *fun = full ? "bsym_eigen" : "bsym_tridiag_eigen";
    const int single = strcmp(CHAR(STRING_ELT(precision, 0)), "single") == 0;
    const int want_v = asLogical(vectors) == TRUE;
    const char up = CHAR(STRING_ELT(uplo, 0))[0];
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
    SEXP w = PROTECT(allocVector(REALSXP, (R_xlen_t)nw));
    SEXP V = PROTECT(want_v ? allocVector(REALSXP, (R_xlen_t)nv) : R_NilValue);
    SEXP count = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    int *cnt = INTEGER(count), *inf = INTEGER(info);
    bsym_status st;
    if (!single) {
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

    /* rows of the output: fixed, or the largest count of the interval */
    int64_t m = n;
    if (sel.kind == BSYM_SELECT_INDEX)
        m = sel.iu - sel.il + 1;
    for (int64_t k = 0; k < batch; k++)
        if (inf[k] != 0)
            cnt[k] = NA_INTEGER;
    if (sel.kind == BSYM_SELECT_VALUE) {
        m = 0;
        for (int64_t k = 0; k < batch; k++)
            if (inf[k] == 0 && cnt[k] > m)
                m = cnt[k];
    }
    SEXP ow = w, ov = V;
    if (m != n) {
        ow = allocVector(REALSXP, (R_xlen_t)(m * batch));
        PROTECT(ow);
        ov = want_v ? allocVector(REALSXP, (R_xlen_t)(n * m * batch)) : R_NilValue;
        PROTECT(ov);
    }
    eigen_output(REAL(w), want_v ? REAL(V) : NULL, REAL(ow), want_v ? REAL(ov) : NULL, n, m,
                 batch, cnt, inf);

    const char *names[] = {"values", "vectors", "count", "info", "device", "m", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, ow);
    SET_VECTOR_ELT(out, 1, ov);
    SET_VECTOR_ELT(out, 2, count);
    SET_VECTOR_ELT(out, 3, info);
    SET_VECTOR_ELT(out, 4, bsym_r_device_used(ctx));
    SET_VECTOR_ELT(out, 5, ScalarInteger((int)m));
    UNPROTECT(m != n ? 7 : 5);
    return out;
}
