/*
 * indef_impl.h -- precision-generic CPU solves of symmetric indefinite and
 * complex Hermitian systems, one system at a time (OpenMP over the batch):
 *   Bunch-Kaufman   P A P^T = L D L^H, D block diagonal with 1x1 and 2x2
 *                   Hermitian blocks, partial pivoting (alpha = (1+sqrt 17)/8);
 *   Aasen           P A P^T = L T L^H, T Hermitian tridiagonal, L unit lower
 *                   triangular with first column e1 (left-looking, partial
 *                   pivoting), T solved by a pivoted tridiagonal LU;
 *   LDL^H           without pivoting, D real (complex T only: the real LDL^T
 *                   is ldlt_impl.h's).
 * For n <= BSYM_CPU_LANES_MAX_N, Bunch-Kaufman and LDL^H solve several
 * systems at once across SIMD lanes (indef_lanes_impl.h).
 * Included by indef.c once per precision (prec_float.h, prec_double.h,
 * prec_cfloat.h, prec_cdouble.h): T the element type, RT the type of its
 * parts, CONJ, RE, IM, ABS1, CABS, MAKE_REAL, CFINITE (prec_double.h).
 *
 * Storage: the referenced triangle is loaded into the lower triangle of an
 * n x n column-major workspace W (for uplo 'U', entry (i, j), i > j, is
 * conj(A(j, i))), the imaginary part of the diagonal dropped; every
 * factorization then works column by column on the lower triangle, so that
 * the O(n^3) loops (rank-1 and rank-2 updates, the matrix-vector products of
 * Aasen) run down columns, unit stride. Complex inner loops are written on
 * the interleaved real parts (RT), so that they are real-typed SIMD loops.
 */

/* T from its two parts. */
static inline T PREC(cplx_)(RT re, RT im)
{
#if BSYM_COMPLEX
    T z;
    ((RT *)&z)[0] = re;
    ((RT *)&z)[1] = im;
    return z;
#else
    (void)im;
    return re;
#endif
}

/* y[0, m) -= a * x[0, m). */
static inline void PREC(ix_axpy_)(int64_t m, T a, const T *restrict x, T *restrict y)
{
#if BSYM_COMPLEX
    const RT ar = RE(a), ai = IM(a);
    const RT *restrict xr = (const RT *)x;
    RT *restrict yr = (RT *)y;
#pragma omp simd
    for (int64_t i = 0; i < m; i++) {
        const RT u = xr[2 * i], w = xr[2 * i + 1];
        yr[2 * i] -= u * ar - w * ai;
        yr[2 * i + 1] -= u * ai + w * ar;
    }
#else
#pragma omp simd
    for (int64_t i = 0; i < m; i++)
        y[i] -= x[i] * a;
#endif
}

/* y[0, m) -= a1 * x1[0, m) + a2 * x2[0, m). */
static inline void PREC(ix_axpy2_)(int64_t m, T a1, const T *restrict x1, T a2, const T *restrict x2,
                                   T *restrict y)
{
#if BSYM_COMPLEX
    const RT ar = RE(a1), ai = IM(a1), br = RE(a2), bi = IM(a2);
    const RT *restrict xr = (const RT *)x1, *restrict zr = (const RT *)x2;
    RT *restrict yr = (RT *)y;
#pragma omp simd
    for (int64_t i = 0; i < m; i++) {
        const RT u = xr[2 * i], w = xr[2 * i + 1], p = zr[2 * i], q = zr[2 * i + 1];
        yr[2 * i] -= (u * ar - w * ai) + (p * br - q * bi);
        yr[2 * i + 1] -= (u * ai + w * ar) + (p * bi + q * br);
    }
#else
#pragma omp simd
    for (int64_t i = 0; i < m; i++)
        y[i] -= x1[i] * a1 + x2[i] * a2;
#endif
}

/* sum_i conj(x[i]) y[i] over [0, m). */
static inline T PREC(ix_dotc_)(int64_t m, const T *restrict x, const T *restrict y)
{
#if BSYM_COMPLEX
    const RT *restrict xr = (const RT *)x, *restrict yr = (const RT *)y;
    RT sr = 0, si = 0;
#pragma omp simd reduction(+ : sr, si)
    for (int64_t i = 0; i < m; i++) {
        const RT u = xr[2 * i], w = xr[2 * i + 1], p = yr[2 * i], q = yr[2 * i + 1];
        sr += u * p + w * q;
        si += u * q - w * p;
    }
    return PREC(cplx_)(sr, si);
#else
    T s = 0;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < m; i++)
        s += x[i] * y[i];
    return s;
#endif
}

static inline void PREC(ix_swap_)(T *a, T *b)
{
    const T t = *a;
    *a = *b;
    *b = t;
}

/* The largest modulus over a triangle from m1 = max(|re|, |im|) and m2 =
 * max |a|^2 over it: sqrt(m2) where |a|^2 cannot have overflowed (real T:
 * m1 itself); else -1, and the caller takes the modulus entry by entry.
 * Shared by ix_load_ and the lanes (ixl_group_), so that both paths get the
 * same LDL^H pivot tolerance. */
static inline RT PREC(ix_amax_)(RT m1, RT m2)
{
    if (!BSYM_COMPLEX)
        return m1;
    return m1 < SQRT(TMAX) / 4 ? SQRT(m2) : (RT)-1;
}

/* Loads the referenced triangle of A into the lower triangle of W (the
 * diagonal real) and checks it and B (n x nrhs) for non-finite entries;
 * returns 1 when all are finite. amax (may be NULL): max |a_ij| (modulus)
 * over the triangle. */
static int PREC(ix_load_)(char uplo, int64_t n, int64_t nrhs, const T *A, const T *B, T *W, RT *amax)
{
    int finite = 1;
    RT m1 = 0, m2 = 0; /* max(|re|, |im|) and max |a|^2 */
    for (int64_t c = 0; c < n; c++) {
        const T *src = A + c * n;
        if (uplo == 'L') { /* column c, rows c..n-1: column c of W */
            for (int64_t i = c; i < n; i++)
                W[i + c * n] = src[i];
        } else { /* column c, rows 0..c: row c of W, conjugated */
            for (int64_t i = 0; i <= c; i++)
                W[c + i * n] = CONJ(src[i]);
        }
    }
    for (int64_t c = 0; c < n; c++) {
        T *w = W + c * n;
        w[c] = MAKE_REAL(w[c]);
        for (int64_t i = c; i < n; i++) {
            const RT re = RE(w[i]), im = IM(w[i]);
            if (!(ISFINITE(re) && ISFINITE(im)))
                finite = 0;
            const RT a = FABS(re) > FABS(im) ? FABS(re) : FABS(im);
            m1 = a > m1 ? a : m1;
            m2 = re * re + im * im > m2 ? re * re + im * im : m2;
        }
    }
    for (int64_t e = 0; e < n * nrhs && finite; e++)
        if (!CFINITE(B[e]))
            finite = 0;
    if (amax != NULL && finite) {
        *amax = PREC(ix_amax_)(m1, m2);
        if (*amax < 0) { /* |a|^2 may overflow: the modulus entry by entry */
            RT m = 0;
            for (int64_t c = 0; c < n; c++)
                for (int64_t i = c; i < n; i++)
                    m = CABS(W[i + c * n]) > m ? CABS(W[i + c * n]) : m;
            *amax = m;
        }
    }
    return finite;
}

/* NaN in every part of the m entries of x. */
static void PREC(ix_nan_)(int64_t m, T *x)
{
    RT *r = (RT *)x;
    for (int64_t e = 0; e < m * (BSYM_COMPLEX ? 2 : 1); e++)
        r[e] = (RT)NAN;
}

/* ---- LDL^H without pivoting (complex; D real) ---------------------------- */

/* Factors the lower triangle of W in place (strictly lower: L, diagonal: D);
 * returns 0, or the 1-based index of the first pivot that is not finite or
 * has |d_j| <= tol (positive: d_j <= tol, so that a negative pivot stops it
 * too: the automatic solve's certificate). v: n scratch elements. */
static int PREC(ix_ldlh_factor_)(int64_t n, T *W, RT tol, T *v, int positive)
{
    for (int64_t j = 0; j < n; j++) {
        T *cj = W + j * n;
        const RT d = RE(cj[j]);
        if (!((positive ? d : FABS(d)) > tol) || !ISFINITE(d))
            return (int)(j + 1);
        const RT inv = (RT)1 / d;
        for (int64_t i = j + 1; i < n; i++) {
            v[i] = cj[i];    /* d_j L_ij */
            cj[i] *= inv;    /* L_ij */
        }
        /* W(i, k) -= L_ij d_j conj(L_kj), k > j, i >= k */
        for (int64_t k = j + 1; k < n; k++) {
            T *ck = W + k * n;
            PREC(ix_axpy_)(n - k, CONJ(v[k]), cj + k, ck + k);
            ck[k] = MAKE_REAL(ck[k]);
        }
    }
    return 0;
}

/* Solves L D L^H x = b in place, one right-hand side. */
static void PREC(ix_ldlh_solve_)(int64_t n, const T *W, T *b)
{
    for (int64_t j = 0; j < n; j++)
        PREC(ix_axpy_)(n - j - 1, b[j], W + j * n + j + 1, b + j + 1);
    for (int64_t j = 0; j < n; j++)
        b[j] = b[j] / RE(W[j + j * n]);
    for (int64_t j = n - 1; j >= 0; j--)
        b[j] -= PREC(ix_dotc_)(n - j - 1, W + j * n + j + 1, b + j + 1);
}

/* Method LDLT on the loaded W (amax: the max modulus of its triangle): the
 * factorization with pivot tolerance n eps amax (positive: as
 * ix_ldlh_factor_'s), then the nrhs right-hand sides of B in place; returns
 * the info code. v: n scratch elements. */
static int PREC(ix_ldlh_run_)(int64_t n, int64_t nrhs, T *W, RT amax, T *B, T *v, int positive)
{
    const int info = PREC(ix_ldlh_factor_)(n, W, (RT)n * EPS * amax, v, positive);
    for (int64_t c = 0; info == 0 && c < nrhs; c++)
        PREC(ix_ldlh_solve_)(n, W, B + c * n);
    return info;
}

/* ---- Bunch-Kaufman -------------------------------------------------------- */

/* Swaps rows and columns kk < kp of the Hermitian trailing matrix
 * W(k:n, k:n), stored in its lower triangle (k <= kk). */
static void PREC(ix_hswap_)(int64_t n, T *W, int64_t k, int64_t kk, int64_t kp)
{
    for (int64_t j = k; j < kk; j++) /* rows kk and kp left of column kk */
        PREC(ix_swap_)(W + kk + j * n, W + kp + j * n);
    T *a = W + kk * n, *b = W + kp * n;
    for (int64_t i = kp + 1; i < n; i++) /* below row kp: columns kk and kp */
        PREC(ix_swap_)(a + i, b + i);
    for (int64_t j = kk + 1; j < kp; j++) { /* between: column kk and row kp, mirrored */
        const T t = CONJ(a[j]);
        a[j] = CONJ(W[kp + j * n]);
        W[kp + j * n] = t;
    }
    a[kp] = CONJ(a[kp]);
    PREC(ix_swap_)(a + kk, b + kp);
}

/* |e|, the squares scaled by its larger part so that they cannot overflow:
 * cabs's value within a few ulps, at a fraction of its cost. */
static inline RT PREC(ix_cabs_)(T e)
{
#if BSYM_COMPLEX
    const RT x = FABS(RE(e)), y = FABS(IM(e)), m = x > y ? x : y;
    if (!(m > 0) || !(m <= TMAX)) /* 0, NaN or Inf: as cabs */
        return CABS(e);
    const RT p = x / m, q = y / m;
    return m * SQRT(p * p + q * q);
#else
    return FABS(e);
#endif
}

/* The 2x2 pivot D = [a conj(e); e c] (a, c real) through r = 1/e and
 * s = 1 / (a c / |e|^2 - 1), scaled by the off-diagonal, its largest entry:
 *   D z = w:        z1 = (c conj(r) w1 - w2) r s,  z2 = (a r w2 - w1) conj(r) s;
 *   y D = x (rows): y1 = (c r x1 - x2) conj(r) s,  y2 = (a conj(r) x2 - x1) r s. */
static void PREC(ix_pivot2_)(RT a, RT c, T e, T *r, RT *s)
{
    const RT ae = PREC(ix_cabs_)(e);
    *r = (CONJ(e) / ae) / ae;
    *s = (RT)1 / ((a / ae) * (c / ae) - (RT)1);
}

/* LAPACK's pivot rule at column k (bk_rule.h, shared with the GPU), in this
 * precision's real type RT: used by ix_bk_factor_ and the lanes'
 * ixl_choose_. */
static inline int PREC(ix_bk_row_)(RT absakk, RT colmax)
{
    return _Generic((RT)0, float: bsym__bk_row_s, default: bsym__bk_row_d)(absakk, colmax);
}
static inline int PREC(ix_bk_pick_)(RT absakk, RT colmax, RT rowmax, RT absimax, int64_t k, int64_t imax,
                                    int64_t *kp)
{
    return _Generic((RT)0, float: bsym__bk_pick_s, default: bsym__bk_pick_d)(absakk, colmax, rowmax, absimax, k,
                                                                             imax, kp);
}

/* Factors the lower triangle of W in place as LAPACK's lower *hetf2 stores
 * it: the multipliers of L below the blocks of D, piv[k] = kp >= 0 (a 1x1
 * block after rows k and kp were swapped) or piv[k] = piv[k+1] = -(kp + 1)
 * (a 2x2 block after rows k+1 and kp were swapped); each interchange acts on
 * the trailing matrix only (the solve applies it in between the columns of
 * L). Returns 0, or k + 1 when column k of the trailing matrix is exactly
 * zero (D(k, k) = 0: A singular). x1, x2: n scratch elements each. */
static int PREC(ix_bk_factor_)(int64_t n, T *W, int *piv, T *x1, T *x2)
{
    int64_t k = 0;
    while (k < n) {
        T *ck = W + k * n;
        const RT absakk = FABS(RE(ck[k]));
        int64_t imax = k;
        RT colmax = 0;
        for (int64_t i = k + 1; i < n; i++) {
            const RT a = ABS1(ck[i]);
            if (a > colmax) {
                colmax = a;
                imax = i;
            }
        }
        if (!(absakk > 0) && !(colmax > 0))
            return (int)(k + 1);
        int kstep = 1;
        int64_t kp = k;
        if (PREC(ix_bk_row_)(absakk, colmax)) {
            RT rowmax = 0; /* the largest off-diagonal entry of row imax */
            for (int64_t j = k; j < imax; j++)
                rowmax = ABS1(W[imax + j * n]) > rowmax ? ABS1(W[imax + j * n]) : rowmax;
            for (int64_t i = imax + 1; i < n; i++)
                rowmax = ABS1(W[i + imax * n]) > rowmax ? ABS1(W[i + imax * n]) : rowmax;
            kstep = PREC(ix_bk_pick_)(absakk, colmax, rowmax, FABS(RE(W[imax + imax * n])), k, imax, &kp);
        }
        const int64_t kk = k + kstep - 1;
        if (kp != kk)
            PREC(ix_hswap_)(n, W, k, kk, kp);
        if (kstep == 1) {
            piv[k] = (int)kp;
            const RT r = (RT)1 / RE(ck[k]);
            /* W(i, c) -= x_i r conj(x_c), c > k, i >= c; x = column k */
            for (int64_t c = k + 1; c < n; c++) {
                T *cc = W + c * n;
                PREC(ix_axpy_)(n - c, r * CONJ(ck[c]), ck + c, cc + c);
                cc[c] = MAKE_REAL(cc[c]);
            }
            for (int64_t i = k + 1; i < n; i++)
                ck[i] *= r;
            k += 1;
        } else {
            piv[k] = piv[k + 1] = (int)(-(kp + 1));
            T *ck1 = W + (k + 1) * n;
            const RT a = RE(ck[k]), c = RE(ck1[k + 1]);
            T r;
            RT s;
            PREC(ix_pivot2_)(a, c, ck[k + 1], &r, &s);
            const T cr = c * r, ar = a * CONJ(r), rcs = CONJ(r) * s, rs = r * s;
            for (int64_t i = k + 2; i < n; i++) {
                x1[i] = ck[i];
                x2[i] = ck1[i];
                ck[i] = (cr * x1[i] - x2[i]) * rcs;  /* [L1 L2] = [x1 x2] D^-1 */
                ck1[i] = (ar * x2[i] - x1[i]) * rs;
            }
            /* W(i, c) -= L1_i conj(x1_c) + L2_i conj(x2_c), c > k + 1, i >= c */
            for (int64_t cl = k + 2; cl < n; cl++) {
                T *cc = W + cl * n;
                PREC(ix_axpy2_)(n - cl, CONJ(x1[cl]), ck + cl, CONJ(x2[cl]), ck1 + cl, cc + cl);
                cc[cl] = MAKE_REAL(cc[cl]);
            }
            k += 2;
        }
    }
    return 0;
}

/* Solves P A P^T = L D L^H for one right-hand side b, in place. */
static void PREC(ix_bk_solve_)(int64_t n, const T *W, const int *piv, T *b)
{
    int64_t k = 0;
    while (k < n) { /* L D y = P b, the interchanges in between */
        const T *ck = W + k * n;
        if (piv[k] >= 0) {
            PREC(ix_swap_)(b + k, b + piv[k]);
            PREC(ix_axpy_)(n - k - 1, b[k], ck + k + 1, b + k + 1);
            b[k] = b[k] / RE(ck[k]);
            k += 1;
        } else {
            const T *ck1 = ck + n;
            PREC(ix_swap_)(b + k + 1, b + (-piv[k] - 1));
            PREC(ix_axpy2_)(n - k - 2, b[k], ck + k + 2, b[k + 1], ck1 + k + 2, b + k + 2);
            const RT a = RE(ck[k]), c = RE(ck1[k + 1]);
            T r;
            RT s;
            PREC(ix_pivot2_)(a, c, ck[k + 1], &r, &s);
            const T w1 = b[k], w2 = b[k + 1];
            b[k] = (c * CONJ(r) * w1 - w2) * r * s;
            b[k + 1] = (a * r * w2 - w1) * CONJ(r) * s;
            k += 2;
        }
    }
    k = n - 1;
    while (k >= 0) { /* L^H x = y, the interchanges in reverse */
        b[k] -= PREC(ix_dotc_)(n - k - 1, W + k * n + k + 1, b + k + 1);
        if (piv[k] >= 0) {
            PREC(ix_swap_)(b + k, b + piv[k]);
            k -= 1;
        } else {
            b[k - 1] -= PREC(ix_dotc_)(n - k - 1, W + (k - 1) * n + k + 1, b + k + 1);
            PREC(ix_swap_)(b + k, b + (-piv[k] - 1));
            k -= 2;
        }
    }
}

/* ---- Aasen ---------------------------------------------------------------- */

/* Factors P A P^T = L T L^H (A in the lower triangle of W, destroyed):
 * L (n x n, column-major) gets the columns 1..n-2 of L below the diagonal
 * (column 0 is e1, the diagonal ones, the rest never read); d the diagonal
 * of T (real), e its subdiagonal T(j+1, j) (T(j, j+1) = conj(e_j));
 * perm[j] (j >= 1): the row swapped with row j at step j - 1. h, v: n
 * scratch elements each. Left-looking, H = T L^H one column at a time:
 *   h(0:j-1) = H(0:j-1, j) from T and row j of L,
 *   h(j)     = A(j, j) - L(j, 0:j-1) h(0:j-1)   (A = L H),
 *   d_j      = h(j) - e_{j-1} conj(L(j, j-1)),
 *   v        = A(j+1:n, j) - L(j+1:n, 0:j) h(0:j) = L(j+1:n, j+1) e_j,
 * then the largest |v_i| is swapped to the top (rows and columns of the
 * trailing A, rows of L), e_j = v_1, L(j+2:n, j+1) = v(2:) / e_j. */
static void PREC(ix_aasen_factor_)(int64_t n, T *W, T *L, T *d, T *e, int *perm, T *h, T *v)
{
    for (int64_t j = 0; j < n; j++) {
        /* row j of L: L(j, 0) = 0 (j > 0), L(j, j) = 1 */
#define LJ(i) ((i) == j ? (T)1 : (i) == 0 ? (T)0 : L[j + (i) * n])
        for (int64_t i = 0; i < j; i++) {
            T s = d[i] * CONJ(LJ(i)) + CONJ(e[i]) * CONJ(LJ(i + 1));
            if (i > 0)
                s += e[i - 1] * CONJ(LJ(i - 1));
            h[i] = s;
        }
        T hj = W[j + j * n];
        for (int64_t i = 1; i < j; i++)
            hj -= L[j + i * n] * h[i];
        h[j] = hj;
        d[j] = MAKE_REAL(j > 0 ? hj - e[j - 1] * CONJ(LJ(j - 1)) : hj);
#undef LJ
        if (j == n - 1)
            break;
        /* v = A(j+1:n, j) - L(j+1:n, 1:j) h(1:j), column by column */
        for (int64_t i = j + 1; i < n; i++)
            v[i] = W[i + j * n];
        for (int64_t k = 1; k <= j; k++)
            PREC(ix_axpy_)(n - j - 1, h[k], L + j + 1 + k * n, v + j + 1);
        int64_t q = j + 1;
        RT vmax = ABS1(v[q]);
        for (int64_t i = j + 2; i < n; i++)
            if (ABS1(v[i]) > vmax) {
                vmax = ABS1(v[i]);
                q = i;
            }
        perm[j + 1] = (int)q;
        if (q != j + 1) {
            const int64_t p = j + 1;
            PREC(ix_swap_)(v + p, v + q);
            for (int64_t k = 1; k <= j; k++)
                PREC(ix_swap_)(L + p + k * n, L + q + k * n);
            PREC(ix_hswap_)(n, W, p, p, q);
        }
        e[j] = v[j + 1];
        if (j + 1 < n - 1) {
            T *lc = L + (j + 1) * n;
            if (vmax > 0) {
                const T inv = (T)1 / e[j];
                for (int64_t i = j + 2; i < n; i++)
                    lc[i] = v[i] * inv;
            } else {
                for (int64_t i = j + 2; i < n; i++)
                    lc[i] = 0;
            }
        }
    }
}

/* LU with partial pivoting of the tridiagonal matrix (dl, d, du), in place:
 * dl the multipliers, d and du the first two diagonals of U, du2 its third
 * (fill from a row swap), swp[i] 1 when rows i and i + 1 were swapped.
 * Returns 0, or the 1-based row of an exactly zero pivot of U. */
static int PREC(ix_gt_factor_)(int64_t n, T *dl, T *d, T *du, T *du2, int *swp)
{
    for (int64_t i = 0; i + 1 < n; i++) {
        if (ABS1(d[i]) >= ABS1(dl[i])) { /* no swap */
            swp[i] = 0;
            if (ABS1(d[i]) == 0)
                return (int)(i + 1);
            const T l = dl[i] / d[i];
            dl[i] = l;
            d[i + 1] -= l * du[i];
            if (i + 2 < n)
                du2[i] = 0;
        } else { /* row i + 1 on top */
            swp[i] = 1;
            const T l = d[i] / dl[i];
            const T di1 = d[i + 1];
            d[i] = dl[i];
            dl[i] = l;
            d[i + 1] = du[i] - l * di1;
            du[i] = di1;
            if (i + 2 < n) {
                du2[i] = du[i + 1];
                du[i + 1] = -l * du2[i];
            }
        }
    }
    if (n > 0 && ABS1(d[n - 1]) == 0)
        return (int)n;
    return 0;
}

/* Solves with the factors of ix_gt_factor_, one right-hand side, in place. */
static void PREC(ix_gt_solve_)(int64_t n, const T *dl, const T *d, const T *du, const T *du2, const int *swp,
                               T *b)
{
    for (int64_t i = 0; i + 1 < n; i++) {
        if (swp[i]) {
            const T t = b[i];
            b[i] = b[i + 1];
            b[i + 1] = t - dl[i] * b[i + 1];
        } else {
            b[i + 1] -= dl[i] * b[i];
        }
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        T s = b[i];
        if (i + 1 < n)
            s -= du[i] * b[i + 1];
        if (i + 2 < n)
            s -= du2[i] * b[i + 2];
        b[i] = s / d[i];
    }
}

/* Solves P A P^T = L T L^H for one right-hand side b, in place. */
static void PREC(ix_aasen_solve_)(int64_t n, const T *L, const int *perm, const T *tl, const T *td,
                                  const T *tu, const T *tu2, const int *swp, T *b)
{
    for (int64_t j = 1; j < n; j++) /* P b */
        PREC(ix_swap_)(b + j, b + perm[j]);
    for (int64_t k = 1; k + 1 < n; k++) /* L y = P b (column 0 is e1) */
        PREC(ix_axpy_)(n - k - 1, b[k], L + k + 1 + k * n, b + k + 1);
    PREC(ix_gt_solve_)(n, tl, td, tu, tu2, swp, b);
    for (int64_t k = n - 2; k >= 1; k--) /* L^H */
        b[k] -= PREC(ix_dotc_)(n - k - 1, L + k + 1 + k * n, b + k + 1);
    for (int64_t j = n - 1; j >= 1; j--) /* P^T */
        PREC(ix_swap_)(b + j, b + perm[j]);
}

/* ---- Bunch-Kaufman for small n, systems across SIMD lanes ----------------- */

#include "indef_lanes_impl.h"

/* ---- one system, and the batch -------------------------------------------- */

/* Elements of T and ints of one thread's workspace. */
#define IX_WORK(n) (2 * (size_t)(n) * (size_t)(n) + 8 * (size_t)(n) + 8)
#define IX_IWORK(n) (3 * (size_t)(n) + 3)

/* Solves one system by `method`; work IX_WORK(n) elements, iwork IX_IWORK(n)
 * ints. Returns its info. */
static int PREC(ix_one_)(int method, char uplo, int64_t n, int64_t nrhs, const T *A, T *B, T *work, int *iwork)
{
    T *W = work, *L = W + n * n, *s1 = L + n * n, *s2 = s1 + n, *d = s2 + n, *e = d + n, *du = e + n,
      *du2 = du + n;
    int *piv = iwork, *swp = iwork + n;
    RT amax = 0;
    int info;
    if (!PREC(ix_load_)(uplo, n, nrhs, A, B, W, method == BSYM_METHOD_LDLT ? &amax : NULL)) {
        info = -1;
    } else if (method == BSYM_METHOD_LDLT) {
        info = PREC(ix_ldlh_run_)(n, nrhs, W, amax, B, s1, 0);
    } else if (method == BSYM_METHOD_BUNCH_KAUFMAN) {
        info = PREC(ix_bk_factor_)(n, W, piv, s1, s2);
        for (int64_t c = 0; info == 0 && c < nrhs; c++)
            PREC(ix_bk_solve_)(n, W, piv, B + c * n);
    } else {
        PREC(ix_aasen_factor_)(n, W, L, d, e, piv, s1, s2);
        /* T's subdiagonal e, superdiagonal conj(e): the LU overwrites both */
        for (int64_t i = 0; i + 1 < n; i++)
            du[i] = CONJ(e[i]);
        info = PREC(ix_gt_factor_)(n, e, d, du, du2, swp);
        for (int64_t c = 0; info == 0 && c < nrhs; c++)
            PREC(ix_aasen_solve_)(n, L, piv, e, d, du, du2, swp, B + c * n);
    }
    if (info != 0)
        PREC(ix_nan_)(n * nrhs, B);
    return info;
}

/* System k of a bsym__indef_cpu_ call by its method (a bsym__team_body): on
 * the thread's workspace, IX_WORK(n) elements of T, then (from the next
 * 64-byte line) IX_IWORK(n) ints. */
static void PREC(ix_one_team_)(void *ctx, int64_t k, void *work)
{
    const PREC(ix_team_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs;
    int *iwork = (int *)((char *)work + bsym__align64(IX_WORK(n) * sizeof(T)));
    j->info[k] = PREC(ix_one_)(j->method, j->uplo, n, nrhs, j->A + k * n * n, j->B + k * n * nrhs, work, iwork);
}

int PREC(bsym__indef_cpu_)(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const T *A, T *B,
                           int *info, int threads)
{
    /* small n: several systems at once across SIMD lanes (Bunch-Kaufman, and
     * LDL^H as Bunch-Kaufman without its pivoting: indef_lanes_impl.h) */
    if ((method == BSYM_METHOD_BUNCH_KAUFMAN || method == BSYM_METHOD_LDLT) && n <= BSYM_CPU_LANES_MAX_N)
        return PREC(ixl_run_)(method, uplo, n, nrhs, count, A, B, info, threads);
    /* one system a group, of equal cost */
    PREC(ix_team_) j = {method, uplo, n, nrhs, count, A, B, info, 0};
    return bsym__team_run(count, threads, bsym__align64(IX_WORK(n) * sizeof(T)) + IX_IWORK(n) * sizeof(int), 0,
                          PREC(ix_one_team_), &j);
}

#if BSYM_COMPLEX
/* The pieces of the complex automatic solve's first step (strategy_impl.h
 * decides with them; the rule is strategy_numerics.h's certificate). work:
 * bsym__ldlh_cert_work_*(n) elements: W (n x n), then n of scratch, then 2n
 * for the caller (the cheap form's 2n doubles).
 *
 * bsym__ldlh_cert_solve_: method LDLT's factorization (tolerance n eps
 * max|a_ij|) and solve, except that it stops at the first pivot that is
 * not above the tolerance, a negative one included: such a system is not
 * certified, and the strategy's next step solves it again from its
 * original B. Returns -1 (non-finite A or B: B NaN), 0 (B solved; W holds L
 * below its diagonal and D on it) or that pivot's 1-based index (B as it
 * was).
 *
 * bsym__ldlh_shift_pos_: 1 when the LDL^H factorization of A - sigma I
 * (no tolerance) has only positive finite pivots (W overwritten). */
size_t PREC(bsym__ldlh_cert_work_)(int64_t n)
{
    return (size_t)n * (size_t)n + 3 * (size_t)n;
}
int PREC(bsym__ldlh_cert_solve_)(char uplo, int64_t n, int64_t nrhs, const T *A, T *B, T *work)
{
    T *W = work, *v = W + n * n;
    RT amax = 0;
    if (!PREC(ix_load_)(uplo, n, nrhs, A, B, W, &amax)) {
        PREC(ix_nan_)(n * nrhs, B);
        return -1;
    }
    return PREC(ix_ldlh_run_)(n, nrhs, W, amax, B, v, 1);
}
int PREC(bsym__ldlh_shift_pos_)(char uplo, int64_t n, const T *A, RT sigma, T *work)
{
    T *W = work, *v = W + n * n;
    if (!PREC(ix_load_)(uplo, n, 0, A, NULL, W, NULL))
        return 0;
    for (int64_t j = 0; j < n; j++)
        W[j + j * n] -= sigma;
    return PREC(ix_ldlh_factor_)(n, W, 0, v, 1) == 0;
}
#endif

#undef IX_WORK
#undef IX_IWORK
