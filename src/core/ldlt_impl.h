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
 * For n <= BSYM_CPU_LANES_MAX_N the systems go LANES at a time (64 bytes of
 * T: 8 doubles, 16 floats), their entries interleaved: entry (i, j), i >= j,
 * of lane s at W[PACKED(i, j) * LANES + s], the lower triangle packed by
 * columns so that a group's tile stays in the L1/L2 cache. Every arithmetic
 * statement is then one operation on a VEC, GCC's generic vector of LANES
 * T, which the compiler maps to one AVX-512 register, two AVX2 registers or
 * four SSE2 ones, as the code is compiled for each (see ldlt.c; the choice is
 * made at run time). Lanes past the end of the batch hold an identity system
 * whose results are dropped.
 *
 * The factorization is left-looking (Crout): column j of L is a_ij minus dot
 * products with the finished columns, four rows at a time in registers, so
 * that each multiply-add costs one load and no store. */
#define LANES ((int)(64 / sizeof(T)))
#define PACKED(i, j) ((j) * n - (j) * ((j) - 1) / 2 + (i) - (j))
typedef T PREC(vec_) __attribute__((vector_size(64), may_alias));
#define VEC PREC(vec_)
#define VAT(W, p) (*(VEC *)((W) + (size_t)(p) * LANES))

/* The lane masks of comparisons (-1 true, 0 false), |v| and max(a, b) lane by
 * lane (a where b is NaN); macros, so that no function returns a vector. */
typedef __typeof__((VEC){0} < (VEC){0}) PREC(vmask_);
#define VMASK PREC(vmask_)
#define VABS(v) ((VEC)((VMASK)(v) & ~(VMASK)(-(VEC){0}))) /* -(+0) = -0: the sign bits */
#define VMAX(a, b) ((VEC)(((VMASK)(b) & ((b) > (a))) | ((VMASK)(a) & ~((b) > (a)))))
#define VMIN(a, b) ((VEC)(((VMASK)(b) & ((b) < (a))) | ((VMASK)(a) & ~((b) < (a)))))

/* Interleaves systems [0, m) (m <= LANES) of A's referenced triangle and of
 * B into W and X; the unused lanes repeat system 0 (their results are
 * dropped). Each packed entry is one 64-byte store of LANES loads, one per
 * system, all systems read in memory order together; double storage under
 * float arithmetic (prec_mixed.h) is converted here, in the same pass. */
BSYM_INLINE
static void PREC(pack_lanes_)(char uplo, int n, int nrhs, int m, const TIN *A, const TIN *B, T *W, T *X)
{
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    size_t off[LANES];
    for (int s = 0; s < LANES; s++)
        off[s] = (size_t)(s < m ? s : 0);
    for (int j = 0; j < n; j++) {
        if (uplo == 'L') { /* column j, rows j..n-1: column j of the packed triangle */
            for (int i = j; i < n; i++) {
                T *w = W + (size_t)PACKED(i, j) * LANES;
                const TIN *src = A + i + (size_t)j * n;
                for (int s = 0; s < LANES; s++)
                    w[s] = (T)src[off[s] * nn];
            }
        } else { /* column j, rows 0..j: row j of the packed triangle */
            for (int i = 0; i <= j; i++) {
                T *w = W + (size_t)PACKED(j, i) * LANES;
                const TIN *src = A + i + (size_t)j * n;
                for (int s = 0; s < LANES; s++)
                    w[s] = (T)src[off[s] * nn];
            }
        }
    }
    for (size_t e = 0; e < nb; e++)
        for (int s = 0; s < LANES; s++)
            X[e * LANES + s] = (T)B[off[s] * nb + e];
}

/* What the scan of a packed group finds, lane by lane. */
typedef struct {
    VEC amax;    /* max |a_ij|                                  */
    VEC anorm;   /* ||A||_inf of the symmetric A                */
    VEC fro2;    /* ||A||_F^2                                   */
    VEC dmax;    /* max |a_ii|                                  */
    VEC chk;     /* 0 where A and B are finite, NaN elsewhere   */
} PREC(scan_);

/* Scans a packed group (A in W, B in X, nrhs right-hand sides); norms (the
 * certificate's ||A||_inf and ||A||_F) only when asked, row: n VEC of
 * scratch for the absolute row sums. v * 0 is NaN exactly when v is not
 * finite. Reductions run in four independent chains. */
BSYM_INLINE
static void PREC(scan_lanes_)(int n, int nrhs, const T *W, const T *X, int norms, VEC *row, PREC(scan_) *r)
{
    const size_t tri = (size_t)n * (n + 1) / 2, xb = (size_t)n * nrhs;
    VEC amax[4] = {{0}}, chk[4] = {{0}}, fro[4] = {{0}};
    size_t p = 0;
    for (; p + 4 <= tri; p += 4)
        for (int c = 0; c < 4; c++) {
            const VEC v = VAT(W, p + c);
            chk[c] += v * 0;
            amax[c] = VMAX(amax[c], VABS(v));
            fro[c] += v * v;
        }
    for (; p < tri; p++) {
        const VEC v = VAT(W, p);
        chk[0] += v * 0;
        amax[0] = VMAX(amax[0], VABS(v));
        fro[0] += v * v;
    }
    for (size_t e = 0; e < xb; e++)
        chk[e % 4] += VAT(X, e) * 0;
    VEC dmax = {0}, diag2 = {0};
    for (int j = 0; j < n; j++) {
        const VEC d = VAT(W, PACKED(j, j));
        dmax = VMAX(dmax, VABS(d));
        diag2 += d * d;
    }
    r->amax = VMAX(VMAX(amax[0], amax[1]), VMAX(amax[2], amax[3]));
    r->chk = (chk[0] + chk[1]) + (chk[2] + chk[3]);
    r->fro2 = 2 * ((fro[0] + fro[1]) + (fro[2] + fro[3])) - diag2; /* off-diagonal entries twice */
    r->dmax = dmax;
    r->anorm = (VEC){0};
    if (!norms)
        return;
    /* row sums of the symmetric A: row i gets column i below the diagonal
     * (contiguous) and entry (i, j) of every column j < i */
    for (int i = 0; i < n; i++)
        row[i] = (VEC){0};
    for (int j = 0; j < n; j++) {
        VEC col[2] = {VABS(VAT(W, PACKED(j, j))), {0}};
        for (int i = j + 1; i < n; i++) {
            const VEC av = VABS(VAT(W, PACKED(i, j)));
            col[i & 1] += av;
            row[i] += av;
        }
        row[j] += col[0] + col[1];
    }
    VEC anorm = {0};
    for (int i = 0; i < n; i++)
        anorm = VMAX(anorm, row[i]);
    r->anorm = anorm;
}

/* Factors the packed group W = L D L^T in place (strictly lower part: L,
 * diagonal: D); u: n VEC of scratch. info[s] gets the first column j + 1 of
 * lane s whose pivot is not > tol[s] in magnitude or not finite (left as it
 * is when already set); pos[s] (when pos is not NULL) 1 when every pivot of
 * lane s is positive and finite. Every lane runs to the end. */
BSYM_INLINE
static void PREC(factor_lanes_)(int n, T *W, const VEC *tolp, VEC *u, int *info, int *pos, const char *pf, size_t pfb)
{
    const VEC tol = *tolp;
    VEC allpos = (VEC){0} + 1;
    for (int j = 0; j < n; j++) {
        /* a slice of the next group's matrices per column: they arrive while
         * this group computes, and its packing finds them in the cache */
        for (size_t b = pfb * (size_t)j / (size_t)n; b < pfb * (size_t)(j + 1) / (size_t)n; b += 64)
            __builtin_prefetch(pf + b, 0, 2);
        for (int k = 0; k < j; k++) /* u_k = L_jk D_k */
            u[k] = VAT(W, PACKED(j, k)) * VAT(W, PACKED(k, k));
        int i = j;
        for (; i + 4 <= n; i += 4) { /* rows i..i+3 of column j */
            VEC a0 = VAT(W, PACKED(i, j)), a1 = VAT(W, PACKED(i + 1, j));
            VEC a2 = VAT(W, PACKED(i + 2, j)), a3 = VAT(W, PACKED(i + 3, j));
            for (int k = 0; k < j; k++) {
                const T *c = W + (size_t)PACKED(i, k) * LANES; /* rows i.. of column k */
                const VEC uk = u[k];
                a0 -= *(const VEC *)c * uk;
                a1 -= *(const VEC *)(c + LANES) * uk;
                a2 -= *(const VEC *)(c + 2 * LANES) * uk;
                a3 -= *(const VEC *)(c + 3 * LANES) * uk;
            }
            VAT(W, PACKED(i, j)) = a0;
            VAT(W, PACKED(i + 1, j)) = a1;
            VAT(W, PACKED(i + 2, j)) = a2;
            VAT(W, PACKED(i + 3, j)) = a3;
        }
        for (; i < n; i++) {
            VEC a = VAT(W, PACKED(i, j));
            for (int k = 0; k < j; k++)
                a -= VAT(W, PACKED(i, k)) * u[k];
            VAT(W, PACKED(i, j)) = a;
        }
        const VEC d = VAT(W, PACKED(j, j));
        const VMASK good = VABS(d) > tol, isfin = VABS(d) <= TMAX;
        allpos = (VEC)((VMASK)allpos & (d > 0) & isfin);
        for (int s = 0; s < LANES; s++)
            if (info[s] == 0 && !(good[s] && isfin[s]))
                info[s] = j + 1;
        const VEC inv = 1 / d;
        for (int r = j + 1; r < n; r++)
            VAT(W, PACKED(r, j)) *= inv;
    }
    if (pos != NULL)
        for (int s = 0; s < LANES; s++)
            pos[s] = allpos[s] != 0;
}

/* L D L^T x = b for one interleaved right-hand side X (n VEC), in place;
 * the dot products in four independent chains. */
BSYM_INLINE
static void PREC(substitute_lanes_)(int n, const T *W, T *X)
{
    VEC *x = (VEC *)X;
    for (int i = 1; i < n; i++) { /* L y = b: row i of L */
        VEC a[4] = {x[i], {0}, {0}, {0}};
        int k = 0;
        for (; k + 4 <= i; k += 4)
            for (int c = 0; c < 4; c++)
                a[c] -= VAT(W, PACKED(i, k + c)) * x[k + c];
        for (; k < i; k++)
            a[0] -= VAT(W, PACKED(i, k)) * x[k];
        x[i] = (a[0] + a[1]) + (a[2] + a[3]);
    }
    for (int i = 0; i < n; i++) /* D z = y */
        x[i] /= VAT(W, PACKED(i, i));
    for (int i = n - 2; i >= 0; i--) { /* L^T x = z: column i of L */
        VEC a[4] = {x[i], {0}, {0}, {0}};
        const T *c = W + (size_t)PACKED(i, i) * LANES;
        int k = i + 1;
        for (; k + 4 <= n; k += 4)
            for (int q = 0; q < 4; q++)
                a[q] -= *(const VEC *)(c + (size_t)(k + q - i) * LANES) * x[k + q];
        for (; k < n; k++)
            a[0] -= *(const VEC *)(c + (size_t)(k - i) * LANES) * x[k];
        x[i] = (a[0] + a[1]) + (a[2] + a[3]);
    }
}

/* Eight lanes of T as doubles (the residual is computed in double), and a
 * load of eight lanes converted to them. */
typedef double PREC(dvec_) __attribute__((vector_size(64), may_alias));
typedef T PREC(hvec_) __attribute__((vector_size(8 * sizeof(T)), may_alias));
#define DVEC PREC(dvec_)
#define LOAD8(p) __builtin_convertvector(*(const PREC(hvec_) *)(p), DVEC)

/* The backward error of the interleaved solutions X of A X = B0 (A packed in
 * A0, anorm its ||A||_inf), lane by lane in double: the largest over the
 * right-hand sides of strategy_berr_ (strategy_numerics.h). Eight lanes at
 * a time; row i of A is row i of the packed triangle (k <= i) and then its
 * column i (k > i, contiguous). */
BSYM_INLINE
static void PREC(berr_lanes_)(int n, int nrhs, const T *A0, const T *B0, const T *X, const VEC *anormp, double *berr)
{
    const VEC anorm = *anormp;
    for (int s = 0; s < LANES; s++)
        berr[s] = 0;
    for (int h = 0; h < LANES; h += 8)
        for (int c = 0; c < nrhs; c++) {
            const T *b = B0 + (size_t)c * n * LANES + h, *x = X + (size_t)c * n * LANES + h;
            DVEC rmax = {0}, xmax = {0}, bmax = {0};
            for (int i = 0; i < n; i++) {
                DVEC acc[2] = {LOAD8(b + (size_t)i * LANES), {0}};
                for (int k = 0; k <= i; k++)
                    acc[k & 1] -= LOAD8(A0 + (size_t)PACKED(i, k) * LANES + h) * LOAD8(x + (size_t)k * LANES);
                const T *col = A0 + (size_t)PACKED(i, i) * LANES + h;
                for (int k = i + 1; k < n; k++)
                    acc[k & 1] -= LOAD8(col + (size_t)(k - i) * LANES) * LOAD8(x + (size_t)k * LANES);
                const DVEC r = acc[0] + acc[1], bv = LOAD8(b + (size_t)i * LANES), xv = LOAD8(x + (size_t)i * LANES);
                for (int s = 0; s < 8; s++) { /* NaN residuals stick */
                    const double ar = fabs(r[s]);
                    rmax[s] = ar > rmax[s] || ar != ar ? ar : rmax[s];
                    xmax[s] = fabs(xv[s]) > xmax[s] ? fabs(xv[s]) : xmax[s];
                    bmax[s] = fabs(bv[s]) > bmax[s] ? fabs(bv[s]) : bmax[s];
                }
            }
            for (int s = 0; s < 8; s++) {
                const double e = PREC(strategy_berr_)(rmax[s], (double)anorm[h + s], xmax[s], bmax[s]);
                berr[h + s] = e > berr[h + s] || e != e ? e : berr[h + s];
            }
        }
}
#undef LOAD8
#undef DVEC

/* The cheap form of the certificate (strategy_cert_cheap_) for a factored
 * group (W: L below the diagonal, D on it): ok[s] = 1 where lane s has
 * positive pivots (pos[s]) and min D > sigma B2, B2 from the comparison
 * matrix M of L: y = M^-1 e (rows of L), z = M^-T e (columns of L), B2 =
 * max y max z. yz: 2n VEC of scratch. */
BSYM_INLINE
static void PREC(cheap_lanes_)(int n, const T *W, const VEC *sigma, const int *pos, VEC *yz, int *ok)
{
    VEC *y = yz, *z = yz + n, ymax = {0}, zmax = {0}, mind = VAT(W, 0);
    for (int i = 0; i < n; i++) {
        VEC a = (VEC){0} + 1;
        for (int k = 0; k < i; k++)
            a += VABS(VAT(W, PACKED(i, k))) * y[k];
        y[i] = a;
        ymax = VMAX(ymax, a);
        const VEC d = VAT(W, PACKED(i, i));
        mind = VMIN(mind, d);
    }
    for (int i = n - 1; i >= 0; i--) {
        VEC a = (VEC){0} + 1;
        const T *c = W + (size_t)PACKED(i, i) * LANES;
        for (int k = i + 1; k < n; k++)
            a += VABS(*(const VEC *)(c + (size_t)(k - i) * LANES)) * z[k];
        z[i] = a;
        zmax = VMAX(zmax, a);
    }
    for (int s = 0; s < LANES; s++)
        ok[s] = pos[s] && PREC(strategy_cert_cheap_)(n, (double)mind[s], (double)ymax[s] * (double)zmax[s],
                                                     (double)(*sigma)[s]);
}

/* The certificate's inputs of one group (see strategy_numerics.h): rcond and
 * tol of the job, and per lane the answer ok[s]. */
typedef struct {
    double rcond, tol;
    int *ok;
} PREC(cert_);

/* Solves systems [0, m) (m <= LANES) starting at A, B by LDL^T; with cert
 * (the automatic strategy's first step) also decides which of them keep the
 * solution. work: PREC(lanes_work_) elements, 64-byte aligned. */
BSYM_INLINE
static void PREC(solve_lanes_)(char uplo, int n, int nrhs, int m, int ahead, const TIN *A, TIN *B, int *info,
                               const PREC(cert_) *cert, T *work)
{
    /* the matrices of the next group (ahead systems), fetched while this one computes */
    const char *next = (const char *)(A + (size_t)m * n * n);
    const size_t next_bytes = (size_t)ahead * n * n * sizeof(TIN);
    const size_t tri = (size_t)n * (n + 1) / 2 * LANES, xb = (size_t)n * nrhs * LANES;
    T *W = work, *X = W + tri, *u = X + xb, *A0 = u + 2 * (size_t)n * LANES, *B0 = A0 + tri, *Ws = B0 + xb;
    int inf[LANES], pos[LANES], shifted[LANES];
    PREC(scan_) sc;
    PREC(pack_lanes_)(uplo, n, nrhs, m, A, B, cert != NULL ? A0 : W, cert != NULL ? B0 : X);
    PREC(scan_lanes_)(n, nrhs, cert != NULL ? A0 : W, cert != NULL ? B0 : X, cert != NULL, (VEC *)u, &sc);
    for (int s = 0; s < LANES; s++)
        inf[s] = pos[s] = shifted[s] = 0;
    if (cert != NULL) { /* A0 and B0 stay for the certificate */
        memcpy(W, A0, tri * sizeof(T));
        memcpy(X, B0, xb * sizeof(T));
    }
    const VEC tol = (T)n * EPS * sc.amax;
    PREC(factor_lanes_)(n, W, &tol, (VEC *)u, inf, cert != NULL ? pos : NULL, next, next_bytes);
    for (int c = 0; c < nrhs; c++)
        PREC(substitute_lanes_)(n, W, X + (size_t)c * n * LANES);
    double berr[LANES];
    if (cert != NULL) {
        VEC sigma;
        for (int s = 0; s < LANES; s++) {
            const double ub = fmin((double)sc.anorm[s], sqrt((double)sc.fro2[s]));
            sigma[s] = (T)PREC(strategy_shift_)(n, ub, (double)sc.dmax[s], cert->rcond);
        }
        /* the cheap form from L and D; the shifted factorization only when a
         * lane with positive pivots needs it */
        int need = 0;
        PREC(cheap_lanes_)(n, W, &sigma, pos, (VEC *)u, shifted);
        for (int s = 0; s < m; s++)
            need |= pos[s] && !shifted[s] && inf[s] == 0;
        if (need) {
            int sinf[LANES];
            for (int s = 0; s < LANES; s++)
                sinf[s] = 0;
            memcpy(Ws, A0, tri * sizeof(T));
            for (int j = 0; j < n; j++)
                VAT(Ws, PACKED(j, j)) -= sigma;
            const VEC zero = {0};
            PREC(factor_lanes_)(n, Ws, &zero, (VEC *)u, sinf, shifted, NULL, 0);
        }
        PREC(berr_lanes_)(n, nrhs, A0, B0, X, &sc.anorm, berr);
    }
    for (int s = 0; s < m; s++) {
        info[s] = !(sc.chk[s] == 0) ? -1 : inf[s];
        if (cert != NULL)
            cert->ok[s] = info[s] == 0 && pos[s] && shifted[s] && berr[s] <= cert->tol;
        TIN *b = B + (size_t)s * n * nrhs;
        for (size_t e = 0; e < (size_t)n * nrhs; e++)
            b[e] = info[s] ? (TIN)NAN : (TIN)X[e * LANES + s];
    }
}

/* Elements of a group's workspace (solve_lanes_). */
static size_t PREC(lanes_work_)(int n, int nrhs)
{
    return ((size_t)n * (n + 1) * 3 / 2 + (size_t)n * nrhs * 2 + 2 * (size_t)n) * LANES;
}

/* solve_lanes_ compiled for AVX-512 and for AVX2 + FMA (x86-64), and the
 * choice at run time (bsym__cpu_isa, cpu_simd.h). */
#ifdef BSYM_X86_DISPATCH
BSYM_TARGET_AVX512 static void PREC(solve_lanes_avx512_)(
    char uplo, int n, int nrhs, int m, int ahead, const TIN *A, TIN *B, int *info, const PREC(cert_) *cert, T *work)
{
    PREC(solve_lanes_)(uplo, n, nrhs, m, ahead, A, B, info, cert, work);
}
BSYM_TARGET_AVX2 static void PREC(solve_lanes_avx2_)(
    char uplo, int n, int nrhs, int m, int ahead, const TIN *A, TIN *B, int *info, const PREC(cert_) *cert, T *work)
{
    PREC(solve_lanes_)(uplo, n, nrhs, m, ahead, A, B, info, cert, work);
}
#endif
static void PREC(solve_lanes_any_)(int isa, char uplo, int n, int nrhs, int m, int ahead, const TIN *A, TIN *B, int *info,
                                   const PREC(cert_) *cert, T *work)
{
#ifdef BSYM_X86_DISPATCH
    if (isa == BSYM_ISA_AVX512) {
        PREC(solve_lanes_avx512_)(uplo, n, nrhs, m, ahead, A, B, info, cert, work);
        return;
    }
    if (isa == BSYM_ISA_AVX2) {
        PREC(solve_lanes_avx2_)(uplo, n, nrhs, m, ahead, A, B, info, cert, work);
        return;
    }
#endif
    (void)isa;
    PREC(solve_lanes_)(uplo, n, nrhs, m, ahead, A, B, info, cert, work);
}

/* ---- large n, one system at a time: the certificate ---------------------- */

/* One system of the automatic strategy's first step for n > the lanes' limit:
 * the LDL^T solve of solve_one_, and *ok as solve_lanes_ with cert. W holds
 * 2 n*n + n elements, v n + n*nrhs. */
static int PREC(cert_one_)(char uplo, int n, int nrhs, const T *A, T *B, const PREC(cert_) *cert, int *ok,
                           T *W, T *v)
{
    T amax;
    T *W0 = W + (size_t)n * n, *B0 = v + n;
    *ok = 0;
    if (!PREC(load_lower_)(uplo, n, A, W0, &amax))
        amax = (T)NAN;
    double anorm = 0, fro = 0, dmax = 0;
    for (int i = 0; i < n; i++) {
        double row = 0;
        for (int k = 0; k < n; k++) {
            const double a = fabs((double)(k <= i ? W0[i + (size_t)k * n] : W0[k + (size_t)i * n]));
            row += a;
            fro += a * a;
        }
        anorm = row > anorm ? row : anorm;
        dmax = fabs((double)W0[i + (size_t)i * n]) > dmax ? fabs((double)W0[i + (size_t)i * n]) : dmax;
    }
    const T sigma = (T)PREC(strategy_shift_)(n, fmin(anorm, sqrt(fro)), dmax, cert->rcond);
    memcpy(W, W0, (size_t)n * n * sizeof(T));
    for (int j = 0; j < n; j++)
        W[j + (size_t)j * n] -= sigma;
    int pos = amax == amax && PREC(factor_)(n, W, (T)0, v) == 0;
    for (int j = 0; pos && j < n; j++)
        pos = W[j + (size_t)j * n] > 0;
    memcpy(B0, B, (size_t)n * nrhs * sizeof(T));
    const int info = PREC(solve_one_)(uplo, n, nrhs, A, B, W, v);
    if (info == 0 && pos) {
        double worst = 0;
        for (int c = 0; c < nrhs; c++) {
            const T *b = B0 + (size_t)c * n, *x = B + (size_t)c * n;
            double rmax = 0, xmax = 0, bmax = 0, arow;
            for (int i = 0; i < n; i++) {
                const double r = PREC(strategy_resid_row_)(uplo, n, A, x, b[i], i, &arow);
                rmax = r > rmax || r != r ? r : rmax;
                xmax = fabs((double)x[i]) > xmax ? fabs((double)x[i]) : xmax;
                bmax = fabs((double)b[i]) > bmax ? fabs((double)b[i]) : bmax;
            }
            const double e = PREC(strategy_berr_)(rmax, anorm, xmax, bmax);
            worst = e > worst || e != e ? e : worst;
        }
        *ok = worst <= cert->tol;
    }
    return info;
}

#undef LANES
#undef PACKED
#undef VEC
#undef VAT
#undef VMASK
#undef VABS
#undef VMAX
#undef VMIN

/* One ldlt_run_ call, as its groups see it (ldlt_group_). */
typedef struct {
    char uplo;
    int64_t n, nrhs, count;
    const TIN *A;
    TIN *B;
    int *info;
    const PREC(cert_) *cert; /* NULL: solves only */
    int lanes;               /* systems per group: 64 bytes of T, or 1 */
    size_t one;              /* one system's workspace (cert_one_'s W and v) */
    int isa;                 /* bsym__cpu_isa() */
} PREC(ldlt_team_);

/* Group g of an ldlt_run_ call (a bsym__team_body): its lanes systems
 * across SIMD lanes, or its one system alone, on the thread's workspace. */
static void PREC(ldlt_group_)(void *ctx, int64_t g, void *work)
{
    const PREC(ldlt_team_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs, count = j->count, k = g * j->lanes;
    const int lanes = j->lanes;
    const PREC(cert_) *cert = j->cert;
    const TIN *A = j->A;
    TIN *B = j->B;
    int *info = j->info;
    T *W = work;
    if (lanes > 1) {
        const int m = count - k < lanes ? (int)(count - k) : lanes;
        PREC(cert_) c;
        if (cert != NULL)
            c = (PREC(cert_)){cert->rcond, cert->tol, cert->ok + k};
        const int64_t rest = count - k - m, ahead = rest < lanes ? rest : lanes;
        PREC(solve_lanes_any_)(j->isa, j->uplo, (int)n, (int)nrhs, m, (int)ahead, A + k * n * n, B + k * n * nrhs,
                               info + k, cert != NULL ? &c : NULL, W);
        return;
    }
    /* one system: its own arrays, or (double storage) float copies */
#if BSYM_MIXED
    T *a = W + j->one, *b = a + n * n;
    for (int64_t e = 0; e < n * n; e++)
        a[e] = (T)A[k * n * n + e];
    for (int64_t e = 0; e < n * nrhs; e++)
        b[e] = (T)B[k * n * nrhs + e];
#else
    const T *a = A + k * n * n;
    T *b = B + k * n * nrhs;
#endif
    if (cert != NULL)
        info[k] = PREC(cert_one_)(j->uplo, (int)n, (int)nrhs, a, b, cert, cert->ok + k, W, W + 2 * n * n);
    else
        info[k] = PREC(solve_one_)(j->uplo, n, nrhs, a, b, W, W + n * n);
#if BSYM_MIXED
    for (int64_t e = 0; e < n * nrhs; e++)
        B[k * n * nrhs + e] = (TIN)b[e];
#endif
}

/* Systems [0, count) of a batch, OpenMP over the batch (over groups of
 * LANES systems when n is small; bsym__team_run, groups of equal cost). With
 * cert (the automatic strategy's first step, strategy_impl.h) also
 * cert->ok[k] per system. Returns 0, or -1 when a thread's workspace could
 * not be allocated (nothing is then promised). */
static int PREC(ldlt_run_)(char uplo, int64_t n, int64_t nrhs, int64_t count, const TIN *A, TIN *B, int *info,
                           const PREC(cert_) *cert, int threads)
{
    const int lanes = n <= BSYM_CPU_LANES_MAX_N ? (int)(64 / sizeof(T)) : 1;
    const int64_t groups = (count + lanes - 1) / lanes;
    const size_t one = (size_t)(2 * n * n + 2 * n + n * nrhs); /* cert_one_'s W and v */
    const size_t work = lanes > 1 ? PREC(lanes_work_)((int)n, (int)nrhs)
                                  : one + (BSYM_MIXED ? (size_t)(n * n + n * nrhs) : 0);
    PREC(ldlt_team_) j = {uplo, n, nrhs, count, A, B, info, cert, lanes, one, bsym__cpu_isa()};
    return bsym__team_run(groups, threads, work * sizeof(T), 0, PREC(ldlt_group_), &j);
}

int PREC(bsym__ldlt_cpu_)(char uplo, int64_t n, int64_t nrhs, int64_t count, const TIN *A, TIN *B, int *info,
                          int threads)
{
    return PREC(ldlt_run_)(uplo, n, nrhs, count, A, B, info, NULL, threads);
}

int PREC(bsym__ldlt_cert_cpu_)(char uplo, int64_t n, int64_t nrhs, int64_t count, const TIN *A, TIN *B, int *info,
                               int *ok, double rcond, double tol, int threads)
{
    const PREC(cert_) c = {rcond, tol, ok};
    return PREC(ldlt_run_)(uplo, n, nrhs, count, A, B, info, &c, threads);
}
