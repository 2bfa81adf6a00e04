/*
 * pde_impl.h -- precision-generic body of the CPU θ-scheme PDE solver
 * (bsym_*pde_solve, issue 15), included by pde.c under prec_double.h,
 * prec_float.h and prec_mixed.h (T the arithmetic, TIN the caller's arrays).
 *
 * The systems are taken in groups of L = 64 / sizeof(T) (8 doubles, 16
 * floats), interleaved node by node in the group's workspace: entry (node
 * i, lane l) of every array sits at [i * L + l], so that every loop of the
 * scheme runs its innermost loop over the L lanes with unit stride and the
 * compiler vectorizes it (the recurrences of Thomas' algorithm run along i,
 * each step a vector operation across the group). Per level n the rows of
 * the operator L^n (sub l, diagonal d, super u and the source term f, as
 * below) are assembled once and kept: the implicit side of one step is the
 * explicit side of the next (Egloff's algorithm 1, "swap A_r <- A_l").
 *
 * Rows of L^n at node i (0-based; w1, w2 the weights of eqs. 17 and 18):
 *   interior   l = a w2m + b w1m, d = a w2c + b w1c + c, u = a w2p + b w1p,
 *              f = d (the coefficient)
 *   LINEAR     lower: l = 0, d = c - b / (x_1 - x_0), u = b / (x_1 - x_0),
 *              f = d; upper: l = -b / h, d = c + b / h, u = 0 (a not read)
 *   DIRICHLET  l = d = u = 0, f = the boundary value at level n (the rows
 *              are then replaced by the identity and the right-hand side by
 *              f, so that the Rannacher midpoint's average of the rows also
 *              averages the boundary values).
 * A step from level n+1 (rows R, solution U) to level n (rows Q), with
 * th = θ dt and eh = (1 - θ) dt:
 *   sub = -th Ql, diag = 1 - th Qd, sup = -th Qu,
 *   rhs = U + eh (R U) + dt (θ Qf + (1 - θ) Rf),
 * solved by Thomas' algorithm without pivoting across the group; a lane
 * whose pivot is zero or not finite, or so small that the sweep's
 * multipliers grew past PDE_GROWTH_MAX (in the 2-norm), is solved again alone by Gaussian
 * elimination with partial pivoting (pde_gtsv_, LAPACK's dgtsv scheme).
 *
 * Non-finite inputs are detected where they are read: every value the
 * scheme loads is also added, times zero, to a per-lane check (NaN once
 * any such value was infinite or NaN), so the checks cost a multiply-add
 * per value and no pass of their own.
 */

#define PL ((int)(64 / sizeof(T))) /* lanes of a group */
/* Bound on the multipliers c'_i = sup_i / pivot_i of Thomas' sweep that a
 * lane keeps: when sqrt(sum c'_i^2) exceeds it (a pivot small against its
 * row: the elimination without pivoting may have lost accuracy) the lane is
 * solved again with partial pivoting. Diagonally dominant steps (the usual
 * θ-scheme) have |c'_i| < 1, so the sum stays below m. */
#ifndef PDE_GROWTH_MAX
#define PDE_GROWTH_MAX 1e3
#endif

/* A coefficient in the caller's storage (a NULL v reads as 0). */
typedef struct {
    const TIN *v;
    int64_t si, sn, sk;
} PREC(pde_coef_);

/* What every group of a call shares. */
typedef struct {
    int64_t m, N;
    int lower_dir, upper_dir, rannacher;
    double theta;
    const TIN *t;
    PREC(pde_coef_) a, b, c, d, lv, uv;
    const TIN *obstacle;      /* m x batch or NULL */
    const T *w;               /* 6 m weights: w1m, w1c, w1p, w2m, w2c, w2p */
    T bl, bu;                 /* 1 / (x_1 - x_0), 1 / (x_{m-1} - x_{m-2}) */
} PREC(pde_call_);

/* Elements of one group's workspace: U, CP, RP, O and three row sets
 * (4 arrays each) of m x L, and the fallback's 5 m. */
static size_t PREC(pde_work_)(int64_t m)
{
    return (size_t)m * (16 * (size_t)PL + 5);
}

/* Rows of level n (or, where the boundary is Dirichlet, its value) into
 * Ql, Qd, Qu, Qf for the group's lanes, whose entries in the coefficients
 * are ent[l]; chk[l] += 0 * every value read. */
BSYM_INLINE static void PREC(pde_rows_)(const PREC(pde_call_) *g, int64_t n, const int64_t *restrict ent,
                                        T *restrict Ql, T *restrict Qd, T *restrict Qu, T *restrict Qf,
                                        T *restrict chk)
{
    const int64_t m = g->m;
    const T *w1m = g->w, *w1c = w1m + m, *w1p = w1c + m, *w2m = w1p + m, *w2c = w2m + m, *w2p = w2c + m;
    const PREC(pde_coef_) a = g->a, b = g->b, c = g->c, d = g->d;
    int64_t oa[PL], ob[PL], oc[PL], od[PL];
    for (int l = 0; l < PL; l++) {
        oa[l] = n * a.sn + ent[l] * a.sk;
        ob[l] = n * b.sn + ent[l] * b.sk;
        oc[l] = n * c.sn + ent[l] * c.sk;
        od[l] = n * d.sn + ent[l] * d.sk;
    }
    T ck[PL];
    for (int l = 0; l < PL; l++)
        ck[l] = chk[l];
    const int shared = a.sk == 0 && b.sk == 0 && c.sk == 0 && d.sk == 0;
    for (int64_t i = 1; i + 1 < m && shared; i++) { /* every lane the same: once, broadcast */
        const T av = (T)a.v[i * a.si + oa[0]], bv = (T)b.v[i * b.si + ob[0]];
        const T cv = (T)c.v[i * c.si + oc[0]], dv = (T)d.v[i * d.si + od[0]];
        const T ql = av * w2m[i] + bv * w1m[i], qd = av * w2c[i] + bv * w1c[i] + cv, qu = av * w2p[i] + bv * w1p[i];
        const T ck0 = av * 0 + bv * 0 + cv * 0 + dv * 0;
#pragma omp simd
        for (int l = 0; l < PL; l++) {
            Ql[i * PL + l] = ql;
            Qd[i * PL + l] = qd;
            Qu[i * PL + l] = qu;
            Qf[i * PL + l] = dv;
            ck[l] += ck0;
        }
    }
    for (int64_t i = 1; i + 1 < m && !shared; i++) {
        const T x1m = w1m[i], x1c = w1c[i], x1p = w1p[i], x2m = w2m[i], x2c = w2c[i], x2p = w2p[i];
        T *ql = Ql + i * PL, *qd = Qd + i * PL, *qu = Qu + i * PL, *qf = Qf + i * PL;
#pragma omp simd
        for (int l = 0; l < PL; l++) {
            const T av = (T)a.v[i * a.si + oa[l]], bv = (T)b.v[i * b.si + ob[l]];
            const T cv = (T)c.v[i * c.si + oc[l]], dv = (T)d.v[i * d.si + od[l]];
            ql[l] = av * x2m + bv * x1m;
            qd[l] = av * x2c + bv * x1c + cv;
            qu[l] = av * x2p + bv * x1p;
            qf[l] = dv;
            ck[l] += av * 0 + bv * 0 + cv * 0 + dv * 0;
        }
    }
    /* the two boundary nodes */
    for (int end = 0; end < 2; end++) {
        const int64_t i = end == 0 ? 0 : m - 1;
        const int dir = end == 0 ? g->lower_dir : g->upper_dir;
        const PREC(pde_coef_) bv = end == 0 ? g->lv : g->uv;
        T *ql = Ql + i * PL, *qd = Qd + i * PL, *qu = Qu + i * PL, *qf = Qf + i * PL;
        for (int l = 0; l < PL; l++) {
            if (dir) {
                const T v = (T)bv.v[n * bv.sn + ent[l] * bv.sk];
                ql[l] = qd[l] = qu[l] = 0;
                qf[l] = v;
                ck[l] += v * 0;
                continue;
            }
            const T bb = (T)b.v[i * b.si + ob[l]], cv = (T)c.v[i * c.si + oc[l]];
            const T dv = (T)d.v[i * d.si + od[l]];
            ck[l] += bb * 0 + cv * 0 + dv * 0;
            if (end == 0) {
                ql[l] = 0;
                qd[l] = cv - bb * g->bl;
                qu[l] = bb * g->bl;
            } else {
                ql[l] = -bb * g->bu;
                qd[l] = cv + bb * g->bu;
                qu[l] = 0;
            }
            qf[l] = dv;
        }
    }
    for (int l = 0; l < PL; l++)
        chk[l] = ck[l];
}

/* The group's vector: one node's L lanes (64 bytes). Explicit vectors keep
 * the sweeps' recurrences and per-lane checks in registers (the checks are
 * sums of value * 0: NaN once a value was not finite). */
typedef T PREC(pde_v_) __attribute__((vector_size(64), aligned(64)));
#define PV PREC(pde_v_)
#define VAT(p, i) (*(PV *)((p) + (i) * PL))
#define CVAT(p, i) (*(const PV *)((p) + (i) * PL))

/* Forward sweep of one step (see the top): CP, RP from the rows Q (implicit
 * level), R (explicit level, read only when `expl`) and U. *bad gets the
 * lanes whose pivot (or its reciprocal) was zero or not finite, or whose
 * multiplier |c'| exceeded PDE_GROWTH_MAX. U is not written. */
BSYM_INLINE static void PREC(pde_forward_)(int64_t m, int expl, int ldir, int udir, T th, T eh, T fq, T fr,
                                           const T *restrict Ql, const T *restrict Qd, const T *restrict Qu,
                                           const T *restrict Qf, const T *restrict Rl, const T *restrict Rd,
                                           const T *restrict Ru, const T *restrict Rf, const T *restrict U,
                                           T *restrict CP, T *restrict RP, PV *bad, PV *grow)
{
    const PV zero = {0}, one = zero + 1;
    PV flag = zero, gsum = zero; /* NaN where a pivot failed; the sum of c'^2 */
    PV cp, rp;
    { /* node 0 */
        PV rhs, diag, sup;
        if (ldir) {
            rhs = CVAT(Qf, 0);
            diag = one;
            sup = zero;
        } else {
            const PV u0 = CVAT(U, 0);
            rhs = u0 + fq * CVAT(Qf, 0);
            if (expl)
                rhs += eh * (CVAT(Rd, 0) * u0 + CVAT(Ru, 0) * CVAT(U, 1)) + fr * CVAT(Rf, 0);
            diag = one - th * CVAT(Qd, 0);
            sup = -th * CVAT(Qu, 0);
        }
        const PV r = one / diag;
        cp = sup * r;
        rp = rhs * r;
        flag += r * 0 + diag * 0;
        gsum += cp * cp;
        VAT(CP, 0) = cp;
        VAT(RP, 0) = rp;
    }
    for (int64_t i = 1; i + 1 < m; i++) {
        const PV uu = CVAT(U, i);
        PV rhs = uu + fq * CVAT(Qf, i);
        if (expl)
            rhs += eh * (CVAT(Rl, i) * CVAT(U, i - 1) + CVAT(Rd, i) * uu + CVAT(Ru, i) * CVAT(U, i + 1)) +
                   fr * CVAT(Rf, i);
        const PV sub = -th * CVAT(Ql, i);
        const PV den = one - th * CVAT(Qd, i) - sub * cp;
        const PV r = one / den;
        cp = -th * CVAT(Qu, i) * r;
        rp = (rhs - sub * rp) * r;
        flag += r * 0 + den * 0;
        gsum += cp * cp;
        VAT(CP, i) = cp;
        VAT(RP, i) = rp;
    }
    { /* node m - 1 */
        const int64_t i = m - 1;
        PV rhs, sub, diag;
        if (udir) {
            rhs = CVAT(Qf, i);
            sub = zero;
            diag = one;
        } else {
            rhs = CVAT(U, i) + fq * CVAT(Qf, i);
            if (expl)
                rhs += eh * (CVAT(Rl, i) * CVAT(U, i - 1) + CVAT(Rd, i) * CVAT(U, i)) + fr * CVAT(Rf, i);
            sub = -th * CVAT(Ql, i);
            diag = one - th * CVAT(Qd, i);
        }
        const PV den = diag - sub * cp;
        const PV r = one / den;
        flag += r * 0 + den * 0;
        VAT(CP, i) = zero;
        VAT(RP, i) = (rhs - sub * rp) * r;
    }
    *bad = flag;
    *grow = gsum;
}

/* Back substitution into U, then the obstacle (O, or none); *bad is NaN
 * in the lanes with a non-finite value in the new U. */
BSYM_INLINE static void PREC(pde_backward_)(int64_t m, const T *restrict CP, const T *restrict RP,
                                            const T *restrict O, T *restrict U, PV *bad)
{
    const PV zero = {0};
    PV flag = zero;
    PV nx = CVAT(RP, m - 1);
    VAT(U, m - 1) = nx;
    flag += nx * 0;
    for (int64_t i = m - 2; i >= 0; i--) {
        nx = CVAT(RP, i) - CVAT(CP, i) * nx;
        VAT(U, i) = nx;
        flag += nx * 0;
    }
    *bad = flag;
    if (O != NULL) { /* after the recurrence, which runs on the unconstrained values */
#pragma omp simd
        for (int64_t e = 0; e < m * PL; e++)
            U[e] = O[e] > U[e] ? O[e] : U[e];
    }
}

/* One system's tridiagonal solve by Gaussian elimination with partial
 * pivoting (LAPACK's dgtsv): dl (m - 1, row i+1's entry in column i; gets
 * the second super-diagonal), d (m), du (m - 1), b (m) overwritten with the
 * solution. Returns 0, or 1 when a pivot is zero or the solution not finite. */
static int PREC(pde_gtsv_)(int64_t m, T *dl, T *d, T *du, T *b)
{
    for (int64_t i = 0; i + 1 < m; i++) {
        if (FABS(d[i]) >= FABS(dl[i])) {
            if (d[i] == 0)
                return 1;
            const T f = dl[i] / d[i];
            d[i + 1] -= f * du[i];
            b[i + 1] -= f * b[i];
            dl[i] = 0;
        } else {
            const T f = d[i] / dl[i], tmp = d[i + 1];
            d[i] = dl[i];
            d[i + 1] = du[i] - f * tmp;
            if (i + 2 < m) {
                dl[i] = du[i + 1];
                du[i + 1] = -f * dl[i];
            } else {
                dl[i] = 0;
            }
            du[i] = tmp;
            const T bi = b[i];
            b[i] = b[i + 1];
            b[i + 1] = bi - f * b[i + 1];
        }
    }
    if (d[m - 1] == 0)
        return 1;
    b[m - 1] /= d[m - 1];
    b[m - 2] = (b[m - 2] - du[m - 2] * b[m - 1]) / d[m - 2];
    for (int64_t i = m - 3; i >= 0; i--)
        b[i] = (b[i] - du[i] * b[i + 1] - dl[i] * b[i + 2]) / d[i];
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        bad |= !(FABS(b[i]) <= TMAX);
    return bad;
}

/* Lane l of a step (the arguments of pde_forward_) solved with partial
 * pivoting into x (m); s: 4 m scratch. Returns pde_gtsv_'s code. The
 * matrix and right-hand side are those of pde_forward_, written out for
 * one lane. */
static int PREC(pde_lane_pivoted_)(int64_t m, int l, int expl, int ldir, int udir, T th, T eh, T fq, T fr,
                                   const T *Ql, const T *Qd, const T *Qu, const T *Qf, const T *Rl,
                                   const T *Rd, const T *Ru, const T *Rf, const T *U, T *x, T *s)
{
    T *dl = s, *d = dl + m, *du = d + m;
    for (int64_t i = 0; i < m; i++) {
        const int64_t o = i * PL + l;
        const int dir = (i == 0 && ldir) || (i == m - 1 && udir);
        if (dir) {
            x[i] = Qf[o];
            d[i] = 1;
            if (i > 0)
                dl[i - 1] = 0;
            if (i + 1 < m)
                du[i] = 0;
            continue;
        }
        T rhs = U[o] + fq * Qf[o];
        if (expl) {
            T lu = Rd[o] * U[o];
            if (i > 0)
                lu += Rl[o] * U[o - PL];
            if (i + 1 < m)
                lu += Ru[o] * U[o + PL];
            rhs += eh * lu + fr * Rf[o];
        }
        x[i] = rhs;
        d[i] = 1 - th * Qd[o];
        if (i > 0)
            dl[i - 1] = -th * Ql[o];
        if (i + 1 < m)
            du[i] = -th * Qu[o];
    }
    return PREC(pde_gtsv_)(m, dl, d, du, x);
}

/* One step on a group: the sweep, the pivoted solve of the lanes whose
 * pivots failed (live lanes only), the back substitution, the obstacle.
 * Lanes that fail get lev[l] = level (1-based) and U = 0. */
BSYM_INLINE static void PREC(pde_step_)(const PREC(pde_call_) *g, int expl, double theta, double dt, int64_t level,
                                        T *const Q[4], T *const R[4], T *U, T *CP, T *RP, const T *O, T *S,
                                        const T *chk, int64_t *lev)
{
    const int64_t m = g->m;
    const T th = (T)(theta * dt), eh = (T)((1 - theta) * dt), fq = (T)(theta * dt), fr = (T)((1 - theta) * dt);
    PV piv, grow, fin;
    if (expl)
        PREC(pde_forward_)(m, 1, g->lower_dir, g->upper_dir, th, eh, fq, fr, Q[0], Q[1], Q[2], Q[3], R[0], R[1],
                           R[2], R[3], U, CP, RP, &piv, &grow);
    else
        PREC(pde_forward_)(m, 0, g->lower_dir, g->upper_dir, th, eh, fq, fr, Q[0], Q[1], Q[2], Q[3], R[0], R[1],
                           R[2], R[3], U, CP, RP, &piv, &grow);
    for (int l = 0; l < PL; l++) {
        /* a zero, non-finite or small pivot (the multipliers grew past
         * PDE_GROWTH_MAX) in a live lane: partial pivoting */
        if ((piv[l] == 0 && grow[l] <= (T)PDE_GROWTH_MAX * (T)PDE_GROWTH_MAX) || lev[l] != 0 ||
            !(chk[l] == 0))
            continue;
        T *x = S, *s = S + m;
        if (PREC(pde_lane_pivoted_)(m, l, expl, g->lower_dir, g->upper_dir, th, eh, fq, fr, Q[0], Q[1], Q[2],
                                    Q[3], R[0], R[1], R[2], R[3], U, x, s) != 0) {
            lev[l] = level;
            continue;
        }
        /* keep the pivoted solution in RP with CP = 0 (the back
         * substitution then just copies it) */
        for (int64_t i = 0; i < m; i++) {
            RP[i * PL + l] = x[i];
            CP[i * PL + l] = 0;
        }
    }
    PREC(pde_backward_)(m, CP, RP, O, U, &fin);
    for (int l = 0; l < PL; l++) {
        if (lev[l] == 0 && !(fin[l] == 0) && chk[l] == 0)
            lev[l] = level;
        if (lev[l] != 0 || !(chk[l] == 0)) /* a failed lane: keep it harmless */
            for (int64_t i = 0; i < m; i++)
                U[i * PL + l] = 0;
    }
}

/* Systems [0, nl) of a group (nl <= L), whose first system is entry k0 of
 * the coefficients; final and u point at the group's first system. */
BSYM_INLINE static void PREC(pde_group_)(const PREC(pde_call_) *g, int64_t k0, int nl, const TIN *final, TIN *u,
                                         int *info, T *W)
{
    const int64_t m = g->m, N = g->N, ml = m * PL;
    T *U = W, *CP = U + ml, *RP = CP + ml, *O = RP + ml, *rows = O + ml; /* each 64-byte aligned */
    T *S = rows + 12 * ml;
    T *set[3][4];
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 4; q++)
            set[r][q] = rows + (size_t)(4 * r + q) * ml;
    T **R = set[0], **Q = set[1], **P = set[2];
    int64_t ent[PL], lev[PL];
    T chk[PL];
    for (int l = 0; l < PL; l++) {
        const int c = l < nl ? l : nl - 1; /* padding lanes copy the last system */
        ent[l] = k0 + c;
        lev[l] = 0;
        chk[l] = 0;
        for (int64_t i = 0; i < m; i++) {
            const T v = (T)final[(size_t)c * m + i];
            U[i * PL + l] = v;
            chk[l] += v * 0;
        }
        if (g->obstacle != NULL)
            for (int64_t i = 0; i < m; i++) {
                const T v = (T)g->obstacle[(size_t)ent[l] * m + i];
                O[i * PL + l] = v;
                chk[l] += v * 0;
            }
    }
    for (int l = 0; l < PL; l++) /* an input non-finite: start from 0 (it stays -1) */
        if (!(chk[l] == 0))
            for (int64_t i = 0; i < m; i++)
                U[i * PL + l] = 0;
    const T *Ob = g->obstacle != NULL ? O : NULL;
    PREC(pde_rows_)(g, N - 1, ent, R[0], R[1], R[2], R[3], chk);
    for (int64_t n = N - 2; n >= 0; n--) {
        const double dt = (double)g->t[n + 1] - (double)g->t[n];
        PREC(pde_rows_)(g, n, ent, Q[0], Q[1], Q[2], Q[3], chk);
        if (N - 2 - n < g->rannacher) {
            /* two implicit half steps, the first with the midpoint's rows */
            for (int q = 0; q < 4; q++) {
                const T *a = Q[q], *b = R[q];
                T *c = P[q];
#pragma omp simd
                for (int64_t e = 0; e < ml; e++)
                    c[e] = (T)0.5 * (a[e] + b[e]);
            }
            PREC(pde_step_)(g, 0, 1.0, 0.5 * dt, n + 1, P, R, U, CP, RP, Ob, S, chk, lev);
            PREC(pde_step_)(g, 0, 1.0, 0.5 * dt, n + 1, Q, R, U, CP, RP, Ob, S, chk, lev);
        } else {
            PREC(pde_step_)(g, g->theta < 1, g->theta, dt, n + 1, Q, R, U, CP, RP, Ob, S, chk, lev);
        }
        T **tmp = R; /* the implicit level is the next step's explicit one */
        R = Q;
        Q = tmp;
    }
    for (int l = 0; l < nl; l++) {
        const int code = !(chk[l] == 0) ? -1 : (int)lev[l];
        info[l] = code;
        TIN *o = u + (size_t)l * m;
        for (int64_t i = 0; i < m; i++)
            o[i] = code != 0 ? (TIN)NAN : (TIN)U[i * PL + l];
    }
}

#ifdef BSYM_X86_DISPATCH
BSYM_TARGET_AVX512 static void PREC(pde_group_avx512_)(const PREC(pde_call_) *g, int64_t k0, int nl, const TIN *final,
                                                       TIN *u, int *info, T *W)
{
    PREC(pde_group_)(g, k0, nl, final, u, info, W);
}
BSYM_TARGET_AVX2 static void PREC(pde_group_avx2_)(const PREC(pde_call_) *g, int64_t k0, int nl, const TIN *final,
                                                   TIN *u, int *info, T *W)
{
    PREC(pde_group_)(g, k0, nl, final, u, info, W);
}
#endif
static void PREC(pde_group_base_)(const PREC(pde_call_) *g, int64_t k0, int nl, const TIN *final, TIN *u, int *info,
                                  T *W)
{
    PREC(pde_group_)(g, k0, nl, final, u, info, W);
}

/* One bsym__pde_cpu_ call, as its groups see it (pde_team_group_). */
typedef struct {
    PREC(pde_call_) g;  /* what every group shares */
    int64_t pde_k0;     /* the slice's first system within p */
    int64_t count;
    const TIN *final;
    TIN *u;
    int *info;
    int isa;            /* bsym__cpu_isa() */
} PREC(pde_team_);

/* Group gi of a bsym__pde_cpu_ call (a bsym__team_body): its PL systems
 * across SIMD lanes, on the thread's workspace W. */
static void PREC(pde_team_group_)(void *ctx, int64_t gi, void *W)
{
    const PREC(pde_team_) *j = ctx;
    const int64_t m = j->g.m, k = gi * PL;
    const int nl = j->count - k < PL ? (int)(j->count - k) : PL;
    /* the coefficients' and the obstacle's entries count from the first
     * system of p (the slice starts at pde_k0) */
    const PREC(pde_call_) gg = j->g;
    const int64_t k0 = j->pde_k0 + k;
#ifdef BSYM_X86_DISPATCH
    if (j->isa == BSYM_ISA_AVX512)
        PREC(pde_group_avx512_)(&gg, k0, nl, j->final + k * m, j->u + k * m, j->info + k, W);
    else if (j->isa == BSYM_ISA_AVX2)
        PREC(pde_group_avx2_)(&gg, k0, nl, j->final + k * m, j->u + k * m, j->info + k, W);
    else
#endif
        PREC(pde_group_base_)(&gg, k0, nl, j->final + k * m, j->u + k * m, j->info + k, W);
}

/* A coefficient of p in this precision's storage (a NULL v: a shared 0). */
static PREC(pde_coef_) PREC(pde_coef_of_)(const bsym_pde_coef *c, int boundary)
{
    static const TIN zero = 0;
    if (c->v == NULL)
        return (PREC(pde_coef_)){&zero, 0, 0, 0};
    return (PREC(pde_coef_)){(const TIN *)c->v, boundary ? 0 : c->si, c->sn, c->sk};
}

int PREC(bsym__pde_cpu_)(const bsym_pde *p, int64_t pde_k0, int64_t count, const TIN *final, TIN *u, int *info,
                         int threads)
{
    const int64_t m = p->m;
    T *w = malloc(6 * (size_t)m * sizeof(T));
    double *wd = malloc(6 * (size_t)m * sizeof(double));
    if (w == NULL || wd == NULL) {
        free(w);
        free(wd);
        return -1;
    }
    double bl, bu;
    bsym__pde_weights(p, sizeof(TIN) == sizeof(float), wd, &bl, &bu);
    for (int64_t e = 0; e < 6 * m; e++)
        w[e] = (T)wd[e];
    free(wd);
    PREC(pde_call_) g = {
        .m = m, .N = p->N, .lower_dir = p->lower == BSYM_PDE_DIRICHLET, .upper_dir = p->upper == BSYM_PDE_DIRICHLET,
        .rannacher = p->rannacher, .theta = p->theta, .t = (const TIN *)p->t,
        .a = PREC(pde_coef_of_)(&p->a, 0), .b = PREC(pde_coef_of_)(&p->b, 0), .c = PREC(pde_coef_of_)(&p->c, 0),
        .d = PREC(pde_coef_of_)(&p->d, 0), .lv = PREC(pde_coef_of_)(&p->lower_value, 1),
        .uv = PREC(pde_coef_of_)(&p->upper_value, 1),
        .obstacle = (const TIN *)p->obstacle, /* indexed by entry, as the coefficients */
        .w = w, .bl = (T)bl, .bu = (T)bu};
    const int64_t groups = (count + PL - 1) / PL;
    PREC(pde_team_) j = {g, pde_k0, count, final, u, info, bsym__cpu_isa()};
    /* groups handed out one at a time (schedule(dynamic, 1)): each is a whole
     * time march, dearer where lanes are solved again with pivoting */
    const int rc = bsym__team_run(groups, threads, PREC(pde_work_)(m) * sizeof(T), 1, PREC(pde_team_group_), &j);
    free(w);
    return rc;
}

#undef PL
#undef PV
#undef VAT
#undef CVAT
