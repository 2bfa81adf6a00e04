/*
 * pde_rules.c -- how the bindings describe the arrays of a PDE call
 * (bsym_*pde_solve, issue 15): the one rule that turns an argument's
 * dimensions into the strides of a bsym_pde_coef, and the shapes of the
 * terminal values and the obstacle, each with the error that names the
 * argument. R and Octave both call these, so both accept the same shapes.
 *
 * Dimensions are normalized first: trailing extents of 1 are dropped, and a
 * matrix with one row or one column is a vector (R's vectors, Octave's
 * columns and rows alike).
 */
#include <stdio.h>

#include "internal.h"

/* The dimensions of an argument without trailing 1s (at least one left);
 * returns their count. A 1 x L or L x 1 matrix becomes the vector L. */
static int normalized(int ndims, const int64_t *dims, int64_t out[3], int64_t *total)
{
    int64_t t = 1;
    int nd = 0;
    for (int i = 0; i < ndims; i++) {
        t *= dims[i];
        if (i < 3)
            out[i] = dims[i];
    }
    nd = ndims < 3 ? ndims : 3;
    for (int i = 3; i < ndims; i++) /* extents past the third: only 1s keep the shape */
        if (dims[i] != 1)
            nd = 4;
    while (nd > 1 && nd <= 3 && out[nd - 1] == 1)
        nd--;
    if (nd == 2 && out[0] == 1) { /* a row: a vector */
        out[0] = out[1];
        nd = 1;
    }
    if (nd == 0) {
        out[0] = 1;
        nd = 1;
    }
    *total = t;
    return nd;
}

/* "3 x 4 x 2" (or "length 7") into buf, for messages. */
static const char *shape_text(int ndims, const int64_t *dims, char *buf, size_t len)
{
    if (ndims <= 1) {
        snprintf(buf, len, "length %lld", (long long)(ndims == 1 ? dims[0] : 1));
        return buf;
    }
    size_t at = 0;
    for (int i = 0; i < ndims && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, i ? " x %lld" : "%lld", (long long)dims[i]);
    return buf;
}

bsym_status bsym_pde_coef_shape(bsym_ctx *ctx, const char *name, int ndims, const int64_t *dims, int64_t m,
                                int64_t N, int64_t batch, bsym_pde_coef *out)
{
    if (ctx == NULL || out == NULL || name == NULL || (ndims > 0 && dims == NULL))
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    int64_t d[3] = {1, 1, 1}, total;
    const int nd = normalized(ndims, dims, d, &total);
    out->si = out->sn = out->sk = 0;
    if (total == 1)
        return BSYM_OK; /* a scalar */
    if (nd == 1 && d[0] == m) {
        out->si = 1;
        return BSYM_OK;
    }
    if (nd == 2 && d[0] == m && d[1] == N) {
        out->si = 1;
        out->sn = m;
        return BSYM_OK;
    }
    if (nd == 3 && d[0] == m && d[2] == batch && (d[1] == 1 || d[1] == N)) {
        out->si = 1;
        out->sn = d[1] == N ? m : 0;
        out->sk = d[1] == N ? m * N : m;
        return BSYM_OK;
    }
    char got[96];
    return bsym__fail(ctx, BSYM_ERR_ARG,
                      "%s must be a scalar, a vector of length m = %lld (one value per node), an m x N = %lld x %lld "
                      "matrix (per node and time level), or an m x 1 x batch or m x N x batch array (per system; "
                      "batch = %lld); got %s",
                      name, (long long)m, (long long)m, (long long)N, (long long)batch,
                      shape_text(ndims, dims, got, sizeof got));
}

bsym_status bsym_pde_boundary_shape(bsym_ctx *ctx, const char *name, const char *side, bsym_pde_boundary kind,
                                    int ndims, const int64_t *dims, int64_t N, int64_t batch, bsym_pde_coef *out)
{
    if (ctx == NULL || out == NULL || name == NULL || side == NULL || (ndims > 0 && dims == NULL))
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    out->si = out->sn = out->sk = 0;
    if (kind != BSYM_PDE_DIRICHLET)
        return bsym__fail(ctx, BSYM_ERR_ARG, "%s is only used with %s = \"dirichlet\" (%s is \"%s\")", name, side,
                          side, bsym_choice_name(BSYM_CHOICE_BOUNDARY, (int)kind));
    int64_t d[3] = {1, 1, 1}, total;
    const int nd = normalized(ndims, dims, d, &total);
    if (total == 1)
        return BSYM_OK; /* a scalar */
    if (nd == 1 && (d[0] == N || d[0] == batch)) {
        if (d[0] == N && d[0] == batch)
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "%s is ambiguous: it has %lld values and N = batch = %lld, so they could be per time "
                              "level or per system; give an N x batch matrix",
                              name, (long long)N, (long long)N);
        if (d[0] == N)
            out->sn = 1;
        else
            out->sk = 1;
        return BSYM_OK;
    }
    if (nd == 2 && d[0] == N && d[1] == batch) {
        out->sn = 1;
        out->sk = N;
        return BSYM_OK;
    }
    char got[96];
    return bsym__fail(ctx, BSYM_ERR_ARG,
                      "%s must be a scalar, a vector of length N = %lld (per time level) or batch = %lld (per "
                      "system), or an N x batch matrix; got %s",
                      name, (long long)N, (long long)batch, shape_text(ndims, dims, got, sizeof got));
}

bsym_status bsym_pde_values_shape(bsym_ctx *ctx, const char *name, int ndims, const int64_t *dims, int64_t m,
                                  int64_t *batch)
{
    if (ctx == NULL || name == NULL || batch == NULL || (ndims > 0 && dims == NULL))
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    int64_t d[3] = {1, 1, 1}, total;
    const int nd = normalized(ndims, dims, d, &total);
    const int64_t want = *batch; /* < 0: this argument decides the batch */
    if (nd == 1 && d[0] == m && (want < 0 || want == 1)) {
        *batch = 1;
        return BSYM_OK;
    }
    if (ndims >= 2 && ndims <= 3 && dims[0] == m && (ndims == 2 || dims[2] == 1) && (want < 0 || dims[1] == want)) {
        *batch = dims[1];
        return BSYM_OK;
    }
    char got[96];
    if (want < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "%s must be an m x batch matrix, m = %lld the number of nodes in x (or a vector of length m "
                          "for one system); got %s",
                          name, (long long)m, shape_text(ndims, dims, got, sizeof got));
    return bsym__fail(ctx, BSYM_ERR_ARG, "%s must be m x batch = %lld x %lld, like final; got %s", name, (long long)m,
                      (long long)want, shape_text(ndims, dims, got, sizeof got));
}
