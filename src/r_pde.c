/*
 * r_pde.c -- .Call entry of bsym_pde_solve(): R vectors <-> the core's
 * bsym_pde. R has checked the types; the core's rules (pde_rules.c) turn each
 * argument's dimensions into strides, with errors naming the argument, and
 * the core checks the rest (grid, times, theta, rannacher).
 */
#include <stdint.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

enum { ARG_A, ARG_B, ARG_C, ARG_D, ARG_FINAL, ARG_LOWER_VALUE, ARG_UPPER_VALUE, ARG_OBSTACLE, NARGS };
static const char *const arg_names[NARGS] = {"a", "b", "c", "d", "final", "lower_value", "upper_value", "obstacle"};

/* The dimensions of argument i (R's dim, or the length of a vector) as the
 * core's rules take them; returns their count (at most 8). */
static int dims_of(SEXP dims, int i, int64_t out[8])
{
    SEXP d = VECTOR_ELT(dims, i);
    const int nd = XLENGTH(d) < 8 ? (int)XLENGTH(d) : 8;
    for (int k = 0; k < nd; k++)
        out[k] = (int64_t)REAL(d)[k];
    return nd;
}

/* arrays = list(a, b, c, d, final, lower_value, upper_value, obstacle) (doubles
 * or NULL), dims = their dimensions; lower/upper the boundary names (checked
 * by R through the core's list). Returns list(x = u shaped like final, NA for
 * failed systems, attributes info and device; failed = the core's sentence). */
SEXP bsym_r_pde_solve(SEXP x, SEXP t, SEXP arrays, SEXP dims, SEXP theta, SEXP rannacher, SEXP lower,
                      SEXP upper, SEXP device, SEXP precision, SEXP threads)
{
    const int single = bsym_r_code(BSYM_CHOICE_PRECISION, precision) == BSYM_PRECISION_SINGLE;
    bsym_ctx *ctx = bsym_r_context(CHAR(STRING_ELT(device, 0)), asInteger(threads));
    bsym_pde p = {0};
    p.m = XLENGTH(x);
    p.N = XLENGTH(t);
    p.x = REAL(x);
    p.t = REAL(t);
    p.theta = asReal(theta);
    p.rannacher = asInteger(rannacher);
    p.lower = (bsym_pde_boundary)bsym_r_code(BSYM_CHOICE_BOUNDARY, lower);
    p.upper = (bsym_pde_boundary)bsym_r_code(BSYM_CHOICE_BOUNDARY, upper);

    int64_t d[8];
    int nd = dims_of(dims, ARG_FINAL, d);
    p.batch = -1; /* final decides the batch */
    if (bsym_pde_values_shape(ctx, "final", nd, d, p.m, &p.batch) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
    bsym_pde_coef *coef[4] = {&p.a, &p.b, &p.c, &p.d};
    for (int i = ARG_A; i <= ARG_D; i++) {
        nd = dims_of(dims, i, d);
        if (bsym_pde_coef_shape(ctx, arg_names[i], nd, d, p.m, p.N, p.batch, coef[i]) != BSYM_OK)
            bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
        coef[i]->v = REAL(VECTOR_ELT(arrays, i));
    }
    const bsym_pde_boundary kinds[2] = {p.lower, p.upper};
    bsym_pde_coef *bv[2] = {&p.lower_value, &p.upper_value};
    for (int s = 0; s < 2; s++) {
        SEXP v = VECTOR_ELT(arrays, ARG_LOWER_VALUE + s);
        if (isNull(v))
            continue; /* Dirichlet: 0; linear: nothing */
        nd = dims_of(dims, ARG_LOWER_VALUE + s, d);
        if (bsym_pde_boundary_shape(ctx, arg_names[ARG_LOWER_VALUE + s], s == 0 ? "lower" : "upper", kinds[s], nd, d,
                                    p.N, p.batch, bv[s]) != BSYM_OK)
            bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
        bv[s]->v = REAL(v);
    }
    SEXP obstacle = VECTOR_ELT(arrays, ARG_OBSTACLE);
    if (!isNull(obstacle)) {
        nd = dims_of(dims, ARG_OBSTACLE, d);
        int64_t ob = p.batch;
        if (bsym_pde_values_shape(ctx, "obstacle", nd, d, p.m, &ob) != BSYM_OK)
            bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
        p.obstacle = REAL(obstacle);
    }

    SEXP final = VECTOR_ELT(arrays, ARG_FINAL);
    SEXP u = PROTECT(bsym_r_alloc_real(XLENGTH(final)));
    SEXP info = PROTECT(allocVector(INTSXP, (R_xlen_t)p.batch));
    const bsym_status st = (single ? bsym_dspde_solve : bsym_dpde_solve)(ctx, &p, REAL(final), REAL(u), INTEGER(info));
    if (st != BSYM_OK)
        bsym_r_stop("bsym_pde_solve", st);
    return bsym_r_solution(u, info, final, p.m, ctx, BSYM_TASK_PDE);
}
