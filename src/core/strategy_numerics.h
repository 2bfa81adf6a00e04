/*
 * strategy_numerics.h -- the per-system numerics of the truncated-spectrum and
 * automatic solves (bsym_*solvex) and of batched least squares
 * (bsym_*lsfit), written once for the CPU (core/eigen.c) and the GPU
 * (cuda/strategy.cu):
 *   - the backward error of a solution, one row at a time;
 *   - the conditioning test: Sturm counts on T tell whether an eigenvalue
 *     lies in (-rcond max|l|, rcond max|l|), and whether one is <= 0;
 *   - the shift of the LDL^T start's certificate (Sylvester's law of inertia),
 *     which keeps exactly that test's decision;
 *   - the truncated-spectrum solution x = sum over the kept pairs of
 *     v (v^T b) / l, one coefficient or one row at a time;
 *   - the weighted dot products of the normal equations and the residual of
 *     a fit, one row at a time;
 *   - the complex Hermitian forms of the residual row, the truncated
 *     solution and the certificate's norms, on (re, im) pairs.
 * Sums are accumulated in double for both precisions: the residual of a
 * float solution must not drown in float rounding, and a float Gram matrix
 * summed over m rows in float would carry m eps of error instead of eps.
 *
 * Included after tridiag_eig_impl.h (te_sturm_, te_gersh_, te_pow2_), with
 * the same macros: T, SFX, FABS, FREXP, LDEXP, EPS, TE_FN.
 */

/* A vectorizable sum (the CPU's OpenMP simd; nothing on the GPU). */
#if defined(__CUDA_ARCH__) || !defined(_OPENMP)
#define STRATEGY_SIMD_SUM
#else
#define STRATEGY_SIMD_SUM _Pragma("omp simd reduction(+ : s)")
#endif

/* max|l| is bracketed to this relative width by the conditioning test. */
#define STRATEGY_REL_WIDTH (1.0 / 1024)

/* Row i of the residual of A x = b, in double: returns |b_i - (A x)_i| and
 * sets *arow = sum_k |A(i, k)|, A read from the triangle named by uplo (n x n,
 * column-major). Non-finite input gives a non-finite result. */
TE_FN double PREC(strategy_resid_row_)(char uplo, int n, const T *A, const T *x, T b, int i, double *arow)
{
    double s = 0, a = 0;
    for (int k = 0; k < n; k++) {
        const double v = (uplo == 'L') == (i >= k) ? A[i + (size_t)k * n] : A[k + (size_t)i * n];
        s += v * (double)x[k];
        a += v < 0 ? -v : v;
    }
    *arow = a;
    s = (double)b - s;
    return s < 0 ? -s : s;
}

/* The backward error of one right-hand side from its maxima: rmax / (anorm
 * xmax + bmax); 0 for an all-zero system, NaN when rmax is NaN. */
TE_FN double PREC(strategy_berr_)(double rmax, double anorm, double xmax, double bmax)
{
    const double den = anorm * xmax + bmax;
    return rmax == 0 ? 0.0 : rmax / den;
}

/* The Sturm count of the scaled T at x (see te_sturm_). */
TE_FN int PREC(strategy_count_)(int n, const T *d, const T *e, T x, T pivmin)
{
    return PREC(te_sturm_)(n, d, e, x, pivmin);
}

/* The conditioning test of one symmetric tridiagonal T (d: n entries, e:
 * n - 1, any scale; finite). Returns 1 when T has an eigenvalue in (-tau,
 * tau], tau = rcond L, L an upper estimate of max|l| within a relative
 * STRATEGY_REL_WIDTH (bisection on Sturm counts from the Gerschgorin interval),
 * and sets *notspd = 1 when an eigenvalue is <= 0. A zero T returns 1.
 * ws: 2n elements. */
TE_FN int PREC(strategy_ill_)(int n, const T *d, const T *e, double rcond, T *ws, int *notspd)
{
    T *ds = ws, *es = ws + n, amax = 0, gl, gu, pivmin;
    for (int i = 0; i < n; i++) {
        amax = FABS(d[i]) > amax ? FABS(d[i]) : amax;
        if (i + 1 < n)
            amax = FABS(e[i]) > amax ? FABS(e[i]) : amax;
    }
    *notspd = 1;
    if (!(amax > 0))
        return 1;
    int ex;
    FREXP(amax, &ex); /* max|T| scaled into [1/2, 1): no overflow in the counts */
    for (int i = 0; i < n; i++) {
        ds[i] = PREC(te_pow2_)(d[i], -ex);
        es[i] = i + 1 < n ? PREC(te_pow2_)(e[i], -ex) : (T)0;
    }
    PREC(te_gersh_)(n, ds, es, &gl, &gu, &pivmin);
    /* |gl|, |gu| <= ||T||_inf <= sqrt(n) max|l|: an absolute width of
     * 2^-10 G / n is also within 2^-10 of max|l| */
    const T G = FABS(gl) > FABS(gu) ? FABS(gl) : FABS(gu);
    const T atol = (T)STRATEGY_REL_WIDTH * G / (T)n;
    T bound[2];
    for (int side = 0; side < 2; side++) { /* 0: the smallest eigenvalue, 1: the largest */
        /* multisection: the counts at TE_BISECT_W points of [lo, hi] at once
         * (8 on the CPU, where they vectorize; 1 on the GPU: bisection) */
        const int target = side == 0 ? 1 : n;
        T lo = gl, hi = gu, x[TE_BISECT_W];
        int c[TE_BISECT_W];
        for (int it = 0; it < 64; it++) {
            const T big = FABS(lo) > FABS(hi) ? FABS(lo) : FABS(hi);
            if (hi - lo <= atol || hi - lo <= (T)STRATEGY_REL_WIDTH * big)
                break;
            for (int w = 0; w < TE_BISECT_W; w++)
                x[w] = lo + (hi - lo) * (T)(w + 1) / (T)(TE_BISECT_W + 1);
            PREC(te_sturm_w_)(n, ds, es, x, pivmin, c);
            int w = 0; /* the first point at or above the eigenvalue sought */
            while (w < TE_BISECT_W && c[w] < target)
                w++;
            if (w < TE_BISECT_W)
                hi = x[w];
            if (w > 0)
                lo = x[w - 1];
        }
        bound[side] = side == 0 ? FABS(lo) : FABS(hi);
    }
    const T L = bound[0] > bound[1] ? bound[0] : bound[1];
    const T tau = (T)(rcond * (double)L);
    *notspd = PREC(strategy_count_)(n, ds, es, 0, pivmin) > 0;
    return PREC(strategy_count_)(n, ds, es, tau, pivmin) > PREC(strategy_count_)(n, ds, es, -tau, pivmin);
}

/* ---- the certificate of the LDL^T start (method AUTO) ----------------------
 * Every system is first solved by LDL^T. It keeps that solution when, besides
 * the backward-error test against tol, the LDL^T factorization of A - sigma I
 * (no pivoting, same triangle) has only positive pivots. By Sylvester's law
 * of inertia A - sigma I + E is then positive definite, E the backward error
 * of that factorization, so every eigenvalue of A exceeds sigma - ||E||_2.
 * sigma (strategy_shift_) is chosen so that sigma - ||E||_2 >= tau of
 * strategy_ill_ (rcond L, L <= (1 + 2^-10) max|l| and max|l| <= ubound): a
 * certified system is positive definite and has no eigenvalue in (-tau, tau],
 * so today's test would keep it. A system not certified takes the Householder
 * path, where strategy_ill_ itself decides. The two strategies therefore send
 * the same systems to the truncated spectrum.
 *
 * ||E||_2: with positive pivots, |E| <= gamma_{n+1} |L||D||L^T| (Higham,
 * Thm. 10.3 for the LDL^T form) and by Cauchy-Schwarz (|L||D||L^T|)_ij <=
 * sqrt(a_ii a_jj) (1 + gamma), so ||E||_2 <= n gamma_{n+1} maxdiag (1 + gamma);
 * n (n + 1) EPS maxdiag (EPS = 2u) covers it with a factor near 2. No pivot
 * growth is possible with positive pivots ((L D L^T)_ii = a_ii - sigma bounds
 * every D_k L_ik^2), so their signs are reliable. */

/* sigma for one system: ubound an upper bound of max|l| (min(||A||_inf,
 * ||A||_F) of the symmetric A), maxdiag = max_i |a_ii|. 0 < rcond < 1. */
TE_FN double PREC(strategy_shift_)(int n, double ubound, double maxdiag, double rcond)
{
    return rcond * (1.0 + 2 * STRATEGY_REL_WIDTH) * ubound + (double)n * (double)(n + 1) * (double)EPS * maxdiag;
}

/* The cheap form of the certificate, from the LDL^T factorization of A
 * itself (no second factorization): with L D L^T = A + E, positive pivots
 * and B2 >= ||L^-1||_2^2,
 *   lambda_min(A) >= min D / B2 - ||E||_2,
 * since lambda_min(L D L^T) = sigma_min(L D^1/2)^2 >= min D / ||L^-1||_2^2,
 * and ||E||_2 is bounded as above. So min D > sigma B2 certifies exactly
 * what the factorization of A - sigma I would. B2 = ||M^-1 e||_inf
 * ||M^-T e||_inf >= ||L^-1||_inf ||L^-1||_1 >= ||L^-1||_2^2, M the comparison
 * matrix of L (unit diagonal, -|l_ij| below it: |L^-1| <= M^-1), both
 * products of positive terms and so computed to a relative n EPS, covered by
 * the factor (1 + 4 n EPS). Where L has large entries B2 is pessimistic and
 * the test fails: then the shifted factorization decides. */
TE_FN int PREC(strategy_cert_cheap_)(int n, double mind, double b2, double sigma)
{
    return mind > sigma * b2 * (1.0 + 4.0 * (double)n * (double)EPS);
}

/* The truncation threshold rcond max|l| of the ascending eigenvalues w. */
TE_FN T PREC(strategy_tau_)(int n, const T *w, double rcond)
{
    const T big = FABS(w[0]) > FABS(w[n - 1]) ? FABS(w[0]) : FABS(w[n - 1]);
    return (T)(rcond * (double)big);
}

/* 1 when the pair of eigenvalue l is kept: |l| >= tau and l != 0. */
TE_FN int PREC(strategy_kept_)(T l, T tau)
{
    return FABS(l) >= tau && l != 0;
}

/* The coefficient of pair j in the truncated solution: (v_j^T b) / w_j when
 * kept, else 0 (V n x n column-major, b n entries). */
TE_FN T PREC(strategy_coef_)(int n, const T *V, const T *b, const T *w, int j, T tau)
{
    if (!PREC(strategy_kept_)(w[j], tau))
        return 0;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (double)V[i + (size_t)j * n] * (double)b[i];
    return (T)(s / (double)w[j]);
}

/* Row i of the truncated solution x = V coef. */
TE_FN T PREC(strategy_apply_row_)(int n, const T *V, const T *coef, int i)
{
    double s = 0;
    for (int j = 0; j < n; j++)
        s += (double)V[i + (size_t)j * n] * (double)coef[j];
    return (T)s;
}

/* sum_r w_r x_r y_r over `len` rows, x, y, w with strides 1 (w NULL: all
 * ones): an entry of X^T W X or X^T W Y, or its part over a tile of rows. */
TE_FN double PREC(strategy_wdot_)(int len, const T *x, const T *y, const T *w)
{
    double s = 0;
    if (w == NULL) {
        STRATEGY_SIMD_SUM
        for (int r = 0; r < len; r++)
            s += (double)x[r] * (double)y[r];
    } else {
        STRATEGY_SIMD_SUM
        for (int r = 0; r < len; r++)
            s += (double)w[r] * (double)x[r] * (double)y[r];
    }
    return s;
}

/* Row r of a fit's residual, y_r - sum_j X(r, j) beta_j (X m x p). */
TE_FN double PREC(strategy_fit_resid_)(int m, int p, const T *X, const T *beta, T y, int r)
{
    double s = (double)y;
    for (int j = 0; j < p; j++)
        s -= (double)X[r + (size_t)j * m] * (double)beta[j];
    return s;
}

/* ---- complex Hermitian A (methods TRIDIAG, EIGEN and AUTO on complex input) --
 * The same numerics on complex numbers held as (re, im) pairs of T: the
 * layout of C99's complex types (the CPU's strategy_impl.h) and of the GPU's
 * cx<T> (cuda/strategy.cu), which both pass their arrays here as T *. A, V:
 * n x n complex, column-major (2 n n entries of T); x, b, coef: n complex.
 * Sums in double parts, as for real input. */

/* Entry (i, k) of the Hermitian A whose triangle uplo is stored (the
 * diagonal's imaginary part ignored), as parts. */
TE_FN void PREC(strategy_herm_at_)(char uplo, int n, const T *A, int i, int k, double *re, double *im)
{
    const int stored = (uplo == 'L') == (i > k); /* (i, k) itself; else its mirror (k, i), conjugated */
    const size_t e = stored ? i + (size_t)k * n : k + (size_t)i * n;
    *re = (double)A[2 * e];
    *im = i == k ? 0.0 : stored ? (double)A[2 * e + 1] : -(double)A[2 * e + 1];
}

/* |re + i im| without hypot's cost where the squares can neither overflow
 * nor underflow (hypot otherwise; im = 0: |re|). */
TE_FN double PREC(strategy_mod_)(double re, double im)
{
    const double a = fabs(re), b = fabs(im), m = a > b ? a : b;
    if (b == 0)
        return a;
    return m < 1e150 && m > 1e-150 ? sqrt(re * re + im * im) : hypot(re, im);
}

/* As strategy_resid_row_ for the Hermitian A: |b_i - (A x)_i| (b_i = br +
 * i bi) and *arow = sum_k |A(i, k)|. */
TE_FN double PREC(strategy_cresid_row_)(char uplo, int n, const T *A, const T *x, double br, double bi, int i,
                                        double *arow)
{
    double sr = br, si = bi, a = 0;
    for (int k = 0; k < n; k++) {
        double ar, ai;
        PREC(strategy_herm_at_)(uplo, n, A, i, k, &ar, &ai);
        const double xr = (double)x[2 * k], xi = (double)x[2 * k + 1];
        sr -= ar * xr - ai * xi;
        si -= ar * xi + ai * xr;
        a += PREC(strategy_mod_)(ar, ai);
    }
    *arow = a;
    return PREC(strategy_mod_)(sr, si);
}

/* Row i of the Hermitian A's norms for the certificate's shift: *rsum =
 * sum_k |A(i, k)| (a row of ||A||_inf) and *rsq = sum_k |A(i, k)|^2 (its
 * part of ||A||_F^2). */
TE_FN void PREC(strategy_hrow_norms_)(char uplo, int n, const T *A, int i, double *rsum, double *rsq)
{
    double s = 0, q = 0;
    for (int k = 0; k < n; k++) {
        double ar, ai;
        PREC(strategy_herm_at_)(uplo, n, A, i, k, &ar, &ai);
        s += PREC(strategy_mod_)(ar, ai);
        q += ar * ar + ai * ai;
    }
    *rsum = s;
    *rsq = q;
}

/* As strategy_coef_: (v_j^H b) / w_j when pair j is kept, else 0, as parts
 * (*cr, *ci). */
TE_FN void PREC(strategy_ccoef_)(int n, const T *V, const T *b, const T *w, int j, T tau, T *cr, T *ci)
{
    *cr = *ci = 0;
    if (!PREC(strategy_kept_)(w[j], tau))
        return;
    double sr = 0, si = 0;
    for (int i = 0; i < n; i++) {
        const size_t e = 2 * (i + (size_t)j * n);
        const double vr = (double)V[e], vi = (double)V[e + 1], br = (double)b[2 * i], bi = (double)b[2 * i + 1];
        sr += vr * br + vi * bi;
        si += vr * bi - vi * br;
    }
    *cr = (T)(sr / (double)w[j]);
    *ci = (T)(si / (double)w[j]);
}

/* As strategy_apply_row_: row i of V coef, as parts (*xr, *xi). */
TE_FN void PREC(strategy_capply_row_)(int n, const T *V, const T *coef, int i, T *xr, T *xi)
{
    double sr = 0, si = 0;
    for (int j = 0; j < n; j++) {
        const size_t e = 2 * (i + (size_t)j * n);
        const double vr = (double)V[e], vi = (double)V[e + 1], cr = (double)coef[2 * j], ci = (double)coef[2 * j + 1];
        sr += vr * cr - vi * ci;
        si += vr * ci + vi * cr;
    }
    *xr = (T)sr;
    *xi = (T)si;
}

#undef STRATEGY_SIMD_SUM
