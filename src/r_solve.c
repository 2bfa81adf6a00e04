/*
 * r_solve.c -- .Call entry of bsym_solve(): R vectors <-> core views.
 * R has checked types, shapes and choices; the core validates the rest.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* A (double, n*n*batch), B (double, n*nrhs*batch), dims = c(n, nrhs, batch).
 * Returns list(x = solutions with NA for failed systems, info, device). */
SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP method, SEXP device, SEXP precision,
                  SEXP uplo, SEXP threads)
{
    const int64_t n = (int64_t)REAL(dims)[0], nrhs = (int64_t)REAL(dims)[1],
                  batch = (int64_t)REAL(dims)[2];
    const int64_t nx = n * nrhs * batch;
    const int single = strcmp(CHAR(STRING_ELT(precision, 0)), "single") == 0;
    const char up = CHAR(STRING_ELT(uplo, 0))[0];
    (void)method; /* only "ldlt" exists yet; R has matched it */
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));

    SEXP x = PROTECT(allocVector(REALSXP, (R_xlen_t)nx));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)batch));
    bsym_status st;
    if (!single) {
        memcpy(REAL(x), REAL(B), (size_t)nx * sizeof(double));
        st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, up, n, nrhs, batch, REAL(A), REAL(x), INTEGER(info));
    } else {
        /* float copies; R_alloc memory is released by R, also on error */
        const R_xlen_t na = XLENGTH(A);
        float *fa = (float *)R_alloc((size_t)na + (size_t)nx, sizeof(float));
        float *fx = fa + na;
        const double *a = REAL(A), *b = REAL(B);
        for (R_xlen_t i = 0; i < na; i++)
            fa[i] = (float)a[i];
        for (int64_t i = 0; i < nx; i++)
            fx[i] = (float)b[i];
        st = bsym_ssolve(ctx, BSYM_METHOD_LDLT, up, n, nrhs, batch, fa, fx, INTEGER(info));
        double *xr = REAL(x);
        for (int64_t i = 0; i < nx; i++)
            xr[i] = (double)fx[i];
    }
    if (st != BSYM_OK)
        bsym_r_stop("bsym_solve", st);

    /* NA (not NaN) for the systems the core could not solve */
    double *xr = REAL(x);
    const int *inf = INTEGER(info);
    for (int64_t k = 0; k < batch; k++)
        if (inf[k] != 0)
            for (int64_t i = 0; i < n * nrhs; i++)
                xr[k * n * nrhs + i] = NA_REAL;

    const char *names[] = {"x", "info", "device", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, x);
    SET_VECTOR_ELT(out, 1, info);
    SET_VECTOR_ELT(out, 2, mkString(bsym_ctx_last_device(ctx) == BSYM_DEVICE_GPU ? "gpu" : "cpu"));
    UNPROTECT(3);
    return out;
}
