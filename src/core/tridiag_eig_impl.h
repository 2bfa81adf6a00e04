/*
 * tridiag_eig_impl.h -- the symmetric tridiagonal eigensolvers of one system,
 * written once for the CPU (core/eigen.c) and the GPU (cuda/eigen.cu):
 * bisection with Sturm counts (values, all or a selection) and divide and
 * conquer (values and vectors).
 *
 * The includer defines, besides T, SFX, FABS, SQRT, COPYSIGN, FREXP, LDEXP,
 * TMAX, TMIN (smallest normal) and EPS:
 *   TE_FN        the qualifiers of a function ("static" in C, "static
 *                __device__" in CUDA);
 *   TE_SYNC()    a barrier of the threads that share one system (nothing on
 *                the CPU, __syncwarp() on the GPU);
 *   TE_DIV(a, b) a / b, or a times the correctly rounded reciprocal of b
 *                where that is cheaper (the GPU); both are monotone in b,
 *                which is all the Sturm count needs;
 *   and, after this file, the row update TE_ROWS (see te_rows_ below), the one
 *   piece each backend writes its own way.
 * Every phase is a loop TE_FOR(i, N) over independent items (blocks, roots,
 * columns, rows): the CPU runs it with lane 0 and step 1, the GPU with the
 * lanes of the group that owns the system. Phases are separated by TE_SYNC;
 * the sequence of barriers depends only on n, so that all groups of a warp
 * meet them together.
 *
 * Divide and conquer (Cuppen; the paper's Algorithm 3, with deflation):
 * T is first scaled by an exact power of two so that max|T| is in [1/2, 1).
 * Leaves are 1 x 1: D_i = d_i - |e_{i-1}| - |e_i| (every off-diagonal is a
 * tear). Level s = 2, 4, 8, ... merges blocks [lo, mid) and [mid, hi),
 * lo = b s, mid = lo + s/2, hi = lo + s (clipped to n), with
 *   T_block = diag(T1', T2') + |beta| v v^T,  v = (e_last; sign(beta) e_first),
 * so that in the basis of the children's eigenvectors the problem is
 * D + rho z z^T with z = (last row of V1; sign(beta) first row of V2).
 * Deflation (LAPACK's xLAED2 rules): rho |z_i| <= tol, or a Givens rotation
 * of two close poles. The k remaining roots of the secular equation
 *   f(l) = 1/rho + sum_i z_i^2 / (d_i - l)
 * are found by a safeguarded two-pole rational iteration (Li's "middle way")
 * relative to the nearer pole, so that l - d_i is known to high relative
 * accuracy; z is then recomputed from the roots (Gu and Eisenstat's z-hat,
 * Loewner's theorem), which keeps the eigenvectors z-hat_i / (d_i - l_j)
 * numerically orthogonal. The merged eigenvector matrix U (m x m, in the
 * children's basis) multiplies the accumulated matrix W from the right:
 * W = Q V_T, where Q is the Householder matrix (or I for tridiagonal input)
 * and V_T the eigenvectors of T, so the back-transformation costs nothing
 * extra. Two extra rows of W carry the first and last row of each block's
 * V_T, which is all a later merge needs of it.
 */
#define TE_WS PREC(te_ws_)

#ifndef TE_FOR
#define TE_FOR(i, N) for (int i = te_lane; i < (N); i += te_step)
#endif

/* Elements of T and ints of one system's workspace (n >= 1). */
#ifndef TE_WORK_T
#define TE_WORK_T(n) (13 * (size_t)(n) + ((size_t)(n) + 2) * (size_t)(n) + (size_t)(n) * ((size_t)(n) + 1))
/* U's leading dimension: odd, so that lanes writing one column each of U do
 * not all hit one shared-memory bank */
#define TE_LDU(n) ((size_t)(n) + 1)
#define TE_WORK_I(n) (9 * (size_t)(n) + 8)
/* misc[] slots: scale exponent, 1 when the input is finite, first selected
 * index, selected count, convergence failure (0 or 1-based index) */
#define TE_EXP 0
#define TE_FINITE 1
#define TE_FIRST 2
#define TE_COUNT 3
#define TE_FAIL 4
#endif

/* One system's workspace: pointers into the caller's memory. */
typedef struct {
    T *d, *e;         /* n, n: the scaled tridiagonal, e[n-1] = 0            */
    T *D;             /* n: eigenvalues, ascending inside each block          */
    T *ds, *zs;       /* n: a merge's poles and z in sorted order             */
    T *dk, *zk;       /* n: the non-deflated poles and z, compacted           */
    T *tau, *zh;      /* n: roots relative to their origin pole; z-hat        */
    T *nd;            /* n: merged eigenvalues (CPU row update scratch after) */
    T *rc, *rs;       /* n: Givens rotations of deflation                     */
    T *rho;           /* n: per block, the normalized rho                     */
    T *W;             /* (n+2) x n, leading dimension n+2                      */
    T *U;             /* n x n, leading dimension TE_LDU(n): the level's
                         block-diagonal merge matrix                          */
    int *src;         /* n: column of the block behind each sorted position   */
    int *kpos;        /* n: sorted positions of the roots, then the deflated  */
    int *org;         /* n: origin pole (index into dk) of each root          */
    int *fsrc;        /* n: per merged column, root t as -1-t or deflated pos */
    int *rp, *rq;     /* n: rotated sorted positions                          */
    int *kcnt;        /* n: per block, roots (-1: nothing to merge)           */
    int *nrot;        /* n: per block, rotations                              */
    int *bexp;        /* n: per block, the exponent of the secular scaling    */
    int *misc;        /* 8: see TE_EXP ...                                    */
} TE_WS;

/* Carves a workspace out of wt (TE_WORK_T(n) elements) and wi (TE_WORK_I(n)). */
TE_FN void PREC(te_carve_)(TE_WS *w, int n, T *wt, int *wi)
{
    T **tp[] = {&w->d, &w->e, &w->D, &w->ds, &w->zs, &w->dk, &w->zk, &w->tau, &w->zh,
                &w->nd, &w->rc, &w->rs, &w->rho};
    for (int i = 0; i < 13; i++)
        *tp[i] = wt + (size_t)i * n;
    w->W = wt + (size_t)13 * n;
    w->U = w->W + (size_t)(n + 2) * n;
    int **ip[] = {&w->src, &w->kpos, &w->org, &w->fsrc, &w->rp, &w->rq, &w->kcnt, &w->nrot, &w->bexp};
    for (int i = 0; i < 9; i++)
        *ip[i] = wi + (size_t)i * n;
    w->misc = wi + (size_t)9 * n;
}

/* x * 2^e exactly (two factors, so that |e| may exceed one power's range). */
TE_FN T PREC(te_pow2_)(T x, int e)
{
    return x * LDEXP((T)1, e / 2) * LDEXP((T)1, e - e / 2);
}

/* Phase 0 (leader): checks d and e (already copied into w->d, w->e) for
 * finiteness, scales them by 2^-ex so that max|T| is in [1/2, 1), sets
 * misc[TE_EXP], misc[TE_FINITE]. A non-finite system continues with T = 0 so
 * that every barrier is still met; its outputs are NaN. */
TE_FN void PREC(te_scale_)(TE_WS *w, int n)
{
    T amax = 0;
    int bad = 0;
    w->e[n - 1] = 0;
    for (int i = 0; i < n; i++) {
        bad += !(FABS(w->d[i]) <= TMAX) || !(FABS(w->e[i]) <= TMAX);
        amax = FABS(w->d[i]) > amax ? FABS(w->d[i]) : amax;
        amax = FABS(w->e[i]) > amax ? FABS(w->e[i]) : amax;
    }
    int ex = 0;
    if (!bad && amax > 0)
        FREXP(amax, &ex);
    /* scaled entries below sqrt(TMIN) (far below eps of ||T|| ~ 1) become 0,
     * so that no subnormal numbers reach the iterations */
    const T tiny = SQRT((T)TMIN);
    for (int i = 0; i < n; i++) {
        const T x = bad ? (T)0 : PREC(te_pow2_)(w->d[i], -ex), y = bad ? (T)0 : PREC(te_pow2_)(w->e[i], -ex);
        w->d[i] = FABS(x) < tiny ? (T)0 : x;
        w->e[i] = FABS(y) < tiny ? (T)0 : y;
    }
    w->misc[TE_EXP] = ex;
    w->misc[TE_FINITE] = !bad;
    w->misc[TE_FAIL] = 0;
}

/* ---- bisection ------------------------------------------------------------ */

/* Bisection runs TE_BISECT_W independent chains together (the includer may
 * set it: the CPU uses 8, whose arithmetic then vectorizes across chains;
 * the GPU 1, its lanes being the chains). */
#ifndef TE_BISECT_W
#define TE_BISECT_W 1
#endif

/* Sturm counts: c[w] = the number of eigenvalues of T that are <= x[w], for
 * the TE_BISECT_W points x[0 .. TE_BISECT_W) at once (a pivot q with |q| <
 * pivmin is replaced by -pivmin, which keeps each count monotone in x and
 * free of division by zero). e2[i] = e[i]^2 is not needed: the scaled T has
 * |e| < 1, and e * (e / q) cannot overflow for |q| >= pivmin. */
TE_FN void PREC(te_sturm_w_)(int n, const T *d, const T *e, const T *x, T pivmin, int *c)
{
    T q[TE_BISECT_W];
    for (int w = 0; w < TE_BISECT_W; w++) {
        q[w] = d[0] - x[w];
        c[w] = 0;
    }
    for (int i = 0;;) {
        for (int w = 0; w < TE_BISECT_W; w++) {
            q[w] = FABS(q[w]) < pivmin ? -pivmin : q[w];
            c[w] += q[w] <= 0;
        }
        if (++i == n)
            break;
        const T di = d[i], ei = e[i - 1];
        for (int w = 0; w < TE_BISECT_W; w++)
            q[w] = (di - x[w]) - ei * TE_DIV(ei, q[w]);
    }
}

/* The Sturm count at one point x. */
TE_FN int PREC(te_sturm_)(int n, const T *d, const T *e, T x, T pivmin)
{
    T xs[TE_BISECT_W];
    int c[TE_BISECT_W];
    for (int w = 0; w < TE_BISECT_W; w++)
        xs[w] = x;
    PREC(te_sturm_w_)(n, d, e, xs, pivmin, c);
    return c[0];
}

/* Gerschgorin interval [*gl, *gu] of the scaled T and the pivot guard. */
TE_FN void PREC(te_gersh_)(int n, const T *d, const T *e, T *gl, T *gu, T *pivmin)
{
    T lo = d[0], hi = d[0], emax = 0;
    for (int i = 0; i < n; i++) {
        T r = FABS(e[i]) + (i > 0 ? FABS(e[i - 1]) : (T)0);
        lo = d[i] - r < lo ? d[i] - r : lo;
        hi = d[i] + r > hi ? d[i] + r : hi;
        emax = FABS(e[i]) > emax ? FABS(e[i]) : emax;
    }
    /* widen by a few ulps of the magnitude (not the width, which may be 0)
     * so that the count is 0 at gl and n at gu */
    const T tnorm = FABS(lo) > FABS(hi) ? FABS(lo) : FABS(hi);
    *gl = lo - 2 * EPS * tnorm * n - 2 * (T)TMIN;
    *gu = hi + 2 * EPS * tnorm * n + 2 * (T)TMIN;
    *pivmin = (T)TMIN * (emax * emax > 1 ? emax * emax : (T)1);
}

/* The eigenvalues of ascending indices idx[w] (0-based), w < TE_BISECT_W,
 * of the scaled T, by bisection of the brackets [lo[w], hi[w]] (overwritten)
 * to intervals of width 2 eps max(|lo|, |hi|) + eps (gu - gl), [gl, gu] the
 * Gerschgorin interval; x[w] the results. A finished chain stops moving. */
TE_FN void PREC(te_bisect_w_)(int n, const T *d, const T *e, const int *idx, T *lo, T *hi, T gl,
                            T gu, T pivmin, T *x)
{
    const T atol = EPS * (gu - gl);
    int c[TE_BISECT_W];
    for (int it = 0; it < 4 * (int)sizeof(T) * 8; it++) {
        int busy = 0;
        for (int w = 0; w < TE_BISECT_W; w++) {
            const T big = FABS(lo[w]) > FABS(hi[w]) ? FABS(lo[w]) : FABS(hi[w]);
            busy += hi[w] - lo[w] > atol + 2 * EPS * big;
            x[w] = lo[w] + (hi[w] - lo[w]) / 2;
        }
        if (!busy)
            break;
        PREC(te_sturm_w_)(n, d, e, x, pivmin, c);
        for (int w = 0; w < TE_BISECT_W; w++) {
            const T big = FABS(lo[w]) > FABS(hi[w]) ? FABS(lo[w]) : FABS(hi[w]);
            if (hi[w] - lo[w] > atol + 2 * EPS * big) {
                if (c[w] > idx[w])
                    hi[w] = x[w];
                else
                    lo[w] = x[w];
            }
        }
    }
    /* below the pivot guard is zero to the working precision (T is scaled) */
    for (int w = 0; w < TE_BISECT_W; w++) {
        x[w] = lo[w] + (hi[w] - lo[w]) / 2;
        x[w] = FABS(x[w]) <= 2 * pivmin ? (T)0 : x[w];
    }
}

/* Phase (leader): the selected index range [misc[TE_FIRST], +misc[TE_COUNT])
 * of the scaled T. kind/il/iu/vl/vu as bsym_select (il, iu 1-based). For a
 * value interval the Sturm counts at the scaled vl and vu give the range. */
TE_FN void PREC(te_select_range_)(TE_WS *w, int n, int kind, int64_t il, int64_t iu, double vl,
                                double vu)
{
    int first = 0, count = n;
    if (!w->misc[TE_FINITE]) {
        count = 0;
    } else if (kind == BSYM_SELECT_INDEX) {
        first = (int)il - 1;
        count = (int)(iu - il + 1);
    } else if (kind == BSYM_SELECT_VALUE) {
        T gl, gu, pivmin;
        PREC(te_gersh_)(n, w->d, w->e, &gl, &gu, &pivmin);
        /* the interval in the scaled units, clamped to the Gerschgorin one */
        double s = (double)PREC(te_pow2_)((T)1, -w->misc[TE_EXP]);
        double a = vl * s, b = vu * s;
        a = a < (double)gl ? (double)gl : a > (double)gu ? (double)gu : a;
        b = b < (double)gl ? (double)gl : b > (double)gu ? (double)gu : b;
        first = PREC(te_sturm_)(n, w->d, w->e, (T)a, pivmin);
        int last = PREC(te_sturm_)(n, w->d, w->e, (T)b, pivmin);
        count = last > first ? last - first : 0;
    }
    w->misc[TE_FIRST] = first;
    w->misc[TE_COUNT] = count;
}

/* Bisection of one system: the selected eigenvalues (unscaled, ascending)
 * into out[0 .. count), NaN in out[count .. n) (out NULL: nothing written,
 * the barriers are still met). Call after te_scale_ and te_select_range_
 * with a barrier between. First a multisection: the Sturm counts at n
 * equispaced points of the Gerschgorin interval (one item each, kept in
 * kpos), from which every eigenvalue's bisection starts in a bracket
 * (n+1) times narrower. */
TE_FN void PREC(te_bisect_all_)(TE_WS *w, int n, T *out, int te_lane, int te_step)
{
    T gl, gu, pivmin;
    PREC(te_gersh_)(n, w->d, w->e, &gl, &gu, &pivmin);
    const T h = (gu - gl) / (T)(n + 1);
    const int groups = (n + TE_BISECT_W - 1) / TE_BISECT_W;
    /* item g: the grid points g W .. g W + W - 1 (the last ones of the last
     * group repeat the point n - 1 and are not stored) */
    TE_FOR(g, groups)
    {
        T xs[TE_BISECT_W];
        int c[TE_BISECT_W];
        for (int v = 0; v < TE_BISECT_W; v++) {
            const int i = g * TE_BISECT_W + v < n ? g * TE_BISECT_W + v : n - 1;
            xs[v] = gl + h * (T)(i + 1);
        }
        PREC(te_sturm_w_)(n, w->d, w->e, xs, pivmin, c);
        for (int v = 0; v < TE_BISECT_W && g * TE_BISECT_W + v < n; v++)
            w->kpos[g * TE_BISECT_W + v] = c[v];
    }
    TE_SYNC();
    const int first = w->misc[TE_FIRST], count = w->misc[TE_COUNT], ex = w->misc[TE_EXP];
    /* item g: the selected values g W .. g W + W - 1 (past n: repeats) */
    TE_FOR(g, groups)
    {
        T lo[TE_BISECT_W], hi[TE_BISECT_W], x[TE_BISECT_W];
        int idx[TE_BISECT_W];
        for (int v = 0; v < TE_BISECT_W; v++) {
            /* the bracket: the last grid point with count <= idx, the first
             * with count > idx (the points recomputed exactly as above) */
            const int j = g * TE_BISECT_W + v < n ? g * TE_BISECT_W + v : n - 1;
            idx[v] = first + j < n ? first + j : n - 1;
            lo[v] = gl;
            hi[v] = gu;
            for (int i = 0; i < n; i++) {
                const T xi = gl + h * (T)(i + 1);
                if (w->kpos[i] <= idx[v])
                    lo[v] = xi;
                else if (xi < hi[v])
                    hi[v] = xi;
            }
        }
        PREC(te_bisect_w_)(n, w->d, w->e, idx, lo, hi, gl, gu, pivmin, x);
        for (int v = 0; v < TE_BISECT_W && g * TE_BISECT_W + v < n; v++) {
            const int j = g * TE_BISECT_W + v;
            /* a 1 x 1 T is its own eigenvalue, exactly */
            const T xv = n == 1 ? w->d[0] : x[v];
            if (out != NULL)
                out[j] = j < count ? PREC(te_pow2_)(xv, ex) : (T)NAN;
        }
    }
}

/* ---- divide and conquer ---------------------------------------------------- */
/* (left out where the includer defines TE_BISECTION_ONLY: the conditioning test
 * of strategy.c needs only the Sturm counts above) */
#ifndef TE_BISECTION_ONLY

/* W[r, q] of the (n+2) x n accumulated matrix. */
#define TE_W(w, n, r, q) ((w)->W[(size_t)(r) + (size_t)(q) * ((n) + 2)])

/* The row update of one level (backend-specific, defined by the includer):
 * for every active block b of block size s and its m columns [lo, lo+m),
 *   W[r, lo + f] = sum_p W[r, src[lo + p]] * U[lo + p, lo + f],  f < m,
 * in place, for the one row r < n (the two extra rows are updated with the
 * merge matrix's columns). */
TE_FN void PREC(te_rows_)(const TE_WS *w, int n, int s, int r);

/* Leaf initialization (items i < n): D_i = d_i - |e_{i-1}| - |e_i|, and the
 * first/last rows of each 1 x 1 block's eigenvector matrix (both 1). */
TE_FN void PREC(te_leaves_)(TE_WS *w, int n, int te_lane, int te_step)
{
    TE_FOR(i, n)
    {
        w->D[i] = w->d[i] - FABS(w->e[i]) - (i > 0 ? FABS(w->e[i - 1]) : (T)0);
        TE_W(w, n, n, i) = 1;
        TE_W(w, n, n + 1, i) = 1;
    }
}

/* Merge set-up of block b at block size s (leader of the block): z, the
 * merged sort of the poles, normalization, deflation. */
TE_FN void PREC(te_merge_setup_)(TE_WS *w, int n, int s, int b)
{
    const int lo = b * s, mid = lo + s / 2 < n ? lo + s / 2 : n, hi = lo + s < n ? lo + s : n;
    if (mid >= hi) {
        w->kcnt[b] = -1; /* a lone child: nothing to merge at this level */
        return;
    }
    const int m = hi - lo;
    const T beta = w->e[mid - 1];
    const T sg = beta < 0 ? (T)-1 : (T)1;
    T zz = 0, dmax = 0;
    for (int i = lo, j = mid, p = 0; p < m; p++) {
        const int q = (j >= hi || (i < mid && w->D[i] <= w->D[j])) ? i++ : j++;
        const T z = q < mid ? TE_W(w, n, n + 1, q) : sg * TE_W(w, n, n, q);
        w->ds[lo + p] = w->D[q];
        w->zs[lo + p] = z;
        w->src[lo + p] = q;
        zz += z * z;
        dmax = FABS(w->D[q]) > dmax ? FABS(w->D[q]) : dmax;
    }
    /* the merged block's first row is (F1, 0) and its last row (0, L2) */
    for (int q = lo; q < mid; q++)
        TE_W(w, n, n + 1, q) = 0;
    for (int q = mid; q < hi; q++)
        TE_W(w, n, n, q) = 0;
    const T rho = FABS(beta) * zz, zn = zz > 0 ? SQRT(zz) : (T)1;
    const T tol = 8 * EPS * (dmax > rho ? dmax : rho);
    int k = 0, nr = 0, nd = 0, prev = -1;
    int *kp = w->kpos + lo;
    for (int p = 0; p < m; p++) {
        T *zp = w->zs + lo;
        zp[p] /= zn;
        if (rho * FABS(zp[p]) <= tol) { /* negligible coupling: deflate p */
            zp[p] = 0;
            continue;
        }
        if (prev >= 0) {
            const T a = zp[prev], c0 = zp[p], t = SQRT(a * a + c0 * c0);
            const T c = c0 / t, sn = -a / t;
            T *dp = w->ds + lo;
            if (FABS((dp[p] - dp[prev]) * c * sn) <= tol) {
                /* close poles: rotate the coupling of prev into p, deflate prev */
                const T d1 = dp[prev], d2 = dp[p];
                dp[prev] = d1 * c * c + d2 * sn * sn;
                dp[p] = d1 * sn * sn + d2 * c * c;
                zp[p] = t;
                zp[prev] = 0;
                w->rp[lo + nr] = prev;
                w->rq[lo + nr] = p;
                w->rc[lo + nr] = c;
                w->rs[lo + nr] = sn;
                nr++;
                prev = p;
                continue;
            }
            kp[k++] = prev;
        }
        prev = p;
    }
    if (prev >= 0)
        kp[k++] = prev;
    /* the secular problem of the roots, scaled by an exact power of two so
     * that max(|d|, rho) is in [1/2, 1): f is homogeneous in (d, rho, l), and
     * a block far below ||T|| must not overflow (z/(d - l))^2 */
    int bex = 0;
    if (k > 0)
        FREXP(dmax > rho ? dmax : rho, &bex);
    for (int t = 0; t < k; t++) {
        w->dk[lo + t] = PREC(te_pow2_)(w->ds[lo + kp[t]], -bex);
        w->zk[lo + t] = w->zs[lo + kp[t]];
    }
    w->rho[b] = PREC(te_pow2_)(rho, -bex);
    w->nrot[b] = nr;
    w->kcnt[b] = k;
    w->bexp[b] = bex;
    /* the deflated positions after the roots' ones, sorted by value */
    for (int p = 0; p < m; p++)
        if (w->zs[lo + p] == 0) {
            int j = k + nd++;
            while (j > k && w->ds[lo + kp[j - 1]] > w->ds[lo + p]) {
                kp[j] = kp[j - 1];
                j--;
            }
            kp[j] = p;
        }
}

/* Root t of the secular equation of a merge with k poles dk[0..k) ascending
 * (relative to the block start), zk (unit norm) and rho > 0: writes the
 * origin pole o (index into dk) and tau = l - dk[o]. Returns 0, or 1 when
 * the iteration did not converge (tau is then the bracket's midpoint). */
TE_FN int PREC(te_root_)(const T *dk, const T *zk, int k, T rho, int t, int *org, T *tau_out)
{
    int o = t;
    T lo, hi;
    if (t == k - 1) {
        lo = 0;
        hi = rho;
    } else {
        /* which half of (d_t, d_t+1) holds the root: the sign of f there */
        const T half = (dk[t + 1] - dk[t]) / 2;
        T f = 1 / rho;
        for (int i = 0; i < k; i++)
            f += zk[i] * TE_DIV(zk[i], (dk[i] - dk[t]) - half);
        if (f >= 0) {
            lo = 0;
            hi = half;
        } else {
            o = t + 1;
            lo = (dk[t] - dk[t + 1]) + half;
            hi = 0;
        }
    }
    const T dorg = dk[o];
    T tau = lo + (hi - lo) / 2;
    int fail = 1;
    for (int it = 0; it < 200; it++) {
        T psi = 0, dpsi = 0, phi = 0, dphi = 0;
        for (int i = 0; i < k; i++) {
            const T r = TE_DIV(zk[i], (dk[i] - dorg) - tau);
            if (i <= t) {
                psi += zk[i] * r;
                dpsi += r * r;
            } else {
                phi += zk[i] * r;
                dphi += r * r;
            }
        }
        const T f = 1 / rho + psi + phi;
        const T ferr = EPS * (8 * (FABS(psi) + FABS(phi)) + 1 / rho + FABS(tau) * (dpsi + dphi));
        if (f > 0)
            hi = tau;
        else
            lo = tau;
        if (FABS(f) <= ferr ||
            hi - lo <= 2 * EPS * (FABS(lo) > FABS(hi) ? FABS(lo) : FABS(hi)) + 4 * (T)TMIN) {
            fail = 0;
            break;
        }
        /* the two-pole rational model c + s1/(a - x) + s2/(b - x) through
         * (tau, f, f'), solved for the step u = x - tau */
        const T da = (dk[t] - dorg) - tau;
        T u;
        if (t < k - 1) {
            const T db = (dk[t + 1] - dorg) - tau;
            const T c = f - dpsi * da - dphi * db;
            const T B = c * (da + db) + dpsi * da * da + dphi * db * db, C = f * da * db;
            const T disc = SQRT(FABS(B * B - 4 * c * C));
            u = c == 0 ? C / B : B <= 0 ? (B - disc) / (2 * c) : 2 * C / (B + disc);
        } else {
            const T c = f - dpsi * da;
            u = c > 0 ? da + dpsi * da * da / c : (T)NAN;
        }
        const T nt = tau + u;
        tau = (nt > lo && nt < hi) ? nt : lo + (hi - lo) / 2;
    }
    *org = o;
    *tau_out = tau;
    return fail;
}

/* One level of merges at block size s: roots, z-hat, ordering, the merge
 * matrix U and the row update. nb = ceil(n / s) blocks. */
TE_FN void PREC(te_merge_level_)(TE_WS *w, int n, int s, int te_lane, int te_step)
{
    const int nb = (n + s - 1) / s;
    TE_FOR(b, nb)
    {
        PREC(te_merge_setup_)(w, n, s, b);
    }
    TE_SYNC();
    /* roots: item q is root q - lo of the block of column q */
    TE_FOR(q, n)
    {
        const int b = q / s, lo = b * s, k = w->kcnt[b];
        if (q - lo < k) {
            int o;
            if (PREC(te_root_)(w->dk + lo, w->zk + lo, k, w->rho[b], q - lo, &o, &w->tau[q]))
                w->misc[TE_FAIL] = q + 1;
            w->org[q] = o;
        }
    }
    TE_SYNC();
    /* z-hat (Gu and Eisenstat): item q is pole i = q - lo */
    TE_FOR(q, n)
    {
        const int b = q / s, lo = b * s, k = w->kcnt[b], i = q - lo;
        if (i < k) {
            const T *dk = w->dk + lo, *tau = w->tau + lo;
            const int *org = w->org + lo;
            const T di = dk[i];
            T prod = ((dk[org[k - 1]] - di) + tau[k - 1]) / w->rho[b];
            for (int j = 0; j < i; j++)
                prod *= TE_DIV((dk[org[j]] - di) + tau[j], dk[j] - di);
            for (int j = i; j < k - 1; j++)
                prod *= TE_DIV((dk[org[j]] - di) + tau[j], dk[j + 1] - di);
            w->zh[q] = COPYSIGN(SQRT(FABS(prod)), w->zk[q]);
        }
    }
    TE_SYNC();
    /* ordering (leader of a block): roots and deflated values, ascending */
    TE_FOR(b, nb)
    {
        const int lo = b * s, k = w->kcnt[b];
        if (k >= 0) {
            const int m = (lo + s < n ? lo + s : n) - lo;
            const int *kp = w->kpos + lo;
            for (int f = 0, t = 0, j = k; f < m; f++) {
                const T lt = t < k ? PREC(te_pow2_)(w->dk[lo + w->org[lo + t]] + w->tau[lo + t], w->bexp[b])
                                   : (T)0;
                if (t < k && (j >= m || lt <= w->ds[lo + kp[j]])) {
                    w->fsrc[lo + f] = -1 - t++;
                    w->D[lo + f] = lt;
                } else {
                    w->fsrc[lo + f] = kp[j];
                    w->D[lo + f] = w->ds[lo + kp[j++]];
                }
            }
        }
    }
    TE_SYNC();
    /* the merge matrix, item q = its column q (in the block's sorted basis,
     * then the deflation rotations in reverse order) */
    TE_FOR(q, n)
    {
        const int b = q / s, lo = b * s, k = w->kcnt[b];
        if (k >= 0) {
            const int m = (lo + s < n ? lo + s : n) - lo, f = w->fsrc[q];
            T *u = w->U + lo + (size_t)q * TE_LDU(n);
            for (int p = 0; p < m; p++)
                u[p] = 0;
            if (f >= 0) {
                u[f] = 1;
            } else {
                const int t = -1 - f;
                const T dorg = w->dk[lo + w->org[lo + t]], tau = w->tau[lo + t];
                /* normalized through its largest entry: near a pole of a
                 * graded T the entries can be ~1/TMIN, whose squares overflow */
                T vmax = 0, nrm = 0;
                for (int i = 0; i < k; i++) {
                    const T v = TE_DIV(w->zh[lo + i], (w->dk[lo + i] - dorg) - tau);
                    u[w->kpos[lo + i]] = v;
                    vmax = FABS(v) > vmax ? FABS(v) : vmax;
                }
                for (int i = 0; i < k; i++) {
                    const T v = u[w->kpos[lo + i]] / vmax;
                    nrm += v * v;
                }
                nrm = 1 / (vmax * SQRT(nrm));
                for (int i = 0; i < k; i++)
                    u[w->kpos[lo + i]] *= nrm;
            }
            for (int r = w->nrot[b] - 1; r >= 0; r--) {
                const int a = w->rp[lo + r], c = w->rq[lo + r];
                const T cs = w->rc[lo + r], sn = w->rs[lo + r], x = u[a], y = u[c];
                u[a] = cs * x - sn * y;
                u[c] = sn * x + cs * y;
            }
            /* column q of the merged block's first and last rows of V_T,
             * (F1, 0) U and (0, L2) U, kept in ds and zs (free now) until
             * the old rows have been read by every column */
            T fq = 0, lq = 0;
            for (int p = 0; p < m; p++) {
                const int c = w->src[lo + p];
                fq += TE_W(w, n, n, c) * u[p];
                lq += TE_W(w, n, n + 1, c) * u[p];
            }
            w->ds[q] = fq;
            w->zs[q] = lq;
        }
    }
    TE_SYNC();
    /* item r: row r of W, and column r of the first/last rows */
    TE_FOR(r, n)
    {
        PREC(te_rows_)(w, n, s, r);
        if (w->kcnt[r / s] >= 0) {
            TE_W(w, n, n, r) = w->ds[r];
            TE_W(w, n, n + 1, r) = w->zs[r];
        }
    }
    TE_SYNC();
}

/* Divide and conquer of one system: after te_scale_ (and a barrier), with
 * W's rows 0..n-1 holding Q (or I), leaves D ascending (scaled) and W's rows
 * 0..n-1 the eigenvectors of A (or T). */
TE_FN void PREC(te_dc_)(TE_WS *w, int n, int te_lane, int te_step)
{
    PREC(te_leaves_)(w, n, te_lane, te_step);
    TE_SYNC();
    for (int s = 2; s / 2 < n; s *= 2)
        PREC(te_merge_level_)(w, n, s, te_lane, te_step);
}

/* Selection of the D&C results (after te_dc_ and te_select_range_, the range
 * taken by value from the computed eigenvalues for BSYM_SELECT_VALUE): the
 * leader sets misc[TE_FIRST], misc[TE_COUNT]. */
TE_FN void PREC(te_dc_select_)(TE_WS *w, int n, int kind, double vl, double vu)
{
    if (kind != BSYM_SELECT_VALUE || !w->misc[TE_FINITE])
        return;
    int first = 0, last = 0;
    for (int i = 0; i < n; i++) {
        const double x = (double)PREC(te_pow2_)(w->D[i], w->misc[TE_EXP]);
        first += x <= vl;
        last += x <= vu;
    }
    w->misc[TE_FIRST] = first;
    w->misc[TE_COUNT] = last - first;
}

/* Writes the selected eigenvalues (unscaled) and vectors of one system:
 * out_w n entries, out_v n x n (may be NULL), NaN past the count. Items are
 * the values j < n, then the vector entries i + j n (coalesced on the GPU). */
TE_FN void PREC(te_dc_output_)(const TE_WS *w, int n, T *out_w, T *out_v, int te_lane, int te_step)
{
    /* a system whose iteration failed gets NaN throughout (info > 0) */
    const int first = w->misc[TE_FIRST], ex = w->misc[TE_EXP];
    const int count = w->misc[TE_FAIL] ? 0 : w->misc[TE_COUNT];
    TE_FOR(j, n)
    {
        out_w[j] = j < count ? PREC(te_pow2_)(w->D[first + j], ex) : (T)NAN;
    }
    if (out_v != NULL) {
        TE_FOR(idx, n * n)
        {
            const int i = idx % n, j = idx / n;
            out_v[idx] = j < count ? TE_W(w, n, i, first + j) : (T)NAN;
        }
    }
}

#endif /* TE_BISECTION_ONLY */

#undef TE_WS
