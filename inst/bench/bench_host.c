/*
 * bench_host.c -- the host path (issue 13) through the core's C API, host
 * arrays in and out, without R or Octave around it: what the pipeline of
 * src/cuda/device.cu achieves, beside the two bounds it can meet, measured
 * in the same run:
 *   the host link   pinned copies of the bytes that must cross
 *                   (bsym_gpu_link_rate, best of three);
 *   host memory     this process's OpenMP threads reading the input arrays
 *                   (a sum over them) and copying (memcpy in 1 MB pieces).
 * n = 32 (--n), LDL^T and the automatic solve in double, LDL^T in float
 * arithmetic on the double arrays (bsym_dssolvex), eigenvectors; on the GPU
 * (every visible one, and GPU 0 alone when there are several) and on the
 * CPU backend; the latency of a call of 1000 systems. Median of --reps
 * timed calls after one warm-up call (which creates the context's streams
 * and staging buffers). Prints markdown tables.
 *
 *   gcc -O2 -fopenmp -Isrc/core inst/bench/bench_host.c src/libbatchsym.a \
 *       $(sed -n 's/^CUDA_LIBS = //p' src/bsym-config.mk) -lm -o build/bench_host
 *   build/bench_host [--n 32] [--systems 1e6] [--eigen 1e5] [--reps 5]
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batchsym.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One timed call: prepare (outside the clock), then the call. */
typedef struct {
    bsym_ctx *ctx;
    int n, kind; /* kind: 0 ldlt d, 1 ldlt ds, 2 auto d, 3 eigen vectors d */
    int64_t batch;
    const double *A, *B;
    double *X, *W, *V;
    int *info;
} call;

static bsym_status run_call(const call *c)
{
    const bsym_solve_opts ldlt = {BSYM_METHOD_LDLT, BSYM_RCOND_DEFAULT, 0.0, NULL};
    const bsym_solve_opts autom = {BSYM_METHOD_AUTO, BSYM_RCOND_DEFAULT, 0.0, NULL};
    switch (c->kind) {
    case 0: return bsym_dsolvex(c->ctx, &ldlt, 'L', c->n, 1, c->batch, c->A, c->X, c->info, NULL, NULL);
    case 1: return bsym_dssolvex(c->ctx, &ldlt, 'L', c->n, 1, c->batch, c->A, c->X, c->info, NULL, NULL);
    case 2: return bsym_dsolvex(c->ctx, &autom, 'L', c->n, 1, c->batch, c->A, c->X, c->info, NULL, NULL);
    default: return bsym_dsyev(c->ctx, 'L', c->n, c->batch, c->A, NULL, c->W, c->V, NULL, c->info);
    }
}

/* Median seconds of reps calls (after a warm-up); -1 on failure. */
static double time_call(const call *c, int reps)
{
    double t[64];
    for (int r = -1; r < reps; r++) {
        if (c->kind < 3)
            memcpy(c->X, c->B, sizeof(double) * (size_t)c->n * (size_t)c->batch);
        const double t0 = now();
        const bsym_status st = run_call(c);
        const double t1 = now();
        if (st != BSYM_OK) {
            fprintf(stderr, "call kind %d failed: %s\n", c->kind, bsym_ctx_message(c->ctx));
            return -1;
        }
        if (r >= 0)
            t[r] = t1 - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return t[reps / 2];
}

/* Host memory: GB/s of a parallel read (sum) of x and of a parallel memcpy. */
static void host_memory(const double *x, size_t count, double *read_gbs, double *copy_gbs)
{
    double best_r = 0, best_c = 0, sum = 0;
    const size_t piece = (size_t)1 << 17; /* doubles: 1 MB */
    const long long pieces = (long long)(count / piece);
    double *y = malloc(sizeof(double) * piece * (size_t)pieces);
#pragma omp parallel for schedule(static)
    for (long long p = 0; p < pieces; p++)
        memset(y + (size_t)p * piece, 0, sizeof(double) * piece); /* first touch */
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (long long p = 0; p < pieces; p++)
            for (size_t i = 0; i < piece; i++)
                sum += x[(size_t)p * piece + i];
        double t1 = now();
        best_r = fmax(best_r, (double)pieces * piece * sizeof(double) / (t1 - t0) / 1e9);
        t0 = now();
#pragma omp parallel for schedule(static)
        for (long long p = 0; p < pieces; p++)
            memcpy(y + (size_t)p * piece, x + (size_t)p * piece, sizeof(double) * piece);
        t1 = now();
        best_c = fmax(best_c, (double)pieces * piece * sizeof(double) / (t1 - t0) / 1e9);
    }
    if (sum == 42.0) /* keep the reads */
        printf("%g\n", sum);
    free(y);
    *read_gbs = best_r;
    *copy_gbs = best_c;
}

int main(int argc, char **argv)
{
    int n = 32, reps = 5;
    double systems = 1e6, eig = 1e5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--n") == 0)
            n = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--systems") == 0)
            systems = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--eigen") == 0)
            eig = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
    }
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    const int64_t batch = (int64_t)systems, distinct = 2000;
    const size_t nn = (size_t)n * n;
    bsym_device_info di;
    bsym_get_device_info(&di);
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    int gpus[BSYM_MAX_GPUS];
    const int ngpus = bsym_ctx_gpus(ctx, gpus, BSYM_MAX_GPUS);
    printf("bench_host: n = %d, %lld systems (eigen %g), GPU %s x %d, %d CPU threads (%s)\n\n", n,
           (long long)batch, eig, di.gpu_available ? di.name : "none", ngpus, omp_get_max_threads(),
           bsym_cpu_simd());

    /* distinct SPD matrices (diagonally dominant), repeated over the batch */
    double *A = malloc(sizeof(double) * nn * (size_t)batch), *B = malloc(sizeof(double) * (size_t)n * batch);
    double *X = malloc(sizeof(double) * (size_t)n * batch), *W = malloc(sizeof(double) * (size_t)n * batch);
    double *V = malloc(sizeof(double) * nn * (size_t)(eig < systems ? eig : systems));
    int *info = malloc(sizeof(int) * (size_t)batch);
    srand(1);
    for (int64_t k = 0; k < distinct && k < batch; k++)
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) {
                const double v = (double)rand() / RAND_MAX - 0.5 + (i == j ? n : 0);
                A[(size_t)k * nn + (size_t)j * n + i] = A[(size_t)k * nn + (size_t)i * n + j] = v;
            }
#pragma omp parallel for schedule(static)
    for (int64_t k = distinct; k < batch; k++)
        memcpy(A + (size_t)k * nn, A + (size_t)(k % distinct) * nn, sizeof(double) * nn);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < (int64_t)n * batch; i++) {
        B[i] = (double)(i % 7) - 3;
        X[i] = W[i] = 0;
    }
    memset(V, 0, sizeof(double) * nn * (size_t)(eig < systems ? eig : systems));

    double rd = 0, cp = 0;
    host_memory(A, nn * (size_t)batch, &rd, &cp);
    const size_t tri = (size_t)n * (n + 1) / 2;
    double h2d = 0, d2h = 0;
    if (di.gpu_available && bsym_gpu_link_rate(ctx, gpus[0], (size_t)48 << 20, &h2d, &d2h) != BSYM_OK)
        fprintf(stderr, "link rate: %s\n", bsym_ctx_message(ctx));
    printf("host memory: read %.1f GB/s, copy %.1f GB/s; host link of GPU %d: %.1f GB/s in, %.1f GB/s out (pinned, 48 MB)\n\n",
           rd, cp, ngpus > 0 ? gpus[0] : -1, h2d, d2h);

    static const char *names[] = {"LDL^T, double", "LDL^T, float arithmetic (dssolvex)", "automatic, double",
                                  "eigenvectors, double"};
    printf("| call | device | systems | median s | systems/s | link-bound systems/s | of the link bound | host-read-bound systems/s |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (int kind = 0; kind < 4; kind++) {
        const int64_t b = kind == 3 ? (int64_t)(eig < systems ? eig : systems) : batch;
        const size_t el = kind == 1 ? 4 : 8;
        /* bytes that must cross per system: in the triangle (+ b), out x (or w, V) and info */
        const double in = (double)(el * (tri + (kind < 3 ? (size_t)n : 0)));
        const double out = (double)(el * (kind < 3 ? (size_t)n : (size_t)n + nn) + 4);
        const double bound = h2d > 0 ? 1.0 / fmax(in / (h2d * 1e9), out / (d2h * 1e9)) : 0;
        const double readb = rd * 1e9 / (double)(sizeof(double) * (nn + (kind < 3 ? (size_t)n : 0)));
        for (int d = 0; d < 3; d++) { /* gpu (all), gpu 0 alone (several GPUs only), cpu */
            if (d < 2 && !di.gpu_available)
                continue;
            if (d == 1 && ngpus < 2)
                continue;
            bsym_ctx_set_device(ctx, d < 2 ? BSYM_DEVICE_GPU : BSYM_DEVICE_CPU);
            bsym_ctx_set_gpus(ctx, gpus, d == 1 ? 1 : 0);
            const call c = {ctx, n, kind, b, A, B, X, W, V, info};
            const double t = time_call(&c, reps);
            if (t < 0)
                continue;
            const char *dev = d == 0 ? (ngpus > 1 ? "gpu (all)" : "gpu") : d == 1 ? "gpu 0 alone" : "cpu";
            printf("| %s | %s | %lld | %.4f | %.3g | %.3g | %.0f %% | %.3g |\n", names[kind], dev, (long long)b, t,
                   (double)b / t, bound, bound > 0 && d < 2 ? 100.0 * ((double)b / t) / bound : 0.0, readb);
        }
        bsym_ctx_set_gpus(ctx, gpus, 0);
    }
    if (di.gpu_available) { /* the latency of a call of 1000 systems */
        bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
        for (int kind = 0; kind < 3; kind += 2) {
            const call c = {ctx, n, kind, 1000, A, B, X, W, V, info};
            double t = 0;
            for (int r = 0; r < 3; r++) { /* the best of three medians of 20 */
                const double m = time_call(&c, 20);
                t = r == 0 || m < t ? m : t;
            }
            printf("\nlatency of 1000 systems, %s, gpu: %.3f ms", names[kind], 1e3 * t);
        }
        printf("\n");
    }
    bsym_ctx_destroy(ctx);
    free(A); free(B); free(X); free(W); free(V); free(info);
    return 0;
}
