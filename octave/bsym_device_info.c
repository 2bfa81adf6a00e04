/*
 * bsym_device_info.c -- gateway of bsym_device_info, served by the one MEX
 * file (bsym_mex.c) as __bsym__ ("device_info"): the core's
 * bsym_get_device_info as a scalar struct (field meanings in
 * bsym_device_info.m).
 */
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
                                   "cuda_runtime_version", "cuda_driver_version", "reason"};
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
    plhs[0] = s;
}
