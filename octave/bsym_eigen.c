/*
 * bsym_eigen.c -- gateways of bsym_eigen and bsym_tridiag_eigen, one body
 * (eigen_gateway) with the input as its only difference:
 *
 *   [V, D, info, count] = __bsym__ ("eigen", A, name, value, ...)
 *       full symmetric input (bsym_*syev)
 *   [V, D, info, count] = __bsym__ ("tridiag_eigen", d, e, name, value, ...)
 *       tridiagonal input (bsym_*stev)
 *
 * called from bsym_eigen.m and bsym_tridiag_eigen.m (which hold the help
 * text and the tests); messages name the function called (the dispatcher
 * names the caller).
 *
 * With one output the call is values only: D (m x batch) comes back as the
 * first output and the core gets V = NULL (bisection, no vectors formed).
 * With two or more, V (n x m x batch) and D; the core uses divide and
 * conquer. m is the number of selected values: n for all of them, j-i+1 for
 * 'index' [i j], the largest count for 'interval' [lo hi] (NaN below each
 * system's count in D, NaN columns past it in V). The core writes n rows
 * (n columns) per system; they are packed in place to m (the core's
 * bsym_*select_pack) and the buffers handed to Octave as they are
 * (mxSetData), so nothing is copied.
 *
 * info and count are 1 x batch int32. A system with info != 0 (-1 non-finite
 * input, > 0 no convergence) has NaN values and vectors; without the info
 * output they raise one warning, batchsym:nonFinite (some input not finite)
 * or batchsym:noConvergence.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bsym_octave.h"

/* uplo last: bsym_tridiag_eigen takes the others only */
enum { OPT_DEVICE, OPT_INDEX, OPT_INTERVAL, OPT_UPLO, NOPT };

/* The two values of an option given as a real vector of two numbers
 * (`form` such as "[i j]", for messages), as doubles. */
static void two_values(const mxArray *a, const char *name, const char *form, double v[2])
{
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a) || mxGetNumberOfElements(a) != 2 ||
        mxGetNumberOfDimensions(a) > 2)
        bsym_oct_error(BSYM_ERR_ARG, "option '%s' must be a real vector %s of two numbers "
                       "(got %s%s%s with %lld element%s)", name, form,
                       mxIsSparse(a) ? "sparse " : "", mxIsComplex(a) ? "complex " : "",
                       mxGetClassName(a), (long long)mxGetNumberOfElements(a),
                       mxGetNumberOfElements(a) == 1 ? "" : "s");
    if (mxIsDouble(a)) {
        const double *p = mxGetData(a);
        v[0] = p[0];
        v[1] = p[1];
        return;
    }
    mxArray *in = (mxArray *)a, *out = NULL; /* other numeric classes: double (a) */
    mexCallMATLAB(1, &out, 1, &in, "double");
    const double *p = mxGetData(out);
    v[0] = p[0];
    v[1] = p[1];
    mxDestroyArray(out);
}

/* The selection of the 'index' and 'interval' options (an empty value is
 * the same as not giving the option: all eigenvalues): Octave's part is two
 * real numbers each; the rule (whole 1 <= i <= j <= n counted from the
 * smallest as eig does, lo < hi, not both) is the core's bsym_select_make. */
static bsym_select selection(const mxArray *index, const mxArray *interval, int64_t n)
{
    if (index != NULL && mxIsEmpty(index))
        index = NULL;
    if (interval != NULL && mxIsEmpty(interval))
        interval = NULL;
    double iv[2], lohi[2];
    if (index != NULL)
        two_values(index, "index", "[i j]", iv);
    if (interval != NULL)
        two_values(interval, "interval", "[lo hi]", lohi);
    bsym_select sel;
    bsym_ctx *ctx = bsym_oct_rules_context();
    bsym_oct_finish(bsym_select_make(ctx, index ? iv : NULL, interval ? lohi : NULL, n, 0, &sel),
                    ctx, NULL);
    return sel;
}

/* d and e: n x batch and (n-1) x batch; or, for one system, any two vectors
 * of n and n-1 elements (n >= 2), so that a row d with a row e is one system
 * too. */
static void tridiag_shape(const mxArray *d, const mxArray *e, int64_t *n, int64_t *batch)
{
    bsym_oct_vector_batch(d, "d", n, batch);
    bsym_oct_check_real(e, "e");
    size_t nd = mxGetNumberOfElements(d), ne = mxGetNumberOfElements(e);
    if (nd >= 2 && ne == nd - 1 && (mxGetM(d) == 1 || mxGetN(d) == 1) &&
        mxGetNumberOfDimensions(e) == 2 && (mxGetM(e) == 1 || mxGetN(e) == 1)) {
        *n = (int64_t)nd;
        *batch = 1;
        return;
    }
    bsym_oct_offdiag_batch(e, "e", "d", *n, *batch);
}

/* An mxArray of class cls and dimensions dims[0..nd-1] that takes over the
 * mxMalloc'ed buffer data (shrunk to its size). */
static mxArray *wrap(void *data, mxClassID cls, const mwSize *dims, mwSize nd, size_t es)
{
    size_t count = 1;
    for (mwSize i = 0; i < nd; i++)
        count *= dims[i];
    mxArray *r = mxCreateNumericMatrix(0, 0, cls, mxREAL);
    mxSetData(r, mxRealloc(data, count > 0 ? count * es : 1));
    mxSetDimensions(r, dims, nd);
    return r;
}

/* Without the info output: the one warning about the failed systems, id
 * batchsym:nonFinite when some input was not finite, else
 * batchsym:noConvergence. */
static void warn_failures(mxArray *info, int nlhs, mxArray *plhs[], int vectors)
{
    const int *v = mxGetData(info);
    size_t batch = mxGetNumberOfElements(info), bad = 0;
    for (size_t k = 0; k < batch; k++)
        bad += v[k] < 0;
    bsym_oct_info_out(info, nlhs, plhs, 2, bad ? "nonFinite" : "noConvergence", BSYM_TASK_EIGEN,
                      NULL, vectors ? "their values and vectors are NaN (ask for [V, D, info] to "
                                      "see which)"
                                    : "their values are NaN (ask for [V, D, info] to see which)");
}

/* tridiag: inputs d and e (bsym_tridiag_eigen), else A (bsym_eigen). */
static void eigen_gateway(int tridiag, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    const int nin = tridiag ? 2 : 1;          /* d, e or A */
    const int nopts = tridiag ? NOPT - 1 : NOPT; /* no 'uplo' for d, e */
    if (nrhs < nin)
        bsym_oct_error(BSYM_ERR_ARG, "needs %s (then name/value options)", tridiag ? "d and e" : "A");
    if (nlhs > 4)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most four outputs, V, D, info and count");

    int64_t n, batch;
    if (tridiag)
        tridiag_shape(prhs[0], prhs[1], &n, &batch);
    else
        bsym_oct_square_batch(prhs[0], "A", 1, &n, &batch);
    /* complex Hermitian A: values real, vectors complex */
    const int cplx = !tridiag && mxIsComplex(prhs[0]);
    bsym_oct_option opt[NOPT] = {
        [OPT_DEVICE] = {"device", bsym_oct_choices(BSYM_CHOICE_DEVICE), bsym_oct_default_device(), NULL},
        [OPT_INDEX] = {"index", NULL, 0, NULL},
        [OPT_INTERVAL] = {"interval", NULL, 0, NULL},
        [OPT_UPLO] = {"uplo", bsym_oct_choices(BSYM_CHOICE_UPLO), 0, NULL},
    };
    bsym_oct_parse_options(nrhs - nin, prhs + nin, opt, nopts);
    bsym_select sel = selection(opt[OPT_INDEX].array, opt[OPT_INTERVAL].array, n);

    /* A's class; for d and e single when either is */
    mxClassID cls = bsym_oct_precision(prhs, nin);
    size_t es = cls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double);
    int vectors = nlhs >= 2;
    if (cplx && vectors && sel.kind != BSYM_SELECT_ALL)
        bsym_oct_error(BSYM_ERR_ARG, "'index' and 'interval' with complex A give values only here (call with one "
                       "output), or ask for every eigenpair");
    size_t nn = (size_t)n, nb = (size_t)batch;
    int *info_data, *count_data;
    mxArray *info = bsym_oct_info_new(batch, &info_data);
    mxArray *count = bsym_oct_info_new(batch, &count_data);
    /* n x batch values and n x n x batch vectors, as the core writes them;
     * all of them (no packing to fewer rows or columns) straight into arrays
     * of Octave's own, which leave without a copy (bsym_oct_result) */
    void *owned[4] = {NULL, NULL, NULL, NULL};
    const int all = sel.kind == BSYM_SELECT_ALL;
    mwSize w_dims[2] = {(mwSize)nn, (mwSize)nb}, full_dims[3] = {(mwSize)nn, (mwSize)nn, (mwSize)nb};
    mxArray *Dout = all ? bsym_oct_result(cls, 2, w_dims) : NULL;
    void *w = Dout != NULL ? mxGetData(Dout) : mxMalloc(nn * nb > 0 ? nn * nb * es : 1);
    mxArray *Vout = !vectors || !all ? NULL
                    : cplx           ? bsym_oct_result_complex(cls, batch == 1 ? 2 : 3, full_dims)
                                     : bsym_oct_result(cls, batch == 1 ? 2 : 3, full_dims);
    void *V = Vout != NULL ? mxGetData(Vout)
              : vectors    ? mxMalloc(nn * nn * nb > 0 ? nn * nn * nb * es : 1)
                           : NULL;
    const void *d = NULL, *e = NULL, *A = NULL;
    if (tridiag) {
        d = bsym_oct_data_as(prhs[0], cls, &owned[0]);
        e = n > 1 ? bsym_oct_data_as(prhs[1], cls, &owned[1]) : NULL;
    } else {
        A = mxGetData(prhs[0]);
    }

    bsym_ctx *ctx = NULL;
    bsym_status st = bsym_oct_context((bsym_device)opt[OPT_DEVICE].value, &ctx);
    if (st == BSYM_OK) {
        char uplo = bsym_choice_name(BSYM_CHOICE_UPLO, opt[OPT_UPLO].value)[0];
        if (tridiag)
            st = cls == mxSINGLE_CLASS
                     ? bsym_sstev(ctx, n, batch, d, e, &sel, w, V, count_data, info_data)
                     : bsym_dstev(ctx, n, batch, d, e, &sel, w, V, count_data, info_data);
        else if (cplx) /* mxGetData: the interleaved complex data */
            st = cls == mxSINGLE_CLASS
                     ? bsym_csyev(ctx, uplo, n, batch, A, &sel, w, V, count_data, info_data)
                     : bsym_zsyev(ctx, uplo, n, batch, A, &sel, w, V, count_data, info_data);
        else
            st = cls == mxSINGLE_CLASS
                     ? bsym_ssyev(ctx, uplo, n, batch, A, &sel, w, V, count_data, info_data)
                     : bsym_dsyev(ctx, uplo, n, batch, A, &sel, w, V, count_data, info_data);
    }
    if (st != BSYM_OK) { /* released too, before the error (Dout, Vout are Octave's) */
        owned[2] = Dout != NULL ? NULL : w;
        owned[3] = Vout != NULL ? NULL : V;
    }
    bsym_oct_finish_all(st, ctx, owned, 4); /* releases the call's buffers, raises on failure */

    /* m, the rows of D (columns of each V_k), and the packing of the core's
     * n rows (columns) per system into m, NaN past each system's count and
     * in failed systems: the core's rules, in place */
    size_t m = (size_t)bsym_select_rows(&sel, n, batch, count_data);
    /* complex vectors only with every pair (m = n: nothing to move; the core
     * has made failed systems NaN): the values alone are packed */
    void *Vpack = cplx ? NULL : V;
    if (cls == mxSINGLE_CLASS)
        bsym_sselect_pack(n, (int64_t)m, batch, count_data, info_data, 0, NAN, w, Vpack, w, Vpack);
    else
        bsym_dselect_pack(n, (int64_t)m, batch, count_data, info_data, 0, NAN, w, Vpack, w, Vpack);

    mwSize wdims[2] = {(mwSize)m, (mwSize)nb}, vdims[3] = {(mwSize)nn, (mwSize)m, (mwSize)nb};
    mxArray *D = Dout != NULL ? Dout : wrap(w, cls, wdims, 2, es);
    if (vectors) {
        plhs[0] = Vout != NULL ? Vout : wrap(V, cls, vdims, batch == 1 ? 2 : 3, es);
        plhs[1] = D;
    } else {
        plhs[0] = D;
    }
    if (nlhs >= 4)
        plhs[3] = count;
    else
        mxDestroyArray(count);
    warn_failures(info, nlhs, plhs, vectors); /* plhs[2] = info when asked for */
}

void bsym_oct_eigen(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    eigen_gateway(0, nlhs, plhs, nrhs, prhs);
}

void bsym_oct_tridiag_eigen(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    eigen_gateway(1, nlhs, plhs, nrhs, prhs);
}
