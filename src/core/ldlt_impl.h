/*
 * ldlt_impl.h -- precision-generic CPU LDL^T solve without pivoting.
 * Included by ldlt.c once with T = double and once with T = float; the
 * including file defines T, SFX (function suffix), EPS and ISFINITE.
 *
 * One system: copy the referenced triangle into a lower-triangular column-major
 * workspace W (checking finiteness and max|A|), factor W = L D L^T in place
 * right-looking (column j of L scales by 1/D_j, then a rank-1 update of the
 * trailing lower triangle, all inner loops unit-stride), then forward
 * substitution with L, scaling by D^{-1}, back substitution with L^T.
 */
#define BSYM_CAT2(a, b) a##b
#define BSYM_CAT(a, b) BSYM_CAT2(a, b)

/* Loads the referenced triangle of A into the lower triangle of W; returns 1
 * when every referenced entry is finite, and their max |a| in *amax. */
static int BSYM_CAT(load_lower_, SFX)(char uplo, int64_t n, const T *A, T *W, T *amax)
{
    int finite = 1;
    T m = 0;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = j; i < n; i++) {
            T v = (uplo == 'L') ? A[i + j * n] : A[j + i * n];
            W[i + j * n] = v;
            if (!ISFINITE(v))
                finite = 0;
            else if (FABS(v) > m)
                m = FABS(v);
        }
    }
    *amax = m;
    return finite;
}

/* Factors the lower triangle of W in place: strictly lower part becomes L,
 * the diagonal becomes D. Returns 0, or the 1-based index of the first pivot
 * that is not finite or has |D_jj| <= tol. v is n scratch elements. */
static int BSYM_CAT(factor_, SFX)(int64_t n, T *W, T tol, T *v)
{
    for (int64_t j = 0; j < n; j++) {
        T *cj = W + j * n;              /* column j */
        T d = cj[j];
        if (!(FABS(d) > tol) || !ISFINITE(d))
            return (int)(j + 1);
        T inv = (T)1 / d;
        for (int64_t i = j + 1; i < n; i++) {
            v[i] = cj[i];               /* unscaled column: D_j * L_ij */
            cj[i] *= inv;               /* L_ij */
        }
        /* trailing update: W[i,k] -= L_ij * (D_j L_kj) for k > j, i >= k */
        for (int64_t k = j + 1; k < n; k++) {
            T *ck = W + k * n;
            T s = v[k];
#pragma omp simd
            for (int64_t i = k; i < n; i++)
                ck[i] -= cj[i] * s;
        }
    }
    return 0;
}

/* Solves L D L^T x = b in place for one right-hand side. */
static void BSYM_CAT(substitute_, SFX)(int64_t n, const T *W, T *b)
{
    for (int64_t j = 0; j < n; j++) {       /* L y = b, column-oriented */
        const T *cj = W + j * n;
        T bj = b[j];
#pragma omp simd
        for (int64_t i = j + 1; i < n; i++)
            b[i] -= cj[i] * bj;
    }
    for (int64_t j = 0; j < n; j++)         /* D z = y */
        b[j] /= W[j + j * n];
    for (int64_t j = n - 1; j >= 0; j--) {  /* L^T x = z, dot products */
        const T *cj = W + j * n;
        T s = 0;
#pragma omp simd reduction(+ : s)
        for (int64_t i = j + 1; i < n; i++)
            s += cj[i] * b[i];
        b[j] -= s;
    }
}

/* Solves one system; W holds n*n elements, v n elements. Returns its info. */
static int BSYM_CAT(solve_one_, SFX)(char uplo, int64_t n, int64_t nrhs, const T *A, T *B, T *W, T *v)
{
    T amax;
    int info = 0;
    int finite = BSYM_CAT(load_lower_, SFX)(uplo, n, A, W, &amax);
    for (int64_t e = 0; e < n * nrhs && finite; e++)
        if (!ISFINITE(B[e]))
            finite = 0;
    if (!finite)
        info = -1;
    else
        info = BSYM_CAT(factor_, SFX)(n, W, (T)n * EPS * amax, v);
    if (info != 0) {
        for (int64_t e = 0; e < n * nrhs; e++)
            B[e] = (T)NAN;
        return info;
    }
    for (int64_t c = 0; c < nrhs; c++)
        BSYM_CAT(substitute_, SFX)(n, W, B + c * n);
    return 0;
}

/* Systems [0, count) of a batch, OpenMP over the batch. Returns 0, or -1 when
 * a thread's workspace could not be allocated (nothing is then promised). */
int BSYM_CAT(bsym__ldlt_cpu_, SFX)(char uplo, int64_t n, int64_t nrhs, int64_t count,
                                   const T *A, T *B, int *info, int threads)
{
    int nomem = 0;
    int team = threads > 0 ? threads : bsym__omp_default_threads();
    if (count < team)
        team = count > 0 ? (int)count : 1;
#pragma omp parallel num_threads(team)
    {
        T *W = malloc((size_t)(n * n + n) * sizeof(T));
        if (W == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
#pragma omp for schedule(static)
            for (int64_t k = 0; k < count; k++)
                info[k] = BSYM_CAT(solve_one_, SFX)(uplo, n, nrhs, A + k * n * n,
                                                    B + k * n * nrhs, W, W + n * n);
        }
        free(W);
    }
    return nomem ? -1 : 0;
}

#undef BSYM_CAT
#undef BSYM_CAT2
