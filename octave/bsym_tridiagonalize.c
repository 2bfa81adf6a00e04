/*
 * bsym_tridiagonalize.c -- gateway of bsym_tridiagonalize, served by the one
 * MEX file (bsym_mex.c) and called from bsym_tridiagonalize.m (which holds
 * the help text and the tests):
 *
 *   [d, e, Q, info] = __bsym__ ("tridiagonalize", A, name, value, ...)
 *
 * A(:,:,k) = Q(:,:,k) * T_k * Q(:,:,k)' with T_k tridiagonal: d n x batch
 * (its diagonal), e (n-1) x batch (its off-diagonal), Q of A's shape, formed
 * only when asked for (the core gets Q = NULL otherwise). Computes in A's
 * class.
 */
#include "bsym_octave.h"

enum { OPT_DEVICE, OPT_UPLO, NOPT };

void bsym_oct_tridiagonalize(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 1)
        bsym_oct_error(BSYM_ERR_ARG, "needs A (then name/value options)");
    if (nlhs > 4)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most four outputs, d, e, Q and info");

    int64_t n, batch;
    bsym_oct_square_batch(prhs[0], "A", 1, &n, &batch);
    const int cplx = mxIsComplex(prhs[0]); /* Hermitian: d, e real, Q complex */
    bsym_oct_option opt[NOPT] = {
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device()},
        [OPT_UPLO] = {"uplo", bsym_oct_choices(BSYM_CHOICE_UPLO), 0},
    };
    bsym_oct_parse_options(nrhs - 1, prhs + 1, opt, NOPT);

    mxClassID cls = mxGetClassID(prhs[0]);
    /* results of Octave's own, written in full by the core (bsym_oct_result) */
    const mwSize d_dims[2] = {(mwSize)n, (mwSize)batch};
    const mwSize e_dims[2] = {(mwSize)(n > 0 ? n - 1 : 0), (mwSize)batch};
    mxArray *d = bsym_oct_result(cls, 2, d_dims);
    mxArray *e = bsym_oct_result(cls, 2, e_dims);
    mxArray *Q = nlhs < 3 ? NULL
                 : cplx   ? bsym_oct_result_complex(cls, mxGetNumberOfDimensions(prhs[0]), mxGetDimensions(prhs[0]))
                          : bsym_oct_result(cls, mxGetNumberOfDimensions(prhs[0]), mxGetDimensions(prhs[0]));
    int *info_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK) {
        char uplo = bsym_choice_name(BSYM_CHOICE_UPLO, opt[OPT_UPLO].value)[0];
        const void *A = mxGetData(prhs[0]);
        void *Qd = Q ? mxGetData(Q) : NULL;
        if (cplx) /* mxGetData: the interleaved complex data (bsym_octave.c, complex_data) */
            st = cls == mxSINGLE_CLASS
                     ? bsym_ctridiagonalize(ctx, uplo, n, batch, A, mxGetData(d), mxGetData(e), Qd, info_data)
                     : bsym_ztridiagonalize(ctx, uplo, n, batch, A, mxGetData(d), mxGetData(e), Qd, info_data);
        else
            st = cls == mxSINGLE_CLASS
                     ? bsym_stridiagonalize(ctx, uplo, n, batch, A, mxGetData(d), mxGetData(e), Qd, info_data)
                     : bsym_dtridiagonalize(ctx, uplo, n, batch, A, mxGetData(d), mxGetData(e), Qd, info_data);
    }
    bsym_oct_finish(st, ctx, NULL); /* raises on failure */

    plhs[0] = d;
    if (nlhs >= 2)
        plhs[1] = e;
    else
        mxDestroyArray(e);
    if (Q)
        plhs[2] = Q;
    bsym_oct_info_out(info, nlhs, plhs, 3, "nonFinite", BSYM_TASK_TRIDIAGONALIZE, NULL,
                      "their d, e and Q are NaN (ask for [d, e, Q, info] to see which)");
}
