/*
 * solve.c -- the batched solve entry points: argument validation, device
 * choice, chunking with interrupt checks, dispatch to the CPU or CUDA backend.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../cuda/bsym_cuda.h"

/* Validates what every solve entry point takes. */
static bsym_status check_solve_args(bsym_ctx *ctx, bsym_method method, char uplo,
                                    int64_t n, int64_t nrhs, int64_t batch,
                                    const void *A, const void *B, const int *info)
{
    if (method != BSYM_METHOD_LDLT)
        return bsym__fail(ctx, BSYM_ERR_ARG, "method: unknown method code %d", (int)method);
    if (uplo != 'L' && uplo != 'U')
        return bsym__fail(ctx, BSYM_ERR_ARG, "uplo must be 'L' or 'U' (got '%c')", uplo);
    if (n < 0 || nrhs < 0 || batch < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "sizes must be >= 0 (n = %lld, nrhs = %lld, batch = %lld)",
                          (long long)n, (long long)nrhs, (long long)batch);
    /* n*n*batch and n*nrhs*batch must be addressable */
    if (n > 0 && batch > 0 &&
        (n > INT64_MAX / n / batch || (nrhs > 0 && nrhs > INT64_MAX / n / batch)))
        return bsym__fail(ctx, BSYM_ERR_SIZE, "the batch is too large to address");
    if (n > 0 && batch > 0 && (A == NULL || info == NULL || (nrhs > 0 && B == NULL)))
        return bsym__fail(ctx, BSYM_ERR_ARG, "A, B and info must not be NULL");
    return BSYM_OK;
}

/* Decides between CPU and GPU for a call; sets *gpu. */
static bsym_status choose_device(bsym_ctx *ctx, int64_t n, int64_t batch, int *gpu)
{
    bsym_device_info dev;
    *gpu = 0;
    if (ctx->device == BSYM_DEVICE_CPU)
        return BSYM_OK;
    bsym_get_device_info(&dev);
    if (ctx->device == BSYM_DEVICE_GPU) {
        if (!dev.gpu_available)
            return bsym__fail(ctx, BSYM_ERR_NODEVICE, "the GPU was requested but no GPU is usable: %s",
                              dev.reason);
        if (n > BSYM_GPU_LDLT_MAX_N)
            return bsym__fail(ctx, BSYM_ERR_SIZE,
                              "n = %lld exceeds the GPU LDL^T limit of %d; use the CPU or the automatic device choice",
                              (long long)n, BSYM_GPU_LDLT_MAX_N);
        *gpu = 1;
        return BSYM_OK;
    }
    *gpu = dev.gpu_available && n <= BSYM_GPU_LDLT_MAX_N && batch * n * n >= BSYM_AUTO_GPU_MIN_ENTRIES;
    return BSYM_OK;
}

/* Element size and typed calls for the two precisions, so that the body of a
 * solve is written once. */
typedef struct {
    size_t size;  /* sizeof(T) */
    int (*cpu)(char, int64_t, int64_t, int64_t, const void *, void *, int *, int);
    bsym_status (*gpu)(void **, char, int64_t, int64_t, int64_t, const void *, void *, int *,
                       bsym_interrupt_fn, void *, char *, size_t);
} precision_ops;

static int ldlt_cpu_d(char u, int64_t n, int64_t r, int64_t c, const void *A, void *B, int *i, int t)
{
    return bsym__ldlt_cpu_d(u, n, r, c, (const double *)A, (double *)B, i, t);
}
static int ldlt_cpu_s(char u, int64_t n, int64_t r, int64_t c, const void *A, void *B, int *i, int t)
{
    return bsym__ldlt_cpu_s(u, n, r, c, (const float *)A, (float *)B, i, t);
}
static bsym_status ldlt_gpu_d(void **st, char u, int64_t n, int64_t r, int64_t b, const void *A,
                              void *B, int *i, bsym_interrupt_fn f, void *fd, char *m, size_t ml)
{
    return bsym_cuda_ldlt_d(st, u, n, r, b, (const double *)A, (double *)B, i, f, fd, m, ml);
}
static bsym_status ldlt_gpu_s(void **st, char u, int64_t n, int64_t r, int64_t b, const void *A,
                              void *B, int *i, bsym_interrupt_fn f, void *fd, char *m, size_t ml)
{
    return bsym_cuda_ldlt_s(st, u, n, r, b, (const float *)A, (float *)B, i, f, fd, m, ml);
}
static const precision_ops LDLT_D = {sizeof(double), ldlt_cpu_d, ldlt_gpu_d};
static const precision_ops LDLT_S = {sizeof(float), ldlt_cpu_s, ldlt_gpu_s};

/* The body of bsym_dsolve / bsym_ssolve. */
static bsym_status solve(bsym_ctx *ctx, const precision_ops *ops, bsym_method method, char uplo,
                         int64_t n, int64_t nrhs, int64_t batch, const void *A, void *B, int *info)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    bsym_status st = check_solve_args(ctx, method, uplo, n, nrhs, batch, A, B, info);
    int gpu = 0;
    if (st == BSYM_OK)
        st = choose_device(ctx, n, batch, &gpu);
    if (st != BSYM_OK)
        return st;
    if (n == 0 || batch == 0) {
        for (int64_t k = 0; k < batch; k++)
            info[k] = 0;
    } else if (gpu) {
        st = ops->gpu(&ctx->cuda, uplo, n, nrhs, batch, A, B, info, ctx->interrupt,
                      ctx->interrupt_data, ctx->message, sizeof ctx->message);
    } else {
        const char *a = A;
        char *b = B;
        for (int64_t k0 = 0; k0 < batch && st == BSYM_OK; k0 += BSYM_CPU_CHUNK) {
            int64_t cnt = batch - k0 < BSYM_CPU_CHUNK ? batch - k0 : BSYM_CPU_CHUNK;
            if (k0 > 0 && bsym__interrupted(ctx))
                st = bsym__fail(ctx, BSYM_ERR_INTERRUPTED, "interrupted by the user");
            else if (ops->cpu(uplo, n, nrhs, cnt, a + (size_t)(k0 * n * n) * ops->size,
                              b + (size_t)(k0 * n * nrhs) * ops->size, info + k0, ctx->threads) != 0)
                st = bsym__fail(ctx, BSYM_ERR_NOMEM, "no memory for a %lld x %lld workspace",
                                (long long)n, (long long)n);
        }
    }
    if (st == BSYM_OK)
        ctx->last_device = gpu ? BSYM_DEVICE_GPU : BSYM_DEVICE_CPU;
    return st;
}

bsym_status bsym_dsolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const double *A, double *B, int *info)
{
    return solve(ctx, &LDLT_D, method, uplo, n, nrhs, batch, A, B, info);
}

bsym_status bsym_ssolve(bsym_ctx *ctx, bsym_method method, char uplo,
                        int64_t n, int64_t nrhs, int64_t batch,
                        const float *A, float *B, int *info)
{
    return solve(ctx, &LDLT_S, method, uplo, n, nrhs, batch, A, B, info);
}
