/*
 * bench_cauto.c -- the complex automatic solve on the CPU through the core's
 * C API (bsym_zsolvex, opts NULL: method AUTO with the defaults), host
 * arrays, one right-hand side a system, for comparing two builds of the
 * library (link this file against each) or the kinds of batch:
 *   hpd  M M^H / n + I, M with parts uniform in [-1, 1) (positive definite);
 *   dd   the Hermitian part of M, its diagonal 1 + the row's sum of moduli
 *        (diagonally dominant);
 *   ind  the Hermitian part of M (indefinite).
 * Prints systems/s over the median of REPS timed calls (after one warm-up)
 * and how many systems the certified LDL^H step kept.
 *
 *   BSYM_CUDA=0 make lib
 *   gcc -O2 -std=gnu11 -fopenmp -Isrc/core inst/bench/bench_cauto.c src/libbatchsym.a -lm -o build/bench_cauto
 *   build/bench_cauto N SYSTEMS hpd|dd|ind REPS
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "batchsym.h"
/* uniform in [-1, 1) (a 64-bit LCG) */
static double urand(unsigned long long *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
    if (argc != 5 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1 || atoi(argv[4]) < 1 || atoi(argv[4]) > 100 ||
        (strcmp(argv[3], "hpd") != 0 && strcmp(argv[3], "dd") != 0 && strcmp(argv[3], "ind") != 0)) {
        fprintf(stderr, "usage: bench_cauto N SYSTEMS hpd|dd|ind REPS (1..100)\n");
        return 2;
    }
    int n = atoi(argv[1]), count = atoi(argv[2]), reps = atoi(argv[4]);
    const char *kind = argv[3];
    size_t nn = (size_t)n * n;
    double complex *A = malloc(sizeof *A * nn * count), *B0 = malloc(sizeof *B0 * n * count), *B = malloc(sizeof *B * n * count), *M = malloc(sizeof *M * nn);
    unsigned long long s = 42;
    for (int k = 0; k < count; k++) {
        for (size_t e = 0; e < nn; e++) M[e] = urand(&s) + I * urand(&s);
        double complex *a = A + k * nn;
        for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) {
            double complex v;
            if (!strcmp(kind, "hpd")) { v = 0; for (int p = 0; p < n; p++) v += M[i + p * n] * conj(M[j + p * n]); v = v / n + (i == j); }
            else v = (M[i + j * n] + conj(M[j + i * n])) / 2;
            a[i + j * n] = v;
        }
        if (!strcmp(kind, "dd")) for (int i = 0; i < n; i++) { double r = 1; for (int j = 0; j < n; j++) if (j != i) r += cabs(a[i + j * n]); a[i + i * n] = r; }
        for (int i = 0; i < n; i++) B0[k * n + i] = urand(&s) + I * urand(&s);
    }
    bsym_ctx *ctx; bsym_ctx_create(&ctx); bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU);
    int *info = malloc(sizeof(int) * count), *rank = malloc(sizeof(int) * count), *used = malloc(sizeof(int) * count);
    double t[101];
    for (int r = 0; r <= reps; r++) {
        memcpy(B, B0, sizeof *B * n * count);
        struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0);
        bsym_zsolvex(ctx, NULL, 'L', n, 1, count, (const bsym_cdouble *)A, (bsym_cdouble *)B, info, rank, used);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        t[r] = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    }
    qsort(t + 1, reps, sizeof *t, cmp);
    int ldlt = 0; for (int k = 0; k < count; k++) ldlt += used[k] == BSYM_METHOD_LDLT;
    printf("n=%d %s: %.4g systems/s (median of %d), %d of %d by ldlt\n", n, kind, count / t[1 + reps / 2], reps, ldlt, count);
    return 0;
}
