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

/* One bsym__eig_cpu_ call, as its groups see it: eig_tile_team_ (a tile of
 * el_width_() systems) or eig_one_team_ (one system); arguments as
 * bsym__eig_cpu_. */
typedef struct {
    char uplo;
    int n;
    int64_t count;
    const T *A, *d, *e;
    const bsym_select *sel;
    T *w, *V;
    int *cnt, *info;
    int lanes, isa;       /* eig_tile_team_: el_width_(), bsym__cpu_isa() */
    size_t tbytes;        /* eig_tile_team_: the T part of the workspace */
    int stream;           /* eig_tile_team_: vectors past the caches' size */
} PREC(eig_team_);

/* Tile g of an eig_lanes_cpu_ call (a bsym__team_body): its systems SIMD
 * across the tile (eigen_lanes_impl.h), on the thread's workspace: tbytes
 * of T, then el_work_bytes_(n). */
static void PREC(eig_tile_team_)(void *ctx, int64_t g, void *work)
{
    const PREC(eig_team_) *j = ctx;
    const int64_t n = j->n, k = g * j->lanes;
    const int m = j->count - k < j->lanes ? (int)(j->count - k) : j->lanes;
    PREC(el_tile_t_) t;
    PREC(el_carve_)(&t, j->n, j->V != NULL, work, (char *)work + j->tbytes);
    t.stream = j->stream;
    PREC(el_tile_any_)(j->isa, &t, j->uplo, m, j->A != NULL ? j->A + k * n * n : NULL,
                       j->A == NULL ? j->d + k * n : NULL, j->A == NULL && n > 1 ? j->e + k * (n - 1) : NULL,
                       j->sel, j->w + k * n, j->V != NULL ? j->V + k * n * n : NULL,
                       j->cnt != NULL ? j->cnt + k : NULL, j->info + k);
}

/* Systems [0, count) by tiles of el_width_() systems, SIMD across each
 * tile (eigen_lanes_impl.h), OpenMP over the tiles; arguments as
 * bsym__eig_cpu_. Returns 0, or -1 (no memory). */
static int PREC(eig_lanes_cpu_)(char uplo, int n, int64_t count, const T *A, const T *d, const T *e,
                                const bsym_select *sel, T *w, T *V, int *cnt, int *info, int threads)
{
    const int lanes = PREC(el_width_)();
    const int64_t tiles = (count + lanes - 1) / lanes;
    /* the T workspace 64-byte aligned: each array of the tile is a whole
     * number of vectors */
    const size_t tbytes = bsym__align64(PREC(el_work_t_)(n, V != NULL) * sizeof(T));
    PREC(eig_team_) j = {uplo, n, count, A, d, e, sel, w, V, cnt, info, lanes, bsym__cpu_isa(), tbytes,
                         /* vectors past the caches' size: written around them */
                         V != NULL && (double)count * n * n * sizeof(T) > 16e6};
    /* tiles differ in their QL sweeps: handed out one at a time */
    return bsym__team_run(tiles, threads, tbytes + PREC(el_work_bytes_)(n), 1, PREC(eig_tile_team_), &j);
}

/* System k of a bsym__eig_cpu_ call for larger n (a bsym__team_body): on the
 * thread's workspace, bsym__eig_work_(n) elements of T, then (from the next
 * 64-byte line) TE_WORK_I(n) ints. */
static void PREC(eig_one_team_)(void *ctx, int64_t k, void *work)
{
    const PREC(eig_team_) *j = ctx;
    const int64_t n = j->n;
    int *iwork = (int *)((char *)work + bsym__align64(PREC(bsym__eig_work_)(n) * sizeof(T)));
    int c;
    j->info[k] = PREC(bsym__eig_one_)(j->uplo, j->n, j->A != NULL ? j->A + k * n * n : NULL,
                                      j->A == NULL ? j->d + k * n : NULL,
                                      j->A == NULL && n > 1 ? j->e + k * (n - 1) : NULL, j->sel, j->w + k * n,
                                      j->V != NULL ? j->V + k * n * n : NULL, &c, work, iwork);
    if (j->cnt != NULL)
        j->cnt[k] = c;
}

int PREC(bsym__eig_cpu_)(char uplo, int64_t n, int64_t count, const T *A, const T *d, const T *e,
                       const bsym_select *sel, T *w, T *V, int *cnt, int *info, int threads)
{
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 32))
        return -1;
    if (n <= BSYM_CPU_EIG_LANES_MAX_N)
        return PREC(eig_lanes_cpu_)(uplo, (int)n, count, A, d, e, sel, w, V, cnt, info, threads);
    PREC(eig_team_) j = {uplo, (int)n, count, A, d, e, sel, w, V, cnt, info, 1, 0, 0, 0};
    /* systems of uneven cost (iterations, deflation): handed out 16 at a time */
    return bsym__team_run(count, threads,
                          bsym__align64(PREC(bsym__eig_work_)(n) * sizeof(T)) + TE_WORK_I(n) * sizeof(int), 16,
                          PREC(eig_one_team_), &j);
}

#undef TE_WS
