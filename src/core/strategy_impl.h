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
 *   3. EIGEN: the rest get the eigendecomposition by divide and conquer and
 *      the truncated solution from the original right-hand sides.
 * Without checks (job->check 0: a fixed method) the start's solve is all.
 */

/* Elements of T of one thread's workspace for step 3 and the test: the
 * eigensolver's, w, V, the coefficients and the test's scaled T. */
static size_t PREC(strategy_work_)(int64_t n)
{
    return PREC(bsym__eig_work_)(n) + (size_t)n * (size_t)n + 5 * (size_t)n;
}

/* 1 when the len entries of x are finite. */
static int PREC(strategy_finite_)(int64_t len, const T *x)
{
    for (int64_t i = 0; i < len; i++)
        if (!(FABS(x[i]) <= TMAX))
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
            xmax = FABS(x[i]) > xmax ? FABS(x[i]) : xmax;
            bmax = FABS(b[i]) > bmax ? FABS(b[i]) : bmax;
        }
        const double e = PREC(strategy_berr_)(rmax, anorm, xmax, bmax);
        worst = e > worst || e != e ? e : worst;
    }
    return worst;
}

/* Step 3 for one system: X (n x nrhs) = the truncated solution from B (may
 * alias X), through the eigendecomposition in the thread's workspace.
 * Returns the info code; sets *rank and *notspd. */
static int PREC(strategy_truncated_one_)(char uplo, int n, int nrhs, const T *A, const T *B, T *X,
                                  double rcond, T *work, int *iwork, int *rank, int *notspd)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    T *w = work + PREC(bsym__eig_work_)(n), *V = w + n, *coef = V + (size_t)n * n;
    int cnt;
    int info = PREC(bsym__eig_one_)(uplo, n, A, NULL, NULL, &all, w, V, &cnt, work, iwork);
    if (info == 0 && !PREC(strategy_finite_)((int64_t)n * nrhs, B))
        info = -1;
    *rank = -1;
    *notspd = 0;
    if (info != 0) {
        for (int64_t i = 0; i < (int64_t)n * nrhs; i++)
            X[i] = (T)NAN;
        return info;
    }
    const T tau = PREC(strategy_tau_)(n, w, rcond);
    for (int r = 0; r < nrhs; r++) {
        const T *b = B + (size_t)r * n;
        for (int j = 0; j < n; j++) /* all of b is read before x overwrites it */
            coef[j] = PREC(strategy_coef_)(n, V, b, w, j, tau);
        for (int i = 0; i < n; i++)
            X[(size_t)r * n + i] = PREC(strategy_apply_row_)(n, V, coef, i);
    }
    int kept = 0;
    for (int j = 0; j < n; j++)
        kept += PREC(strategy_kept_)(w[j], tau);
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

/* Step 2 on the systems of `in` (the range's A, its original right-hand sides
 * B0 and its solutions B): Householder + PCR on copies gathered from A and
 * B0 (in place on A and B when `in` is the whole range, map NULL), then the
 * checks; a system kept gets its solution, rank n and used TRIDIAG, the
 * others are listed in *out (map and cnt) for step 3. Returns -1 when memory
 * ran out. */
static int PREC(step_tridiag_)(const bsym__strategy *job, const PREC(step_) *in, const T *A, const T *B0, T *B,
                               int *info, int *rank, int *used, int64_t *solved, int64_t *not_spd,
                               PREC(step_) *out, int threads)
{
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs, cnt = (size_t)in->cnt;
    const int gather = in->map != NULL;
    T *dT = malloc((n * cnt > 0 ? n * cnt : 1) * sizeof(T)), *eT = malloc((n * cnt > 0 ? n * cnt : 1) * sizeof(T));
    T *Ac = gather ? malloc((nn * cnt > 0 ? nn * cnt : 1) * sizeof(T)) : NULL;
    T *Xc = gather ? malloc((nb * cnt > 0 ? nb * cnt : 1) * sizeof(T)) : NULL;
    int *ic = gather ? malloc((cnt > 0 ? cnt : 1) * sizeof(int)) : NULL;
    char *redo = malloc(cnt > 0 ? cnt : 1);
    int st = -1;
    if (dT == NULL || eT == NULL || redo == NULL || (gather && (Ac == NULL || Xc == NULL || ic == NULL)))
        goto done;
    if (gather) {
#pragma omp parallel for schedule(static) num_threads(bsym__team(in->cnt, threads))
        for (int64_t i = 0; i < in->cnt; i++) {
            memcpy(Ac + (size_t)i * nn, A + (size_t)in->map[i] * nn, nn * sizeof(T));
            memcpy(Xc + (size_t)i * nb, B0 + (size_t)in->map[i] * nb, nb * sizeof(T));
        }
    }
    const T *As = gather ? Ac : A;
    T *Xs = gather ? Xc : B;
    int *is = gather ? ic : info;
    if (PREC(bsym__hhsolve_cpu_)(job->uplo, n, nrhs, in->cnt, As, Xs, is, threads, dT, eT) != 0)
        goto done;
    int64_t kept = 0, nspd = 0;
    st = 0;
#pragma omp parallel num_threads(bsym__team(in->cnt, threads)) reduction(+ : kept, nspd)
    {
        T *ws = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof(T));
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
                redo[i] = 0;
                if (is[i] == -1) { /* non-finite input: reported, not redone */
                    info[k] = -1;
                    rank[k] = -1;
                    used[k] = BSYM_METHOD_TRIDIAG;
                    continue;
                }
                redo[i] = is[i] != 0 ||
                          !(PREC(strategy_backward_error_)(job->uplo, n, nrhs, As + (size_t)i * nn,
                                                           B0 + (size_t)k * nb, Xs + (size_t)i * nb) <= job->tol) ||
                          PREC(strategy_ill_)(n, dT + (size_t)i * n, eT + (size_t)i * n, job->rcond, ws, &notspd);
                if (redo[i])
                    continue;
                if (gather)
                    memcpy(B + (size_t)k * nb, Xs + (size_t)i * nb, nb * sizeof(T));
                info[k] = 0;
                rank[k] = n;
                used[k] = BSYM_METHOD_TRIDIAG;
                kept++;
                nspd += notspd;
            }
        }
        free(ws);
    }
    if (st == 0) {
        *solved += kept;
        *not_spd += nspd;
        out->cnt = 0;
        for (int64_t i = 0; i < in->cnt; i++) /* in->map may be out->map: i only grows faster */
            if (redo[i])
                out->map[out->cnt++] = STEP_K(in, i);
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
 * original right-hand sides B0 (which may be B itself when start is EIGEN). */
static int PREC(step_eigen_)(const bsym__strategy *job, const PREC(step_) *in, const T *A, const T *B0, T *B,
                             int *info, int *rank, int *used, bsym__strategy_stats *stats, int threads)
{
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    int64_t solved = 0, fallback = 0, not_spd = 0;
    int nomem = 0;
#pragma omp parallel num_threads(bsym__team(in->cnt, threads)) reduction(+ : solved, fallback, not_spd)
    {
        T *work = malloc(PREC(strategy_work_)(n) * sizeof(T));
        int *iwork = malloc(TE_WORK_I(n) * sizeof(int));
        if (work == NULL || iwork == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
#pragma omp for schedule(dynamic, 16)
            for (int64_t i = 0; i < in->cnt; i++) {
                const int64_t k = STEP_K(in, i);
                int notspd = 0;
                used[k] = BSYM_METHOD_EIGEN;
                info[k] = PREC(strategy_truncated_one_)(job->uplo, n, nrhs, A + (size_t)k * nn, B0 + (size_t)k * nb,
                                                        B + (size_t)k * nb, job->rcond, work, iwork, &rank[k],
                                                        &notspd);
                if (info[k] == 0) {
                    solved++;
                    not_spd += notspd;
                    fallback += job->start != BSYM_METHOD_EIGEN || rank[k] < n;
                }
            }
        }
        free(work);
        free(iwork);
    }
    if (nomem)
        return -1;
    stats->solved += solved;
    stats->fallback += fallback;
    stats->not_spd += not_spd;
    return 0;
}

/* A fixed method (job->check 0): the start's solve alone. */
static int PREC(strategy_plain_)(const bsym__strategy *job, int64_t count, const T *A, T *B, int *info, int *rank,
                                 int *used, bsym__strategy_stats *stats, int threads)
{
    const int n = (int)job->n;
    int64_t solved = 0;
    if (job->start == BSYM_METHOD_EIGEN) {
        const PREC(step_) all = {count, NULL};
        return PREC(step_eigen_)(job, &all, A, B, B, info, rank, used, stats, threads);
    }
    const int st = job->start == BSYM_METHOD_LDLT
                       ? PREC(bsym__ldlt_cpu_)(job->uplo, n, job->nrhs, count, A, B, info, threads)
                       : PREC(bsym__hhsolve_cpu_)(job->uplo, n, job->nrhs, count, A, B, info, threads, NULL, NULL);
    if (st != 0)
        return -1;
    for (int64_t k = 0; k < count; k++) {
        rank[k] = info[k] == 0 ? n : -1;
        used[k] = job->start;
        solved += info[k] == 0;
    }
    stats->solved += solved;
    return 0;
}

int PREC(bsym__strategy_cpu_)(const bsym__strategy *job, int64_t count, const T *A, T *B, int *info,
                           int *rank, int *used, bsym__strategy_stats *stats, int threads)
{
    const int n = (int)job->n;
    const size_t nb = (size_t)n * (size_t)job->nrhs;
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 64))
        return -1;
    if (!job->check)
        return PREC(strategy_plain_)(job, count, A, B, info, rank, used, stats, threads);
    /* B0: the original right-hand sides, for the checks and the steps after */
    T *B0 = malloc((nb * (size_t)count > 0 ? nb * (size_t)count : 1) * sizeof(T));
    int64_t *map = malloc((count > 0 ? (size_t)count : 1) * sizeof(int64_t));
    int *ok = job->start == BSYM_METHOD_LDLT ? malloc((count > 0 ? (size_t)count : 1) * sizeof(int)) : NULL;
    int st = -1;
    if (B0 == NULL || map == NULL || (job->start == BSYM_METHOD_LDLT && ok == NULL))
        goto done;
    if (nb > 0)
        memcpy(B0, B, nb * (size_t)count * sizeof(T));
    PREC(step_) step = {count, NULL}, next = {0, map};
    int64_t solved = 0, not_spd = 0;
    if (job->start == BSYM_METHOD_LDLT) { /* step 1 */
        if (PREC(bsym__ldlt_cert_cpu_)(job->uplo, n, job->nrhs, count, A, B, info, ok, job->rcond, job->tol,
                                       threads) != 0)
            goto done;
        for (int64_t k = 0; k < count; k++) {
            if (ok[k] || info[k] == -1) {
                rank[k] = ok[k] ? n : -1;
                used[k] = BSYM_METHOD_LDLT;
                solved += ok[k];
            } else {
                next.map[next.cnt++] = k;
            }
        }
        step = next;
    }
    if (job->start != BSYM_METHOD_EIGEN && step.cnt > 0) { /* step 2 */
        if (PREC(step_tridiag_)(job, &step, A, B0, B, info, rank, used, &solved, &not_spd, &next, threads) != 0)
            goto done;
        step = next;
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

