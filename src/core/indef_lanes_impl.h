/*
 * indef_lanes_impl.h -- Bunch-Kaufman, and the complex LDL^H without
 * pivoting, for small n (n <= BSYM_CPU_LANES_MAX_N),
 * IXL systems at once interleaved across SIMD lanes (the layout of
 * ldlt_impl.h's small-n code): entry (i, j), i >= j, of the lower triangle
 * of lane s at Wr[PACKED(i, j) * IXL + s] (real part) and Wi[...] (imaginary
 * part; complex T only), the triangle packed by columns. Every arithmetic
 * statement on whole columns is one operation on an IXV, GCC's generic
 * vector of IXL parts, so that the same body compiles to AVX-512, AVX2 or
 * SSE2 (chosen at run time, cpu_simd.h). IXL is 64 bytes of T (8 double,
 * 16 float, 4 complex double, 8 complex float): a group's two part arrays
 * take the bytes of one real array, which keeps the tile in the L1 cache
 * longer (measured: complex double 10% faster at n = 32 and 64 than with
 * 64-byte vectors of parts, on a Zen 4 with AVX-512).
 * Included by indef_impl.h (after ix_pivot2_) once per precision.
 *
 * The lanes advance in lockstep, one column k per step. At step k each lane
 * is in one of three modes:
 *   IXL_ONE   a 1x1 pivot at k (after swapping rows and columns k and kp),
 *   IXL_TWO   a 2x2 pivot at k, k + 1 (after swapping k + 1 and kp),
 *   IXL_SKIP  k is the second column of the 2x2 pivot taken at k - 1.
 * The pivot search and its decisions are LAPACK's rule, lane by lane, as in
 * ix_bk_factor_ (the column maximum is a vector search, the row maximum and
 * the interchange are per lane, O(n) each). The elimination is then one
 * masked rank-1 update of the trailing matrix, columns k + 1 .. n - 1,
 *   W(i, c) -= U_i conj(P_c),
 * with U = L's column k, P = the unscaled column (IXL_ONE); U = L's first
 * column L1, P = x1 the first unscaled column, both zero in row k + 1 so that
 * the pivot block stays (IXL_TWO); U = L's second column L2, P = x2 the
 * second unscaled column, kept from step k - 1 (IXL_SKIP): the rank-2 update
 * of a 2x2 pivot, L1 x1^H + L2 x2^H, is split over its two steps, so that
 * every step costs one rank-1 update in every lane.
 *
 * LDL^H without pivoting (BSYM_METHOD_LDLT on complex input) is the same
 * code with the pivoting off (piv = 0): every lane in IXL_ONE with kp = k at
 * every step, no search and no interchange, and instead ix_ldlh_factor_'s
 * breakdown test on the pivot (|d_k| <= n eps max|a_ij|, or not finite),
 * lane by lane. Its 1x1 step is ix_ldlh_factor_'s (U = L's column, P = the
 * unscaled column), so this is the one-at-a-time LDL^H, interleaved. Chosen
 * over generalizing the real LDL^T lanes (ldlt_impl.h) to complex parts:
 * that code is real-typed throughout (its packing, scan, certificate and
 * the float-on-double storage of prec_mixed.h), and a complex copy of it
 * would be a third factorization; here LDL^H costs a flag, the pivot test
 * and the tolerance's max|a_ij| at packing time, and it skips Bunch-
 * Kaufman's search and swaps, so it is never slower than Bunch-Kaufman.
 */

#define IXL_BYTES (BSYM_COMPLEX ? 32 : 64) /* of RT: 64 bytes of T */
#define IXL ((int)(IXL_BYTES / sizeof(RT)))
#define IXP(i, j) ((j) * n - (j) * ((j) - 1) / 2 + (i) - (j))
typedef RT PREC(ixv_) __attribute__((vector_size(IXL_BYTES), may_alias));
#define IXV PREC(ixv_)
typedef __typeof__((IXV){0} < (IXV){0}) PREC(ixm_);
#define IXM PREC(ixm_)
#define IXAT(W, p) (*(IXV *)((W) + (size_t)(p) * IXL))
#define IXABS(v) ((IXV)((IXM)(v) & ~(IXM)(-(IXV){0}))) /* -(+0) = -0: the sign bits */
#define IXSEL(m, a, b) ((IXV)(((IXM)(a) & (m)) | ((IXM)(b) & ~(m)))) /* m ? a : b, lane by lane */
/* one part of lane s of entry (i, j) */
#define IXE(W, i, j, s) ((W)[(size_t)IXP(i, j) * IXL + (s)])

#ifndef BSYM_IXL_MODES
#define BSYM_IXL_MODES
enum { IXL_ONE = 1, IXL_TWO = 2, IXL_SKIP = 3 };
#endif

/* |re| + |im| of entry (i, j), lane s (ABS1, LAPACK's pivot-search size). */
BSYM_INLINE
static RT PREC(ixl_abs1_)(int n, const RT *Wr, const RT *Wi, int i, int j, int s)
{
#if BSYM_COMPLEX
    return FABS(IXE(Wr, i, j, s)) + FABS(IXE(Wi, i, j, s));
#else
    (void)Wi;
    return FABS(IXE(Wr, i, j, s));
#endif
}

/* Swaps lane s's parts of entries (i1, j1) and (i2, j2); conj: the two also
 * change sides of the diagonal (each is the conjugate of the other's new
 * value). */
BSYM_INLINE
static void PREC(ixl_swap_)(int n, RT *Wr, RT *Wi, int s, int i1, int j1, int i2, int j2, int conj)
{
    RT *a = &IXE(Wr, i1, j1, s), *b = &IXE(Wr, i2, j2, s), t = *a;
    *a = *b;
    *b = t;
#if BSYM_COMPLEX
    a = &IXE(Wi, i1, j1, s);
    b = &IXE(Wi, i2, j2, s);
    t = *a;
    *a = conj ? -*b : *b;
    *b = conj ? -t : t;
#else
    (void)Wi;
    (void)conj;
#endif
}

/* ix_hswap_ for lane s: swaps rows and columns kk < kp of the trailing
 * Hermitian matrix W(k:n, k:n), stored in its lower triangle. */
BSYM_INLINE
static void PREC(ixl_hswap_)(int n, RT *Wr, RT *Wi, int s, int k, int kk, int kp)
{
    for (int j = k; j < kk; j++) /* rows kk and kp left of column kk */
        PREC(ixl_swap_)(n, Wr, Wi, s, kk, j, kp, j, 0);
    for (int i = kp + 1; i < n; i++) /* below row kp: columns kk and kp */
        PREC(ixl_swap_)(n, Wr, Wi, s, i, kk, i, kp, 0);
    for (int j = kk + 1; j < kp; j++) /* between: column kk and row kp, mirrored */
        PREC(ixl_swap_)(n, Wr, Wi, s, j, kk, kp, j, 1);
#if BSYM_COMPLEX
    IXE(Wi, kp, kk, s) = -IXE(Wi, kp, kk, s);
#endif
    PREC(ixl_swap_)(n, Wr, Wi, s, kk, kk, kp, kp, 0);
}

/* LAPACK's choice for lane s at column k (ix_bk_factor_'s rule), the
 * interchange done: returns IXL_ONE or IXL_TWO and sets *kp; info[s] gets
 * k + 1 when column k is exactly zero (the lane then goes on with a zero
 * 1x1 pivot; its results are dropped). */
BSYM_INLINE
static int PREC(ixl_choose_)(int n, RT *Wr, RT *Wi, int s, int k, RT absakk, RT colmax, int imax, int *kp,
                             int *info)
{
    int kstep = 1;
    *kp = k;
    if (!(absakk > 0) && !(colmax > 0)) {
        if (info[s] == 0)
            info[s] = k + 1;
        return IXL_ONE;
    }
    if (PREC(ix_bk_row_)(absakk, colmax)) {
        RT rowmax = 0; /* the largest off-diagonal entry of row imax */
        for (int j = k; j < imax; j++) {
            const RT a = PREC(ixl_abs1_)(n, Wr, Wi, imax, j, s);
            rowmax = a > rowmax ? a : rowmax;
        }
        for (int i = imax + 1; i < n; i++) {
            const RT a = PREC(ixl_abs1_)(n, Wr, Wi, i, imax, s);
            rowmax = a > rowmax ? a : rowmax;
        }
        int64_t p;
        kstep = PREC(ix_bk_pick_)(absakk, colmax, rowmax, FABS(IXE(Wr, imax, imax, s)), k, imax, &p);
        *kp = (int)p;
    }
    const int kk = k + kstep - 1;
    if (*kp != kk)
        PREC(ixl_hswap_)(n, Wr, Wi, s, k, kk, *kp);
    return kstep == 1 ? IXL_ONE : IXL_TWO;
}

/* The 2x2 pivots' coefficients (IXL_TWO lanes, per lane): cr = c r, ar =
 * a conj(r), rcs = conj(r) s, rs = r s of the pivot [a conj(e); e c] with
 * r and s of ix_pivot2_. */
typedef struct {
    IXV crr, cri, arr, ari, rcsr, rcsi, rsr, rsi;
} PREC(ixl_c2_);

/* z = x * y, complex, parts. */
#define IXL_CMUL(zr, zi, xr, xi, yr, yi) \
    do { \
        const IXV xr_ = (xr), xi_ = (xi), yr_ = (yr), yi_ = (yi); \
        zr = xr_ * yr_ - xi_ * yi_; \
        zi = xr_ * yi_ + xi_ * yr_; \
    } while (0)

/* The scratch of the factorization, n IXV each (rows k+1 .. n-1 of step k
 * used): U and P of the update, x2 of the IXL_TWO lanes (kept for their
 * IXL_SKIP step). Real T: the r parts only. */
#define IXL_SCRATCH 6
#define IXL_PARTS(sc) \
    IXV *ur = (sc), *ui = (sc) + n, *pr = (sc) + 2 * n, *pi = (sc) + 3 * n, *xr2 = (sc) + 4 * n, \
        *xi2 = (sc) + 5 * n; \
    (void)ui, (void)pi, (void)xi2

/* U, P (and x2) of step k, and L's columns, which the update does not
 * change: k (IXL_ONE from row k + 1, IXL_TWO from row k + 2: row k + 1 keeps
 * the pivot's e) and k + 1 (IXL_TWO: L2; the update leaves it as it is, P
 * being zero in row k + 1 of these lanes). m1, m2, m3: the lanes in
 * IXL_ONE, IXL_TWO, IXL_SKIP; any2: some lane in IXL_TWO. */
BSYM_INLINE
static void PREC(ixl_vectors_)(int n, RT *Wr, RT *Wi, int k, const IXM *m1p, const IXM *m2p, const IXM *m3p,
                               int any2, const PREC(ixl_c2_) *c2, IXV *sc)
{
    IXL_PARTS(sc);
    const IXM m1 = *m1p, m2 = *m2p, m3 = *m3p, m12 = m1 | m2;
    const IXV zero = {0}, r = 1 / IXAT(Wr, IXP(k, k));
    (void)Wi;
    for (int i = k + 1; i < n; i++) {
        const IXV x1r = IXAT(Wr, IXP(i, k));
#if BSYM_COMPLEX
        const IXV x1i = IXAT(Wi, IXP(i, k));
#else
        const IXV x1i = zero;
#endif
        /* IXL_ONE: r x1, x1; IXL_SKIP: the column (L2), the kept x2 */
        ur[i] = IXSEL(m1, r * x1r, x1r);
        ui[i] = IXSEL(m1, r * x1i, x1i);
        pr[i] = IXSEL(m3, xr2[i], x1r);
        pi[i] = IXSEL(m3, xi2[i], x1i);
        if (any2 && i == k + 1) { /* row k + 1 of the IXL_TWO lanes: the pivot block's */
            ur[i] = IXSEL(m2, zero, ur[i]);
            ui[i] = IXSEL(m2, zero, ui[i]);
            pr[i] = IXSEL(m2, zero, pr[i]);
            pi[i] = IXSEL(m2, zero, pi[i]);
        } else if (any2) {
            const IXV x2r = IXAT(Wr, IXP(i, k + 1));
#if BSYM_COMPLEX
            const IXV x2i = IXAT(Wi, IXP(i, k + 1));
#else
            const IXV x2i = zero;
#endif
            /* [L1 L2] = [x1 x2] D^-1: L1 = (cr x1 - x2) rcs, L2 = (ar x2 - x1) rs */
            IXV tr, ti, l1r, l1i, l2r, l2i;
            IXL_CMUL(tr, ti, c2->crr, c2->cri, x1r, x1i);
            IXL_CMUL(l1r, l1i, tr - x2r, ti - x2i, c2->rcsr, c2->rcsi);
            IXL_CMUL(tr, ti, c2->arr, c2->ari, x2r, x2i);
            IXL_CMUL(l2r, l2i, tr - x1r, ti - x1i, c2->rsr, c2->rsi);
            ur[i] = IXSEL(m2, l1r, ur[i]);
            ui[i] = IXSEL(m2, l1i, ui[i]);
            xr2[i] = IXSEL(m2, x2r, xr2[i]);
            xi2[i] = IXSEL(m2, x2i, xi2[i]);
            IXAT(Wr, IXP(i, k + 1)) = IXSEL(m2, l2r, x2r);
#if BSYM_COMPLEX
            IXAT(Wi, IXP(i, k + 1)) = IXSEL(m2, l2i, x2i);
#else
            (void)l2i;
#endif
        }
        const IXM mk = i == k + 1 ? m1 : m12;
        IXAT(Wr, IXP(i, k)) = IXSEL(mk, ur[i], x1r);
#if BSYM_COMPLEX
        IXAT(Wi, IXP(i, k)) = IXSEL(mk, ui[i], x1i);
#endif
    }
}

/* The trailing update of step k: W(i, c) -= U_i conj(P_c), c > k, i >= c,
 * the diagonal kept real. */
BSYM_INLINE
static void PREC(ixl_update_)(int n, RT *Wr, RT *Wi, int k, IXV *sc)
{
    IXL_PARTS(sc);
    (void)xr2;
    for (int c = k + 1; c < n; c++) {
        IXV *wr = &IXAT(Wr, IXP(c, c)) - c; /* wr[i]: entry (i, c) */
        const IXV a = pr[c];
#if BSYM_COMPLEX
        IXV *wi = &IXAT(Wi, IXP(c, c)) - c;
        const IXV b = pi[c];
        for (int i = c; i < n; i++) {
            wr[i] -= ur[i] * a + ui[i] * b;
            wi[i] -= ui[i] * a - ur[i] * b;
        }
        wi[c] = (IXV){0};
#else
        (void)Wi;
        for (int i = c; i < n; i++)
            wr[i] -= ur[i] * a;
#endif
    }
}

/* Bunch-Kaufman's decisions at step k, every lane: the column maximum (a
 * vector search, LAPACK's first index on ties), then LAPACK's rule and the
 * interchange lane by lane (ixl_choose_), or IXL_SKIP after a 2x2 pivot at
 * k - 1. Sets mode[k * IXL + s], kp[k * IXL + s], the lanes *m1, *m2, *m3
 * in IXL_ONE, IXL_TWO, IXL_SKIP, *c2 the 2x2 pivots' coefficients (zero in
 * the other lanes) and *any2; info as ixl_choose_'s. */
BSYM_INLINE
static void PREC(ixl_bk_step_)(int n, RT *Wr, RT *Wi, int k, int *mode, int *kp, IXM *m1p, IXM *m2p, IXM *m3p,
                               PREC(ixl_c2_) *c2p, int *any2p, int *info)
{
    const IXV absakk = IXABS(IXAT(Wr, IXP(k, k)));
    IXV colmax = {0}, imax = (IXV){0} + (RT)k;
    for (int i = k + 1; i < n; i++) {
#if BSYM_COMPLEX
        const IXV a = IXABS(IXAT(Wr, IXP(i, k))) + IXABS(IXAT(Wi, IXP(i, k)));
#else
        const IXV a = IXABS(IXAT(Wr, IXP(i, k)));
#endif
        const IXM gt = a > colmax;
        colmax = IXSEL(gt, a, colmax);
        imax = IXSEL(gt, (IXV){0} + (RT)i, imax);
    }
    IXM m1, m2, m3;
    PREC(ixl_c2_) c2;
    c2.crr = c2.cri = c2.arr = c2.ari = c2.rcsr = c2.rcsi = c2.rsr = c2.rsi = (IXV){0};
    int any2 = 0;
    for (int s = 0; s < IXL; s++) {
        int md, p;
        if (k > 0 && mode[(k - 1) * IXL + s] == IXL_TWO) {
            md = IXL_SKIP;
            p = kp[(k - 1) * IXL + s];
        } else {
            md = PREC(ixl_choose_)(n, Wr, Wi, s, k, absakk[s], colmax[s], (int)imax[s], &p, info);
        }
        mode[k * IXL + s] = md;
        kp[k * IXL + s] = p;
        m1[s] = md == IXL_ONE ? -1 : 0;
        m2[s] = md == IXL_TWO ? -1 : 0;
        m3[s] = md == IXL_SKIP ? -1 : 0;
        if (md == IXL_TWO) {
            any2 = 1;
            const RT a = IXE(Wr, k, k, s), c = IXE(Wr, k + 1, k + 1, s);
#if BSYM_COMPLEX
            const T e = PREC(cplx_)(IXE(Wr, k + 1, k, s), IXE(Wi, k + 1, k, s));
#else
            const T e = IXE(Wr, k + 1, k, s);
#endif
            T r;
            RT sv;
            PREC(ix_pivot2_)(a, c, e, &r, &sv);
            const T cr = c * r, ar = a * CONJ(r), rcs = CONJ(r) * sv, rs = r * sv;
            c2.crr[s] = RE(cr), c2.cri[s] = IM(cr), c2.arr[s] = RE(ar), c2.ari[s] = IM(ar);
            c2.rcsr[s] = RE(rcs), c2.rcsi[s] = IM(rcs), c2.rsr[s] = RE(rs), c2.rsi[s] = IM(rs);
        }
    }
    *m1p = m1;
    *m2p = m2;
    *m3p = m3;
    *c2p = c2;
    *any2p = any2;
}

/* LDL^H's step k (no pivoting): a 1x1 pivot in every lane (*m1 all lanes,
 * *m2 and *m3 none); info[s] gets k + 1 where the pivot d_k is not finite
 * or |d_k| <= tol[s], ix_ldlh_factor_'s breakdown (left as it is when
 * already set; the lane then goes on, its results dropped). */
BSYM_INLINE
static void PREC(ixl_ldlh_step_)(int n, const RT *Wr, int k, const IXV *tolp, IXM *m1p, IXM *m2p, IXM *m3p,
                                 int *info)
{
    const IXV d = IXABS(IXAT(Wr, IXP(k, k)));
    const IXM good = (d > *tolp) & (d <= TMAX);
    for (int s = 0; s < IXL; s++)
        if (!good[s] && info[s] == 0)
            info[s] = k + 1;
    const IXV zero = {0};
    *m1p = zero == zero;
    *m2p = *m3p = zero != zero;
}

/* Factors the interleaved group (lower triangles in Wr, Wi) in place as
 * ix_bk_factor_ (piv = 1) or ix_ldlh_factor_ (piv = 0, pivot tolerances
 * tol, per lane) does each system: L below the blocks of D; mode[k * IXL +
 * s] and kp[k * IXL + s] the step's mode and interchange (IXL_SKIP: kp of
 * the 2x2 pivot; piv = 1 only); c2s[k] the coefficients of the 2x2 pivots
 * at k (zero in the other lanes), mks[3 k + md - 1] the lanes in mode md
 * at k, any2[k] 1 when some lane takes a 2x2 pivot at k (all for the
 * solve). info[s]: the first exactly zero column k + 1 (piv = 1) or
 * breakdown (piv = 0), left as it is when already set. sc: IXL_SCRATCH n
 * IXV of scratch. pf, pfb: bytes to prefetch (the next group's matrices),
 * a slice per step. */
BSYM_INLINE
static void PREC(ixl_factor_)(int n, int piv, const IXV *tol, RT *Wr, RT *Wi, int *mode, int *kp,
                              PREC(ixl_c2_) *c2s, IXM *mks, int *any2s, int *info, IXV *sc, const char *pf,
                              size_t pfb)
{
    /* x2 starts at zero: ixl_vectors_ selects lane by lane between it and
     * the column (IXSEL), so it reads x2 in every lane from the first step
     * on, although only the IXL_SKIP lanes take it, written for them at the
     * step before. Without this the other lanes read uninitialised scratch
     * and drop it: harmless, but the compiler's blend for IXSEL made
     * valgrind report it at every step after the first (session 37). */
    IXL_PARTS(sc);
    (void)ur, (void)pr;
    for (int i = 0; i < n; i++)
        xr2[i] = xi2[i] = (IXV){0};
    for (int k = 0; k < n; k++) {
        for (size_t b = pfb * (size_t)k / (size_t)n; b < pfb * (size_t)(k + 1) / (size_t)n; b += 64)
            __builtin_prefetch(pf + b, 0, 2);
        IXM m1, m2, m3;
        int any2 = 0; /* piv = 0: c2s[k] is never read */
        if (piv)
            PREC(ixl_bk_step_)(n, Wr, Wi, k, mode, kp, &m1, &m2, &m3, c2s + k, &any2, info);
        else
            PREC(ixl_ldlh_step_)(n, Wr, k, tol, &m1, &m2, &m3, info);
        mks[3 * k] = m1;
        mks[3 * k + 1] = m2;
        mks[3 * k + 2] = m3;
        any2s[k] = any2;
        if (k + 1 == n)
            break;
        PREC(ixl_vectors_)(n, Wr, Wi, k, &m1, &m2, &m3, any2, c2s + k, sc);
        PREC(ixl_update_)(n, Wr, Wi, k, sc);
    }
}

/* Swaps lane s of x[i] and x[j] (both parts). */
BSYM_INLINE
static void PREC(ixl_xswap_)(RT *xr, RT *xi, int s, int i, int j)
{
    RT t = xr[i * IXL + s];
    xr[i * IXL + s] = xr[j * IXL + s];
    xr[j * IXL + s] = t;
#if BSYM_COMPLEX
    t = xi[i * IXL + s];
    xi[i * IXL + s] = xi[j * IXL + s];
    xi[j * IXL + s] = t;
#else
    (void)xi;
#endif
}

/* Solves the factored group (ixl_factor_'s piv, W, mode, kp, c2s, mks,
 * any2s) for one interleaved right-hand side (parts Xr, Xi: n IXV each), in
 * place, as ix_bk_solve_ (piv = 1) or ix_ldlh_solve_ (piv = 0: no
 * interchanges) does each system. */
BSYM_INLINE
static void PREC(ixl_solve_)(int n, int piv, const RT *Wr, const RT *Wi, const int *mode, const int *kp,
                             const PREC(ixl_c2_) *c2s, const IXM *mks, const int *any2s, RT *Xr, RT *Xi)
{
    IXV *xr = (IXV *)Xr, *xi = (IXV *)Xi;
    const IXV zero = {0};
    (void)Wi;
    (void)xi;
    for (int k = 0; k < n; k++) { /* L D y = P b, the interchanges in between */
        for (int s = 0; piv && s < IXL; s++) {
            const int md = mode[k * IXL + s];
            if (md != IXL_SKIP)
                PREC(ixl_xswap_)(Xr, Xi, s, md == IXL_ONE ? k : k + 1, kp[k * IXL + s]);
        }
        const int any2 = any2s[k];
        const IXM m1 = mks[3 * k], m2 = mks[3 * k + 1];
        const IXV b1r = IXSEL(m1 | m2, xr[k], zero);
        if (k + 1 < n) /* row k + 1: the multiplier of the IXL_ONE lanes */
            xr[k + 1] -= IXAT(Wr, IXP(k + 1, k)) * IXSEL(m1, b1r, zero);
#if BSYM_COMPLEX
        const IXV b1i = IXSEL(m1 | m2, xi[k], zero);
        if (k + 1 < n) {
            const IXV lr = IXAT(Wr, IXP(k + 1, k)), li = IXAT(Wi, IXP(k + 1, k));
            xr[k + 1] += li * IXSEL(m1, b1i, zero);
            xi[k + 1] -= lr * IXSEL(m1, b1i, zero) + li * IXSEL(m1, b1r, zero);
        }
#endif
        /* rows k + 2 ..: b -= L1 b_k, then b -= L2 b_{k+1} when some lane has
         * a 2x2 pivot (zero but in those lanes): two statements, so that a
         * lane's numbers do not depend on the other lanes' pivots (the first
         * is contracted alike either way) */
        const IXV b2r = IXSEL(m2, xr[k + 1 < n ? k + 1 : k], zero);
#if BSYM_COMPLEX
        const IXV b2i = IXSEL(m2, xi[k + 1 < n ? k + 1 : k], zero);
#endif
        for (int i = k + 2; i < n; i++) {
            const IXV lr = IXAT(Wr, IXP(i, k));
#if BSYM_COMPLEX
            const IXV li = IXAT(Wi, IXP(i, k));
            xr[i] -= lr * b1r - li * b1i;
            xi[i] -= lr * b1i + li * b1r;
#else
            xr[i] -= lr * b1r;
#endif
            if (any2) {
                const IXV mr = IXAT(Wr, IXP(i, k + 1));
#if BSYM_COMPLEX
                const IXV mi = IXAT(Wi, IXP(i, k + 1));
                xr[i] -= mr * b2r - mi * b2i;
                xi[i] -= mr * b2i + mi * b2r;
#else
                xr[i] -= mr * b2r;
#endif
            }
        }
        /* D: 1x1 pivots (real) and 2x2 pivots, z1 = (conj(cr) w1 - w2) rs,
         * z2 = (conj(ar) w2 - w1) rcs (ix_bk_solve_'s formulas, regrouped) */
        const IXV d = IXAT(Wr, IXP(k, k));
        xr[k] = IXSEL(m1, xr[k] / d, xr[k]);
#if BSYM_COMPLEX
        xi[k] = IXSEL(m1, xi[k] / d, xi[k]);
#endif
        if (any2) {
            const PREC(ixl_c2_) *c2 = c2s + k;
#if BSYM_COMPLEX
            const IXV w1r = xr[k], w1i = xi[k], w2r = xr[k + 1], w2i = xi[k + 1];
#else
            const IXV w1r = xr[k], w1i = zero, w2r = xr[k + 1], w2i = zero;
#endif
            IXV tr, ti, z1r, z1i, z2r, z2i;
            IXL_CMUL(tr, ti, c2->crr, -c2->cri, w1r, w1i);
            IXL_CMUL(z1r, z1i, tr - w2r, ti - w2i, c2->rsr, c2->rsi);
            IXL_CMUL(tr, ti, c2->arr, -c2->ari, w2r, w2i);
            IXL_CMUL(z2r, z2i, tr - w1r, ti - w1i, c2->rcsr, c2->rcsi);
            xr[k] = IXSEL(m2, z1r, xr[k]);
            xr[k + 1] = IXSEL(m2, z2r, xr[k + 1]);
#if BSYM_COMPLEX
            xi[k] = IXSEL(m2, z1i, xi[k]);
            xi[k + 1] = IXSEL(m2, z2i, xi[k + 1]);
#else
            (void)z1i, (void)z2i;
#endif
        }
    }
    for (int k = n - 1; k >= 0; k--) { /* L^H x = y, the interchanges in reverse */
        /* x_k -= L(k+1:, k)^H x(k+1:) in the IXL_ONE and IXL_SKIP lanes; x_{k-1}
         * likewise with column k - 1 in the IXL_SKIP lanes */
        const int any3 = k > 0 && any2s[k - 1];
        const IXM m2 = mks[3 * k + 1];
        /* two loops, so that x_k's sums are the same whatever the other
         * lanes' pivots */
        IXV sr = zero, si = zero, tr = zero, ti = zero;
        for (int i = k + 1; i < n; i++) {
            const IXV lr = IXAT(Wr, IXP(i, k));
#if BSYM_COMPLEX
            const IXV li = IXAT(Wi, IXP(i, k));
            sr += lr * xr[i] + li * xi[i];
            si += lr * xi[i] - li * xr[i];
#else
            sr += lr * xr[i];
#endif
        }
        for (int i = k + 1; any3 && i < n; i++) {
            const IXV mr = IXAT(Wr, IXP(i, k - 1));
#if BSYM_COMPLEX
            const IXV mi = IXAT(Wi, IXP(i, k - 1));
            tr += mr * xr[i] + mi * xi[i];
            ti += mr * xi[i] - mi * xr[i];
#else
            tr += mr * xr[i];
#endif
        }
        (void)si;
        (void)ti;
        xr[k] -= IXSEL(m2, zero, sr);
#if BSYM_COMPLEX
        xi[k] -= IXSEL(m2, zero, si);
#endif
        if (any3) {
            const IXM m3 = mks[3 * k + 2];
            xr[k - 1] -= IXSEL(m3, tr, zero);
#if BSYM_COMPLEX
            xi[k - 1] -= IXSEL(m3, ti, zero);
#endif
        }
        for (int s = 0; piv && s < IXL; s++)
            if (mode[k * IXL + s] != IXL_TWO)
                PREC(ixl_xswap_)(Xr, Xi, s, k, kp[k * IXL + s]);
    }
}

/* Parts (RT) of a group's workspace: Wr, Wi, Xr, Xi, IXL_SCRATCH n IXV of
 * scratch, n ixl_c2_ (8 IXV each), 3 n IXM (of IXV's size), then
 * 2 n IXL + n ints (mode, kp, any2s). */
static size_t PREC(ixl_work_)(int n, int nrhs)
{
    const size_t tri = (size_t)n * (n + 1) / 2, parts = BSYM_COMPLEX ? 2 : 1;
    return ((tri + (size_t)n * nrhs) * parts + (IXL_SCRATCH + 8 + 3) * (size_t)n) * IXL + 3 * (size_t)n * IXL;
}

/* LDL^H's pivot tolerances, lane by lane: n eps max|a_ij| as ix_ldlh_run_
 * takes it from ix_load_, from the packed triangle's m1 = max(|re|, |im|)
 * and m2 = max |a|^2 (ix_amax_), the modulus entry by entry where |a|^2
 * may have overflowed. chk: NaN in the lanes with non-finite input (no
 * tolerance needed). */
BSYM_INLINE
static void PREC(ixl_ldlh_tol_)(int n, const RT *Wr, const RT *Wi, const IXV *m1, const IXV *m2, const IXV *chk,
                                IXV *tol)
{
    for (int s = 0; s < IXL; s++) {
        RT amax = PREC(ix_amax_)((*m1)[s], (*m2)[s]);
        if (amax < 0 && (*chk)[s] == 0) {
            amax = 0;
            for (int j = 0; j < n; j++)
                for (int i = j; i < n; i++) {
                    const RT a = CABS(PREC(cplx_)(IXE(Wr, i, j, s), BSYM_COMPLEX ? IXE(Wi, i, j, s) : 0));
                    amax = a > amax ? a : amax;
                }
        }
        (*tol)[s] = (RT)n * EPS * amax;
    }
}

/* Solves systems [0, m) (m <= IXL) starting at A, B by Bunch-Kaufman (piv =
 * 1) or LDL^H without pivoting (piv = 0); the unused lanes repeat system 0
 * (their results are dropped); the next ahead systems are fetched while
 * this group computes. work: ixl_work_ parts, 64-byte aligned. info as
 * ix_one_'s. */
BSYM_INLINE
static void PREC(ixl_group_)(int piv, char uplo, int n, int nrhs, int m, int ahead, const T *A, T *B, int *info,
                             RT *work)
{
    const size_t tri = (size_t)n * (n + 1) / 2 * IXL, xb = (size_t)n * nrhs * IXL;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    RT *Wr = work, *Wi = Wr + (BSYM_COMPLEX ? tri : 0), *Xr = Wi + tri, *Xi = Xr + (BSYM_COMPLEX ? xb : 0);
    IXV *sc = (IXV *)(Xi + xb);
    PREC(ixl_c2_) *c2s = (PREC(ixl_c2_) *)(sc + IXL_SCRATCH * (size_t)n);
    IXM *mks = (IXM *)(c2s + n);
    int *mode = (int *)(mks + 3 * (size_t)n), *kp = mode + (size_t)n * IXL, *any2s = kp + (size_t)n * IXL;
    int inf[IXL];
    const T *a[IXL];
    IXV chk = {0}, m1 = {0}, m2 = {0}; /* m1, m2: ixl_ldlh_tol_'s */
    for (int s = 0; s < IXL; s++) {
        a[s] = A + (s < m ? s : 0) * nn;
        inf[s] = 0;
    }
    /* interleave, one IXV of each part per entry: entry (i, j) of the lower
     * triangle, or conj(A(j, i)) for uplo 'U'; the diagonal real. v * 0 is
     * NaN exactly where v is not finite. */
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            const size_t e = uplo == 'L' ? (size_t)i + (size_t)j * n : (size_t)j + (size_t)i * n;
            IXV vr, vi = {0};
            for (int s = 0; s < IXL; s++) {
                vr[s] = RE(a[s][e]);
                vi[s] = IM(a[s][e]);
            }
            IXAT(Wr, IXP(i, j)) = vr;
            chk += vr * 0;
#if BSYM_COMPLEX
            vi = i == j ? (IXV){0} : uplo == 'L' ? vi : -vi;
            IXAT(Wi, IXP(i, j)) = vi;
            chk += vi * 0;
#else
            (void)vi;
#endif
            if (!piv) {
                const IXV ar = IXABS(vr), ai = IXABS(vi), big = IXSEL(ar > ai, ar, ai), sq = vr * vr + vi * vi;
                m1 = IXSEL(big > m1, big, m1);
                m2 = IXSEL(sq > m2, sq, m2);
            }
        }
    for (size_t e = 0; e < nb; e++) {
        IXV vr, vi;
        for (int s = 0; s < IXL; s++) {
            const T v = B[(s < m ? s : 0) * nb + e];
            vr[s] = RE(v);
            vi[s] = IM(v);
        }
        IXAT(Xr, e) = vr;
        chk += vr * 0;
#if BSYM_COMPLEX
        IXAT(Xi, e) = vi;
        chk += vi * 0;
#else
        (void)vi;
#endif
    }
    IXV tol = {0};
    if (!piv)
        PREC(ixl_ldlh_tol_)(n, Wr, Wi, &m1, &m2, &chk, &tol);
    PREC(ixl_factor_)(n, piv, &tol, Wr, Wi, mode, kp, c2s, mks, any2s, inf, sc, (const char *)(A + (size_t)m * nn),
                      (size_t)ahead * nn * sizeof(T));
    for (int c = 0; c < nrhs; c++)
        PREC(ixl_solve_)(n, piv, Wr, Wi, mode, kp, c2s, mks, any2s, Xr + (size_t)c * n * IXL,
                         Xi + (size_t)c * n * IXL);
    for (int s = 0; s < m; s++) {
        info[s] = !(chk[s] == 0) ? -1 : inf[s];
        T *b = B + s * nb;
        if (info[s] != 0) {
            PREC(ix_nan_)((int64_t)nb, b);
            continue;
        }
        for (size_t e = 0; e < nb; e++)
#if BSYM_COMPLEX
            b[e] = PREC(cplx_)(Xr[e * IXL + s], Xi[e * IXL + s]);
#else
            b[e] = Xr[e * IXL + s];
#endif
    }
}

/* ixl_group_ compiled for AVX-512 and for AVX2 + FMA (x86-64), and the
 * choice at run time (bsym__cpu_isa, cpu_simd.h). */
#ifdef BSYM_X86_DISPATCH
BSYM_TARGET_AVX512 static void PREC(ixl_group_avx512_)(int piv, char uplo, int n, int nrhs, int m, int ahead,
                                                       const T *A, T *B, int *info, RT *work)
{
    PREC(ixl_group_)(piv, uplo, n, nrhs, m, ahead, A, B, info, work);
}
BSYM_TARGET_AVX2 static void PREC(ixl_group_avx2_)(int piv, char uplo, int n, int nrhs, int m, int ahead,
                                                   const T *A, T *B, int *info, RT *work)
{
    PREC(ixl_group_)(piv, uplo, n, nrhs, m, ahead, A, B, info, work);
}
#endif
static void PREC(ixl_group_any_)(int isa, int piv, char uplo, int n, int nrhs, int m, int ahead, const T *A, T *B,
                                 int *info, RT *work)
{
#ifdef BSYM_X86_DISPATCH
    if (isa == BSYM_ISA_AVX512) {
        PREC(ixl_group_avx512_)(piv, uplo, n, nrhs, m, ahead, A, B, info, work);
        return;
    }
    if (isa == BSYM_ISA_AVX2) {
        PREC(ixl_group_avx2_)(piv, uplo, n, nrhs, m, ahead, A, B, info, work);
        return;
    }
#endif
    (void)isa;
    PREC(ixl_group_)(piv, uplo, n, nrhs, m, ahead, A, B, info, work);
}

/* One call of the indefinite solvers on systems [0, count), as its groups
 * see it: ixl_group_team_ here, ix_one_team_ (indef_impl.h) one system
 * a group. */
typedef struct {
    int method; /* BSYM_METHOD_BUNCH_KAUFMAN, _AASEN (ix_one_team_ only) or _LDLT */
    char uplo;
    int64_t n, nrhs, count;
    const T *A;
    T *B;
    int *info;
    int isa;    /* ixl_group_team_: bsym__cpu_isa() */
} PREC(ix_team_);

/* Group g of an ixl_run_ call (a bsym__team_body): IXL systems (fewer in
 * the last group) across SIMD lanes, on the thread's workspace. */
static void PREC(ixl_group_team_)(void *ctx, int64_t g, void *work)
{
    const PREC(ix_team_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs, k = g * IXL;
    const int m = j->count - k < IXL ? (int)(j->count - k) : IXL;
    const int64_t rest = j->count - k - m, ahead = rest < IXL ? rest : IXL;
    PREC(ixl_group_any_)(j->isa, j->method == BSYM_METHOD_BUNCH_KAUFMAN, j->uplo, (int)n, (int)nrhs, m,
                         (int)ahead, j->A + k * n * n, j->B + k * n * nrhs, j->info + k, work);
}

/* Bunch-Kaufman or LDL^H without pivoting (method) on systems [0, count),
 * IXL at a time, OpenMP over the groups (bsym__team_run, groups of equal
 * cost). Returns 0, or -1 when a thread's workspace could not be
 * allocated. */
static int PREC(ixl_run_)(int method, char uplo, int64_t n, int64_t nrhs, int64_t count, const T *A, T *B,
                          int *info, int threads)
{
    PREC(ix_team_) j = {method, uplo, n, nrhs, count, A, B, info, bsym__cpu_isa()};
    return bsym__team_run((count + IXL - 1) / IXL, threads, PREC(ixl_work_)((int)n, (int)nrhs) * sizeof(RT),
                          0, PREC(ixl_group_team_), &j);
}

#undef IXL
#undef IXL_BYTES
#undef IXP
#undef IXV
#undef IXM
#undef IXAT
#undef IXABS
#undef IXSEL
#undef IXE
#undef IXL_CMUL
#undef IXL_SCRATCH
#undef IXL_PARTS
