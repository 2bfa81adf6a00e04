/*
 * r_device.c -- bsym_device_info(): the core's device information as an R list.
 */
#include <stdio.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

SEXP bsym_r_device_info(void)
{
    bsym_device_info info;
    bsym_get_device_info(&info);
    const char *names[] = {"built_with_cuda", "gpu_available", "device_count", "name",
                           "total_memory", "free_memory", "compute_capability",
                           "cuda_runtime_version", "cuda_driver_version", "reason", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    char cc[32] = "";
    if (info.device_count > 0)
        snprintf(cc, sizeof cc, "%d.%d", info.compute_major, info.compute_minor);
    SET_VECTOR_ELT(out, 0, ScalarLogical(info.built_with_cuda));
    SET_VECTOR_ELT(out, 1, ScalarLogical(info.gpu_available));
    SET_VECTOR_ELT(out, 2, ScalarInteger(info.device_count));
    SET_VECTOR_ELT(out, 3, mkString(info.name));
    SET_VECTOR_ELT(out, 4, ScalarReal((double)info.total_memory));
    SET_VECTOR_ELT(out, 5, ScalarReal((double)info.free_memory));
    SET_VECTOR_ELT(out, 6, mkString(cc));
    SET_VECTOR_ELT(out, 7, ScalarInteger(info.cuda_runtime_version));
    SET_VECTOR_ELT(out, 8, ScalarInteger(info.cuda_driver_version));
    SET_VECTOR_ELT(out, 9, mkString(info.reason));
    UNPROTECT(1);
    return out;
}

/* The CPU backend (not exported): list(threads, simd, chunk). */
SEXP bsym_r_cpu_info(void)
{
    const char *names[] = {"threads", "simd", "chunk", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, ScalarInteger(bsym_cpu_threads()));
    SET_VECTOR_ELT(out, 1, mkString(bsym_cpu_simd()));
    SET_VECTOR_ELT(out, 2, ScalarReal((double)bsym_cpu_chunk()));
    UNPROTECT(1);
    return out;
}
