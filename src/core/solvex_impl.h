/*
 * solvex_impl.h -- precision-generic CPU drivers of the truncated-spectrum
 * and automatic solves (bsym_*solvex, methods EIGEN and AUTO) and of batched
 * least squares (bsym_*lsfit). Included by eigen.c after eigen_impl.h (the
 * one-system eigensolver eig_one_) and solvex_numerics.h (the per-system
 * numerics shared with the GPU).
 *
 * One range of systems goes through the same steps as on the GPU:
 *   1. (start LDLT or TRIDIAG) the cheap batched solve, keeping the original
 *      right-hand sides and, after Householder, T;
 *   2. per system (OpenMP over the batch): the backward error and the
 *      conditioning test decide whether the system is redone;
 *   3. the systems redone (all of them when start is EIGEN) get the
 *      eigendecomposition by divide and conquer and the truncated solution
 *      from the original right-hand sides.
 */
#define SXI_CAT2(a, b) a##b
#define SXI_CAT(a, b) SXI_CAT2(a, b)
#define SXI(name) SXI_CAT(name, SFX)

/* Elements of T of one thread's workspace for step 3 and the test: the
 * eigensolver's, w, V, the coefficients and the test's scaled T. */
static size_t SXI(sx_work_)(int64_t n)
{
    return SXI(eig_work_)(n) + (size_t)n * (size_t)n + 5 * (size_t)n;
}

/* 1 when the len entries of x are finite. */
static int SXI(sx_finite_)(int64_t len, const T *x)
{
    for (int64_t i = 0; i < len; i++)
        if (!(FABS(x[i]) <= TMAX))
            return 0;
    return 1;
}

/* The backward error of X (n x nrhs) for A X = B: the largest over the
 * right-hand sides, in double; NaN for non-finite input. */
static double SXI(sx_backward_error_)(char uplo, int n, int nrhs, const T *A, const T *B, const T *X)
{
    double worst = 0, anorm = 0, arow;
    for (int r = 0; r < nrhs; r++) {
        const T *b = B + (size_t)r * n, *x = X + (size_t)r * n;
        double rmax = 0, xmax = 0, bmax = 0;
        for (int i = 0; i < n; i++) {
            const double ri = SXI(sx_resid_row_)(uplo, n, A, x, b[i], i, &arow);
            rmax = ri > rmax || ri != ri ? ri : rmax;
            anorm = arow > anorm ? arow : anorm;
            xmax = FABS(x[i]) > xmax ? FABS(x[i]) : xmax;
            bmax = FABS(b[i]) > bmax ? FABS(b[i]) : bmax;
        }
        const double e = SXI(sx_berr_)(rmax, anorm, xmax, bmax);
        worst = e > worst || e != e ? e : worst;
    }
    return worst;
}

/* Step 3 for one system: X (n x nrhs) = the truncated solution from B (may
 * alias X), through the eigendecomposition in the thread's workspace.
 * Returns the info code; sets *rank and *notspd. */
static int SXI(sx_truncated_one_)(char uplo, int n, int nrhs, const T *A, const T *B, T *X,
                                  double rcond, T *work, int *iwork, int *rank, int *notspd)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    T *w = work + SXI(eig_work_)(n), *V = w + n, *coef = V + (size_t)n * n;
    int cnt;
    int info = SXI(eig_one_)(uplo, n, A, NULL, NULL, &all, w, V, &cnt, work, iwork);
    if (info == 0 && !SXI(sx_finite_)((int64_t)n * nrhs, B))
        info = -1;
    *rank = -1;
    *notspd = 0;
    if (info != 0) {
        for (int64_t i = 0; i < (int64_t)n * nrhs; i++)
            X[i] = (T)NAN;
        return info;
    }
    const T tau = SXI(sx_tau_)(n, w, rcond);
    for (int r = 0; r < nrhs; r++) {
        const T *b = B + (size_t)r * n;
        for (int j = 0; j < n; j++) /* all of b is read before x overwrites it */
            coef[j] = SXI(sx_coef_)(n, V, b, w, j, tau);
        for (int i = 0; i < n; i++)
            X[(size_t)r * n + i] = SXI(sx_apply_row_)(n, V, coef, i);
    }
    int kept = 0;
    for (int j = 0; j < n; j++)
        kept += SXI(sx_kept_)(w[j], tau);
    *rank = kept;
    *notspd = w[0] <= 0;
    return 0;
}

int SXI(bsym__solvex_cpu_)(const bsym__sx_job *job, int64_t count, const T *A, T *B, int *info,
                           int *rank, int *used, bsym__sx_stats *stats, int threads)
{
    const int n = (int)job->n, nrhs = (int)job->nrhs;
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const bsym_method start = job->start;
    T *B0 = NULL, *dT = NULL, *eT = NULL;
    int nomem = 0;
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 64))
        return -1;
    if (start != BSYM_METHOD_EIGEN) {
        /* step 1: the cheap solve; B0 keeps the right-hand sides for the
         * residual and for the systems redone */
        if (job->check)
            B0 = malloc((nb * (size_t)count > 0 ? nb * (size_t)count : 1) * sizeof(T));
        if (start == BSYM_METHOD_TRIDIAG && job->check) {
            dT = malloc((size_t)n * (size_t)count * sizeof(T));
            eT = malloc((size_t)n * (size_t)count * sizeof(T));
        }
        if (job->check && (B0 == NULL || (start == BSYM_METHOD_TRIDIAG && (dT == NULL || eT == NULL)))) {
            nomem = 1;
        } else {
            if (B0 != NULL && nb > 0)
                memcpy(B0, B, nb * (size_t)count * sizeof(T));
            nomem = start == BSYM_METHOD_LDLT
                        ? SXI(bsym__ldlt_cpu_)(job->uplo, n, nrhs, count, A, B, info, threads)
                        : SXI(bsym__hhsolve_cpu_)(job->uplo, n, nrhs, count, A, B, info, threads, dT, eT);
        }
    }
    int64_t solved = 0, fallback = 0, not_spd = 0;
#pragma omp parallel num_threads(bsym__team(count, threads)) if (!nomem) \
    reduction(+ : solved, fallback, not_spd)
    {
        T *work = nomem ? NULL : malloc(SXI(sx_work_)(n) * sizeof(T));
        int *iwork = nomem ? NULL : malloc(TE_WORK_I(n) * sizeof(int));
        if (work == NULL || iwork == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
#pragma omp for schedule(dynamic, 16)
            for (int64_t k = 0; k < count; k++) {
                const T *a = A + (size_t)k * nn;
                T *x = B + (size_t)k * nb;
                const T *b = B0 != NULL ? B0 + (size_t)k * nb : x;
                int notspd = 0;
                if (start != BSYM_METHOD_EIGEN) {
                    /* step 2: keep the cheap solution when it passes */
                    if (info[k] != 0 && (info[k] == -1 || !job->check)) {
                        rank[k] = -1;
                        used[k] = start;
                        continue;
                    }
                    int redo = job->check &&
                               (info[k] != 0 ||
                                !(SXI(sx_backward_error_)(job->uplo, n, nrhs, a, b, x) <= job->tol));
                    if (!redo && job->check && dT != NULL)
                        redo = SXI(sx_ill_)(n, dT + (size_t)k * n, eT + (size_t)k * n, job->rcond,
                                            work + SXI(sx_work_)(n) - 2 * (size_t)n, &notspd);
                    if (!redo) {
                        rank[k] = n;
                        used[k] = start;
                        solved++;
                        not_spd += notspd;
                        continue;
                    }
                }
                /* step 3: the truncated spectrum, from the original B */
                used[k] = BSYM_METHOD_EIGEN;
                info[k] = SXI(sx_truncated_one_)(job->uplo, n, nrhs, a, b, x, job->rcond, work,
                                                 iwork, &rank[k], &notspd);
                if (info[k] == 0) {
                    solved++;
                    not_spd += notspd;
                    fallback += start != BSYM_METHOD_EIGEN || rank[k] < n;
                }
            }
        }
        free(work);
        free(iwork);
    }
    free(B0);
    free(dT);
    free(eT);
    if (nomem)
        return -1;
    stats->solved += solved;
    stats->fallback += fallback;
    stats->not_spd += not_spd;
    return 0;
}

/* Systems of one least-squares range whose normal equations are formed at
 * once: G takes at most about 2^22 elements. */
static int64_t SXI(ls_piece_)(int64_t p)
{
    const int64_t per = p * p > 0 ? p * p : 1;
    return per >= ((int64_t)1 << 22) ? 1 : ((int64_t)1 << 22) / per;
}

/* The normal equations of one system: G = X^T W X (lower triangle) and C =
 * X^T W Y (p x nrhs); a negative or non-finite weight makes G NaN, so that
 * the solve reports the system as non-finite input (info -1). */
static void SXI(ls_normal_)(int m, int p, int nrhs, const T *X, const T *Y, const T *w, T *G, T *C)
{
    int badw = 0;
    for (int r = 0; w != NULL && r < m; r++)
        badw |= !(w[r] >= 0 && w[r] <= TMAX);
    for (int j = 0; j < p; j++)
        for (int i = j; i < p; i++)
            G[i + (size_t)j * p] = (T)SXI(sx_wdot_)(m, X + (size_t)i * m, X + (size_t)j * m, w);
    for (int c = 0; c < nrhs; c++)
        for (int i = 0; i < p; i++)
            C[i + (size_t)c * p] = (T)SXI(sx_wdot_)(m, X + (size_t)i * m, Y + (size_t)c * m, w);
    if (badw && p > 0)
        G[0] = (T)NAN;
}

int SXI(bsym__lsfit_cpu_)(const bsym__sx_job *job, int64_t m, int64_t count, const T *X,
                          const T *Y, const T *w, T *beta, T *rss, int *info, int *rank,
                          int *used, bsym__sx_stats *stats, int threads)
{
    const int64_t p = job->n, nrhs = job->nrhs, piece = SXI(ls_piece_)(p);
    T *G = malloc((size_t)(piece < count ? piece : count) * (size_t)(p * p > 0 ? p * p : 1) * sizeof(T));
    if (G == NULL)
        return -1;
    int st = 0;
    for (int64_t k0 = 0; k0 < count && st == 0; k0 += piece) {
        const int64_t cnt = count - k0 < piece ? count - k0 : piece;
#pragma omp parallel for schedule(static) num_threads(bsym__team(cnt, threads))
        for (int64_t k = 0; k < cnt; k++)
            SXI(ls_normal_)((int)m, (int)p, (int)nrhs, X + (size_t)(k0 + k) * m * p,
                            Y + (size_t)(k0 + k) * m * nrhs,
                            w != NULL ? w + (size_t)(k0 + k) * (size_t)job->w_stride : NULL,
                            G + (size_t)k * p * p, beta + (size_t)(k0 + k) * p * nrhs);
        st = SXI(bsym__solvex_cpu_)(job, cnt, G, beta + (size_t)k0 * p * nrhs, info + k0, rank + k0,
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
                    const double e = SXI(sx_fit_resid_)((int)m, (int)p, x, b, y[r], (int)r);
                    s += (wk != NULL ? (double)wk[r] : 1.0) * e * e;
                }
                rss[k * nrhs + c] = info[k] == 0 ? (T)s : (T)NAN;
            }
    }
    free(G);
    return st;
}

#undef SXI
#undef SXI_CAT
#undef SXI_CAT2
