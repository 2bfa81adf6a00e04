/*
 * test_core.c -- tests of the batchsym C core against a plain reference
 * (Gaussian elimination with partial pivoting in long double). Runs every
 * case on the CPU, and on the GPU too when one is usable.
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

/* ==== Householder tridiagonalization, tridiagonal solves (PCR) and ========
 * ==== BSYM_METHOD_TRIDIAG ================================================= */

/* Bounds: a check passes when the error is at most BOUND_C * n * eps of the
 * working precision (n = order of the system). */
#define BOUND_C 10.0

static int verbose; /* --verbose: print the worst measured figures */

/* Worst error / (n eps) per family, device and precision, for --verbose. */
#define MAX_FAMILIES 16
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
        check(st == BSYM_ERR_SIZE, "tridiagonalize n > 64 on the GPU is a size error", dname, n, st);
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
static void test_tridiag_method(bsym_device dev, const char *dname, int single, char uplo, int n,
                                int nrhs, int batch)
{
    size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = malloc(sizeof(double) * nn * batch), *full = malloc(sizeof(double) * nn * batch);
    double *B = malloc(sizeof(double) * nb * batch), *x = malloc(sizeof(double) * nb * batch);
    double *be = malloc(sizeof(double) * batch);
    int *info = malloc(sizeof(int) * batch);
    for (int k = 0; k < batch; k++)
        sym_random(n, full + k * nn);
    for (size_t i = 0; i < nb * batch; i++)
        B[i] = urand();
    to_precision(single, nn * batch, full);
    to_precision(single, nb * batch, B);
    memcpy(A, full, sizeof(double) * nn * batch);
    for (int k = 0; k < batch; k++)
        poison(uplo, n, A + k * nn);
    bsym_status st = run_method(dev, single, BSYM_METHOD_TRIDIAG, uplo, n, nrhs, batch, A, B, x, info);
    if (dev == BSYM_DEVICE_GPU && n > BSYM_GPU_HOUSEHOLDER_MAX_N) {
        check(st == BSYM_ERR_SIZE, "method TRIDIAG n > 64 on the GPU is a size error", dname, n, st);
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

/* Householder, PCR and method TRIDIAG checks on one device, both precisions. */
static void test_tridiag_family(bsym_device dev, const char *dname)
{
    const int trd_sizes[] = {1, 2, 3, 5, 16, 31, 32, 33, 64, 65};
    const int pcr_sizes[] = {1, 2, 3, 7, 32, 33, 100, 1000, 5000};
    const int hh_sizes[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 47, 64, 65, 100};
    for (int single = 0; single < 2; single++) {
        for (size_t s = 0; s < sizeof trd_sizes / sizeof *trd_sizes; s++) {
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
        }
        for (size_t s = 0; s < sizeof hh_sizes / sizeof *hh_sizes; s++) {
            test_tridiag_method(dev, dname, single, 'L', hh_sizes[s], 1, 37);
            test_tridiag_method(dev, dname, single, 'U', hh_sizes[s], 3, 37);
        }
        test_tridiag_method_bad(dev, dname, single);
    }
    if (dev == BSYM_DEVICE_GPU)
        test_gpu_limits();
}

int main(int argc, char **argv)
{
    const char *counts = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--counts") == 0 && i + 1 < argc)
            counts = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
    }
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
        test_tridiag_family(devs[d].dev, devs[d].name);
    }
    test_errors();
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
