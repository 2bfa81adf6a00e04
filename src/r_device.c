/*
 * r_device.c -- the R glue's context and device queries.
 */
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

static bsym_ctx *g_ctx = NULL;

static void check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* The core's interrupt hook: non-zero when the user pressed Ctrl-C. Called
 * between chunks from the main thread only; R_ToplevelExec keeps the
 * longjmp out of the core, which then stops and releases its buffers. */
static int interrupt_hook(void *unused)
{
    (void)unused;
    return !R_ToplevelExec(check_interrupt, NULL);
}

bsym_ctx *bsym_r_context(const char *device, int threads)
{
    if (g_ctx == NULL && bsym_ctx_create(&g_ctx) != BSYM_OK)
        error("batchsym: cannot create a context (out of memory)");
    bsym_device d = strcmp(device, "cpu") == 0   ? BSYM_DEVICE_CPU
                    : strcmp(device, "gpu") == 0 ? BSYM_DEVICE_GPU
                                                 : BSYM_DEVICE_AUTO;
    if (bsym_ctx_set_device(g_ctx, d) != BSYM_OK || bsym_ctx_set_threads(g_ctx, threads) != BSYM_OK)
        error("batchsym: %s", bsym_ctx_message(g_ctx));
    bsym_ctx_set_interrupt(g_ctx, interrupt_hook, NULL);
    return g_ctx;
}

void bsym_r_context_free(void)
{
    bsym_ctx_destroy(g_ctx);
    g_ctx = NULL;
}

void bsym_r_stop(const char *fun, bsym_status status)
{
    const char *msg = g_ctx ? bsym_ctx_message(g_ctx) : "";
    error("%s: %s%s%s", fun, bsym_status_string(status), *msg ? ": " : "", msg);
}

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
