/*
 * ctx.c -- status strings, the opaque context, the backends, device
 * information.
 */
#include <stdarg.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "cpu_simd.h"

const char *bsym_status_string(bsym_status status)
{
    switch (status) {
    case BSYM_OK:              return "success";
    case BSYM_ERR_ARG:         return "invalid argument";
    case BSYM_ERR_NOMEM:       return "out of memory";
    case BSYM_ERR_NODEVICE:    return "no usable GPU";
    case BSYM_ERR_CUDA:        return "CUDA failure";
    case BSYM_ERR_SIZE:        return "size not supported on this device";
    case BSYM_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown status";
}

bsym_status bsym__fail(bsym_ctx *ctx, bsym_status status, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

void bsym__begin(bsym_ctx *ctx)
{
    ctx->message[0] = '\0';
}

int bsym__interrupted(bsym_ctx *ctx)
{
    return ctx->interrupt != NULL && ctx->interrupt(ctx->interrupt_data) != 0;
}

/* ---- the backends ---------------------------------------------------------- */
#ifdef BSYM_WITH_CUDA
extern const bsym__backend bsym__cuda_backend; /* cuda/backend.cu */
#endif

const bsym__backend *bsym__gpu_backend(void)
{
#ifdef BSYM_WITH_CUDA
    return &bsym__cuda_backend;
#else
    return NULL;
#endif
}

bsym_status bsym_ctx_create(bsym_ctx **ctx)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    *ctx = calloc(1, sizeof **ctx);
    if (*ctx == NULL)
        return BSYM_ERR_NOMEM;
    (*ctx)->device = BSYM_DEVICE_AUTO;
    (*ctx)->last_device = BSYM_DEVICE_CPU;
    return BSYM_OK;
}

void bsym_ctx_destroy(bsym_ctx *ctx)
{
    if (ctx == NULL)
        return;
    const bsym__backend *gpu = bsym__gpu_backend();
    if (gpu != NULL)
        gpu->release(ctx->gpu_state);
    free(ctx);
}

bsym_status bsym_ctx_set_device(bsym_ctx *ctx, bsym_device device)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (device != BSYM_DEVICE_AUTO && device != BSYM_DEVICE_CPU && device != BSYM_DEVICE_GPU)
        return bsym__fail(ctx, BSYM_ERR_ARG, "device must be auto, cpu or gpu (got code %d)", (int)device);
    ctx->device = device;
    return BSYM_OK;
}

bsym_status bsym_ctx_set_threads(bsym_ctx *ctx, int threads)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (threads < 0)
        return bsym__fail(ctx, BSYM_ERR_ARG, "threads must be >= 0 (got %d)", threads);
    ctx->threads = threads;
    return BSYM_OK;
}

void bsym_ctx_set_progress(bsym_ctx *ctx, bsym_progress_fn fn, void *data)
{
    if (ctx == NULL)
        return;
    ctx->progress = fn;
    ctx->progress_data = data;
}

int64_t bsym_cpu_chunk(void)
{
    return BSYM_CPU_CHUNK;
}

void bsym_ctx_set_interrupt(bsym_ctx *ctx, bsym_interrupt_fn fn, void *data)
{
    if (ctx == NULL)
        return;
    ctx->interrupt = fn;
    ctx->interrupt_data = data;
}

/* Visible CUDA devices (0 without a usable GPU or without CUDA). */
static int visible_gpus(void)
{
    const bsym__backend *gpu = bsym__gpu_backend();
    return gpu != NULL && gpu->devices != NULL ? gpu->devices() : 0;
}

bsym_status bsym_ctx_set_gpus(bsym_ctx *ctx, const int *ids, int count)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (count < 0 || count > BSYM_MAX_GPUS || (count > 0 && ids == NULL))
        return bsym__fail(ctx, BSYM_ERR_ARG, "gpus must list 0 to %d device ids (got %d)", BSYM_MAX_GPUS, count);
    const int visible = visible_gpus();
    for (int i = 0; i < count; i++) {
        if (ids[i] < 0)
            return bsym__fail(ctx, BSYM_ERR_ARG, "gpus must be device ids >= 0 (got %d)", ids[i]);
        if (visible > 0 && ids[i] >= visible)
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "gpus names device %d, but only %d GPU%s visible (ids 0 to %d; "
                              "CUDA_VISIBLE_DEVICES decides which)",
                              ids[i], visible, visible == 1 ? " is" : "s are", visible - 1);
        for (int k = 0; k < i; k++)
            if (ids[k] == ids[i])
                return bsym__fail(ctx, BSYM_ERR_ARG, "gpus names device %d twice", ids[i]);
    }
    for (int i = 0; i < count; i++)
        ctx->gpus[i] = ids[i];
    ctx->ngpus = count;
    return BSYM_OK;
}

int bsym_ctx_gpus(const bsym_ctx *ctx, int *ids, int max)
{
    const int visible = visible_gpus();
    if (ctx == NULL || visible == 0)
        return 0;
    int n = 0;
    if (ctx->ngpus > 0) {
        for (int i = 0; i < ctx->ngpus; i++)
            if (ctx->gpus[i] < visible && n < max)
                ids[n++] = ctx->gpus[i];
    } else {
        for (int g = 0; g < visible && g < BSYM_MAX_GPUS && n < max; g++)
            ids[n++] = g;
    }
    return n;
}

bsym_status bsym_gpus_link_rate(bsym_ctx *ctx, const int *gpus, int ngpus, size_t bytes, double *h2d, double *d2h)
{
    if (ctx == NULL)
        return BSYM_ERR_ARG;
    bsym__begin(ctx);
    if (h2d == NULL || d2h == NULL || bytes == 0)
        return bsym__fail(ctx, BSYM_ERR_ARG, "h2d and d2h must not be NULL, bytes > 0");
    if (ngpus < 1 || ngpus > BSYM_MAX_GPUS || gpus == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "gpu must list 1 to %d device ids (got %d)", BSYM_MAX_GPUS, ngpus);
    const bsym__backend *be = bsym__gpu_backend();
    const int visible = visible_gpus();
    if (be == NULL || be->link_rate == NULL || visible == 0) {
        bsym_device_info di;
        bsym_get_device_info(&di);
        return bsym__fail(ctx, BSYM_ERR_NODEVICE, "%s", di.reason);
    }
    for (int i = 0; i < ngpus; i++) {
        if (gpus[i] < 0 || gpus[i] >= visible)
            return bsym__fail(ctx, BSYM_ERR_ARG, "gpu must be a device id from 0 to %d (got %d)", visible - 1, gpus[i]);
        for (int k = 0; k < i; k++)
            if (gpus[k] == gpus[i])
                return bsym__fail(ctx, BSYM_ERR_ARG, "gpu names device %d twice", gpus[i]);
    }
    return be->link_rate(gpus, ngpus, bytes, h2d, d2h, ctx->message, sizeof ctx->message);
}

bsym_status bsym_gpu_link_rate(bsym_ctx *ctx, int gpu, size_t bytes, double *h2d, double *d2h)
{
    return bsym_gpus_link_rate(ctx, &gpu, 1, bytes, h2d, d2h);
}

const char *bsym_ctx_message(const bsym_ctx *ctx)
{
    return ctx ? ctx->message : "no context";
}

bsym_device bsym_ctx_last_device(const bsym_ctx *ctx)
{
    return ctx ? ctx->last_device : BSYM_DEVICE_CPU;
}

bsym_status bsym_get_device_info(bsym_device_info *info)
{
    if (info == NULL)
        return BSYM_ERR_ARG;
    memset(info, 0, sizeof *info);
    const bsym__backend *gpu = bsym__gpu_backend();
    if (gpu != NULL)
        gpu->query(info);
    else
        snprintf(info->reason, sizeof info->reason,
                 "batchsym was built without CUDA (no nvcc found, or BSYM_CUDA=0)");
    return BSYM_OK;
}

int bsym_gpu_available(void)
{
    bsym_device_info info;
    bsym_get_device_info(&info);
    return info.gpu_available;
}

#ifdef _OPENMP
#include <omp.h>
#endif

/* The huge-page hint for [p, p + bytes) (its 2 MB-aligned interior). */
static void huge_hint(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20, a = (uintptr_t)p;
    const uintptr_t lo = (a + huge - 1) & ~(huge - 1), hi = (a + bytes) & ~(huge - 1);
    if (p != NULL && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
    (void)p;
    (void)bytes;
#endif
}

void *bsym__malloc_big(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (bytes >= ((size_t)4 << 20))
        huge_hint(p, bytes);
    return p;
}

void bsym_host_touch(void *p, size_t bytes)
{
    if (p == NULL || bytes < ((size_t)4 << 20))
        return;
    huge_hint(p, bytes);
    volatile char *c = p;
    const int64_t pages = (int64_t)(bytes / 4096);
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < pages; k++)
        c[k * 4096] = 0;
}

void bsym_host_copy(void *dst, const void *src, size_t bytes)
{
    const size_t piece = (size_t)1 << 20;
    const int64_t pieces = (int64_t)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 4)
    for (int64_t q = 0; q < pieces; q++) {
        const size_t off = (size_t)q * piece;
        memcpy((char *)dst + off, (const char *)src + off, bytes - off < piece ? bytes - off : piece);
    }
}

const char *bsym_cpu_simd(void)
{
    static const char *const names[] = {"baseline (SSE2 or the platform's)", "AVX2 + FMA", "AVX-512"};
    return names[bsym__cpu_isa()];
}

int bsym_cpu_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int bsym__team(int64_t units, int threads)
{
#ifdef _OPENMP
    int team = threads > 0 ? threads : omp_get_max_threads();
#else
    int team = threads > 0 ? threads : 1;
#endif
    if (units < team)
        team = units > 0 ? (int)units : 1;
    return team;
}

int bsym__team_run(int64_t groups, int threads, size_t bytes, int chunk, bsym__team_body body, void *ctx)
{
    if (bytes > SIZE_MAX - 64)
        return -1;
    int nomem = 0; /* set by any thread whose workspace could not be had */
#pragma omp parallel num_threads(bsym__team(groups, threads))
    {
        /* this thread's workspace: `bytes` from the first 64-byte boundary in raw */
        void *raw = bsym__malloc_big(bytes + 64);
        void *work = raw == NULL ? NULL : (void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
        if (work == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
        /* every thread has tried its allocation: all of them run groups, or none */
#pragma omp barrier
        if (!nomem) {
            if (chunk > 0) {
#pragma omp for schedule(dynamic, chunk)
                for (int64_t g = 0; g < groups; g++)
                    body(ctx, g, work);
            } else {
#pragma omp for schedule(static)
                for (int64_t g = 0; g < groups; g++)
                    body(ctx, g, work);
            }
        }
        free(raw);
    }
    return nomem ? -1 : 0;
}
