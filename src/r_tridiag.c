/*
 * r_tridiag.c -- .Call entries of bsym_tridiag_solve() and
 * bsym_tridiagonalize(): R vectors <-> core views. R has checked types and
 * shapes, and the choices through the core; the core checks the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* lower, diag, upper (upper may be NULL: symmetric) and rhs are doubles with
 * (n-1)*batch, n*batch, (n-1)*batch and n*nrhs*batch entries;
 * dims = c(n, nrhs, batch). Returns list(x = the solutions shaped like rhs,
 * NA for failed systems, with attributes info and device; failed = the
 * core's sentence about them). */
SEXP bsym_r_tridiag_solve(SEXP lower, SEXP diag, SEXP upper, SEXP rhs, SEXP dims,
                          SEXP device, SEXP precision, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], nrhs = (int64_t)REAL(dims)[1],
                  batch = (int64_t)REAL(dims)[2];
    const int64_t nx = n * nrhs * batch;
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    /* the bands are not read for n <= 1 (and are empty then): NULL for the core;
     * upper = NULL asks for a symmetric T (du = dl) */
    const int bands = n > 1, sym = isNull(upper);
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP x = PROTECT(bsym_r_alloc_real((R_xlen_t)nx));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    bsym_status st;
    if (!single) {
        if (nx > 0)
            bsym_host_copy(REAL(x), REAL(rhs), (size_t)nx * sizeof(double));
        st = bsym_dtridiag_solve(ctx, n, nrhs, batch, bands ? REAL(lower) : NULL, REAL(diag),
                                 bands && !sym ? REAL(upper) : NULL, REAL(x), INTEGER(info));
    } else {
        float *fl = bands ? bsym_r_floats(lower) : NULL;
        float *fu = bands && !sym ? bsym_r_floats(upper) : NULL;
        float *fd = bsym_r_floats(diag), *fx = bsym_r_floats(rhs);
        st = bsym_stridiag_solve(ctx, n, nrhs, batch, fl, fd, fu, fx, INTEGER(info));
        bsym_r_from_floats(REAL(x), fx, nx);
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_tridiag_solve", st);
    return bsym_r_solution(x, info, rhs, n * nrhs, ctx, BSYM_TASK_TRIDIAG_SOLVE);
}

/* A (double or complex, n*n*batch; complex: Hermitian, d and e real, Q
 * complex), dims = c(n, batch), vectors TRUE/FALSE, shape
 * from R's batch_shape(). Returns list(d = n x batch, e = (n-1) x batch, Q =
 * n x n x batch or NULL, info, device, failed), with NA in d, e and Q of the
 * systems that failed, shaped by bsym_r_batch_shape. */
SEXP bsym_r_tridiagonalize(SEXP A, SEXP dims, SEXP vectors, SEXP device, SEXP precision,
                           SEXP uplo, SEXP threads, SEXP shape)
{
    const int64_t n = (int64_t)REAL(dims)[0], batch = (int64_t)REAL(dims)[1];
    const int64_t m = n > 1 ? n - 1 : 0; /* off-diagonal entries per system */
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    const int want_q = asLogical(vectors) == TRUE;
    const char up = bsym_r_code(BSYM_CHOICE_UPLO, uplo) == 0 ? 'L' : 'U';
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP d = PROTECT(bsym_r_alloc_real((R_xlen_t)(n * batch)));
    SEXP e = PROTECT(bsym_r_alloc_real((R_xlen_t)(m * batch)));
    const int cplx = TYPEOF(A) == CPLXSXP;
    SEXP Q = PROTECT(!want_q ? R_NilValue
                     : cplx ? bsym_r_alloc_complex((R_xlen_t)(n * n * batch))
                            : bsym_r_alloc_real((R_xlen_t)(n * n * batch)));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    bsym_status st;
    if (cplx && !single) {
        st = bsym_ztridiagonalize(ctx, up, n, batch, (const bsym_cdouble *)COMPLEX(A), REAL(d),
                                  m > 0 ? REAL(e) : NULL, want_q ? (bsym_cdouble *)COMPLEX(Q) : NULL,
                                  INTEGER(info));
    } else if (cplx) { /* complex float copies */
        bsym_cfloat *fa = bsym_r_cfloats(A);
        float *fd = (float *)R_alloc((size_t)(n * batch) + 1, sizeof(float));
        float *fe = m > 0 ? (float *)R_alloc((size_t)(m * batch) + 1, sizeof(float)) : NULL;
        bsym_cfloat *fq = want_q ? (bsym_cfloat *)R_alloc((size_t)(n * n * batch) + 1, sizeof(bsym_cfloat)) : NULL;
        st = bsym_ctridiagonalize(ctx, up, n, batch, fa, fd, fe, fq, INTEGER(info));
        if (st == BSYM_OK) {
            bsym_r_from_floats(REAL(d), fd, n * batch);
            if (fe)
                bsym_r_from_floats(REAL(e), fe, m * batch);
            if (fq)
                bsym_r_from_cfloats(COMPLEX(Q), fq, n * n * batch);
        }
    } else if (!single) {
        st = bsym_dtridiagonalize(ctx, up, n, batch, REAL(A), REAL(d), m > 0 ? REAL(e) : NULL,
                                  want_q ? REAL(Q) : NULL, INTEGER(info));
    } else {
        float *fa = bsym_r_floats(A);
        float *fd = (float *)R_alloc((size_t)(n * batch) + 1, sizeof(float));
        float *fe = m > 0 ? (float *)R_alloc((size_t)(m * batch) + 1, sizeof(float)) : NULL;
        float *fq = want_q ? (float *)R_alloc((size_t)(n * n * batch) + 1, sizeof(float)) : NULL;
        st = bsym_stridiagonalize(ctx, up, n, batch, fa, fd, fe, fq, INTEGER(info));
        if (st == BSYM_OK) {
            bsym_r_from_floats(REAL(d), fd, n * batch);
            if (fe)
                bsym_r_from_floats(REAL(e), fe, m * batch);
            if (fq)
                bsym_r_from_floats(REAL(Q), fq, n * n * batch);
        }
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_tridiagonalize", st);
    const int *inf = INTEGER(info);
    bsym_r_na_failed(REAL(d), n, batch, inf);
    bsym_r_na_failed(REAL(e), m, batch, inf);
    if (want_q) /* complex: both parts NA */
        bsym_r_na_failed(cplx ? (double *)COMPLEX(Q) : REAL(Q), (cplx ? 2 : 1) * n * n, batch, inf);
    const int per_d[] = {(int)n}, per_e[] = {(int)m}, per_q[] = {(int)n, (int)n};
    bsym_r_batch_shape(d, per_d, 1, shape);
    bsym_r_batch_shape(e, per_e, 1, shape);
    bsym_r_batch_shape(Q, per_q, 2, shape);

    const char *names[] = {"d", "e", "Q", "info", "device", "failed", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, d);
    SET_VECTOR_ELT(out, 1, e);
    SET_VECTOR_ELT(out, 2, Q);
    SET_VECTOR_ELT(out, 3, info);
    SET_VECTOR_ELT(out, 4, bsym_r_device_used(ctx));
    SET_VECTOR_ELT(out, 5, bsym_r_failed(BSYM_TASK_TRIDIAGONALIZE, batch, inf, NULL));
    UNPROTECT(5);
    return out;
}
