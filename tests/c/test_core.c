/*
 * test_core.c -- tests of the batchsym C core against a plain reference
 * (Gaussian elimination with partial pivoting in long double). Runs every
 * case on the CPU, and on the GPU too when one is usable.
 *
 *   test_core [--counts FILE]   prints one line per failure and a summary
 *   "N passed, N failed"; FILE gets "P F".
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batchsym.h"

static int passed, failed;

static void check(int ok, const char *what, const char *device, long long a, long long b)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL [%s] %s (%lld, %lld)\n", device, what, a, b);
    }
}

/* deterministic uniform in [-1, 1) */
static unsigned long long rng_state = 88172645463325252ULL;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Random SPD system k: M M^T / n + I (full symmetric, double). */
static void spd(int n, double *a)
{
    double *m = malloc(sizeof(double) * n * n);
    for (int i = 0; i < n * n; i++)
        m[i] = urand();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += m[i + k * n] * m[j + k * n];
            a[i + j * n] = s / n + (i == j);
        }
    free(m);
}

/* x = A^{-1} b by Gaussian elimination with partial pivoting, long double. */
static void reference_solve(int n, const double *a, const double *b, long double *x)
{
    long double *m = malloc(sizeof(long double) * n * (n + 1));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            m[i + j * n] = a[i + j * n];
    for (int i = 0; i < n; i++)
        m[i + n * n] = b[i];
    for (int j = 0; j < n; j++) {
        int p = j;
        for (int i = j + 1; i < n; i++)
            if (fabsl(m[i + j * n]) > fabsl(m[p + j * n]))
                p = i;
        for (int c = j; c <= n; c++) {
            long double t = m[j + c * n];
            m[j + c * n] = m[p + c * n];
            m[p + c * n] = t;
        }
        for (int i = j + 1; i < n; i++) {
            long double f = m[i + j * n] / m[j + j * n];
            for (int c = j; c <= n; c++)
                m[i + c * n] -= f * m[j + c * n];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        long double s = m[i + n * n];
        for (int c = i + 1; c < n; c++)
            s -= m[i + c * n] * x[c];
        x[i] = s / m[i + i * n];
    }
    free(m);
}

/* Solves a batch through the core in the given precision and device; returns
 * the status; x gets the solutions as doubles. */
static bsym_status run(bsym_device dev, int single, char uplo, int n, int nrhs, int batch,
                       const double *A, const double *B, double *x, int *info)
{
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    size_t na = (size_t)n * n * batch, nb = (size_t)n * nrhs * batch;
    bsym_status st;
    if (!single) {
        memcpy(x, B, nb * sizeof(double));
        st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, uplo, n, nrhs, batch, A, x, info);
    } else {
        float *fa = malloc(sizeof(float) * (na + 1)), *fx = malloc(sizeof(float) * (nb + 1));
        for (size_t i = 0; i < na; i++)
            fa[i] = (float)A[i];
        for (size_t i = 0; i < nb; i++)
            fx[i] = (float)B[i];
        st = bsym_ssolve(ctx, BSYM_METHOD_LDLT, uplo, n, nrhs, batch, fa, fx, info);
        for (size_t i = 0; i < nb; i++)
            x[i] = fx[i];
        free(fa);
        free(fx);
    }
    bsym_ctx_destroy(ctx);
    return st;
}

/* Random SPD batch against the reference, with the unread triangle poisoned. */
static void test_random(bsym_device dev, const char *dname, int single, char uplo, int n, int nrhs,
                        int batch)
{
    double *A = malloc(sizeof(double) * n * n * batch), *B = malloc(sizeof(double) * n * nrhs * batch);
    double *x = malloc(sizeof(double) * n * nrhs * batch), *full = malloc(sizeof(double) * n * n);
    long double *ref = malloc(sizeof(long double) * n);
    int *info = malloc(sizeof(int) * batch);
    for (int k = 0; k < batch; k++) {
        double *a = A + (size_t)k * n * n;
        spd(n, a);
        for (int j = 0; j < n; j++) /* poison the triangle that must not be read */
            for (int i = 0; i < n; i++)
                if ((uplo == 'L' && i < j) || (uplo == 'U' && i > j))
                    a[i + j * n] = NAN;
    }
    for (int i = 0; i < n * nrhs * batch; i++)
        B[i] = urand();
    bsym_status st = run(dev, single, uplo, n, nrhs, batch, A, B, x, info);
    check(st == BSYM_OK, "random SPD solve status", dname, n, st);
    double eps = single ? FLT_EPSILON : DBL_EPSILON, worst = 0;
    int bad_info = 0;
    for (int k = 0; k < batch && st == BSYM_OK; k++) {
        const double *a = A + (size_t)k * n * n;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                full[i + j * n] = (uplo == 'L') == (i >= j) ? a[i + j * n] : a[j + i * n];
        bad_info |= info[k] != 0;
        for (int c = 0; c < nrhs; c++) {
            const double *b = B + ((size_t)k * nrhs + c) * n, *xs = x + ((size_t)k * nrhs + c) * n;
            reference_solve(n, full, b, ref);
            long double num = 0, den = 0;
            for (int i = 0; i < n; i++) {
                num = fmaxl(num, fabsl(xs[i] - ref[i]));
                den = fmaxl(den, fabsl(ref[i]));
            }
            /* forward error of a well-conditioned (cond <= ~4n) SPD system */
            double err = (double)(num / den);
            if (!(err <= worst))
                worst = err;
        }
    }
    check(!bad_info, "random SPD info all zero", dname, n, batch);
    char what[128];
    snprintf(what, sizeof what, "random SPD %s uplo=%c nrhs=%d relative error %.3g <= %g n eps",
             single ? "float" : "double", uplo, nrhs, worst, 200.0);
    check(worst <= 200.0 * n * eps, what, dname, n, batch);
    free(A); free(B); free(x); free(full); free(ref); free(info);
}

/* One system with Inf, one indefinite, one zero; the others must be solved. */
static void test_bad_systems(bsym_device dev, const char *dname, int single)
{
    const int n = 5, batch = 9;
    double A[5 * 5 * 9], B[5 * 9], x[5 * 9];
    int info[9];
    for (int k = 0; k < batch; k++)
        spd(n, A + k * n * n);
    for (int i = 0; i < n * batch; i++)
        B[i] = urand();
    A[2 * 25 + 3] = INFINITY;                     /* system 2: non-finite, lower */
    for (int i = 0; i < 25; i++)                  /* system 4: all ones, D_2 = 0 */
        A[4 * 25 + i] = 1.0;
    for (int i = 0; i < 25; i++)                  /* system 8: -I, indefinite but fine */
        A[8 * 25 + i] = (i % 6 == 0) ? -1.0 : 0.0;
    memset(A + 5 * 25, 0, sizeof(double) * 25);   /* system 5: zero matrix */
    for (int i = 0; i < 25; i++)                  /* system 6: diag(1, 1, 0, 1, 1) */
        A[6 * 25 + i] = (i % 6 == 0 && i != 12) ? 1.0 : 0.0;
    B[7 * 5 + 1] = NAN;                           /* system 7: NaN right-hand side */
    bsym_status st = run(dev, single, 'L', n, 1, batch, A, B, x, info);
    check(st == BSYM_OK, "bad systems status", dname, st, 0);
    check(info[2] == -1, "Inf in A gives info -1", dname, info[2], -1);
    check(info[4] == 2, "rank-one matrix gives info 2", dname, info[4], 2);
    check(info[8] == 0 && fabs(x[8 * 5] + B[8 * 5]) <= 1e-6 * fabs(B[8 * 5]), "-I (negative pivots) is solved", dname, info[8], 0);
    check(info[5] == 1, "zero matrix gives info 1", dname, info[5], 1);
    check(info[6] == 3, "zero pivot 3 gives info 3", dname, info[6], 3);
    check(info[7] == -1, "NaN in B gives info -1", dname, info[7], -1);
    int good = 1, nan_bad = 1;
    for (int k = 0; k < batch; k++)
        for (int i = 0; i < n; i++) {
            int is_bad = k == 2 || k == 4 || k == 5 || k == 6 || k == 7;
            if (is_bad)
                nan_bad &= isnan(x[k * n + i]);
            else
                good &= info[k] == 0 && isfinite(x[k * n + i]);
        }
    check(nan_bad, "failed systems are NaN", dname, 0, 0);
    check(good, "other systems solved", dname, 0, 0);
}

static void test_errors(void)
{
    bsym_ctx *ctx;
    double a[4] = {2, 0, 0, 2}, b[2] = {1, 1};
    int info[1];
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'X', 2, 1, 1, a, b, info) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "uplo") != NULL,
          "bad uplo is an argument error naming uplo", "cpu", 0, 0);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', -1, 1, 1, a, b, info) == BSYM_ERR_ARG,
          "negative n", "cpu", 0, 0);
    check(bsym_dsolve(ctx, (bsym_method)7, 'L', 2, 1, 1, a, b, info) == BSYM_ERR_ARG,
          "unknown method", "cpu", 0, 0);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', 2, 1, 1, NULL, b, info) == BSYM_ERR_ARG,
          "NULL A", "cpu", 0, 0);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', 2, 1, 0, NULL, NULL, NULL) == BSYM_OK,
          "empty batch", "cpu", 0, 0);
    check(bsym_ctx_set_device(ctx, (bsym_device)9) == BSYM_ERR_ARG, "bad device code", "cpu", 0, 0);
    check(bsym_ctx_set_threads(ctx, -2) == BSYM_ERR_ARG, "negative threads", "cpu", 0, 0);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
    bsym_status st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', 2, 1, 1, a, b, info);
    if (!bsym_gpu_available())
        check(st == BSYM_ERR_NODEVICE && strlen(bsym_ctx_message(ctx)) > 0,
              "gpu without a GPU says why", "cpu", st, 0);
    else
        check(st == BSYM_OK && fabs(b[0] - 0.5) < 1e-15, "2x2 on the GPU", "gpu", st, 0);
    /* n above the GPU limit: a clear size error on the GPU, CPU under auto */
    int n = BSYM_GPU_LDLT_MAX_N + 1;
    double *A = calloc((size_t)n * n, sizeof(double)), *B = calloc(n, sizeof(double));
    for (int i = 0; i < n; i++) {
        A[i + i * n] = 4;
        B[i] = 1;
    }
    if (bsym_gpu_available())
        check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, 1, A, B, info) == BSYM_ERR_SIZE,
              "n > 64 on the GPU is a size error", "gpu", n, 0);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_AUTO);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, 1, A, B, info) == BSYM_OK &&
              fabs(B[0] - 0.25) < 1e-15 && bsym_ctx_last_device(ctx) == BSYM_DEVICE_CPU,
          "n > 64 under auto runs on the CPU", "auto", n, 0);
    free(A);
    free(B);
    bsym_ctx_destroy(ctx);
    check(strcmp(bsym_status_string(BSYM_ERR_NOMEM), "out of memory") == 0, "status string", "-", 0, 0);
}

static int stop_now(void *data)
{
    ++*(int *)data;
    return 1;
}

/* A hook that asks to stop ends a multi-chunk call with BSYM_ERR_INTERRUPTED. */
static void test_interrupt(bsym_device dev, const char *dname)
{
    const int n = 2, batch = 100000;
    double *A = malloc(sizeof(double) * 4 * batch), *B = malloc(sizeof(double) * 2 * batch);
    int *info = malloc(sizeof(int) * batch), calls = 0;
    for (int k = 0; k < batch; k++) {
        A[4 * k] = A[4 * k + 3] = 2;
        A[4 * k + 1] = A[4 * k + 2] = 0;
        B[2 * k] = B[2 * k + 1] = 1;
    }
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    bsym_ctx_set_interrupt(ctx, stop_now, &calls);
    bsym_status st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, batch, A, B, info);
    /* the GPU moves 100000 2x2 systems in one chunk: no check point */
    if (dev == BSYM_DEVICE_CPU)
        check(st == BSYM_ERR_INTERRUPTED && calls == 1, "interrupt hook stops the call", dname, st, calls);
    else
        check(st == BSYM_OK || st == BSYM_ERR_INTERRUPTED, "interrupt hook", dname, st, calls);
    bsym_ctx_destroy(ctx);
    free(A); free(B); free(info);
}

int main(int argc, char **argv)
{
    const char *counts = NULL;
    for (int i = 1; i < argc - 1; i++)
        if (strcmp(argv[i], "--counts") == 0)
            counts = argv[i + 1];
    bsym_device_info di;
    bsym_get_device_info(&di);
    printf("batchsym core tests: built with CUDA %d, GPU %s%s%s\n", di.built_with_cuda,
           di.gpu_available ? di.name : "none", di.gpu_available ? "" : ": ", di.reason);
    const int sizes[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 47, 48, 63, 64, 65, 100};
    struct { bsym_device dev; const char *name; } devs[] = {{BSYM_DEVICE_CPU, "cpu"}, {BSYM_DEVICE_GPU, "gpu"}};
    for (int d = 0; d < 2; d++) {
        if (devs[d].dev == BSYM_DEVICE_GPU && !di.gpu_available)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int n = sizes[s];
            if (devs[d].dev == BSYM_DEVICE_GPU && n > BSYM_GPU_LDLT_MAX_N)
                continue;
            for (int single = 0; single < 2; single++) {
                test_random(devs[d].dev, devs[d].name, single, 'L', n, 1, 37);
                test_random(devs[d].dev, devs[d].name, single, 'U', n, 3, 5);
            }
        }
        for (int single = 0; single < 2; single++)
            test_bad_systems(devs[d].dev, devs[d].name, single);
        test_interrupt(devs[d].dev, devs[d].name);
    }
    test_errors();
    printf("%d passed, %d failed\n", passed, failed);
    if (counts) {
        FILE *f = fopen(counts, "w");
        if (f) {
            fprintf(f, "%d %d\n", passed, failed);
            fclose(f);
        }
    }
    return failed ? 1 : 0;
}
