/*
 * eigen_lanes_impl.h -- the CPU eigensolver of small n, SIMD across the
 * batch (bsym_*syev, bsym_*stev for n <= BSYM_CPU_EIG_LANES_MAX_N).
 *
 * EL_W systems (EL_VECS 64-byte vectors: 32 doubles or 64 floats) run
 * together in a tile whose entries are interleaved, entry p of lane s at
 * X[p * EL_W + s] (the house pattern of ldlt_impl.h), so that every
 * arithmetic statement is a loop over the lanes that vectorizes. Four
 * vectors rather than one: a QL sweep is a chain of dependent divisions and
 * square roots, and four independent chains hide their latency (measured
 * at n = 32, AVX-512: values 1.9x, vectors 1.3x faster than one vector). Lanes past the end of the batch, and
 * lanes with non-finite input, hold a zero matrix whose results are dropped.
 * Per tile:
 *   1. load: the referenced triangle of each A into a packed lower triangle,
 *      each lane scaled by an exact power of two so that max|a| is in
 *      [1/2, 1) (householder_impl.h's normalization); or d and e;
 *   2. Householder tridiagonalization A = Q T Q^T, the algorithm of
 *      householder_impl.h (the same operations in every lane: it is
 *      uniform), and Q by backward accumulation when vectors are wanted
 *      (else Z = I for tridiagonal input with vectors);
 *   3. T scaled once more per lane (max|T| in [1/2, 1), entries below
 *      sqrt(TMIN) zeroed, as te_scale_ of tridiag_eig_impl.h);
 *   4. implicit QL with Wilkinson's shift (LAPACK's xSTEQR, its QL branch),
 *      each lane on its own unreduced block [l, m]: a sweep runs over the
 *      union of the lanes' blocks, and a lane outside its block takes the
 *      identity rotation and keeps its state. The rotations of a sweep are
 *      then applied to Z, which ends as the eigenvectors (of A or of T);
 *      values only: no Z, O(n^2) per system;
 *   5. per lane: values sorted ascending, the selection, outputs unscaled.
 * Included by eigen.c once per precision (T, PREC ... from prec_*.h), after
 * cpu_simd.h; its driver is bsym__eig_cpu_ (eigen_impl.h).
 */
#ifndef EL_VECS
#define EL_VECS 4 /* 64-byte vectors per tile: independent chains in QL */
#endif
#define EL_V ((int)(64 / sizeof(T))) /* lanes of one vector */
#define EL_W (EL_VECS * EL_V)        /* lanes of a tile */
#define EL_TILE PREC(el_tile_t_)
/* one 64-byte vector of lanes as GCC's vector type (the tile's arrays are
 * 64-byte aligned) */
typedef T PREC(el_vt_) __attribute__((vector_size(64), may_alias));
#define EL_VT PREC(el_vt_)
/* a loop over the lanes, vectorized */
#define EL_LANES(s) _Pragma("omp simd") for (int s = 0; s < EL_W; s++)
/* offset of (i, j), i >= j, in the column-packed lower triangle of order n */
#define EL_PK(i, j) ((j) * (2 * n - (j) + 1) / 2 + (i) - (j))

/* One tile's workspace (pointers into one thread's memory, each array a
 * multiple of EL_W elements, so 64-byte aligned when the memory is). */
typedef struct {
    int n;
    T *P;           /* n(n+1)/2: the packed lower triangle, then reflectors */
    T *Z;           /* n x n, column-major: Q, then the eigenvectors; NULL:
                       values only                                          */
    T *d, *e;       /* n, n: T (e[n-1] = 0), then the eigenvalues in d      */
    T *tau, *p;     /* n, n: reflector factors; Householder scratch         */
    T *rc, *rs;     /* n, n: the rotations of one QL sweep                  */
    T *rc2, *rs2;   /* n, n: those of the next, applied to Z with them      */
    uint64_t *neg;  /* ceil(n/64) words: bit i set where e[i] is negligible */
    int *perm;      /* n: the ascending order of each lane's values         */
    int *dst;       /* n: each lane's output column of each column of Z     */
    int ex[EL_W];   /* per lane: the values are 2^ex times d                */
    int bad[EL_W];  /* per lane: 1 when the input is not finite             */
    int fail[EL_W]; /* per lane: 0, or 1 + the first unconverged value      */
    int stream;     /* 1: vectors out by non-temporal stores (a large V)    */
} EL_TILE;

/* Systems per tile. */
static int PREC(el_width_)(void)
{
    return EL_W;
}

/* Elements of T, and bytes of the rest, of one tile's workspace. */
static size_t PREC(el_work_t_)(int n, int vectors)
{
    const size_t nn = (size_t)n * (size_t)n;
    return ((size_t)n * ((size_t)n + 1) / 2 + (vectors ? nn : 0) + 8 * (size_t)n) * EL_W;
}
static size_t PREC(el_work_bytes_)(int n)
{
    return (((size_t)n + 63) / 64 * sizeof(uint64_t) + 2 * (size_t)n * sizeof(int)) * EL_W;
}

/* Carves a tile out of wt (el_work_t_ elements) and wb (el_work_bytes_). */
static void PREC(el_carve_)(EL_TILE *t, int n, int vectors, T *wt, void *wb)
{
    t->n = n;
    t->stream = 0;
    t->P = wt;
    wt += (size_t)n * (n + 1) / 2 * EL_W;
    t->Z = vectors ? wt : NULL;
    wt += vectors ? (size_t)n * n * EL_W : 0;
    T **v[] = {&t->d, &t->e, &t->tau, &t->p, &t->rc, &t->rs, &t->rc2, &t->rs2};
    for (int i = 0; i < 8; i++)
        *v[i] = wt + (size_t)i * n * EL_W;
    t->neg = wb;
    t->perm = (int *)(t->neg + ((size_t)n + 63) / 64 * EL_W);
    t->dst = t->perm + (size_t)n * EL_W;
}

/* The two normal powers of two whose product is 2^e (|e| may exceed the
 * exponent range of one). */
static void PREC(el_pow2_)(int e, T *s1, T *s2)
{
    *s1 = LDEXP((T)1, e / 2);
    *s2 = LDEXP((T)1, e - e / 2);
}

/* x[0 .. EL_W) = sqrt(x), one vector at a time through sq (cpu_simd.h). */
BSYM_INLINE static void PREC(el_sqrt_)(PREC(bsym__sqrt64_) sq, T *x)
{
    for (int v = 0; v < EL_VECS; v++)
        sq(x + v * EL_V);
}

/* 8 x 8 blocks between the tile's interleaved layout and the systems' own
 * (the load of 'L' input, the output of vectors): 8 vectors of 8 lanes
 * transposed in registers (GCC's and Clang's __builtin_shufflevector; else
 * the scalar copies below are used). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define EL_TRANSPOSE 1
#endif
#endif
#ifdef EL_TRANSPOSE
typedef T PREC(el_v8_) __attribute__((vector_size(8 * sizeof(T))));
#define EL_V8 PREC(el_v8_)
/* r[k][l] -> r[l][k] */
BSYM_INLINE static void PREC(el_tr8_)(EL_V8 r[8])
{
    EL_V8 a[8], b[8];
    for (int k = 0; k < 8; k += 2) {
        a[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 8, 2, 10, 4, 12, 6, 14);
        a[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
    for (int k = 0; k < 8; k += 4)
        for (int q = 0; q < 2; q++) {
            b[k + q] = __builtin_shufflevector(a[k + q], a[k + q + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            b[k + q + 2] =
                __builtin_shufflevector(a[k + q], a[k + q + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int q = 0; q < 4; q++) {
        r[q] = __builtin_shufflevector(b[q], b[q + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[q + 4] = __builtin_shufflevector(b[q], b[q + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}
#endif

/* ---- 1. load --------------------------------------------------------------- */

/* Lanes [0, m) from A (the uplo triangle of m matrices n x n), zero beyond;
 * flags non-finite lanes (zeroed too), then scales each lane by 2^-ex[s]
 * with max|a| in [1/2, 1). 'L': 8 systems at a time, 8 entries of a column
 * of each read and transposed (el_tr8_) into 8 rows of the tile; else one
 * system at a time, so that the reads run along its columns. Then the
 * checks in every lane at once (v * 0 is NaN exactly when v is not
 * finite). */
BSYM_INLINE static void PREC(el_load_full_)(EL_TILE *t, char uplo, int m, const T *A)
{
    const int n = t->n, np = n * (n + 1) / 2;
    T *P = t->P, s1[EL_W], s2[EL_W], mx[EL_W], chk[EL_W];
    const size_t nn = (size_t)n * n;
#ifdef EL_TRANSPOSE
    if (uplo == 'L') {
        for (int g = 0; g < EL_W; g += 8)
            for (int j = 0; j < n; j++) {
                T *w = P + (size_t)EL_PK(j, j) * EL_W + g;
                const T *a = A + (size_t)g * nn + (size_t)j * n;
                if (n - j < 8) { /* short columns: entry by entry */
                    for (int i = j; i < n; i++)
                        for (int l = 0; l < 8; l++)
                            w[(size_t)(i - j) * EL_W + l] = g + l < m ? a[l * nn + i] : (T)0;
                    continue;
                }
                /* blocks of 8 rows, the last one moved back to end at n */
                for (int i = j;; i += 8) {
                    i = i + 8 > n ? n - 8 : i;
                    EL_V8 r[8];
                    for (int l = 0; l < 8; l++) {
                        if (g + l < m)
                            __builtin_memcpy(&r[l], a + l * nn + i, sizeof r[l]);
                        else
                            r[l] = (EL_V8){0};
                    }
                    PREC(el_tr8_)(r);
                    for (int k = 0; k < 8; k++)
                        __builtin_memcpy(w + (size_t)(i - j + k) * EL_W, &r[k], sizeof r[k]);
                    if (i + 8 >= n)
                        break;
                }
            }
    } else
#endif
    {
        for (int s = 0; s < EL_W; s++) {
            const T *a = A + (size_t)s * nn;
            const int step = uplo == 'L' ? 1 : n; /* down column j, or along row j */
            for (int j = 0; j < n; j++) {
                const T *src = a + j + (size_t)j * n;
                T *w = P + (size_t)EL_PK(j, j) * EL_W + s;
                for (int i = 0; i < n - j; i++)
                    w[(size_t)i * EL_W] = s < m ? src[(size_t)i * step] : (T)0;
            }
        }
    }
    EL_LANES(s) mx[s] = chk[s] = 0;
    for (int p = 0; p < np; p++) {
        const T *x = P + (size_t)p * EL_W;
        EL_LANES(s)
        {
            chk[s] += x[s] * 0;
            mx[s] = FABS(x[s]) > mx[s] ? FABS(x[s]) : mx[s];
        }
    }
    for (int s = 0; s < EL_W; s++) {
        t->bad[s] = s < m && !(chk[s] == 0);
        int ex = 0;
        if (s < m && !t->bad[s] && mx[s] > 0)
            FREXP(mx[s], &ex);
        t->ex[s] = ex;
        PREC(el_pow2_)(-ex, &s1[s], &s2[s]);
        /* a non-finite lane: zero */
        s1[s] = t->bad[s] ? (T)0 : s1[s];
    }
    for (int p = 0; p < np; p++) {
        T *x = P + (size_t)p * EL_W;
        EL_LANES(s) x[s] = s1[s] == 0 ? (T)0 : x[s] * s1[s] * s2[s];
    }
}

/* Lanes [0, m) from d (n per system) and e (n - 1), zero beyond and in the
 * non-finite lanes (flagged); e[n-1] = 0. The scaling is step 3's. */
BSYM_INLINE static void PREC(el_load_tri_)(EL_TILE *t, int m, const T *d, const T *e)
{
    const int n = t->n;
    for (int s = 0; s < EL_W; s++) {
        T chk = 0;
        for (int i = 0; i < n; i++) {
            const T di = s < m ? d[(size_t)s * n + i] : (T)0;
            const T ei = s < m && i + 1 < n ? e[(size_t)s * (n - 1) + i] : (T)0;
            t->d[(size_t)i * EL_W + s] = di;
            t->e[(size_t)i * EL_W + s] = ei;
            chk += di * 0 + ei * 0;
        }
        t->bad[s] = !(chk == 0);
        t->ex[s] = 0;
        for (int i = 0; i < n && t->bad[s]; i++)
            t->d[(size_t)i * EL_W + s] = t->e[(size_t)i * EL_W + s] = 0;
    }
}

/* ---- 2. Householder tridiagonalization ------------------------------------- */

#include "reflector_impl.h" /* PREC(refl_rescale_) */

/* Reduces the packed lower triangle P (normalized) to tridiagonal form, in
 * every lane as hh_reduce_ of householder_impl.h: for k = 0 .. n-3 the
 * reflector H_k = I - tau_k v_k v_k^T (v_k[0] = 1) annihilates P[k+2:n, k],
 * v_k kept in P[k+1:n, k]; the trailing block S = P[k+1:n, k+1:n] becomes
 *   S - v w^T - w v^T,  w = p - (tau/2)(p.v) v,  p = tau S v.
 * A lane whose x[1:] is zero gets tau = 0 (H = I). d, e: the result
 * (e[n-1] = 0); tau: the factors. sq: the square roots of one vector
 * (cpu_simd.h), here and below. */
BSYM_INLINE static void PREC(el_reduce_)(EL_TILE *t, PREC(bsym__sqrt64_) sq)
{
    const int n = t->n;
    T *P = t->P, *d = t->d, *e = t->e, *tau = t->tau, *pv = t->p;
    for (int k = 0; k + 2 < n; k++) {
        const int m = n - k - 1;
        T *x = P + (size_t)EL_PK(k + 1, k) * EL_W; /* rows k+1 .. n-1 of column k */
        T sig[EL_W], r[EL_W], tk[EL_W], K[EL_W];
        EL_LANES(s) sig[s] = 0;
        for (int i = 1; i < m; i++) {
            const T *xi = x + (size_t)i * EL_W;
            EL_LANES(s) sig[s] += xi[s] * xi[s];
        }
        EL_LANES(s) K[s] = sig[s];
        const T *dk = P + (size_t)EL_PK(k, k) * EL_W;
        EL_LANES(s) sig[s] += x[s] * x[s];
        /* a lane below TMIN / EPS: alpha and sigma of x / 2^e instead
         * (reflector_impl.h: squares that lost digits to underflow would
         * leave tau off v); sc = 2^e, else 1 */
        T sc[EL_W], al[EL_W];
        int small = 0;
        EL_LANES(s)
        {
            sc[s] = 1;
            al[s] = x[s];
        }
#pragma omp simd reduction(| : small)
        for (int s = 0; s < EL_W; s++)
            small |= sig[s] < (T)TMIN / EPS;
        if (small)
            for (int s = 0; s < EL_W; s++) {
                sc[s] = PREC(refl_rescale_)(m, x + s, EL_W, &al[s], &K[s]);
                sig[s] = K[s] + al[s] * al[s];
            }
        PREC(el_sqrt_)(sq, sig); /* sqrt(alpha^2 + sigma); sigma = |x[1:]|^2 in K */
        EL_LANES(s)
        {
            const T alpha = al[s], beta = -COPYSIGN(sig[s], alpha);
            const int z = K[s] == 0;
            tk[s] = z ? (T)0 : (beta - alpha) / beta;
            r[s] = z ? (T)1 : (T)1 / ((alpha - beta) * sc[s]); /* |alpha - beta| >= sqrt(sig) */
            d[(size_t)k * EL_W + s] = dk[s];
            e[(size_t)k * EL_W + s] = z ? x[s] : beta * sc[s];
            tau[(size_t)k * EL_W + s] = tk[s];
            x[s] = 1;
        }
        for (int i = 1; i < m; i++) {
            T *xi = x + (size_t)i * EL_W;
            EL_LANES(s) xi[s] *= r[s];
        }
        /* p = S v: column j of S (rows j .. m-1, packed from its diagonal)
         * adds S[j:, j] v_j to p[j:] and the dot S[j+1:, j] . v[j+1:] to p[j] */
        for (int i = 0; i < m; i++) {
            T *pi = pv + (size_t)i * EL_W;
            EL_LANES(s) pi[s] = 0;
        }
        for (int j = 0; j < m; j++) {
            const T *col = P + (size_t)EL_PK(k + 1 + j, k + 1 + j) * EL_W - (size_t)j * EL_W;
            const T *vj = x + (size_t)j * EL_W;
            T acc[EL_W];
            EL_LANES(s) acc[s] = col[(size_t)j * EL_W + s] * vj[s];
            for (int i = j + 1; i < m; i++) {
                const T *c = col + (size_t)i * EL_W, *vi = x + (size_t)i * EL_W;
                T *pi = pv + (size_t)i * EL_W;
                EL_LANES(s)
                {
                    pi[s] += c[s] * vj[s];
                    acc[s] += c[s] * vi[s];
                }
            }
            T *pj = pv + (size_t)j * EL_W;
            EL_LANES(s) pj[s] += acc[s];
        }
        /* p *= tau; K = (tau/2)(p.v); w = p - K v (in p) */
        EL_LANES(s) K[s] = 0;
        for (int i = 0; i < m; i++) {
            T *pi = pv + (size_t)i * EL_W;
            const T *vi = x + (size_t)i * EL_W;
            EL_LANES(s)
            {
                pi[s] *= tk[s];
                K[s] += pi[s] * vi[s];
            }
        }
        EL_LANES(s) K[s] *= tk[s] / 2;
        for (int i = 0; i < m; i++) {
            T *pi = pv + (size_t)i * EL_W;
            const T *vi = x + (size_t)i * EL_W;
            EL_LANES(s) pi[s] -= K[s] * vi[s];
        }
        /* S -= v w^T + w v^T (lower triangle): one vector of lanes at a
         * time (its share of S stays in L1), two columns at a time */
        for (int u = 0; u < EL_VECS; u++) {
            const EL_VT *xv = (const EL_VT *)x + u, *wv = (const EL_VT *)pv + u;
            int j = 0;
            for (; j < m; j += 2) {
                const int two = j + 1 < m;
                EL_VT *c0 = (EL_VT *)(P + (size_t)EL_PK(k + 1 + j, k + 1 + j) * EL_W) + u;
                EL_VT *c1 = two ? (EL_VT *)(P + (size_t)EL_PK(k + 2 + j, k + 2 + j) * EL_W) + u
                                : c0;
                const EL_VT vj0 = xv[(size_t)j * EL_VECS], wj0 = wv[(size_t)j * EL_VECS];
                c0[0] -= xv[(size_t)j * EL_VECS] * wj0 + wv[(size_t)j * EL_VECS] * vj0;
                if (!two)
                    break;
                const EL_VT vj1 = xv[(size_t)(j + 1) * EL_VECS], wj1 = wv[(size_t)(j + 1) * EL_VECS];
                for (int i = j + 1; i < m; i++) {
                    const EL_VT vi = xv[(size_t)i * EL_VECS], wi = wv[(size_t)i * EL_VECS];
                    c0[(size_t)(i - j) * EL_VECS] -= vi * wj0 + wi * vj0;
                    c1[(size_t)(i - j - 1) * EL_VECS] -= vi * wj1 + wi * vj1;
                }
            }
        }
    }
    /* the last 2 x 2 block (n >= 2) and the last diagonal entry */
    for (int k = n >= 2 ? n - 2 : 0; k < n; k++) {
        const T *dk = P + (size_t)EL_PK(k, k) * EL_W, *ek = k + 1 < n ? dk + EL_W : NULL;
        EL_LANES(s)
        {
            d[(size_t)k * EL_W + s] = dk[s];
            e[(size_t)k * EL_W + s] = ek != NULL ? ek[s] : (T)0;
        }
    }
}

/* Z = I (n x n in every lane). */
BSYM_INLINE static void PREC(el_identity_)(EL_TILE *t)
{
    const int n = t->n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            T *z = t->Z + ((size_t)i + (size_t)j * n) * EL_W;
            EL_LANES(s) z[s] = i == j ? (T)1 : (T)0;
        }
}

/* H_k (reflector vk, factors tk) on the columns [j, j + cb) of Z, rows
 * k+1 .. n-1 (m of them): cb columns at a time, so that each entry of vk
 * loaded serves cb of them. cb: 4 or 1, a constant at each call. */
BSYM_INLINE static void PREC(el_reflect_cols_)(EL_TILE *t, int k, int j, const int cb)
{
    const int n = t->n, m = n - k - 1;
    const size_t col = (size_t)n * EL_VECS;
    const EL_VT *vk = (const EL_VT *)(t->P + (size_t)EL_PK(k + 1, k) * EL_W);
    const EL_VT *tk = (const EL_VT *)(t->tau + (size_t)k * EL_W);
    EL_VT *c = (EL_VT *)t->Z + (size_t)(k + 1) * EL_VECS + (size_t)j * col, dot[4][EL_VECS];
    for (int q = 0; q < cb; q++)
        for (int v = 0; v < EL_VECS; v++)
            dot[q][v] = (EL_VT){0};
    for (int i = 0; i < m; i++)
        for (int v = 0; v < EL_VECS; v++) {
            const EL_VT x = vk[(size_t)i * EL_VECS + v];
            for (int q = 0; q < cb; q++)
                dot[q][v] += x * c[q * col + (size_t)i * EL_VECS + v];
        }
    for (int q = 0; q < cb; q++)
        for (int v = 0; v < EL_VECS; v++)
            dot[q][v] *= tk[v];
    for (int i = 0; i < m; i++)
        for (int v = 0; v < EL_VECS; v++) {
            const EL_VT x = vk[(size_t)i * EL_VECS + v];
            for (int q = 0; q < cb; q++)
                c[q * col + (size_t)i * EL_VECS + v] -= dot[q][v] * x;
        }
}

/* Z = Q = H_0 H_1 ... H_{n-3} (hh_form_q_ of householder_impl.h): column j
 * of Q is H_k ... H_0 applied to e_j, k from min(j - 1, n - 3) down (H_k
 * leaves rows <= k alone). Four columns at a time, which stay in the L1
 * cache through all their reflectors, each reflector read (from the next
 * level) once for the four: each column its own reflectors down to k = j,
 * then the four together. */
BSYM_INLINE static void PREC(el_form_q_)(EL_TILE *t)
{
    const int n = t->n;
    PREC(el_identity_)(t);
    for (int j = 1; j < n; j += 4) {
        const int cb = n - j < 4 ? n - j : 4;
        for (int q = 1; q < cb; q++)
            for (int k = j + q - 1 < n - 3 ? j + q - 1 : n - 3; k >= j; k--)
                PREC(el_reflect_cols_)(t, k, j + q, 1);
        for (int k = j - 1 < n - 3 ? j - 1 : n - 3; k >= 0; k--) {
            if (cb == 4)
                PREC(el_reflect_cols_)(t, k, j, 4);
            else
                for (int q = 0; q < cb; q++)
                    PREC(el_reflect_cols_)(t, k, j + q, 1);
        }
    }
}

/* ---- 3. scaling of T ------------------------------------------------------- */

/* Scales each lane's T by 2^-x, max|T| in [1/2, 1) (ex[s] += x), and zeroes
 * the scaled entries below sqrt(TMIN), as te_scale_ does: far below eps of
 * ||T||, and no subnormal number reaches the iteration. */
BSYM_INLINE static void PREC(el_scale_t_)(EL_TILE *t)
{
    const int n = t->n;
    T amax[EL_W], s1[EL_W], s2[EL_W];
    EL_LANES(s) amax[s] = 0;
    for (int i = 0; i < n; i++) {
        const T *di = t->d + (size_t)i * EL_W, *ei = t->e + (size_t)i * EL_W;
        EL_LANES(s)
        {
            amax[s] = FABS(di[s]) > amax[s] ? FABS(di[s]) : amax[s];
            amax[s] = FABS(ei[s]) > amax[s] ? FABS(ei[s]) : amax[s];
        }
    }
    for (int s = 0; s < EL_W; s++) {
        int x = 0;
        if (amax[s] > 0)
            FREXP(amax[s], &x);
        t->ex[s] += x;
        PREC(el_pow2_)(-x, &s1[s], &s2[s]);
    }
    const T tiny = SQRT((T)TMIN);
    for (int i = 0; i < n; i++) {
        T *di = t->d + (size_t)i * EL_W, *ei = t->e + (size_t)i * EL_W;
        EL_LANES(s)
        {
            const T x = di[s] * s1[s] * s2[s], y = ei[s] * s1[s] * s2[s];
            di[s] = FABS(x) < tiny ? (T)0 : x;
            ei[s] = FABS(y) < tiny ? (T)0 : y;
        }
    }
}

/* ---- 4. implicit QL -------------------------------------------------------- */

/* neg: bit i of lane s set where e[i] of lane s is negligible (LAPACK's test
 * e_i^2 <= eps^2 |d_i| |d_i+1| + TMIN), and for i = n-1; bits below from
 * (no lane's l is below it) clear. A negligible e[i] is set to 0 here: as
 * the iteration would once l reaches i (e[l..m-1] of a lane's block are not
 * negligible, those below l are 0 already, and those past m do not change
 * while the lane works on [l, m]). */
BSYM_INLINE static void PREC(el_negligible_)(EL_TILE *t, int from)
{
    const int n = t->n, words = (n + 63) / 64;
    const T eps2 = EPS * EPS;
    for (int w = 0; w < words; w++) {
        uint64_t *nw = t->neg + (size_t)w * EL_W;
        EL_LANES(s) nw[s] = 0;
        for (int i = w * 64 > from ? w * 64 : from; i < n && i < w * 64 + 64; i++) {
            const T *di = t->d + (size_t)i * EL_W, *dn = i + 1 < n ? di + EL_W : di;
            T *ei = t->e + (size_t)i * EL_W;
            const uint64_t bit = (uint64_t)1 << (i - w * 64);
            EL_LANES(s)
            {
                const int small = ei[s] * ei[s] <= eps2 * FABS(di[s]) * FABS(dn[s]) + (T)TMIN;
                nw[s] |= small || i == n - 1 ? bit : (uint64_t)0;
                ei[s] = small ? (T)0 : ei[s];
            }
        }
    }
}

/* The first i >= l with bit i of lane s set in neg (l < n; bit n-1 is set). */
static int PREC(el_next_split_)(const EL_TILE *t, int s, int l)
{
    for (int w = l / 64;; w++) {
        uint64_t b = t->neg[(size_t)w * EL_W + s];
        if (w == l / 64)
            b &= ~(uint64_t)0 << (l % 64);
        if (b != 0)
            return w * 64 + __builtin_ctzll(b);
    }
}

/* The rotations (rc[i], rs[i]), i = hi .. lo, of a sweep applied to the
 * columns (i, i+1) of Z, rows [r0, r0 + rb): column i+1 becomes rs x + rc y
 * and column i rc x - rs y (x, y the old columns i, i+1). Row by row, the
 * column being rotated into stays in registers (y, in GCC's vector type,
 * which unlike a lane array the compiler keeps there): one load and one
 * store per rotation and row. rb is a constant at each call (4 or 1). */
BSYM_INLINE static void PREC(el_rotate_rows_)(EL_TILE *t, int r0, const int rb, int lo, int hi)
{
    const size_t col = (size_t)t->n * EL_VECS;
    EL_VT *z = (EL_VT *)t->Z + (size_t)r0 * EL_VECS, y[4][EL_VECS];
    for (int q = 0; q < rb; q++)
        for (int v = 0; v < EL_VECS; v++)
            y[q][v] = z[(size_t)(hi + 1) * col + (size_t)q * EL_VECS + v];
    for (int i = hi; i >= lo; i--) {
        const EL_VT *rc = (const EL_VT *)t->rc + (size_t)i * EL_VECS;
        const EL_VT *rs = (const EL_VT *)t->rs + (size_t)i * EL_VECS;
        EL_VT *zi = z + (size_t)i * col, *zi1 = zi + col;
        for (int q = 0; q < rb; q++)
            for (int v = 0; v < EL_VECS; v++) {
                const EL_VT xv = zi[q * EL_VECS + v], yv = y[q][v];
                zi1[q * EL_VECS + v] = rs[v] * xv + rc[v] * yv;
                y[q][v] = rc[v] * xv - rs[v] * yv;
            }
    }
    for (int q = 0; q < rb; q++)
        for (int v = 0; v < EL_VECS; v++)
            z[(size_t)lo * col + (size_t)q * EL_VECS + v] = y[q][v];
}

/* Two sweeps' rotations on Z, rows [r0, r0 + rb) of lane vector v: first
 * (rc, rs), then (rc2, rs2), each i = hi .. lo as el_rotate_rows_
 * (identities where a sweep did not reach). In one pass, as a wavefront:
 * the first sweep's rotation i makes column i+1 final for it, and the
 * second's rotation i+1 takes it from registers at once (it commutes with
 * the first's rotations below i); the two columns being rotated into stay
 * in registers. One load and one store per two rotations and row; one
 * vector of lanes at a time, so that the four rotation factors of a step
 * stay in registers across the rb rows. rb: 8 or 1, a constant at each
 * call. */
BSYM_INLINE static void PREC(el_rotate2_rows_)(EL_TILE *t, int v, int r0, const int rb, int lo,
                                               int hi)
{
    const size_t col = (size_t)t->n * EL_VECS;
    EL_VT *z = (EL_VT *)t->Z + (size_t)r0 * EL_VECS + v, ya[8], yb[8];
    const EL_VT *rc = (const EL_VT *)t->rc + v, *rs = (const EL_VT *)t->rs + v;
    const EL_VT *rc2 = (const EL_VT *)t->rc2 + v, *rs2 = (const EL_VT *)t->rs2 + v;
    /* i = hi: the first sweep only */
    {
        const EL_VT ca = rc[(size_t)hi * EL_VECS], sa = rs[(size_t)hi * EL_VECS];
        const EL_VT *zi = z + (size_t)hi * col, *zi1 = zi + col;
        for (int q = 0; q < rb; q++) {
            const EL_VT xv = zi[q * EL_VECS], yv = zi1[q * EL_VECS];
            yb[q] = sa * xv + ca * yv;
            ya[q] = ca * xv - sa * yv;
        }
    }
    for (int i = hi - 1; i >= lo; i--) {
        const EL_VT ca = rc[(size_t)i * EL_VECS], sa = rs[(size_t)i * EL_VECS];
        const EL_VT cb = rc2[(size_t)(i + 1) * EL_VECS], sb = rs2[(size_t)(i + 1) * EL_VECS];
        const EL_VT *zi = z + (size_t)i * col;
        EL_VT *zi2 = z + (size_t)(i + 2) * col;
        for (int q = 0; q < rb; q++) {
            const EL_VT xv = zi[q * EL_VECS], yv = ya[q], wv = yb[q];
            const EL_VT na = sa * xv + ca * yv;
            ya[q] = ca * xv - sa * yv;
            zi2[q * EL_VECS] = sb * na + cb * wv;
            yb[q] = cb * na - sb * wv;
        }
    }
    {
        const EL_VT cb = rc2[(size_t)lo * EL_VECS], sb = rs2[(size_t)lo * EL_VECS];
        EL_VT *zl = z + (size_t)lo * col, *zl1 = zl + col;
        for (int q = 0; q < rb; q++) {
            const EL_VT xv = ya[q], yv = yb[q];
            zl1[q * EL_VECS] = sb * xv + cb * yv;
            zl[q * EL_VECS] = cb * xv - sb * yv;
        }
    }
}

/* rc, rs = the identity at i in [a, b) */
BSYM_INLINE static void PREC(el_rot_identity_)(T *rc, T *rs, int a, int b)
{
    for (int i = a; i < b; i++) {
        T *c = rc + (size_t)i * EL_W, *sn = rs + (size_t)i * EL_W;
        EL_LANES(s)
        {
            c[s] = 1;
            sn[s] = 0;
        }
    }
}

/* Eigenvalues of every lane's (scaled) T into d, by implicit QL with
 * Wilkinson's shift (LAPACK's xSTEQR, QL branch), the rotations applied to Z
 * (when not NULL). Each lane iterates on its own unreduced block [l, m]
 * (l: the first value not yet found): where e[l] is negligible, d[l] is an
 * eigenvalue and l moves on. A lane needing more than 30 n sweeps fails
 * (fail[s] = l + 1). */
BSYM_INLINE static void PREC(el_ql_)(EL_TILE *t, PREC(bsym__sqrt64_) sq)
{
    const int n = t->n, maxit = 30 * n;
    T *d = t->d, *e = t->e;
    int l[EL_W], mm[EL_W], act[EL_W], it[EL_W];
    for (int s = 0; s < EL_W; s++) {
        l[s] = it[s] = 0;
        t->fail[s] = 0;
    }
    /* a sweep's rotations wait in rc, rs (pend, over [plo, phi]) to go to
     * Z with the next sweep's (rc2, rs2) */
    int pend = 0, plo = 0, phi = -1;
    for (;;) {
        /* each lane: the next unreduced block, from the negligible e's */
        int from = n;
        for (int s = 0; s < EL_W; s++)
            from = l[s] < from ? l[s] : from;
        PREC(el_negligible_)(t, from);
        int lo = n, hi = -1;
        for (int s = 0; s < EL_W; s++) {
            int ls = l[s], ms = n;
            if (n <= 64) { /* one word: the run of negligible e's from ls */
                const uint64_t b = t->neg[s] >> ls, nb = ~b;
                const int nl = ls + (nb == 0 ? 64 : __builtin_ctzll(nb));
                ls = nl < n - 1 ? nl : n - 1; /* d[ls..nl) are eigenvalues (e = 0) */
                ms = ls + __builtin_ctzll(t->neg[s] >> ls); /* bit n-1 is set */
            } else {
                while (ls < n - 1 && (ms = PREC(el_next_split_)(t, s, ls)) == ls) {
                    e[(size_t)ls * EL_W + s] = 0; /* d[ls] is an eigenvalue */
                    ls++;
                }
            }
            l[s] = ls;
            act[s] = ls < n - 1 && !t->fail[s];
            if (act[s] && it[s] >= maxit) {
                t->fail[s] = ls + 1;
                act[s] = 0;
            }
            if (!act[s])
                continue;
            it[s]++;
            e[(size_t)ms * EL_W + s] = 0; /* the split (ms <= n-1) */
            mm[s] = ms;
            lo = ls < lo ? ls : lo;
            hi = ms - 1 > hi ? ms - 1 : hi;
        }
        if (hi < 0)
            break;
        T *rcw = pend ? t->rc2 : t->rc, *rsw = pend ? t->rs2 : t->rs;
        /* the shift from the block's top 2 x 2 (a lane not active gets
         * harmless numbers): g = d_m - d_l + e_l / (q + sign(q) hypot(q, 1)),
         * q = (d_l+1 - d_l) / (2 e_l); hypot without overflow (e_l may be
         * tiny). lt, mt: the lane's block [l, m) as numbers (-1: none). */
        T g[EL_W], c[EL_W], sn[EL_W], p[EL_W], lt[EL_W], mt[EL_W];
        T dl[EL_W], dl1[EL_W], el[EL_W], dm[EL_W];
        for (int s = 0; s < EL_W; s++) {
            dl[s] = act[s] ? d[(size_t)l[s] * EL_W + s] : (T)0;
            dl1[s] = act[s] ? d[(size_t)(l[s] + 1) * EL_W + s] : (T)1;
            el[s] = act[s] ? e[(size_t)l[s] * EL_W + s] : (T)1;
            dm[s] = act[s] ? d[(size_t)mm[s] * EL_W + s] : (T)0;
            lt[s] = act[s] ? (T)l[s] : (T)-1;
            mt[s] = act[s] ? (T)mm[s] : (T)-1;
        }
        T h[EL_W], f[EL_W], b[EL_W], gx[EL_W], sc[EL_W];
        EL_LANES(s)
        {
            const T q = (dl1[s] - dl[s]) / (2 * el[s]), a = FABS(q), u = a > 1 ? 1 / a : a;
            h[s] = 1 + u * u;
            dl1[s] = q;
        }
        PREC(el_sqrt_)(sq, h);
        EL_LANES(s)
        {
            const T q = dl1[s], a = FABS(q), hy = (a > 1 ? a : (T)1) * h[s];
            g[s] = dm[s] - dl[s] + el[s] / (q + COPYSIGN(hy, q));
            c[s] = sn[s] = 1;
            p[s] = 0;
        }
        /* the sweep, i = m-1 .. l in each lane: the rotation (c, s) with
         * [c s; -s c] [g; f] = [r; 0] (r = 0: the identity), chasing the
         * bulge up. A lane outside its block rotates (1, 0) (g = 1, f = 0)
         * and keeps its state. r = sqrt(f^2 + g^2), unless that is below
         * TMIN / EPS, where a square may have lost digits to underflow:
         * then (rarely) f and g are first divided by max(|f|, |g|). */
        const T safe = (T)TMIN / EPS;
        for (int i = hi; i >= lo; i--) {
            T *di = d + (size_t)i * EL_W, *di1 = di + EL_W, *ei = e + (size_t)i * EL_W;
            T *ei1 = ei + EL_W, *rc = rcw + (size_t)i * EL_W, *rs = rsw + (size_t)i * EL_W;
            const T ti = (T)i;
            int small = 0;
            /* (every operation below is done in every lane, then selected:
             * a conditional one would keep the loop from vectorizing) */
            EL_LANES(s)
            {
                const int in = (ti >= lt[s]) & (ti < mt[s]);
                const T fs = sn[s] * ei[s];
                f[s] = in ? fs : (T)0;
                gx[s] = in ? g[s] : (T)1;
                b[s] = c[s] * ei[s];
                h[s] = f[s] * f[s] + gx[s] * gx[s];
                sc[s] = 1;
            }
#pragma omp simd reduction(| : small)
            for (int s = 0; s < EL_W; s++)
                small |= h[s] < safe;
            if (small)
                EL_LANES(s)
                {
                    const T af = FABS(f[s]), ag = FABS(gx[s]), mx = af > ag ? af : ag;
                    const int lost = h[s] < safe;
                    const T m0 = lost & (mx > 0) ? mx : (T)1;
                    const T fm = f[s] / m0, gm = gx[s] / m0;
                    f[s] = fm;
                    gx[s] = gm;
                    sc[s] = lost ? mx : (T)1;
                    h[s] = fm * fm + gm * gm;
                }
            PREC(el_sqrt_)(sq, h);
            EL_LANES(s)
            {
                const int in = (ti >= lt[s]) & (ti < mt[s]);
                const T r = h[s], ir = 1 / (r > 0 ? r : (T)1);
                const T cg = gx[s] * ir, sf = f[s] * ir;
                const T cn = r > 0 ? cg : (T)1, sg = r > 0 ? sf : (T)0;
                const T gg = di1[s] - p[s];
                const T rr = (di[s] - gg) * sg + 2 * cn * b[s];
                const T pp = sg * rr, rsc = sc[s] * r, dn = gg + pp, gn = cn * rr - b[s];
                ei1[s] = in & (ti + 1 < mt[s]) ? rsc : ei1[s];
                di1[s] = in ? dn : di1[s];
                g[s] = in ? gn : g[s];
                p[s] = in ? pp : p[s];
                c[s] = in ? cn : c[s];
                sn[s] = in ? sg : sn[s];
                rc[s] = cn;
                rs[s] = sg;
            }
        }
        for (int s = 0; s < EL_W; s++)
            if (act[s]) {
                d[(size_t)l[s] * EL_W + s] -= p[s];
                e[(size_t)l[s] * EL_W + s] = g[s];
            }
        /* the rotations on Z's columns (i, i+1), in the same order: every
         * second sweep, those of two sweeps together */
        if (t->Z != NULL && !pend) {
            pend = 1;
            plo = lo;
            phi = hi;
        } else if (t->Z != NULL) {
            const int a = plo < lo ? plo : lo, z = phi > hi ? phi : hi;
            PREC(el_rot_identity_)(t->rc, t->rs, a, plo);
            PREC(el_rot_identity_)(t->rc, t->rs, phi + 1, z + 1);
            PREC(el_rot_identity_)(t->rc2, t->rs2, a, lo);
            PREC(el_rot_identity_)(t->rc2, t->rs2, hi + 1, z + 1);
            for (int v = 0; v < EL_VECS; v++) {
                int r0 = 0;
                for (; r0 + 8 <= n; r0 += 8)
                    PREC(el_rotate2_rows_)(t, v, r0, 8, a, z);
                for (; r0 < n; r0++)
                    PREC(el_rotate2_rows_)(t, v, r0, 1, a, z);
            }
            pend = 0;
        }
    }
    if (pend) {
        int r0 = 0;
        for (; r0 + 4 <= n; r0 += 4)
            PREC(el_rotate_rows_)(t, r0, 4, plo, phi);
        for (; r0 < n; r0++)
            PREC(el_rotate_rows_)(t, r0, 1, plo, phi);
    }
}

/* ---- 5. output ------------------------------------------------------------- */

/* Lanes [0, m) out to systems [0, m): info (-1 non-finite, fail, or 0),
 * the selected values ascending (unscaled) into w (n per system, NaN past
 * the count), vectors into V (n x n per system, or NULL), the count into
 * cnt (or NULL). Selection as te_select_range_ / te_dc_select_ of
 * tridiag_eig_impl.h: an index range, or the computed values in (vl, vu].
 * The vectors: column c of Z goes to column dst[c] of the lane's V (-1:
 * not selected), 8 lanes and 8 rows at a time through el_tr8_ (n >= 8). */
BSYM_INLINE static void PREC(el_output_)(EL_TILE *t, int m, const bsym_select *sel, T *w, T *V,
                                         int *cnt, int *info, PREC(bsym__stream8_) st)
{
    const int n = t->n;
    const size_t nn = (size_t)n * n;
    /* the rank of each value in its lane (ties by index: a stable sort),
     * every lane at once, counted in T (exact) in the scratch p */
    for (int j = 0; j < n; j++) {
        const T *dj = t->d + (size_t)j * EL_W;
        T *rk = t->p + (size_t)j * EL_W;
        EL_LANES(s) rk[s] = 0;
        for (int i = 0; i < j; i++) {
            const T *di = t->d + (size_t)i * EL_W;
            EL_LANES(s) rk[s] += di[s] <= dj[s] ? (T)1 : (T)0;
        }
        for (int i = j + 1; i < n; i++) {
            const T *di = t->d + (size_t)i * EL_W;
            EL_LANES(s) rk[s] += di[s] < dj[s] ? (T)1 : (T)0;
        }
    }
    for (int s = 0; s < m; s++) {
        const T *d = t->d + s;
        int *perm = t->perm + (size_t)s * n, *dst = t->dst + (size_t)s * n;
        info[s] = t->bad[s] ? -1 : t->fail[s];
        /* the ascending order from the ranks (a permutation unless a value
         * is NaN: then only in range) */
        for (int j = 0; j < n; j++)
            perm[j] = j;
        for (int j = 0; j < n; j++) {
            const int r = (int)t->p[(size_t)j * EL_W + s];
            perm[r < n ? r : n - 1] = j;
        }
        T s1, s2;
        PREC(el_pow2_)(t->ex[s], &s1, &s2);
        int first = 0, count = n;
        if (info[s] != 0) {
            count = 0;
        } else if (sel->kind == BSYM_SELECT_INDEX) {
            first = (int)sel->il - 1;
            count = (int)(sel->iu - sel->il + 1);
        } else if (sel->kind == BSYM_SELECT_VALUE) {
            int last = 0;
            for (int j = 0; j < n; j++) {
                const double x = (double)(d[(size_t)j * EL_W] * s1 * s2);
                first += x <= sel->vl;
                last += x <= sel->vu;
            }
            count = last - first;
        }
        T *ws = w + (size_t)s * n;
        for (int j = 0; j < n; j++)
            ws[j] = j < count ? d[(size_t)perm[first + j] * EL_W] * s1 * s2 : (T)NAN;
        for (int j = 0; j < n; j++)
            dst[j] = -1;
        for (int j = 0; j < count; j++)
            dst[perm[first + j]] = j;
        if (cnt != NULL)
            cnt[s] = count;
        if (V != NULL) /* the columns past the count */
            for (size_t i = (size_t)count * n; i < nn; i++)
                V[(size_t)s * nn + i] = (T)NAN;
    }
    if (V == NULL)
        return;
#ifdef EL_TRANSPOSE
    if (n >= 8) {
        /* non-temporal stores need whole aligned blocks of 8 */
        const int nt = t->stream && n % 8 == 0 && (uintptr_t)V % (8 * sizeof(T)) == 0;
        for (int g = 0; g < m; g += 8)
            for (int c = 0; c < n; c++) {
                int dc[8], any = 0;
                for (int l = 0; l < 8; l++) {
                    dc[l] = g + l < m ? t->dst[(size_t)(g + l) * n + c] : -1;
                    any |= dc[l] >= 0;
                }
                if (!any)
                    continue;
                const T *z = t->Z + (size_t)c * n * EL_W + g;
                /* blocks of 8 rows, the last one moved back to end at n */
                for (int i = 0;; i += 8) {
                    i = i + 8 > n ? n - 8 : i;
                    EL_V8 r[8];
                    for (int k = 0; k < 8; k++)
                        __builtin_memcpy(&r[k], z + (size_t)(i + k) * EL_W, sizeof r[k]);
                    PREC(el_tr8_)(r);
                    for (int l = 0; l < 8; l++) {
                        T *v = V + (size_t)(g + l) * nn + (size_t)dc[l] * n + i;
                        if (dc[l] < 0)
                            continue;
                        if (nt)
                            st(v, (const T *)&r[l]);
                        else
                            __builtin_memcpy(v, &r[l], sizeof r[l]);
                    }
                    if (i + 8 >= n)
                        break;
                }
            }
        if (nt)
            bsym__stream_fence();
        return;
    }
#endif
    for (int s = 0; s < m; s++) {
        const int *dst = t->dst + (size_t)s * n;
        for (int c = 0; c < n; c++) {
            if (dst[c] < 0)
                continue;
            const T *z = t->Z + (size_t)c * n * EL_W + s;
            T *vs = V + (size_t)s * nn + (size_t)dst[c] * n;
            for (int i = 0; i < n; i++)
                vs[i] = z[(size_t)i * EL_W];
        }
    }
}

/* ---- one tile -------------------------------------------------------------- */

/* Systems [0, m) (m <= EL_W) of a call: A (full, uplo) or d, e; w, V (may
 * be NULL), cnt (may be NULL), info as bsym__eig_cpu_. t carved with
 * vectors = (V != NULL). */
BSYM_INLINE static void PREC(el_tile_)(EL_TILE *t, char uplo, int m, const T *A, const T *d,
                                       const T *e, const bsym_select *sel, T *w, T *V, int *cnt,
                                       int *info, PREC(bsym__sqrt64_) sq,
                                       PREC(bsym__stream8_) st)
{
    if (A != NULL) {
        PREC(el_load_full_)(t, uplo, m, A);
        PREC(el_reduce_)(t, sq);
        if (V != NULL)
            PREC(el_form_q_)(t);
    } else {
        PREC(el_load_tri_)(t, m, d, e);
        if (V != NULL)
            PREC(el_identity_)(t);
    }
    PREC(el_scale_t_)(t);
    PREC(el_ql_)(t, sq);
    PREC(el_output_)(t, m, sel, w, V, cnt, info, st);
}

/* The tile compiled for AVX2 + FMA and for AVX-512 (cpu_simd.h), and the
 * choice by isa (bsym__cpu_isa()). */
#ifdef BSYM_X86_DISPATCH
BSYM_TARGET_AVX2 static void PREC(el_tile_avx2_)(EL_TILE *t, char uplo, int m, const T *A,
                                                 const T *d, const T *e, const bsym_select *sel,
                                                 T *w, T *V, int *cnt, int *info)
{
    PREC(el_tile_)(t, uplo, m, A, d, e, sel, w, V, cnt, info, PREC(bsym__sqrt64_avx2_),
                   PREC(bsym__stream8_avx2_));
}
BSYM_TARGET_AVX512 static void PREC(el_tile_avx512_)(EL_TILE *t, char uplo, int m, const T *A,
                                                     const T *d, const T *e,
                                                     const bsym_select *sel, T *w, T *V, int *cnt,
                                                     int *info)
{
    PREC(el_tile_)(t, uplo, m, A, d, e, sel, w, V, cnt, info, PREC(bsym__sqrt64_avx512_),
                   PREC(bsym__stream8_avx512_));
}
#endif
static void PREC(el_tile_any_)(int isa, EL_TILE *t, char uplo, int m, const T *A, const T *d,
                               const T *e, const bsym_select *sel, T *w, T *V, int *cnt, int *info)
{
#ifdef BSYM_X86_DISPATCH
    if (isa >= BSYM_ISA_AVX512) {
        PREC(el_tile_avx512_)(t, uplo, m, A, d, e, sel, w, V, cnt, info);
        return;
    }
    if (isa >= BSYM_ISA_AVX2) {
        PREC(el_tile_avx2_)(t, uplo, m, A, d, e, sel, w, V, cnt, info);
        return;
    }
#endif
    (void)isa;
    PREC(el_tile_)(t, uplo, m, A, d, e, sel, w, V, cnt, info, PREC(bsym__sqrt64_base_),
                   PREC(bsym__stream8_base_));
}

#undef EL_W
#undef EL_V
#undef EL_TILE
#undef EL_VT
#undef EL_LANES
#undef EL_PK
#undef EL_V8
#undef EL_TRANSPOSE
