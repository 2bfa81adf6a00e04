/*
 * bsym_device_info.c -- gateway of bsym_device_info, served by the one MEX
 * file (bsym_mex.c) as __bsym__ ("device_info"): the core's
 * bsym_get_device_info as a scalar struct (field meanings in
 * bsym_device_info.m), with the GPUs of a call (bsym_ctx_gpus); and the
 * private command for the benchmarks
 *
 *   [h2d, d2h] = __bsym__ ("link_rate", bytes, gpu)
 *
 * the host link of GPU gpu (bsym_gpu_link_rate): GB/s of pinned copies of
 * bytes to the device and back, the bound of any transfer of those bytes.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "bsym_octave.h"

void bsym_oct_device_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    (void)nlhs;
    (void)prhs;
    if (nrhs != 0)
        bsym_oct_error(BSYM_ERR_ARG, "takes no arguments");
    bsym_device_info d;
    bsym_status st = bsym_get_device_info(&d);
    bsym_oct_finish(st, NULL, NULL);

    static const char *fields[] = {"built_with_cuda", "gpu_available", "device_count", "name",
                                   "total_memory", "free_memory", "compute_capability",
                                   "cuda_runtime_version", "cuda_driver_version", "reason", "gpus"};
    enum { NFIELDS = sizeof fields / sizeof fields[0] };
    char cc[32] = "";
    if (d.device_count > 0)
        snprintf(cc, sizeof cc, "%d.%d", d.compute_major, d.compute_minor);
    mxArray *s = mxCreateStructMatrix(1, 1, NFIELDS, fields);
    mxSetField(s, 0, "built_with_cuda", mxCreateLogicalScalar(d.built_with_cuda != 0));
    mxSetField(s, 0, "gpu_available", mxCreateLogicalScalar(d.gpu_available != 0));
    mxSetField(s, 0, "device_count", mxCreateDoubleScalar(d.device_count));
    mxSetField(s, 0, "name", mxCreateString(d.name));
    mxSetField(s, 0, "total_memory", mxCreateDoubleScalar((double)d.total_memory));
    mxSetField(s, 0, "free_memory", mxCreateDoubleScalar((double)d.free_memory));
    mxSetField(s, 0, "compute_capability", mxCreateString(cc));
    mxSetField(s, 0, "cuda_runtime_version", mxCreateDoubleScalar(d.cuda_runtime_version));
    mxSetField(s, 0, "cuda_driver_version", mxCreateDoubleScalar(d.cuda_driver_version));
    mxSetField(s, 0, "reason", mxCreateString(d.reason));
    /* the GPUs of a GPU call without a 'gpus' option: every visible one (a
     * context of its own, so that the process's is neither made nor changed) */
    int ids[BSYM_MAX_GPUS], ngpus = 0;
    bsym_ctx *ctx = NULL;
    if (bsym_ctx_create(&ctx) == BSYM_OK)
        ngpus = bsym_ctx_gpus(ctx, ids, BSYM_MAX_GPUS);
    bsym_ctx_destroy(ctx);
    mxArray *gpus = mxCreateDoubleMatrix(1, (mwSize)ngpus, mxREAL);
    for (int i = 0; i < ngpus; i++)
        mxGetPr(gpus)[i] = ids[i];
    mxSetField(s, 0, "gpus", gpus);
    plhs[0] = s;
}

/* A real scalar that is a whole number from lo to hi, or an error naming
 * `what`. */
static double whole_arg(const mxArray *a, const char *what, double lo, double hi)
{
    double v = NAN;
    if (mxIsNumeric(a) && !mxIsComplex(a) && !mxIsSparse(a) && mxGetNumberOfElements(a) == 1)
        v = mxGetScalar(a);
    if (!(v >= lo && v <= hi && v == floor(v)))
        bsym_oct_error(BSYM_ERR_ARG, "%s must be a whole number from %.0f to %.0f (a real scalar)", what, lo, hi);
    return v;
}

void bsym_oct_link_rate(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    bsym_oct_set_caller("__bsym__ ('link_rate')"); /* private: no bsym_link_rate */
    if (nrhs != 2)
        bsym_oct_error(BSYM_ERR_ARG, "takes bytes and gpu");
    if (nlhs > 2)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most two outputs, h2d and d2h");
    /* Octave's part: the types; gpu's range and bytes > 0 are the core's */
    const double bytes = whole_arg(prhs[0], "bytes", 0, 9007199254740992.0); /* 2^53 */
    const int gpu = (int)whole_arg(prhs[1], "gpu", INT_MIN, INT_MAX);
    double h2d = 0, d2h = 0;
    bsym_ctx *ctx = bsym_oct_rules_context();
    bsym_status st = ctx != NULL ? bsym_gpu_link_rate(ctx, gpu, (size_t)bytes, &h2d, &d2h) : BSYM_ERR_NOMEM;
    bsym_oct_finish(st, ctx, NULL);
    plhs[0] = mxCreateDoubleScalar(h2d);
    if (nlhs >= 2)
        plhs[1] = mxCreateDoubleScalar(d2h);
}
