/*
 * bsym_solve.c -- gateway of bsym_solve, served by the one MEX file (bsym_mex.c)
 * and called from bsym_solve.m (which holds the help text and the tests):
 *
 *   [X, info, plan, rank, method] = __bsym__ ("solve", A, B, name, value, ...)
 *
 * Checks Octave types and shapes, parses the options, copies B into X (the
 * core overwrites its right-hand sides with the solutions) and hands the
 * batch to bsym_dsolvex or bsym_ssolvex (complex: bsym_zsolvex or
 * bsym_csolvex); the core validates sizes and does
 * all the numerical work. The plan goes in as the 'plan' option (none: no
 * history) and comes out updated by the call.
 */
#include "bsym_octave.h"

enum { OPT_METHOD, OPT_DEVICE, OPT_UPLO, OPT_RCOND, OPT_TOL, OPT_PLAN, NOPT };

void bsym_oct_solve(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 2)
        bsym_oct_error(BSYM_ERR_ARG, "needs A and B (then name/value options)");
    if (nlhs > 5)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most five outputs, X, info, plan, rank and method");

    int64_t n, batch, k;
    bsym_oct_square_batch(prhs[0], "A", 1, &n, &batch);
    bsym_oct_rhs_batch(prhs[1], "B", "A", 1, n, batch, &k);
    bsym_oct_option opt[NOPT] = {
        [OPT_METHOD] = {"method", bsym_oct_choices(BSYM_CHOICE_METHOD), BSYM_METHOD_AUTO, NULL},
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device(), NULL},
        [OPT_UPLO] = {"uplo", bsym_oct_choices(BSYM_CHOICE_UPLO), 0, NULL},
        [OPT_RCOND] = {"rcond", NULL, 0, NULL},
        [OPT_TOL] = {"tol", NULL, 0, NULL},
        [OPT_PLAN] = {"plan", NULL, 0, NULL},
    };
    bsym_oct_parse_options(nrhs - 2, prhs + 2, opt, NOPT);
    bsym_oct_solvex_opts sx;
    bsym_oct_solvex_options(opt[OPT_METHOD].value, opt[OPT_RCOND].array, opt[OPT_TOL].array,
                            opt[OPT_PLAN].array, &sx);

    /* single when A or B is single, else double; complex (Hermitian A)
     * when A or B is complex; X has B's shape */
    mxClassID cls = bsym_oct_precision(prhs, 2);
    const int cplx = mxIsComplex(prhs[0]) || mxIsComplex(prhs[1]);
    mxArray *X = cplx ? bsym_oct_complex_copy(prhs[1], cls) : bsym_oct_copy_as(prhs[1], cls);
    int *info_data, *rank_data, *used_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);
    mxArray *rank = bsym_oct_info_new(batch, &rank_data);
    mxArray *used = bsym_oct_info_new(batch, &used_data);
    void *owned; /* A converted to cls (or to complex), when it is not that already */
    const void *A = cplx ? bsym_oct_complex_as(prhs[0], cls, &owned) : bsym_oct_data_as(prhs[0], cls, &owned);

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK) {
        char uplo = bsym_choice_name(BSYM_CHOICE_UPLO, opt[OPT_UPLO].value)[0];
        if (cplx)
            st = cls == mxSINGLE_CLASS
                     ? bsym_csolvex(ctx, &sx.opts, uplo, n, k, batch, A, mxGetData(X), info_data, rank_data,
                                    used_data)
                     : bsym_zsolvex(ctx, &sx.opts, uplo, n, k, batch, A, mxGetData(X), info_data, rank_data,
                                    used_data);
        else
            st = cls == mxSINGLE_CLASS
                     ? bsym_ssolvex(ctx, &sx.opts, uplo, n, k, batch, A, mxGetData(X), info_data,
                                    rank_data, used_data)
                     : bsym_dsolvex(ctx, &sx.opts, uplo, n, k, batch, A, mxGetData(X), info_data,
                                    rank_data, used_data);
    }
    bsym_oct_finish(st, ctx, owned); /* releases the call's buffers, raises on failure */

    plhs[0] = X;
    if (nlhs >= 3)
        plhs[2] = bsym_oct_plan_new(&sx.plan);
    if (nlhs >= 4)
        plhs[3] = bsym_oct_rank_new(rank_data, info_data, batch);
    if (nlhs >= 5)
        plhs[4] = bsym_oct_methods_new(used_data, info_data, batch);
    bsym_oct_info_out(info, nlhs, plhs, 1, "singular", BSYM_TASK_SOLVE, used_data,
                      "their solutions are NaN (ask for [X, info] to see which)");
    mxDestroyArray(rank);
    mxDestroyArray(used);
}
