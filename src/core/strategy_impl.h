/*
 * strategy_impl.h -- precision-generic CPU drivers of the truncated-spectrum
 * and automatic solves (bsym_*solvex, methods EIGEN and AUTO) and of batched
 * least squares (bsym_*lsfit). Included by strategy.c after strategy_numerics.h (the per-system
 * numerics shared with the GPU).
 *
 * One range of systems goes through the same steps as on the GPU, each step
 * taking only the systems the one before did not keep (the plan may start at
 * step 2 or 3):
 *   1. LDLT: the LDL^T solve and its certificate, in one pass over each
 *      group of systems (bsym__ldlt_cert_cpu_, ldlt_impl.h);
 *   2. TRIDIAG: the systems not certified are gathered, solved by Householder
 *      + PCR from their original A and B keeping T, and checked per system
 *      (OpenMP over them): the backward error and the conditioning test on T;
 *   3. EIGEN: the rest are gathered and eigendecomposed together by the
 *      batched eigensolver (eigen.c), then get the truncated solution from
 *      the original right-hand sides.
 * Without checks (job->check 0: a fixed method) the start's solve is all.
 *
 * Complex Hermitian A (prec_cdouble.h, prec_cfloat.h; RPREC names the real
 * precision's numerics, which act on the real T' and the real eigenvalues)
 * goes through the same steps: step 1 is LDL^H, certified as the real
 * LDL^T (positive pivots, the cheap form or the inertia of A - sigma I,
 * then the backward error: strategy_ldlh_cert_ below, on indef.c's
 * pieces); step 2 the complex Householder + PCR (hetrd.c); step
 * 3 the complex eigensolver and x = V diag(1/l) V^H b over the kept pairs.
 * The backward error and the truncated solution take moduli and conjugates
 * (below, under BSYM_COMPLEX); sums are in double (complex double) as for
 * the real types.
 */

#if BSYM_COMPLEX
/* The complex forms of the residual row and the truncated solution:
 * strategy_numerics.h's, on the (re, im) pairs of T (the GPU's strategy.cu
 * calls the same). */
static double PREC(strategy_resid_row_)(char uplo, int n, const T *A, const T *x, T b, int i, double *arow)
{
    return RPREC(strategy_cresid_row_)(uplo, n, (const RT *)A, (const RT *)x, (double)RE(b), (double)IM(b), i, arow);
}

static T PREC(strategy_coef_)(int n, const T *V, const T *b, const RT *w, int j, RT tau)
{
    RT cr, ci;
    RPREC(strategy_ccoef_)(n, (const RT *)V, (const RT *)b, w, j, tau, &cr, &ci);
    return cr + ci * I;
}

static T PREC(strategy_apply_row_)(int n, const T *V, const T *coef, int i)
{
    RT xr, xi;
    RPREC(strategy_capply_row_)(n, (const RT *)V, (const RT *)coef, i, &xr, &xi);
    return xr + xi * I;
}
#endif

/* 1 when the len entries of x are finite. */
static int PREC(strategy_finite_)(int64_t len, const T *x)
{
    for (int64_t i = 0; i < len; i++)
        if (!CFINITE(x[i]))
            return 0;
    return 1;
}

/* The backward error of X (n x nrhs) for A X = B: the largest over the
 * right-hand sides, in double; NaN for non-finite input. */
static double PREC(strategy_backward_error_)(char uplo, int n, int nrhs, const T *A, const T *B, const T *X)
{
    double worst = 0, anorm = 0, arow;
    for (int r = 0; r < nrhs; r++) {
        const T *b = B + (size_t)r * n, *x = X + (size_t)r * n;
        double rmax = 0, xmax = 0, bmax = 0;
        for (int i = 0; i < n; i++) {
            const double ri = PREC(strategy_resid_row_)(uplo, n, A, x, b[i], i, &arow);
            rmax = ri > rmax || ri != ri ? ri : rmax;
            anorm = arow > anorm ? arow : anorm;
            xmax = CABS(x[i]) > xmax ? CABS(x[i]) : xmax;
            bmax = CABS(b[i]) > bmax ? CABS(b[i]) : bmax;
        }
        const double e = RPREC(strategy_berr_)(rmax, anorm, xmax, bmax);
        worst = e > worst || e != e ? e : worst;
    }
    return worst;
}

/* The truncated solution X (n x nrhs) of one system from its ascending
 * eigenvalues w and vectors V (info: the eigensolver's) and its right-hand
 * sides B; returns the info code (-1 also for non-finite B), sets *rank and
 * *notspd. coef: n elements of scratch. */
static int PREC(strategy_truncate_)(int n, int nrhs, int info, const RT *w, const T *V, const T *B, T *X,
                                    double rcond, T *coef, int *rank, int *notspd)
{
    if (info == 0 && !PREC(strategy_finite_)((int64_t)n * nrhs, B))
        info = -1;
    *rank = -1;
    *notspd = 0;
    if (info != 0) {
        for (int64_t i = 0; i < (int64_t)n * nrhs; i++)
#if BSYM_COMPLEX
            X[i] = (RT)NAN + (RT)NAN * I;
#else
            X[i] = (T)NAN;
#endif
        return info;
    }
    const RT tau = RPREC(strategy_tau_)(n, w, rcond);
    for (int r = 0; r < nrhs; r++) {
        const T *b = B + (size_t)r * n;
        for (int j = 0; j < n; j++)
            coef[j] = PREC(strategy_coef_)(n, V, b, w, j, tau);
        for (int i = 0; i < n; i++)
            X[(size_t)r * n + i] = PREC(strategy_apply_row_)(n, V, coef, i);
    }
    int kept = 0;
    for (int j = 0; j < n; j++)
        kept += RPREC(strategy_kept_)(w[j], tau);
    *rank = kept;
    *notspd = w[0] <= 0;
    return 0;
}

/* The systems of one step of a range: cnt of them, system i of the step being
 * system map[i] of the range (map NULL: i itself). */
typedef struct {
    int64_t cnt;
    int64_t *map;
} PREC(step_);

#define STEP_K(st, i) ((st)->map != NULL ? (st)->map[i] : (i))

/* Step 2 on the systems of `in`: Householder + PCR, from the range's A and
 * its original right-hand sides B0 (T; NULL: solve B in place), into the
 * solutions B. Copies are gathered from A and B0 unless `in` is the whole
 * range in the caller's own precision (map NULL, not BSYM_MIXED): then in
 * place on A and B. With job->check, a system kept gets its solution, rank n
 * and used TRIDIAG and the others are listed in *out (map and cnt) for step
 * 3; without (a fixed method) every system keeps its solve, info as it came.
 * Returns -1 when memory ran out. */
static int PREC(step_tridiag_)(const bsym__strategy *job, const PREC(step_) *in, const TIN *A, const T *B0, TIN *B,
                               int *info, int *rank, int *used, int64_t *solved, int64_t *not_spd,
                               PREC(step_) *out, int threads)
{
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs, cnt = (size_t)in->cnt;
    const int gather = in->map != NULL || BSYM_MIXED;
    const int check = job->check;
    RT *dT = check ? bsym__malloc_big(n * cnt * sizeof(RT)) : NULL;
    RT *eT = check ? bsym__malloc_big(n * cnt * sizeof(RT)) : NULL;
    T *Ac = gather ? bsym__malloc_big(nn * cnt * sizeof(T)) : NULL;
    T *Xc = gather ? bsym__malloc_big(nb * cnt * sizeof(T)) : NULL;
    int *ic = gather ? malloc((cnt > 0 ? cnt : 1) * sizeof(int)) : NULL;
    char *redo = malloc(cnt > 0 ? cnt : 1);
    int st = -1;
    if (redo == NULL || (check && (dT == NULL || eT == NULL)) || (gather && (Ac == NULL || Xc == NULL || ic == NULL)))
        goto done;
    if (gather) {
#pragma omp parallel for schedule(static) num_threads(bsym__team(in->cnt, threads))
        for (int64_t i = 0; i < in->cnt; i++) {
            const int64_t k = STEP_K(in, i);
            for (size_t e = 0; e < nn; e++)
                Ac[(size_t)i * nn + e] = (T)A[(size_t)k * nn + e];
            for (size_t e = 0; e < nb; e++)
                Xc[(size_t)i * nb + e] = B0 != NULL ? B0[(size_t)k * nb + e] : (T)B[(size_t)k * nb + e];
        }
    }
    /* not gathered: TIN is T (the casts only name the caller's arrays) */
    const T *As = gather ? Ac : (const T *)A;
    T *Xs = gather ? Xc : (T *)B;
    int *is = gather ? ic : info;
    if (TPREC(bsym__hhsolve_cpu_)(job->uplo, n, nrhs, in->cnt, As, Xs, is, threads, dT, eT) != 0)
        goto done;
    int64_t kept = 0, nspd = 0;
    st = 0;
#pragma omp parallel num_threads(bsym__team(in->cnt, threads)) reduction(+ : kept, nspd)
    {
        RT *ws = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof(RT));
        if (ws == NULL) {
#pragma omp atomic write
            st = -1;
        }
#pragma omp barrier
        if (st == 0) {
#pragma omp for schedule(dynamic, 16)
            for (int64_t i = 0; i < in->cnt; i++) {
                const int64_t k = STEP_K(in, i);
                int notspd = 0;
                /* non-finite input is reported, not redone; without checks
                 * a breakdown too */
                redo[i] = check && is[i] != -1 &&
                          (is[i] != 0 ||
                           !(PREC(strategy_backward_error_)(job->uplo, n, nrhs, As + (size_t)i * nn,
                                                            B0 + (size_t)k * nb, Xs + (size_t)i * nb) <= job->tol) ||
                           RPREC(strategy_ill_)(n, dT + (size_t)i * n, eT + (size_t)i * n, job->rcond, ws, &notspd));
                if (redo[i])
                    continue;
                if (gather)
                    for (size_t e = 0; e < nb; e++)
                        B[(size_t)k * nb + e] = (TIN)Xs[(size_t)i * nb + e];
                info[k] = is[i];
                rank[k] = is[i] == 0 ? n : -1;
                used[k] = BSYM_METHOD_TRIDIAG;
                kept += is[i] == 0;
                nspd += notspd;
            }
        }
        free(ws);
    }
    if (st == 0) {
        *solved += kept;
        *not_spd += nspd;
        if (out != NULL) {
            out->cnt = 0;
            for (int64_t i = 0; i < in->cnt; i++) /* in->map may be out->map: i only grows faster */
                if (redo[i])
                    out->map[out->cnt++] = STEP_K(in, i);
        }
    }
done:
    free(dT);
    free(eT);
    free(Ac);
    free(Xc);
    free(ic);
    free(redo);
    return st;
}

/* Step 3 on the systems of `in`: the truncated spectrum of A, from the
 * original right-hand sides B0 (T), into B. The systems are gathered (as T)
 * in pieces of about 2^22 matrix entries and eigendecomposed together by the
 * batched eigensolver (eigen.c: tiles across the batch for small n), then
 * each gets its truncated solution. */
static int PREC(step_eigen_)(const bsym__strategy *job, const PREC(step_) *in, const TIN *A, const T *B0, TIN *B,
                             int *info, int *rank, int *used, bsym__strategy_stats *stats, int threads)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const int64_t piece = nn >= ((size_t)1 << 22) ? 1 : (int64_t)(((size_t)1 << 22) / nn);
    const int64_t pmax = in->cnt < piece ? in->cnt : piece;
    T *Ac = bsym__malloc_big((size_t)(pmax > 0 ? pmax : 1) * nn * sizeof(T));
    T *V = bsym__malloc_big((size_t)(pmax > 0 ? pmax : 1) * nn * sizeof(T));
    RT *w = bsym__malloc_big((size_t)(pmax > 0 ? pmax : 1) * (size_t)n * sizeof(RT));
    int *ei = malloc((size_t)(pmax > 0 ? pmax : 1) * sizeof(int));
    int64_t solved = 0, fallback = 0, not_spd = 0;
    int st = Ac == NULL || V == NULL || w == NULL || ei == NULL ? -1 : 0;
    for (int64_t i0 = 0; i0 < in->cnt && st == 0; i0 += piece) {
        const int64_t pc = in->cnt - i0 < piece ? in->cnt - i0 : piece;
#pragma omp parallel for schedule(static) num_threads(bsym__team(pc, threads))
        for (int64_t i = 0; i < pc; i++) {
            const TIN *a = A + (size_t)STEP_K(in, i0 + i) * nn;
            for (size_t e = 0; e < nn; e++)
                Ac[(size_t)i * nn + e] = (T)a[e];
        }
#if BSYM_COMPLEX
        if (TPREC(bsym__eig_cpu_)(job->uplo, n, pc, Ac, &all, w, V, NULL, ei, threads) != 0) {
#else
        if (TPREC(bsym__eig_cpu_)(job->uplo, n, pc, Ac, NULL, NULL, &all, w, V, NULL, ei, threads) != 0) {
#endif
            st = -1;
            break;
        }
        int nomem = 0;
#pragma omp parallel num_threads(bsym__team(pc, threads)) reduction(+ : solved, fallback, not_spd)
        {
            T *x = malloc((nb + (size_t)n + 1) * sizeof(T)), *coef = x + nb;
            if (x == NULL) {
#pragma omp atomic write
                nomem = 1;
            }
#pragma omp barrier
            if (!nomem) {
#pragma omp for schedule(static)
                for (int64_t i = 0; i < pc; i++) {
                    const int64_t k = STEP_K(in, i0 + i);
                    int notspd = 0;
                    used[k] = BSYM_METHOD_EIGEN;
                    info[k] = PREC(strategy_truncate_)(n, nrhs, ei[i], w + (size_t)i * n, V + (size_t)i * nn,
                                                       B0 + (size_t)k * nb, x, job->rcond, coef, &rank[k], &notspd);
                    for (size_t e = 0; e < nb; e++)
                        B[(size_t)k * nb + e] = (TIN)x[e];
                    if (info[k] == 0) {
                        solved++;
                        not_spd += notspd;
                        fallback += job->start != BSYM_METHOD_EIGEN || rank[k] < n;
                    }
                }
            }
            free(x);
        }
        if (nomem)
            st = -1;
    }
    free(Ac);
    free(V);
    free(w);
    free(ei);
    if (st != 0)
        return -1;
    stats->solved += solved;
    stats->fallback += fallback;
    stats->not_spd += not_spd;
    return 0;
}

#if BSYM_COMPLEX
/* Step 1 for complex A on systems [0, count): LDL^H (method LDLT) and its
 * certificate, one system at a time (OpenMP over them), the rule of the
 * real LDL^T's (strategy_numerics.h; ldlt_impl.h's lanes): ok[k] = 1 when
 * the LDL^H factorization of A has only positive pivots, the backward
 * error is at most tol, and either the cheap form holds (min D > sigma B2,
 * from those factors) or the LDL^H factorization of A - sigma I has only
 * positive pivots; sigma = strategy_shift_ from min(||A||_inf, ||A||_F)
 * and max|a_ii| (the constant's factor near 2 covers complex arithmetic's
 * slightly larger rounding). The factorization of A stops at its first
 * pivot that is not positive: such a system goes to step 2 at that cost. */
typedef struct {
    const bsym__strategy *job;
    const T *A, *B0; /* B0: the original right-hand sides (the strategy's copy) */
    T *B;
    int *info, *ok;
} PREC(ldlh_cert_team_);

/* The cheap form of the certificate from the LDL^H factors in W (n x n: L
 * strictly below the diagonal, D > 0 on it): min D > sigma B2
 * (strategy_cert_cheap_), B2 = max y max z, y = M^-1 e and z = M^-T e for
 * the comparison matrix M of L (unit diagonal, -|l_ik| below it: |L^-1| <=
 * M^-1 for complex L too), as ldlt_impl.h's cheap_lanes_; positive sums in
 * double, |l_ik| by strategy_mod_ (libm's cabs would cost as much as the
 * factorization). yz: 2n doubles of scratch. */
static int PREC(ldlh_cheap_)(int n, const T *W, double sigma, double *yz)
{
    double *y = yz, *z = yz + n, ymax = 0, zmax = 0, mind = INFINITY;
    for (int i = 0; i < n; i++) {
        double a = 1;
        for (int k = 0; k < i; k++)
            a += RPREC(strategy_mod_)((double)RE(W[i + (size_t)k * n]), (double)IM(W[i + (size_t)k * n])) * y[k];
        y[i] = a;
        ymax = a > ymax ? a : ymax;
        mind = (double)RE(W[i + (size_t)i * n]) < mind ? (double)RE(W[i + (size_t)i * n]) : mind;
    }
    for (int i = n - 1; i >= 0; i--) {
        double a = 1;
        for (int k = i + 1; k < n; k++)
            a += RPREC(strategy_mod_)((double)RE(W[k + (size_t)i * n]), (double)IM(W[k + (size_t)i * n])) * z[k];
        z[i] = a;
        zmax = a > zmax ? a : zmax;
    }
    return RPREC(strategy_cert_cheap_)(n, mind, ymax * zmax, sigma);
}

/* System k of strategy_ldlh_cert_ (a bsym__team_body); work: the
 * certificate's workspace (bsym__ldlh_cert_work_: W, then the cheap form's
 * scratch from element n n + n). */
static void PREC(ldlh_cert_team_one_)(void *ctx, int64_t k, void *work)
{
    const PREC(ldlh_cert_team_) *c = ctx;
    const bsym__strategy *job = c->job;
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    T *w = work;
    const T *a = c->A + (size_t)k * nn, *b0 = c->B0 + (size_t)k * nb;
    T *b = c->B + (size_t)k * nb;
    double anorm = 0, fro = 0, dmax = 0;
    for (int i = 0; i < n; i++) {
        double row, sq;
        RPREC(strategy_hrow_norms_)(job->uplo, n, (const RT *)a, i, &row, &sq);
        anorm = row > anorm ? row : anorm;
        fro += sq;
        dmax = fabs((double)RE(a[i + (size_t)i * n])) > dmax ? fabs((double)RE(a[i + (size_t)i * n])) : dmax;
    }
    const double sigma = RPREC(strategy_shift_)(n, fmin(anorm, sqrt(fro)), dmax, job->rcond);
    const int info = TPREC(bsym__ldlh_cert_solve_)(job->uplo, n, nrhs, a, b, w);
    const int pos = info == 0 && (PREC(ldlh_cheap_)(n, w, sigma, (double *)(w + nn + (size_t)n)) ||
                                  TPREC(bsym__ldlh_shift_pos_)(job->uplo, n, a, (RT)sigma, w));
    c->info[k] = info;
    c->ok[k] = pos && PREC(strategy_backward_error_)(job->uplo, n, nrhs, a, b0, b) <= job->tol;
}

static int PREC(strategy_ldlh_cert_)(const bsym__strategy *job, int64_t count, const T *A, const T *B0, T *B,
                                     int *info, int *ok, int threads)
{
    PREC(ldlh_cert_team_) c = {job, A, B0, B, info, ok};
    /* systems handed out 16 at a time (schedule(dynamic, 16)) */
    return bsym__team_run(count, threads, (TPREC(bsym__ldlh_cert_work_)(job->n) + 1) * sizeof(T), 16,
                          PREC(ldlh_cert_team_one_), &c);
}
#endif

int PREC(bsym__strategy_cpu_)(const bsym__strategy *job, int64_t count, const TIN *A, TIN *B, int *info,
                              int *rank, int *used, bsym__strategy_stats *stats, int threads)
{
    const int n = (int)job->n;
    const size_t nb = (size_t)n * (size_t)job->nrhs;
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 64))
        return -1;
    /* B0: the original right-hand sides in T, for the checks, the steps after
     * the first, and the gathered copies (a fixed LDLT needs none) */
    const int need_b0 = job->check || job->start != BSYM_METHOD_LDLT;
    T *B0 = need_b0 ? bsym__malloc_big(nb * (size_t)count * sizeof(T)) : NULL;
    int64_t *map = malloc((count > 0 ? (size_t)count : 1) * sizeof(int64_t));
    int *ok = job->start == BSYM_METHOD_LDLT ? malloc((count > 0 ? (size_t)count : 1) * sizeof(int)) : NULL;
    int st = -1;
    if ((need_b0 && B0 == NULL) || map == NULL || (job->start == BSYM_METHOD_LDLT && ok == NULL))
        goto done;
    for (size_t e = 0; need_b0 && e < nb * (size_t)count; e++)
        B0[e] = (T)B[e];
    PREC(step_) step = {count, NULL}, next = {0, map};
    int64_t solved = 0, not_spd = 0;
    if (job->start == BSYM_METHOD_LDLT) { /* step 1 */
#if BSYM_COMPLEX
        if ((job->check ? PREC(strategy_ldlh_cert_)(job, count, A, B0, B, info, ok, threads)
                        : PREC(bsym__indef_cpu_)(BSYM_METHOD_LDLT, job->uplo, n, job->nrhs, count, A, B, info,
                                                 threads)) != 0)
#else
        if ((job->check ? PREC(bsym__ldlt_cert_cpu_)(job->uplo, n, job->nrhs, count, A, B, info, ok, job->rcond,
                                                     job->tol, threads)
                        : PREC(bsym__ldlt_cpu_)(job->uplo, n, job->nrhs, count, A, B, info, threads)) != 0)
#endif
            goto done;
        for (int64_t k = 0; k < count; k++) {
            if (!job->check || ok[k] || info[k] == -1) {
                const int good = job->check ? ok[k] : info[k] == 0;
                rank[k] = good ? n : -1;
                used[k] = BSYM_METHOD_LDLT;
                solved += good;
            } else {
                next.map[next.cnt++] = k;
            }
        }
        step = next;
    }
    if (job->start != BSYM_METHOD_EIGEN && step.cnt > 0) { /* step 2 */
        if (PREC(step_tridiag_)(job, &step, A, B0, B, info, rank, used, &solved, &not_spd,
                                job->check ? &next : NULL, threads) != 0)
            goto done;
        step = job->check ? next : (PREC(step_)){0, NULL};
    }
    stats->solved += solved;
    stats->not_spd += not_spd;
    st = step.cnt > 0 ? PREC(step_eigen_)(job, &step, A, B0, B, info, rank, used, stats, threads) : 0; /* step 3 */
done:
    free(B0);
    free(map);
    free(ok);
    return st;
}

#undef STEP_K

#if !BSYM_MIXED && !BSYM_COMPLEX /* least squares: the caller's own real precision only */
/* Systems of one least-squares range whose normal equations are formed at
 * once: G takes at most about 2^22 elements. */
static int64_t PREC(ls_piece_)(int64_t p)
{
    const int64_t per = p * p > 0 ? p * p : 1;
    return per >= ((int64_t)1 << 22) ? 1 : ((int64_t)1 << 22) / per;
}

/* The normal equations of one system: G = X^T W X (lower triangle) and C =
 * X^T W Y (p x nrhs); a negative or non-finite weight makes G NaN, so that
 * the solve reports the system as non-finite input (info -1). */
static void PREC(ls_normal_)(int m, int p, int nrhs, const T *X, const T *Y, const T *w, T *G, T *C)
{
    int badw = 0;
    for (int r = 0; w != NULL && r < m; r++)
        badw |= !(w[r] >= 0 && w[r] <= TMAX);
    for (int j = 0; j < p; j++)
        for (int i = j; i < p; i++)
            G[i + (size_t)j * p] = (T)PREC(strategy_wdot_)(m, X + (size_t)i * m, X + (size_t)j * m, w);
    for (int c = 0; c < nrhs; c++)
        for (int i = 0; i < p; i++)
            C[i + (size_t)c * p] = (T)PREC(strategy_wdot_)(m, X + (size_t)i * m, Y + (size_t)c * m, w);
    if (badw && p > 0)
        G[0] = (T)NAN;
}

int PREC(bsym__lsfit_cpu_)(const bsym__strategy *job, int64_t m, int64_t count, const T *X,
                          const T *Y, const T *w, T *beta, T *rss, int *info, int *rank,
                          int *used, bsym__strategy_stats *stats, int threads)
{
    const int64_t p = job->n, nrhs = job->nrhs, piece = PREC(ls_piece_)(p);
    T *G = malloc((size_t)(piece < count ? piece : count) * (size_t)(p * p > 0 ? p * p : 1) * sizeof(T));
    if (G == NULL)
        return -1;
    int st = 0;
    for (int64_t k0 = 0; k0 < count && st == 0; k0 += piece) {
        const int64_t cnt = count - k0 < piece ? count - k0 : piece;
#pragma omp parallel for schedule(static) num_threads(bsym__team(cnt, threads))
        for (int64_t k = 0; k < cnt; k++)
            PREC(ls_normal_)((int)m, (int)p, (int)nrhs, X + (size_t)(k0 + k) * m * p,
                            Y + (size_t)(k0 + k) * m * nrhs,
                            w != NULL ? w + (size_t)(k0 + k) * (size_t)job->w_stride : NULL,
                            G + (size_t)k * p * p, beta + (size_t)(k0 + k) * p * nrhs);
        st = PREC(bsym__strategy_cpu_)(job, cnt, G, beta + (size_t)k0 * p * nrhs, info + k0, rank + k0,
                                    used + k0, stats, threads);
        if (st != 0 || rss == NULL)
            continue;
#pragma omp parallel for schedule(static) num_threads(bsym__team(cnt, threads))
        for (int64_t k = k0; k < k0 + cnt; k++)
            for (int64_t c = 0; c < nrhs; c++) {
                const T *x = X + (size_t)k * m * p, *y = Y + (size_t)(k * nrhs + c) * m;
                const T *b = beta + (size_t)(k * nrhs + c) * p;
                const T *wk = w != NULL ? w + (size_t)k * (size_t)job->w_stride : NULL;
                double s = 0;
                for (int64_t r = 0; r < m && info[k] == 0; r++) {
                    const double e = PREC(strategy_fit_resid_)((int)m, (int)p, x, b, y[r], (int)r);
                    s += (wk != NULL ? (double)wk[r] : 1.0) * e * e;
                }
                rss[k * nrhs + c] = info[k] == 0 ? (T)s : (T)NAN;
            }
    }
    free(G);
    return st;
}
#endif
