/*
 * bsym_lsfit.c -- gateway of bsym_lsfit, served by the one MEX file (bsym_mex.c)
 * and called from bsym_lsfit.m (which holds the help text and the tests):
 *
 *   [beta, rank, rss, info, method, plan] = __bsym__ ("lsfit", X, Y, name, value, ...)
 *
 * Checks Octave types and shapes (X m x p x batch; Y m x batch, m x k x
 * batch, or m x k for one system; 'weights' m x batch, or m x 1 shared by
 * every system), parses the options and hands the batch to
 * bsym_dlsfit or bsym_slsfit, which forms and solves the normal equations.
 * beta has Y's shape with p rows; rss is k x batch.
 */
#include "bsym_octave.h"

enum { OPT_METHOD, OPT_DEVICE, OPT_WEIGHTS, OPT_RCOND, OPT_TOL, OPT_PLAN, NOPT };

/* The weights (NULL or empty: none): real, m x batch or m x 1. Their
 * values are the core's: a negative, NaN or Inf weight makes its system's
 * info -1. */
static void check_weights(const mxArray *w, int64_t m, int64_t batch)
{
    const char *what = "option 'weights'";
    bsym_oct_check_real(w, what);
    if (mxGetNumberOfDimensions(w) > 2 || (int64_t)mxGetM(w) != m ||
        ((int64_t)mxGetN(w) != batch && mxGetN(w) != 1))
        bsym_oct_error(BSYM_ERR_ARG, "%s must be m x batch = %lld x %lld, or m x 1 for the same "
                       "weights in every system (got %s%lld x %lld)", what, (long long)m,
                       (long long)batch, mxGetNumberOfDimensions(w) > 2 ? "an array of more than two "
                       "dimensions, " : "", (long long)mxGetM(w), (long long)mxGetN(w));
}

void bsym_oct_lsfit(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 2)
        bsym_oct_error(BSYM_ERR_ARG, "needs X and Y (then name/value options)");
    if (nlhs > 6)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most six outputs, beta, rank, rss, info, method and plan");

    int64_t m, p, batch, k;
    bsym_oct_matrix_batch(prhs[0], "X", &m, &p, &batch);
    if (p < 1)
        bsym_oct_error(BSYM_ERR_ARG, "X must have at least one column (got %lld x 0)", (long long)m);
    bsym_oct_response_batch(prhs[1], "Y", "X", m, p, batch, &k);
    bsym_oct_option opt[NOPT] = {
        [OPT_METHOD] = {"method", bsym_oct_choices(BSYM_CHOICE_METHOD), BSYM_METHOD_AUTO, NULL},
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device(), NULL},
        [OPT_WEIGHTS] = {"weights", NULL, 0, NULL},
        [OPT_RCOND] = {"rcond", NULL, 0, NULL},
        [OPT_TOL] = {"tol", NULL, 0, NULL},
        [OPT_PLAN] = {"plan", NULL, 0, NULL},
    };
    bsym_oct_parse_options(nrhs - 2, prhs + 2, opt, NOPT);
    const mxArray *w = opt[OPT_WEIGHTS].array;
    if (w != NULL && mxIsEmpty(w) && mxIsNumeric(w))
        w = NULL; /* []: no weights */
    if (w != NULL)
        check_weights(w, m, batch);
    bsym_oct_solvex_opts sx;
    bsym_oct_solvex_options(opt[OPT_METHOD].value, opt[OPT_RCOND].array, opt[OPT_TOL].array,
                            opt[OPT_PLAN].array, &sx);

    /* single when X, Y or the weights are single, else double */
    const mxArray *given[3] = {prhs[0], prhs[1], w};
    mxClassID cls = bsym_oct_precision(given, w ? 3 : 2);
    mxArray *beta = bsym_oct_new_like(prhs[1], p, cls);
    mxArray *rss = mxCreateNumericMatrix((mwSize)k, (mwSize)batch, cls, mxREAL);
    int *info_data, *rank_data, *used_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);
    mxArray *rank = bsym_oct_info_new(batch, &rank_data);
    mxArray *used = bsym_oct_info_new(batch, &used_data);
    void *owned[3] = {NULL, NULL, NULL}; /* inputs converted to cls */
    const void *X = bsym_oct_data_as(prhs[0], cls, &owned[0]);
    const void *Y = bsym_oct_data_as(prhs[1], cls, &owned[1]);
    const void *wd = w ? bsym_oct_data_as(w, cls, &owned[2]) : NULL;
    /* system k's weights at wd + k * w_stride: a column each, or one shared */
    int64_t w_stride = w && (int64_t)mxGetN(w) == batch ? m : 0;

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK)
        st = cls == mxSINGLE_CLASS
                 ? bsym_slsfit(ctx, &sx.opts, m, p, k, batch, X, Y, wd, w_stride, mxGetData(beta),
                               mxGetData(rss), rank_data, used_data, info_data)
                 : bsym_dlsfit(ctx, &sx.opts, m, p, k, batch, X, Y, wd, w_stride, mxGetData(beta),
                               mxGetData(rss), rank_data, used_data, info_data);
    bsym_oct_finish_all(st, ctx, owned, 3); /* releases the call's buffers, raises on failure */

    plhs[0] = beta;
    if (nlhs >= 2)
        plhs[1] = bsym_oct_rank_new(rank_data, info_data, batch);
    if (nlhs >= 3)
        plhs[2] = rss;
    else
        mxDestroyArray(rss);
    if (nlhs >= 5)
        plhs[4] = bsym_oct_methods_new(used_data, info_data, batch);
    if (nlhs >= 6)
        plhs[5] = bsym_oct_plan_new(&sx.plan);
    bsym_oct_info_out(info, nlhs, plhs, 3, "fitFailed", BSYM_TASK_LSFIT, used_data,
                      "their coefficients and rss are NaN (ask for [beta, rank, rss, info] to see "
                      "which)");
    mxDestroyArray(rank);
    mxDestroyArray(used);
}
