/*
 * ldlt_impl.h -- precision-generic CPU LDL^T solve without pivoting.
 * Included by ldlt.c once with T = double and once with T = float; the
 * including file defines T, SFX (function suffix), EPS and ISFINITE.
 *
 * Large n, one system at a time: copy the referenced triangle into a lower-triangular column-major
 * workspace W (checking finiteness and max|A|), factor W = L D L^T in place
 * right-looking (column j of L scales by 1/D_j, then a rank-1 update of the
 * trailing lower triangle, all inner loops unit-stride), then forward
 * substitution with L, scaling by D^{-1}, back substitution with L^T.
 */

/* Loads the referenced triangle of A into the lower triangle of W; returns 1
 * when every referenced entry is finite, and their max |a| in *amax. */
static int PREC(load_lower_)(char uplo, int64_t n, const T *A, T *W, T *amax)
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
static int PREC(factor_)(int64_t n, T *W, T tol, T *v)
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
static void PREC(substitute_)(int64_t n, const T *W, T *b)
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
static int PREC(solve_one_)(char uplo, int64_t n, int64_t nrhs, const T *A, T *B, T *W, T *v)
{
    T amax;
    int info = 0;
    int finite = PREC(load_lower_)(uplo, n, A, W, &amax);
    for (int64_t e = 0; e < n * nrhs && finite; e++)
        if (!ISFINITE(B[e]))
            finite = 0;
    if (!finite)
        info = -1;
    else
        info = PREC(factor_)(n, W, (T)n * EPS * amax, v);
    if (info != 0) {
        for (int64_t e = 0; e < n * nrhs; e++)
            B[e] = (T)NAN;
        return info;
    }
    for (int64_t c = 0; c < nrhs; c++)
        PREC(substitute_)(n, W, B + c * n);
    return 0;
}

/* ---- small n: LANES systems at once, interleaved -------------------------
 * For n <= BSYM_CPU_LANES_MAX_N the same algorithm runs on LANES systems
 * whose entries are interleaved (entry (i, j) of lane s at
 * W[PACKED(i, j)*LANES + s], the lower triangle packed by columns so that the
 * workspace stays in the L1 cache), so every arithmetic statement is a loop
 * over the lanes that the compiler vectorises, with no short loops over rows. Lanes past the end of
 * the batch hold an identity system whose results are dropped. */
#define LANES BSYM_CPU_LANES
/* offset of (i, j), i >= j, in the column-packed lower triangle of order n */
#define PACKED(i, j) ((j) * n - (j) * ((j) - 1) / 2 + (i) - (j))

/* Interleaves systems [0, m) (m <= LANES) of A's referenced triangle and of
 * B into W and X, identity / zero in the unused lanes; flags lanes with
 * non-finite input in bad[] and returns max|a| per lane in amax[]. One system
 * at a time, so that the reads run along its columns (v * 0 is NaN exactly
 * when v is not finite: a sum of such terms flags the system). */
BSYM_INLINE
static void PREC(pack_lanes_)(char uplo, int64_t n, int64_t nrhs, int m, const T *A,
                                       const T *B, T *W, T *X, T *amax, int *bad)
{
    for (int s = 0; s < LANES; s++) {
        T mx = 0, chk = 0;
        if (s < m) {
            const T *a = A + s * n * n;
            for (int64_t j = 0; j < n; j++) {
                T *w = W + PACKED(j, j) * LANES + s;
                const T *src = a + j + j * n; /* (j, j) */
                const int64_t step = uplo == 'L' ? 1 : n; /* along column j, or row j */
                for (int64_t i = 0; i < n - j; i++) {
                    T v = src[i * step];
                    w[i * LANES] = v;
                    chk += v * 0;
                    mx = FABS(v) > mx ? FABS(v) : mx;
                }
            }
            const T *b = B + s * n * nrhs;
            for (int64_t e = 0; e < n * nrhs; e++) {
                X[e * LANES + s] = b[e];
                chk += b[e] * 0;
            }
        } else {
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = j; i < n; i++)
                    W[PACKED(i, j) * LANES + s] = (i == j) ? (T)1 : (T)0;
            for (int64_t e = 0; e < n * nrhs; e++)
                X[e * LANES + s] = 0;
        }
        amax[s] = mx;
        bad[s] = !(chk == 0);
    }
}

/* Factors LANES interleaved systems (see factor_); pivot breakdowns go to
 * info[s] (first one per lane), computation continues in every lane. */
BSYM_INLINE
static void PREC(factor_lanes_)(int64_t n, T *W, const T *tol, T *v, int *info)
{
    for (int64_t j = 0; j < n; j++) {
        T *wjj = W + PACKED(j, j) * LANES;
        T inv[LANES];
        for (int s = 0; s < LANES; s++) {
            if (info[s] == 0 && !(FABS(wjj[s]) > tol[s]))
                info[s] = (int)(j + 1);
            inv[s] = (T)1 / wjj[s];
        }
        for (int64_t i = j + 1; i < n; i++) {
            T *w = W + PACKED(i, j) * LANES;
#pragma omp simd
            for (int s = 0; s < LANES; s++) {
                v[i * LANES + s] = w[s];
                w[s] *= inv[s];
            }
        }
        for (int64_t k = j + 1; k < n; k++) {
            const T *vk = v + k * LANES;
            for (int64_t i = k; i < n; i++) {
                T *wik = W + PACKED(i, k) * LANES;
                const T *wij = W + PACKED(i, j) * LANES;
#pragma omp simd
                for (int s = 0; s < LANES; s++)
                    wik[s] -= wij[s] * vk[s];
            }
        }
    }
}

/* L D L^T x = b for LANES interleaved right-hand sides (see substitute_). */
BSYM_INLINE
static void PREC(substitute_lanes_)(int64_t n, const T *W, T *X)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j + 1; i < n; i++) {
            const T *l = W + PACKED(i, j) * LANES;
#pragma omp simd
            for (int s = 0; s < LANES; s++)
                X[i * LANES + s] -= l[s] * X[j * LANES + s];
        }
    for (int64_t j = 0; j < n; j++)
#pragma omp simd
        for (int s = 0; s < LANES; s++)
            X[j * LANES + s] /= W[PACKED(j, j) * LANES + s];
    for (int64_t j = n - 1; j >= 0; j--)
        for (int64_t i = j + 1; i < n; i++) {
            const T *l = W + PACKED(i, j) * LANES;
#pragma omp simd
            for (int s = 0; s < LANES; s++)
                X[j * LANES + s] -= l[s] * X[i * LANES + s];
        }
}

/* Solves systems [0, m) (m <= LANES) starting at A, B; work holds
 * (n*(n+1)/2 + n + n*nrhs) * LANES elements. */
BSYM_INLINE
static void PREC(solve_lanes_)(char uplo, int64_t n, int64_t nrhs, int m, const T *A, T *B,
                                        int *info, T *work)
{
    T *W = work, *v = W + n * (n + 1) / 2 * LANES, *X = v + n * LANES;
    T amax[LANES], tol[LANES];
    int bad[LANES], inf[LANES];
    PREC(pack_lanes_)(uplo, n, nrhs, m, A, B, W, X, amax, bad);
    for (int s = 0; s < LANES; s++) {
        tol[s] = (T)n * EPS * amax[s];
        inf[s] = 0;
    }
    PREC(factor_lanes_)(n, W, tol, v, inf);
    for (int64_t c = 0; c < nrhs; c++)
        PREC(substitute_lanes_)(n, W, X + c * n * LANES);
    for (int s = 0; s < m; s++) {
        info[s] = bad[s] ? -1 : inf[s];
        for (int64_t e = 0; e < n * nrhs; e++)
            B[s * n * nrhs + e] = info[s] ? (T)NAN : X[e * LANES + s];
    }
}
/* The same, compiled for AVX2 + FMA (x86-64), and the choice at run time. */
#ifdef BSYM_X86_DISPATCH
BSYM_TARGET_AVX2 static void PREC(solve_lanes_avx2_)(
    char uplo, int64_t n, int64_t nrhs, int m, const T *A, T *B, int *info, T *work)
{
    PREC(solve_lanes_)(uplo, n, nrhs, m, A, B, info, work);
}
#endif
static void PREC(solve_lanes_any_)(int avx2, char uplo, int64_t n, int64_t nrhs, int m,
                                            const T *A, T *B, int *info, T *work)
{
#ifdef BSYM_X86_DISPATCH
    if (avx2) {
        PREC(solve_lanes_avx2_)(uplo, n, nrhs, m, A, B, info, work);
        return;
    }
#endif
    (void)avx2;
    PREC(solve_lanes_)(uplo, n, nrhs, m, A, B, info, work);
}
#undef LANES
#undef PACKED

/* Systems [0, count) of a batch, OpenMP over the batch (over groups of
 * BSYM_CPU_LANES systems when n is small). Returns 0, or -1 when a thread's
 * workspace could not be allocated (nothing is then promised). */
int PREC(bsym__ldlt_cpu_)(char uplo, int64_t n, int64_t nrhs, int64_t count,
                                   const T *A, T *B, int *info, int threads)
{
    const int lanes = n <= BSYM_CPU_LANES_MAX_N ? BSYM_CPU_LANES : 1;
    const int64_t groups = (count + lanes - 1) / lanes;
    const size_t work = (size_t)(n * n + n + (lanes > 1 ? n * nrhs : 0)) * (size_t)lanes;
    const int avx2 = bsym__cpu_has_avx2_fma();
    int nomem = 0;
#pragma omp parallel num_threads(bsym__team(groups, threads))
    {
        T *W = malloc(work * sizeof(T));
        if (W == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
#pragma omp for schedule(static)
            for (int64_t g = 0; g < groups; g++) {
                const int64_t k = g * lanes;
                if (lanes > 1) {
                    int m = count - k < lanes ? (int)(count - k) : lanes;
                    PREC(solve_lanes_any_)(avx2, uplo, n, nrhs, m, A + k * n * n,
                                                    B + k * n * nrhs, info + k, W);
                } else {
                    info[k] = PREC(solve_one_)(uplo, n, nrhs, A + k * n * n,
                                                        B + k * n * nrhs, W, W + n * n);
                }
            }
        }
        free(W);
    }
    return nomem ? -1 : 0;
}

