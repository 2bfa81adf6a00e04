/*
 * r_solve.c -- .Call entry of bsym_solve(): R vectors <-> core views.
 * R has checked types, shapes and choices; the core validates the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* A (double, n*n*batch), B (double, n*nrhs*batch), dims = c(n, nrhs, batch),
 * method "ldlt" or "tridiag" (matched by R).
 * Returns list(x = solutions with NA for failed systems, info, device). */
SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP method, SEXP device, SEXP precision,
                  SEXP uplo, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], nrhs = (int64_t)REAL(dims)[1],
                  batch = (int64_t)REAL(dims)[2];
    const int64_t nx = n * nrhs * batch;
    const int single = strcmp(CHAR(STRING_ELT(precision, 0)), "single") == 0;
    const char up = CHAR(STRING_ELT(uplo, 0))[0];
    const bsym_method m = strcmp(CHAR(STRING_ELT(method, 0)), "tridiag") == 0
                              ? BSYM_METHOD_TRIDIAG
                              : BSYM_METHOD_LDLT;
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP x = PROTECT(allocVector(REALSXP, (R_xlen_t)nx));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    bsym_status st;
    if (!single) {
        if (nx > 0)
            memcpy(REAL(x), REAL(B), (size_t)nx * sizeof(double));
        st = bsym_dsolve(ctx, m, up, n, nrhs, batch, REAL(A), REAL(x), INTEGER(info));
    } else {
        float *fa = bsym_r_floats(A), *fx = bsym_r_floats(B);
        st = bsym_ssolve(ctx, m, up, n, nrhs, batch, fa, fx, INTEGER(info));
        bsym_r_from_floats(REAL(x), fx, nx);
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_solve", st);
    return bsym_r_solution(x, info, n * nrhs, ctx);
}
