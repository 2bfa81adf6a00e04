/*
 * r_device.c -- bsym_device_info(): the core's device information as an R
 * list; the GPUs of the next calls (options(batchsym.gpus), handed over by
 * R/checks.R) and the host link's copy rates (for the benchmarks).
 */
#include <limits.h>
#include <stdint.h>
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
                           "cuda_runtime_version", "cuda_driver_version", "reason", "gpus", ""};
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
    /* the ids the next GPU call would use (none without a usable GPU) */
    int ids[BSYM_MAX_GPUS];
    const int ngpus = bsym_ctx_gpus(bsym_r_ctx(), ids, BSYM_MAX_GPUS);
    SEXP gpus = allocVector(INTSXP, ngpus);
    SET_VECTOR_ELT(out, 10, gpus);
    for (int i = 0; i < ngpus; i++)
        INTEGER(gpus)[i] = ids[i];
    UNPROTECT(1);
    return out;
}

/* options(batchsym.gpus) for the package's context: ids, an integer vector
 * (R has checked the type) or NULL (every visible GPU). The rules (ids >= 0,
 * distinct, at most BSYM_MAX_GPUS, visible) are the core's: its error, which
 * names gpus, is raised as batchsym_bad_argument. */
SEXP bsym_r_set_gpus(SEXP ids)
{
    const R_xlen_t len = isNull(ids) ? 0 : XLENGTH(ids);
    const int count = len > INT_MAX ? INT_MAX : (int)len; /* too many: the core says so */
    bsym_ctx *ctx = bsym_r_ctx();
    const bsym_status st = bsym_ctx_set_gpus(ctx, count > 0 ? INTEGER(ids) : NULL, count);
    if (st != BSYM_OK)
        bsym_r_stop("options(batchsym.gpus)", st);
    return R_NilValue;
}

/* link_rate() (R/solve.R, not exported): c(h2d, d2h) in GB/s, pinned copies
 * of `bytes` (a number >= 1, R has checked it) to and from each GPU of the
 * integer vector `gpu`, all at once (the core checks the ids). */
SEXP bsym_r_link_rate(SEXP bytes, SEXP gpu)
{
    const double b = asReal(bytes);
    const size_t nb = b >= (double)SIZE_MAX ? SIZE_MAX : (size_t)b; /* too many: the allocation fails */
    double h2d = 0, d2h = 0;
    const int n = XLENGTH(gpu) > INT_MAX ? INT_MAX : (int)XLENGTH(gpu);
    const bsym_status st = bsym_gpus_link_rate(bsym_r_ctx(), INTEGER(gpu), n, nb, &h2d, &d2h);
    if (st != BSYM_OK)
        bsym_r_stop("link_rate", st);
    const char *names[] = {"h2d", "d2h", ""};
    SEXP out = PROTECT(mkNamed(REALSXP, names));
    REAL(out)[0] = h2d;
    REAL(out)[1] = d2h;
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
