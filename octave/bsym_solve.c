/*
 * bsym_solve.c -- MEX gateway of bsym_solve, built as private/__bsym_solve__.mex
 * and called from bsym_solve.m (which holds the help text and the tests):
 *
 *   [X, info] = __bsym_solve__ (A, B, name, value, ...)
 *
 * Checks Octave types and shapes, parses the options, copies B into X (the
 * core overwrites its right-hand sides with the solutions) and hands the
 * batch to bsym_dsolve or bsym_ssolve; the core validates sizes and does all
 * the numerical work.
 */
#include "bsym_octave.h"

_Static_assert(BSYM_METHOD_LDLT == 0 && BSYM_METHOD_TRIDIAG == 1, "methods[] follows bsym_method");

enum { OPT_METHOD, OPT_DEVICE, OPT_UPLO, NOPT };

static const char *const methods[] = {"ldlt", "tridiag", NULL}; /* index = bsym_method */
static const char *const uplos[] = {"L", "U", NULL};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 2)
        bsym_oct_error("invalidInput", "needs A and B (then name/value options)");
    if (nlhs > 2)
        bsym_oct_error("invalidInput", "returns at most two outputs, X and info");

    int64_t n, batch, k;
    bsym_oct_square_batch(prhs[0], "A", &n, &batch);
    bsym_oct_rhs_batch(prhs[1], "B", "A", n, batch, &k);
    bsym_oct_option opt[NOPT] = {
        [OPT_METHOD] = {"method", methods, BSYM_METHOD_LDLT},
        [OPT_DEVICE] = {"device", bsym_oct_device_choices, BSYM_DEVICE_AUTO},
        [OPT_UPLO] = {"uplo", uplos, 0},
    };
    bsym_oct_parse_options(nrhs - 2, prhs + 2, opt, NOPT);

    /* single when A or B is single, else double; X has B's shape */
    mxClassID cls = bsym_oct_precision(prhs, 2);
    mxArray *X = bsym_oct_copy_as(prhs[1], cls);
    int *info_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);
    void *owned; /* A converted to cls, when its class differs */
    const void *A = bsym_oct_data_as(prhs[0], cls, &owned);

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK) {
        bsym_method method = (bsym_method)opt[OPT_METHOD].value;
        char uplo = uplos[opt[OPT_UPLO].value][0];
        st = cls == mxSINGLE_CLASS
                 ? bsym_ssolve(ctx, method, uplo, n, k, batch, A, mxGetData(X), info_data)
                 : bsym_dsolve(ctx, method, uplo, n, k, batch, A, mxGetData(X), info_data);
    }
    bsym_oct_finish(st, ctx, owned); /* releases everything, raises on failure */

    plhs[0] = X;
    bsym_oct_info_out(info, nlhs, plhs, 1, "singular", "could not be solved",
                      "their solutions are NaN (ask for [X, info] to see which)");
}
