/*
 * bsym_pde_solve.c -- gateway of bsym_pde_solve (issue 15), served by the one
 * MEX file (bsym_mex.c) and called from bsym_pde_solve.m:
 *
 *   [U, info] = __bsym__ ("pde_solve", x, t, final, name, value, ...)
 *
 * Checks Octave types, parses the options and hands the dimensions of each
 * array to the core's rules (pde_rules.c: the shapes R accepts too, errors
 * naming the argument); the core checks the grid, times, theta and
 * rannacher and solves. Single when any array is single (then single out),
 * else double.
 */
#include "bsym_octave.h"

enum { OPT_A, OPT_B, OPT_C, OPT_D, OPT_LOWER_VALUE, OPT_UPPER_VALUE, OPT_OBSTACLE, OPT_THETA, OPT_RANNACHER,
       OPT_LOWER, OPT_UPPER, OPT_DEVICE, NOPT };

/* The dimensions of a as the core's rules take them (at most 8). */
static int dims_of(const mxArray *a, int64_t d[8])
{
    const mwSize nd = mxGetNumberOfDimensions(a), *md = mxGetDimensions(a);
    const int n = nd < 8 ? (int)nd : 8;
    for (int i = 0; i < n; i++)
        d[i] = (int64_t)md[i];
    return n;
}

/* A real scalar option (any numeric class), default def when absent. */
static double scalar_opt(const mxArray *a, const char *name, double def)
{
    if (a == NULL)
        return def;
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1)
        bsym_oct_error(BSYM_ERR_ARG, "option '%s' must be a real scalar", name);
    return mxGetScalar(a);
}

/* Raises the core's message of a failed rule check. */
static void rule(bsym_status st)
{
    if (st != BSYM_OK)
        bsym_oct_finish(st, bsym_oct_rules_context(), NULL);
}

void bsym_oct_pde_solve(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 3)
        bsym_oct_error(BSYM_ERR_ARG, "needs x, t and final (then name/value options)");
    if (nlhs > 2)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most two outputs, U and info");
    bsym_oct_option opt[NOPT] = {
        [OPT_A] = {"a", NULL, 0, NULL},
        [OPT_B] = {"b", NULL, 0, NULL},
        [OPT_C] = {"c", NULL, 0, NULL},
        [OPT_D] = {"d", NULL, 0, NULL},
        [OPT_LOWER_VALUE] = {"lower_value", NULL, 0, NULL},
        [OPT_UPPER_VALUE] = {"upper_value", NULL, 0, NULL},
        [OPT_OBSTACLE] = {"obstacle", NULL, 0, NULL},
        [OPT_THETA] = {"theta", NULL, 0, NULL},
        [OPT_RANNACHER] = {"rannacher", NULL, 0, NULL},
        [OPT_LOWER] = {"lower", bsym_oct_choices(BSYM_CHOICE_BOUNDARY), BSYM_PDE_LINEAR, NULL},
        [OPT_UPPER] = {"upper", bsym_oct_choices(BSYM_CHOICE_BOUNDARY), BSYM_PDE_LINEAR, NULL},
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device(), NULL},
    };
    bsym_oct_parse_options(nrhs - 3, prhs + 3, opt, NOPT);

    /* the arrays: x, t, final, then the array options given */
    enum { X, T, FINAL, A, B, C, D, LV, UV, OB, NARR };
    static const char *const names[NARR] = {"x", "t", "final", "a", "b", "c", "d", "lower_value", "upper_value",
                                            "obstacle"};
    const mxArray *arr[NARR] = {prhs[0], prhs[1], prhs[2], opt[OPT_A].array, opt[OPT_B].array, opt[OPT_C].array,
                                opt[OPT_D].array, opt[OPT_LOWER_VALUE].array, opt[OPT_UPPER_VALUE].array,
                                opt[OPT_OBSTACLE].array};
    int single = 0;
    for (int i = 0; i < NARR; i++)
        if (arr[i] != NULL) {
            bsym_oct_check_real(arr[i], names[i]);
            single |= mxIsSingle(arr[i]);
        }
    const mxClassID cls = single ? mxSINGLE_CLASS : mxDOUBLE_CLASS;
    for (int i = X; i <= T; i++)
        if (mxGetNumberOfDimensions(arr[i]) > 2 || (mxGetM(arr[i]) > 1 && mxGetN(arr[i]) > 1))
            bsym_oct_error(BSYM_ERR_ARG, "%s must be a vector (got %lld x %lld)", names[i],
                           (long long)mxGetM(arr[i]), (long long)mxGetN(arr[i]));

    bsym_ctx *rules = bsym_oct_rules_context();
    bsym_pde p = {0};
    p.m = (int64_t)mxGetNumberOfElements(arr[X]);
    p.N = (int64_t)mxGetNumberOfElements(arr[T]);
    p.theta = scalar_opt(opt[OPT_THETA].array, "theta", 0.5);
    const double rk = scalar_opt(opt[OPT_RANNACHER].array, "rannacher", 0);
    if (!(rk >= -2147483647.0 && rk <= 2147483647.0) || rk != (double)(int)rk)
        bsym_oct_error(BSYM_ERR_ARG, "option 'rannacher' must be a whole number of intervals (got %g)", rk);
    p.rannacher = (int)rk;
    p.lower = (bsym_pde_boundary)opt[OPT_LOWER].value;
    p.upper = (bsym_pde_boundary)opt[OPT_UPPER].value;
    int64_t d[8];
    p.batch = -1; /* final decides the batch */
    rule(bsym_pde_values_shape(rules, "final", dims_of(arr[FINAL], d), d, p.m, &p.batch));
    bsym_pde_coef *coef[4] = {&p.a, &p.b, &p.c, &p.d};
    for (int i = A; i <= D; i++)
        if (arr[i] != NULL)
            rule(bsym_pde_coef_shape(rules, names[i], dims_of(arr[i], d), d, p.m, p.N, p.batch, coef[i - A]));
    const bsym_pde_boundary kinds[2] = {p.lower, p.upper};
    bsym_pde_coef *bv[2] = {&p.lower_value, &p.upper_value};
    for (int s = 0; s < 2; s++)
        if (arr[LV + s] != NULL)
            rule(bsym_pde_boundary_shape(rules, names[LV + s], s == 0 ? "lower" : "upper", kinds[s],
                                         dims_of(arr[LV + s], d), d, p.N, p.batch, bv[s]));
    if (arr[OB] != NULL) {
        int64_t ob = p.batch;
        rule(bsym_pde_values_shape(rules, "obstacle", dims_of(arr[OB], d), d, p.m, &ob));
    }

    /* the data in the call's class (converted copies where they differ) */
    void *owned[NARR] = {NULL};
    const void *data[NARR] = {NULL};
    for (int i = 0; i < NARR; i++)
        if (arr[i] != NULL)
            data[i] = bsym_oct_data_as(arr[i], cls, &owned[i]);
    p.x = data[X];
    p.t = data[T];
    for (int i = A; i <= D; i++)
        coef[i - A]->v = data[i];
    p.lower_value.v = data[LV];
    p.upper_value.v = data[UV];
    p.obstacle = data[OB];

    mxArray *U = bsym_oct_result(cls, mxGetNumberOfDimensions(arr[FINAL]), mxGetDimensions(arr[FINAL]));
    int *info_data;
    mxArray *info = bsym_oct_info_new(p.batch, &info_data);
    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK)
        st = single ? bsym_spde_solve(ctx, &p, data[FINAL], mxGetData(U), info_data)
                    : bsym_dpde_solve(ctx, &p, data[FINAL], mxGetData(U), info_data);
    bsym_oct_finish_all(st, ctx, owned, NARR); /* frees the copies, raises on failure */
    plhs[0] = U;
    bsym_oct_info_out(info, nlhs, plhs, 1, "pde_failed", BSYM_TASK_PDE, NULL,
                      "their values are NaN (ask for [U, info] to see which)");
}
