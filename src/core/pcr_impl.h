/*
 * pcr_impl.h -- precision-generic parallel cyclic reduction (PCR) for one
 * tridiagonal system with several right-hand sides. Included once with
 * T = double and once with T = float by pcr.c (which also defines
 * BSYM_PCR_DRIVER to get the batched OpenMP entry point) and by
 * householder.c (which only needs the per-system solve). The including file
 * defines T, SFX (function suffix), FABS, TMAX (largest finite T) and
 * BSYM_INLINE.
 *
 * Rows i = 0 .. n-1 hold a_i x_{i-1} + b_i x_i + c_i x_{i+1} = f_i with
 * a_0 = c_{n-1} = 0. A step of stride s (s = 1, 2, 4, ... while s < n)
 * eliminates x_{i-s} and x_{i+s} from row i with rows i-s and i+s (a row
 * outside [0, n) is the identity row a = 0, b = 1, c = 0, f = 0):
 *   k1 = a_i / b_{i-s},  k2 = c_i / b_{i+s},
 *   a_i' = -a_{i-s} k1,  c_i' = -c_{i+s} k2,
 *   b_i' = b_i - c_{i-s} k1 - a_{i+s} k2,  f_i' = f_i - f_{i-s} k1 - f_{i+s} k2.
 * With the neighbour quotients al_j = a_j / b_j, ga_j = c_j / b_j and
 * ph_j = f_j / b_j (one reciprocal of b_j per step, multiplied) this is
 *   a_i' = -a_i al_{i-s},  c_i' = -c_i ga_{i+s},
 *   b_i' = b_i - a_i ga_{i-s} - c_i al_{i+s},  f_i' = f_i - a_i ph_{i-s} - c_i ph_{i+s},
 * so that row i reads only its own a, b, c, f and the snapshots al, ga, ph of
 * the previous step: every row of a step is computed from the previous
 * step's values while a, b, c and f are updated in place (no ping-pong
 * copies, workspace 7n whatever nrhs). After the last step every row is
 * decoupled and x_i = f_i / b_i.
 *
 * Invariant: before the step of stride s, a_i = 0 for i < s and c_i = 0 for
 * i >= n - s, so the rows are split into ranges where the missing neighbour
 * terms are simply left out and every loop is a plain vectorisable loop.
 */

/* Workspace of one PCR solve of order n, in elements of T. */
#ifndef BSYM_PCR_WORK
#define BSYM_PCR_WORK(n) (7 * (size_t)(n))
#endif

/* 1 when v is neither zero nor non-finite, and neither is 1/v (so that a
 * subnormal pivot, whose reciprocal overflows, counts as zero). */
#define BSYM_PCR_PIVOT_OK(v) (FABS(v) <= TMAX && FABS((T)1 / (v)) <= TMAX)

/* rb = 1/b, al = a/b, ga = c/b for all rows; returns how many pivots b_i
 * are zero or not finite. */
static int64_t PREC(pcr_quotients_)(int64_t n, const T *restrict a, const T *restrict b,
                                             const T *restrict c, T *restrict rb, T *restrict al,
                                             T *restrict ga)
{
    int64_t bad = 0;
#pragma omp simd reduction(+ : bad)
    for (int64_t i = 0; i < n; i++) {
        T r = (T)1 / b[i];
        rb[i] = r;
        al[i] = a[i] * r;
        ga[i] = c[i] * r;
        bad += !(FABS(b[i]) <= TMAX && FABS(r) <= TMAX);
    }
    return bad;
}

/* Smallest row j whose pivot b_j fails BSYM_PCR_PIVOT_OK, or n. */
static int64_t PREC(pcr_first_bad_pivot_)(int64_t n, const T *b)
{
    int64_t j = 0;
    while (j < n && BSYM_PCR_PIVOT_OK(b[j]))
        j++;
    return j;
}

/* Right-hand side update of rows [lo, hi) for stride s; left / right say
 * whether rows i-s / i+s exist (constants after inlining). */
BSYM_INLINE static void PREC(pcr_rhs_rows_)(int64_t lo, int64_t hi, int64_t s, int left,
                                                     int right, const T *restrict a,
                                                     const T *restrict c, const T *restrict ph,
                                                     T *restrict f)
{
    for (int64_t i = lo; i < hi; i++) {
        T v = f[i];
        if (left)
            v -= a[i] * ph[i - s];
        if (right)
            v -= c[i] * ph[i + s];
        f[i] = v;
    }
}

/* One step of stride s on one right-hand side f (in place); uses the
 * coefficients a, c of before the step and rb = 1/b; ph is n scratch. Rows
 * in [lo, hi) have both neighbours when s <= n - s, none otherwise. */
static void PREC(pcr_rhs_step_)(int64_t n, int64_t s, const T *restrict a,
                                         const T *restrict c, const T *restrict rb,
                                         T *restrict ph, T *restrict f)
{
    const int64_t lo = s < n - s ? s : n - s, hi = s < n - s ? n - s : s;
#pragma omp simd
    for (int64_t i = 0; i < n; i++)
        ph[i] = f[i] * rb[i];
    PREC(pcr_rhs_rows_)(0, lo, s, 0, 1, a, c, ph, f);
    if (s <= n - s)
        PREC(pcr_rhs_rows_)(lo, hi, s, 1, 1, a, c, ph, f);
    PREC(pcr_rhs_rows_)(hi, n, s, 1, 0, a, c, ph, f);
}

/* Coefficient update of rows [lo, hi) for stride s (see pcr_rhs_rows_). */
BSYM_INLINE static void PREC(pcr_coef_rows_)(int64_t lo, int64_t hi, int64_t s, int left,
                                                      int right, T *restrict a, T *restrict b,
                                                      T *restrict c, const T *restrict al,
                                                      const T *restrict ga)
{
    for (int64_t i = lo; i < hi; i++) {
        T ai = a[i], ci = c[i], bi = b[i], na = 0, nc = 0;
        if (left) {
            bi -= ai * ga[i - s];
            na = -ai * al[i - s];
        }
        if (right) {
            bi -= ci * al[i + s];
            nc = -ci * ga[i + s];
        }
        a[i] = na;
        b[i] = bi;
        c[i] = nc;
    }
}

/* One step of stride s on the coefficients (in place), from the quotients
 * al, ga of before the step. Rows without any neighbour keep a = c = 0. */
static void PREC(pcr_coef_step_)(int64_t n, int64_t s, T *restrict a, T *restrict b,
                                          T *restrict c, const T *restrict al, const T *restrict ga)
{
    const int64_t lo = s < n - s ? s : n - s, hi = s < n - s ? n - s : s;
    PREC(pcr_coef_rows_)(0, lo, s, 0, 1, a, b, c, al, ga);
    if (s <= n - s)
        PREC(pcr_coef_rows_)(lo, hi, s, 1, 1, a, b, c, al, ga);
    PREC(pcr_coef_rows_)(hi, n, s, 1, 0, a, b, c, al, ga);
}

/* x = f / b for the decoupled rows of one right-hand side; returns the
 * smallest row whose x is not finite, or n. */
static int64_t PREC(pcr_divide_)(int64_t n, const T *restrict b, T *restrict f)
{
    int64_t bad = 0;
#pragma omp simd reduction(+ : bad)
    for (int64_t i = 0; i < n; i++) {
        f[i] = f[i] / b[i];
        bad += !(FABS(f[i]) <= TMAX);
    }
    if (bad == 0)
        return n;
    int64_t j = 0;
    while (FABS(f[j]) <= TMAX)
        j++;
    return j;
}

/* 1-based info value of row j (clamped to the range of int). */
static int PREC(pcr_row_info_)(int64_t j)
{
    return j + 1 < INT_MAX ? (int)(j + 1) : INT_MAX;
}

/* Solves T X = F for one system by PCR, X (n x nrhs, column-major, leading
 * dimension n) holding F on entry and X on return. dl, du: n-1 sub- and
 * super-diagonal entries (du may be dl: symmetric; both unused when n = 1);
 * d: n diagonal entries. The inputs are assumed finite (the caller checks).
 * work: BSYM_PCR_WORK(n) elements. Returns 0, or j+1 when the pivot of row j
 * was zero or not finite at some step (the first such step, smallest row),
 * or the solution non-finite in row j; X is then all NaN. */
static int PREC(pcr_solve_)(int64_t n, int64_t nrhs, const T *dl, const T *d, const T *du,
                                     T *X, T *work)
{
    T *a = work, *b = a + n, *c = b + n, *rb = c + n, *al = rb + n, *ga = al + n, *ph = ga + n;
    int64_t bad = n;
    a[0] = 0;
    for (int64_t i = 1; i < n; i++)
        a[i] = dl[i - 1];
    for (int64_t i = 0; i < n; i++)
        b[i] = d[i];
    for (int64_t i = 0; i + 1 < n; i++)
        c[i] = du[i];
    c[n - 1] = 0;
    for (int64_t s = 1; s < n && bad == n; s *= 2) {
        if (PREC(pcr_quotients_)(n, a, b, c, rb, al, ga) != 0) {
            bad = PREC(pcr_first_bad_pivot_)(n, b);
            break;
        }
        for (int64_t r = 0; r < nrhs; r++)
            PREC(pcr_rhs_step_)(n, s, a, c, rb, ph, X + r * n);
        PREC(pcr_coef_step_)(n, s, a, b, c, al, ga);
    }
    if (bad == n)
        bad = PREC(pcr_first_bad_pivot_)(n, b);
    if (bad == n) {
        /* x = f / b; bad: the smallest row with a non-finite x over all
         * right-hand sides */
        for (int64_t r = 0; r < nrhs; r++) {
            int64_t j = PREC(pcr_divide_)(n, b, X + r * n);
            bad = j < bad ? j : bad;
        }
    }
    if (bad == n)
        return 0;
    for (int64_t e = 0; e < n * nrhs; e++)
        X[e] = (T)NAN;
    return PREC(pcr_row_info_)(bad);
}

/* 1 when the len values of v are all finite (v may be NULL when len = 0). */
static int PREC(pcr_all_finite_)(int64_t len, const T *v)
{
    int64_t bad = 0;
#pragma omp simd reduction(+ : bad)
    for (int64_t i = 0; i < len; i++)
        bad += !(FABS(v[i]) <= TMAX);
    return bad == 0;
}

#ifdef BSYM_PCR_DRIVER
/* One system of bsym_*tridiag_solve: checks the inputs, then pcr_solve_. */
static int PREC(pcr_system_)(int64_t n, int64_t nrhs, const T *dl, const T *d,
                                      const T *du, T *X, T *work)
{
    if (!PREC(pcr_all_finite_)(n - 1, dl) || !PREC(pcr_all_finite_)(n, d) ||
        (du != dl && !PREC(pcr_all_finite_)(n - 1, du)) ||
        !PREC(pcr_all_finite_)(n * nrhs, X)) {
        for (int64_t e = 0; e < n * nrhs; e++)
            X[e] = (T)NAN;
        return -1;
    }
    return PREC(pcr_solve_)(n, nrhs, dl, d, du, X, work);
}

/* One bsym__pcr_cpu_ call, as its systems see it. */
typedef struct {
    int64_t n, nrhs;
    const T *dl, *d, *du; /* du NULL: symmetric */
    T *B;
    int *info;
} PREC(pcr_team_);

/* System k of a bsym__pcr_cpu_ call (a bsym__team_body), on the thread's
 * workspace of BSYM_PCR_WORK(n) elements. */
static void PREC(pcr_team_one_)(void *ctx, int64_t k, void *work)
{
    const PREC(pcr_team_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs;
    const T *dlk = n > 1 ? j->dl + k * (n - 1) : NULL;
    const T *duk = j->du == NULL ? dlk : (n > 1 ? j->du + k * (n - 1) : NULL);
    T *X = nrhs > 0 ? j->B + k * n * nrhs : NULL;
    j->info[k] = PREC(pcr_system_)(n, nrhs, dlk, j->d + k * n, duk, X, work);
}

/* Systems [0, count) of a batch (layout as bsym_dtridiag_solve; du NULL for
 * symmetric), OpenMP over the systems, one workspace of BSYM_PCR_WORK(n) per
 * thread (bsym__team_run, systems of equal cost). Returns 0, or -1 when a
 * thread's workspace could not be allocated (nothing is then promised). */
int PREC(bsym__pcr_cpu_)(int64_t n, int64_t nrhs, int64_t count, const T *dl, const T *d,
                                  const T *du, T *B, int *info, int threads)
{
    if ((size_t)n > SIZE_MAX / sizeof(T) / 8)
        return -1;
    PREC(pcr_team_) j = {n, nrhs, dl, d, du, B, info};
    return bsym__team_run(count, threads, BSYM_PCR_WORK(n) * sizeof(T), 0, PREC(pcr_team_one_), &j);
}
#endif /* BSYM_PCR_DRIVER */

#undef BSYM_PCR_PIVOT_OK
