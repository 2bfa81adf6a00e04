/*
 * test_core.c -- tests of the batchsym C core against a plain reference
 * (Gaussian elimination with partial pivoting in long double; for the
 * eigensolvers, cyclic Jacobi in long double and matrices with known
 * eigenvalues). Runs every case on the CPU, and on the GPU too when one is
 * usable (then also CPU against GPU on the same eigenvalue batches).
 *
 *   test_core [--counts FILE] [--verbose]   prints one line per failure and a
 *   summary "N passed, N failed"; FILE gets "P F"; --verbose also prints the
 *   worst measured error of each family of checks, relative to n eps.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define BSYM_TEST_FORK 1
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#else
#define BSYM_TEST_FORK 0
#endif

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

/* Solves a batch through the core with the given method, precision and
 * device; returns the status; x gets the solutions as doubles. */
static bsym_status run_method(bsym_device dev, int single, bsym_method method, char uplo, int n,
                              int nrhs, int batch, const double *A, const double *B, double *x,
                              int *info)
{
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    size_t na = (size_t)n * n * batch, nb = (size_t)n * nrhs * batch;
    bsym_status st;
    if (!single) {
        memcpy(x, B, nb * sizeof(double));
        st = bsym_dsolve(ctx, method, uplo, n, nrhs, batch, A, x, info);
    } else {
        float *fa = malloc(sizeof(float) * (na + 1)), *fx = malloc(sizeof(float) * (nb + 1));
        for (size_t i = 0; i < na; i++)
            fa[i] = (float)A[i];
        for (size_t i = 0; i < nb; i++)
            fx[i] = (float)B[i];
        st = bsym_ssolve(ctx, method, uplo, n, nrhs, batch, fa, fx, info);
        for (size_t i = 0; i < nb; i++)
            x[i] = fx[i];
        free(fa);
        free(fx);
    }
    bsym_ctx_destroy(ctx);
    return st;
}

/* The LDL^T solve (see run_method). */
static bsym_status run(bsym_device dev, int single, char uplo, int n, int nrhs, int batch,
                       const double *A, const double *B, double *x, int *info)
{
    return run_method(dev, single, BSYM_METHOD_LDLT, uplo, n, nrhs, batch, A, B, x, info);
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

/* The same kinds of bad systems at an order n of the GPU's block kernel
 * (64 < n <= 256): a NaN in the referenced triangle, a zero pivot at row z, a
 * rank-one matrix, a NaN right-hand side, between SPD systems; info as the
 * CPU gives it, NaN solutions for the bad systems, the others solved as on
 * the CPU. */
static void test_bad_systems_big(bsym_device dev, const char *dname, int single, int n)
{
    enum { BATCH = 6, NRHS = 2 };
    const size_t nn = (size_t)n * n, nb = (size_t)n * NRHS;
    const int z = n / 2 + 1; /* the zero pivot's row: info z + 1 */
    double *A = malloc(sizeof(double) * nn * BATCH), *B = malloc(sizeof(double) * nb * BATCH);
    double *x = malloc(sizeof(double) * nb * BATCH), *xc = malloc(sizeof(double) * nb * BATCH);
    int info[BATCH], infoc[BATCH];
    for (int k = 0; k < BATCH; k++)
        spd(n, A + k * nn);
    for (size_t i = 0; i < nb * BATCH; i++)
        B[i] = urand();
    A[1 * nn + (n - 1) + 3 * n] = NAN;          /* system 1: NaN at (n-1, 3), lower */
    memset(A + 2 * nn, 0, sizeof(double) * nn); /* system 2: diag, zero at row z */
    for (int i = 0; i < n; i++)
        A[2 * nn + i + (size_t)i * n] = i == z ? 0.0 : 2.0;
    for (size_t i = 0; i < nn; i++)             /* system 3: all ones, D_2 = 0 */
        A[3 * nn + i] = 1.0;
    B[4 * nb + n + 7] = NAN;                    /* system 4: NaN in the second right-hand side */
    bsym_status st = run(dev, single, 'L', n, NRHS, BATCH, A, B, x, info);
    bsym_status stc = run(BSYM_DEVICE_CPU, single, 'L', n, NRHS, BATCH, A, B, xc, infoc);
    char what[128];
    snprintf(what, sizeof what, "bad systems n=%d %s status", n, single ? "float" : "double");
    check(st == BSYM_OK && stc == BSYM_OK, what, dname, st, stc);
    const int want[BATCH] = {0, -1, z + 1, 2, -1, 0};
    double eps = single ? FLT_EPSILON : DBL_EPSILON, worst = 0;
    int codes = 1, nan_bad = 1, good = 1;
    for (int k = 0; k < BATCH; k++) {
        codes &= info[k] == want[k] && infoc[k] == want[k];
        for (size_t i = 0; i < nb; i++) {
            double v = x[k * nb + i], vc = xc[k * nb + i];
            if (want[k] != 0)
                nan_bad &= isnan(v) != 0;
            else if (!isfinite(v))
                good = 0;
            else if (fabs(v - vc) > worst * (fabs(vc) + 1))
                worst = fabs(v - vc) / (fabs(vc) + 1);
        }
    }
    snprintf(what, sizeof what, "bad systems n=%d %s: info as the CPU's and as expected", n, single ? "float" : "double");
    check(codes, what, dname, info[2], z + 1);
    check(nan_bad, "bad systems n > 64: failed systems are NaN", dname, n, 0);
    snprintf(what, sizeof what, "bad systems n=%d %s: good ones as on the CPU (%.3g <= 200 n eps)", n,
             single ? "float" : "double", worst);
    check(good && worst <= 200.0 * n * eps, what, dname, n, 0);
    free(A); free(B); free(x); free(xc);
}

/* Every order of the GPU's LDL^T, 1 to BSYM_GPU_LDLT_MAX_N, float and double:
 * the register kernel (n <= 64) and the block kernel (above; double n > 224
 * with its tiles in global memory on Hopper), both triangles, one and three
 * right-hand sides; a batch larger than the resident blocks at n = 100
 * (float) and 240 (double), so that blocks of the persistent grid solve
 * several systems. */
static void test_ldlt_gpu_orders(const char *dname)
{
    for (int n = 1; n <= BSYM_GPU_LDLT_MAX_N; n++)
        for (int single = 0; single < 2; single++) {
            test_random(BSYM_DEVICE_GPU, dname, single, 'L', n, 1, n <= 64 ? 5 : 2);
            test_random(BSYM_DEVICE_GPU, dname, single, 'U', n, 3, 1);
        }
    test_random(BSYM_DEVICE_GPU, dname, 1, 'L', 100, 1, 1500);
    test_random(BSYM_DEVICE_GPU, dname, 0, 'U', 240, 2, 300);
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
    /* n above the GPU limit (256): a clear size error on the GPU, CPU under auto */
    int n = BSYM_GPU_LDLT_MAX_N + 1;
    double *A = calloc((size_t)n * n, sizeof(double)), *B = calloc(n, sizeof(double));
    for (int i = 0; i < n; i++) {
        A[i + i * n] = 4;
        B[i] = 1;
    }
    if (bsym_gpu_available())
        check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, 1, A, B, info) == BSYM_ERR_SIZE,
              "n > BSYM_GPU_LDLT_MAX_N on the GPU is a size error", "gpu", n, 0);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_AUTO);
    check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, 1, A, B, info) == BSYM_OK &&
              fabs(B[0] - 0.25) < 1e-15 && bsym_ctx_last_device(ctx) == BSYM_DEVICE_CPU,
          "n > BSYM_GPU_LDLT_MAX_N under auto runs on the CPU", "auto", n, 0);
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

/* An argument error whose message names gpus. */
static int gpus_error(bsym_ctx *ctx, bsym_status st)
{
    return st == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "gpus") != NULL;
}

/* The GPUs of a context (bsym_ctx_set_gpus, bsym_ctx_gpus) and the host
 * link's rates (bsym_gpu_link_rate); with GPUs, the results of a batch spread
 * over all of them equal those of each GPU alone, bit for bit. */
static void test_gpus(void)
{
    bsym_device_info di;
    bsym_get_device_info(&di);
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    int out[BSYM_MAX_GPUS], ids[BSYM_MAX_GPUS + 1];
    for (int i = 0; i <= BSYM_MAX_GPUS; i++)
        ids[i] = i;
    const int expect = di.gpu_available ? (di.device_count < BSYM_MAX_GPUS ? di.device_count : BSYM_MAX_GPUS) : 0;
    int visible = bsym_ctx_gpus(ctx, out, BSYM_MAX_GPUS), in_order = 1;
    for (int i = 0; i < visible; i++)
        in_order &= out[i] == i;
    check(visible == expect && in_order, "by default every visible GPU (0 without a usable one)", "-", visible,
          expect);

    /* the rules, each an argument error naming gpus */
    const int neg[] = {0, -1}, dup[] = {0, 0};
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, neg, 2)), "gpus: a negative id", "-", 0, 0);
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, dup, 2)), "gpus: an id twice", "-", 0, 0);
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, ids, BSYM_MAX_GPUS + 1)), "gpus: more than BSYM_MAX_GPUS ids",
          "-", BSYM_MAX_GPUS + 1, 0);
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, NULL, 1)), "gpus: NULL ids with count 1", "-", 0, 0);
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, ids, -1)), "gpus: a negative count", "-", -1, 0);
    check(bsym_ctx_set_gpus(NULL, ids, 1) == BSYM_ERR_ARG, "gpus: NULL context", "-", 0, 0);
    check(bsym_ctx_set_gpus(ctx, NULL, 0) == BSYM_OK && bsym_ctx_message(ctx)[0] == '\0' &&
              bsym_ctx_gpus(ctx, out, BSYM_MAX_GPUS) == visible,
          "gpus: count 0 is every visible GPU", "-", 0, 0);
    check(bsym_ctx_gpus(ctx, out, 0) == 0, "bsym_ctx_gpus with max 0 lists none", "-", 0, 0);

    double h2d = -1, d2h = -1;
    if (!di.gpu_available) {
        /* nothing is visible, so only the ids' form is checked: accepted, none used */
        const int some[] = {0, 3, 7};
        check(bsym_ctx_set_gpus(ctx, some, 3) == BSYM_OK && bsym_ctx_gpus(ctx, out, BSYM_MAX_GPUS) == 0,
              "gpus without a GPU: ids >= 0 accepted, none used", "-", 0, 0);
        check(bsym_ctx_set_gpus(ctx, ids, BSYM_MAX_GPUS) == BSYM_OK, "gpus: BSYM_MAX_GPUS ids", "-", 0, 0);
        bsym_status st = bsym_gpu_link_rate(ctx, 0, (size_t)1 << 20, &h2d, &d2h);
        check(st == BSYM_ERR_NODEVICE && bsym_ctx_message(ctx)[0] != '\0', "link rate without a GPU: no device",
              "-", st, 0);
        /* a CPU call does not care which GPUs were chosen */
        double a[4] = {2, 0, 0, 2}, b[2] = {1, 1};
        int info[1] = {9};
        bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
        check(bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', 2, 1, 1, a, b, info) == BSYM_OK && b[0] == 0.5 && info[0] == 0,
              "gpus chosen, a CPU call as before", "cpu", 0, 0);
        bsym_ctx_destroy(ctx);
        return;
    }

    /* with GPUs: an id past the visible ones, the last one alone, the link */
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, &visible, 1)), "gpus: an id past the visible GPUs", "gpu", visible, 0);
    const int last = visible - 1;
    check(bsym_ctx_set_gpus(ctx, &last, 1) == BSYM_OK && bsym_ctx_gpus(ctx, out, BSYM_MAX_GPUS) == 1 &&
              out[0] == last,
          "gpus: the last GPU alone", "gpu", last, 0);
    check(gpus_error(ctx, bsym_ctx_set_gpus(ctx, dup, 2)) && bsym_ctx_gpus(ctx, out, BSYM_MAX_GPUS) == 1 &&
              out[0] == last,
          "gpus: a refused list leaves the last choice", "gpu", 0, 0);
    bsym_status st = bsym_gpu_link_rate(ctx, last, (size_t)16 << 20, &h2d, &d2h);
    check(st == BSYM_OK && h2d > 0 && d2h > 0 && isfinite(h2d) && isfinite(d2h), "link rate of the last GPU", "gpu",
          st, 0);
    check(bsym_gpu_link_rate(ctx, visible, (size_t)1 << 20, &h2d, &d2h) == BSYM_ERR_ARG,
          "link rate of a GPU past the visible ones", "gpu", visible, 0);
    int every[BSYM_MAX_GPUS];
    const int nevery = visible < BSYM_MAX_GPUS ? visible : BSYM_MAX_GPUS;
    for (int g = 0; g < nevery; g++)
        every[g] = g;
    st = bsym_gpus_link_rate(ctx, every, nevery, (size_t)16 << 20, &h2d, &d2h);
    check(st == BSYM_OK && h2d > 0 && d2h > 0 && isfinite(h2d) && isfinite(d2h),
          "link rate of every GPU at once", "gpu", st, nevery);
    check(bsym_gpus_link_rate(ctx, dup, 2, (size_t)1 << 20, &h2d, &d2h) == BSYM_ERR_ARG,
          "link rate of a GPU named twice", "gpu", 0, 0);
    check(bsym_gpus_link_rate(ctx, every, 0, (size_t)1 << 20, &h2d, &d2h) == BSYM_ERR_ARG,
          "link rate of no GPU", "gpu", 0, 0);

    /* a batch big enough for every GPU to get a share (> 32 MiB of A each):
     * all GPUs, then each alone, the same bits */
    const int n = 32, batch = 8200 * visible + 37;
    const size_t na = (size_t)n * n * batch, nb = (size_t)n * batch;
    double *A = malloc(sizeof(double) * na), *B = malloc(sizeof(double) * nb);
    double *x0 = malloc(sizeof(double) * nb), *x = malloc(sizeof(double) * nb);
    int *info0 = malloc(sizeof(int) * batch), *info = malloc(sizeof(int) * batch);
    spd(n, A);
    for (int k = 1; k < batch; k++) {
        memcpy(A + (size_t)k * n * n, A, sizeof(double) * n * n);
        A[(size_t)k * n * n] += (double)k / batch;
    }
    for (size_t i = 0; i < nb; i++)
        B[i] = urand();
    bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
    bsym_ctx_set_gpus(ctx, NULL, 0);
    memcpy(x0, B, sizeof(double) * nb);
    st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, batch, A, x0, info0);
    check(st == BSYM_OK && bsym_ctx_last_device(ctx) == BSYM_DEVICE_GPU, "a batch over every GPU", "gpu", st,
          visible);
    for (int g = 0; g < visible; g++) {
        bsym_ctx_set_gpus(ctx, &g, 1);
        memcpy(x, B, sizeof(double) * nb);
        st = bsym_dsolve(ctx, BSYM_METHOD_LDLT, 'L', n, 1, batch, A, x, info);
        check(st == BSYM_OK && memcmp(x, x0, sizeof(double) * nb) == 0 &&
                  memcmp(info, info0, sizeof(int) * batch) == 0,
              "one GPU alone gives the bits of every GPU", "gpu", g, st);
    }
    free(A); free(B); free(x0); free(x); free(info0); free(info);
    bsym_ctx_destroy(ctx);
}

/* ==== Householder tridiagonalization, tridiagonal solves (PCR) and ========
 * ==== BSYM_METHOD_TRIDIAG ================================================= */

/* Bounds: a check passes when the error is at most BOUND_C * n * eps of the
 * working precision (n = order of the system). */
#define BOUND_C 10.0

static int verbose; /* --verbose: print the worst measured figures */

/* Worst error / (n eps) per family, device and precision, for --verbose. */
#define MAX_FAMILIES 32
static struct {
    const char *family;
    double worst[2][2]; /* [gpu][single] */
    int seen[2][2];
} figures[MAX_FAMILIES];

static void note(const char *family, bsym_device dev, int single, double err, int n)
{
    double eps = single ? FLT_EPSILON : DBL_EPSILON, ratio = err / (n * eps);
    int g = dev == BSYM_DEVICE_GPU, f = 0;
    while (f < MAX_FAMILIES && figures[f].family != NULL && strcmp(figures[f].family, family) != 0)
        f++;
    if (f == MAX_FAMILIES)
        return;
    figures[f].family = family;
    if (!figures[f].seen[g][single] || !(ratio <= figures[f].worst[g][single]))
        figures[f].worst[g][single] = ratio;
    figures[f].seen[g][single] = 1;
}

static void print_figures(void)
{
    printf("worst error / (n eps) per family (bound %g):\n", BOUND_C);
    for (int f = 0; f < MAX_FAMILIES && figures[f].family != NULL; f++)
        for (int g = 0; g < 2; g++)
            for (int s = 0; s < 2; s++)
                if (figures[f].seen[g][s])
                    printf("  %-44s %s %-6s %.3g\n", figures[f].family, g ? "gpu" : "cpu",
                           s ? "float" : "double", figures[f].worst[g][s]);
}

/* Rounds len values to float in single precision (so that the reference
 * and the core see the same numbers). */
static void to_precision(int single, size_t len, double *v)
{
    for (size_t i = 0; single && i < len; i++)
        v[i] = (float)v[i];
}

/* Random symmetric (indefinite) matrix, entries uniform in [-1, 1). */
static void sym_random(int n, double *a)
{
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            a[i + j * n] = a[j + i * n] = urand();
}

/* NaN in the triangle that uplo says must not be read. */
static void poison(char uplo, int n, double *a)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if ((uplo == 'L' && i < j) || (uplo == 'U' && i > j))
                a[i + j * n] = NAN;
}

/* A copy of a batch in float (at least one element, so never malloc(0)). */
static float *to_float(size_t len, const double *v)
{
    float *f = malloc(sizeof(float) * (len + 1));
    for (size_t i = 0; v != NULL && i < len; i++)
        f[i] = (float)v[i];
    return f;
}

static void from_float(size_t len, const float *f, double *v)
{
    for (size_t i = 0; v != NULL && i < len; i++)
        v[i] = f[i];
}

static bsym_ctx *ctx_on(bsym_device dev)
{
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    return ctx;
}

/* bsym_*tridiagonalize in the given precision and device (Q may be NULL). */
static bsym_status run_trd(bsym_device dev, int single, char uplo, int n, int batch, const double *A,
                           double *d, double *e, double *Q, int *info)
{
    bsym_ctx *ctx = ctx_on(dev);
    size_t na = (size_t)n * n * batch, nd = (size_t)n * batch, ne = (size_t)(n > 1 ? n - 1 : 0) * batch;
    bsym_status st;
    if (!single) {
        st = bsym_dtridiagonalize(ctx, uplo, n, batch, A, d, e, Q, info);
    } else {
        float *fa = to_float(na, A), *fd = to_float(nd, NULL), *fe = to_float(ne, NULL);
        float *fq = Q != NULL ? to_float(na, NULL) : NULL;
        st = bsym_stridiagonalize(ctx, uplo, n, batch, fa, fd, fe, fq, info);
        from_float(nd, fd, d);
        from_float(ne, fe, e);
        if (Q != NULL)
            from_float(na, fq, Q);
        free(fa); free(fd); free(fe); free(fq);
    }
    bsym_ctx_destroy(ctx);
    return st;
}

/* ||A - Q T Q^T||_max / ||A||_max (*rec) and ||Q^T Q - I||_max (*orth) of
 * one system, A full, in long double. */
static void trd_errors(int n, const double *a, const double *d, const double *e, const double *q,
                       double *rec, double *orth)
{
    long double *qt = malloc(sizeof(long double) * n * n), amax = 0, diff = 0, o = 0;
    for (int j = 0; j < n; j++) /* Q T, column j */
        for (int i = 0; i < n; i++)
            qt[i + j * n] = (long double)q[i + j * n] * d[j] +
                            (j > 0 ? (long double)q[i + (j - 1) * n] * e[j - 1] : 0) +
                            (j < n - 1 ? (long double)q[i + (j + 1) * n] * e[j] : 0);
    for (int l = 0; l < n; l++)
        for (int i = 0; i < n; i++) {
            long double r = 0, g = 0;
            for (int j = 0; j < n; j++) {
                r += qt[i + j * n] * q[l + j * n];
                g += (long double)q[j + i * n] * q[j + l * n];
            }
            amax = fmaxl(amax, fabsl(a[i + l * n]));
            diff = fmaxl(diff, fabsl(a[i + l * n] - r));
            o = fmaxl(o, fabsl(g - (i == l)));
        }
    *rec = (double)(diff / (amax > 0 ? amax : 1));
    *orth = (double)o;
    free(qt);
}

/* Random symmetric batch: A = Q T Q^T and Q orthogonal within the bound,
 * the unread triangle poisoned; Q == NULL gives the same d and e. */
static void test_tridiagonalize(bsym_device dev, const char *dname, int single, char uplo, int n,
                                int batch)
{
    size_t nn = (size_t)n * n, ne = (size_t)(n > 1 ? n - 1 : 0);
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *d = malloc(sizeof(double) * n * batch), *e = malloc(sizeof(double) * (ne * batch + 1));
    double *d2 = malloc(sizeof(double) * n * batch), *e2 = malloc(sizeof(double) * (ne * batch + 1));
    double *Q = malloc(sizeof(double) * nn * batch);
    int *info = malloc(sizeof(int) * batch);
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    to_precision(single, nn * batch, full);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++)
        poison(uplo, n, A + k * nn);
    char what[160];
    const char *prec = single ? "float" : "double";
    bsym_status st = run_trd(dev, single, uplo, n, batch, A, d, e, Q, info);
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_HOUSEHOLDER_MAX_N) {
        check(st == BSYM_ERR_SIZE, "tridiagonalize n > BSYM_GPU_HOUSEHOLDER_MAX_N on the GPU is a size error",
              dname, n, st);
        goto done;
    }
    check(st == BSYM_OK, "tridiagonalize status", dname, n, st);
    double eps = single ? FLT_EPSILON : DBL_EPSILON, wrec = 0, worth = 0;
    int bad_info = 0;
    for (int k = 0; k < batch && st == BSYM_OK; k++) {
        double rec, orth;
        bad_info |= info[k] != 0;
        trd_errors(n, full + k * nn, d + k * n, e + k * ne, Q + k * nn, &rec, &orth);
        wrec = rec <= wrec ? wrec : rec; /* NaN sticks */
        worth = orth <= worth ? worth : orth;
    }
    check(!bad_info, "tridiagonalize info all zero", dname, n, batch);
    snprintf(what, sizeof what, "tridiagonalize %s uplo=%c ||A - QTQ'||/||A|| %.3g <= %g n eps", prec,
             uplo, wrec, BOUND_C);
    check(wrec <= BOUND_C * n * eps, what, dname, n, batch);
    snprintf(what, sizeof what, "tridiagonalize %s uplo=%c ||Q'Q - I|| %.3g <= %g n eps", prec, uplo,
             worth, BOUND_C);
    check(worth <= BOUND_C * n * eps, what, dname, n, batch);
    note("tridiagonalize ||A - QTQ'|| / ||A||", dev, single, wrec, n);
    note("tridiagonalize ||Q'Q - I||", dev, single, worth, n);
    /* Q not wanted: the same d and e (exactly on the CPU) */
    st = run_trd(dev, single, uplo, n, batch, A, d2, e2, NULL, info);
    double ddiff = 0, scale = 0;
    for (size_t i = 0; i < (size_t)n * batch; i++) {
        ddiff = fmax(ddiff, fabs(d[i] - d2[i]));
        scale = fmax(scale, fabs(d[i]));
    }
    for (size_t i = 0; i < ne * batch; i++) {
        ddiff = fmax(ddiff, fabs(fabs(e[i]) - fabs(e2[i])));
        scale = fmax(scale, fabs(e[i]));
    }
    double tol = dev == BSYM_DEVICE_CPU ? 0 : BOUND_C * n * eps * scale;
    check(st == BSYM_OK && ddiff <= tol, "tridiagonalize with Q = NULL gives the same d and e",
          dname, n, batch);
done:
    free(A); free(full); free(d); free(e); free(d2); free(e2); free(Q); free(info);
}

/* Systems with Inf or NaN in the referenced triangle get info -1 and NaN
 * outputs; NaN in the other triangle is never read; neighbours are fine. */
static void test_tridiagonalize_bad(bsym_device dev, const char *dname, int single, char uplo, int n)
{
    const int batch = 7;
    size_t nn = (size_t)n * n, ne = n - 1;
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *d = malloc(sizeof(double) * n * batch), *e = malloc(sizeof(double) * ne * batch);
    double *Q = malloc(sizeof(double) * nn * batch);
    int info[7];
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    to_precision(single, nn * batch, full);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++)
        poison(uplo, n, A + k * nn);
    /* system 3: Inf at (n-1, 1) or (1, n-1); system 5: NaN on the diagonal */
    A[3 * nn + (uplo == 'L' ? (n - 1) + 1 * n : 1 + (n - 1) * n)] = INFINITY;
    A[5 * nn + (n / 2) * (n + 1)] = NAN;
    bsym_status st = run_trd(dev, single, uplo, n, batch, A, d, e, Q, info);
    check(st == BSYM_OK, "tridiagonalize bad systems status", dname, n, st);
    check(info[3] == -1 && info[5] == -1, "tridiagonalize non-finite input gives info -1", dname,
          info[3], info[5]);
    int nan_bad = 1, good = 1;
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    for (int k = 0; k < batch; k++) {
        if (k == 3 || k == 5) {
            for (size_t i = 0; i < nn; i++)
                nan_bad &= isnan(Q[k * nn + i]) && (i >= (size_t)n || isnan(d[k * n + i])) &&
                           (i >= ne || isnan(e[k * ne + i]));
        } else {
            double rec, orth;
            trd_errors(n, full + k * nn, d + k * n, e + k * ne, Q + k * nn, &rec, &orth);
            good &= info[k] == 0 && rec <= BOUND_C * n * eps && orth <= BOUND_C * n * eps;
        }
    }
    check(nan_bad, "tridiagonalize: d, e and Q of failed systems are NaN", dname, n, 0);
    check(good, "tridiagonalize: the other systems are fine", dname, n, 0);
    free(A); free(full); free(d); free(e); free(Q);
}

/* Scaling A by 2^p (p = +-1000 in double, +-100 in float: near overflow or
 * underflow of the squares) scales d and e by 2^p and leaves Q alone, and
 * the TRIDIAG solution scales by 2^-p: exactly on the CPU (power-of-two
 * scaling inside), within the bound elsewhere. */
static void test_tridiagonalize_scaling(bsym_device dev, const char *dname, int single, int p)
{
    const int n = 16, batch = 3;
    size_t nn = (size_t)n * n;
    double A[16 * 16 * 3], As[16 * 16 * 3], d[16 * 3], e[15 * 3], Q[16 * 16 * 3];
    double ds[16 * 3], es[15 * 3], Qs[16 * 16 * 3], B[16 * 3], x[16 * 3], xs[16 * 3];
    int info[3], infos[3];
    for (int k = 0; k < batch; k++)
        sym_random(n, A + k * nn);
    for (int i = 0; i < n * batch; i++)
        B[i] = urand();
    to_precision(single, nn * batch, A);
    to_precision(single, (size_t)n * batch, B);
    for (size_t i = 0; i < nn * batch; i++)
        As[i] = ldexp(A[i], p);
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    double tol = dev == BSYM_DEVICE_CPU ? 0 : BOUND_C * n * eps, err = 0, errq = 0, errx = 0;
    bsym_status st = run_trd(dev, single, 'L', n, batch, A, d, e, Q, info);
    bsym_status st2 = run_trd(dev, single, 'L', n, batch, As, ds, es, Qs, infos);
    for (int i = 0; i < n * batch; i++)
        err = fmax(err, fabs(ldexp(ds[i], -p) - d[i]));
    for (int i = 0; i < (n - 1) * batch; i++)
        err = fmax(err, fabs(ldexp(es[i], -p) - e[i]));
    for (size_t i = 0; i < nn * batch; i++)
        errq = fmax(errq, fabs(Qs[i] - Q[i]));
    st = st == BSYM_OK && st2 == BSYM_OK ? BSYM_OK : (st != BSYM_OK ? st : st2);
    run_method(dev, single, BSYM_METHOD_TRIDIAG, 'L', n, 1, batch, A, B, x, info + 0);
    run_method(dev, single, BSYM_METHOD_TRIDIAG, 'L', n, 1, batch, As, B, xs, infos + 0);
    double xmax = 0;
    for (int i = 0; i < n * batch; i++) {
        errx = fmax(errx, fabs(ldexp(xs[i], p) - x[i]));
        xmax = fmax(xmax, fabs(x[i]));
    }
    char what[160];
    snprintf(what, sizeof what, "tridiagonalize and TRIDIAG of 2^%d A scale as they should (%s)", p,
             single ? "float" : "double");
    check(st == BSYM_OK && info[0] == 0 && infos[0] == 0 && err <= tol * 4 && errq <= tol &&
              errx <= tol * xmax * 1e3,
          what, dname, p, 0);
}

/* ---- tridiagonal solves ---- */

/* bsym_*tridiag_solve in the given precision and device (du NULL: symmetric);
 * x gets the solutions. */
static bsym_status run_pcr(bsym_device dev, int single, int n, int nrhs, int batch,
                           const double *dl, const double *d, const double *du, const double *B,
                           double *x, int *info)
{
    bsym_ctx *ctx = ctx_on(dev);
    size_t ne = (size_t)(n > 1 ? n - 1 : 0) * batch, nd = (size_t)n * batch,
           nb = (size_t)n * nrhs * batch;
    bsym_status st;
    if (!single) {
        memcpy(x, B, sizeof(double) * nb);
        st = bsym_dtridiag_solve(ctx, n, nrhs, batch, dl, d, du, x, info);
    } else {
        float *fl = to_float(ne, dl), *fd = to_float(nd, d), *fu = du ? to_float(ne, du) : NULL;
        float *fx = to_float(nb, B);
        st = bsym_stridiag_solve(ctx, n, nrhs, batch, fl, fd, fu, fx, info);
        from_float(nb, fx, x);
        free(fl); free(fd); free(fu); free(fx);
    }
    bsym_ctx_destroy(ctx);
    return st;
}

/* The kinds of tridiagonal test systems. */
enum { TRI_GENERAL, TRI_SYMMETRIC, TRI_SPD };
static const char *tri_kind_name[] = {"general diag. dominant", "symmetric diag. dominant",
                                      "SPD not diag. dominant"};

/* One random system of a kind: dl, du (n-1 each; du unused for the
 * symmetric kinds), d (n). TRI_SPD is T = L L^T with L lower bidiagonal,
 * L(i,i) = l_i log-uniform in [1/3, 3], L(i+1,i) = r_i l_{i+1}, |r_i| <= 0.9
 * (so that cond(L) stays moderate while T is far from diagonally dominant
 * where l jumps). Returns the number of rows that are not diagonally
 * dominant. */
static int tri_random(int kind, int n, double *dl, double *d, double *du)
{
    if (kind == TRI_SPD) {
        double *l = malloc(sizeof(double) * n);
        for (int i = 0; i < n; i++)
            l[i] = exp(urand() * log(3.0));
        for (int i = 0; i < n; i++) {
            double m_prev = i > 0 ? 0.9 * urand() * l[i] : 0; /* L(i, i-1) */
            d[i] = l[i] * l[i] + m_prev * m_prev;
            if (i > 0)
                dl[i - 1] = m_prev * l[i - 1];                /* T(i, i-1) */
        }
        free(l);
    } else {
        for (int i = 0; i + 1 < n; i++) {
            dl[i] = urand();
            if (kind == TRI_GENERAL)
                du[i] = urand();
        }
        const double *up = kind == TRI_GENERAL ? du : dl;
        for (int i = 0; i < n; i++) {
            double off = (i > 0 ? fabs(dl[i - 1]) : 0) + (i + 1 < n ? fabs(up[i]) : 0);
            d[i] = (urand() < 0 ? -1 : 1) * (off + 0.5 + fabs(urand()));
        }
    }
    const double *up = kind == TRI_GENERAL ? du : dl;
    int weak = 0;
    for (int i = 0; i < n; i++)
        weak += fabs(d[i]) <= (i > 0 ? fabs(dl[i - 1]) : 0) + (i + 1 < n ? fabs(up[i]) : 0);
    return weak;
}

/* x = T^{-1} b by the Thomas algorithm in long double (du NULL: du = dl);
 * fine for the diagonally dominant and SPD test systems. */
static void thomas(int n, const double *dl, const double *d, const double *du, const double *b,
                   long double *x)
{
    long double *c = malloc(sizeof(long double) * n);
    const double *up = du != NULL ? du : dl;
    for (int i = 0; i < n; i++) {
        long double piv = d[i] - (i > 0 ? dl[i - 1] * c[i - 1] : 0);
        c[i] = i + 1 < n ? up[i] / piv : 0;
        x[i] = (b[i] - (i > 0 ? dl[i - 1] * x[i - 1] : 0)) / piv;
    }
    for (int i = n - 2; i >= 0; i--)
        x[i] -= c[i] * x[i + 1];
    free(c);
}

/* Forward error max|x - ref| / max|ref| and backward error
 * ||b - T x|| / (||T|| ||x|| + ||b||) (max norms) of one solution. */
static void tri_errors(int n, const double *dl, const double *d, const double *du, const double *b,
                       const double *x, const long double *ref, double *fwd, double *bwd)
{
    const double *up = du != NULL ? du : dl;
    long double num = 0, den = 0, r = 0, tn = 0, xn = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        long double lo = i > 0 ? dl[i - 1] : 0, hi = i + 1 < n ? up[i] : 0;
        long double ri = b[i] - (lo * (i > 0 ? x[i - 1] : 0) + (long double)d[i] * x[i] +
                                 hi * (i + 1 < n ? x[i + 1] : 0));
        r = fmaxl(r, fabsl(ri));
        tn = fmaxl(tn, fabsl(lo) + fabsl(d[i]) + fabsl(hi));
        xn = fmaxl(xn, fabsl(x[i]));
        bn = fmaxl(bn, fabsl(b[i]));
        num = fmaxl(num, fabsl(x[i] - ref[i]));
        den = fmaxl(den, fabsl(ref[i]));
        if (isnan(x[i]))
            num = r = NAN;
    }
    *fwd = (double)(num / (den > 0 ? den : 1));
    *bwd = (double)(r / (tn * xn + bn > 0 ? tn * xn + bn : 1));
}

/* A random batch of one kind against the long double reference: forward
 * error within the bound for the diagonally dominant kinds (their condition
 * numbers are small), backward error within the bound for all. */
static void test_tridiag(bsym_device dev, const char *dname, int single, int kind, int n, int nrhs,
                         int batch)
{
    size_t ne = (size_t)(n > 1 ? n - 1 : 0), nb = (size_t)n * nrhs;
    double *dl = malloc(sizeof(double) * (ne * batch + 1)), *du = malloc(sizeof(double) * (ne * batch + 1));
    double *d = malloc(sizeof(double) * n * batch), *B = malloc(sizeof(double) * nb * batch);
    double *x = malloc(sizeof(double) * nb * batch);
    long double *ref = malloc(sizeof(long double) * n);
    int *info = malloc(sizeof(int) * batch), weak = 0;
    const int sym = kind != TRI_GENERAL;
    for (int k = 0; k < batch; k++)
        weak += tri_random(kind, n, dl + k * ne, d + k * n, du + k * ne);
    for (size_t i = 0; i < nb * batch; i++)
        B[i] = urand();
    to_precision(single, ne * batch, dl);
    to_precision(single, ne * batch, du);
    to_precision(single, (size_t)n * batch, d);
    to_precision(single, nb * batch, B);
    bsym_status st = run_pcr(dev, single, n, nrhs, batch, dl, d, sym ? NULL : du, B, x, info);
    check(st == BSYM_OK, "tridiag_solve status", dname, n, st);
    if (kind == TRI_SPD && n >= 7)
        check(weak > 0, "the SPD test systems are not diagonally dominant", dname, n, weak);
    double eps = single ? FLT_EPSILON : DBL_EPSILON, wf = 0, wb = 0;
    int bad_info = 0;
    for (int k = 0; k < batch && st == BSYM_OK; k++) {
        bad_info |= info[k] != 0;
        for (int c = 0; c < nrhs; c++) {
            const double *b = B + k * nb + c * n, *xs = x + k * nb + c * n;
            const double *lk = dl + k * ne, *uk = sym ? NULL : du + k * ne;
            double fwd, bwd;
            thomas(n, lk, d + k * n, uk, b, ref);
            tri_errors(n, lk, d + k * n, uk, b, xs, ref, &fwd, &bwd);
            wf = fwd <= wf ? wf : fwd;
            wb = bwd <= wb ? wb : bwd;
        }
    }
    check(!bad_info, "tridiag_solve info all zero", dname, n, batch);
    char what[200];
    const char *prec = single ? "float" : "double";
    snprintf(what, sizeof what, "tridiag_solve %s %s nrhs=%d backward error %.3g <= %g n eps",
             tri_kind_name[kind], prec, nrhs, wb, BOUND_C);
    check(wb <= BOUND_C * n * eps, what, dname, n, batch);
    if (kind != TRI_SPD) {
        snprintf(what, sizeof what, "tridiag_solve %s %s nrhs=%d forward error %.3g <= %g n eps",
                 tri_kind_name[kind], prec, nrhs, wf, BOUND_C);
        check(wf <= BOUND_C * n * eps, what, dname, n, batch);
    }
    static const char *fam_f[] = {"tridiag_solve general: forward error", "tridiag_solve symmetric: forward error",
                                  "tridiag_solve SPD: forward error"};
    static const char *fam_b[] = {"tridiag_solve general: backward error", "tridiag_solve symmetric: backward error",
                                  "tridiag_solve SPD: backward error"};
    note(fam_f[kind], dev, single, wf, n);
    note(fam_b[kind], dev, single, wb, n);
    free(dl); free(du); free(d); free(B); free(x); free(ref); free(info);
}

/* A singular system (zero row) gets info > 0, NaN input info -1, both NaN
 * solutions; the neighbours are solved. */
static void test_tridiag_bad(bsym_device dev, const char *dname, int single, int sym, int n)
{
    const int batch = 6, nrhs = 2;
    size_t ne = n - 1, nb = (size_t)n * nrhs;
    double *dl = malloc(sizeof(double) * ne * batch), *du = malloc(sizeof(double) * ne * batch);
    double *d = malloc(sizeof(double) * n * batch), *B = malloc(sizeof(double) * nb * batch);
    double *x = malloc(sizeof(double) * nb * batch);
    long double *ref = malloc(sizeof(long double) * n);
    int info[6];
    const int kind = sym ? TRI_SYMMETRIC : TRI_GENERAL;
    for (int k = 0; k < batch; k++)
        tri_random(kind, n, dl + k * ne, d + k * n, du + k * ne);
    for (size_t i = 0; i < nb * batch; i++)
        B[i] = urand();
    to_precision(single, ne * batch, dl);
    to_precision(single, ne * batch, du);
    to_precision(single, (size_t)n * batch, d);
    to_precision(single, nb * batch, B);
    /* system 2: row 3 is zero (and column 3 in the symmetric case) */
    dl[2 * ne + 2] = d[2 * n + 3] = du[2 * ne + 3] = dl[2 * ne + 3] = 0;
    d[4 * n + 1] = NAN;                          /* system 4: NaN in d */
    B[5 * nb + nb - 1] = INFINITY;               /* system 5: Inf in the last rhs */
    bsym_status st = run_pcr(dev, single, n, nrhs, batch, dl, d, sym ? NULL : du, B, x, info);
    check(st == BSYM_OK, "tridiag_solve bad systems status", dname, n, st);
    check(info[2] > 0 && info[2] <= n, "tridiag_solve zero row gives info > 0", dname, n, info[2]);
    check(info[4] == -1 && info[5] == -1, "tridiag_solve NaN/Inf input gives info -1", dname,
          info[4], info[5]);
    int nan_bad = 1, good = 1;
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    for (int k = 0; k < batch; k++) {
        if (k == 2 || k == 4 || k == 5) {
            for (size_t i = 0; i < nb; i++)
                nan_bad &= isnan(x[k * nb + i]);
            continue;
        }
        for (int c = 0; c < nrhs; c++) {
            const double *b = B + k * nb + c * n, *lk = dl + k * ne, *uk = sym ? NULL : du + k * ne;
            double fwd, bwd;
            thomas(n, lk, d + k * n, uk, b, ref);
            tri_errors(n, lk, d + k * n, uk, b, x + k * nb + c * n, ref, &fwd, &bwd);
            good &= info[k] == 0 && fwd <= BOUND_C * n * eps;
        }
    }
    check(nan_bad, "tridiag_solve failed systems are NaN", dname, n, sym);
    check(good, "tridiag_solve other systems solved", dname, n, sym);
    free(dl); free(du); free(d); free(B); free(x); free(ref);
}

/* ---- BSYM_METHOD_TRIDIAG ---- */

/* Backward error ||b - A x|| / (||A|| ||x|| + ||b||) (max norms, A full). */
static double backward_error(int n, const double *a, const double *b, const double *x)
{
    long double r = 0, an = 0, xn = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        long double s = b[i], row = 0;
        for (int j = 0; j < n; j++) {
            s -= (long double)a[i + j * n] * x[j];
            row += fabsl(a[i + j * n]);
        }
        if (isnan(x[i]))
            return NAN;
        r = fmaxl(r, fabsl(s));
        an = fmaxl(an, row);
        xn = fmaxl(xn, fabsl(x[i]));
        bn = fmaxl(bn, fabsl(b[i]));
    }
    return (double)(r / (an * xn + bn > 0 ? an * xn + bn : 1));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Random symmetric indefinite batch (where LDL^T without pivoting is
 * unsafe) solved with BSYM_METHOD_TRIDIAG. Householder is backward stable;
 * PCR on the indefinite T does not pivot (a small diagonal entry of T brings
 * growth: before the fallback, 2-5% of random systems were above 10 n eps,
 * some above 1e4 n eps), so the solve checks PCR's residual on T and redoes
 * T with partial pivoting where it is not small. Every system must now be
 * within BOUND_C n eps, all finite with info 0. */
/* Random symmetric systems for method TRIDIAG's tests: full (both
 * triangles) and A (the uplo triangle, the other poisoned), right-hand
 * sides B, rounded to the working precision. */
static void tridiag_method_inputs(int single, char uplo, int n, int nrhs, int batch, double *A, double *full,
                                  double *B)
{
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    for (size_t i = 0; i < nb * batch; i++)
        B[i] = urand();
    to_precision(single, nn * batch, full);
    to_precision(single, nb * batch, B);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++)
        poison(uplo, n, A + k * nn);
}

static void test_tridiag_method(bsym_device dev, const char *dname, int single, char uplo, int n,
                                int nrhs, int batch)
{
    size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *B = malloc(sizeof(double) * nb * batch), *x = malloc(sizeof(double) * nb * batch);
    double *be = malloc(sizeof(double) * batch);
    int *info = malloc(sizeof(int) * batch);
    tridiag_method_inputs(single, uplo, n, nrhs, batch, A, full, B);
    bsym_status st = run_method(dev, single, BSYM_METHOD_TRIDIAG, uplo, n, nrhs, batch, A, B, x, info);
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_HOUSEHOLDER_MAX_N) {
        check(st == BSYM_ERR_SIZE, "method TRIDIAG n > BSYM_GPU_HOUSEHOLDER_MAX_N on the GPU is a size error",
              dname, n, st);
        goto done;
    }
    check(st == BSYM_OK, "method TRIDIAG status", dname, n, st);
    if (st != BSYM_OK)
        goto done;
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    int bad_info = 0;
    for (int k = 0; k < batch; k++) {
        bad_info |= info[k] != 0;
        be[k] = 0;
        for (int c = 0; c < nrhs; c++) {
            double e = backward_error(n, full + k * nn, B + k * nb + c * n, x + k * nb + c * n);
            be[k] = e <= be[k] ? be[k] : e; /* NaN sticks */
        }
        be[k] = isnan(be[k]) ? INFINITY : be[k];
    }
    qsort(be, batch, sizeof *be, cmp_double);
    int within = 0;
    for (int k = 0; k < batch; k++)
        within += be[k] <= BOUND_C * n * eps;
    double median = be[batch / 2], worst = be[batch - 1];
    check(!bad_info && isfinite(worst), "method TRIDIAG info all zero, solutions finite", dname, n, batch);
    char what[200];
    snprintf(what, sizeof what,
             "method TRIDIAG indefinite %s uplo=%c nrhs=%d: %d of %d systems with backward error <= %g n eps (median %.3g, worst %.3g)",
             single ? "float" : "double", uplo, nrhs, within, batch, BOUND_C, median, worst);
    check(within == batch, what, dname, n, batch);
    note("method TRIDIAG indefinite: median backward", dev, single, median, n);
    note("method TRIDIAG indefinite: worst backward", dev, single, worst, n);
done:
    free(A); free(full); free(B); free(x); free(be); free(info);
}

/* Inf in A / NaN in B give -1, singular systems with an exact zero pivot
 * give info > 0; a matrix whose second LDL^T pivot is zero, and -I, are
 * solved. A zero a_00 is T's first diagonal entry, a zero pivot of PCR
 * (which does not pivot): the pivoted fallback must solve it. */
static void test_tridiag_method_bad(bsym_device dev, const char *dname, int single)
{
    const int n = 5, batch = 8;
    double A[5 * 5 * 8], full[5 * 5 * 8], B[5 * 8], x[5 * 8], xl[5 * 8];
    int info[8], info_ldlt[8];
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * 25);
    full[0] = full[1] = full[5] = full[6] = 1;     /* system 0: LDL^T pivot 2 is 0 */
    memset(full + 3 * 25, 0, sizeof(double) * 25); /* system 3: zero matrix */
    for (int i = 0; i < 25; i++) {
        full[4 * 25 + i] = (i % 6 == 0 && i != 12) ? 1.0 : 0.0; /* system 4: diag(1, 1, 0, 1, 1) */
        full[5 * 25 + i] = (i % 6 == 0) ? -1.0 : 0.0;            /* system 5: -I */
    }
    full[7 * 25] = 0;                              /* system 7: a_00 = 0 */
    for (int i = 0; i < n * batch; i++)
        B[i] = urand();
    to_precision(single, 25 * 8, full);
    to_precision(single, 5 * 8, B);
    memcpy(A, full, sizeof A);
    A[1 * 25 + 3] = INFINITY;                      /* system 1: Inf in the lower triangle */
    B[2 * 5 + 4] = NAN;                            /* system 2: NaN right-hand side */
    bsym_status st = run_method(dev, single, BSYM_METHOD_TRIDIAG, 'L', n, 1, batch, A, B, x, info);
    check(st == BSYM_OK, "method TRIDIAG bad systems status", dname, st, 0);
    check(info[1] == -1 && info[2] == -1, "method TRIDIAG non-finite input gives info -1", dname,
          info[1], info[2]);
    check(info[3] > 0 && info[4] > 0, "method TRIDIAG exactly singular gives info > 0", dname,
          info[3], info[4]);
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    run(dev, single, 'L', n, 1, batch, A, B, xl, info_ldlt);
    check(info_ldlt[0] == 2 && info[0] == 0 && backward_error(n, full, B, x) <= BOUND_C * n * eps,
          "method TRIDIAG solves a system where LDL^T stops at pivot 2", dname, info_ldlt[0], info[0]);
    check(info[5] == 0 && fabs(x[5 * 5] + B[5 * 5]) <= 4 * eps * fabs(B[5 * 5]),
          "method TRIDIAG solves -I", dname, info[5], 0);
    int nan_bad = 1;
    for (int k = 1; k <= 4; k++)
        for (int i = 0; i < n; i++)
            nan_bad &= isnan(x[k * n + i]);
    check(nan_bad && info[6] == 0, "method TRIDIAG failed systems are NaN, the others solved", dname, 0, 0);
    check(info[7] == 0 && backward_error(n, full + 7 * 25, B + 7 * 5, x + 7 * 5) <= BOUND_C * n * eps,
          "method TRIDIAG with a_00 = 0 (a zero PCR pivot) is solved by the pivoted fallback", dname, info[7], 0);
}

/* Method TRIDIAG at any n: a NaN in the referenced triangle of system 2 and
 * an Inf in the right-hand sides of system 3 (of 6) give info -1 and NaN
 * solutions; the other systems are solved within the bound, info 0. */
static void test_tridiag_method_bad_n(bsym_device dev, const char *dname, int single, char uplo, int n)
{
    const int batch = 6, nrhs = 2;
    size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *B = malloc(sizeof(double) * nb * batch), *x = malloc(sizeof(double) * nb * batch);
    int info[6];
    tridiag_method_inputs(single, uplo, n, nrhs, batch, A, full, B);
    A[2 * nn + (uplo == 'L' ? (n - 1) + (n / 2) * n : (n / 2) + (n - 1) * n)] = NAN;
    B[3 * nb + nb - 1] = INFINITY;
    bsym_status st = run_method(dev, single, BSYM_METHOD_TRIDIAG, uplo, n, nrhs, batch, A, B, x, info);
    check(st == BSYM_OK, "method TRIDIAG bad systems status (any n)", dname, n, st);
    check(info[2] == -1 && info[3] == -1, "method TRIDIAG non-finite input gives info -1 (any n)", dname, info[2],
          info[3]);
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    int nan_bad = 1, good = 1;
    for (int k = 0; k < batch; k++)
        for (int c = 0; c < nrhs; c++) {
            const double *xc = x + k * nb + c * n;
            if (k == 2 || k == 3) {
                for (int i = 0; i < n; i++)
                    nan_bad &= isnan(xc[i]);
            } else {
                good &= info[k] == 0 && backward_error(n, full + k * nn, B + k * nb + c * n, xc) <= BOUND_C * n * eps;
            }
        }
    check(nan_bad, "method TRIDIAG: the failed systems' solutions are NaN (any n)", dname, n, 0);
    check(good, "method TRIDIAG: the systems beside the failed ones are solved (any n)", dname, n, 0);
    free(A); free(full); free(B); free(x);
}

/* The GPU Householder kernels at every n they take (the warp kernel up to
 * 64, the block kernel above: packed in shared memory, and with its first
 * columns in global memory for double near 256), both triangles and
 * precisions, one and several right-hand sides, a bad system among good
 * ones; then n = 257, a size error. subset (compute-sanitizer, whose
 * racecheck is slow on n^3 shared-memory accesses): one n of each block
 * kernel instantiation, 65 (a size class of 128 rows), 160 (256 rows) and,
 * in double only, 256 (the global head), few systems. */
static void test_tridiag_gpu_sizes(const char *dname, int subset)
{
    static const int few[] = {65, 160, BSYM_GPU_HOUSEHOLDER_MAX_N};
    const int count = subset ? (int)(sizeof few / sizeof *few) : BSYM_GPU_HOUSEHOLDER_MAX_N;
    for (int single = 0; single < 2; single++) {
        for (int s = 0; s < count; s++) {
            int n = subset ? few[s] : s + 1, big = n > 64;
            if (subset && n == BSYM_GPU_HOUSEHOLDER_MAX_N) {
                if (!single) {
                    test_tridiagonalize(BSYM_DEVICE_GPU, dname, single, 'L', n, 1);
                    test_tridiag_method(BSYM_DEVICE_GPU, dname, single, 'U', n, 3, 1);
                }
                continue;
            }
            test_tridiagonalize(BSYM_DEVICE_GPU, dname, single, 'L', n, big ? 2 : 5);
            test_tridiagonalize(BSYM_DEVICE_GPU, dname, single, 'U', n, big ? 1 : 3);
            test_tridiag_method(BSYM_DEVICE_GPU, dname, single, 'L', n, 1, big ? (subset ? 2 : 4) : 9);
            test_tridiag_method(BSYM_DEVICE_GPU, dname, single, 'U', n, 3, big ? (subset ? 1 : 3) : 5);
        }
        test_tridiagonalize_bad(BSYM_DEVICE_GPU, dname, single, 'L', 100);
        test_tridiag_method_bad_n(BSYM_DEVICE_GPU, dname, single, 'U', 130);
        /* bad systems beside good ones in every size class of the warp
         * kernel (householder.cu's launch_warp: up to 8 systems a warp) */
        static const int classes[] = {7, 11, 15, 19, 23, 29};
        for (size_t c = 0; c < sizeof classes / sizeof *classes; c++) {
            test_tridiagonalize_bad(BSYM_DEVICE_GPU, dname, single, c % 2 ? 'U' : 'L', classes[c]);
            test_tridiag_method_bad_n(BSYM_DEVICE_GPU, dname, single, c % 2 ? 'L' : 'U', classes[c]);
        }
        if (!subset) {
            test_tridiagonalize_bad(BSYM_DEVICE_GPU, dname, single, 'U', BSYM_GPU_HOUSEHOLDER_MAX_N);
            test_tridiag_method_bad_n(BSYM_DEVICE_GPU, dname, single, 'L', BSYM_GPU_HOUSEHOLDER_MAX_N);
            test_tridiagonalize(BSYM_DEVICE_GPU, dname, single, 'L', BSYM_GPU_HOUSEHOLDER_MAX_N + 1, 1);
            test_tridiag_method(BSYM_DEVICE_GPU, dname, single, 'L', BSYM_GPU_HOUSEHOLDER_MAX_N + 1, 1, 1);
        }
    }
}

/* Sizes beyond the GPU kernels' limits are size errors on the GPU. */
static void test_gpu_limits(void)
{
    bsym_ctx *ctx = ctx_on(BSYM_DEVICE_GPU);
    int n = BSYM_GPU_PCR_MAX_N + 1, info[1];
    double *dl = calloc(n, sizeof(double)), *d = calloc(n, sizeof(double)), *b = calloc(n, sizeof(double));
    for (int i = 0; i < n; i++)
        d[i] = 2;
    check(bsym_dtridiag_solve(ctx, n, 1, 1, dl, d, NULL, b, info) == BSYM_ERR_SIZE,
          "tridiag_solve n > 16384 on the GPU is a size error", "gpu", n, 0);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_AUTO);
    check(bsym_dtridiag_solve(ctx, n, 1, 1, dl, d, NULL, b, info) == BSYM_OK && info[0] == 0 &&
              bsym_ctx_last_device(ctx) == BSYM_DEVICE_CPU,
          "tridiag_solve n > 16384 under auto runs on the CPU", "auto", n, 0);
    free(dl); free(d); free(b);
    bsym_ctx_destroy(ctx);
}

/* Householder, PCR and method TRIDIAG checks on one device, both precisions;
 * on the GPU also every n of the Householder kernels (subset: a few). */
static void test_tridiag_family(bsym_device dev, const char *dname, int subset)
{
    const int trd_sizes[] = {1, 2, 3, 5, 16, 31, 32, 33, 64, 65};
    /* PCR: lanes (n <= 32); tiles of several systems per warp (33, 100),
     * several warps per system (257: a last warp of one one-row chunk; 1000,
     * 5000, 8192; 8193: 16 rows a thread, a last warp of one lane), the
     * general 16384 in float with du read directly, and the partition
     * kernel where no tile fits (16384 in double) */
    const int pcr_sizes[] = {1, 2, 3, 7, 32, 33, 100, 257, 1000, 5000, 8192, 8193, 16384};
    const int hh_sizes[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 47, 64, 65, 100};
    for (int single = 0; single < 2; single++) {
        for (size_t s = 0; s < sizeof trd_sizes / sizeof *trd_sizes; s++) {
            if (subset && trd_sizes[s] > 64)
                continue; /* the block kernel: test_tridiag_gpu_sizes, fewer systems */
            test_tridiagonalize(dev, dname, single, 'L', trd_sizes[s], 37);
            test_tridiagonalize(dev, dname, single, 'U', trd_sizes[s], 5);
        }
        test_tridiagonalize_bad(dev, dname, single, 'L', 5);
        test_tridiagonalize_bad(dev, dname, single, 'U', 33);
        test_tridiagonalize_scaling(dev, dname, single, single ? 100 : 1000);
        test_tridiagonalize_scaling(dev, dname, single, single ? -100 : -1000);
        for (size_t s = 0; s < sizeof pcr_sizes / sizeof *pcr_sizes; s++) {
            int n = pcr_sizes[s], batch = n >= 1000 ? 3 : 37;
            for (int kind = TRI_GENERAL; kind <= TRI_SPD; kind++) {
                test_tridiag(dev, dname, single, kind, n, 1, batch);
                test_tridiag(dev, dname, single, kind, n, 3, batch > 5 ? 5 : batch);
            }
        }
        for (int sym = 0; sym < 2; sym++) {
            test_tridiag_bad(dev, dname, single, sym, 7);
            test_tridiag_bad(dev, dname, single, sym, 33);
            test_tridiag_bad(dev, dname, single, sym, 257);
            test_tridiag_bad(dev, dname, single, sym, 1000);
        }
        for (size_t s = 0; s < sizeof hh_sizes / sizeof *hh_sizes; s++) {
            if (subset && hh_sizes[s] > 64)
                continue; /* as above */
            test_tridiag_method(dev, dname, single, 'L', hh_sizes[s], 1, 37);
            test_tridiag_method(dev, dname, single, 'U', hh_sizes[s], 3, 37);
        }
        test_tridiag_method_bad(dev, dname, single);
        if (!subset)
            test_tridiag_method_bad_n(dev, dname, single, 'L', 70);
    }
    if (dev == BSYM_DEVICE_GPU) {
        test_gpu_limits();
        test_tridiag_gpu_sizes(dname, subset);
    }
}

/* ==== batched symmetric eigensolvers (bsym_*syev, bsym_*stev) ============= */

/* NaN-sticky maximum (fmax would drop a NaN). */
static double nmax(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}

static double max_abs(size_t len, const double *x)
{
    double m = 0;
    for (size_t i = 0; i < len; i++)
        m = nmax(m, fabs(x[i]));
    return m;
}

/* Fills len doubles with v. */
static void fill(size_t len, double *x, double v)
{
    for (size_t i = 0; i < len; i++)
        x[i] = v;
}

/* bsym_*syev (A != NULL, reading the uplo triangle) or bsym_*stev (d, e) in
 * the given precision and device; w (n x batch) and V (n x n x batch, or
 * NULL for values only) come back as doubles; entries the core did not
 * write keep what the caller put there. count may be NULL. */
static bsym_status run_eig(bsym_device dev, int single, char uplo, int n, int batch, const double *A,
                           const double *d, const double *e, const bsym_select *sel, double *w,
                           double *V, int *count, int *info)
{
    bsym_ctx *ctx = ctx_on(dev);
    size_t nn = (size_t)n * n * batch, nd = (size_t)n * batch, ne = (size_t)(n > 1 ? n - 1 : 0) * batch;
    bsym_status st;
    if (!single) {
        st = A != NULL ? bsym_dsyev(ctx, uplo, n, batch, A, sel, w, V, count, info)
                       : bsym_dstev(ctx, n, batch, d, e, sel, w, V, count, info);
    } else {
        float *fa = A != NULL ? to_float(nn, A) : NULL, *fd = d != NULL ? to_float(nd, d) : NULL;
        float *fe = e != NULL ? to_float(ne, e) : NULL, *fw = to_float(nd, w);
        float *fv = V != NULL ? to_float(nn, V) : NULL;
        st = A != NULL ? bsym_ssyev(ctx, uplo, n, batch, fa, sel, fw, fv, count, info)
                       : bsym_sstev(ctx, n, batch, fd, fe, sel, fw, fv, count, info);
        from_float(nd, fw, w);
        if (V != NULL)
            from_float(nn, fv, V);
        free(fa); free(fd); free(fe); free(fw); free(fv);
    }
    bsym_ctx_destroy(ctx);
    return st;
}

/* max|A V - V diag(w)| / max|A| (*res) and max|V'V - I| (*orth) over the
 * first m columns of one system (A full n x n), in long double; NaN in V or
 * w gives NaN. */
static void eig_errors(int n, int m, const double *a, const double *w, const double *v, double *res,
                       double *orth)
{
    long double r = 0, o = 0;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++) {
            long double s = -(long double)w[j] * v[i + (size_t)j * n];
            for (int l = 0; l < n; l++)
                s += (long double)a[i + (size_t)l * n] * v[l + (size_t)j * n];
            r = isnan(s) || isnan(r) ? NAN : fmaxl(r, fabsl(s));
        }
    for (int j = 0; j < m; j++)
        for (int i = 0; i <= j; i++) {
            long double s = -(long double)(i == j);
            for (int l = 0; l < n; l++)
                s += (long double)v[l + (size_t)i * n] * v[l + (size_t)j * n];
            o = isnan(s) || isnan(o) ? NAN : fmaxl(o, fabsl(s));
        }
    double amax = max_abs((size_t)n * n, a);
    *res = (double)(r / (amax > 0 ? amax : 1));
    *orth = (double)o;
}

static int cmp_ldouble(const void *a, const void *b)
{
    long double x = *(const long double *)a, y = *(const long double *)b;
    return (x > y) - (x < y);
}

/* Reference eigenvalues (ascending) of a full symmetric matrix: cyclic
 * Jacobi in long double, until the off-diagonal part is below long double
 * eps times ||A||_F (so far below the double bounds of the tests). */
static void jacobi_eigvals(int n, const double *a, long double *lam)
{
    long double *m = malloc(sizeof(long double) * ((size_t)n * n + 1));
    for (size_t i = 0; i < (size_t)n * n; i++)
        m[i] = a[i];
    for (int sweep = 0; sweep < 100; sweep++) {
        long double off = 0, tot = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                long double x = m[i + (size_t)j * n] * m[i + (size_t)j * n];
                tot += x;
                off += i != j ? x : 0;
            }
        if (off <= tot * LDBL_EPSILON * LDBL_EPSILON)
            break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                long double apq = m[p + (size_t)q * n];
                if (apq == 0)
                    continue;
                long double *cp = m + (size_t)p * n, *cq = m + (size_t)q * n;
                long double theta = (cq[q] - cp[p]) / (2 * apq);
                long double t = (theta >= 0 ? 1 : -1) / (fabsl(theta) + sqrtl(theta * theta + 1));
                long double c = 1 / sqrtl(t * t + 1), s = t * c, app = cp[p] - t * apq,
                            aqq = cq[q] + t * apq;
                for (int k = 0; k < n; k++) { /* columns p, q; rows by symmetry */
                    long double xp = cp[k], xq = cq[k];
                    cp[k] = m[p + (size_t)k * n] = c * xp - s * xq;
                    cq[k] = m[q + (size_t)k * n] = s * xp + c * xq;
                }
                cp[p] = app;
                cq[q] = aqq;
                cp[q] = cq[p] = 0;
            }
    }
    for (int i = 0; i < n; i++)
        lam[i] = m[i + (size_t)i * n];
    qsort(lam, n, sizeof *lam, cmp_ldouble);
    free(m);
}

/* A random orthogonal Q (n x n): the product of n Householder reflectors
 * I - 2 v v^T with random unit v. */
static void rand_orth(int n, double *q)
{
    double *v = malloc(sizeof(double) * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            q[i + (size_t)j * n] = i == j;
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            v[i] = urand();
            s += v[i] * v[i];
        }
        s = sqrt(s);
        for (int i = 0; i < n; i++)
            v[i] /= s > 0 ? s : 1;
        for (int i = 0; i < n; i++) { /* Q = Q (I - 2 v v^T), row i */
            long double t = 0;
            for (int j = 0; j < n; j++)
                t += (long double)q[i + (size_t)j * n] * v[j];
            for (int j = 0; j < n; j++)
                q[i + (size_t)j * n] -= (double)(2 * t * v[j]);
        }
    }
    free(v);
}

/* a = Q diag(lam) Q^T with a random orthogonal Q, exactly symmetric. */
static void spectral(int n, const double *lam, double *a)
{
    double *q = malloc(sizeof(double) * n * n);
    rand_orth(n, q);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            long double s = 0;
            for (int k = 0; k < n; k++)
                s += (long double)q[i + (size_t)k * n] * lam[k] * q[j + (size_t)k * n];
            a[i + (size_t)j * n] = a[j + (size_t)i * n] = (double)s;
        }
    free(q);
}

/* The dense n x n matrix of the symmetric tridiagonal (d, e). */
static void tri_dense(int n, const double *d, const double *e, double *a)
{
    for (size_t i = 0; i < (size_t)n * n; i++)
        a[i] = 0;
    for (int i = 0; i < n; i++) {
        a[i + (size_t)i * n] = d[i];
        if (i + 1 < n)
            a[i + 1 + (size_t)i * n] = a[i + (size_t)(i + 1) * n] = e[i];
    }
}

/* The runs of one batch in eig_suite. */
enum { ER_SYEV_V, ER_SYEV, ER_STEV_V, ER_STEV, ER_RUNS };
static const char *er_name[] = {"syev+vectors", "syev values", "stev+vectors", "stev values"};

/* The checks of one batch. full: n x n x batch dense symmetric matrices in
 * the working precision. Runs bsym_*syev with vectors (divide and conquer)
 * and values only (bisection) on a copy whose other triangle is NaN, and
 * bsym_*stev both ways too when d, e are given (full is then their dense
 * form). Checks per run: status, info 0, count n, values ascending and
 * finite; with vectors the residual max|AV - VW| / max|A| and max|V'V - I|;
 * trace(A) = sum(w); across runs bisection vs D&C and stev vs syev; values
 * against known (n x batch, ascending) or, when known is NULL, against the
 * long double Jacobi reference of the first nref systems. Eigenvalue
 * differences are relative to max|A| of the system (the trace to ||A||_2,
 * see below); every bound is BOUND_C n eps, and the messages give the worst
 * ratio in units of n eps. */
static void eig_suite(bsym_device dev, const char *dname, int single, const char *label, char uplo,
                      int n, int batch, const double *full, const double *d, const double *e,
                      const double *known, int nref)
{
    const size_t nn = (size_t)n * n, nw = (size_t)n * batch;
    const double eps = single ? FLT_EPSILON : DBL_EPSILON, unit = n * eps;
    const char *prec = single ? "float" : "double";
    const int runs = d != NULL ? ER_RUNS : 2;
    double *A = malloc(sizeof(double) * (nn * batch + 1)), *scale = malloc(sizeof(double) * batch);
    double *w[ER_RUNS] = {0}, *V[ER_RUNS] = {0};
    int *cnt[ER_RUNS] = {0}, *info[ER_RUNS] = {0};
    bsym_status st[ER_RUNS];
    long double *ref = malloc(sizeof(long double) * (n + 1));
    char what[300];
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++) {
        poison(uplo, n, A + k * nn);
        scale[k] = max_abs(nn, full + k * nn);
        scale[k] = scale[k] > 0 ? scale[k] : 1;
    }
    for (int r = 0; r < runs; r++) {
        w[r] = malloc(sizeof(double) * (nw + 1));
        fill(nw, w[r], -777);
        if (r == ER_SYEV_V || r == ER_STEV_V) {
            V[r] = malloc(sizeof(double) * (nn * batch + 1));
            fill(nn * batch, V[r], -777);
        }
        cnt[r] = malloc(sizeof(int) * batch);
        info[r] = malloc(sizeof(int) * batch);
        for (int k = 0; k < batch; k++)
            cnt[r][k] = info[r][k] = -7;
        int tri = r >= ER_STEV_V;
        st[r] = run_eig(dev, single, uplo, n, batch, tri ? NULL : A, tri ? d : NULL, tri ? e : NULL,
                        NULL, w[r], V[r], cnt[r], info[r]);
    }
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_EIGEN_MAX_N) {
        int all = 1;
        for (int r = 0; r < runs; r++)
            all &= st[r] == BSYM_ERR_SIZE;
        check(all, "eigensolver n > BSYM_GPU_EIGEN_MAX_N on the GPU is a size error", dname, n, st[0]);
        goto done;
    }
    /* the sum of n eigenvalues carries n errors of size eps ||A||_2 each:
     * the trace check is relative to ||A||_2 = max|w| (>= max|A|) */
    double *norm2 = malloc(sizeof(double) * batch);
    for (int k = 0; k < batch; k++)
        norm2[k] = info[ER_SYEV_V][k] == 0 ? fmax(scale[k], max_abs(n, w[ER_SYEV_V] + (size_t)k * n)) : scale[k];
    double wres = 0, worth = 0, wagree = 0, wtri = 0, wtrace = 0, wknown = 0;
    /* the numerical checks leave out systems that failed (info != 0), which
     * the first check of the run reports, so that one failure is one line */
    for (int r = 0; r < runs; r++) {
        int ok = st[r] == BSYM_OK, asc = 1, bad_k = -1;
        for (int k = 0; k < batch; k++) {
            ok &= info[r][k] == 0 && cnt[r][k] == n;
            if (bad_k < 0 && (info[r][k] != 0 || cnt[r][k] != n))
                bad_k = k;
            if (info[r][k] != 0)
                continue;
            const double *wk = w[r] + (size_t)k * n;
            long double tr = 0, sum = 0;
            for (int j = 0; j < n; j++) {
                asc &= isfinite(wk[j]) && (j == 0 || wk[j - 1] <= wk[j]);
                tr += full[k * nn + (size_t)j * (n + 1)];
                sum += wk[j];
            }
            wtrace = nmax(wtrace, (double)(fabsl(sum - tr) / norm2[k]));
            if (V[r] != NULL) {
                double res, orth;
                eig_errors(n, n, full + k * nn, wk, V[r] + k * nn, &res, &orth);
                wres = nmax(wres, res);
                worth = nmax(worth, orth);
            }
            /* bisection against D&C of the same input, stev against syev */
            int base = r == ER_SYEV ? ER_SYEV_V : r == ER_STEV ? ER_STEV_V : r == ER_STEV_V ? ER_SYEV_V : -1;
            base = base >= 0 && info[base][k] == 0 ? base : -1;
            for (int j = 0; base >= 0 && j < n; j++) {
                double diff = fabs(wk[j] - w[base][(size_t)k * n + j]) / scale[k];
                if (r == ER_STEV_V)
                    wtri = nmax(wtri, diff);
                else
                    wagree = nmax(wagree, diff);
            }
            if (r == ER_STEV && info[ER_SYEV][k] == 0)
                for (int j = 0; j < n; j++)
                    wtri = nmax(wtri, fabs(wk[j] - w[ER_SYEV][(size_t)k * n + j]) / scale[k]);
        }
        if (bad_k < 0)
            snprintf(what, sizeof what, "eigen %s %s uplo=%c %s: status OK, info 0, count n", label,
                     prec, uplo, er_name[r]);
        else
            snprintf(what, sizeof what,
                     "eigen %s %s uplo=%c %s: status OK, info 0, count n (system %d: info %d, count %d)",
                     label, prec, uplo, er_name[r], bad_k, info[r][bad_k], cnt[r][bad_k]);
        check(ok, what, dname, n, batch);
        snprintf(what, sizeof what, "eigen %s %s uplo=%c %s: values finite and ascending", label,
                 prec, uplo, er_name[r]);
        check(asc, what, dname, n, batch);
    }
    /* known values, or the Jacobi reference */
    for (int k = 0; k < batch; k++) {
        if (known == NULL && k >= nref)
            break;
        if (known == NULL)
            jacobi_eigvals(n, full + k * nn, ref);
        for (int j = 0; j < n; j++) {
            long double x = known != NULL ? known[(size_t)k * n + j] : ref[j];
            for (int r = 0; r < runs; r++)
                if (info[r][k] == 0)
                    wknown = nmax(wknown, (double)(fabsl(w[r][(size_t)k * n + j] - x) / scale[k]));
        }
    }
    snprintf(what, sizeof what, "eigen %s %s uplo=%c: max|AV - VW|/max|A| %.3g n eps <= %g", label,
             prec, uplo, wres / unit, BOUND_C);
    check(wres <= BOUND_C * unit, what, dname, n, batch);
    snprintf(what, sizeof what, "eigen %s %s uplo=%c: max|V'V - I| %.3g n eps <= %g", label, prec,
             uplo, worth / unit, BOUND_C);
    check(worth <= BOUND_C * unit, what, dname, n, batch);
    snprintf(what, sizeof what, "eigen %s %s uplo=%c: bisection vs D&C values %.3g n eps max|A| <= %g",
             label, prec, uplo, wagree / unit, BOUND_C);
    check(wagree <= BOUND_C * unit, what, dname, n, batch);
    snprintf(what, sizeof what, "eigen %s %s uplo=%c: |sum(w) - trace(A)| %.3g n eps ||A||_2 <= %g",
             label, prec, uplo, wtrace / unit, BOUND_C);
    check(wtrace <= BOUND_C * unit, what, dname, n, batch);
    snprintf(what, sizeof what, "eigen %s %s uplo=%c: values vs %s %.3g n eps max|A| <= %g", label,
             prec, uplo, known != NULL ? "known" : "long double Jacobi", wknown / unit, BOUND_C);
    check(wknown <= BOUND_C * unit, what, dname, n, batch);
    if (d != NULL) {
        snprintf(what, sizeof what, "eigen %s %s: stev vs syev of the dense form %.3g n eps max|A| <= %g",
                 label, prec, wtri / unit, BOUND_C);
        check(wtri <= BOUND_C * unit, what, dname, n, batch);
    }
    note("eigen ||AV - VW|| / ||A||", dev, single, wres, n);
    note("eigen ||V'V - I||", dev, single, worth, n);
    note("eigen bisection vs D&C, stev vs syev", dev, single, nmax(wagree, wtri), n);
    note("eigen sum(w) - trace(A)", dev, single, wtrace, n);
    note("eigen values vs known / Jacobi", dev, single, wknown, n);
    free(norm2);
done:
    for (int r = 0; r < runs; r++) {
        free(w[r]); free(V[r]); free(cnt[r]); free(info[r]);
    }
    free(A); free(scale); free(ref);
}

/* Random symmetric batches (dense: bsym_*syev; tridiagonal: bsym_*stev and
 * syev of the dense form). */
static void test_eig_random_ref(bsym_device dev, const char *dname, int single, char uplo, int n,
                                int batch, int tridiagonal, int nref);
static void test_eig_random(bsym_device dev, const char *dname, int single, char uplo, int n,
                            int batch, int tridiagonal)
{
    test_eig_random_ref(dev, dname, single, uplo, n, batch, tridiagonal, 1);
}

/* nref: the systems whose values are checked against the long double
 * Jacobi reference (0: none; the other checks stay). */
static void test_eig_random_ref(bsym_device dev, const char *dname, int single, char uplo, int n,
                                int batch, int tridiagonal, int nref)
{
    size_t nn = (size_t)n * n, ne = (size_t)(n > 1 ? n - 1 : 0);
    double *full = malloc(sizeof(double) * nn * batch);
    double *d = malloc(sizeof(double) * n * batch), *e = malloc(sizeof(double) * (ne * batch + 1));
    for (int k = 0; k < batch; k++) {
        if (tridiagonal) {
            for (int i = 0; i < n; i++)
                d[k * n + i] = urand();
            for (size_t i = 0; i < ne; i++)
                e[k * ne + i] = urand();
            to_precision(single, n, d + k * n);
            to_precision(single, ne, e + k * ne);
            tri_dense(n, d + k * n, e + k * ne, full + k * nn);
        } else {
            sym_random(n, full + k * nn);
        }
    }
    to_precision(single, nn * batch, full);
    eig_suite(dev, dname, single, tridiagonal ? "random tridiagonal" : "random", uplo, n, batch,
              full, tridiagonal ? d : NULL, tridiagonal ? e : NULL, NULL, nref);
    free(full); free(d); free(e);
}

/* ---- structured matrices ---- */
enum {
    EK_XI03, EK_XI0999, EK_XI03_RAND, EK_XI0999_RAND, EK_WILKINSON, EK_GLUED, EK_DIAG_MULT,
    EK_DIAG_MULT_RAND, EK_ZERO, EK_IDENTITY, EK_GRADED, EK_CLUSTER, EK_SPLIT, EK_GRADED8, EK_SINGULAR,
    EK_ILL12, EK_KINDS
};
static const char *ek_name[] = {
    "Xi_0.3", "Xi_0.999", "Q Xi_0.3 Q'", "Q Xi_0.999 Q'", "Wilkinson W+", "glued Wilkinson",
    "diagonal with multiplicities", "Q diag(multiple) Q'", "zero", "identity",
    "graded 2^-(i+j)", "cluster 1+k 1e-10", "tridiagonal with splits", "graded 2^-8(i+j)",
    "Q diag(half zeros, half random) Q'", "Q diag(+-10^(-12 i/(n-1))) Q'"};

static int cmp_double_asc(const void *a, const void *b)
{
    return cmp_double(a, b);
}

/* System k of a structured kind of order n, in the working precision:
 * full (n x n); for the tridiagonal kinds also d (n) and e (n-1), and the
 * return value is 1. known (n, ascending) gets the exact eigenvalues, or
 * known[0] = NaN when there is no closed form. */
static int eig_structured(int kind, int single, int n, int k, double *full, double *d, double *e,
                          double *known)
{
    int tri = 0;
    known[0] = NAN;
    switch (kind) {
    case EK_XI03: case EK_XI0999: case EK_XI03_RAND: case EK_XI0999_RAND: {
        const double rho = kind == EK_XI03 || kind == EK_XI03_RAND ? 0.3 : 0.999;
        for (int i = 0; i < n; i++)
            known[i] = i < n - 1 ? 1 - rho : 1 - rho + n * rho;
        if (kind == EK_XI03 || kind == EK_XI0999)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    full[i + (size_t)j * n] = i == j ? 1 : rho;
        else
            spectral(n, known, full);
        break;
    }
    case EK_WILKINSON: case EK_GLUED: case EK_SPLIT: case EK_DIAG_MULT: case EK_ZERO: case EK_IDENTITY: {
        tri = 1;
        const int blk = n < 21 ? n : 21; /* W21+ blocks */
        const double glue = k % 2 ? 1e-14 : 1e-10;
        double base_d[4], base_e[4];
        for (int i = 0; i < 4; i++) {
            base_d[i] = urand();
            base_e[i] = urand();
        }
        for (int i = 0; i < n; i++) {
            double ei = 0;
            if (kind == EK_WILKINSON) {
                d[i] = fabs((n - 1) / 2.0 - i);
                ei = 1;
            } else if (kind == EK_GLUED) {
                d[i] = fabs((blk - 1) / 2.0 - i % blk);
                ei = (i + 1) % blk == 0 ? glue : 1;
            } else if (kind == EK_SPLIT) {
                if (k % 2 == 0) { /* random, zero off-diagonals here and there */
                    d[i] = urand();
                    ei = i % 4 == 3 || i % 7 == 1 ? 0 : urand();
                } else { /* identical 4 x 4 blocks: every eigenvalue n/4-fold */
                    d[i] = base_d[i % 4];
                    ei = i % 4 == 3 ? 0 : base_e[i % 4];
                }
            } else if (kind == EK_DIAG_MULT) {
                static const double pool[4] = {-1, 0, 0.5, 2};
                d[i] = pool[i % 4];
            } else {
                d[i] = kind == EK_IDENTITY;
            }
            if (i + 1 < n)
                e[i] = ei;
        }
        if (kind == EK_DIAG_MULT)
            for (int i = n - 1; i > 0; i--) { /* shuffle */
                int j = (int)((urand() + 1) / 2 * (i + 1));
                j = j > i ? i : j;
                double t = d[i];
                d[i] = d[j];
                d[j] = t;
            }
        to_precision(single, n, d);
        to_precision(single, n > 1 ? n - 1 : 0, e);
        tri_dense(n, d, e, full);
        if (kind == EK_DIAG_MULT || kind == EK_ZERO || kind == EK_IDENTITY) {
            memcpy(known, d, sizeof(double) * n);
            qsort(known, n, sizeof *known, cmp_double_asc);
        }
        break;
    }
    case EK_DIAG_MULT_RAND: {
        static const double pool[4] = {-1, 0, 0.5, 2};
        for (int i = 0; i < n; i++)
            known[i] = pool[i % 4];
        qsort(known, n, sizeof *known, cmp_double_asc);
        spectral(n, known, full);
        break;
    }
    case EK_GRADED: case EK_GRADED8:
        sym_random(n, full);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                full[i + (size_t)j * n] = ldexp(full[i + (size_t)j * n], -(i + j) * (kind == EK_GRADED8 ? 8 : 1));
        break;
    case EK_CLUSTER:
        for (int i = 0; i < n; i++)
            known[i] = i < n - 1 ? 1 + i * 1e-10 : 2;
        spectral(n, known, full);
        break;
    case EK_SINGULAR: case EK_ILL12: /* where the GPU's QL once stalled (session 25) */
        for (int i = 0; i < n; i++)
            known[i] = kind == EK_SINGULAR ? (i < n / 2 ? 0 : urand())
                                           : (i % 2 ? 1 : -1) * pow(10, n > 1 ? -12.0 * i / (n - 1) : 0);
        qsort(known, n, sizeof *known, cmp_double_asc);
        spectral(n, known, full);
        break;
    }
    to_precision(single, (size_t)n * n, full);
    return tri;
}

/* A batch of three systems of one structured kind. */
static void test_eig_structured(bsym_device dev, const char *dname, int single, int kind, int n)
{
    const int batch = 3;
    size_t nn = (size_t)n * n, ne = (size_t)(n > 1 ? n - 1 : 0);
    double *full = malloc(sizeof(double) * nn * batch), *known = malloc(sizeof(double) * n * batch);
    double *d = malloc(sizeof(double) * n * batch), *e = malloc(sizeof(double) * (ne * batch + 1));
    int tri = 0, have_known = 1;
    for (int k = 0; k < batch; k++) {
        tri = eig_structured(kind, single, n, k, full + k * nn, d + k * n, e + k * ne, known + k * n);
        have_known &= !isnan(known[k * n]);
    }
    char label[80];
    snprintf(label, sizeof label, "%s", ek_name[kind]);
    eig_suite(dev, dname, single, label, kind % 2 ? 'U' : 'L', n, batch, full, tri ? d : NULL,
              tri ? e : NULL, have_known ? known : NULL, n <= 33 ? batch : 1);
    free(full); free(known); free(d); free(e);
}

/* 1 x 1 systems: the value itself (within the bound), vector 1 up to sign. */
static void test_eig_1x1(bsym_device dev, const char *dname, int single)
{
    double a[6] = {-3.5, 0.25, single ? 1e30 : 1e300, single ? -1e-30 : -1e-300, 7, single ? 3e-39 : 4e-320};
    double w[6], V[6];
    int cnt[6], info[6], ok = 1;
    to_precision(single, 6, a);
    bsym_status st = run_eig(dev, single, 'L', 1, 6, a, NULL, NULL, NULL, w, V, cnt, info);
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    for (int k = 0; k < 6; k++)
        ok &= info[k] == 0 && cnt[k] == 1 && fabs(w[k] - a[k]) <= BOUND_C * eps * fabs(a[k]) &&
              fabs(V[k]) == 1;
    check(st == BSYM_OK && ok, "eigen 1x1 (huge, tiny and subnormal values included) with vectors", dname, st, single);
    st = run_eig(dev, single, 'U', 1, 6, a, NULL, NULL, NULL, w, NULL, cnt, info);
    ok = 1;
    for (int k = 0; k < 6; k++)
        ok &= info[k] == 0 && cnt[k] == 1 && fabs(w[k] - a[k]) <= BOUND_C * eps * fabs(a[k]);
    check(st == BSYM_OK && ok, "eigen 1x1 (huge, tiny and subnormal values included) values only", dname, st, single);
}

/* 'U' and 'L' on the same matrices (the other triangle NaN) agree. */
static void test_eig_uplo(bsym_device dev, const char *dname, int single, int n)
{
    const int batch = 5;
    size_t nn = (size_t)n * n, nw = (size_t)n * batch;
    double *full = malloc(sizeof(double) * nn * batch), *AL = malloc(sizeof(double) * nn * batch);
    double *AU = malloc(sizeof(double) * nn * batch), *wl = malloc(sizeof(double) * nw);
    double *wu = malloc(sizeof(double) * nw), *VL = malloc(sizeof(double) * nn * batch);
    double *VU = malloc(sizeof(double) * nn * batch), *bl = malloc(sizeof(double) * nw);
    double *bu = malloc(sizeof(double) * nw);
    int info[4][5], cnt[5];
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    to_precision(single, nn * batch, full);
    memcpy(AL, full, sizeof(double) * nn * batch);
    memcpy(AU, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++) {
        poison('L', n, AL + k * nn);
        poison('U', n, AU + k * nn);
    }
    bsym_status st = run_eig(dev, single, 'L', n, batch, AL, NULL, NULL, NULL, wl, VL, cnt, info[0]);
    st = st ? st : run_eig(dev, single, 'U', n, batch, AU, NULL, NULL, NULL, wu, VU, cnt, info[1]);
    st = st ? st : run_eig(dev, single, 'L', n, batch, AL, NULL, NULL, NULL, bl, NULL, cnt, info[2]);
    st = st ? st : run_eig(dev, single, 'U', n, batch, AU, NULL, NULL, NULL, bu, NULL, cnt, info[3]);
    double eps = single ? FLT_EPSILON : DBL_EPSILON, worst = 0, wres = 0;
    int ok = st == BSYM_OK;
    for (int k = 0; k < batch && ok; k++) {
        double s = max_abs(nn, full + k * nn), res, orth;
        for (int r = 0; r < 4; r++)
            ok &= info[r][k] == 0;
        for (int j = 0; j < n; j++) {
            worst = nmax(worst, fabs(wl[k * n + j] - wu[k * n + j]) / s);
            worst = nmax(worst, fabs(bl[k * n + j] - bu[k * n + j]) / s);
        }
        eig_errors(n, n, full + k * nn, wu + k * n, VU + k * nn, &res, &orth);
        wres = nmax(wres, nmax(res, orth));
    }
    char what[200];
    snprintf(what, sizeof what,
             "eigen uplo U vs L (NaN in the other triangle) %s: values differ by %.3g n eps max|A|, U residual/orth %.3g n eps <= %g",
             single ? "float" : "double", worst / (n * eps), wres / (n * eps), BOUND_C);
    check(ok && worst <= BOUND_C * n * eps && wres <= BOUND_C * n * eps, what, dname, n, st);
    free(full); free(AL); free(AU); free(wl); free(wu); free(VL); free(VU); free(bl); free(bu);
}

/* ---- selections ---- */

/* A point in [lo, hi] at least tol away from each of the len values x
 * (NaN when 200 tries find none). */
static double point_away(double lo, double hi, double tol, size_t len, const double *x)
{
    for (int t = 0; t < 200; t++) {
        double p = lo + (hi - lo) * (urand() + 1) / 2, dist = INFINITY;
        for (size_t i = 0; i < len; i++)
            dist = fmin(dist, fabs(p - x[i]));
        if (dist > tol)
            return p;
    }
    return NAN;
}

/* Checks one selected call against the ALL results of the same batch
 * (wall: values n x batch, Vall: vectors or NULL): count[k] = expected[k],
 * values and (well separated) vectors equal to the ALL entries first[k] ..,
 * NaN past the count in w and V; selected vectors orthonormal
 * eigenvectors. Returns 1 when all is well; *worst the worst value
 * difference / max|A|. */
static int check_selected(int n, int batch, const double *full, const double *scale,
                          const int *first, const int *expected, const double *wall, const double *w,
                          const double *V, const int *cnt, const int *info, double eps,
                          double *worst)
{
    const size_t nn = (size_t)n * n;
    int ok = 1;
    for (int k = 0; k < batch; k++) {
        const int c = expected[k];
        ok &= info[k] == 0 && cnt[k] == c;
        if (cnt[k] != c)
            continue;
        const double *wk = w + (size_t)k * n;
        for (int j = 0; j < n; j++) {
            if (j < c)
                *worst = nmax(*worst, fabs(wk[j] - wall[(size_t)k * n + first[k] + j]) / scale[k]);
            else
                ok &= isnan(wk[j]);
        }
        if (V != NULL) {
            double res, orth;
            eig_errors(n, c, full + k * nn, wk, V + k * nn, &res, &orth);
            ok &= res <= BOUND_C * n * eps && orth <= BOUND_C * n * eps;
            for (size_t i = (size_t)c * n; i < nn; i++)
                ok &= isnan(V[k * nn + i]);
        }
    }
    return ok;
}

/* INDEX and VALUE selections, with and without vectors, on a random batch
 * (dense, or tridiagonal through bsym_*stev) whose system 1 is Xi_0.3 (an
 * (n-1)-fold eigenvalue that index ranges cut through). */
static void test_eig_select(bsym_device dev, const char *dname, int single, int n, int batch,
                            int tridiagonal)
{
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_EIGEN_MAX_N)
        return;
    const size_t nn = (size_t)n * n, nw = (size_t)n * batch, ne = (size_t)(n > 1 ? n - 1 : 0);
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    const char *prec = single ? "float" : "double", *what_in = tridiagonal ? "stev" : "syev";
    double *full = malloc(sizeof(double) * nn * batch), *A = malloc(sizeof(double) * nn * batch);
    double *d = malloc(sizeof(double) * nw), *e = malloc(sizeof(double) * (ne * batch + 1));
    double *wall = malloc(sizeof(double) * nw), *wallv = malloc(sizeof(double) * nw);
    double *w = malloc(sizeof(double) * nw), *V = malloc(sizeof(double) * nn * batch);
    double *scale = malloc(sizeof(double) * batch);
    int *cnt = malloc(sizeof(int) * batch), *info = malloc(sizeof(int) * batch);
    int *first = malloc(sizeof(int) * batch), *expected = malloc(sizeof(int) * batch);
    for (int k = 0; k < batch; k++) {
        if (tridiagonal) {
            for (int i = 0; i < n; i++)
                d[k * n + i] = urand();
            for (size_t i = 0; i < ne; i++)
                e[k * ne + i] = k == 1 ? 0.3 : urand();
            if (k == 1)
                fill(n, d + k * n, 0.5);
            to_precision(single, n, d + k * n);
            to_precision(single, ne, e + k * ne);
            tri_dense(n, d + k * n, e + k * ne, full + k * nn);
        } else if (k == 1) {
            double known[128];
            eig_structured(EK_XI03, single, n, k, full + k * nn, NULL, NULL, known);
        } else {
            sym_random(n, full + k * nn);
        }
    }
    to_precision(single, nn * batch, full);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++) {
        poison('L', n, A + k * nn);
        scale[k] = max_abs(nn, full + k * nn);
    }
    const double *Ain = tridiagonal ? NULL : A, *din = tridiagonal ? d : NULL, *ein = tridiagonal ? e : NULL;
    /* ALL: values only and with vectors, the references of the selections */
    bsym_status st = run_eig(dev, single, 'L', n, batch, Ain, din, ein, NULL, wall, NULL, cnt, info);
    bsym_status st2 = run_eig(dev, single, 'L', n, batch, Ain, din, ein, NULL, wallv, V, cnt, info);
    char what[300];
    snprintf(what, sizeof what, "eigen select %s %s: ALL status", what_in, prec);
    check(st == BSYM_OK && st2 == BSYM_OK, what, dname, n, batch);
    if (st != BSYM_OK || st2 != BSYM_OK)
        goto done;
    /* index ranges: the first, the last, all, one in the middle, a random one */
    int64_t ranges[5][2] = {{1, 1}, {n, n}, {1, n}, {(n + 1) / 2, (n + 1) / 2}, {0, 0}};
    ranges[4][0] = 1 + (int64_t)((urand() + 1) / 2 * n);
    ranges[4][0] = ranges[4][0] > n ? n : ranges[4][0];
    ranges[4][1] = ranges[4][0] + (int64_t)((urand() + 1) / 2 * (n - ranges[4][0] + 1));
    ranges[4][1] = ranges[4][1] > n ? n : ranges[4][1];
    for (int q = 0; q < 5; q++) {
        bsym_select sel = {BSYM_SELECT_INDEX, ranges[q][0], ranges[q][1], 0, 0};
        for (int k = 0; k < batch; k++) {
            first[k] = (int)sel.il - 1;
            expected[k] = (int)(sel.iu - sel.il + 1);
        }
        for (int vec = 0; vec < 2; vec++) {
            double worst = 0;
            fill(nw, w, -777);
            fill(nn * batch, V, -777);
            st = run_eig(dev, single, 'L', n, batch, Ain, din, ein, &sel, w, vec ? V : NULL, cnt, info);
            int ok = st == BSYM_OK &&
                     check_selected(n, batch, full, scale, first, expected, vec ? wallv : wall, w,
                                    vec ? V : NULL, cnt, info, eps, &worst);
            snprintf(what, sizeof what,
                     "eigen select %s %s INDEX %lld..%lld %s: count, NaN past it, values = ALL's (%.3g n eps max|A|)",
                     what_in, prec, (long long)sel.il, (long long)sel.iu, vec ? "with vectors" : "values only",
                     worst / (n * eps));
            check(ok && worst <= BOUND_C * n * eps, what, dname, n, batch);
        }
    }
    /* value intervals away from every eigenvalue of the batch: random, all,
     * none (below them all), from below all, to above all */
    double lo = wall[0], hi = wall[0], smax = 0;
    for (size_t i = 0; i < nw; i++) {
        lo = fmin(lo, wall[i]);
        hi = fmax(hi, wall[i]);
    }
    for (int k = 0; k < batch; k++)
        smax = fmax(smax, scale[k]);
    const double tol = 4 * BOUND_C * n * eps * (smax > 0 ? smax : 1), span = hi - lo + 1;
    for (int q = 0; q < 5; q++) {
        double a = point_away(lo - 0.1, hi + 0.1, tol, nw, wall);
        double b = point_away(lo - 0.1, hi + 0.1, tol, nw, wall);
        double vl = fmin(a, b), vu = fmax(a, b);
        if (q == 1 || q == 3)
            vl = lo - span;
        if (q == 1 || q == 4)
            vu = hi + span;
        if (q == 2) {
            vl = lo - 2 * span;
            vu = lo - span;
        }
        if (!(vl < vu)) /* no point found, or a == b */
            continue;
        bsym_select sel = {BSYM_SELECT_VALUE, 0, 0, vl, vu};
        for (int k = 0; k < batch; k++) {
            first[k] = expected[k] = 0;
            for (int j = 0; j < n; j++) {
                double x = wall[(size_t)k * n + j];
                first[k] += x <= vl;
                expected[k] += x > vl && x <= vu;
            }
        }
        for (int vec = 0; vec < 2; vec++) {
            double worst = 0;
            fill(nw, w, -777);
            fill(nn * batch, V, -777);
            st = run_eig(dev, single, 'L', n, batch, Ain, din, ein, &sel, w, vec ? V : NULL, cnt, info);
            int ok = st == BSYM_OK &&
                     check_selected(n, batch, full, scale, first, expected, vec ? wallv : wall, w,
                                    vec ? V : NULL, cnt, info, eps, &worst);
            snprintf(what, sizeof what,
                     "eigen select %s %s VALUE (%.6g, %.6g] %s: count, NaN past it, values = ALL's (%.3g n eps max|A|)",
                     what_in, prec, vl, vu, vec ? "with vectors" : "values only", worst / (n * eps));
            check(ok && worst <= BOUND_C * n * eps, what, dname, n, batch);
        }
    }
done:
    free(full); free(A); free(d); free(e); free(wall); free(wallv); free(w); free(V);
    free(scale); free(cnt); free(info); free(first); free(expected);
}

/* The interval is half open: (vl, vu] on exactly known eigenvalues
 * (diagonal matrices, dense and tridiagonal, multiplicities included; also
 * 2 I and 1 x 1, where every Gerschgorin disc is one point): the count
 * exactly, the values within the bound. */
static void test_eig_select_exact(bsym_device dev, const char *dname, int single)
{
    static const struct {
        int n;
        double dg[6];
        double vl, vu;
        int count;
        double lowest;
    } iv[] = {
        {6, {3, 1, 2, 2, 4, 2}, 1, 3, 4, 2},   {6, {3, 1, 2, 2, 4, 2}, 0, 1, 1, 1},
        {6, {3, 1, 2, 2, 4, 2}, 4, 5, 0, 0},   {6, {3, 1, 2, 2, 4, 2}, 3.5, 4, 1, 4},
        {6, {3, 1, 2, 2, 4, 2}, 2, 3, 1, 3},   {6, {3, 1, 2, 2, 4, 2}, 1.5, 2, 3, 2},
        {6, {3, 1, 2, 2, 4, 2}, -1, 0.5, 0, 0}, {3, {2, 2, 2}, 0, 3, 3, 2},
        {3, {2, 2, 2}, 1, 2, 3, 2},            {3, {2, 2, 2}, 2, 3, 0, 0},
        {1, {0.5}, 0, 1, 1, 0.5},              {1, {-0.7}, -1, 0, 1, -0.7},
        {1, {0.5}, 0.5, 1, 0, 0},
    };
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    for (size_t q = 0; q < sizeof iv / sizeof *iv; q++) {
        const int n = iv[q].n;
        double e[5] = {0}, A[36], w[6], V[36];
        int cnt[1], info[1];
        tri_dense(n, iv[q].dg, e, A);
        for (int tri = 0; tri < 2; tri++)
            for (int vec = 0; vec < 2; vec++) {
                const double tol = BOUND_C * n * eps * max_abs(n, iv[q].dg);
                bsym_select sel = {BSYM_SELECT_VALUE, 0, 0, iv[q].vl, iv[q].vu};
                cnt[0] = -7;
                bsym_status st = run_eig(dev, single, 'L', n, 1, tri ? NULL : A, tri ? iv[q].dg : NULL,
                                         tri ? e : NULL, &sel, w, vec ? V : NULL, cnt, info);
                int ok = st == BSYM_OK && info[0] == 0 && cnt[0] == iv[q].count &&
                         (iv[q].count == 0 || fabs(w[0] - iv[q].lowest) <= tol);
                for (int j = 0; j < n; j++)
                    ok &= j < iv[q].count ? w[j] >= iv[q].vl - tol && w[j] <= iv[q].vu + tol : isnan(w[j]);
                char what[200];
                snprintf(what, sizeof what, "eigen select VALUE (%g, %g] on diag(%g, ...), n = %d, %s %s %s: count %d",
                         iv[q].vl, iv[q].vu, iv[q].dg[0], n, tri ? "stev" : "syev",
                         vec ? "with vectors" : "values only", single ? "float" : "double", iv[q].count);
                check(ok, what, dname, cnt[0], iv[q].count);
            }
    }
}

/* A split tridiagonal with one tiny coupling: d = (1, 0, 0, 0),
 * e = (0, 0, c), eigenvalues -c, 0, c, 1 and vectors e1, e2, (e3 -+ e4)/sqrt 2
 * (1-based). c below sqrt(underflow) (1e-170 / 1e-25) and subnormal
 * (5e-321 / 1e-40): V orthonormal, info 0, values within the bound. */
static void test_eig_tiny_coupling(bsym_device dev, const char *dname, int single)
{
    const double cs[2][2] = {{1e-170, 5e-321}, {1e-25, 1e-40}};
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    for (int q = 0; q < 2; q++) {
        double d[4] = {1, 0, 0, 0}, e[3] = {0, 0, cs[single][q]}, A[16], w[4], V[16];
        int cnt[1], info[1];
        to_precision(single, 3, e);
        tri_dense(4, d, e, A);
        for (int tri = 0; tri < 2; tri++) {
            bsym_status st = run_eig(dev, single, 'L', 4, 1, tri ? NULL : A, tri ? d : NULL,
                                     tri ? e : NULL, NULL, w, V, cnt, info);
            const double known[4] = {-e[2], 0, e[2], 1};
            double res, orth, err = 0;
            eig_errors(4, 4, A, w, V, &res, &orth);
            for (int j = 0; j < 4; j++)
                err = nmax(err, fabs(w[j] - known[j]));
            char what[200];
            snprintf(what, sizeof what,
                     "eigen %s %s d = (1,0,0,0), e = (0,0,%g): info 0, values (%.3g n eps), residual (%.3g n eps), max|V'V - I| %.3g n eps",
                     tri ? "stev" : "syev", single ? "float" : "double", e[2], err / (4 * eps),
                     res / (4 * eps), orth / (4 * eps));
            check(st == BSYM_OK && info[0] == 0 && err <= BOUND_C * 4 * eps &&
                      res <= BOUND_C * 4 * eps && orth <= BOUND_C * 4 * eps,
                  what, dname, info[0], cnt[0]);
        }
    }
}

/* The zero matrix (n = 1, 5, 33): every eigenvalue exactly 0 (the bound
 * c n eps ||A|| is 0), on both paths; V orthonormal. */
static void test_eig_zero_exact(bsym_device dev, const char *dname, int single)
{
    static const int sizes[] = {1, 5, 33};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const int n = sizes[s];
        double *A = calloc((size_t)n * n, sizeof(double)), *w = malloc(sizeof(double) * n);
        double *V = malloc(sizeof(double) * n * n), *d = calloc(n, sizeof(double));
        for (int tri = 0; tri < 2; tri++)
            for (int vec = 0; vec < 2; vec++) {
                int cnt[1], info[1];
                bsym_status st = run_eig(dev, single, 'L', n, 1, tri ? NULL : A, tri ? d : NULL,
                                         tri ? d : NULL, NULL, w, vec ? V : NULL, cnt, info);
                double worst = 0, res = 0, orth = 0;
                for (int j = 0; j < n; j++)
                    worst = nmax(worst, fabs(w[j]));
                if (vec)
                    eig_errors(n, n, A, w, V, &res, &orth);
                char what[200];
                snprintf(what, sizeof what,
                         "eigen zero matrix %s %s %s: values exactly 0 (worst |w| %.3g), V orthonormal",
                         tri ? "stev" : "syev", vec ? "with vectors" : "values only",
                         single ? "float" : "double", worst);
                check(st == BSYM_OK && info[0] == 0 && cnt[0] == n && worst == 0 &&
                          orth <= BOUND_C * n * (single ? FLT_EPSILON : DBL_EPSILON),
                      what, dname, n, info[0]);
            }
        free(A); free(w); free(V); free(d);
    }
}

/* ---- non-finite input, count NULL ---- */

/* Inf or NaN in the referenced triangle (syev) or in d, e (stev) gives
 * info -1, w and V NaN, count 0; the neighbours are solved; NaN in the
 * other triangle is never read; count NULL works. */
static void test_eig_bad(bsym_device dev, const char *dname, int single, int n)
{
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_EIGEN_MAX_N)
        return;
    const int batch = 6;
    const size_t nn = (size_t)n * n, nw = (size_t)n * batch, ne = (size_t)n - 1;
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    double *full = malloc(sizeof(double) * nn * batch), *A = malloc(sizeof(double) * nn * batch);
    double *d = malloc(sizeof(double) * nw), *e = malloc(sizeof(double) * (ne * batch + 1));
    double *w = malloc(sizeof(double) * nw), *V = malloc(sizeof(double) * nn * batch);
    double *w2 = malloc(sizeof(double) * nw);
    int cnt[6], info[6], info2[6];
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    for (size_t i = 0; i < nw; i++)
        d[i] = urand();
    for (size_t i = 0; i < ne * batch; i++)
        e[i] = urand();
    to_precision(single, nn * batch, full);
    to_precision(single, nw, d);
    to_precision(single, ne * batch, e);
    for (int tri = 0; tri < 2; tri++) {
        memcpy(A, full, sizeof(double) * nn * batch);
        for (int k = 0; k < batch; k++)
            poison('L', n, A + k * nn);
        if (!tri) {
            A[1 * nn + (n - 1)] = INFINITY;           /* system 1: Inf at (n-1, 0) */
            A[3 * nn + (n / 2) * (n + 1)] = NAN;      /* system 3: NaN on the diagonal */
        } else {
            e[1 * ne + ne / 2] = NAN;                 /* system 1: NaN in e */
            d[3 * n + n - 1] = -INFINITY;             /* system 3: -Inf in d */
        }
        const double *Ain = tri ? NULL : A, *din = tri ? d : NULL, *ein = tri ? e : NULL;
        const char *in = tri ? "stev" : "syev", *prec = single ? "float" : "double";
        for (int vec = 0; vec < 2; vec++) {
            fill(nw, w, -777);
            fill(nn * batch, V, -777);
            for (int k = 0; k < batch; k++)
                cnt[k] = info[k] = -7;
            bsym_status st = run_eig(dev, single, 'L', n, batch, Ain, din, ein, NULL, w,
                                     vec ? V : NULL, cnt, info);
            int nan_bad = 1, good = 1;
            for (int k = 0; k < batch; k++) {
                double dense[64 * 64], res = 0, orth = 0;
                if (k == 1 || k == 3) {
                    nan_bad &= info[k] == -1 && cnt[k] == 0;
                    for (int j = 0; j < n; j++)
                        nan_bad &= isnan(w[k * n + j]);
                    for (size_t i = 0; vec && i < nn; i++)
                        nan_bad &= isnan(V[k * nn + i]);
                    continue;
                }
                const double *a = full + k * nn;
                if (tri) {
                    tri_dense(n, d + k * n, e + k * ne, dense);
                    a = dense;
                }
                if (vec)
                    eig_errors(n, n, a, w + k * n, V + k * nn, &res, &orth);
                good &= info[k] == 0 && cnt[k] == n && res <= BOUND_C * n * eps &&
                        orth <= BOUND_C * n * eps;
                for (int j = 0; j < n; j++)
                    good &= isfinite(w[k * n + j]);
            }
            char what[200];
            snprintf(what, sizeof what, "eigen %s %s %s non-finite input: info -1, count 0, w%s NaN",
                     in, prec, vec ? "with vectors" : "values only", vec ? " and V" : "");
            check(st == BSYM_OK && nan_bad, what, dname, info[1], info[3]);
            snprintf(what, sizeof what, "eigen %s %s %s non-finite input: the other systems are fine",
                     in, prec, vec ? "with vectors" : "values only");
            check(st == BSYM_OK && good, what, dname, n, 0);
            /* count NULL: the same values and info */
            fill(nw, w2, -777);
            st = run_eig(dev, single, 'L', n, batch, Ain, din, ein, NULL, w2, vec ? V : NULL, NULL, info2);
            int same = st == BSYM_OK;
            for (int k = 0; k < batch; k++)
                same &= info2[k] == info[k];
            for (size_t i = 0; i < nw; i++)
                same &= (isnan(w[i]) && isnan(w2[i])) || w[i] == w2[i];
            snprintf(what, sizeof what, "eigen %s %s %s with count = NULL: same values and info", in,
                     prec, vec ? "with vectors" : "values only");
            check(same, what, dname, n, 0);
        }
    }
    free(full); free(A); free(d); free(e); free(w); free(V); free(w2);
}

/* Scaling A by 2^p (near overflow or underflow of the squares) scales the
 * values by 2^p and leaves the vectors alone, within the bound. */
static void test_eig_scaling(bsym_device dev, const char *dname, int single, int p)
{
    const int n = 16, batch = 3;
    const size_t nn = (size_t)n * n;
    double A[16 * 16 * 3], As[16 * 16 * 3], w[48], ws[48], b[48], bs[48], V[16 * 16 * 3], Vs[16 * 16 * 3];
    int info[4][3], cnt[3];
    for (int k = 0; k < batch; k++)
        sym_random(n, A + k * nn);
    to_precision(single, nn * batch, A);
    for (size_t i = 0; i < nn * batch; i++)
        As[i] = ldexp(A[i], p);
    bsym_status st = run_eig(dev, single, 'L', n, batch, A, NULL, NULL, NULL, w, V, cnt, info[0]);
    st = st ? st : run_eig(dev, single, 'L', n, batch, As, NULL, NULL, NULL, ws, Vs, cnt, info[1]);
    st = st ? st : run_eig(dev, single, 'L', n, batch, A, NULL, NULL, NULL, b, NULL, cnt, info[2]);
    st = st ? st : run_eig(dev, single, 'L', n, batch, As, NULL, NULL, NULL, bs, NULL, cnt, info[3]);
    double eps = single ? FLT_EPSILON : DBL_EPSILON, err = 0, errv = 0;
    int ok = st == BSYM_OK;
    for (int k = 0; k < batch; k++) {
        double s = max_abs(nn, A + k * nn);
        for (int r = 0; r < 4; r++)
            ok &= info[r][k] == 0;
        for (int j = 0; j < n; j++) {
            err = nmax(err, fabs(ldexp(ws[k * n + j], -p) - w[k * n + j]) / s);
            err = nmax(err, fabs(ldexp(bs[k * n + j], -p) - b[k * n + j]) / s);
            double dot = 0;
            for (int i = 0; i < n; i++)
                dot += V[k * nn + j * n + i] * Vs[k * nn + j * n + i];
            errv = nmax(errv, 1 - fabs(dot));
        }
    }
    char what[200];
    snprintf(what, sizeof what,
             "eigen of 2^%d A (%s): values scale (%.3g n eps max|A|), vectors stay (1-|v.vs| %.3g n eps)",
             p, single ? "float" : "double", err / (n * eps), errv / (n * eps));
    check(ok && err <= BOUND_C * n * eps && errv <= BOUND_C * n * eps, what, dname, p, st);
}

/* Runs fn in a child process (where fork exists): 1 when it died of a
 * signal (or a sanitizer made it exit non-zero), so that a crash is one
 * failed check, not the end of the tests. */
#if BSYM_TEST_FORK
static int crashes(void (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit none = {0, 0}; /* no core file: a dump takes long */
        setrlimit(RLIMIT_CORE, &none);
        fn();
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 0; /* no child: nothing learned */
    return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}
#else
static int crashes(void (*fn)(void))
{
    (void)fn;
    return 0;
}
#endif

/* n = 0 with batch > 0: validation lets the arrays be NULL. */
static void syev_n0_info_null(void)
{
    bsym_ctx *ctx = ctx_on(BSYM_DEVICE_CPU);
    bsym_dsyev(ctx, 'L', 0, 3, NULL, NULL, NULL, NULL, NULL, NULL);
    bsym_ctx_destroy(ctx);
}

/* ---- argument errors ---- */
static void test_eig_errors(void)
{
    bsym_ctx *ctx = ctx_on(BSYM_DEVICE_CPU);
    double a[4] = {2, 1, 1, 2}, d[2] = {2, 2}, e[1] = {1}, w[2], V[4];
    float fa[4] = {2, 1, 1, 2}, fw[2];
    int cnt[1], info[1];
    bsym_select idx = {BSYM_SELECT_INDEX, 1, 2, 0, 0}, val = {BSYM_SELECT_VALUE, 0, 0, 0, 5};
    struct {
        const char *what, *word; /* word: must appear in the message (or NULL) */
        bsym_select sel;
        char uplo;
        int nullw, nullinfo, nullA;
    } cases[] = {
        {"bad uplo", "uplo", {BSYM_SELECT_ALL, 0, 0, 0, 0}, 'X', 0, 0, 0},
        {"index il < 1", "il", {BSYM_SELECT_INDEX, 0, 1, 0, 0}, 'L', 0, 0, 0},
        {"index il > iu", "il", {BSYM_SELECT_INDEX, 2, 1, 0, 0}, 'L', 0, 0, 0},
        {"index iu > n", "iu", {BSYM_SELECT_INDEX, 1, 3, 0, 0}, 'L', 0, 0, 0},
        {"value vl >= vu", "vl", {BSYM_SELECT_VALUE, 0, 0, 1, 1}, 'L', 0, 0, 0},
        {"value vl > vu", "vl", {BSYM_SELECT_VALUE, 0, 0, 2, 1}, 'L', 0, 0, 0},
        {"value vl NaN", "vl", {BSYM_SELECT_VALUE, 0, 0, NAN, 1}, 'L', 0, 0, 0},
        {"value vu NaN", "vu", {BSYM_SELECT_VALUE, 0, 0, 0, NAN}, 'L', 0, 0, 0},
        {"unknown selection kind", NULL, {(bsym_select_kind)7, 1, 1, 0, 1}, 'L', 0, 0, 0},
        {"NULL w", "w", {BSYM_SELECT_ALL, 0, 0, 0, 0}, 'L', 1, 0, 0},
        {"NULL info", "info", {BSYM_SELECT_ALL, 0, 0, 0, 0}, 'L', 0, 1, 0},
        {"NULL A", "A", {BSYM_SELECT_ALL, 0, 0, 0, 0}, 'L', 0, 0, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int single = 0; single < 2; single++) {
            bsym_status st = single
                ? bsym_ssyev(ctx, cases[c].uplo, 2, 1, cases[c].nullA ? NULL : fa, &cases[c].sel,
                             cases[c].nullw ? NULL : fw, NULL, cnt, cases[c].nullinfo ? NULL : info)
                : bsym_dsyev(ctx, cases[c].uplo, 2, 1, cases[c].nullA ? NULL : a, &cases[c].sel,
                             cases[c].nullw ? NULL : w, V, cnt, cases[c].nullinfo ? NULL : info);
            const char *msg = bsym_ctx_message(ctx);
            char what[160];
            snprintf(what, sizeof what, "eigen %s: %s is an argument error with a message%s%s",
                     single ? "ssyev" : "dsyev", cases[c].what, cases[c].word ? " naming " : "",
                     cases[c].word ? cases[c].word : "");
            check(st == BSYM_ERR_ARG && strlen(msg) > 0 &&
                      (cases[c].word == NULL || strstr(msg, cases[c].word) != NULL),
                  what, "cpu", st, 0);
        }
    }
    /* stev: NULL d, NULL e with n > 1, a bad selection */
    check(bsym_dstev(ctx, 2, 1, NULL, e, NULL, w, V, cnt, info) == BSYM_ERR_ARG &&
              strlen(bsym_ctx_message(ctx)) > 0,
          "eigen stev: NULL d is an argument error", "cpu", 0, 0);
    check(bsym_dstev(ctx, 2, 1, d, NULL, NULL, w, V, cnt, info) == BSYM_ERR_ARG,
          "eigen stev: NULL e with n > 1 is an argument error", "cpu", 0, 0);
    check(bsym_dstev(ctx, 1, 1, d, NULL, NULL, w, V, cnt, info) == BSYM_OK && info[0] == 0 &&
              cnt[0] == 1 && fabs(w[0] - 2) <= 4 * DBL_EPSILON,
          "eigen stev: e may be NULL for n = 1", "cpu", info[0], cnt[0]);
    bsym_select bad_iu = {BSYM_SELECT_INDEX, 1, 3, 0, 0};
    check(bsym_dstev(ctx, 2, 1, d, e, &bad_iu, w, V, cnt, info) == BSYM_ERR_ARG,
          "eigen stev: iu > n is an argument error", "cpu", 0, 0);
    check(bsym_dsyev(ctx, 'L', -1, 1, a, NULL, w, V, cnt, info) == BSYM_ERR_ARG,
          "eigen syev: negative n", "cpu", 0, 0);
    check(bsym_dsyev(NULL, 'L', 2, 1, a, NULL, w, V, cnt, info) == BSYM_ERR_ARG,
          "eigen syev: NULL context", "cpu", 0, 0);
    /* empty problems */
    int info3[3] = {-7, -7, -7}, info2[2];
    check(bsym_dsyev(ctx, 'L', 0, 3, NULL, NULL, NULL, NULL, NULL, info3) == BSYM_OK &&
              info3[0] == 0 && info3[2] == 0,
          "eigen syev: n = 0 is fine (NULL A, w), info 0", "cpu", info3[0], info3[2]);
    check(!crashes(syev_n0_info_null), "eigen syev: n = 0, batch = 3 with info = NULL does not crash",
          "cpu", 0, 0);
    check(bsym_dsyev(ctx, 'L', 2, 0, NULL, NULL, NULL, NULL, NULL, NULL) == BSYM_OK,
          "eigen syev: batch = 0 is fine (NULL arrays)", "cpu", 0, 0);
    check(bsym_ssyev(ctx, 'U', 5, 0, NULL, &idx, NULL, NULL, NULL, NULL) == BSYM_OK,
          "eigen ssyev: batch = 0 with an index selection is fine", "cpu", 0, 0);
    check(bsym_sstev(ctx, 0, 2, NULL, NULL, &val, NULL, NULL, NULL, info2) == BSYM_OK,
          "eigen sstev: n = 0 is fine", "cpu", 0, 0);
    info2[0] = info2[1] = -7;
    check(bsym_dstev(ctx, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, info2) == BSYM_OK &&
              info2[0] == 0 && info2[1] == 0,
          "eigen stev: n = 0 sets info 0", "cpu", info2[0], info2[1]);
    check(bsym_dsyev(ctx, 'L', 2, 1, a, &idx, w, V, cnt, info) == BSYM_OK &&
              strcmp(bsym_ctx_message(ctx), "") == 0 && cnt[0] == 2 && fabs(w[0] - 1) < 1e-15 &&
              fabs(w[1] - 3) < 1e-15,
          "eigen syev: a good call after errors clears the message", "cpu", cnt[0], 0);
    /* the GPU: no device, a size error above BSYM_GPU_EIGEN_MAX_N, auto */
    bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
    bsym_status st = bsym_dsyev(ctx, 'L', 2, 1, a, NULL, w, V, cnt, info);
    if (!bsym_gpu_available())
        check(st == BSYM_ERR_NODEVICE && strlen(bsym_ctx_message(ctx)) > 0,
              "eigen: gpu without a GPU says why", "cpu", st, 0);
    else
        check(st == BSYM_OK && fabs(w[0] - 1) < 1e-14 && fabs(w[1] - 3) < 1e-14,
              "eigen: 2x2 on the GPU", "gpu", st, 0);
    int n = BSYM_GPU_EIGEN_MAX_N + 1;
    double *A = calloc((size_t)n * n, sizeof(double)), *W = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++)
        A[i + (size_t)i * n] = i + 1;
    if (bsym_gpu_available())
        check(bsym_dsyev(ctx, 'L', n, 1, A, NULL, W, NULL, cnt, info) == BSYM_ERR_SIZE,
              "eigen: n > BSYM_GPU_EIGEN_MAX_N on the GPU is a size error", "gpu", n, 0);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_AUTO);
    st = bsym_dsyev(ctx, 'L', n, 1, A, NULL, W, NULL, cnt, info);
    check(st == BSYM_OK && info[0] == 0 && cnt[0] == n && fabs(W[n - 1] - n) < 1e-12 &&
              bsym_ctx_last_device(ctx) == BSYM_DEVICE_CPU,
          "eigen: n > BSYM_GPU_EIGEN_MAX_N under auto runs on the CPU", "auto", n, st);
    free(A); free(W);
    bsym_ctx_destroy(ctx);
}

/* ---- CPU and GPU on the same batch ---- */

/* Values within the bound; vectors up to sign where the eigenvalue is well
 * separated (gap >= 0.01 max|A|): 1 - |v_cpu . v_gpu| <= c n eps +
 * 2 (c n eps / gap)^2, the bound of the angle between two vectors with
 * residuals c n eps. */
static void test_eig_cpu_gpu(int single, int n, int batch)
{
    const size_t nn = (size_t)n * n, nw = (size_t)n * batch;
    const double eps = single ? FLT_EPSILON : DBL_EPSILON, unit = BOUND_C * n * eps;
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *wc = malloc(sizeof(double) * nw), *wg = malloc(sizeof(double) * nw);
    double *bc = malloc(sizeof(double) * nw), *bg = malloc(sizeof(double) * nw);
    double *Vc = malloc(sizeof(double) * nn * batch), *Vg = malloc(sizeof(double) * nn * batch);
    int *cnt = malloc(sizeof(int) * batch), *info = malloc(sizeof(int) * batch * 4);
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    to_precision(single, nn * batch, full);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++)
        poison('U', n, A + k * nn);
    bsym_status st = run_eig(BSYM_DEVICE_CPU, single, 'U', n, batch, A, NULL, NULL, NULL, wc, Vc, cnt, info);
    st = st ? st : run_eig(BSYM_DEVICE_GPU, single, 'U', n, batch, A, NULL, NULL, NULL, wg, Vg, cnt, info + batch);
    st = st ? st : run_eig(BSYM_DEVICE_CPU, single, 'U', n, batch, A, NULL, NULL, NULL, bc, NULL, cnt, info + 2 * batch);
    st = st ? st : run_eig(BSYM_DEVICE_GPU, single, 'U', n, batch, A, NULL, NULL, NULL, bg, NULL, cnt, info + 3 * batch);
    int ok = st == BSYM_OK, compared = 0;
    double worst = 0, worstv = 0;
    for (int k = 0; k < batch * 4; k++)
        ok &= info[k] == 0;
    for (int k = 0; k < batch && ok; k++) {
        double s = max_abs(nn, full + k * nn);
        for (int j = 0; j < n; j++) {
            worst = nmax(worst, fabs(wc[k * n + j] - wg[k * n + j]) / s);
            worst = nmax(worst, fabs(bc[k * n + j] - bg[k * n + j]) / s);
            double gap = INFINITY;
            if (j > 0)
                gap = fmin(gap, wc[k * n + j] - wc[k * n + j - 1]);
            if (j + 1 < n)
                gap = fmin(gap, wc[k * n + j + 1] - wc[k * n + j]);
            gap /= s;
            if (!(gap >= 0.01))
                continue;
            long double dot = 0;
            for (int i = 0; i < n; i++)
                dot += (long double)Vc[k * nn + j * n + i] * Vg[k * nn + j * n + i];
            double dev = 1 - (double)fabsl(dot), allowed = unit + 2 * (unit / gap) * (unit / gap);
            worstv = nmax(worstv, dev / allowed);
            compared++;
        }
    }
    char what[200];
    snprintf(what, sizeof what,
             "eigen CPU vs GPU %s: values differ by %.3g n eps max|A| <= %g; vectors %.3g of the allowed (%d compared)",
             single ? "float" : "double", worst / (n * eps), BOUND_C, worstv, compared);
    check(ok && worst <= unit && worstv <= 1 && compared > 0, what, "cpu+gpu", n, batch);
    free(A); free(full); free(wc); free(wg); free(bc); free(bg); free(Vc); free(Vg); free(cnt); free(info);
}

/* The GPU's divide-and-conquer fallback: eigen.cu hands a system whose QL
 * rotation record would overflow to divide and conquer. A record of 40
 * rotations (BSYM_EIG_ROT_CAP, read at each call) sends most systems of a
 * batch there and keeps the small ones on QL, in one batch. */
static void test_eig_fallback(bsym_device dev, const char *dname, int single, int subset)
{
    setenv("BSYM_EIG_ROT_CAP", "40", 1);
    const int sizes[] = {3, 5, 16, 32, 33, 64, 65, 100};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        if (subset && sizes[s] != 5 && sizes[s] != 33 && sizes[s] != 65)
            continue; /* the sanitizers: each kernel once */
        test_eig_random(dev, dname, single, 'L', sizes[s], subset ? 2 : 7, 0);
        test_eig_random(dev, dname, single, 'U', sizes[s], subset ? 1 : 3, 1);
    }
    test_eig_select(dev, dname, single, 16, subset ? 2 : 5, 0);
    if (!subset) {
        test_eig_select(dev, dname, single, 33, 3, 1);
        test_eig_select(dev, dname, single, 70, 3, 0);
        test_eig_structured(dev, dname, single, 0, 21);
        test_eig_structured(dev, dname, single, 0, 84);
    }
    unsetenv("BSYM_EIG_ROT_CAP");
}

/* Graded matrices, A_ij 2^-g(i+j) (A random), many at once: where the
 * squares of a Householder column underflow while its entries are not
 * negligible beside its first, the reflector must be built from the column
 * scaled (core/reflector_impl.h's rule); without it tau did not match v and the
 * vectors lost orthogonality (up to 3.5e5 n eps, in 2.5 % of float systems
 * at n = 7, g = 8, and nearly all at n >= 62, g = 1: once taken for a
 * limit of divide and conquer). Every n and g here underflows somewhere. */
static void test_eig_graded_many(bsym_device dev, const char *dname, int single)
{
    static const struct { int n, g, batch; } cases[2][5] = {
        {{7, 64, 200}, {12, 48, 200}, {33, 24, 60}, {65, 12, 12}, {100, 8, 6}}, /* double */
        {{7, 8, 200}, {16, 8, 200}, {33, 4, 60}, {65, 1, 12}, {100, 1, 6}},     /* float */
    };
    for (int c = 0; c < 5; c++) {
        const int n = cases[single][c].n, g = cases[single][c].g, batch = cases[single][c].batch;
        const size_t nn = (size_t)n * n;
        double *full = malloc(sizeof(double) * nn * batch);
        for (int k = 0; k < batch; k++) {
            sym_random(n, full + k * nn);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    full[k * nn + i + (size_t)j * n] = ldexp(full[k * nn + i + (size_t)j * n], -(i + j) * g);
        }
        to_precision(single, nn * batch, full);
        char label[64];
        snprintf(label, sizeof label, "graded 2^-%d(i+j), %d systems", g, batch);
        eig_suite(dev, dname, single, label, c % 2 ? 'U' : 'L', n, batch, full, NULL, NULL, NULL, 1);
        free(full);
    }
}

/* Both shift rules of the GPU's QL with vectors, forced by
 * BSYM_EIG_QL_PERFECT at every size (perfect shifts, a values-only pass
 * first, or Wilkinson's alone; eigen.cu's ql_perfect picks one by n and
 * precision), the sizes around the rule's edges included: so whichever
 * side of an edge a size falls on, the other rule is tested too, without a
 * copy of the rule here. */
static void test_eig_shift_rule(bsym_device dev, const char *dname, int single)
{
    const int sizes[] = {2, 5, 16, 24, 25, 28, 29, 32, 33, 36, 37, 64, 65};
    for (int on = 0; on < 2; on++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            setenv("BSYM_EIG_QL_PERFECT", on ? "1" : "0", 1);
            test_eig_random(dev, dname, single, 'L', sizes[s], 5, 0);
            test_eig_random(dev, dname, single, 'U', sizes[s], 3, 1);
            test_eig_structured(dev, dname, single, EK_CLUSTER, sizes[s]);
            test_eig_structured(dev, dname, single, EK_SINGULAR, sizes[s]);
        }
    unsetenv("BSYM_EIG_QL_PERFECT");
}

/* The GPU eigensolver's sub-batches (eigen.cu's solve_all: Householder,
 * QL and the replay of neighbouring sub-batches side by side, two record
 * buffers; above n = 32 the replays on a stream of their own):
 * BSYM_EIG_SUBS = 3 splits the batches here (7 systems: 3, 3, 1;
 * 5: 2, 2, 1), values and vectors, full and tridiagonal input, selections,
 * bad systems, and the fallback of overflowed records within sub-batches. */
static void test_eig_subbatches(bsym_device dev, const char *dname, int single)
{
    setenv("BSYM_EIG_SUBS", "3", 1);
    const int sizes[] = {2, 5, 16, 32, 33, 64, 65, 100};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        test_eig_random(dev, dname, single, 'L', sizes[s], 7, 0);
        test_eig_random(dev, dname, single, 'U', sizes[s], 5, 1);
    }
    test_eig_select(dev, dname, single, 16, 5, 0);
    test_eig_select(dev, dname, single, 33, 5, 1);
    test_eig_bad(dev, dname, single, 5);
    test_eig_bad(dev, dname, single, 33);
    setenv("BSYM_EIG_ROT_CAP", "40", 1);
    test_eig_random(dev, dname, single, 'L', 16, 7, 0);
    test_eig_random(dev, dname, single, 'L', 65, 5, 0);
    unsetenv("BSYM_EIG_ROT_CAP");
    /* both rules of the replays' stream, forced (BSYM_EIG_REPLAY_STREAM: on
     * their own stream, or behind Householder on the caller's), at every
     * size: eigen.cu's replay_own_stream is not copied here */
    for (int own = 0; own < 2; own++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            setenv("BSYM_EIG_REPLAY_STREAM", own ? "1" : "0", 1);
            test_eig_random(dev, dname, single, 'L', sizes[s], 7, 0);
        }
    unsetenv("BSYM_EIG_REPLAY_STREAM");
    unsetenv("BSYM_EIG_SUBS");
}

/* Every n of the GPU eigensolver, 1 .. BSYM_GPU_EIGEN_MAX_N, both
 * precisions: random full input (every n) and tridiagonal input (every
 * seventh), values and vectors (eig_suite's runs); then n + 1, a size
 * error. */
static void test_eig_gpu_sizes(const char *dname)
{
    for (int single = 0; single < 2; single++) {
        for (int n = 1; n <= BSYM_GPU_EIGEN_MAX_N; n++) {
            /* the long double Jacobi reference (n^3 a sweep, on the host)
             * at every eighth n above 64; residual, orthogonality, trace
             * and values-only against vectors at every n */
            const int nref = n <= 64 || n % 8 == 0 ? 1 : 0;
            test_eig_random_ref(BSYM_DEVICE_GPU, dname, single, n % 2 ? 'L' : 'U', n, n <= 64 ? 3 : 2, 0, nref);
            if (n % 7 == 0)
                test_eig_random_ref(BSYM_DEVICE_GPU, dname, single, 'L', n, 2, 1, nref);
        }
        test_eig_random(BSYM_DEVICE_GPU, dname, single, 'L', BSYM_GPU_EIGEN_MAX_N + 1, 1, 0);
    }
}

/* Every eigensolver check on one device, both precisions. */
/* The eigensolvers' launch shapes once each (groups of 8, 16 and 32 lanes,
 * row-update caps 32 and 64, values only and vectors, full and tridiagonal
 * input, both precisions): the --subset run under compute-sanitizer, whose
 * racecheck does not finish test_eig_family. */
static void test_eig_shapes(bsym_device dev, const char *dname)
{
    const int sizes[] = {5, 16, 33, 64};
    for (int single = 0; single < 2; single++) {
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            test_eig_random(dev, dname, single, 'L', sizes[s], sizes[s] > 32 ? 1 : 2, 0);
            test_eig_random(dev, dname, single, 'L', sizes[s], sizes[s] > 32 ? 1 : 2, 1);
        }
        test_eig_random(dev, dname, single, 'L', 65, 1, 0);
        test_eig_select(dev, dname, single, 16, 2, 0);
        test_eig_fallback(dev, dname, single, 1);
        setenv("BSYM_EIG_SUBS", "2", 1);
        test_eig_random(dev, dname, single, 'L', 33, 3, 0);
        test_eig_random(dev, dname, single, 'L', 33, 3, 1);
        unsetenv("BSYM_EIG_SUBS");
    }
}

static void test_eig_family(bsym_device dev, const char *dname)
{
    const int rand_sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 128};
    const int tri_sizes[] = {1, 2, 3, 5, 16, 33, 64, 65, 100};
    const int struct_sizes[] = {1, 2, 3, 4, 7, 16, 21, 32, 33, 63, 64, 65, 84, 100};
    const int sel_sizes[] = {1, 2, 5, 16, 33, 64, 100, 129};
    for (int single = 0; single < 2; single++) {
        for (size_t s = 0; s < sizeof rand_sizes / sizeof *rand_sizes; s++) {
            int n = rand_sizes[s], batch = n <= 17 ? 23 : n <= 47 ? 7 : 3;
            if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_EIGEN_MAX_N)
                batch = 1;
            test_eig_random(dev, dname, single, 'L', n, batch, 0);
            test_eig_random(dev, dname, single, 'U', n, 3, 0);
        }
        for (size_t s = 0; s < sizeof tri_sizes / sizeof *tri_sizes; s++)
            test_eig_random(dev, dname, single, 'L', tri_sizes[s], 5, 1);
        for (int kind = 0; kind < EK_KINDS; kind++)
            for (size_t s = 0; s < sizeof struct_sizes / sizeof *struct_sizes; s++)
                test_eig_structured(dev, dname, single, kind, struct_sizes[s]);
        test_eig_1x1(dev, dname, single);
        test_eig_uplo(dev, dname, single, 7);
        test_eig_uplo(dev, dname, single, 33);
        for (size_t s = 0; s < sizeof sel_sizes / sizeof *sel_sizes; s++) {
            test_eig_select(dev, dname, single, sel_sizes[s], 5, 0);
            test_eig_select(dev, dname, single, sel_sizes[s], 3, 1);
        }
        test_eig_select_exact(dev, dname, single);
        test_eig_zero_exact(dev, dname, single);
        test_eig_tiny_coupling(dev, dname, single);
        test_eig_bad(dev, dname, single, 5);
        test_eig_bad(dev, dname, single, 33);
        test_eig_scaling(dev, dname, single, single ? 100 : 1000);
        test_eig_scaling(dev, dname, single, single ? -100 : -1000);
        test_eig_graded_many(dev, dname, single);
        if (dev == BSYM_DEVICE_GPU) {
            test_eig_fallback(dev, dname, single, 0);
            test_eig_shift_rule(dev, dname, single);
            test_eig_subbatches(dev, dname, single);
        }
    }
    if (dev == BSYM_DEVICE_GPU)
        test_eig_gpu_sizes(dname);
}

/* ==== truncated-spectrum and automatic solves, plans, least squares ======= */

/* A = Q diag(lam) Q^T with Q = I - 2 v v^T / v^T v (v random): full, double. */
static void known_spectrum(int n, const double *lam, double *a, double *q)
{
    double *v = malloc(sizeof(double) * n), vv = 0;
    for (int i = 0; i < n; i++) {
        v[i] = urand();
        vv += v[i] * v[i];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            q[i + j * n] = (i == j) - 2 * v[i] * v[j] / vv;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            long double s = 0;
            for (int k = 0; k < n; k++)
                s += (long double)q[i + k * n] * lam[k] * q[j + k * n];
            a[i + j * n] = (double)s;
        }
    free(v);
}

/* The truncated solution of Q diag(lam) Q^T x = b (|lam| >= rcond max|lam|,
 * lam != 0), long double; returns the rank. */
static int truncated_reference(int n, const double *lam, const double *q, const double *b,
                               double rcond, long double *x)
{
    double big = 0;
    int rank = 0;
    for (int k = 0; k < n; k++)
        big = fabs(lam[k]) > big ? fabs(lam[k]) : big;
    for (int i = 0; i < n; i++)
        x[i] = 0;
    for (int k = 0; k < n; k++) {
        if (!(fabs(lam[k]) >= rcond * big) || lam[k] == 0)
            continue;
        rank++;
        long double c = 0;
        for (int i = 0; i < n; i++)
            c += (long double)q[i + k * n] * b[i];
        for (int i = 0; i < n; i++)
            x[i] += q[i + k * n] * c / lam[k];
    }
    return rank;
}

/* The spectrum of system kind: 0 SPD in [1, 10]; 1 the same with one
 * eigenvalue 1e-9; 2 indefinite, |lam| in [1, 10]; 3 one exact 0; 4
 * indefinite with a pair +-1e-8. Returns how many are below 1e-5 max. */
enum { SK_SPD, SK_ILL, SK_INDEF, SK_SINGULAR, SK_PAIR, SK_KINDS };
static int kind_spectrum(int kind, int n, double *lam)
{
    for (int k = 0; k < n; k++)
        lam[k] = (1 + 9 * (0.5 + 0.5 * urand())) * (kind == SK_INDEF || kind == SK_PAIR ? (k % 2 ? -1 : 1) : 1);
    int small = 0;
    if (kind == SK_ILL || kind == SK_SINGULAR)
        lam[n / 2] = kind == SK_ILL ? 1e-9 : 0, small = 1;
    if (kind == SK_PAIR && n >= 2)
        lam[0] = 1e-8, lam[1] = -1e-8, small = 2;
    return small;
}

/* bsym_*solvex in the given precision: A, B double (converted for single). */
static bsym_status solvex_as(bsym_ctx *ctx, int single, const bsym_solve_opts *o, int n, int nrhs, int batch,
                             const double *A, const double *B, double *X, int *info, int *rank, int *used)
{
    bsym_status st;
    if (!single) {
        memcpy(X, B, sizeof(double) * n * nrhs * batch);
        return bsym_dsolvex(ctx, o, 'L', n, nrhs, batch, A, X, info, rank, used);
    }
    float *fa = malloc(sizeof(float) * n * n * batch + 1), *fx = malloc(sizeof(float) * n * nrhs * batch + 1);
    for (int i = 0; i < n * n * batch; i++)
        fa[i] = (float)A[i];
    for (int i = 0; i < n * nrhs * batch; i++)
        fx[i] = (float)B[i];
    st = bsym_ssolvex(ctx, o, 'L', n, nrhs, batch, fa, fx, info, rank, used);
    for (int i = 0; i < n * nrhs * batch; i++)
        X[i] = fx[i];
    free(fa);
    free(fx);
    return st;
}

/* Every kind of spectrum, two per kind, through EIGEN and AUTO: ranks, the
 * paths taken, and the solutions against the truncated reference. The kept
 * spectrum has condition <= 10, so the bound is a small multiple of n eps. */
static void test_sx_known(bsym_device dev, const char *dname, int single, int n)
{
    const int per = 2, batch = SK_KINDS * per, nrhs = 2;
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    double *A = malloc(sizeof(double) * n * n * batch), *Q = malloc(sizeof(double) * n * n * batch);
    double *lam = malloc(sizeof(double) * n * batch), *B = malloc(sizeof(double) * n * nrhs * batch);
    double *X = malloc(sizeof(double) * n * nrhs * batch);
    long double *ref = malloc(sizeof(long double) * n);
    int info[SK_KINDS * 2], rank[SK_KINDS * 2], used[SK_KINDS * 2], small[SK_KINDS * 2], rref[SK_KINDS * 2];
    for (int k = 0; k < batch; k++) {
        small[k] = kind_spectrum(k / per, n, lam + k * n);
        if (n == 1 && k / per == SK_PAIR)
            small[k] = 0;
        known_spectrum(n, lam + k * n, A + k * n * n, Q + k * n * n);
    }
    for (int i = 0; i < n * nrhs * batch; i++)
        B[i] = urand();
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    char what[200];
    for (int auto_ = 0; auto_ < 2; auto_++) {
        bsym_solve_opts o = {auto_ ? BSYM_METHOD_AUTO : BSYM_METHOD_EIGEN, 1e-5, 0, NULL};
        bsym_status st = solvex_as(ctx, single, &o, n, nrhs, batch, A, B, X, info, rank, used);
        const char *mname = auto_ ? "auto" : "eigen";
        snprintf(what, sizeof what, "solvex %s %s n=%d status", mname, single ? "single" : "double", n);
        check(st == BSYM_OK, what, dname, n, st);
        double worst = 0;
        int ranks_ok = 1, paths_ok = 1, info_ok = 1;
        for (int k = 0; k < batch; k++) {
            info_ok &= info[k] == 0;
            for (int r = 0; r < nrhs; r++) {
                rref[k] = truncated_reference(n, lam + k * n, Q + k * n * n, B + (k * nrhs + r) * n, 1e-5, ref);
                long double num = 0, den = 0;
                for (int i = 0; i < n; i++) {
                    long double dx = fabsl(X[(k * nrhs + r) * n + i] - ref[i]);
                    num = dx > num ? dx : num;
                    den = fabsl(ref[i]) > den ? fabsl(ref[i]) : den;
                }
                /* b has entries below 1, the kept |lam| are >= 1 */
                double e = (double)(num / (den > 1 ? den : 1)) / (n * eps);
                worst = e > worst || e != e ? e : worst;
            }
            /* the rank is that of the reference (small n: a lone tiny
             * eigenvalue is not small relative to the others); auto keeps
             * the cheap solution of the full-rank systems (LDL^T where
             * certified, which needs A positive definite, else Householder
             * + PCR), redoes the others */
            ranks_ok &= rank[k] == rref[k];
            if (!auto_ || rref[k] < n)
                paths_ok &= used[k] == BSYM_METHOD_EIGEN;
            else
                paths_ok &= used[k] == BSYM_METHOD_TRIDIAG ||
                            (used[k] == BSYM_METHOD_LDLT && (k / per == SK_SPD || n == 1));
        }
        (void)small;
        snprintf(what, sizeof what, "solvex %s %s n=%d: info 0 for all kinds", mname, single ? "single" : "double", n);
        check(info_ok, what, dname, n, 0);
        snprintf(what, sizeof what, "solvex %s %s n=%d: rank = n - eigenvalues below rcond", mname,
                 single ? "single" : "double", n);
        check(ranks_ok, what, dname, n, 0);
        snprintf(what, sizeof what, "solvex %s %s n=%d: paths (ldlt or tridiag for well-conditioned, eigen else)",
                 mname, single ? "single" : "double", n);
        check(paths_ok, what, dname, n, 0);
        snprintf(what, sizeof what, "solvex %s %s n=%d: error vs truncated reference %.3g n eps <= 50", mname,
                 single ? "single" : "double", n, worst);
        check(worst <= 50, what, dname, n, (long long)worst);
        note(auto_ ? "solvex auto: error vs truncated reference" : "solvex eigen: error vs truncated reference",
             dev, single, worst * n * eps, n);
    }
    bsym_ctx_destroy(ctx);
    free(A); free(Q); free(lam); free(B); free(X); free(ref);
}

/* The plan across calls: no history -> LDLT; after well-conditioned SPD
 * systems -> LDLT; after a call where most needed the truncated spectrum ->
 * EIGEN; after an EIGEN call where none did -> LDLT again; a history of
 * mostly indefinite systems -> TRIDIAG. The LDLT start certifies each system:
 * the ill-conditioned SPD ones are redone (Householder, then EIGEN at rank
 * n - 1). Also one NaN system in a batch: info -1, NaN, the rest solved, not
 * counted. */
static void test_sx_plan(bsym_device dev, const char *dname, int single)
{
    const int n = 12, batch = 10;
    double *A = malloc(sizeof(double) * n * n * batch), *Q = malloc(sizeof(double) * n * n);
    double lam[12], *B = malloc(sizeof(double) * n * batch), *X = malloc(sizeof(double) * n * batch);
    int info[10], rank[10], used[10];
    bsym_plan plan;
    bsym_plan_init(&plan);
    bsym_solve_opts o = {BSYM_METHOD_AUTO, 1e-5, 0, &plan};
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    for (int i = 0; i < n * batch; i++)
        B[i] = urand();
    char what[160];
    const char *p = single ? "single" : "double";
    /* mix: the number of ill-conditioned systems per call */
    const int ill[] = {0, 0, 8, 0};
    const bsym_method expect[] = {BSYM_METHOD_LDLT, BSYM_METHOD_LDLT, BSYM_METHOD_LDLT, BSYM_METHOD_EIGEN};
    check(bsym_plan_start(&plan) == BSYM_METHOD_LDLT && bsym_plan_start(NULL) == BSYM_METHOD_LDLT,
          "plan: no history starts with LDLT", dname, 0, 0);
    const bsym_plan indef = {3, 100, 51, 10, 10, 5}, mixed = {3, 100, 50, 10, 10, 5}, most = {3, 100, 0, 6, 10, 6};
    check(bsym_plan_start(&indef) == BSYM_METHOD_TRIDIAG && bsym_plan_start(&mixed) == BSYM_METHOD_LDLT &&
              bsym_plan_start(&most) == BSYM_METHOD_EIGEN,
          "plan: TRIDIAG after mostly indefinite systems, EIGEN after most truncated", dname, 0, 0);
    for (int call = 0; call < 4; call++) {
        for (int k = 0; k < batch; k++) {
            kind_spectrum(k < ill[call] ? SK_ILL : SK_SPD, n, lam);
            known_spectrum(n, lam, A + k * n * n, Q);
        }
        check(bsym_plan_start(&plan) == expect[call], "plan: the path of the next call", dname, call,
              bsym_plan_start(&plan));
        bsym_status st = solvex_as(ctx, single, &o, n, 1, batch, A, B, X, info, rank, used);
        int ok = st == BSYM_OK;
        for (int k = 0; k < batch; k++) {
            const int redone = k < ill[call];
            const int path = expect[call] == BSYM_METHOD_EIGEN || redone ? BSYM_METHOD_EIGEN : (int)expect[call];
            ok &= info[k] == 0 && rank[k] == n - redone && used[k] == path;
        }
        snprintf(what, sizeof what, "plan %s call %d: paths and ranks", p, call);
        check(ok, what, dname, call, st);
        if (call == 2) {
            /* the same batch with a fresh plan: LDLT, 8 of 10 redone */
            bsym_plan p2;
            bsym_plan_init(&p2);
            bsym_solve_opts o2 = {BSYM_METHOD_AUTO, 1e-5, 0, &p2};
            st = solvex_as(ctx, single, &o2, n, 1, batch, A, B, X, info, rank, used);
            check(st == BSYM_OK && p2.calls == 1 && p2.systems == batch && p2.fallback == 8 &&
                      p2.last_fallback == 8 && p2.not_spd <= (single ? 8 : 0),
                  "plan: counts of an LDLT call with 8 of 10 redone", dname, p2.fallback, p2.systems);
            plan = p2;
        }
    }
    /* after an EIGEN call where none needed it: LDLT again */
    check(plan.last_fallback == 0 && bsym_plan_start(&plan) == BSYM_METHOD_LDLT,
          "plan: an EIGEN call without truncation leads back to LDLT", dname, plan.last_fallback, 0);
    /* one NaN system */
    bsym_plan_init(&plan);
    A[3 * n * n + 1] = NAN;
    bsym_status st = solvex_as(ctx, single, &o, n, 1, batch, A, B, X, info, rank, used);
    int nan_ok = st == BSYM_OK && info[3] == -1 && rank[3] == -1 && X[3 * n] != X[3 * n];
    for (int k = 0; k < batch; k++)
        nan_ok &= k == 3 || (info[k] == 0 && rank[k] == n);
    check(nan_ok && plan.systems == batch - 1, "solvex auto: one NaN system, the others solved and counted",
          dname, info[3], plan.systems);
    bsym_ctx_destroy(ctx);
    free(A); free(Q); free(B); free(X);
}

/* Double storage under float arithmetic (bsym_dssolvex) against bsym_ssolvex
 * on the rounded arrays: the same numbers (the same float kernels; only
 * where the conversion happens differs), info, rank and used, for every
 * method, both triangles, the lanes (n <= 64) and the one-system (n > 64)
 * paths, on a mix of SPD, indefinite and ill-conditioned systems and one NaN. */
static void test_dssolvex(bsym_device dev, const char *dname)
{
    const int sizes[] = {5, 33, 70}, batch = 21, nrhs = 2;
    const bsym_method methods[] = {BSYM_METHOD_AUTO, BSYM_METHOD_LDLT, BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN};
    for (int si = 0; si < (dev == BSYM_DEVICE_GPU ? 2 : 3); si++) { /* the GPU's dense limit: 64 */
        const int n = sizes[si];
        double *A = malloc(sizeof(double) * n * n * batch), *Q = malloc(sizeof(double) * n * n);
        double *lam = malloc(sizeof(double) * n), *B = malloc(sizeof(double) * n * nrhs * batch);
        double *X = malloc(sizeof(double) * n * nrhs * batch);
        float *fa = malloc(sizeof(float) * n * n * batch), *fx = malloc(sizeof(float) * n * nrhs * batch);
        int info[21], rank[21], used[21], finfo[21], frank[21], fused[21];
        for (int k = 0; k < batch; k++) {
            kind_spectrum(k % 3 == 0 ? SK_SPD : k % 3 == 1 ? SK_INDEF : SK_ILL, n, lam);
            known_spectrum(n, lam, A + (size_t)k * n * n, Q);
        }
        A[(size_t)4 * n * n + 1] = NAN; /* system 4, lower triangle */
        for (int i = 0; i < n * nrhs * batch; i++)
            B[i] = urand();
        bsym_ctx *ctx;
        bsym_ctx_create(&ctx);
        bsym_ctx_set_device(ctx, dev);
        for (int mi = 0; mi < 4; mi++)
            for (int up = 0; up < 2; up++) {
                const char uplo = up ? 'U' : 'L';
                bsym_solve_opts o = {methods[mi], 1e-5, 0, NULL};
                for (int i = 0; i < n * n * batch; i++)
                    fa[i] = (float)A[i];
                for (int i = 0; i < n * nrhs * batch; i++)
                    fx[i] = (float)B[i];
                memcpy(X, B, sizeof(double) * n * nrhs * batch);
                bsym_status s1 = bsym_dssolvex(ctx, &o, uplo, n, nrhs, batch, A, X, info, rank, used);
                bsym_status s2 = bsym_ssolvex(ctx, &o, uplo, n, nrhs, batch, fa, fx, finfo, frank, fused);
                int same = s1 == BSYM_OK && s2 == BSYM_OK;
                double worst = 0;
                for (int k = 0; k < batch; k++) {
                    same &= info[k] == finfo[k] && rank[k] == frank[k] && used[k] == fused[k];
                    for (int i = 0; i < n * nrhs; i++) {
                        const double a = X[(size_t)k * n * nrhs + i], b = fx[(size_t)k * n * nrhs + i];
                        if (a != a || b != b) {
                            same &= (a != a) == (b != b);
                            continue;
                        }
                        const double d = fabs(a - b) / (fabs(b) > 1e-30 ? fabs(b) : 1e-30);
                        worst = d > worst ? d : worst;
                    }
                }
                same &= info[4] == (up ? finfo[4] : -1); /* the NaN is in the lower triangle */
                char what[160];
                snprintf(what, sizeof what, "dssolvex method %d uplo %c n=%d: as ssolvex on the rounded arrays (rel. diff %.2g)",
                         (int)methods[mi], uplo, n, worst);
                check(same && worst <= 64 * FLT_EPSILON, what, dname, n, mi);
            }
        bsym_ctx_destroy(ctx);
        free(A); free(Q); free(lam); free(B); free(X); free(fa); free(fx);
    }
}

/* Spectra of the equivalence test: eigenvalues lam[0..n-1] of family f. */
enum { EQ_RANDOM, EQ_XI, EQ_GRADED, EQ_CLUSTERED, EQ_INDEF, EQ_EDGE_LOW, EQ_EDGE_HIGH, EQ_ILL, EQ_FAMILIES };
static const char *eq_names[] = {"random", "Xi_0.5", "graded", "clustered", "indefinite",
                                 "edge 1e-5 (1 - 2^-10)", "edge 1e-5 (1 + 2^-10)", "ill 1e-9"};
static void eq_spectrum(int f, int n, double *lam)
{
    for (int k = 0; k < n; k++) {
        const double r = 0.5 + 0.5 * urand();
        switch (f) {
        case EQ_RANDOM: lam[k] = 1 + 99 * r; break;
        case EQ_XI: lam[k] = k == 0 ? 1 + 0.5 * (n - 1) : 0.5; break; /* Xi_rho (1 on the diagonal, rho = 0.5 elsewhere) */
        case EQ_GRADED: lam[k] = pow(2.0, -(double)k * 15 / (n > 1 ? n - 1 : 1)); break; /* down to 3e-5 */
        case EQ_CLUSTERED: lam[k] = k == 0 ? 1 : 1e-5 * (1 + 1e-3 * k); break;
        case EQ_INDEF: lam[k] = (1 + 9 * r) * (k % 2 ? -1 : 1); break;
        default: lam[k] = (1 + r) * (k % 3 == 2 ? -1 : 1); break;
        }
    }
    /* the edge: the smallest |l| at rcond max|l| (1 -+ 2^-10) */
    if (f == EQ_EDGE_LOW || f == EQ_EDGE_HIGH || f == EQ_ILL) {
        double big = 0;
        for (int k = 0; k < n; k++)
            big = fabs(lam[k]) > big ? fabs(lam[k]) : big;
        lam[n - 1] = f == EQ_ILL ? 1e-9 * big : 1e-5 * big * (f == EQ_EDGE_LOW ? 1 - 1.0 / 1024 : 1 + 1.0 / 1024);
    }
}

/* The LDLT start (with its certificate) and the Householder start send
 * exactly the same systems to the truncated spectrum, with the same ranks,
 * on every family; random signs of the edge families too (SPD and not). */
static void test_sx_equivalence(bsym_device dev, const char *dname, int single, int n)
{
    const int per = 6, batch = EQ_FAMILIES * per;
    double *A = malloc(sizeof(double) * n * n * batch), *Q = malloc(sizeof(double) * n * n);
    double *lam = malloc(sizeof(double) * n), *B = malloc(sizeof(double) * n * batch);
    double *X = malloc(sizeof(double) * n * batch);
    int *info = malloc(sizeof(int) * batch * 2), *rank = malloc(sizeof(int) * batch * 2);
    int *used = malloc(sizeof(int) * batch * 2);
    for (int k = 0; k < batch; k++) {
        eq_spectrum(k / per, n, lam);
        if (k % 2 && k / per >= EQ_EDGE_LOW) /* half of the edge systems positive definite */
            for (int i = 0; i < n; i++)
                lam[i] = fabs(lam[i]);
        known_spectrum(n, lam, A + (size_t)k * n * n, Q);
    }
    for (int i = 0; i < n * batch; i++)
        B[i] = urand();
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    /* start LDLT: no history; start TRIDIAG: a history of indefinite systems */
    bsym_plan fresh, indef = {1, 10, 10, 0, 10, 0};
    bsym_plan_init(&fresh);
    bsym_solve_opts o[2] = {{BSYM_METHOD_AUTO, 1e-5, 0, &fresh}, {BSYM_METHOD_AUTO, 1e-5, 0, &indef}};
    bsym_status st0 = solvex_as(ctx, single, &o[0], n, 1, batch, A, B, X, info, rank, used);
    bsym_status st1 = solvex_as(ctx, single, &o[1], n, 1, batch, A, B, X, info + batch, rank + batch, used + batch);
    for (int f = 0; f < EQ_FAMILIES; f++) {
        int same = st0 == BSYM_OK && st1 == BSYM_OK, truncated = 0, certified = 0;
        for (int k = f * per; k < (f + 1) * per; k++) {
            same &= (used[k] == BSYM_METHOD_EIGEN) == (used[batch + k] == BSYM_METHOD_EIGEN) &&
                    rank[k] == rank[batch + k] && info[k] == 0 && info[batch + k] == 0 &&
                    used[batch + k] != BSYM_METHOD_LDLT;
            truncated += used[k] == BSYM_METHOD_EIGEN;
            certified += used[k] == BSYM_METHOD_LDLT;
        }
        char what[200];
        snprintf(what, sizeof what, "auto %s n=%d %s: the LDLT start truncates the same systems as the Householder start (%d of %d; %d certified)",
                 single ? "single" : "double", n, eq_names[f], truncated, per, certified);
        check(same, what, dname, f, truncated);
        if (f == EQ_RANDOM) { /* positive definite, condition <= 100: the certificate must hold */
            snprintf(what, sizeof what, "auto %s n=%d %s: every well-conditioned positive definite system certified (%d of %d)",
                     single ? "single" : "double", n, eq_names[f], certified, per);
            check(certified == per, what, dname, f, certified);
        }
    }
    bsym_ctx_destroy(ctx);
    free(A); free(Q); free(lam); free(B); free(X); free(info); free(rank); free(used);
}

/* Least squares against references in long double: full rank (normal
 * equations in long double), weights, two responses, a duplicated column
 * (minimum norm: the coefficient split in two), a negative weight and a NaN
 * in X (info -1 for that system only). */
static void test_lsfit(bsym_device dev, const char *dname, int single, int m, int p)
{
    const int batch = 6, nrhs = 2;
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    double *X = malloc(sizeof(double) * m * p * batch), *Y = malloc(sizeof(double) * m * nrhs * batch);
    double *W = malloc(sizeof(double) * m * batch), *beta = malloc(sizeof(double) * p * nrhs * batch);
    double *rss = malloc(sizeof(double) * nrhs * batch);
    int info[6], rank[6], used[6];
    for (int i = 0; i < m * p * batch; i++)
        X[i] = urand();
    for (int i = 0; i < m * nrhs * batch; i++)
        Y[i] = urand();
    for (int i = 0; i < m * batch; i++)
        W[i] = 0.5 + 0.5 * (urand() + 1);
    const int dup = 2, negw = 4, nanx = 5; /* systems with a duplicated column, bad input */
    if (p >= 2)
        for (int r = 0; r < m; r++)
            X[dup * m * p + r + (p - 1) * m] = X[dup * m * p + r];
    W[negw * m + 1] = -1;
    X[nanx * m * p + (m * p > 3 ? 3 : 0)] = NAN;
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    bsym_solve_opts o = {BSYM_METHOD_AUTO, 1e-5, 0, NULL};
    bsym_status st;
    if (!single) {
        st = bsym_dlsfit(ctx, &o, m, p, nrhs, batch, X, Y, W, m, beta, rss, rank, used, info);
    } else {
        float *fx = malloc(sizeof(float) * m * p * batch), *fy = malloc(sizeof(float) * m * nrhs * batch);
        float *fw = malloc(sizeof(float) * m * batch), *fb = malloc(sizeof(float) * p * nrhs * batch);
        float *fr = malloc(sizeof(float) * nrhs * batch);
        for (int i = 0; i < m * p * batch; i++)
            fx[i] = (float)X[i];
        for (int i = 0; i < m * nrhs * batch; i++)
            fy[i] = (float)Y[i];
        for (int i = 0; i < m * batch; i++)
            fw[i] = (float)W[i];
        st = bsym_slsfit(ctx, &o, m, p, nrhs, batch, fx, fy, fw, m, fb, fr, rank, used, info);
        for (int i = 0; i < p * nrhs * batch; i++)
            beta[i] = fb[i];
        for (int i = 0; i < nrhs * batch; i++)
            rss[i] = fr[i];
        free(fx); free(fy); free(fw); free(fb); free(fr);
    }
    char what[200];
    const char *ps = single ? "single" : "double";
    snprintf(what, sizeof what, "lsfit %s m=%d p=%d status", ps, m, p);
    check(st == BSYM_OK, what, dname, m, st);
    double worst = 0, worst_rss = 0;
    int ok = 1;
    long double *G = malloc(sizeof(long double) * p * (p + 1)), *ref = malloc(sizeof(long double) * p);
    for (int k = 0; k < batch; k++) {
        if (k == negw || k == nanx) {
            ok &= info[k] == -1 && rank[k] == -1 && beta[k * p * nrhs] != beta[k * p * nrhs] &&
                  rss[k * nrhs] != rss[k * nrhs];
            continue;
        }
        const int q = k == dup && p >= 2 ? p - 1 : p; /* the independent columns */
        ok &= info[k] == 0 && rank[k] == q;
        for (int c = 0; c < nrhs; c++) {
            /* normal equations of the first q columns in long double, solved
             * by Gaussian elimination (Cholesky order, SPD) */
            for (int i = 0; i < q; i++) {
                for (int j = 0; j <= q; j++) {
                    long double s = 0;
                    for (int r = 0; r < m; r++)
                        s += (long double)W[k * m + r] * X[k * m * p + r + i * m] *
                             (j < q ? X[k * m * p + r + j * m] : Y[(k * nrhs + c) * m + r]);
                    G[i + j * q] = s;
                }
            }
            for (int j = 0; j < q; j++)
                for (int i = j + 1; i < q; i++) {
                    long double f = G[i + j * q] / G[j + j * q];
                    for (int l = j; l <= q; l++)
                        G[i + l * q] -= f * G[j + l * q];
                }
            for (int i = q - 1; i >= 0; i--) {
                long double s = G[i + q * q];
                for (int j = i + 1; j < q; j++)
                    s -= G[i + j * q] * ref[j];
                ref[i] = s / G[i + i * q];
            }
            long double num = 0, den = 0, rs = 0;
            for (int i = 0; i < p; i++) {
                /* a duplicated column shares its coefficient (minimum norm) */
                long double r = k == dup && p >= 2 ? (i == 0 || i == p - 1 ? ref[0] / 2 : ref[i]) : ref[i];
                long double d = fabsl(beta[(k * nrhs + c) * p + i] - r);
                num = d > num ? d : num;
                den = fabsl(r) > den ? fabsl(r) : den;
            }
            for (int r = 0; r < m; r++) {
                long double e = Y[(k * nrhs + c) * m + r];
                for (int i = 0; i < q; i++)
                    e -= (long double)X[k * m * p + r + i * m] * ref[i];
                rs += W[k * m + r] * e * e;
            }
            /* random designs with m >= 2p: cond(X^T W X) stays below ~1e3 */
            double e = (double)(num / (den > 0 ? den : 1)) / (p * eps);
            double er = (double)(fabsl(rss[k * nrhs + c] - rs) / (rs > 0 ? rs : 1)) / (m * eps);
            worst = e > worst || e != e ? e : worst;
            worst_rss = er > worst_rss || er != er ? er : worst_rss;
        }
    }
    snprintf(what, sizeof what, "lsfit %s m=%d p=%d: info, rank (duplicated column: p-1; bad weight, NaN: -1)",
             ps, m, p);
    check(ok, what, dname, m, p);
    snprintf(what, sizeof what, "lsfit %s m=%d p=%d: coefficients vs long double %.3g p eps <= 1e4", ps, m, p,
             worst);
    check(worst <= 1e4, what, dname, m, (long long)worst);
    snprintf(what, sizeof what, "lsfit %s m=%d p=%d: rss vs long double %.3g m eps <= 100", ps, m, p, worst_rss);
    check(worst_rss <= 100, what, dname, m, (long long)worst_rss);
    note("lsfit: coefficients vs long double", dev, single, worst * p * eps, p);
    /* the plain paths: LDLT on the full-rank systems gives the same */
    bsym_solve_opts ol = {BSYM_METHOD_LDLT, 1e-5, 0, NULL};
    if (!single) {
        double *b2 = malloc(sizeof(double) * p * nrhs * batch);
        st = bsym_dlsfit(ctx, &ol, m, p, nrhs, batch, X, Y, W, m, b2, NULL, rank, used, info);
        double d = 0;
        for (int i = 0; i < p * nrhs; i++)
            d = fabs(b2[i] - beta[i]) > d ? fabs(b2[i] - beta[i]) : d;
        check(st == BSYM_OK && used[0] == BSYM_METHOD_LDLT && rank[0] == p && d <= 1e3 * p * eps,
              "lsfit ldlt: plain LDL^T, same coefficients", dname, m, p);
        free(b2);
    }
    bsym_ctx_destroy(ctx);
    free(X); free(Y); free(W); free(beta); free(rss); free(G); free(ref);
}

static void test_sx_errors(void)
{
    bsym_ctx *ctx;
    double a[4] = {2, 0, 0, 2}, b[2] = {1, 1}, x[4], r[2];
    int info[1], rank[1], used[1];
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
    bsym_solve_opts o = {BSYM_METHOD_AUTO, 1.5, 0, NULL};
    check(bsym_dsolvex(ctx, &o, 'L', 2, 1, 1, a, b, info, rank, used) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "rcond") != NULL,
          "rcond >= 1 is an argument error naming rcond", "cpu", 0, 0);
    o.rcond = -1;
    check(bsym_dsolvex(ctx, &o, 'L', 2, 1, 1, a, b, info, rank, used) == BSYM_ERR_ARG, "negative rcond", "cpu", 0, 0);
    o.rcond = 1e-5;
    o.tol = NAN;
    check(bsym_dsolvex(ctx, &o, 'L', 2, 1, 1, a, b, info, rank, used) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "tol") != NULL,
          "NaN tol is an argument error naming tol", "cpu", 0, 0);
    o.tol = 0;
    o.method = (bsym_method)9;
    check(bsym_dsolvex(ctx, &o, 'L', 2, 1, 1, a, b, info, rank, used) == BSYM_ERR_ARG, "solvex unknown method",
          "cpu", 0, 0);
    bsym_plan bad = {1, 5, 0, 9, 5, 0};
    bsym_solve_opts op = {BSYM_METHOD_AUTO, 1e-5, 0, &bad};
    check(bsym_dsolvex(ctx, &op, 'L', 2, 1, 1, a, b, info, rank, used) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "plan") != NULL,
          "an inconsistent plan is an argument error naming plan", "cpu", 0, 0);
    check(bsym_dsolvex(ctx, NULL, 'L', 2, 1, 1, a, b, info, NULL, NULL) == BSYM_OK && info[0] == 0 &&
              fabs(b[0] - 0.5) < 1e-15,
          "solvex with NULL options (AUTO) and NULL rank/used", "cpu", 0, 0);
    check(bsym_dsolve(ctx, BSYM_METHOD_EIGEN, 'L', 2, 1, 1, a, b, info) == BSYM_OK && fabs(b[0] - 0.25) < 1e-15,
          "bsym_dsolve takes method EIGEN", "cpu", 0, 0);
    check(bsym_dlsfit(ctx, NULL, 2, 0, 1, 1, x, b, NULL, 0, x, r, rank, used, info) == BSYM_ERR_ARG,
          "lsfit p = 0 is an argument error", "cpu", 0, 0);
    check(bsym_dlsfit(ctx, NULL, 2, 2, 1, 1, NULL, b, NULL, 0, x, r, rank, used, info) == BSYM_ERR_ARG,
          "lsfit NULL X", "cpu", 0, 0);
    /* m = 0: no data, rank 0, coefficients 0 */
    check(bsym_dlsfit(ctx, NULL, 0, 2, 1, 1, NULL, NULL, NULL, 0, x, r, rank, used, info) == BSYM_OK &&
              info[0] == 0 && rank[0] == 0 && x[0] == 0 && x[1] == 0 && r[0] == 0,
          "lsfit m = 0: rank 0, zero coefficients", "cpu", rank[0], info[0]);
    bsym_ctx_destroy(ctx);
}

/* ---- the rules the bindings share (rules.c) --------------------------------- */

/* Shared weights (w_stride 0) give exactly what the same weights expanded
 * to m x batch (w_stride m) give; a negative shared weight fails every
 * system; another stride is an argument error. */
static void test_lsfit_shared(bsym_device dev, const char *dname, int single)
{
    enum { m = 12, p = 3, nrhs = 2, batch = 5 };
    double X[m * p * batch], Y[m * nrhs * batch], wv[m], W[m * batch];
    double b0[p * nrhs * batch], b1[p * nrhs * batch], r0[nrhs * batch], r1[nrhs * batch];
    int i0[batch], i1[batch], k0[batch], k1[batch], u0[batch], u1[batch];
    for (int i = 0; i < m * p * batch; i++)
        X[i] = urand();
    for (int i = 0; i < m * nrhs * batch; i++)
        Y[i] = urand();
    for (int r = 0; r < m; r++)
        wv[r] = 0.5 + 0.5 * (urand() + 1);
    for (int i = 0; i < m * batch; i++)
        W[i] = wv[i % m];
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    bsym_solve_opts o = {BSYM_METHOD_AUTO, 1e-5, 0, NULL};
    /* runs one fit of the double data in the precision asked, results in doubles */
#define FIT(w, stride, beta, rss, rank, used, info, st)                                          \
    do {                                                                                         \
        if (!single) {                                                                           \
            st = bsym_dlsfit(ctx, &o, m, p, nrhs, batch, X, Y, w, stride, beta, rss, rank, used, \
                             info);                                                              \
        } else {                                                                                 \
            float fx[m * p * batch], fy[m * nrhs * batch], fw[m * batch], fb[p * nrhs * batch],  \
                fr[nrhs * batch];                                                                \
            for (int i = 0; i < m * p * batch; i++)                                              \
                fx[i] = (float)X[i];                                                             \
            for (int i = 0; i < m * nrhs * batch; i++)                                           \
                fy[i] = (float)Y[i];                                                             \
            for (int i = 0; i < (stride ? m * batch : m); i++)                                   \
                fw[i] = (float)(w)[i];                                                           \
            st = bsym_slsfit(ctx, &o, m, p, nrhs, batch, fx, fy, fw, stride, fb, fr, rank, used, \
                             info);                                                              \
            for (int i = 0; i < p * nrhs * batch; i++)                                           \
                beta[i] = fb[i];                                                                 \
            for (int i = 0; i < nrhs * batch; i++)                                               \
                rss[i] = fr[i];                                                                  \
        }                                                                                        \
    } while (0)
    bsym_status s0, s1;
    FIT(W, m, b0, r0, k0, u0, i0, s0);
    FIT(wv, 0, b1, r1, k1, u1, i1, s1);
    int same = s0 == BSYM_OK && s1 == BSYM_OK;
    for (int i = 0; same && i < p * nrhs * batch; i++)
        same = b0[i] == b1[i];
    for (int i = 0; same && i < nrhs * batch; i++)
        same = r0[i] == r1[i];
    for (int k = 0; same && k < batch; k++)
        same = i0[k] == 0 && i1[k] == 0 && k0[k] == k1[k] && u0[k] == u1[k];
    check(same, single ? "lsfit single: shared weights (w_stride 0) = the same weights expanded"
                       : "lsfit double: shared weights (w_stride 0) = the same weights expanded",
          dname, s0, s1);
    wv[3] = -1;
    FIT(wv, 0, b1, r1, k1, u1, i1, s1);
    int all_bad = s1 == BSYM_OK;
    for (int k = 0; k < batch; k++)
        all_bad &= i1[k] == -1 && k1[k] == -1 && isnan(b1[k * p * nrhs]);
    check(all_bad, "lsfit: a negative shared weight fails every system (info -1)", dname, s1, i1[0]);
    wv[3] = 1;
    s1 = bsym_dlsfit(ctx, &o, m, p, nrhs, batch, X, Y, wv, m - 1, b1, r1, k1, u1, i1);
    check(s1 == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "w_stride") != NULL,
          "lsfit: w_stride other than m or 0 is an argument error naming w_stride", dname, s1, 0);
#undef FIT
    bsym_ctx_destroy(ctx);
}

/* Status ids, name tables and the choice message. */
static void test_rules_names(void)
{
    static const struct { bsym_status s; const char *id; } ids[] = {
        {BSYM_OK, "ok"}, {BSYM_ERR_ARG, "bad_argument"}, {BSYM_ERR_NOMEM, "out_of_memory"},
        {BSYM_ERR_NODEVICE, "no_device"}, {BSYM_ERR_CUDA, "cuda_failure"},
        {BSYM_ERR_SIZE, "size_unsupported"}, {BSYM_ERR_INTERRUPTED, "interrupted"}};
    int ok = 1;
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        ok &= strcmp(bsym_status_id(ids[i].s), ids[i].id) == 0;
    /* every code from OK down to the last error has an id of its own */
    for (int a = 0; a >= BSYM_ERR_INTERRUPTED; a--)
        for (int b = a - 1; b >= BSYM_ERR_INTERRUPTED; b--)
            ok &= strcmp(bsym_status_id((bsym_status)a), bsym_status_id((bsym_status)b)) != 0;
    ok &= strcmp(bsym_status_id((bsym_status)-99), "unknown") == 0;
    check(ok, "status ids: each status its stable id, 'unknown' past them", "rules", 0, 0);

    /* names round-trip through parse; the lists end with NULL */
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    const int sizes[] = {6, 3, 2, 2};
    ok = 1;
    for (int kind = 0; kind < 4; kind++) {
        int count = 0;
        for (; bsym_choice_name((bsym_choice)kind, count) != NULL; count++) {
            int code = -1;
            ok &= bsym_choice_parse(ctx, (bsym_choice)kind, "x",
                                    bsym_choice_name((bsym_choice)kind, count), &code) == BSYM_OK &&
                  code == count;
        }
        ok &= count == sizes[kind] && bsym_choice_name((bsym_choice)kind, -1) == NULL;
    }
    ok &= bsym_choice_name((bsym_choice)9, 0) == NULL;
    ok &= strcmp(bsym_choice_name(BSYM_CHOICE_METHOD, BSYM_METHOD_EIGEN), "eigen") == 0 &&
          strcmp(bsym_choice_name(BSYM_CHOICE_METHOD, BSYM_METHOD_AUTO), "auto") == 0 &&
          strcmp(bsym_choice_name(BSYM_CHOICE_DEVICE, BSYM_DEVICE_GPU), "gpu") == 0 &&
          strcmp(bsym_choice_name(BSYM_CHOICE_PRECISION, BSYM_PRECISION_SINGLE), "single") == 0 &&
          strcmp(bsym_choice_name(BSYM_CHOICE_UPLO, 1), "U") == 0;
    check(ok, "choice names: round trip through parse, in the enums' order, NULL past the end",
          "rules", 0, 0);

    int code = 7;
    bsym_status st = bsym_choice_parse(ctx, BSYM_CHOICE_METHOD, "method", "qr", &code);
    check(st == BSYM_ERR_ARG && code == 7 &&
              strcmp(bsym_ctx_message(ctx),
                     "method must be one of \"ldlt\", \"tridiag\", \"eigen\", \"auto\", \"bunch-kaufman\", "
                     "\"aasen\" (got \"qr\")") == 0,
          "a bad choice: one message naming the argument, the choices and the value", "rules", st, 0);
    st = bsym_choice_parse(ctx, BSYM_CHOICE_DEVICE, "device", NULL, &code);
    check(st == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "device must be one of \"auto\", \"cpu\", \"gpu\" (got something") != NULL,
          "a choice that is not a string", "rules", st, 0);
    st = bsym_choice_parse(ctx, BSYM_CHOICE_METHOD, "method", "LDLT", &code);
    check(st == BSYM_ERR_ARG, "choices match exactly (case included)", "rules", st, 0);
    st = bsym_choice_parse(ctx, BSYM_CHOICE_PRECISION, "precision", "single", &code);
    check(st == BSYM_OK && code == BSYM_PRECISION_SINGLE && bsym_ctx_message(ctx)[0] == '\0',
          "a good choice clears the message", "rules", st, code);

    check(strcmp(bsym_used_name(BSYM_METHOD_EIGEN, 0), "eigen") == 0 &&
              strcmp(bsym_used_name(BSYM_METHOD_LDLT, 0), "ldlt") == 0 &&
              bsym_used_name(BSYM_METHOD_TRIDIAG, -1) == NULL &&
              bsym_used_name(BSYM_METHOD_AUTO, 0) == NULL && bsym_used_name(-1, 0) == NULL,
          "used names: the method where info == 0, NULL where it failed or no solving method",
          "rules", 0, 0);
    bsym_ctx_destroy(ctx);
}

/* Plans, options and selections checked; the message names the argument. */
static void test_rules_checks(void)
{
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    int ok = 1;
    const char *names[] = {"calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback"};
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        ok &= strcmp(bsym_plan_field_name(i), names[i]) == 0;
    ok &= bsym_plan_field_name(BSYM_PLAN_FIELDS) == NULL && bsym_plan_field_name(-1) == NULL;
    bsym_plan a = {3, 10, 2, 4, 5, 1}, b;
    double f[BSYM_PLAN_FIELDS];
    bsym_plan_to_fields(&a, f);
    ok &= f[0] == 3 && f[1] == 10 && f[2] == 2 && f[3] == 4 && f[4] == 5 && f[5] == 1;
    ok &= bsym_plan_from_fields(ctx, "plan", f, &b) == BSYM_OK && memcmp(&a, &b, sizeof a) == 0;
    check(ok, "plan fields: names in order, to and from numbers round trip", "rules", 0, 0);

    const double bad_values[] = {-1, 1.5, NAN, INFINITY, 9007199254740994.0};
    ok = 1;
    for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
        double g[BSYM_PLAN_FIELDS];
        memcpy(g, f, sizeof g);
        g[3] = bad_values[i];
        ok &= bsym_plan_from_fields(ctx, "plan", g, &b) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "plan: field fallback must be a whole number >= 0") != NULL;
    }
    check(ok, "plan fields: negative, fractional, NaN, Inf, > 2^53 rejected naming the field",
          "rules", 0, 0);
    f[3] = 11; /* fallback > systems */
    check(bsym_plan_from_fields(ctx, "option 'plan'", f, &b) == BSYM_ERR_ARG &&
              strcmp(bsym_ctx_message(ctx),
                     "option 'plan' is not a plan that batchsym wrote (fallback exceeds systems)") == 0,
          "plan fields: inconsistent counts rejected, naming the plan as the caller does", "rules", 0, 0);
    bsym_plan c = {1, 5, 0, 0, 6, 0}, d = {1, 5, 0, 0, 5, 0};
    check(bsym_plan_check(ctx, &c) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "last_systems") &&
              bsym_plan_check(ctx, &d) == BSYM_OK && bsym_plan_check(ctx, NULL) == BSYM_OK,
          "plan check: the counts within the systems seen (NULL: no plan)", "rules", 0, 0);
    c.calls = -1;
    check(bsym_plan_check(ctx, &c) == BSYM_ERR_ARG, "plan check: a negative count", "rules", 0, 0);

    /* options */
    bsym_solve_opts o = {BSYM_METHOD_AUTO, 1, 0, NULL};
    check(bsym_solve_opts_check(ctx, &o) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "rcond"),
          "options: rcond = 1 rejected naming rcond", "rules", 0, 0);
    o.rcond = NAN;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_ERR_ARG, "options: NaN rcond", "rules", 0, 0);
    o.rcond = 0;
    o.tol = INFINITY;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "tol"),
          "options: infinite tol rejected naming tol", "rules", 0, 0);
    o.tol = -1;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_OK, "options: tol <= 0 is the default", "rules", 0, 0);
    o.method = (bsym_method)7;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_ERR_ARG, "options: unknown method code", "rules", 0, 0);
    o.method = BSYM_METHOD_AUTO;
    o.plan = &c;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "plan"),
          "options: AUTO with a bad plan", "rules", 0, 0);
    o.method = BSYM_METHOD_LDLT;
    check(bsym_solve_opts_check(ctx, &o) == BSYM_OK, "options: the plan is not read but by AUTO",
          "rules", 0, 0);
    double t0 = 0, t1 = 1e-3;
    bsym_plan e;
    bsym_plan_init(&e);
    check(bsym_solve_opts_make(ctx, BSYM_METHOD_EIGEN, 1e-5, &t0, NULL, &o) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "tol must be a single positive finite number") != NULL,
          "options as given: tol = 0 given is rejected", "rules", 0, 0);
    check(bsym_solve_opts_make(ctx, BSYM_METHOD_AUTO, 0.5, &t1, &e, &o) == BSYM_OK && o.tol == 1e-3 &&
              o.rcond == 0.5 && o.plan == &e && o.method == BSYM_METHOD_AUTO &&
              bsym_solve_opts_make(ctx, BSYM_METHOD_AUTO, 0.5, NULL, NULL, &o) == BSYM_OK && o.tol == 0,
          "options as given: tol given or left to the default", "rules", 0, 0);
    check(bsym_solve_opts_make(ctx, BSYM_METHOD_AUTO, -0.5, NULL, NULL, &o) == BSYM_ERR_ARG &&
              strstr(bsym_ctx_message(ctx), "rcond must be a single number in [0, 1) (got -0.5)") != NULL,
          "options as given: rcond out of range", "rules", 0, 0);

    /* selections */
    bsym_select s = {BSYM_SELECT_INDEX, 1, 3, 0, 0};
    ok = bsym_select_check(ctx, &s, 3) == BSYM_OK && bsym_select_check(ctx, &s, 2) == BSYM_ERR_ARG &&
         bsym_select_check(ctx, NULL, 2) == BSYM_OK;
    s.il = 0;
    ok &= bsym_select_check(ctx, &s, 3) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "index");
    s.il = 3, s.iu = 2;
    ok &= bsym_select_check(ctx, &s, 3) == BSYM_ERR_ARG;
    bsym_select v = {BSYM_SELECT_VALUE, 0, 0, 1, 1};
    ok &= bsym_select_check(ctx, &v, 3) == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "interval");
    v.vl = NAN;
    v.vu = 2;
    ok &= bsym_select_check(ctx, &v, 3) == BSYM_ERR_ARG;
    v.kind = (bsym_select_kind)5;
    ok &= bsym_select_check(ctx, &v, 3) == BSYM_ERR_ARG;
    check(ok, "selection check: 1 <= il <= iu <= n, vl < vu, known kind", "rules", 0, 0);

    const double i12[2] = {1, 2}, i15[2] = {1.5, 2}, i02[2] = {0, 2}, lohi[2] = {-1, 1}, hilo[2] = {1, -1};
    ok = bsym_select_make(ctx, i12, NULL, 5, 1, &s) == BSYM_OK && s.kind == BSYM_SELECT_INDEX &&
         s.il == 4 && s.iu == 5;
    ok &= bsym_select_make(ctx, i12, NULL, 5, 0, &s) == BSYM_OK && s.il == 1 && s.iu == 2;
    ok &= bsym_select_make(ctx, NULL, lohi, 5, 1, &s) == BSYM_OK && s.kind == BSYM_SELECT_VALUE &&
          s.vl == -1 && s.vu == 1;
    ok &= bsym_select_make(ctx, NULL, NULL, 5, 1, &s) == BSYM_OK && s.kind == BSYM_SELECT_ALL;
    check(ok, "selection as given: the largest (R) or smallest (Octave) i..j, an interval, all",
          "rules", 0, 0);
    ok = bsym_select_make(ctx, i12, lohi, 5, 1, &s) == BSYM_ERR_ARG &&
         strstr(bsym_ctx_message(ctx), "cannot both be given");
    ok &= bsym_select_make(ctx, i15, NULL, 5, 1, &s) == BSYM_ERR_ARG &&
          strcmp(bsym_ctx_message(ctx),
                 "index must be two integers 1 <= i <= j <= n (n = 5, got 1.5, 2)") == 0;
    ok &= bsym_select_make(ctx, i02, NULL, 5, 1, &s) == BSYM_ERR_ARG;
    ok &= bsym_select_make(ctx, i12, NULL, 1, 1, &s) == BSYM_ERR_ARG;
    ok &= bsym_select_make(ctx, NULL, hilo, 5, 1, &s) == BSYM_ERR_ARG &&
          strstr(bsym_ctx_message(ctx), "interval must be two numbers lo < hi");
    check(ok, "selection as given: both, fractional, out of range, reversed interval rejected",
          "rules", 0, 0);

    const int counts[3] = {2, 0, 3};
    bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0, 0}, idx = {BSYM_SELECT_INDEX, 2, 4, 0, 0},
                val = {BSYM_SELECT_VALUE, 0, 0, 0, 1};
    check(bsym_select_rows(NULL, 6, 3, NULL) == 6 && bsym_select_rows(&all, 6, 3, NULL) == 6 &&
              bsym_select_rows(&idx, 6, 3, NULL) == 3 && bsym_select_rows(&val, 6, 3, counts) == 3 &&
              bsym_select_rows(&val, 6, 0, counts) == 0,
          "selection rows: n, iu - il + 1, the largest count", "rules", 0, 0);
    bsym_ctx_destroy(ctx);
}

/* Packing of the eigensolvers' output, in and out of place, both orders. */
static void test_rules_pack(void)
{
    enum { n = 3, batch = 3 };
    const double F = -7; /* the fill, distinct from every value */
    double w[n * batch], V[n * n * batch];
    const int count[batch] = {2, 3, 3}, info[batch] = {0, -1, 0};
    int ok = 1;
    for (int inplace = 0; inplace < 2; inplace++)
        for (int desc = 0; desc < 2; desc++)
            for (int rows = 2; rows <= 3; rows++) {
                for (int i = 0; i < n * batch; i++)
                    w[i] = i;
                for (int i = 0; i < n * n * batch; i++)
                    V[i] = 100 + i;
                double ow[n * batch], ov[n * n * batch];
                double *pw = inplace ? w : ow, *pv = inplace ? V : ov;
                bsym_dselect_pack(n, rows, batch, count, info, desc, F, w, V, pw, pv);
                double sw[n * batch], sv[n * n * batch]; /* the original values again */
                for (int i = 0; i < n * batch; i++)
                    sw[i] = i;
                for (int i = 0; i < n * n * batch; i++)
                    sv[i] = 100 + i;
                for (int k = 0; k < batch; k++) {
                    int c = info[k] ? 0 : count[k] < rows ? count[k] : rows;
                    for (int j = 0; j < rows; j++) {
                        const int src = desc ? c - 1 - j : j;
                        ok &= pw[k * rows + j] == (j < c ? sw[k * n + src] : F);
                        for (int i = 0; i < n; i++)
                            ok &= pv[k * n * rows + j * n + i] == (j < c ? sv[k * n * n + src * n + i] : F);
                    }
                }
            }
    float fw[n * batch], fv[n * n * batch];
    for (int i = 0; i < n * batch; i++)
        fw[i] = (float)i;
    for (int i = 0; i < n * n * batch; i++)
        fv[i] = (float)(100 + i);
    bsym_sselect_pack(n, 2, batch, count, info, 1, NAN, fw, fv, fw, fv);
    ok &= fw[0] == 1 && fw[1] == 0 && isnan(fw[2]) && isnan(fw[3]) && fw[4] == 7 && fw[5] == 6;
    ok &= fv[0] == 103 && fv[3] == 100 && isnan(fv[6]) && isnan(fv[11]) && fv[12] == 121 && fv[15] == 118;
    check(ok, "eigen output packing: selected values (and vectors) first, in order, fill after, "
              "failed systems filled; in and out of place",
          "rules", 0, 0);
}

/* The one sentence about failed systems. */
static void test_rules_failures(void)
{
    const int info[5] = {0, -1, 2, 0, 3}, used[5] = {1, 1, 1, 1, 2}, good[3] = {0, 0, 0};
    char buf[300];
    int64_t bad = bsym_failure_summary(BSYM_TASK_SOLVE, 5, info, used, buf, sizeof buf);
    check(bad == 3 && strcmp(buf, "3 of 5 systems could not be solved (1 non-finite input, 1 pivot "
                                  "breakdown: singular or nearly so, 1 no convergence; the first "
                                  "is system 2, info -1)") == 0,
          "failure summary: counts by kind, from info and used", "rules", bad, 0);
    bad = bsym_failure_summary(BSYM_TASK_EIGEN, 5, info, NULL, buf, sizeof buf);
    check(bad == 3 && strstr(buf, "could not be diagonalized (1 non-finite input, 2 no convergence;") != NULL,
          "failure summary: eigensolvers' info > 0 is no convergence", "rules", bad, 0);
    bad = bsym_failure_summary(BSYM_TASK_LSFIT, 2, info, NULL, buf, sizeof buf);
    check(bad == 1 && strstr(buf, "1 of 2 systems could not be fitted (1 non-finite data or a negative "
                                  "or non-finite weight;") == buf,
          "failure summary: least squares names the weights", "rules", bad, 0);
    bad = bsym_failure_summary(BSYM_TASK_TRIDIAG_SOLVE, 3, good, NULL, buf, sizeof buf);
    check(bad == 0 && buf[0] == '\0', "failure summary: none failed, empty", "rules", bad, 0);
    bad = bsym_failure_summary(BSYM_TASK_TRIDIAGONALIZE, 5, info, NULL, buf, 12);
    check(bad == 3 && strlen(buf) == 11, "failure summary: truncated to the buffer", "rules", bad, 0);
}

/* subset (the sanitizers): the equivalence test alone, on one certifying
 * kernel in registers (16) and the block kernel's certifying form at four
 * of its thread counts (70, 100, 130, 170: 96, 128, 160 and 192 or 256). */
static void test_sx_family(bsym_device dev, const char *dname, int subset)
{
    /* on the GPU: the certifying LDL^T kernels in registers up to 64, the
     * block kernel's certifying form above (65..256: 96, 128, 160, 192 or
     * 256 threads) */
    const int sizes[] = {1, 2, 5, 16, 30, 33, 64, 65, 70, 128, 129, 256};
    const int eq_sizes[] = {8, 32, 64, 65, 128, 200};
    for (int single = 0; single < 2; single++) {
        if (subset) {
            for (int s = 0; s < 5; s++)
                test_sx_equivalence(dev, dname, single, (int[]){16, 70, 100, 130, 170}[s]);
            continue;
        }
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            if (dev != BSYM_DEVICE_GPU || sizes[s] <= BSYM_GPU_STRATEGY_MAX_N)
                test_sx_known(dev, dname, single, sizes[s]);
        test_sx_plan(dev, dname, single);
        if (dev == BSYM_DEVICE_GPU) /* every kernel class and its edges: all n to 66, then every third n
                                       and both sides of each multiple of 32 */
            for (int n = 1; n <= BSYM_GPU_STRATEGY_MAX_N; n++) {
                if (n <= 66 || n % 3 == 0 || n % 32 <= 1)
                    test_sx_equivalence(dev, dname, single, n);
            }
        else
            for (size_t s = 0; s < sizeof eq_sizes / sizeof *eq_sizes; s++)
                test_sx_equivalence(dev, dname, single, eq_sizes[s]);
        if (single)
            test_dssolvex(dev, dname);
        test_lsfit(dev, dname, single, 40, 6);
        test_lsfit(dev, dname, single, 300, 30);
        test_lsfit(dev, dname, single, 3, 1);
        test_lsfit(dev, dname, single, 200, 70);
        test_lsfit(dev, dname, single, 400, 160);
        test_lsfit_shared(dev, dname, single);
    }
}

/* The GPU host path (cuda/device.cu) on a batch of many chunks, which cycle
 * through the pipeline's slots: every system's results are bitwise those of
 * a call on that system's slice alone (no chunk, offset or slot mix-up), the
 * unread triangle poisoned with NaN changes nothing (only the referenced one
 * crosses the link), and with every visible GPU (a share each) the results
 * are those of one GPU. Solves (LDL^T, AUTO, double storage in float) and
 * eigenvectors, n = 32. */
static void test_host_path(void)
{
    const int n = 32, batch = 12000, nrhs = 2, slice0 = 7777, slice = 97;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = malloc(sizeof(double) * nn * batch), *B = malloc(sizeof(double) * nb * batch);
    double *X = malloc(sizeof(double) * nb * batch), *Y = malloc(sizeof(double) * nb * batch);
    double *W = malloc(sizeof(double) * n * batch), *V = malloc(sizeof(double) * nn * batch);
    double *W2 = malloc(sizeof(double) * n * batch), *V2 = malloc(sizeof(double) * nn * batch);
    int *info = malloc(sizeof(int) * batch), *info2 = malloc(sizeof(int) * batch);
    for (int k = 0; k < batch; k++) {
        spd(n, A + (size_t)k * nn);
        for (int j = 0; j < n; j++) /* poison the upper triangle: uplo 'L' never reads it */
            for (int i = 0; i < j; i++)
                A[(size_t)k * nn + (size_t)j * n + i] = NAN;
    }
    for (size_t i = 0; i < nb * batch; i++)
        B[i] = urand();
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
    int all[BSYM_MAX_GPUS];
    const int ngpus = bsym_ctx_gpus(ctx, all, BSYM_MAX_GPUS);
    const bsym_method methods[] = {BSYM_METHOD_LDLT, BSYM_METHOD_AUTO};
    for (int g = 0; g < (ngpus > 1 ? 2 : 1); g++) { /* g 0: GPU 0 alone; 1: all of them */
        bsym_ctx_set_gpus(ctx, all, g == 0 ? 1 : ngpus);
        for (int mi = 0; mi < 2; mi++)
            for (int ds = 0; ds < 2; ds++) {
                const bsym_solve_opts o = {methods[mi], BSYM_RCOND_DEFAULT, 0.0, NULL};
                memcpy(X, B, sizeof(double) * nb * batch);
                memcpy(Y, B, sizeof(double) * nb * batch);
                bsym_status s1 = (ds ? bsym_dssolvex : bsym_dsolvex)(ctx, &o, 'L', n, nrhs, batch, A, X, info, NULL, NULL);
                bsym_status s2 = (ds ? bsym_dssolvex : bsym_dsolvex)(ctx, &o, 'L', n, nrhs, slice, A + nn * slice0,
                                                                     Y + nb * slice0, info2, NULL, NULL);
                int ok = s1 == BSYM_OK && s2 == BSYM_OK;
                for (int k = 0; k < batch; k++)
                    ok &= info[k] == 0;
                for (int k = 0; k < slice; k++)
                    ok &= info2[k] == 0;
                ok &= memcmp(X + nb * slice0, Y + nb * slice0, sizeof(double) * nb * slice) == 0;
                double worst = 0; /* and the solutions solve the systems */
                for (int k = 0; k < batch; k += 997)
                    for (int r = 0; r < nrhs; r++) {
                        const double *a = A + (size_t)k * nn, *x = X + (size_t)k * nb + (size_t)r * n,
                                     *b = B + (size_t)k * nb + (size_t)r * n;
                        for (int i = 0; i < n; i++) {
                            double acc = -b[i];
                            for (int j = 0; j < n; j++)
                                acc += (i >= j ? a[(size_t)j * n + i] : a[(size_t)i * n + j]) * x[j];
                            worst = fabs(acc) > worst ? fabs(acc) : worst;
                        }
                    }
                ok &= worst <= (ds ? 1e-3 : 1e-10);
                char what[160];
                snprintf(what, sizeof what, "host path: %d chunks' solves (method %d%s) as one slice's, %s GPU%s (resid %.2g)",
                         batch, (int)methods[mi], ds ? ", float arithmetic" : "", g ? "all" : "one", g ? "s" : "", worst);
                check(ok, what, "gpu", s1, s2);
            }
        bsym_status s1 = bsym_dsyev(ctx, 'L', n, batch, A, NULL, W, V, NULL, info);
        bsym_status s2 = bsym_dsyev(ctx, 'L', n, slice, A + nn * slice0, NULL, W2, V2, NULL, info2);
        int ok = s1 == BSYM_OK && s2 == BSYM_OK &&
                 memcmp(W + (size_t)n * slice0, W2, sizeof(double) * n * slice) == 0 &&
                 memcmp(V + nn * slice0, V2, sizeof(double) * nn * slice) == 0;
        for (int k = 0; k < batch; k++)
            ok &= info[k] == 0 && W[(size_t)k * n] < W[(size_t)k * n + n - 1];
        check(ok, g ? "host path: eigenvectors of many chunks as one slice's, all GPUs"
                    : "host path: eigenvectors of many chunks as one slice's, one GPU", "gpu", s1, s2);
        if (g == 1) { /* every GPU against GPU 0 alone */
            bsym_ctx_set_gpus(ctx, all, 1);
            s1 = bsym_dsyev(ctx, 'L', n, batch, A, NULL, W2, V2, NULL, info2);
            ok = s1 == BSYM_OK && memcmp(W, W2, sizeof(double) * n * batch) == 0 &&
                 memcmp(V, V2, sizeof(double) * nn * batch) == 0;
            check(ok, "host path: eigen on every GPU is bitwise eigen on one", "gpu", s1, ngpus);
        }
    }
    bsym_ctx_destroy(ctx);
    free(A); free(B); free(X); free(Y); free(W); free(V); free(W2); free(V2); free(info); free(info2);
}

/* ---- indef: Bunch-Kaufman, Aasen (every type), complex LDL^H ---------------
 * Through the public entry points only: bsym_dsolvex, bsym_ssolvex,
 * bsym_dssolvex, bsym_zsolvex, bsym_csolvex, bsym_zcsolvex (and the plain
 * bsym_dsolve, bsym_ssolve, bsym_zsolve, bsym_csolve). The backward error
 * max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf + ||b_j||_inf) of every
 * system, computed in long double from the exact numbers the core was given,
 * is bounded by IX_BOUND_C (= BOUND_C, 10) n eps of the working precision (eps = DBL_EPSILON or
 * FLT_EPSILON). Both pivoted methods are normwise backward stable with a
 * growth factor that is small on these matrices (the worst measured figures
 * are printed by --verbose); LDL^H is only run on Hermitian positive definite
 * matrices. */
#include <complex.h>

#define IX_BOUND_C BOUND_C /* 10; the worst measured is below 0.5 n eps */

typedef double _Complex ix_cx;
enum { TY_D, TY_S, TY_DS, TY_Z, TY_C, TY_ZC, TY_N };
static const char *const ty_name[TY_N] = {"double", "float", "double->float", "complex double",
                                          "complex float", "complex double->float"};
static int ty_complex(int t) { return t >= TY_Z; }
static int ty_single(int t) { return t == TY_S || t == TY_DS || t == TY_C || t == TY_ZC; }
/* bytes of one stored element */
static size_t ty_size(int t)
{
    return t == TY_S ? 4 : t == TY_D || t == TY_DS || t == TY_C ? 8 : 16;
}
static void ty_put(int t, void *p, size_t i, ix_cx v)
{
    switch (t) {
    case TY_S: ((float *)p)[i] = (float)creal(v); break;
    case TY_D: case TY_DS: ((double *)p)[i] = creal(v); break;
    case TY_C: ((bsym_cfloat *)p)[i] = (bsym_cfloat){(float)creal(v), (float)cimag(v)}; break;
    default: ((bsym_cdouble *)p)[i] = (bsym_cdouble){creal(v), cimag(v)}; break;
    }
}
static ix_cx ty_get(int t, const void *p, size_t i)
{
    switch (t) {
    case TY_S: return ((const float *)p)[i];
    case TY_D: case TY_DS: return ((const double *)p)[i];
    case TY_C: return ((const bsym_cfloat *)p)[i].re + ((const bsym_cfloat *)p)[i].im * I;
    default: return ((const bsym_cdouble *)p)[i].re + ((const bsym_cdouble *)p)[i].im * I;
    }
}
/* a value rounded as type t stores it (float, real) */
static ix_cx ty_round(int t, ix_cx v)
{
    double re = creal(v), im = ty_complex(t) ? cimag(v) : 0.0;
    if (ty_single(t)) {
        re = (float)re;
        im = (float)im;
    }
    return re + im * I;
}

static const char *const ix_method_name[] = {"ldlt", "tridiag", "eigen", "auto", "bunch-kaufman", "aasen"};

/* Solves through the public entry point of type t (plain: bsym_?solve, which
 * takes no options and gives no rank or used; only d, s, z, c have one). */
static bsym_status ix_call(bsym_ctx *ctx, int t, int plain, const bsym_solve_opts *o, char uplo, int n, int nrhs,
                           int batch, const void *A, void *B, int *info, int *rank, int *used)
{
    if (plain) {
        switch (t) {
        case TY_D: return bsym_dsolve(ctx, o->method, uplo, n, nrhs, batch, A, B, info);
        case TY_S: return bsym_ssolve(ctx, o->method, uplo, n, nrhs, batch, A, B, info);
        case TY_Z: return bsym_zsolve(ctx, o->method, uplo, n, nrhs, batch, A, B, info);
        case TY_C: return bsym_csolve(ctx, o->method, uplo, n, nrhs, batch, A, B, info);
        default: break;
        }
    }
    switch (t) {
    case TY_D: return bsym_dsolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    case TY_S: return bsym_ssolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    case TY_DS: return bsym_dssolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    case TY_Z: return bsym_zsolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    case TY_C: return bsym_csolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    default: return bsym_zcsolvex(ctx, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    }
}

enum { IX_RANDOM, IX_HPD, IX_GRADED, IX_TINY, IX_ZERODIAG, IX_BLOCKS, IX_HPD_GRADED, IX_KINDS };
static const char *const ix_kind_name[IX_KINDS] = {"random indefinite", "positive definite", "graded indefinite",
                                                   "tiny leading pivot", "zero diagonal",
                                                   "[0 c; conj(c) 0] blocks", "graded positive definite"};

/* A Hermitian (real symmetric when !cplx) n x n matrix of a kind, full. */
static void ix_matrix(int kind, int cplx, int single, int n, ix_cx *h)
{
#define IX_C() (cplx ? urand() + urand() * I : (ix_cx)urand())
    for (int j = 0; j < n; j++) {
        h[j + j * n] = urand();
        for (int i = j + 1; i < n; i++) {
            h[i + j * n] = IX_C();
            h[j + i * n] = conj(h[i + j * n]);
        }
    }
    if (kind == IX_HPD || kind == IX_HPD_GRADED) { /* M M^H / n + I */
        ix_cx *m = malloc(sizeof(ix_cx) * n * n);
        for (int e = 0; e < n * n; e++)
            m[e] = IX_C();
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                ix_cx s = 0;
                for (int k = 0; k < n; k++)
                    s += m[i + k * n] * conj(m[j + k * n]);
                h[i + j * n] = s / n + (i == j);
            }
        for (int j = 0; j < n; j++)
            h[j + j * n] = creal(h[j + j * n]);
        free(m);
    }
    if (kind == IX_GRADED || kind == IX_HPD_GRADED) { /* D H D, D = diag(10^(-g i / (n - 1))) */
        const double g = single ? 3.0 : 8.0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                h[i + j * n] *= pow(10.0, -g * (i + j) / (2.0 * (n > 1 ? n - 1 : 1)));
    }
    if (kind == IX_TINY)
        h[0] = 1e-12;
    if (kind == IX_ZERODIAG)
        for (int j = 0; j < n; j++)
            h[j + j * n] = 0;
    if (kind == IX_BLOCKS) {
        for (int e = 0; e < n * n; e++)
            h[e] = 0;
        for (int j = 0; j + 1 < n; j += 2) {
            h[j + 1 + j * n] = cplx ? (0.5 + urand()) * cexp(I * 3.0 * urand()) : 0.5 + urand();
            h[j + (j + 1) * n] = conj(h[j + 1 + j * n]);
        }
        if (n % 2)
            h[n * n - 1] = 1.5 + urand();
    }
#undef IX_C
}

/* The input array of type t from the full matrices h (batch of them): the
 * triangle named by uplo, NaN in the other, and garbage (1e3) in the
 * imaginary part of a complex diagonal. */
static void *ix_input(int t, char uplo, int n, int batch, const ix_cx *h)
{
    void *a = malloc(ty_size(t) * ((size_t)n * n * batch + 1));
    for (int k = 0; k < batch; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                const size_t e = (size_t)k * n * n + i + (size_t)j * n;
                const int ref = uplo == 'L' ? i >= j : i <= j;
                ix_cx v = !ref ? NAN + NAN * I : i == j ? creal(h[e]) + 1e3 * I : h[e];
                ty_put(t, a, e, v);
            }
    return a;
}

/* max over the nrhs columns of system k of the backward error, in long
 * double; -1 when x has a non-finite entry. */
static double ix_berr(int n, int nrhs, const ix_cx *h, const ix_cx *b, const ix_cx *x)
{
    long double na = 0, worst = 0;
    for (int i = 0; i < n; i++) {
        long double s = 0;
        for (int j = 0; j < n; j++)
            s += cabsl(h[i + j * n]);
        na = s > na ? s : na;
    }
    for (int c = 0; c < nrhs; c++) {
        long double nx = 0, nb = 0, nr = 0;
        for (int i = 0; i < n; i++) {
            const ix_cx xi = x[i + c * n];
            if (!isfinite(creal(xi)) || !isfinite(cimag(xi)))
                return -1;
            nx = cabsl(xi) > nx ? cabsl(xi) : nx;
            nb = cabsl(b[i + c * n]) > nb ? cabsl(b[i + c * n]) : nb;
            long double _Complex r = b[i + c * n];
            for (int j = 0; j < n; j++)
                r -= (long double _Complex)h[i + j * n] * (long double _Complex)x[j + c * n];
            nr = cabsl(r) > nr ? cabsl(r) : nr;
        }
        const long double den = na * nx + nb;
        const long double e = den > 0 ? nr / den : nr;
        worst = e > worst ? e : worst;
    }
    return (double)worst;
}

static char ix_family[2][TY_N][6][48]; /* [gpu][type][method] */

/* 1 when a solution of `method` may come from `used` on an n x n matrix of
 * this kind: the method itself; AUTO (issue 14): LDLT for the positive
 * definite kind (certified), TRIDIAG or EIGEN (never LDLT) for the kinds
 * that are indefinite for every n >= 2 (zero diagonal, 2 x 2 blocks), any
 * of the three for the others (a small random one may be definite). */
static int ix_used_ok(bsym_method method, int kind, int n, int used)
{
    if (method != BSYM_METHOD_AUTO)
        return used == (int)method;
    if (kind == IX_HPD)
        return used == BSYM_METHOD_LDLT;
    if ((kind == IX_ZERODIAG || kind == IX_BLOCKS) && n >= 2)
        return used == BSYM_METHOD_TRIDIAG || used == BSYM_METHOD_EIGEN;
    return used == BSYM_METHOD_LDLT || used == BSYM_METHOD_TRIDIAG || used == BSYM_METHOD_EIGEN;
}

/* One batch of a kind through type t and a method on device dev: info 0,
 * rank n, used the method (ix_used_ok), backward error <= IX_BOUND_C n eps
 * for every system. EIGEN and AUTO run with rcond 0 (no truncation: the
 * accuracy of the full solve; the truncation has its own test, cs_known)
 * and without the plain entry points (whose rcond is the default). */
static void ix_case(bsym_device dev, int t, bsym_method method, char uplo, int n, int nrhs, int kind, int batch,
                    int plain)
{
    const int cplx = ty_complex(t), single = ty_single(t);
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const int full = method == BSYM_METHOD_EIGEN || method == BSYM_METHOD_AUTO;
    plain = plain && t != TY_DS && t != TY_ZC && !full; /* DS, ZC have no plain entry point */
    ix_cx *h = malloc(sizeof(ix_cx) * (nn * batch + 1)), *b = malloc(sizeof(ix_cx) * (nb * batch + 1)),
          *x = malloc(sizeof(ix_cx) * (nb * batch + 1));
    for (int k = 0; k < batch; k++) {
        ix_matrix(kind, cplx, single, n, h + k * nn);
        for (size_t e = 0; e < nn; e++)
            h[k * nn + e] = ty_round(t, h[k * nn + e]);
        for (size_t e = 0; e < nb; e++)
            b[k * nb + e] = ty_round(t, urand() + (cplx ? urand() * I : 0));
    }
    void *A = ix_input(t, uplo, n, batch, h), *B = malloc(ty_size(t) * (nb * batch + 1));
    for (size_t e = 0; e < nb * batch; e++)
        ty_put(t, B, e, b[e]);
    int *info = malloc(sizeof(int) * 3 * batch), *rank = info + batch, *used = rank + batch;
    for (int k = 0; k < batch; k++)
        rank[k] = used[k] = -7;
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    const bsym_solve_opts o = {method, full ? 0.0 : BSYM_RCOND_DEFAULT, 0.0, NULL};
    bsym_status st = ix_call(ctx, t, plain, &o, uplo, n, nrhs, batch, A, B, info, rank, used);
    int ok = st == BSYM_OK;
    double worst = 0;
    int bad_info = 0;
    for (size_t e = 0; e < nb * batch; e++)
        x[e] = ty_get(t, B, e);
    for (int k = 0; ok && k < batch; k++) {
        if (info[k] != 0 || (!plain && (rank[k] != n || !ix_used_ok(method, kind, n, used[k])))) {
            ok = 0;
            bad_info = info[k];
            break;
        }
        const double e = ix_berr(n, nrhs, h + k * nn, b + k * nb, x + k * nb);
        if (!(e >= 0))
            ok = 0;
        worst = e > worst ? e : worst;
    }
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    ok = ok && worst <= IX_BOUND_C * n * eps;
    const int gpu = dev == BSYM_DEVICE_GPU;
    char *fam = ix_family[gpu][t][method];
    if (fam[0] == '\0')
        snprintf(fam, sizeof ix_family[0][0][0], "indef %s %s", ix_method_name[method], ty_name[t]);
    if (st == BSYM_OK)
        note(fam, dev, single, worst, n);
    char what[256];
    snprintf(what, sizeof what, "indef %s %s%s uplo=%c n=%d nrhs=%d %s: info 0, rank n, used, backward error %.3g <= %g n eps (%s)",
             ix_method_name[method], ty_name[t], plain ? " (plain solve)" : "", uplo, n, nrhs, ix_kind_name[kind],
             worst / (n * eps), IX_BOUND_C, bsym_ctx_message(ctx));
    check(ok, what, gpu ? "gpu" : "cpu", st, bad_info);
    bsym_ctx_destroy(ctx);
    free(h);
    free(b);
    free(x);
    free(A);
    free(B);
    free(info);
}

/* 1 when device dev solves method in type t here: Bunch-Kaufman and
 * Aasen in every type, and complex input's every method (the real LDL^T,
 * TRIDIAG, EIGEN and AUTO have their own families; issue 14 adds the
 * complex ones here; issue 16 puts the complex TRIDIAG, EIGEN and AUTO on
 * the GPU, where LDL^H, Bunch-Kaufman and Aasen were), on the CPU and the
 * GPU alike. */
static int ix_serves(bsym_device dev, int t, bsym_method method)
{
    (void)dev;
    const int pivoted = method == BSYM_METHOD_BUNCH_KAUFMAN || method == BSYM_METHOD_AASEN;
    return pivoted || ty_complex(t);
}

/* The accuracy cases on device dev: every method x type x uplo x n x nrhs
 * x kind (subset: fewer sizes, for the sanitizers). */
static void test_indef_accuracy(bsym_device dev, int subset)
{
    /* the GPU's block kernel above 64 too: its matrix (the lower triangle,
     * packed) fits in shared memory up to n = 256 (float), 238 (double,
     * complex float; Aasen 234), 168 (complex double; Aasen 164), in global
     * memory above (both sides of each edge); below the edges too where
     * shared memory holds one block a multiprocessor and the workspace stays
     * in L2 (indef.cu's prefers_global; on the H200 for instance float 238,
     * double and complex float 168, complex double 128), so both variants
     * run for every type; between 65 and 96 the warp kernel with three rows
     * a lane up to an edge by type and method (indef.cu's warp3_max: 68,
     * 72, 80, 84 or 96; BSYM_INDEF_WARP3_MAX=96 runs it for all) */
    static const int cpu[] = {1, 2, 3, 5, 8, 17, 32, 33, 64},
                     gpu[] = {1,  2,  3,  5,   8,   17,  32,  33,  64,  65,  72,  73,  84,
                              85, 96, 97, 100, 164, 165, 168, 169, 234, 235, 238, 239, 256},
                     few[] = {3, 17, 33, 70, 170};
    const int *sizes = subset ? few : dev == BSYM_DEVICE_GPU ? gpu : cpu;
    const size_t nsizes = subset ? sizeof few / sizeof *few
                          : dev == BSYM_DEVICE_GPU ? sizeof gpu / sizeof *gpu
                                                   : sizeof cpu / sizeof *cpu;
    static const bsym_method methods[] = {BSYM_METHOD_LDLT, BSYM_METHOD_BUNCH_KAUFMAN, BSYM_METHOD_AASEN,
                                          BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int t = 0; t < TY_N; t++)
        for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
            const int pivoted = methods[m] == BSYM_METHOD_BUNCH_KAUFMAN || methods[m] == BSYM_METHOD_AASEN;
            if (!ix_serves(dev, t, methods[m]))
                continue;
            for (size_t s = 0; s < nsizes; s++)
                for (int kind = 0; kind < IX_KINDS; kind++) {
                    const int pd = kind == IX_HPD || kind == IX_HPD_GRADED;
                    if (methods[m] == BSYM_METHOD_LDLT ? !pd : pivoted && kind == IX_HPD_GRADED)
                        continue; /* LDL^H: positive definite only; the pivoted ones: all but graded PD; the rest: all */
                    const int n = sizes[s], batch = n <= 8 ? 7 : 3;
                    if (n == 1 && kind == IX_ZERODIAG)
                        continue; /* singular */
                    ix_case(dev, t, methods[m], 'L', n, 1, kind, batch, 0);
                    ix_case(dev, t, methods[m], 'U', n, 3, kind, batch, s % 2);
                }
        }
}

/* Singular systems, non-finite input and breakdowns on device dev: the
 * info codes, NaN solutions there, the other systems of the batch solved. */
static void test_indef_bad(bsym_device dev, int n)
{
    const int nrhs = 2, batch = 4;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    for (int t = 0; t < TY_N; t++)
        for (int mi = 0; mi < 3; mi++) {
            const bsym_method method = mi == 0 ? BSYM_METHOD_LDLT : mi == 1 ? BSYM_METHOD_BUNCH_KAUFMAN : BSYM_METHOD_AASEN;
            if (!ix_serves(dev, t, method))
                continue;
            for (int u = 0; u < 2; u++) {
                const char uplo = u ? 'U' : 'L';
                const int cplx = ty_complex(t), single = ty_single(t);
                /* system 0: fine; 1: NaN in the referenced triangle (or in B
                 * for U); 2: singular (LDLT: zero diagonal, breakdown at 1;
                 * BK: a zero row and column; Aasen: diag(1, .., 1, 0)); 3: fine */
                ix_cx *h = calloc(nn * batch, sizeof(ix_cx)), *b = malloc(sizeof(ix_cx) * nb * batch),
                      *x = malloc(sizeof(ix_cx) * nb * batch);
                for (int k = 0; k < batch; k++)
                    ix_matrix(method == BSYM_METHOD_LDLT ? IX_HPD : IX_RANDOM, cplx, single, n, h + k * nn);
                ix_cx *s2 = h + 2 * nn;
                if (method == BSYM_METHOD_LDLT) {
                    for (int j = 0; j < n; j++)
                        s2[j + j * n] = 0;
                } else if (method == BSYM_METHOD_BUNCH_KAUFMAN) {
                    for (int i = 0; i < n; i++)
                        s2[i + 3 * n] = s2[3 + i * n] = 0;
                } else {
                    for (size_t e = 0; e < nn; e++)
                        s2[e] = 0;
                    for (int j = 0; j + 1 < n; j++)
                        s2[j + j * n] = 1;
                }
                for (size_t e = 0; e < nn * batch; e++)
                    h[e] = ty_round(t, h[e]);
                for (size_t e = 0; e < nb * batch; e++)
                    b[e] = ty_round(t, urand() + (cplx ? urand() * I : 0));
                void *A = ix_input(t, uplo, n, batch, h), *B = malloc(ty_size(t) * nb * batch);
                if (u == 0)
                    ty_put(t, A, nn + 4 + 2 * n, NAN); /* (4, 2): in the lower triangle */
                else
                    b[nb + 5] = INFINITY;
                for (size_t e = 0; e < nb * batch; e++)
                    ty_put(t, B, e, b[e]);
                int info[4] = {9, 9, 9, 9}, rank[4], used[4];
                bsym_ctx *ctx;
                bsym_ctx_create(&ctx);
                bsym_ctx_set_device(ctx, dev);
                const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
                bsym_status st = ix_call(ctx, t, 0, &o, uplo, n, nrhs, batch, A, B, info, rank, used);
                for (size_t e = 0; e < nb * batch; e++)
                    x[e] = ty_get(t, B, e);
                int nan1 = 1, nan2 = 1;
                for (size_t e = 0; e < nb; e++) {
                    nan1 &= isnan(creal(x[nb + e])) && (!cplx || isnan(cimag(x[nb + e])));
                    nan2 &= isnan(creal(x[2 * nb + e])) && (!cplx || isnan(cimag(x[2 * nb + e])));
                }
                const double eps = single ? FLT_EPSILON : DBL_EPSILON;
                const double e0 = ix_berr(n, nrhs, h, b, x), e3 = ix_berr(n, nrhs, h + 3 * nn, b + 3 * nb, x + 3 * nb);
                const int want2 = method == BSYM_METHOD_LDLT ? 1 : method == BSYM_METHOD_AASEN ? n : -99;
                int ok = st == BSYM_OK && info[0] == 0 && info[3] == 0 && info[1] == -1 && nan1 && nan2 &&
                         (want2 == -99 ? info[2] > 0 && info[2] <= n : info[2] == want2) &&
                         e0 >= 0 && e0 <= IX_BOUND_C * n * eps && e3 >= 0 && e3 <= IX_BOUND_C * n * eps &&
                         rank[1] == -1 && rank[2] == -1 && rank[0] == n && used[0] == (int)method &&
                         bsym_used_name(used[0], info[0]) != NULL &&
                         strcmp(bsym_used_name(used[0], info[0]), ix_method_name[method]) == 0 &&
                         bsym_used_name(used[2], info[2]) == NULL;
                char what[200];
                snprintf(what, sizeof what,
                         "indef %s %s uplo=%c n=%d: non-finite input (info -1), %s (info %d), NaN solutions there, the rest solved",
                         ix_method_name[method], ty_name[t], uplo, n,
                         method == BSYM_METHOD_LDLT ? "zero pivot" : "singular", info[2]);
                check(ok, what, dev == BSYM_DEVICE_GPU ? "gpu" : "cpu", info[1], info[2]);
                bsym_ctx_destroy(ctx);
                free(h);
                free(b);
                free(x);
                free(A);
                free(B);
            }
        }
}

/* The 4 x 4 zero matrix on device dev: info 1 (D(1,1) = 0 for Bunch-Kaufman,
 * T's first pivot zero for Aasen), a NaN solution. */
static void test_indef_zero(bsym_device dev)
{
    for (int t = 0; t < TY_N; t++)
        for (int mi = 0; mi < 2; mi++) {
            const bsym_method method = mi ? BSYM_METHOD_AASEN : BSYM_METHOD_BUNCH_KAUFMAN;
            if (!ix_serves(dev, t, method))
                continue;
            ix_cx *h = calloc(16, sizeof(ix_cx)), bb[4] = {1, 2, 3, 4};
            void *A = ix_input(t, 'L', 4, 1, h), *B = malloc(ty_size(t) * 4);
            for (int e = 0; e < 4; e++)
                ty_put(t, B, e, bb[e]);
            int info = 9, rank = 0, used = 0;
            bsym_ctx *ctx;
            bsym_ctx_create(&ctx);
            bsym_ctx_set_device(ctx, dev);
            const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
            bsym_status st = ix_call(ctx, t, 0, &o, 'L', 4, 1, 1, A, B, &info, &rank, &used);
            char what[160];
            snprintf(what, sizeof what, "indef %s %s: the zero matrix gives info 1", ix_method_name[method], ty_name[t]);
            check(st == BSYM_OK && info == 1 && isnan(creal(ty_get(t, B, 3))), what,
                  dev == BSYM_DEVICE_GPU ? "gpu" : "cpu", st, info);
            bsym_ctx_destroy(ctx);
            free(h);
            free(A);
            free(B);
        }
}

/* Mixed storage: bsym_zcsolvex is bsym_csolvex on complex float copies (every
 * method), and bsym_dssolvex bsym_ssolvex on float copies, number for number. */
static void test_indef_mixed(void)
{
    const int n = 9, nrhs = 2, batch = 5;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    static const bsym_method mm[] = {BSYM_METHOD_LDLT, BSYM_METHOD_BUNCH_KAUFMAN, BSYM_METHOD_AASEN,
                                     BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int cplx = 0; cplx < 2; cplx++)
        for (int mi = 0; mi < 6; mi++) {
            const bsym_method method = mm[mi];
            if ((method == BSYM_METHOD_LDLT || mi >= 3) && !cplx)
                continue; /* real TRIDIAG, EIGEN, AUTO: the strategy family's test_dssolvex */
            const int tw = cplx ? TY_ZC : TY_DS, tf = cplx ? TY_C : TY_S;
            ix_cx *h = malloc(sizeof(ix_cx) * nn * batch), *b = malloc(sizeof(ix_cx) * nb * batch);
            for (int k = 0; k < batch; k++)
                ix_matrix(method == BSYM_METHOD_LDLT || (method == BSYM_METHOD_AUTO && k % 2) ? IX_HPD : IX_RANDOM,
                          cplx, 0, n, h + k * nn);
            for (size_t e = 0; e < nb * batch; e++)
                b[e] = urand() + (cplx ? urand() * I : 0); /* not rounded: the core rounds */
            void *Aw = ix_input(tw, 'U', n, batch, h), *Af = ix_input(tf, 'U', n, batch, h);
            void *Bw = malloc(ty_size(tw) * nb * batch), *Bf = malloc(ty_size(tf) * nb * batch);
            for (size_t e = 0; e < nb * batch; e++) {
                ty_put(tw, Bw, e, b[e]);
                ty_put(tf, Bf, e, b[e]);
            }
            int iw[5], if_[5];
            bsym_ctx *ctx;
            bsym_ctx_create(&ctx);
            const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
            bsym_status s1 = ix_call(ctx, tw, 0, &o, 'U', n, nrhs, batch, Aw, Bw, iw, NULL, NULL);
            bsym_status s2 = ix_call(ctx, tf, 0, &o, 'U', n, nrhs, batch, Af, Bf, if_, NULL, NULL);
            int same = s1 == BSYM_OK && s2 == BSYM_OK, solved = 1;
            for (int k = 0; k < batch; k++)
                same &= iw[k] == if_[k], solved &= iw[k] == 0;
            for (size_t e = 0; e < nb * batch; e++) {
                const ix_cx a = ty_get(tw, Bw, e), c = ty_get(tf, Bf, e);
                same &= creal(a) == creal(c) && cimag(a) == cimag(c);
            }
            char what[160];
            snprintf(what, sizeof what, "indef %s %s equals %s on float copies, number for number",
                     ix_method_name[method], ty_name[tw], ty_name[tf]);
            check(same && solved, what, "cpu", s1, s2);
            bsym_ctx_destroy(ctx);
            free(h);
            free(b);
            free(Aw);
            free(Af);
            free(Bw);
            free(Bf);
        }
}

/* The rules: complex input takes every method (issue 14); the names; empty
 * calls; the devices (no GPU here: device GPU is BSYM_ERR_NODEVICE; with
 * one, BSYM_ERR_SIZE naming the operation; AUTO serves on the CPU). */
static void test_indef_rules(bsym_device_info *di)
{
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_cdouble za[4] = {{2, 0}, {1, 1}, {NAN, NAN}, {3, 0}}, zb[2] = {{1, 0}, {0, 1}};
    bsym_cfloat ca[4] = {{2, 0}, {1, 1}, {NAN, NAN}, {3, 0}}, cb[2] = {{1, 0}, {0, 1}};
    int info[1] = {5};
    /* issue 14: complex input takes every method, opts NULL (AUTO) included:
     * A = [2 1-i; 1+i 3] (lower triangle; the NaN above is never read),
     * b = (1, i), x = A^-1 b = ((1 - i) / 4 ... ) checked by its residual */
    static const bsym_method all_methods[] = {BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int tt = 0; tt < 3; tt++)
        for (int m = 0; m < 4; m++) {
            const bsym_method method = m < 3 ? all_methods[m] : BSYM_METHOD_AUTO;
            const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
            const bsym_solve_opts *op = m < 3 ? &o : NULL; /* NULL: AUTO */
            bsym_cdouble zb2[2] = {zb[0], zb[1]};
            bsym_cfloat cb2[2] = {cb[0], cb[1]};
            int used[1] = {-7}, rank[1] = {-7};
            info[0] = 5;
            bsym_status st = tt == 0   ? bsym_zsolvex(ctx, op, 'L', 2, 1, 1, za, zb2, info, rank, used)
                             : tt == 1 ? bsym_csolvex(ctx, op, 'L', 2, 1, 1, ca, cb2, info, rank, used)
                                       : bsym_zcsolvex(ctx, op, 'L', 2, 1, 1, za, zb2, info, rank, used);
            ix_cx x0 = tt == 1 ? cb2[0].re + cb2[0].im * I : zb2[0].re + zb2[0].im * I;
            ix_cx x1 = tt == 1 ? cb2[1].re + cb2[1].im * I : zb2[1].re + zb2[1].im * I;
            const double r = cabs(2 * x0 + (1 - I) * x1 - 1) + cabs((1 + I) * x0 + 3 * x1 - I);
            const int want_used = method == BSYM_METHOD_AUTO ? BSYM_METHOD_LDLT : (int)method; /* A is HPD */
            char what[300];
            snprintf(what, sizeof what, "complex input takes method %s (%s): solved, rank 2, used %s (residual %.2g)",
                     m < 3 ? ix_method_name[method] : "opts NULL = auto", tt == 0 ? "z" : tt == 1 ? "c" : "zc",
                     ix_method_name[want_used], r);
            check(st == BSYM_OK && info[0] == 0 && rank[0] == 2 && used[0] == want_used &&
                      r <= 1e-5 * (tt == 0 ? 1e-9 : 1),
                  what, "rules", st, info[0]);
        }
    bsym_status st = bsym_zsolve(ctx, BSYM_METHOD_TRIDIAG, 'L', 2, 1, 1, za, (bsym_cdouble[2]){{1, 0}, {0, 1}}, info);
    check(st == BSYM_OK && info[0] == 0, "bsym_zsolve takes tridiag", "rules", st, info[0]);
    st = bsym_csolve(ctx, BSYM_METHOD_EIGEN, 'L', 2, 1, 1, ca, (bsym_cfloat[2]){{1, 0}, {0, 1}}, info);
    check(st == BSYM_OK && info[0] == 0, "bsym_csolve takes eigen", "rules", st, info[0]);
    /* a bad method code and a bad uplo */
    const bsym_solve_opts bad = {(bsym_method)6, BSYM_RCOND_DEFAULT, 0.0, NULL};
    st = bsym_zsolvex(ctx, &bad, 'L', 2, 1, 1, za, zb, info, NULL, NULL);
    check(st == BSYM_ERR_ARG && strstr(bsym_ctx_message(ctx), "unknown method code 6") != NULL,
          "method code 6 is unknown", "rules", st, 0);
    st = bsym_zsolve(ctx, BSYM_METHOD_AASEN, 'X', 2, 1, 1, za, zb, info);
    check(st == BSYM_ERR_ARG, "complex solve: a bad uplo", "rules", st, 0);
    st = bsym_zsolve(ctx, BSYM_METHOD_AASEN, 'L', 2, 1, 1, NULL, zb, info);
    check(st == BSYM_ERR_ARG, "complex solve: A NULL", "rules", st, 0);
    /* empty calls */
    info[0] = 5;
    st = bsym_zsolve(ctx, BSYM_METHOD_BUNCH_KAUFMAN, 'L', 0, 1, 1, NULL, NULL, info);
    int ok = st == BSYM_OK && info[0] == 0;
    st = bsym_zcsolvex(ctx, &(bsym_solve_opts){BSYM_METHOD_AASEN, 0, 0, NULL}, 'L', 3, 1, 0, NULL, NULL, NULL, NULL, NULL);
    ok &= st == BSYM_OK;
    check(ok, "complex solves: empty calls are fine", "rules", st, 0);
    /* names */
    int code = -1;
    ok = bsym_choice_parse(ctx, BSYM_CHOICE_METHOD, "method", "bunch-kaufman", &code) == BSYM_OK &&
         code == BSYM_METHOD_BUNCH_KAUFMAN &&
         bsym_choice_parse(ctx, BSYM_CHOICE_METHOD, "method", "aasen", &code) == BSYM_OK && code == BSYM_METHOD_AASEN &&
         strcmp(bsym_choice_name(BSYM_CHOICE_METHOD, 4), "bunch-kaufman") == 0 &&
         strcmp(bsym_choice_name(BSYM_CHOICE_METHOD, 5), "aasen") == 0 &&
         bsym_choice_name(BSYM_CHOICE_METHOD, 6) == NULL &&
         strcmp(bsym_used_name(BSYM_METHOD_BUNCH_KAUFMAN, 0), "bunch-kaufman") == 0 &&
         strcmp(bsym_used_name(BSYM_METHOD_AASEN, 0), "aasen") == 0 &&
         bsym_used_name(BSYM_METHOD_AASEN, 2) == NULL && bsym_used_name(6, 0) == NULL &&
         bsym_used_name(BSYM_METHOD_AUTO, 0) == NULL;
    bsym_solve_opts oo;
    ok &= bsym_solve_opts_make(ctx, BSYM_METHOD_AASEN, 0.5, NULL, NULL, &oo) == BSYM_OK &&
          bsym_solve_opts_check(ctx, &oo) == BSYM_OK && oo.method == BSYM_METHOD_AASEN;
    check(ok, "methods bunch-kaufman (4) and aasen (5): names, codes, used names, options", "rules", code, 0);

    /* devices */
    static const bsym_method pivoted[] = {BSYM_METHOD_BUNCH_KAUFMAN, BSYM_METHOD_AASEN, BSYM_METHOD_LDLT,
                                          BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int m = 0; m < 6; m++)
        for (int cplx = 0; cplx < 2; cplx++) {
            if (m >= 2 && !cplx)
                continue; /* real: the GPU has these */
            double da[4] = {2, 1, NAN, 3}, db[2] = {1, 2};
            bsym_cdouble zb2[2] = {zb[0], zb[1]};
            bsym_ctx_set_device(ctx, BSYM_DEVICE_GPU);
            st = cplx ? bsym_zsolve(ctx, pivoted[m], 'L', 2, 1, 1, za, zb2, info)
                      : bsym_dsolve(ctx, pivoted[m], 'L', 2, 1, 1, da, db, info);
            char what[200];
            /* the GPU has every method for complex input (issue 16), and
             * Bunch-Kaufman and Aasen for real input (the real others have
             * their own families) */
            if (di->gpu_available) {
                snprintf(what, sizeof what, "device gpu, %s %s: solved there (the NaN is in the other triangle)",
                         ix_method_name[pivoted[m]], cplx ? "complex" : "real");
                check(st == BSYM_OK && info[0] == 0 && bsym_ctx_last_device(ctx) == BSYM_DEVICE_GPU, what, "rules",
                      st, info[0]);
            } else {
                snprintf(what, sizeof what, "device gpu without a GPU, %s %s: BSYM_ERR_NODEVICE (built with CUDA %d)",
                         ix_method_name[pivoted[m]], cplx ? "complex" : "real", di->built_with_cuda);
                check(st == BSYM_ERR_NODEVICE && bsym_ctx_message(ctx)[0] != '\0', what, "rules", st, 0);
            }
            /* AUTO: a batch big enough for the GPU goes there when it has the method */
            const int n = 64, batch = 80; /* 64 * 64 * 80 entries >= 2^18 */
            ix_cx *h = malloc(sizeof(ix_cx) * n * n * batch), *b = malloc(sizeof(ix_cx) * n * batch);
            for (int k = 0; k < batch; k++)
                ix_matrix(pivoted[m] == BSYM_METHOD_LDLT ? IX_HPD : IX_RANDOM, cplx, 0, n, h + (size_t)k * n * n);
            for (int e = 0; e < n * batch; e++)
                b[e] = urand();
            const int t = cplx ? TY_Z : TY_D;
            void *A = ix_input(t, 'L', n, batch, h), *B = malloc(ty_size(t) * n * batch);
            for (int e = 0; e < n * batch; e++)
                ty_put(t, B, e, b[e]);
            int *inf = malloc(sizeof(int) * batch);
            bsym_ctx_set_device(ctx, BSYM_DEVICE_AUTO);
            const bsym_solve_opts o = {pivoted[m], BSYM_RCOND_DEFAULT, 0.0, NULL};
            st = ix_call(ctx, t, 0, &o, 'L', n, 1, batch, A, B, inf, NULL, NULL);
            int all0 = 1;
            for (int k = 0; k < batch; k++)
                all0 &= inf[k] == 0;
            const bsym_device want = di->gpu_available ? BSYM_DEVICE_GPU : BSYM_DEVICE_CPU;
            snprintf(what, sizeof what, "device auto, %s %s, a batch big enough for the GPU: solved on the %s",
                     ix_method_name[pivoted[m]], cplx ? "complex" : "real", want == BSYM_DEVICE_GPU ? "GPU" : "CPU");
            check(st == BSYM_OK && all0 && bsym_ctx_last_device(ctx) == want, what, "rules", st, 0);
            free(h);
            free(b);
            free(A);
            free(B);
            free(inf);
        }
    bsym_ctx_destroy(ctx);
}

/* Bunch-Kaufman's small-n path interleaves several systems (8 double, 16
 * float, 4 complex double, 8 complex float) across SIMD lanes, each lane
 * pivoting on its own; the complex LDL^H is the same path with the
 * pivoting off. A batch of 37
 * (a remainder for either lane count) mixing kinds (Bunch-Kaufman: random
 * indefinite: 2x2 pivots in some lanes; positive definite: none;
 * [0 c; conj(c) 0] blocks: all 2x2; zero diagonal; a tiny leading pivot.
 * LDL^H: positive definite, plain and graded), a NaN in A (system 3), a
 * singular system (system 10: zero row and column 1; LDL^H: a zero pivot,
 * info 2; system 4 scaled so that |a_ij|^2 overflows) and an Inf in B (the
 * last system): the good systems solved within
 * the bound, the bad ones with their info codes and NaN solutions, and
 * every system's solution and info the same, number for number, as when it
 * is solved alone. LDL^H also: the plain positive definite systems agree
 * with the one-at-a-time LDL^H of method AUTO's certified first step
 * (indef_impl.h's ix_ldlh_run_) to working precision. */
static void ix_lanes_case(int t, bsym_method method, char uplo, int n)
{
    const int batch = 37, nrhs = 2, cplx = ty_complex(t), single = ty_single(t);
    const int ldlh = method == BSYM_METHOD_LDLT;
    static const int bk_kinds[] = {IX_RANDOM, IX_HPD, IX_BLOCKS, IX_ZERODIAG, IX_TINY},
                     ldlh_kinds[] = {IX_HPD, IX_HPD_GRADED};
    const int *kinds = ldlh ? ldlh_kinds : bk_kinds, nkinds = ldlh ? 2 : 5;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs, sz = ty_size(t);
    ix_cx *h = malloc(sizeof(ix_cx) * nn * batch), *b = malloc(sizeof(ix_cx) * nb * batch),
          *x = malloc(sizeof(ix_cx) * nb * batch);
    for (int k = 0; k < batch; k++) {
        ix_matrix(kinds[k % nkinds], cplx, single, n, h + k * nn);
        if (k == 10)
            for (int i = 0; i < n; i++)
                h[k * nn + i + n] = h[k * nn + 1 + i * n] = 0;
        if (ldlh && k == 4) /* |a|^2 overflows: the pivot tolerance from the moduli one by one */
            for (size_t e = 0; e < nn; e++)
                h[k * nn + e] *= single ? 1e20 : 1e160;
    }
    for (size_t e = 0; e < nn * batch; e++)
        h[e] = ty_round(t, h[e]);
    for (size_t e = 0; e < nb * batch; e++)
        b[e] = ty_round(t, urand() + (cplx ? urand() * I : 0));
    b[(batch - 1) * nb + 1] = INFINITY;
    void *A = ix_input(t, uplo, n, batch, h), *B = malloc(sz * nb * batch), *B1 = malloc(sz * nb);
    ty_put(t, A, 3 * nn + (uplo == 'L' ? (size_t)n - 1 : (size_t)(n - 1) * n), NAN); /* (n-1, 0) or (0, n-1) */
    for (size_t e = 0; e < nb * batch; e++)
        ty_put(t, B, e, b[e]);
    int info[37], info1 = 9;
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
    const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
    bsym_status st = ix_call(ctx, t, 0, &o, uplo, n, nrhs, batch, A, B, info, NULL, NULL);
    int ok = st == BSYM_OK, alone = 1, bad = 0;
    double agree = 0; /* LDL^H: max relative difference from the one-at-a-time solve, in eps */
    if (ldlh && ok) {
        void *Bo = malloc(sz * nb * batch);
        int *io = malloc(sizeof(int) * 3 * batch);
        for (size_t e = 0; e < nb * batch; e++)
            ty_put(t, Bo, e, b[e]);
        const bsym_solve_opts oa = {BSYM_METHOD_AUTO, BSYM_RCOND_DEFAULT, 0.0, NULL};
        st = ix_call(ctx, t, 0, &oa, uplo, n, nrhs, batch, A, Bo, io, io + batch, io + 2 * batch);
        ok = st == BSYM_OK;
        for (int k = 0; ok && k < batch; k++) {
            if (kinds[k % nkinds] != IX_HPD || info[k] != 0)
                continue;
            double dx = 0, nx = 0;
            for (size_t e = 0; e < nb; e++) {
                const ix_cx u = ty_get(t, B, k * nb + e), v = ty_get(t, Bo, k * nb + e);
                dx = cabs(u - v) > dx ? cabs(u - v) : dx;
                nx = cabs(v) > nx ? cabs(v) : nx;
            }
            const double r = io[2 * batch + k] == BSYM_METHOD_LDLT && io[k] == 0 ? dx / nx : INFINITY;
            agree = r > agree || r != r ? r : agree;
        }
        agree /= single ? FLT_EPSILON : DBL_EPSILON;
        free(Bo);
        free(io);
    }
    double worst = 0;
    for (size_t e = 0; e < nb * batch; e++)
        x[e] = ty_get(t, B, e);
    for (int k = 0; ok && k < batch; k++) {
        /* system k alone: lane 0 of a group of one */
        for (size_t e = 0; e < nb; e++)
            ty_put(t, B1, e, b[k * nb + e]);
        st = ix_call(ctx, t, 0, &o, uplo, n, nrhs, 1, (const char *)A + k * nn * sz, B1, &info1, NULL, NULL);
        alone &= st == BSYM_OK && info1 == info[k];
        for (size_t e = 0; e < nb; e++) {
            const ix_cx u = ty_get(t, B1, e), v = x[k * nb + e];
            alone &= (creal(u) == creal(v) || (isnan(creal(u)) && isnan(creal(v)))) &&
                     (cimag(u) == cimag(v) || (isnan(cimag(u)) && isnan(cimag(v))));
        }
        int nan = 1;
        for (size_t e = 0; e < nb; e++)
            nan &= isnan(creal(x[k * nb + e]));
        if (k == 3 || k == batch - 1) {
            bad |= !(info[k] == -1 && nan);
        } else if (k == 10) {
            bad |= !((ldlh ? info[k] == 2 : info[k] > 0 && info[k] <= n) && nan);
        } else {
            const double e = info[k] == 0 ? ix_berr(n, nrhs, h + k * nn, b + k * nb, x + k * nb) : -1;
            bad |= !(e >= 0);
            worst = e > worst ? e : worst;
        }
    }
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    ok = ok && alone && !bad && worst <= IX_BOUND_C * n * eps && agree <= IX_BOUND_C * n;
    char what[360];
    snprintf(what, sizeof what,
             "indef %s %s uplo=%c n=%d, %d systems (across SIMD lanes for n <= 64; %s, NaN, Inf, "
             "singular): info, NaN there, backward error %.3g <= %g n eps, each as when solved alone (%s)%s",
             ix_method_name[method], ty_name[t], uplo, n, batch,
             ldlh ? "positive definite, graded" : "2x2 pivots in some", worst / (n * eps), IX_BOUND_C,
             alone ? "yes" : "no", ldlh ? ", as one at a time (within n eps)" : "");
    check(ok, what, "cpu", info[3], info[10]);
    bsym_ctx_destroy(ctx);
    free(h);
    free(b);
    free(x);
    free(A);
    free(B);
    free(B1);
}

/* n = 65: past the lanes' limit, one system at a time (the same checks);
 * LDL^H for the complex types only (the real LDL^T is the ldlt family's) */
static void test_indef_lanes(void)
{
    static const int sizes[] = {2, 7, 16, 33, 64, 65};
    for (int t = 0; t < TY_N; t++)
        for (int mi = 0; mi < 2; mi++) {
            const bsym_method method = mi ? BSYM_METHOD_LDLT : BSYM_METHOD_BUNCH_KAUFMAN;
            if (mi && !ty_complex(t))
                continue;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                ix_lanes_case(t, method, 'L', sizes[s]);
                ix_lanes_case(t, method, 'U', sizes[s]);
            }
        }
}

/* ---- issue 14: complex TRIDIAG, EIGEN and AUTO: truncation, bad input -------
 * cs_known: A = U diag(lam) U^H with a random unitary U and known spectra
 * (system 0 positive definite, 1 indefinite, both with |l| in [0.5, 8]; 2
 * positive with two eigenvalues 1e-9; 3 indefinite with one eigenvalue
 * -1e-9), default rcond (tau = 1e-5 max|l|): EIGEN keeps the pairs above
 * tau (rank 8, 8, 6, 7) and AUTO uses LDLT, TRIDIAG, EIGEN, EIGEN with the
 * same ranks; x against the truncated solution from the exact U and lam,
 * relative error <= 100 n eps cond (cond <= 16 over the kept pairs). */
static void cs_unitary(int n, ix_cx *u)
{
    for (int e = 0; e < n * n; e++)
        u[e] = urand() + urand() * I;
    for (int j = 0; j < n; j++) { /* Gram-Schmidt, twice */
        for (int pass = 0; pass < 2; pass++)
            for (int p = 0; p < j; p++) {
                ix_cx d = 0;
                for (int i = 0; i < n; i++)
                    d += conj(u[i + p * n]) * u[i + j * n];
                for (int i = 0; i < n; i++)
                    u[i + j * n] -= d * u[i + p * n];
            }
        double nr = 0;
        for (int i = 0; i < n; i++)
            nr += creal(u[i + j * n] * conj(u[i + j * n]));
        for (int i = 0; i < n; i++)
            u[i + j * n] /= sqrt(nr);
    }
}

/* Solves `batch` complex systems h (n x n each, full Hermitian) with the
 * right-hand sides b (n x nrhs each) on device dev through type t's entry
 * point with options o, A given by its uplo triangle; the solutions into x
 * (ty_get of the solved B). */
static bsym_status cs_solve(bsym_device dev, int t, const bsym_solve_opts *o, char uplo, int n, int nrhs, int batch,
                            const ix_cx *h, const ix_cx *b, ix_cx *x, int *info, int *rank, int *used)
{
    const size_t nb = (size_t)n * nrhs * batch;
    void *A = ix_input(t, uplo, n, batch, h), *B = malloc(ty_size(t) * nb);
    for (size_t e = 0; e < nb; e++)
        ty_put(t, B, e, b[e]);
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_device(ctx, dev);
    const bsym_status st = ix_call(ctx, t, 0, o, uplo, n, nrhs, batch, A, B, info, rank, used);
    for (size_t e = 0; e < nb; e++)
        x[e] = ty_get(t, B, e);
    bsym_ctx_destroy(ctx);
    free(A);
    free(B);
    return st;
}

static void cs_known(bsym_device dev, int t, bsym_method method, char uplo)
{
    enum { n = 8, batch = 4, nrhs = 2 };
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    static const double lam[batch][n] = {{0.5, 1, 2, 3, 4, 5, 6, 8},
                                         {-8, -3, -1, -0.5, 0.5, 2, 4, 7},
                                         {1e-9, 1e-9, 0.5, 1, 2, 3, 5, 8},
                                         {-6, -2, -1e-9, 0.5, 1, 2, 4, 8}};
    static const int want_rank[batch] = {8, 8, 6, 7};
    static const int want_auto[batch] = {BSYM_METHOD_LDLT, BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_EIGEN};
    ix_cx *h = malloc(sizeof(ix_cx) * nn * batch), *u = malloc(sizeof(ix_cx) * nn * batch);
    ix_cx *b = malloc(sizeof(ix_cx) * nb * batch), *xr = malloc(sizeof(ix_cx) * nb * batch);
    for (int k = 0; k < batch; k++) {
        ix_cx *uk = u + k * nn, *hk = h + k * nn;
        cs_unitary(n, uk);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                ix_cx v = 0;
                for (int p = 0; p < n; p++)
                    v += uk[i + p * n] * lam[k][p] * conj(uk[j + p * n]);
                hk[i + j * n] = i == j ? creal(v) : v;
            }
        for (size_t e = 0; e < nb; e++)
            b[k * nb + e] = ty_round(t, urand() + urand() * I);
        for (int c = 0; c < nrhs; c++) /* the truncated reference (tau = 8e-5) */
            for (int i = 0; i < n; i++) {
                ix_cx v = 0;
                for (int p = 0; p < n; p++) {
                    if (fabs(lam[k][p]) < 1e-5 * 8)
                        continue;
                    ix_cx d = 0;
                    for (int q = 0; q < n; q++)
                        d += conj(uk[q + p * n]) * b[k * nb + c * n + q];
                    v += uk[i + p * n] * d / lam[k][p];
                }
                xr[k * nb + c * n + i] = v;
            }
    }
    ix_cx *x = malloc(sizeof(ix_cx) * nb * batch);
    int info[batch], rank[batch], used[batch];
    const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
    const bsym_status st = cs_solve(dev, t, &o, uplo, n, nrhs, batch, h, b, x, info, rank, used);
    const double eps = ty_single(t) ? FLT_EPSILON : DBL_EPSILON;
    double worst = 0;
    int ok = st == BSYM_OK;
    for (int k = 0; ok && k < batch; k++) {
        ok = info[k] == 0 && rank[k] == want_rank[k] &&
             used[k] == (method == BSYM_METHOD_AUTO ? want_auto[k] : (int)method);
        double num = 0, den = 0;
        for (size_t e = 0; e < nb; e++) {
            const ix_cx r = xr[k * nb + e];
            num = fmax(num, cabs(x[k * nb + e] - r));
            den = fmax(den, cabs(r));
        }
        const double rel = num / den;
        worst = rel > worst || rel != rel ? rel : worst;
    }
    ok = ok && worst <= 100 * n * eps * 16;
    char what[300];
    snprintf(what, sizeof what,
             "complex %s %s uplo=%c, known spectra, default rcond: rank 8 8 6 7, used%s, truncated solution (rel. error %.3g n eps cond)",
             ix_method_name[method], ty_name[t], uplo,
             method == BSYM_METHOD_AUTO ? " ldlt tridiag eigen eigen" : " eigen", worst / (n * eps * 16));
    check(ok, what, dev == BSYM_DEVICE_GPU ? "gpu" : "cpu", st, ok ? 0 : info[0]);
    free(h); free(u); free(b); free(xr); free(x);
}

/* cs_bad: a batch of 4 (system 0 positive definite, 3 random indefinite):
 * system 1 NaN in the referenced triangle (uplo L) or Inf in B (U): info -1,
 * NaN + NaN i, rank -1; system 2 the zero matrix: TRIDIAG info > 0 (T
 * singular) and NaN; EIGEN and AUTO rank 0, x = 0 (the minimum-norm
 * solution), used EIGEN; systems 0 and 3 solved within the bound. */
static void cs_bad(bsym_device dev, int t, bsym_method method, char uplo)
{
    enum { n = 7, batch = 4, nrhs = 2 };
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const int single = ty_single(t);
    ix_cx *h = calloc(nn * batch, sizeof(ix_cx)), *b = malloc(sizeof(ix_cx) * nb * batch),
          *x = malloc(sizeof(ix_cx) * nb * batch);
    ix_matrix(IX_HPD, 1, single, n, h);
    ix_matrix(IX_RANDOM, 1, single, n, h + nn);
    ix_matrix(IX_RANDOM, 1, single, n, h + 3 * nn);
    for (size_t e = 0; e < nn * batch; e++)
        h[e] = ty_round(t, h[e]);
    for (size_t e = 0; e < nb * batch; e++)
        b[e] = ty_round(t, urand() + urand() * I);
    if (uplo == 'L')
        h[nn + 4 + 2 * n] = NAN; /* (4, 2) of system 1, in the referenced triangle */
    else
        b[nb + 5] = INFINITY;
    int info[batch] = {9, 9, 9, 9}, rank[batch], used[batch];
    const bsym_solve_opts o = {method, BSYM_RCOND_DEFAULT, 0.0, NULL};
    const bsym_status st = cs_solve(dev, t, &o, uplo, n, nrhs, batch, h, b, x, info, rank, used);
    int nan1 = 1, nan2 = 1, zero2 = 1;
    for (size_t e = 0; e < nb; e++) {
        nan1 &= isnan(creal(x[nb + e])) && isnan(cimag(x[nb + e]));
        nan2 &= isnan(creal(x[2 * nb + e])) && isnan(cimag(x[2 * nb + e]));
        zero2 &= x[2 * nb + e] == 0;
    }
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    const double e0 = ix_berr(n, nrhs, h, b, x), e3 = ix_berr(n, nrhs, h + 3 * nn, b + 3 * nb, x + 3 * nb);
    const int ok2 = method == BSYM_METHOD_TRIDIAG ? info[2] > 0 && nan2 && rank[2] == -1
                                                  : info[2] == 0 && zero2 && rank[2] == 0 && used[2] == BSYM_METHOD_EIGEN;
    const int ok = st == BSYM_OK && info[0] == 0 && info[3] == 0 && info[1] == -1 && nan1 && rank[1] == -1 &&
                   ok2 && rank[0] == n && rank[3] == n && e0 >= 0 && e0 <= IX_BOUND_C * n * eps && e3 >= 0 &&
                   e3 <= IX_BOUND_C * n * eps;
    char what[300];
    snprintf(what, sizeof what,
             "complex %s %s uplo=%c: non-finite input (info -1, NaN), the zero matrix (info %d rank %d), the rest solved",
             ix_method_name[method], ty_name[t], uplo, info[2], rank[2]);
    check(ok, what, dev == BSYM_DEVICE_GPU ? "gpu" : "cpu", info[1], info[2]);
    free(h); free(b); free(x);
}

/* cs_cert: AUTO's certificate of the LDL^H start in both of its forms, one
 * batch of 4 at rcond (sigma = 4 rcond (1 + 2^-9) + n (n + 1) eps 2, as
 * ||A||_inf = 4 and max a_ii = 2), with T = tridiag(-e^{i theta_k}, 2,
 * -e^{-i theta_k}) (the spectrum of the real (-1, 2, -1): 2 - 2 cos(k pi /
 * (n + 1)); its LDL^H has |l_k| = k / (k + 1), so B2 ~ n^2 / 4):
 *  0: T. The cheap form fails (min D / B2 < sigma), the factorization of
 *     T - sigma I certifies (lambda_min > sigma): LDLT, rank n;
 *  1: 4 I + a Hermitian of entries below 0.1 / n: the cheap form
 *     certifies: LDLT, rank n;
 *  2: -T: the first pivot is negative: TRIDIAG, rank n (|lambda| >= lambda_min
 *     > tau = rcond max|lambda|);
 *  3: T - delta I, lambda_min < sigma: neither form certifies, and the
 *     smallest eigenvalue falls below tau: EIGEN, rank n - 1.
 * n = 24 (a warp a system) at rcond 0.003 (sigma 0.012, min D / B2 0.0088,
 * lambda_min 0.0158, delta 0.006), n = 100 (a block a system; double only:
 * float's n (n + 1) eps 2 = 2.4e-3 exceeds lambda_min) at 1.8e-4 (sigma
 * 7.2e-4, min D / B2 5.3e-4, lambda_min 9.7e-4, delta 4e-4). Solutions of
 * systems 0 to 2 within IX_BOUND_C n eps backward error. */
static void cs_cert(bsym_device dev, int t, char uplo, int n, double rcond, double delta)
{
    enum { batch = 4, nrhs = 2 };
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const int single = ty_single(t);
    ix_cx *h = calloc(nn * batch, sizeof(ix_cx)), *b = malloc(sizeof(ix_cx) * nb * batch),
          *x = malloc(sizeof(ix_cx) * nb * batch);
    for (int i = 0; i < n; i++) {
        const double th = 6.283185307179586 * urand();
        const ix_cx off = -(cos(th) + sin(th) * I);
        for (int k = 0; k < batch; k++) {
            ix_cx *hk = h + k * nn;
            const double sg = k == 2 ? -1 : 1;
            hk[i + i * n] = k == 1 ? 4 : sg * 2 - (k == 3 ? delta : 0);
            if (k != 1 && i + 1 < n) {
                hk[i + 1 + i * n] = sg * off;
                hk[i + (i + 1) * n] = sg * conj(off);
            }
        }
    }
    for (int j = 0; j < n; j++) /* system 1's small Hermitian part */
        for (int i = j + 1; i < n; i++) {
            const ix_cx v = 0.1 / n * (urand() + urand() * I);
            h[nn + i + j * n] = v;
            h[nn + j + i * n] = conj(v);
        }
    for (size_t e = 0; e < nn * batch; e++)
        h[e] = ty_round(t, h[e]);
    for (size_t e = 0; e < nb * batch; e++)
        b[e] = ty_round(t, urand() + urand() * I);
    int info[batch], rank[batch], used[batch];
    const bsym_solve_opts o = {BSYM_METHOD_AUTO, rcond, 0.0, NULL};
    const bsym_status st = cs_solve(dev, t, &o, uplo, n, nrhs, batch, h, b, x, info, rank, used);
    static const int want_used[batch] = {BSYM_METHOD_LDLT, BSYM_METHOD_LDLT, BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN};
    const double eps = single ? FLT_EPSILON : DBL_EPSILON;
    int ok = st == BSYM_OK;
    double worst = 0;
    for (int k = 0; ok && k < batch; k++) {
        ok = info[k] == 0 && used[k] == want_used[k] && rank[k] == (k == 3 ? n - 1 : n);
        if (k < 3) {
            const double e = ix_berr(n, nrhs, h + k * nn, b + k * nb, x + k * nb);
            ok = ok && e >= 0 && e <= IX_BOUND_C * n * eps;
            worst = e > worst ? e : worst;
        }
    }
    char what[300];
    snprintf(what, sizeof what,
             "complex auto %s uplo=%c n=%d rcond=%g: certified by the shifted factorization, by the cheap form, "
             "not positive, not certified (used %d %d %d %d, rank %d %d %d %d; berr %.3g n eps)",
             ty_name[t], uplo, n, rcond, used[0], used[1], used[2], used[3], rank[0], rank[1], rank[2], rank[3],
             worst / (n * eps));
    check(ok, what, dev == BSYM_DEVICE_GPU ? "gpu" : "cpu", st, info[0]);
    free(h); free(b); free(x);
}

static void test_csolve(bsym_device dev)
{
    static const bsym_method methods[] = {BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int t = TY_Z; t < TY_N; t++)
        for (int m = 0; m < 3; m++)
            for (int u = 0; u < 2; u++) {
                if (methods[m] != BSYM_METHOD_TRIDIAG)
                    cs_known(dev, t, methods[m], u ? 'U' : 'L');
                cs_bad(dev, t, methods[m], u ? 'U' : 'L');
            }
    for (int t = TY_Z; t < TY_N; t++)
        for (int u = 0; u < 2; u++) {
            cs_cert(dev, t, u ? 'U' : 'L', 24, 0.003, 0.006);
            if (t == TY_Z)
                cs_cert(dev, t, u ? 'U' : 'L', 100, 1.8e-4, 4e-4);
        }
}

/* The GPU's block kernel (n > 64) runs a persistent grid: batches larger
 * than the grid, so that its blocks take several systems each, with M in
 * shared memory (complex double n = 100, float 240: one or two blocks a
 * multiprocessor) and in the global workspace (complex double 170, double
 * 240). */
static void test_indef_grid(void)
{
    ix_case(BSYM_DEVICE_GPU, TY_Z, BSYM_METHOD_BUNCH_KAUFMAN, 'L', 100, 2, IX_RANDOM, 400, 0);
    ix_case(BSYM_DEVICE_GPU, TY_Z, BSYM_METHOD_AASEN, 'U', 170, 1, IX_RANDOM, 1200, 0);
    ix_case(BSYM_DEVICE_GPU, TY_Z, BSYM_METHOD_LDLT, 'L', 170, 1, IX_HPD, 1200, 0);
    ix_case(BSYM_DEVICE_GPU, TY_S, BSYM_METHOD_BUNCH_KAUFMAN, 'L', 240, 1, IX_RANDOM, 600, 0);
    ix_case(BSYM_DEVICE_GPU, TY_D, BSYM_METHOD_BUNCH_KAUFMAN, 'U', 240, 1, IX_RANDOM, 600, 0);
    /* the complex solves' persistent grids (hetrd.cu's reduction and solve):
     * more systems than blocks */
    ix_case(BSYM_DEVICE_GPU, TY_C, BSYM_METHOD_TRIDIAG, 'L', 20, 1, IX_RANDOM, 6000, 0);
    ix_case(BSYM_DEVICE_GPU, TY_Z, BSYM_METHOD_AUTO, 'U', 100, 2, IX_RANDOM, 1200, 0);
    ix_case(BSYM_DEVICE_GPU, TY_C, BSYM_METHOD_AUTO, 'L', 40, 1, IX_HPD, 4000, 0);
}

/* ==== family csolve: the complex tridiag, eigen and auto solves' known
 * spectra and bad systems (cs_known, cs_bad) on the CPU and the GPU; with
 * subset (the sanitizers, racecheck included) the GPU only, and a few
 * systems of each method at n = 40 and 70 (hetrd.cu's solve with two and
 * three warps, indef.cu's shifted LDL^H in a warp and a block) */
static void test_csolve_family(bsym_device_info *di, int subset)
{
    if (!subset)
        test_csolve(BSYM_DEVICE_CPU);
    if (!di->gpu_available)
        return;
    test_csolve(BSYM_DEVICE_GPU);
    static const bsym_method methods[] = {BSYM_METHOD_TRIDIAG, BSYM_METHOD_EIGEN, BSYM_METHOD_AUTO};
    for (int t = TY_Z; subset && t <= TY_C; t++)
        for (int m = 0; m < 3; m++) {
            ix_case(BSYM_DEVICE_GPU, t, methods[m], 'L', 40, 2, IX_RANDOM, 3, 0);
            ix_case(BSYM_DEVICE_GPU, t, methods[m], 'U', 70, 1, IX_HPD, 2, 0);
        }
}

static void test_indef_family(bsym_device_info *di)
{
    test_indef_accuracy(BSYM_DEVICE_CPU, 0);
    test_indef_bad(BSYM_DEVICE_CPU, 6);
    test_indef_zero(BSYM_DEVICE_CPU);
    test_indef_lanes();
    test_indef_mixed();
    test_indef_rules(di);
    if (di->gpu_available) {
        test_indef_accuracy(BSYM_DEVICE_GPU, 0);
        test_indef_bad(BSYM_DEVICE_GPU, 6);
        test_indef_zero(BSYM_DEVICE_GPU);
        test_indef_bad(BSYM_DEVICE_GPU, 100); /* the block kernel: M in shared memory; at 240 in global memory but in float */
        test_indef_bad(BSYM_DEVICE_GPU, 240);
        test_indef_grid();
    }
}

static void test_pde_family(bsym_device dev, const char *dname); /* issue 15, at the end of this file */
static void test_ceig_family(int cpu, int gpu, int subset); /* issues 14 and 16, at the end of this file */

int main(int argc, char **argv)
{
    /* --subset: the GPU only, one size of every launch shape (LDL^T classes 4
     * to 64, the block kernel's 96 to 256 threads, double n = 256 with its
     * tiles in global memory; Householder 8 to 64, eigen groups 8 to 32 lanes, PCR in lanes and
     * partitions) and each family once: what tools/gpu-check.sh runs under
     * compute-sanitizer, whose racecheck does not finish the whole suite */
    const char *counts = NULL, *only = NULL; /* --only ldlt|tridiag|eig|strategy|indef|csolve|pde|ceig: one family */
    int subset = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--counts") == 0 && i + 1 < argc)
            counts = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--subset") == 0)
            subset = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
    }
#define WANT(family) (only == NULL || strcmp(only, family) == 0)
    bsym_device_info di;
    bsym_get_device_info(&di);
    printf("batchsym core tests: built with CUDA %d, GPU %s%s%s\n", di.built_with_cuda,
           di.gpu_available ? di.name : "none", di.gpu_available ? "" : ": ", di.reason);
    const int all_sizes[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 47, 48, 63, 64, 65, 100};
    const int subset_sizes[] = {1, 3, 8, 16, 31, 40, 64, 70, 100, 140, 170, 256};
    const int *sizes = subset ? subset_sizes : all_sizes;
    const size_t nsizes = subset ? sizeof subset_sizes / sizeof *subset_sizes : sizeof all_sizes / sizeof *all_sizes;
    struct { bsym_device dev; const char *name; } devs[] = {{BSYM_DEVICE_CPU, "cpu"}, {BSYM_DEVICE_GPU, "gpu"}};
    for (int d = subset ? 1 : 0; d < 2; d++) {
        if (devs[d].dev == BSYM_DEVICE_GPU && !di.gpu_available)
            continue;
        for (size_t s = 0; s < nsizes && WANT("ldlt"); s++) {
            int n = sizes[s];
            if (devs[d].dev == BSYM_DEVICE_GPU && n > BSYM_GPU_LDLT_MAX_N)
                continue;
            for (int single = 0; single < 2; single++) {
                test_random(devs[d].dev, devs[d].name, single, 'L', n, 1, 37);
                test_random(devs[d].dev, devs[d].name, single, 'U', n, 3, 5);
            }
        }
        if (devs[d].dev == BSYM_DEVICE_GPU && WANT("ldlt") && !subset)
            test_ldlt_gpu_orders(devs[d].name);
        for (int single = 0; single < 2 && WANT("ldlt"); single++) {
            test_bad_systems(devs[d].dev, devs[d].name, single);
            /* the block kernel's 96, 128, 160, 192 (float; double: 256) and 256 threads */
            const int big[] = {65, 100, 130, 170, 256};
            for (size_t b = 0; b < sizeof big / sizeof *big; b++)
                if (!subset || big[b] == 100 || big[b] == 130)
                    test_bad_systems_big(devs[d].dev, devs[d].name, single, big[b]);
        }
        if (!subset)
            test_interrupt(devs[d].dev, devs[d].name);
        if (WANT("tridiag"))
            test_tridiag_family(devs[d].dev, devs[d].name, subset);
        if (WANT("eig") && subset)
            test_eig_shapes(devs[d].dev, devs[d].name);
        else if (WANT("eig"))
            test_eig_family(devs[d].dev, devs[d].name);
        if (WANT("strategy") && (!subset || only != NULL)) /* --only strategy --subset: the sanitizers */
            test_sx_family(devs[d].dev, devs[d].name, subset);
    }
    if (!subset) {
        test_errors();
        test_gpus();
        test_eig_errors();
        test_sx_errors();
        test_rules_names();
        test_rules_checks();
        test_rules_pack();
        test_rules_failures();
    }
    if (WANT("indef") && !subset)
        test_indef_family(&di);
    if (WANT("csolve"))
        test_csolve_family(&di, subset);
    if (WANT("indef") && subset && di.gpu_available) { /* the GPU kernels' shapes, for the sanitizers */
        test_indef_accuracy(BSYM_DEVICE_GPU, 1);
        test_indef_bad(BSYM_DEVICE_GPU, 6);
        test_indef_zero(BSYM_DEVICE_GPU);
        test_indef_bad(BSYM_DEVICE_GPU, 170);
    }
    if (di.gpu_available && WANT("host") && (!subset || only != NULL)) /* not under the sanitizers' --subset */
        test_host_path();
    if (di.gpu_available && !subset) {
        const int cg_sizes[] = {1, 5, 16, 33, 64};
        for (int single = 0; single < 2; single++)
            for (size_t s = 0; s < sizeof cg_sizes / sizeof *cg_sizes; s++)
                test_eig_cpu_gpu(single, cg_sizes[s], cg_sizes[s] <= 16 ? 50 : 10);
    }
    if (WANT("pde") && !subset) /* issue 15 */
        test_pde_family(BSYM_DEVICE_CPU, "cpu");
    if (WANT("pde") && di.gpu_available && (!subset || only != NULL)) /* --only pde --subset: the sanitizers */
        test_pde_family(BSYM_DEVICE_GPU, "gpu");
    if (WANT("ceig") && (!subset || only != NULL)) /* issues 14 and 16: complex Hermitian (--only ceig --subset: the sanitizers) */
        test_ceig_family(!subset, di.gpu_available, subset);
    if (verbose)
        print_figures();
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

/* ==== family pde: batched θ-scheme PDE solves (issue 15) =====================
 * Through the public API only: Black-Scholes in S against the closed form,
 * convergence in space, non-uniform grids, Dirichlet boundaries, time- and
 * system-dependent coefficients, an American put against a CRR tree, float
 * and float-on-double against double, a general problem against a dense
 * long-double reference of the same scheme, non-finite inputs, pivot
 * breakdowns, and every argument error. */

/* The device the family's solves run on (test_pde_family's argument), and
 * its name for the checks. */
static bsym_device pde_device = BSYM_DEVICE_CPU;
static const char *pde_dname = "cpu";
static void pde_ctx_create(bsym_ctx **ctx)
{
    bsym_ctx_create(ctx);
    bsym_ctx_set_device(*ctx, pde_device);
}

static double pde_ncdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* Black-Scholes price at S of a call (call = 1) or put with strike K,
 * maturity T, rate r (constant, or the average of a time-dependent one). */
static double pde_bs(int call, double S, double K, double T, double r, double sig)
{
    if (S <= 0)
        return call ? 0 : K * exp(-r * T);
    const double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / (sig * sqrt(T)), d2 = d1 - sig * sqrt(T);
    return call ? S * pde_ncdf(d1) - K * exp(-r * T) * pde_ncdf(d2)
                : K * exp(-r * T) * pde_ncdf(-d2) - S * pde_ncdf(-d1);
}

/* American put by a CRR tree of `steps` steps, at S. */
static double pde_crr_put(double S, double K, double T, double r, double sig, int steps)
{
    const double dt = T / steps, up = exp(sig * sqrt(dt)), dn = 1 / up;
    const double q = (exp(r * dt) - dn) / (up - dn), disc = exp(-r * dt);
    double *v = malloc(sizeof(double) * (steps + 1));
    for (int j = 0; j <= steps; j++) {
        const double s = S * pow(up, j) * pow(dn, steps - j);
        v[j] = K - s > 0 ? K - s : 0;
    }
    for (int n = steps - 1; n >= 0; n--)
        for (int j = 0; j <= n; j++) {
            const double s = S * pow(up, j) * pow(dn, n - j), cont = disc * (q * v[j + 1] + (1 - q) * v[j]);
            v[j] = K - s > cont ? K - s : cont;
        }
    const double out = v[0];
    free(v);
    return out;
}

/* Index of the node equal to K (or -1). */
static int pde_node(int m, const double *x, double K)
{
    for (int i = 0; i < m; i++)
        if (fabs(x[i] - K) < 1e-9 * K)
            return i;
    return -1;
}

/* Uniform grid [0, xmax] with m nodes; times 0 .. T, N levels. */
static void pde_grid(int m, double xmax, int N, double T, double *x, double *t)
{
    for (int i = 0; i < m; i++)
        x[i] = xmax * i / (m - 1);
    for (int n = 0; n < N; n++)
        t[n] = T * n / (N - 1);
}

/* Grid concentrated near K: S = K + al sinh(xi), xi uniform, K the node
 * at 2/5 of the way. */
static void pde_sinh_grid(int m, double K, double al, double *x)
{
    const int j0 = 2 * (m - 1) / 5;
    const double xmin = asinh(-K / al), h = -xmin / j0;
    for (int i = 0; i < m; i++)
        x[i] = i == j0 ? K : K + al * sinh(xmin + i * h);
    x[0] = 0;
}

/* Black-Scholes with constant r, sigma (shared scalars through the
 * strides): a = sig^2 S^2 / 2 as a length-m vector, b = r S, c = -r. The
 * final values are the payoff for `batch` identical systems. */
typedef struct {
    double sig, r, K, T;
    int call, theta2, rannacher, american, dirichlet;
} pde_bs_case;

static bsym_status pde_bs_run(const pde_bs_case *cs, int prec, int m, int N, const double *x, const double *t,
                              double *u, int *info)
{
    double *a = malloc(sizeof(double) * m), *b = malloc(sizeof(double) * m), *fin = malloc(sizeof(double) * m);
    double *lv = malloc(sizeof(double) * N);
    const double c = -cs->r;
    for (int i = 0; i < m; i++) {
        a[i] = 0.5 * cs->sig * cs->sig * x[i] * x[i];
        b[i] = cs->r * x[i];
        fin[i] = cs->call ? (x[i] > cs->K ? x[i] - cs->K : 0) : (cs->K > x[i] ? cs->K - x[i] : 0);
    }
    for (int n = 0; n < N; n++)
        lv[n] = cs->K * exp(-cs->r * (cs->T - t[n]));
    bsym_pde p = {.m = m, .N = N, .batch = 1, .x = x, .t = t,
                  .a = {a, 1, 0, 0}, .b = {b, 1, 0, 0}, .c = {&c, 0, 0, 0}, .d = {NULL, 0, 0, 0},
                  .theta = cs->theta2 ? 0.5 : 1.0, .rannacher = cs->rannacher,
                  .lower = cs->dirichlet ? BSYM_PDE_DIRICHLET : BSYM_PDE_LINEAR,
                  .upper = cs->dirichlet ? BSYM_PDE_DIRICHLET : BSYM_PDE_LINEAR,
                  .lower_value = {cs->dirichlet ? lv : NULL, 0, 1, 0}, .upper_value = {NULL, 0, 0, 0},
                  .obstacle = cs->american ? fin : NULL};
    bsym_ctx *ctx;
    pde_ctx_create(&ctx);
    bsym_status st;
    if (prec == 0) {
        st = bsym_dpde_solve(ctx, &p, fin, u, info);
    } else if (prec == 2) {
        st = bsym_dspde_solve(ctx, &p, fin, u, info);
    } else { /* float copies of everything */
        float *fx = to_float(m, x), *ft = to_float(N, t), *fa = to_float(m, a), *fb = to_float(m, b);
        float *ff = to_float(m, fin), *flv = to_float(N, lv), fu[4096], fc = (float)c;
        bsym_pde q = p;
        q.x = fx;
        q.t = ft;
        q.a.v = fa;
        q.b.v = fb;
        q.c.v = &fc;
        q.lower_value.v = cs->dirichlet ? flv : NULL;
        q.obstacle = cs->american ? ff : NULL;
        st = bsym_spde_solve(ctx, &q, ff, fu, info);
        from_float(m, fu, u);
        free(fx), free(ft), free(fa), free(fb), free(ff), free(flv);
    }
    bsym_ctx_destroy(ctx);
    free(a), free(b), free(fin), free(lv);
    return st;
}

/* Error at the strike (a node) against the closed form, and the largest
 * error over the nodes in [K/2, 3K/2]. */
static double pde_bs_error(const pde_bs_case *cs, int m, const double *x, const double *u, double *maxerr)
{
    double worst = 0;
    for (int i = 0; i < m; i++)
        if (x[i] >= 0.5 * cs->K && x[i] <= 1.5 * cs->K) {
            const double e = fabs(u[i] - pde_bs(cs->call, x[i], cs->K, cs->T, cs->r, cs->sig));
            worst = e > worst ? e : worst;
        }
    if (maxerr)
        *maxerr = worst;
    const int k = pde_node(m, x, cs->K);
    return k < 0 ? INFINITY : fabs(u[k] - pde_bs(cs->call, cs->K, cs->K, cs->T, cs->r, cs->sig));
}

static void test_pde_bs(void)
{
    const int ms[3] = {101, 201, 401};
    const int N = 801;
    double *x = malloc(sizeof(double) * 401), *t = malloc(sizeof(double) * N), *u = malloc(sizeof(double) * 401);
    for (int kind = 0; kind < 4; kind++) { /* put, call, put on a sinh grid, put with Dirichlet ends */
        pde_bs_case cs = {0.2, 0.05, 100, 1, kind == 1, 1, 2, 0, kind == 3};
        double err[3], maxe[3];
        for (int g = 0; g < 3; g++) {
            const int m = ms[g];
            pde_grid(m, 4 * cs.K, N, cs.T, x, t);
            if (kind == 2)
                pde_sinh_grid(m, cs.K, 20, x);
            int info = 99;
            bsym_status st = pde_bs_run(&cs, 0, m, N, x, t, u, &info);
            check(st == BSYM_OK && info == 0, "pde: Black-Scholes solve", pde_dname, st, info);
            err[g] = pde_bs_error(&cs, m, x, u, &maxe[g]);
            if (verbose)
                printf("  pde BS %-22s m = %3d: error at K %.3e, max over [K/2, 3K/2] %.3e\n",
                       kind == 0 ? "put" : kind == 1 ? "call" : kind == 2 ? "put, sinh grid" : "put, Dirichlet",
                       m, err[g], maxe[g]);
        }
        /* what the grid allows: second order, about 1e-2 at dx = 4 */
        check(maxe[0] < 6e-2 && maxe[2] < 4e-3, "pde: Black-Scholes error against the closed form", pde_dname,
              (long long)(maxe[0] * 1e6), (long long)(maxe[2] * 1e6));
        for (int g = 0; g < 2; g++) {
            const double ratio = err[g] / err[g + 1];
            if (verbose)
                printf("  pde BS kind %d: error ratio m = %d -> %d: %.3f (max-error ratio %.3f)\n", kind, ms[g],
                       ms[g + 1], ratio, maxe[g] / maxe[g + 1]);
            check(kind == 2 ? ratio > 3.0 && ratio < 5.5 : fabs(ratio - 4) < 0.5,
                  "pde: second-order convergence in space", pde_dname, (long long)(ratio * 1000), kind);
        }
    }
    free(x), free(t), free(u);
}

/* A time-dependent rate r(t) = 0.02 + 0.06 t as an m x N matrix b = r(t_n) S
 * and c = -r(t_n) per level (si = 0, sn = 1), against the closed form with
 * the integrated rate. */
static void test_pde_time_dependent(void)
{
    const int m = 401, N = 801;
    const double K = 100, T = 1, sig = 0.25;
    double *x = malloc(sizeof(double) * m), *t = malloc(sizeof(double) * N), *u = malloc(sizeof(double) * m);
    double *a = malloc(sizeof(double) * m), *b = malloc(sizeof(double) * m * N), *c = malloc(sizeof(double) * N);
    double *fin = malloc(sizeof(double) * m);
    pde_grid(m, 4 * K, N, T, x, t);
    for (int n = 0; n < N; n++) {
        const double r = 0.02 + 0.06 * t[n];
        c[n] = -r;
        for (int i = 0; i < m; i++)
            b[i + n * m] = r * x[i];
    }
    for (int i = 0; i < m; i++) {
        a[i] = 0.5 * sig * sig * x[i] * x[i];
        fin[i] = x[i] > K ? x[i] - K : 0;
    }
    bsym_pde p = {.m = m, .N = N, .batch = 1, .x = x, .t = t, .a = {a, 1, 0, 0}, .b = {b, 1, m, 0},
                  .c = {c, 0, 1, 0}, .theta = 0.5, .rannacher = 2};
    bsym_ctx *ctx;
    pde_ctx_create(&ctx);
    int info = 99;
    bsym_status st = bsym_dpde_solve(ctx, &p, fin, u, &info);
    const double rbar = 0.02 + 0.03 * T; /* (1/T) int_0^T r */
    double worst = 0, wrong = 0;
    for (int i = 0; i < m; i++)
        if (x[i] >= 50 && x[i] <= 150) {
            const double e = fabs(u[i] - pde_bs(1, x[i], K, T, rbar, sig));
            worst = e > worst ? e : worst;
            /* the constant rate at t_1 would be clearly wrong */
            const double w = fabs(u[i] - pde_bs(1, x[i], K, T, 0.02, sig));
            wrong = w > wrong ? w : wrong;
        }
    if (verbose)
        printf("  pde time-dependent r(t): max error %.3e (against r(0): %.3e)\n", worst, wrong);
    check(st == BSYM_OK && info == 0 && worst < 3e-3 && wrong > 0.5, "pde: time-dependent rate", pde_dname,
          (long long)(worst * 1e6), info);
    bsym_ctx_destroy(ctx);
    free(x), free(t), free(u), free(a), free(b), free(c), free(fin);
}

/* Per-system sigma (a m x 1 x batch): each system equals its solve alone. */
static void test_pde_per_system(int prec)
{
    const int m = 121, N = 60, batch = 21; /* not a multiple of the lanes */
    const double K = 100, T = 0.5, r = 0.03;
    double *x = malloc(sizeof(double) * m), *t = malloc(sizeof(double) * N);
    double *a = malloc(sizeof(double) * m * batch), *b = malloc(sizeof(double) * m);
    double *fin = malloc(sizeof(double) * m * batch), *u = malloc(sizeof(double) * m * batch);
    double *one = malloc(sizeof(double) * m);
    int *info = malloc(sizeof(int) * batch);
    pde_grid(m, 3 * K, N, T, x, t);
    for (int k = 0; k < batch; k++)
        for (int i = 0; i < m; i++) {
            const double sig = 0.1 + 0.02 * k;
            a[i + k * m] = 0.5 * sig * sig * x[i] * x[i];
            fin[i + k * m] = K > x[i] ? K - x[i] : 0;
        }
    for (int i = 0; i < m; i++)
        b[i] = r * x[i];
    const double c = -r;
    float *fx = to_float(m, x), *ft = to_float(N, t), *fa = to_float(m * batch, a), *fb = to_float(m, b);
    float *ffin = to_float(m * batch, fin), fc = (float)c;
    float *fu = malloc(sizeof(float) * m * batch);
    bsym_pde p = {.m = m, .N = N, .batch = batch, .x = x, .t = t, .a = {a, 1, 0, m}, .b = {b, 1, 0, 0},
                  .c = {&c, 0, 0, 0}, .theta = 0.5, .rannacher = 1, .obstacle = fin};
    bsym_pde q = p;
    if (prec == 1) {
        q.x = fx, q.t = ft, q.a.v = fa, q.b.v = fb, q.c.v = &fc, q.obstacle = ffin;
    }
    bsym_ctx *ctx;
    pde_ctx_create(&ctx);
    bsym_ctx_set_threads(ctx, 2);
    bsym_status st = prec == 0   ? bsym_dpde_solve(ctx, &q, fin, u, info)
                     : prec == 1 ? bsym_spde_solve(ctx, &q, ffin, fu, info)
                                 : bsym_dspde_solve(ctx, &q, fin, u, info);
    if (prec == 1)
        from_float(m * batch, fu, u);
    double worst = 0;
    int bad = 0;
    for (int k = 0; k < batch; k++) {
        bsym_pde s = q;
        s.batch = 1;
        int inf1 = 99;
        bsym_status s1;
        if (prec == 1) {
            s.a.v = fa + k * m;
            s.obstacle = ffin + k * m;
            float fone[121];
            s1 = bsym_spde_solve(ctx, &s, ffin + k * m, fone, &inf1);
            from_float(m, fone, one);
        } else {
            s.a.v = a + k * m;
            s.obstacle = fin + k * m;
            s1 = prec == 0 ? bsym_dpde_solve(ctx, &s, fin + k * m, one, &inf1)
                           : bsym_dspde_solve(ctx, &s, fin + k * m, one, &inf1);
        }
        bad += s1 != BSYM_OK || inf1 != 0 || info[k] != 0;
        for (int i = 0; i < m; i++) {
            const double e = fabs(one[i] - u[i + k * m]);
            worst = e > worst ? e : worst;
        }
    }
    check(st == BSYM_OK && bad == 0 && worst <= 1e-12 * K, "pde: per-system coefficients equal solving each alone",
          prec == 0 ? "cpu double" : prec == 1 ? "cpu float" : "cpu ds", bad, (long long)(worst * 1e15));
    /* and the systems differ (the check above could not pass by ignoring sk) */
    const double spread = fabs(u[m / 3] - u[m / 3 + (batch - 1) * m]);
    check(spread > 1, "pde: per-system sigma changes the price", pde_dname, (long long)(spread * 1000), 0);
    bsym_ctx_destroy(ctx);
    free(x), free(t), free(a), free(b), free(fin), free(u), free(one), free(info);
    free(fx), free(ft), free(fa), free(fb), free(ffin), free(fu);
}

/* American put: above the European price, at least the payoff, and close to
 * a CRR tree of 2000 steps at the strike. */
static void test_pde_american(void)
{
    const int m = 401, N = 801;
    double *x = malloc(sizeof(double) * m), *t = malloc(sizeof(double) * N);
    double *ua = malloc(sizeof(double) * m), *ue = malloc(sizeof(double) * m);
    pde_bs_case cs = {0.3, 0.06, 100, 1, 0, 1, 2, 1, 0};
    pde_grid(m, 4 * cs.K, N, cs.T, x, t);
    int ia = 99, ie = 99;
    bsym_status st = pde_bs_run(&cs, 0, m, N, x, t, ua, &ia);
    cs.american = 0;
    bsym_status st2 = pde_bs_run(&cs, 0, m, N, x, t, ue, &ie);
    int below = 0;
    for (int i = 0; i < m; i++)
        below += ua[i] < ue[i] - 1e-12 || ua[i] < (cs.K > x[i] ? cs.K - x[i] : 0) - 1e-12;
    const int k = pde_node(m, x, cs.K);
    const double tree = pde_crr_put(cs.K, cs.K, cs.T, cs.r, cs.sig, 2000), err = fabs(ua[k] - tree);
    if (verbose)
        printf("  pde American put at K: %.6f, CRR(2000) %.6f, European %.6f; |pde - tree| = %.2e\n", ua[k], tree,
               ue[k], err);
    check(st == BSYM_OK && st2 == BSYM_OK && ia == 0 && ie == 0 && below == 0, "pde: American above European and payoff",
          pde_dname, below, ia);
    check(ua[k] - ue[k] > 0.1 && err < 5e-3, "pde: American put against a CRR tree", pde_dname,
          (long long)(err * 1e6), (long long)((ua[k] - ue[k]) * 1e3));
    free(x), free(t), free(ua), free(ue);
}

/* float and float-on-double against double. */
static void test_pde_precisions(void)
{
    const int m = 201, N = 201;
    double *x = malloc(sizeof(double) * m), *t = malloc(sizeof(double) * N);
    double *ud = malloc(sizeof(double) * m), *us = malloc(sizeof(double) * m);
    for (int am = 0; am < 2; am++) {
        pde_bs_case cs = {0.2, 0.05, 100, 1, 0, 1, 2, am, am};
        pde_grid(m, 4 * cs.K, N, cs.T, x, t);
        int id = 99;
        pde_bs_run(&cs, 0, m, N, x, t, ud, &id);
        for (int prec = 1; prec <= 2; prec++) {
            int is = 99;
            bsym_status st = pde_bs_run(&cs, prec, m, N, x, t, us, &is);
            double worst = 0;
            for (int i = 0; i < m; i++) {
                const double e = fabs(us[i] - ud[i]);
                worst = e > worst ? e : worst;
            }
            if (verbose)
                printf("  pde %s against double (%s): max |diff| %.3e (of K = 100)\n", prec == 1 ? "float" : "ds",
                       am ? "American, Dirichlet" : "European", worst);
            check(st == BSYM_OK && is == 0 && id == 0 && worst < 2e-3 && worst > 0,
                  prec == 1 ? "pde: float against double" : "pde: ds against double", pde_dname,
                  (long long)(worst * 1e6), is);
        }
    }
    free(x), free(t), free(ud), free(us);
}

/* Dense long-double reference of the scheme for one system with
 * coefficients given as full m x N arrays (boundary values length N). */
static void pde_reference(int m, int N, const double *x, const double *t, const double *a, const double *b,
                          const double *c, const double *d, double theta, int ran, int ldir, int udir,
                          const double *lv, const double *uv, const double *obs, const double *fin, double *out)
{
    double *L = calloc((size_t)m * m * 3, sizeof(double)), *M = malloc(sizeof(double) * m * m);
    double *rhs = malloc(sizeof(double) * m), *u = malloc(sizeof(double) * m);
    long double *xs = malloc(sizeof(long double) * m);
    for (int i = 0; i < m; i++)
        u[i] = fin[i];
    /* the operator at a "level" given by its coefficient arrays (m entries) */
#define PDE_OP(Lm, A, B, C)                                                                                     \
    do {                                                                                                        \
        memset(Lm, 0, sizeof(double) * m * m);                                                                  \
        for (int i = 1; i + 1 < m; i++) {                                                                       \
            const double hm = x[i] - x[i - 1], hp = x[i + 1] - x[i], hs = hm + hp;                              \
            Lm[i + (i - 1) * m] = A[i] * 2 / (hm * hs) + B[i] * (-hp / (hm * hs));                              \
            Lm[i + i * m] = A[i] * (-2 / (hm * hp)) + B[i] * (1 / hm - 1 / hp) + C[i];                          \
            Lm[i + (i + 1) * m] = A[i] * 2 / (hp * hs) + B[i] * (hm / (hp * hs));                               \
        }                                                                                                       \
        if (!ldir) {                                                                                            \
            const double h = x[1] - x[0];                                                                       \
            Lm[0] = -B[0] / h + C[0];                                                                           \
            Lm[m] = B[0] / h;                                                                                   \
        }                                                                                                       \
        if (!udir) {                                                                                            \
            const double h = x[m - 1] - x[m - 2];                                                               \
            Lm[(m - 1) + (m - 1) * m] = B[m - 1] / h + C[m - 1];                                                \
            Lm[(m - 1) + (m - 2) * m] = -B[m - 1] / h;                                                          \
        }                                                                                                       \
    } while (0)
    double *Ln = L, *Ln1 = L + m * m, *Lmid = L + 2 * m * m;
    double am[4096], bm[4096], cm[4096], dm[4096];
    for (int n = N - 2; n >= 0; n--) {
        const double dt = t[n + 1] - t[n];
        const double *an = a + n * m, *bn = b + n * m, *cn = c + n * m, *dn = d + n * m;
        const double *an1 = an + m, *bn1 = bn + m, *cn1 = cn + m, *dn1 = dn + m;
        PDE_OP(Ln, an, bn, cn);
        PDE_OP(Ln1, an1, bn1, cn1);
        const int halves = N - 2 - n < ran;
        for (int h = 0; h < (halves ? 2 : 1); h++) {
            const double th = halves ? 1 : theta, k = halves ? dt / 2 : dt;
            const double *Li = Ln, *Le = Ln1, *di = dn, *de = dn1;
            double lo = lv[n], hi = uv[n];
            if (halves && h == 0) {
                for (int i = 0; i < m; i++) {
                    am[i] = 0.5 * (an[i] + an1[i]);
                    bm[i] = 0.5 * (bn[i] + bn1[i]);
                    cm[i] = 0.5 * (cn[i] + cn1[i]);
                    dm[i] = 0.5 * (dn[i] + dn1[i]);
                }
                PDE_OP(Lmid, am, bm, cm);
                Li = Lmid;
                di = dm;
                lo = 0.5 * (lv[n] + lv[n + 1]);
                hi = 0.5 * (uv[n] + uv[n + 1]);
            }
            for (int i = 0; i < m; i++) {
                double s = u[i] + k * (th * di[i] + (1 - th) * de[i]);
                for (int j = 0; j < m; j++) {
                    s += (1 - th) * k * Le[i + j * m] * u[j];
                    M[i + j * m] = (i == j) - th * k * Li[i + j * m];
                }
                rhs[i] = s;
            }
            if (ldir) {
                for (int j = 0; j < m; j++)
                    M[j * m] = j == 0;
                rhs[0] = lo;
            }
            if (udir) {
                for (int j = 0; j < m; j++)
                    M[(m - 1) + j * m] = j == m - 1;
                rhs[m - 1] = hi;
            }
            reference_solve(m, M, rhs, xs);
            for (int i = 0; i < m; i++) {
                u[i] = (double)xs[i];
                if (obs && obs[i] > u[i])
                    u[i] = obs[i];
            }
        }
    }
#undef PDE_OP
    memcpy(out, u, sizeof(double) * m);
    free(L), free(M), free(rhs), free(u), free(xs);
}

/* A general problem: random non-uniform grid and times, every coefficient
 * m x N x batch, Dirichlet and linear ends, obstacle, theta and Rannacher
 * varied; against the dense reference. Also a system whose first pivot is
 * exactly zero (solved with pivoting: info 0) and one that is singular
 * (info = the level, NaN). */
static void test_pde_reference(void)
{
    const int m = 9, N = 7, batch = 19;
    const size_t g = (size_t)m * N;
    double x[9], t[7];
    double *a = malloc(sizeof(double) * g * batch), *b = malloc(sizeof(double) * g * batch);
    double *c = malloc(sizeof(double) * g * batch), *d = malloc(sizeof(double) * g * batch);
    double *lv = malloc(sizeof(double) * N * batch), *uv = malloc(sizeof(double) * N * batch);
    double *fin = malloc(sizeof(double) * m * batch), *obs = malloc(sizeof(double) * m * batch);
    double *u = malloc(sizeof(double) * m * batch), ref[9];
    int info[19];
    x[0] = -1;
    for (int i = 1; i < m; i++)
        x[i] = x[i - 1] + 0.2 + 0.15 * (urand() + 1);
    t[0] = 0.1;
    for (int n = 1; n < N - 1; n++)
        t[n] = t[n - 1] + 0.05 + 0.05 * (urand() + 1);
    /* t[N - 2] on a grid of 2^-10, so that dt0 = t[N - 1] - t[N - 2] is 0.25
     * exactly, theta dt0 (theta 0.5, or 1 and dt0 / 2 under Rannacher) a
     * power of two, and the singular system below exactly singular whatever
     * the random stream (it depends on the tests run before this one) */
    t[N - 2] = ldexp(ceil(ldexp(t[N - 2], 10)), -10);
    t[N - 1] = t[N - 2] + 0.25;
    for (int cfg = 0; cfg < 8; cfg++) {
        const int ldir = cfg & 1, udir = (cfg >> 1) & 1, useobs = (cfg >> 2) & 1;
        const double theta = cfg < 4 ? 0.5 : 0.3 + 0.1 * cfg;
        const int ran = cfg % 3;
        for (size_t e = 0; e < g * batch; e++) {
            a[e] = 0.3 + 0.2 * urand();
            b[e] = urand();
            c[e] = 0.5 * urand();
            d[e] = urand();
        }
        for (int e = 0; e < N * batch; e++) {
            lv[e] = urand();
            uv[e] = urand();
        }
        for (int e = 0; e < m * batch; e++) {
            fin[e] = urand();
            obs[e] = urand() - 0.5;
        }
        /* system 3: the first pivot is zero in the first step (theta 1:
         * 1 - dt c_0 + dt b_0 / h0 = 0), solved with pivoting */
        const int zp = 3, sg = 5;
        const double dt0 = t[N - 1] - t[N - 2], h0 = x[1] - x[0];
        if (!ldir && ran == 0)
            c[(size_t)zp * g + (N - 2) * m] = 1 / (theta * dt0) + b[(size_t)zp * g + (N - 2) * m] / h0;
        /* system 5: singular at level N - 2 (theta dt c = 1 exactly, a = b = 0;
         * theta 1 and dt0 / 2 under Rannacher) */
        const int exact = ran > 0 || theta == 0.5;
        for (int i = 0; i < m; i++) {
            a[(size_t)sg * g + (N - 2) * m + i] = b[(size_t)sg * g + (N - 2) * m + i] = 0;
            c[(size_t)sg * g + (N - 2) * m + i] = 1 / ((ran ? 1 : theta) * (ran ? dt0 / 2 : dt0));
        }
        bsym_pde p = {.m = m, .N = N, .batch = batch, .x = x, .t = t, .a = {a, 1, m, g}, .b = {b, 1, m, g},
                      .c = {c, 1, m, g}, .d = {d, 1, m, g}, .theta = theta, .rannacher = ran,
                      .lower = ldir ? BSYM_PDE_DIRICHLET : BSYM_PDE_LINEAR,
                      .upper = udir ? BSYM_PDE_DIRICHLET : BSYM_PDE_LINEAR, .lower_value = {lv, 5, 1, N},
                      .upper_value = {uv, 0, 1, N}, .obstacle = useobs ? obs : NULL};
        bsym_ctx *ctx;
        pde_ctx_create(&ctx);
        bsym_status st = bsym_dpde_solve(ctx, &p, fin, u, info);
        double worst = 0;
        int bad = 0;
        for (int k = 0; k < batch; k++) {
            if (k == sg)
                continue; /* singular (or nearly): checked below */
            pde_reference(m, N, x, t, a + k * g, b + k * g, c + k * g, d + k * g, theta, ran, ldir, udir, lv + k * N,
                          uv + k * N, useobs ? obs + k * m : NULL, fin + k * m, ref);
            bad += info[k] != 0;
            for (int i = 0; i < m; i++) {
                const double e = fabs(u[i + k * m] - ref[i]) / (1 + fabs(ref[i]));
                worst = e > worst ? e : worst;
            }
        }
        if (verbose)
            printf("  pde against the dense reference, config %d: max rel. diff %.3e\n", cfg, worst);
        check(st == BSYM_OK && bad == 0 && worst < 1e-11, "pde: against the dense reference of the scheme", pde_dname,
              cfg, (long long)(worst * 1e15));
        if (exact) {
            int nan = 0;
            for (int i = 0; i < m; i++)
                nan += isnan(u[i + sg * m]);
            check(info[sg] == N - 1 && nan == m, "pde: singular step gives info = the level, NaN", pde_dname, info[sg],
                  nan);
        }
        bsym_ctx_destroy(ctx);
    }
    free(a), free(b), free(c), free(d), free(lv), free(uv), free(fin), free(obs), free(u);
}

/* Non-finite inputs: info -1 and NaN for that system only; a NaN that the
 * call does not read (a at a linear boundary node) changes nothing. */
static void test_pde_nonfinite(void)
{
    const int m = 41, N = 11, batch = 6;
    double x[41], t[11], *a = malloc(sizeof(double) * m * batch), fin[41 * 6], obs[41 * 6], u[41 * 6], v[41 * 6];
    double lv[11 * 6];
    int info[6], info2[6];
    pde_grid(m, 2, N, 1, x, t);
    for (int e = 0; e < m * batch; e++) {
        a[e] = 0.1 + 0.01 * (e / m);
        fin[e] = sin(3 * x[e % m]);
        obs[e] = -5;
    }
    for (int e = 0; e < N * batch; e++)
        lv[e] = 0.5;
    const double b = 0.3, c = -0.1;
    bsym_pde p = {.m = m, .N = N, .batch = batch, .x = x, .t = t, .a = {a, 1, 0, m}, .b = {&b, 0, 0, 0},
                  .c = {&c, 0, 0, 0}, .theta = 0.5, .rannacher = 1, .upper = BSYM_PDE_DIRICHLET,
                  .upper_value = {lv, 0, 1, N}, .obstacle = obs};
    bsym_ctx *ctx;
    pde_ctx_create(&ctx);
    bsym_status st = bsym_dpde_solve(ctx, &p, fin, v, info2);
    a[0 + 0 * m] = NAN;          /* system 0: a at the linear lower node, not read */
    a[7 + 1 * m] = NAN;          /* system 1: interior a */
    fin[3 + 2 * m] = INFINITY;   /* system 2: final */
    obs[5 + 3 * m] = NAN;        /* system 3: obstacle */
    lv[4 + 4 * N] = NAN;         /* system 4: the upper Dirichlet value at level 5 */
    bsym_status st2 = bsym_dpde_solve(ctx, &p, fin, u, info);
    const int want[6] = {0, -1, -1, -1, -1, 0};
    int wrong = 0, same = 0, nan = 0;
    for (int k = 0; k < batch; k++) {
        wrong += info[k] != want[k] || info2[k] != 0;
        for (int i = 0; i < m; i++) {
            if (want[k] == 0)
                same += u[i + k * m] == v[i + k * m];
            else
                nan += isnan(u[i + k * m]);
        }
    }
    check(st == BSYM_OK && st2 == BSYM_OK && wrong == 0, "pde: non-finite inputs give info -1", pde_dname, wrong, info[1]);
    check(same == 2 * m && nan == 4 * m, "pde: non-finite systems NaN, the others solved", pde_dname, same, nan);
    /* float: the same */
    float *fx = to_float(m, x), *ft = to_float(N, t), *fa = to_float(m * batch, a), *ff = to_float(m * batch, fin);
    float *fo = to_float(m * batch, obs), *fl = to_float(N * batch, lv), fu[41 * 6], fb = (float)b, fc = (float)c;
    bsym_pde q = p;
    q.x = fx, q.t = ft, q.a.v = fa, q.b.v = &fb, q.c.v = &fc, q.upper_value.v = fl, q.obstacle = fo;
    st = bsym_spde_solve(ctx, &q, ff, fu, info);
    wrong = 0;
    for (int k = 0; k < batch; k++)
        wrong += info[k] != want[k] || (want[k] != 0) != (isnan(fu[k * m]) != 0);
    check(st == BSYM_OK && wrong == 0, "pde: non-finite inputs in float", pde_dname, wrong, info[1]);
    bsym_ctx_destroy(ctx);
    free(a), free(fx), free(ft), free(fa), free(ff), free(fo), free(fl);
}

/* One bad argument: BSYM_ERR_ARG (or the given status) with `field` in the
 * message. */
static void pde_expect(bsym_ctx *ctx, bsym_status st, bsym_status want, const char *field, const char *what)
{
    const char *msg = bsym_ctx_message(ctx);
    const int ok = st == want && strstr(msg, field) != NULL;
    if (!ok && verbose)
        printf("  pde error case %s: status %d, message \"%s\"\n", what, (int)st, msg);
    check(ok, what, "cpu", st, want);
}

static void test_pde_errors(void)
{
    const int m = 5, N = 3;
    double x[5] = {0, 1, 2, 3, 4}, t[3] = {0, 0.5, 1}, fin[10] = {0}, u[10];
    int info[2];
    const double one = 1;
    const bsym_pde good = {.m = m, .N = N, .batch = 2, .x = x, .t = t, .a = {&one, 0, 0, 0}, .theta = 0.5};
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_status st = bsym_dpde_solve(ctx, &good, fin, u, info);
    check(st == BSYM_OK && info[0] == 0 && u[2] == 0, "pde: the valid base case", "cpu", st, info[0]);
    bsym_pde p;
#define PDE_BAD(change, field, what)                                                       \
    do {                                                                                   \
        p = good;                                                                          \
        change;                                                                            \
        pde_expect(ctx, bsym_dpde_solve(ctx, &p, fin, u, info), BSYM_ERR_ARG, field, what); \
    } while (0)
    PDE_BAD(p.m = 2, "m", "pde: m < 3");
    PDE_BAD(p.N = 1, "N", "pde: N < 2");
    PDE_BAD(p.batch = -1, "batch", "pde: batch < 0");
    PDE_BAD(p.theta = -0.1, "theta", "pde: theta < 0");
    PDE_BAD(p.theta = 1.5, "theta", "pde: theta > 1");
    PDE_BAD(p.theta = NAN, "theta", "pde: theta NaN");
    PDE_BAD(p.rannacher = -1, "rannacher", "pde: rannacher < 0");
    PDE_BAD(p.rannacher = N, "rannacher", "pde: rannacher > N - 1");
    PDE_BAD(p.lower = (bsym_pde_boundary)2, "lower", "pde: bad lower boundary code");
    PDE_BAD(p.upper = (bsym_pde_boundary)-1, "upper", "pde: bad upper boundary code");
    PDE_BAD(p.x = NULL, "x", "pde: NULL x");
    PDE_BAD(p.t = NULL, "t", "pde: NULL t");
    double xb[5] = {0, 1, 1, 3, 4}, xn[5] = {0, 1, NAN, 3, 4}, tb[3] = {0, 1, 0.5}, tn[3] = {0, INFINITY, 2};
    PDE_BAD(p.x = xb, "x[3]", "pde: x not increasing (where)");
    PDE_BAD(p.x = xn, "x[3]", "pde: x not finite (where)");
    PDE_BAD(p.t = tb, "t[3]", "pde: t not increasing (where)");
    PDE_BAD(p.t = tn, "t[2]", "pde: t not finite (where)");
    PDE_BAD(p.a.si = -1, "a", "pde: negative stride of a");
    PDE_BAD((p.b = (bsym_pde_coef){&one, 0, -2, 0}), "b", "pde: negative stride of b");
    PDE_BAD((p.c = (bsym_pde_coef){&one, 0, 0, -1}), "c", "pde: negative stride of c");
    PDE_BAD((p.d = (bsym_pde_coef){&one, -1, 0, 0}), "d", "pde: negative stride of d");
    PDE_BAD((p.lower = BSYM_PDE_DIRICHLET, p.lower_value = (bsym_pde_coef){&one, 0, -1, 0}), "lower_value",
            "pde: negative stride of lower_value");
    PDE_BAD((p.upper_value = (bsym_pde_coef){&one, 0, 0, -1}), "upper_value", "pde: negative stride of upper_value");
#undef PDE_BAD
    p = good;
    pde_expect(ctx, bsym_dpde_solve(ctx, &p, NULL, u, info), BSYM_ERR_ARG, "final", "pde: NULL final");
    pde_expect(ctx, bsym_dpde_solve(ctx, &p, fin, NULL, info), BSYM_ERR_ARG, "u", "pde: NULL u");
    pde_expect(ctx, bsym_dpde_solve(ctx, &p, fin, u, NULL), BSYM_ERR_ARG, "info", "pde: NULL info");
    pde_expect(ctx, bsym_dpde_solve(ctx, NULL, fin, u, info), BSYM_ERR_ARG, "p", "pde: NULL problem");
    check(bsym_dpde_solve(NULL, &p, fin, u, info) == BSYM_ERR_ARG, "pde: NULL context", "cpu", 0, 0);
    /* batch 0: no arrays needed */
    p.batch = 0;
    check(bsym_dpde_solve(ctx, &p, NULL, NULL, NULL) == BSYM_OK, "pde: batch 0 with NULL arrays", "cpu", 0, 0);
    /* float and ds entry points validate the same */
    float fx[5] = {0, 1, 2, 2, 4}, ft[3] = {0, 0.5f, 1}, ff[10] = {0}, fu[10], fone = 1;
    bsym_pde q = good;
    q.x = fx, q.t = ft, q.a.v = &fone;
    pde_expect(ctx, bsym_spde_solve(ctx, &q, ff, fu, info), BSYM_ERR_ARG, "x[4]", "pde: float x not increasing");
    p = good;
    p.theta = 2;
    pde_expect(ctx, bsym_dspde_solve(ctx, &p, fin, u, info), BSYM_ERR_ARG, "theta", "pde: ds theta");
    bsym_ctx_destroy(ctx);
}

/* Progress and interrupts pass through the dispatcher as for the others. */
static int pde_progress_calls;
static void pde_progress(void *data, int64_t done, int64_t total)
{
    (void)data;
    if (done == total)
        pde_progress_calls++;
}

/* CPU and GPU agree on grids that take every variant of the GPU kernel
 * (nodes a thread, block sizes), per-system coefficients, an obstacle,
 * Rannacher steps and both boundary kinds; float and double. Bound: N m eps
 * of max |u| (the two solve each level's system differently: Thomas'
 * algorithm and the partition method with PCR). */
static void test_pde_cpu_gpu(void)
{
    const int ms[] = {3, 7, 33, 100, 257, 512, 1500, 3000, 5000};
    for (size_t q = 0; q < sizeof ms / sizeof *ms; q++)
        for (int prec = 0; prec < 2; prec++) {
            const int m = ms[q], N = m > 1000 ? 12 : 40, batch = m > 1000 ? 7 : 37;
            double *x = malloc(sizeof(double) * m), t[40];
            double *a = malloc(sizeof(double) * m * batch), *fin = malloc(sizeof(double) * m * batch);
            double *obs = malloc(sizeof(double) * m * batch), *u1 = malloc(sizeof(double) * m * batch);
            double *u2 = malloc(sizeof(double) * m * batch), lv[40];
            int *i1 = malloc(sizeof(int) * batch), *i2 = malloc(sizeof(int) * batch);
            if (m < 10) /* uniform */
                for (int i = 0; i < m; i++)
                    x[i] = 400.0 * i / (m - 1);
            else
                pde_sinh_grid(m, 100, 20, x);
            for (int n = 0; n < N; n++) {
                t[n] = 0.5 * n / (N - 1) + 0.01 * n * n / (N * N);
                lv[n] = 100 * exp(-0.03 * (0.5 - t[n]));
            }
            for (int k = 0; k < batch; k++)
                for (int i = 0; i < m; i++) {
                    const double sig = 0.1 + 0.4 * k / batch;
                    a[i + (size_t)k * m] = 0.5 * sig * sig * x[i] * x[i];
                    fin[i + (size_t)k * m] = fmax(80 + k - x[i], 0);
                    obs[i + (size_t)k * m] = fin[i + (size_t)k * m];
                }
            const double r = 0.03, cr = -0.03;
            double *bv = malloc(sizeof(double) * m);
            for (int i = 0; i < m; i++)
                bv[i] = r * x[i];
            for (int cfg = 0; cfg < 2; cfg++) {
                bsym_pde p = {.m = m, .N = N, .batch = batch, .x = x, .t = t, .a = {a, 1, 0, m}, .b = {bv, 1, 0, 0},
                              .c = {&cr, 0, 0, 0}, .theta = cfg ? 0.6 : 0.5, .rannacher = cfg ? 0 : 2,
                              .lower = cfg ? BSYM_PDE_DIRICHLET : BSYM_PDE_LINEAR, .upper = BSYM_PDE_LINEAR,
                              .lower_value = {cfg ? lv : NULL, 0, 1, 0}, .obstacle = cfg ? NULL : obs};
                bsym_ctx *cc, *cg;
                bsym_ctx_create(&cc);
                bsym_ctx_set_device(cc, BSYM_DEVICE_CPU);
                bsym_ctx_create(&cg);
                bsym_ctx_set_device(cg, BSYM_DEVICE_GPU);
                bsym_status s1, s2;
                if (prec == 0) {
                    s1 = bsym_dpde_solve(cc, &p, fin, u1, i1);
                    s2 = bsym_dpde_solve(cg, &p, fin, u2, i2);
                } else {
                    s1 = bsym_dspde_solve(cc, &p, fin, u1, i1);
                    s2 = bsym_dspde_solve(cg, &p, fin, u2, i2);
                }
                double diff = 0, big = 0;
                int bad = 0;
                for (int k = 0; k < batch; k++) {
                    bad += i1[k] != 0 || i2[k] != 0;
                    for (int i = 0; i < m; i++) {
                        const double e = fabs(u1[i + (size_t)k * m] - u2[i + (size_t)k * m]);
                        diff = e > diff || e != e ? e : diff;
                        big = fabs(u1[i + (size_t)k * m]) > big ? fabs(u1[i + (size_t)k * m]) : big;
                    }
                }
                const double eps = prec ? FLT_EPSILON : DBL_EPSILON;
                if (verbose)
                    printf("  pde cpu/gpu m %d %s cfg %d: max diff %.3e of max %.3g (bound %.3e)\n", m,
                           prec ? "ds" : "double", cfg, diff, big, N * m * eps * big);
                check(s1 == BSYM_OK && s2 == BSYM_OK && bad == 0 && diff <= N * m * eps * big &&
                          bsym_ctx_last_device(cg) == BSYM_DEVICE_GPU,
                      "pde: the GPU agrees with the CPU", "gpu", m, (long long)(diff / (eps * big)));
                bsym_ctx_destroy(cc);
                bsym_ctx_destroy(cg);
            }
            free(x), free(a), free(fin), free(obs), free(u1), free(u2), free(i1), free(i2), free(bv);
        }
}

static void test_pde_family(bsym_device dev, const char *dname)
{
    pde_device = dev;
    pde_dname = dname;
    test_pde_reference();
    test_pde_nonfinite();
    for (int prec = 0; prec < 3; prec++)
        test_pde_per_system(prec);
    test_pde_bs();
    test_pde_time_dependent();
    test_pde_american();
    test_pde_precisions();
    if (dev == BSYM_DEVICE_GPU) {
        test_pde_cpu_gpu();
        return;
    }
    test_pde_errors();
    /* the progress hook sees the whole batch */
    double x[5] = {0, 1, 2, 3, 4}, t[2] = {0, 1}, fin[5] = {0}, u[5];
    int info;
    const bsym_pde p = {.m = 5, .N = 2, .batch = 1, .x = x, .t = t, .theta = 1};
    bsym_ctx *ctx;
    bsym_ctx_create(&ctx);
    bsym_ctx_set_progress(ctx, pde_progress, NULL);
    bsym_status st = bsym_dpde_solve(ctx, &p, fin, u, &info);
    check(st == BSYM_OK && pde_progress_calls == 1 && bsym_ctx_last_device(ctx) == BSYM_DEVICE_CPU,
          "pde: progress reported, CPU served", "cpu", st, pde_progress_calls);
    bsym_ctx_destroy(ctx);
}
/* ==== end of family pde (issue 15) ========================================== */

/* ==== family ceig: complex Hermitian tridiagonalization and eigensolvers ====
 * bsym_[zc]tridiagonalize (A = Q T Q^H, T real, e >= 0) and bsym_[zc]syev
 * (w real, V complex) on random Hermitian batches, L and U, with garbage in
 * the unreferenced triangle and in the diagonal's imaginary part; real-valued
 * complex input against bsym_[ds]syev; a NaN system; index and value
 * selections. Bounds 100 n eps of the working precision. */

typedef double _Complex ce_cx;

/* h (n x n) a random Hermitian matrix (real when `real`), rounded to float
 * when single. */
static void ce_matrix(int n, int real, int single, ce_cx *h)
{
    for (int j = 0; j < n; j++) {
        double dj = urand();
        h[j + j * n] = single ? (double)(float)dj : dj;
        for (int i = j + 1; i < n; i++) {
            double re = urand(), im = real ? 0.0 : urand();
            if (single) {
                re = (float)re;
                im = (float)im;
            }
            h[i + j * n] = re + im * I;
            h[j + i * n] = re - im * I;
        }
    }
}

/* The batch as the core reads it: h's triangle `uplo` kept, the other
 * triangle garbage (large and one NaN), the diagonal's imaginary part
 * garbage (NaN on system 0's first entry, 7 elsewhere). Complex double or
 * float storage. */
static void *ce_input(int single, char uplo, int n, int batch, const ce_cx *h)
{
    void *p = malloc((size_t)n * n * batch * (single ? sizeof(bsym_cfloat) : sizeof(bsym_cdouble)));
    for (int k = 0; k < batch; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                const size_t at = (size_t)k * n * n + i + (size_t)j * n;
                ce_cx v = h[at];
                const int ref = uplo == 'L' ? i >= j : i <= j;
                if (!ref)
                    v = (i + j == 1 && k == 0) ? NAN + NAN * I : 1e30 + 3e29 * I;
                else if (i == j)
                    v = CMPLX(creal(v), k == 0 && i == 0 ? NAN : 7.0);
                if (single) {
                    ((bsym_cfloat *)p)[at].re = (float)creal(v);
                    ((bsym_cfloat *)p)[at].im = (float)cimag(v);
                } else {
                    ((bsym_cdouble *)p)[at].re = creal(v);
                    ((bsym_cdouble *)p)[at].im = cimag(v);
                }
            }
    return p;
}

static ce_cx ce_get(int single, const void *p, size_t i)
{
    return single ? CMPLX(((const bsym_cfloat *)p)[i].re, ((const bsym_cfloat *)p)[i].im)
                  : CMPLX(((const bsym_cdouble *)p)[i].re, ((const bsym_cdouble *)p)[i].im);
}

static double ce_real(int single, const void *p, size_t i)
{
    return single ? ((const float *)p)[i] : ((const double *)p)[i];
}

static bsym_status ce_trd(bsym_ctx *ctx, int single, char uplo, int n, int batch, const void *A, void *d,
                          void *e, void *Q, int *info)
{
    return single ? bsym_ctridiagonalize(ctx, uplo, n, batch, A, d, e, Q, info)
                  : bsym_ztridiagonalize(ctx, uplo, n, batch, A, d, e, Q, info);
}

static bsym_status ce_syev(bsym_ctx *ctx, int single, char uplo, int n, int batch, const void *A,
                           const bsym_select *sel, void *w, void *V, int *count, int *info)
{
    return single ? bsym_csyev(ctx, uplo, n, batch, A, sel, w, V, count, info)
                  : bsym_zsyev(ctx, uplo, n, batch, A, sel, w, V, count, info);
}

static double ce_fnorm(int n, const ce_cx *h)
{
    double s = 0;
    for (int i = 0; i < n * n; i++)
        s += creal(h[i] * conj(h[i]));
    return sqrt(s);
}

/* ||h V - V diag(w)||_F / ||h||_F and ||V^H V - I||_F over m columns. */
static void ce_eig_errors(int single, int n, int m, const ce_cx *h, const void *w, size_t w0, const void *V,
                          size_t v0, double *res, double *orth)
{
    double r = 0, o = 0, hn = ce_fnorm(n, h);
    for (int j = 0; j < m; j++) {
        const double wj = ce_real(single, w, w0 + j);
        for (int i = 0; i < n; i++) {
            ce_cx s = -wj * ce_get(single, V, v0 + i + (size_t)j * n);
            for (int l = 0; l < n; l++)
                s += h[i + l * n] * ce_get(single, V, v0 + l + (size_t)j * n);
            r += creal(s * conj(s));
        }
        for (int i = 0; i < m; i++) {
            ce_cx s = i == j ? -1.0 : 0.0;
            for (int l = 0; l < n; l++)
                s += conj(ce_get(single, V, v0 + l + (size_t)i * n)) * ce_get(single, V, v0 + l + (size_t)j * n);
            o += creal(s * conj(s));
        }
    }
    *res = hn > 0 ? sqrt(r) / hn : sqrt(r);
    *orth = sqrt(o);
}

static void ce_case(int single, char uplo, int n, bsym_device dev)
{
    const int batch = 3;
    const char *dn = dev == BSYM_DEVICE_GPU ? "gpu" : "cpu";
    const double eps = single ? FLT_EPSILON : DBL_EPSILON, tol = 100.0 * n * eps;
    const size_t es = single ? sizeof(float) : sizeof(double), cs = 2 * es, nn = (size_t)n * n;
    char what[160];
    const char *tn = single ? "complex float" : "complex double";
    bsym_ctx *ctx = ctx_on(dev);
    ce_cx *h = malloc(nn * batch * sizeof *h);
    for (int k = 0; k < batch; k++)
        ce_matrix(n, 0, single, h + k * nn);
    void *A = ce_input(single, uplo, n, batch, h);
    void *d = malloc(es * n * batch), *e = malloc(es * (n > 1 ? n - 1 : 1) * batch), *Q = malloc(cs * nn * batch);
    void *d2 = malloc(es * n * batch), *e2 = malloc(es * (n > 1 ? n - 1 : 1) * batch);
    int info[3] = {9, 9, 9}, info2[3] = {9, 9, 9}, count[3] = {-1, -1, -1};

    /* tridiagonalize: Q T Q^H = A, Q^H Q = I, e >= 0, Q = NULL gives the same T */
    bsym_status st = ce_trd(ctx, single, uplo, n, batch, A, d, e, Q, info);
    bsym_status st2 = ce_trd(ctx, single, uplo, n, batch, A, d2, e2, NULL, info2);
    double rec = 0, orth = 0;
    int nonneg = 1, same = 1;
    for (int k = 0; k < batch; k++) {
        const ce_cx *hk = h + k * nn;
        double r = 0, o = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                ce_cx s = -hk[i + j * n], g = i == j ? -1.0 : 0.0;
                for (int l = 0; l < n; l++) {
                    /* (Q T)(i, l) */
                    ce_cx qt = ce_get(single, Q, k * nn + i + (size_t)l * n) * ce_real(single, d, (size_t)k * n + l);
                    if (l > 0)
                        qt += ce_get(single, Q, k * nn + i + (size_t)(l - 1) * n) *
                              ce_real(single, e, (size_t)k * (n - 1) + l - 1);
                    if (l + 1 < n)
                        qt += ce_get(single, Q, k * nn + i + (size_t)(l + 1) * n) *
                              ce_real(single, e, (size_t)k * (n - 1) + l);
                    s += qt * conj(ce_get(single, Q, k * nn + j + (size_t)l * n));
                    g += conj(ce_get(single, Q, k * nn + l + (size_t)i * n)) * ce_get(single, Q, k * nn + l + (size_t)j * n);
                }
                r += creal(s * conj(s));
                o += creal(g * conj(g));
            }
        rec = nmax(rec, sqrt(r) / ce_fnorm(n, hk));
        orth = nmax(orth, sqrt(o));
        for (int i = 0; i + 1 < n; i++) {
            nonneg &= ce_real(single, e, (size_t)k * (n - 1) + i) >= 0;
            same &= ce_real(single, e, (size_t)k * (n - 1) + i) == ce_real(single, e2, (size_t)k * (n - 1) + i);
        }
        for (int i = 0; i < n; i++)
            same &= ce_real(single, d, (size_t)k * n + i) == ce_real(single, d2, (size_t)k * n + i);
    }
    snprintf(what, sizeof what, "ceig: %s tridiagonalize %c n=%d: Q T Q^H = A (%.2g), Q^H Q = I (%.2g), e >= 0",
             tn, uplo, n, rec, orth);
    check(st == BSYM_OK && st2 == BSYM_OK && info[0] == 0 && info[1] == 0 && info[2] == 0 && info2[0] == 0 &&
          rec <= tol && orth <= tol && nonneg, what, dn, st, info[0]);
    snprintf(what, sizeof what, "ceig: %s tridiagonalize %c n=%d: Q = NULL gives the same T", tn, uplo, n);
    check(same, what, dn, st2, 0);

    /* syev with vectors: residual, orthonormality, ascending, count n; values
     * alone agree */
    void *w = malloc(es * n * batch), *V = malloc(cs * nn * batch), *w2 = malloc(es * n * batch);
    st = ce_syev(ctx, single, uplo, n, batch, A, NULL, w, V, count, info);
    st2 = ce_syev(ctx, single, uplo, n, batch, A, NULL, w2, NULL, NULL, info2);
    double res = 0, vo = 0, wdiff = 0;
    int asc = 1, ok = st == BSYM_OK && st2 == BSYM_OK;
    for (int k = 0; k < batch; k++) {
        double r, o, wmax = 0;
        ce_eig_errors(single, n, n, h + k * nn, w, (size_t)k * n, V, k * nn, &r, &o);
        res = nmax(res, r);
        vo = nmax(vo, o);
        ok &= info[k] == 0 && info2[k] == 0 && count[k] == n;
        for (int i = 0; i < n; i++)
            wmax = nmax(wmax, fabs(ce_real(single, w, (size_t)k * n + i)));
        for (int i = 0; i < n; i++) {
            wdiff = nmax(wdiff, fabs(ce_real(single, w, (size_t)k * n + i) - ce_real(single, w2, (size_t)k * n + i)) /
                                    (wmax > 0 ? wmax : 1));
            if (i > 0)
                asc &= ce_real(single, w, (size_t)k * n + i - 1) <= ce_real(single, w, (size_t)k * n + i);
        }
    }
    snprintf(what, sizeof what, "ceig: %s syev %c n=%d: ||AV - VW||/||A|| %.2g, ||V^H V - I|| %.2g, values only %.2g",
             tn, uplo, n, res, vo, wdiff);
    check(ok && res <= tol && vo <= tol && wdiff <= tol && asc, what, dn, st, info[0]);

    /* an index selection: the 2nd to 3rd smallest (or the only one) */
    {
        const int il = n >= 3 ? 2 : 1, iu = n >= 3 ? 3 : n;
        bsym_select sel = {BSYM_SELECT_INDEX, il, iu, 0, 0};
        void *ws = malloc(es * n * batch), *Vs = malloc(cs * nn * batch);
        int cs_[3], is_[3];
        st = ce_syev(ctx, single, uplo, n, batch, A, &sel, ws, Vs, cs_, is_);
        ok = st == BSYM_OK;
        double sres = 0, sorth = 0, sdiff = 0;
        for (int k = 0; k < batch; k++) {
            const int m = iu - il + 1;
            double r, o, wmax = 0;
            ok &= is_[k] == 0 && cs_[k] == m;
            ce_eig_errors(single, n, m, h + k * nn, ws, (size_t)k * n, Vs, k * nn, &r, &o);
            sres = nmax(sres, r);
            sorth = nmax(sorth, o);
            for (int i = 0; i < n; i++)
                wmax = nmax(wmax, fabs(ce_real(single, w, (size_t)k * n + i)));
            for (int i = 0; i < m; i++)
                sdiff = nmax(sdiff, fabs(ce_real(single, ws, (size_t)k * n + i) -
                                         ce_real(single, w, (size_t)k * n + il - 1 + i)) / (wmax > 0 ? wmax : 1));
            for (int i = m; i < n; i++)
                ok &= isnan(ce_real(single, ws, (size_t)k * n + i)) && isnan(creal(ce_get(single, Vs, k * nn + (size_t)i * n)));
        }
        snprintf(what, sizeof what, "ceig: %s syev %c n=%d index %d..%d: residual %.2g, orth %.2g, values %.2g",
                 tn, uplo, n, il, iu, sres, sorth, sdiff);
        check(ok && sres <= tol && sorth <= tol && sdiff <= tol, what, dn, st, cs_[0]);
        /* a value interval around w[0] of system 0: (w0 - 1, w0 + tol max(1, |w0|)] (the values-only
         * run on the GPU need not round w0 to the same last bit as the run with vectors) */
        const double w0 = ce_real(single, w, 0);
        bsym_select vs = {BSYM_SELECT_VALUE, 0, 0, w0 - 1, w0 + tol * nmax(1.0, fabs(w0))};
        st = ce_syev(ctx, single, uplo, n, 1, A, &vs, ws, NULL, cs_, is_);
        snprintf(what, sizeof what, "ceig: %s syev %c n=%d value interval (w0 - 1, w0 + tol]: count >= 1", tn, uplo, n);
        check(st == BSYM_OK && is_[0] == 0 && cs_[0] >= 1 && cs_[0] <= n, what, dn, st, cs_[0]);
        free(ws);
        free(Vs);
    }

    /* real-valued complex input: the values of bsym_[ds]syev */
    {
        ce_cx *hr = malloc(nn * sizeof *hr);
        ce_matrix(n, 1, single, hr);
        void *Ar = ce_input(single, uplo, n, 1, hr);
        double *ad = malloc(nn * sizeof *ad), *wd = malloc(n * sizeof *wd);
        for (size_t i = 0; i < nn; i++)
            ad[i] = creal(hr[i]);
        int ir = 9, ic = 9;
        void *wc = malloc(es * n), *Vc = malloc(cs * nn);
        st = ce_syev(ctx, single, uplo, n, 1, Ar, NULL, wc, Vc, NULL, &ic);
        if (single) {
            float *af = to_float(nn, ad), *wf = malloc(n * sizeof *wf);
            st2 = bsym_ssyev(ctx, uplo, n, 1, af, NULL, wf, NULL, NULL, &ir);
            from_float(n, wf, wd);
            free(af);
            free(wf);
        } else {
            st2 = bsym_dsyev(ctx, uplo, n, 1, ad, NULL, wd, NULL, NULL, &ir);
        }
        double dm = 0, wmax = 0;
        for (int i = 0; i < n; i++)
            wmax = nmax(wmax, fabs(wd[i]));
        for (int i = 0; i < n; i++)
            dm = nmax(dm, fabs(wd[i] - ce_real(single, wc, i)) / (wmax > 0 ? wmax : 1));
        double r, o;
        ce_eig_errors(single, n, n, hr, wc, 0, Vc, 0, &r, &o);
        snprintf(what, sizeof what, "ceig: %s syev %c n=%d real-valued input: values as the real syev (%.2g)", tn,
                 uplo, n, dm);
        check(st == BSYM_OK && st2 == BSYM_OK && ic == 0 && ir == 0 && dm <= tol && r <= tol && o <= tol, what,
              dn, st, ic);
        free(hr);
        free(Ar);
        free(ad);
        free(wd);
        free(wc);
        free(Vc);
    }

    /* a NaN in system 1's referenced triangle: info -1 for it alone */
    {
        const size_t at = nn + (uplo == 'L' ? (size_t)(n - 1) : (size_t)(n - 1) * n);
        if (single)
            ((bsym_cfloat *)A)[at].im = NAN;
        else
            ((bsym_cdouble *)A)[at].im = NAN;
        if (n == 1) { /* the diagonal's imaginary part is ignored: the real part then */
            if (single)
                ((bsym_cfloat *)A)[at].re = NAN;
            else
                ((bsym_cdouble *)A)[at].re = NAN;
        }
        st = ce_syev(ctx, single, uplo, n, batch, A, NULL, w, V, count, info);
        ok = st == BSYM_OK && info[0] == 0 && info[1] == -1 && info[2] == 0 && count[1] == 0 && count[0] == n &&
             count[2] == n;
        for (int i = 0; i < n; i++)
            ok &= isnan(ce_real(single, w, (size_t)n + i)) && !isnan(ce_real(single, w, i)) &&
                  !isnan(ce_real(single, w, 2 * (size_t)n + i));
        for (size_t i = 0; i < nn; i++)
            ok &= isnan(creal(ce_get(single, V, nn + i))) && isnan(cimag(ce_get(single, V, nn + i))) &&
                  !isnan(creal(ce_get(single, V, i)));
        st2 = ce_trd(ctx, single, uplo, n, batch, A, d, e, Q, info2);
        ok &= st2 == BSYM_OK && info2[0] == 0 && info2[1] == -1 && info2[2] == 0 && isnan(ce_real(single, d, n)) &&
              !isnan(ce_real(single, d, 0));
        snprintf(what, sizeof what, "ceig: %s %c n=%d: a NaN in system 1 gives info -1 for it alone", tn, uplo, n);
        check(ok, what, dn, info[1], info2[1]);
    }
    free(w);
    free(w2);
    free(V);
    free(d);
    free(e);
    free(Q);
    free(d2);
    free(e2);
    free(A);
    free(h);
    bsym_ctx_destroy(ctx);
}

static void test_ceig_errors(void)
{
    bsym_ctx *ctx = ctx_on(BSYM_DEVICE_GPU);
    bsym_cdouble a = {1, 0}, q;
    double d, w;
    int info, cnt;
    /* device gpu: solved there (hetrd.cu), or BSYM_ERR_NODEVICE without one */
    bsym_status st = bsym_ztridiagonalize(ctx, 'L', 1, 1, &a, &d, NULL, &q, &info);
    bsym_status st2 = bsym_zsyev(ctx, 'L', 1, 1, &a, NULL, &w, &q, &cnt, &info);
    if (bsym_gpu_available()) {
        check(st == BSYM_OK && st2 == BSYM_OK && bsym_ctx_last_device(ctx) == BSYM_DEVICE_GPU && w == 1 &&
                  q.re == 1 && q.im == 0 && cnt == 1 && info == 0,
              "ceig: device gpu, 1 x 1: solved there", "gpu", st, st2);
        st = bsym_zsyev(ctx, 'L', 257, 1, &a, NULL, &w, &q, &cnt, &info);
        check(st == BSYM_ERR_SIZE, "ceig: device gpu, n = 257: BSYM_ERR_SIZE", "gpu", st, 0);
    } else {
        check(st == BSYM_ERR_NODEVICE && st2 == BSYM_ERR_NODEVICE,
              "ceig: device gpu without a GPU: BSYM_ERR_NODEVICE", "cpu", st, st2);
    }
    bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
    check(bsym_zsyev(ctx, 'X', 1, 1, &a, NULL, &w, &q, &cnt, &info) == BSYM_ERR_ARG &&
              bsym_ztridiagonalize(ctx, 'L', 1, 1, &a, NULL, NULL, &q, &info) == BSYM_ERR_ARG,
          "ceig: bad uplo and NULL d are argument errors", "cpu", 0, 0);
    st = bsym_zsyev(ctx, 'L', 1, 1, &a, NULL, &w, &q, &cnt, &info);
    check(st == BSYM_OK && w == 1 && q.re == 1 && q.im == 0 && cnt == 1 && info == 0, "ceig: 1 x 1", "cpu", st,
          info);
    bsym_ctx_destroy(ctx);
}

/* cpu: the CPU's sizes; gpu: hetrd.cu's every launch shape (rows a lane
 * 1, 2, 4, 8 in forming Q; the matrix in shared memory, and in global
 * memory above complex float 237 and complex double 168); subset: a few
 * of them, for the sanitizers. */
static void test_ceig_family(int cpu, int gpu, int subset)
{
    const int sizes[] = {1, 2, 3, 5, 8, 17, 32, 64};
    const int nsz = getenv("BSYM_CEIG_SMALL") ? 5 : 8;
    const int gsizes[] = {1, 2, 3, 5, 8, 17, 32, 33, 64, 65, 100, 128, 129, 168, 169, 200, 237, 238, 256};
    const int ssizes[] = {3, 33, 70, 169, 256};
    for (int single = 0; single < 2 && cpu; single++)
        for (int s = 0; s < nsz; s++) {
            ce_case(single, 'L', sizes[s], BSYM_DEVICE_CPU);
            ce_case(single, 'U', sizes[s], BSYM_DEVICE_CPU);
        }
    const int *gs = subset ? ssizes : gsizes;
    /* (BSYM_CEIG_SMALL: the first three, for racecheck, whose shared-memory
     * checks take minutes at n = 256) */
    const int ngs = subset ? (getenv("BSYM_CEIG_SMALL") ? 3 : (int)(sizeof ssizes / sizeof *ssizes))
                           : (int)(sizeof gsizes / sizeof *gsizes);
    for (int single = 0; single < 2 && gpu; single++)
        for (int s = 0; s < ngs; s++) {
            ce_case(single, 'L', gs[s], BSYM_DEVICE_GPU);
            ce_case(single, 'U', gs[s], BSYM_DEVICE_GPU);
        }
    if (cpu)
        test_ceig_errors();
}
/* ==== end of family ceig ===================================================== */
