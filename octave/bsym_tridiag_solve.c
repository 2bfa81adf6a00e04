/*
 * bsym_tridiag_solve.c -- gateway of bsym_tridiag_solve, served by the one
 * MEX file (bsym_mex.c) and called from bsym_tridiag_solve.m (which holds
 * the help text and the tests):
 *
 *   [X, info] = __bsym__ ("tridiag_solve", lower, diag, upper, rhs, name, value, ...)
 *
 * LAPACK's argument order (dl, d, du, b); upper = [] (any empty array) means
 * symmetric systems (upper = lower). Checks Octave types and shapes, parses
 * the options, copies rhs into X (the core overwrites its right-hand sides
 * with the solutions) and hands the batch to bsym_dtridiag_solve or
 * bsym_stridiag_solve.
 */
#include "bsym_octave.h"

enum { OPT_DEVICE, NOPT };

void bsym_oct_tridiag_solve(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 4)
        bsym_oct_error(BSYM_ERR_ARG, "needs lower, diag, upper and rhs (then name/value options)");
    if (nlhs > 2)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most two outputs, X and info");

    const mxArray *lower = prhs[0], *diag = prhs[1], *upper = prhs[2], *rhs = prhs[3];
    int64_t n, batch, k;
    bsym_oct_check_real(lower, "lower");
    bsym_oct_vector_batch(diag, "diag", &n, &batch);
    bsym_oct_check_real(upper, "upper");
    bsym_oct_check_real(rhs, "rhs");
    bsym_oct_offdiag_batch(lower, "lower", "diag", n, batch);
    int symmetric = mxIsEmpty(upper); /* [] (or an empty upper when n <= 1) */
    if (!symmetric)
        bsym_oct_offdiag_batch(upper, "upper", "diag", n, batch);
    bsym_oct_rhs_batch(rhs, "rhs", "diag", 0, n, batch, &k);
    bsym_oct_option opt[NOPT] = {
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device()},
    };
    bsym_oct_parse_options(nrhs - 4, prhs + 4, opt, NOPT);

    /* single when any given array is single (an omitted upper is not
     * given), else double; X has rhs's shape */
    const mxArray *given[4] = {lower, diag, rhs, upper};
    mxClassID cls = bsym_oct_precision(given, symmetric ? 3 : 4);
    mxArray *X = bsym_oct_copy_as(rhs, cls);
    int *info_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);
    void *owned[3] = {NULL, NULL, NULL}; /* inputs converted to cls */
    const void *dl = bsym_oct_data_as(lower, cls, &owned[0]);
    const void *d = bsym_oct_data_as(diag, cls, &owned[1]);
    const void *du = symmetric ? NULL : bsym_oct_data_as(upper, cls, &owned[2]);

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK)
        st = cls == mxSINGLE_CLASS
                 ? bsym_stridiag_solve(ctx, n, k, batch, dl, d, du, mxGetData(X), info_data)
                 : bsym_dtridiag_solve(ctx, n, k, batch, dl, d, du, mxGetData(X), info_data);
    bsym_oct_finish_all(st, ctx, owned, 3); /* releases the call's buffers, raises on failure */

    plhs[0] = X;
    bsym_oct_info_out(info, nlhs, plhs, 1, "singular", BSYM_TASK_TRIDIAG_SOLVE, NULL,
                      "their solutions are NaN (ask for [X, info] to see which)");
}
