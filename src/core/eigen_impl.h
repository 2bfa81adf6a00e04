/*
 * eigen_impl.h -- precision-generic CPU driver of the batched eigensolvers
 * (bsym_*syev, bsym_*stev): per system the Householder reduction for full
 * matrices, then bisection (values only) or divide and conquer (vectors) from
 * tridiag_eig_impl.h, whose phases run here with one thread per system
 * (bsym__eig_one_). Batches of small
 * n go through eigen_lanes_impl.h instead: SIMD across tiles of systems.
 * Included by eigen.c after tridiag_eig_impl.h and eigen_lanes_impl.h.
 */
#define TE_WS PREC(te_ws_)

/* The CPU row update of one level (see tridiag_eig_impl.h): the block's old
 * row segment is gathered (through src) into w->nd, this thread's scratch,
 * then each new entry is a dot product with a contiguous column of U. */
static void PREC(te_rows_)(const TE_WS *w, int n, int s, int r)
{
    T *x = w->nd;
    for (int lo = 0, b = 0; lo < n; lo += s, b++) {
        if (w->kcnt[b] < 0)
            continue;
        const int m = (lo + s < n ? lo + s : n) - lo;
        for (int p = 0; p < m; p++)
            x[p] = TE_W(w, n, r, w->src[lo + p]);
        for (int f = 0; f < m; f++) {
            const T *u = w->U + lo + (size_t)(lo + f) * TE_LDU(n);
            T acc = 0;
#pragma omp simd reduction(+ : acc)
            for (int p = 0; p < m; p++)
                acc += x[p] * u[p];
            TE_W(w, n, r, lo + f) = acc;
        }
    }
}

/* Elements of T of one thread's workspace: the solver's, the Householder
 * reduction's and Q. */
size_t PREC(bsym__eig_work_)(int64_t n)
{
    return TE_WORK_T(n) + BSYM_HH_TRD_WORK(n) + (size_t)n * (size_t)n;
}

/* One system: A (full, n x n) or d, e (tridiagonal); w n values, V n x n or
 * NULL; returns the info code and the selected count in *cnt. */
int PREC(bsym__eig_one_)(char uplo, int n, const T *A, const T *d, const T *e,
                         const bsym_select *sel, T *wout, T *V, int *cnt, T *work, int *iwork)
{
    TE_WS ws, *w = &ws;
    PREC(te_carve_)(w, n, work, iwork);
    T *hh = work + TE_WORK_T(n), *Q = hh + BSYM_HH_TRD_WORK(n);
    if (A != NULL) {
        PREC(bsym__hh_tridiagonalize_one_)(uplo, n, A, w->d, w->e, V != NULL ? Q : NULL, hh);
    } else {
        for (int i = 0; i < n; i++) {
            w->d[i] = d[i];
            w->e[i] = i + 1 < n ? e[i] : (T)0;
        }
    }
    PREC(te_scale_)(w, n);
    if (V == NULL) {
        PREC(te_select_range_)(w, n, sel->kind, sel->il, sel->iu, sel->vl, sel->vu);
        PREC(te_bisect_all_)(w, n, wout, 0, 1);
    } else {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                TE_W(w, n, i, j) = A != NULL ? Q[i + (size_t)j * n] : (T)(i == j);
        PREC(te_select_range_)(w, n, sel->kind == BSYM_SELECT_VALUE ? BSYM_SELECT_ALL : sel->kind,
                             sel->il, sel->iu, sel->vl, sel->vu);
        PREC(te_dc_)(w, n, 0, 1);
        PREC(te_dc_select_)(w, n, sel->kind, sel->vl, sel->vu);
        PREC(te_dc_output_)(w, n, wout, V, 0, 1);
    }
    /* info != 0: w and V are NaN (te_dc_output_) and nothing is selected */
    *cnt = w->misc[TE_FAIL] ? 0 : w->misc[TE_COUNT];
    return !w->misc[TE_FINITE] ? -1 : w->misc[TE_FAIL];
}

/* Systems [0, count) by tiles of el_width_() systems, SIMD across each
 * tile (eigen_lanes_impl.h), OpenMP over the tiles; arguments as
 * bsym__eig_cpu_. Returns 0, or -1 (no memory). */
static int PREC(eig_lanes_cpu_)(char uplo, int n, int64_t count, const T *A, const T *d, const T *e,
                                const bsym_select *sel, T *w, T *V, int *cnt, int *info, int threads)
{
    const int lanes = PREC(el_width_)(), isa = bsym__cpu_isa();
    const int64_t tiles = (count + lanes - 1) / lanes;
    /* the T workspace 64-byte aligned: each array of the tile is a whole
     * number of vectors */
    const size_t tbytes = (PREC(el_work_t_)(n, V != NULL) * sizeof(T) + 63) / 64 * 64;
    const size_t bbytes = PREC(el_work_bytes_)(n);
    int nomem = 0;
#pragma omp parallel num_threads(bsym__team(tiles, threads))
    {
        T *wt = aligned_alloc(64, tbytes);
        void *wb = malloc(bbytes);
        if (wt == NULL || wb == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
            PREC(el_tile_t_) t;
            PREC(el_carve_)(&t, n, V != NULL, wt, wb);
            /* vectors past the caches' size: written around them */
            t.stream = V != NULL && (double)count * n * n * sizeof(T) > 16e6;
            /* tiles differ in their QL sweeps: handed out one at a time */
#pragma omp for schedule(dynamic, 1)
            for (int64_t g = 0; g < tiles; g++) {
                const int64_t k = g * lanes;
                const int m = count - k < lanes ? (int)(count - k) : lanes;
                PREC(el_tile_any_)(isa, &t, uplo, m, A != NULL ? A + k * n * n : NULL,
                                   A == NULL ? d + k * n : NULL,
                                   A == NULL && n > 1 ? e + k * (n - 1) : NULL, sel, w + k * n,
                                   V != NULL ? V + k * n * n : NULL, cnt != NULL ? cnt + k : NULL,
                                   info + k);
            }
        }
        free(wt);
        free(wb);
    }
    return nomem ? -1 : 0;
}

int PREC(bsym__eig_cpu_)(char uplo, int64_t n, int64_t count, const T *A, const T *d, const T *e,
                       const bsym_select *sel, T *w, T *V, int *cnt, int *info, int threads)
{
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 32))
        return -1;
    if (n <= BSYM_CPU_EIG_LANES_MAX_N)
        return PREC(eig_lanes_cpu_)(uplo, (int)n, count, A, d, e, sel, w, V, cnt, info, threads);
    int nomem = 0;
#pragma omp parallel num_threads(bsym__team(count, threads))
    {
        T *work = malloc(PREC(bsym__eig_work_)(n) * sizeof(T));
        int *iwork = malloc(TE_WORK_I(n) * sizeof(int));
        if (work == NULL || iwork == NULL) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        if (!nomem) {
#pragma omp for schedule(dynamic, 16)
            for (int64_t k = 0; k < count; k++) {
                int c;
                info[k] = PREC(bsym__eig_one_)(uplo, (int)n, A != NULL ? A + k * n * n : NULL,
                                       A == NULL ? d + k * n : NULL,
                                       A == NULL && n > 1 ? e + k * (n - 1) : NULL, sel, w + k * n,
                                       V != NULL ? V + k * n * n : NULL, &c, work, iwork);
                if (cnt != NULL)
                    cnt[k] = c;
            }
        }
        free(work);
        free(iwork);
    }
    return nomem ? -1 : 0;
}

#undef TE_WS
