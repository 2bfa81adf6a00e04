/*
 * householder_impl.h -- precision-generic Householder tridiagonalization
 * A = Q T Q^T (LAPACK's "lower" order, as in xSYTD2) and the BSYM_METHOD_TRIDIAG
 * solve built on it. Included by householder.c once with T = double and once
 * with T = float, after pcr_impl.h (whose pcr_solve_ solves T y = z); the
 * including file defines T, SFX, FABS, SQRT, COPYSIGN, FREXP, LDEXP, TMAX.
 *
 * Per system: the referenced triangle goes into the lower triangle of an
 * n x n column-major workspace W (checking finiteness and max|a|), which is
 * scaled by an exact power of two 2^-ex so that max|W| is in [1/2, 1) (no
 * overflow or harmful underflow in the norms). For k = 0 .. n-3 the reflector
 * H_k = I - tau_k v_k v_k^T (v_k[0] = 1, acting on rows/columns k+1 .. n-1)
 * annihilates W[k+2:n, k]; v_k is kept in W[k+1:n, k], tau_k in tau[k]. The
 * trailing block W22 = W[k+1:n, k+1:n] (lower triangle only) is updated as
 *   p = tau W22 v,  w = p - (tau/2)(p.v) v,  W22 -= v w^T + w v^T.
 * Then T = Q^T A Q with Q = H_0 H_1 ... H_{n-3}; d and e are unscaled by 2^ex.
 */

/* Copies the referenced triangle of A into the lower triangle of W (leading
 * dimension n); returns 1 when every referenced entry is finite, and their
 * max |a| in *amax. */
static int PREC(hh_load_)(char uplo, int64_t n, const T *A, T *W, T *amax)
{
    T m = 0;
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        T *w = W + j * n;
        if (uplo == 'L') {
            const T *a = A + j * n;
#pragma omp simd reduction(+ : bad) reduction(max : m)
            for (int64_t i = j; i < n; i++) {
                w[i] = a[i];
                bad += !(FABS(a[i]) <= TMAX);
                m = FABS(a[i]) > m ? FABS(a[i]) : m;
            }
        } else {
            for (int64_t i = j; i < n; i++) { /* row j of the upper triangle */
                T v = A[j + i * n];
                w[i] = v;
                bad += !(FABS(v) <= TMAX);
                m = FABS(v) > m ? FABS(v) : m;
            }
        }
    }
    *amax = m;
    return bad == 0;
}

/* x[0 .. len) *= 2^e, exactly (two multiplications by normal powers of two,
 * so that |e| may exceed the exponent range of one power). */
static void PREC(hh_scale_)(int64_t len, T *x, int e)
{
    const T s1 = LDEXP((T)1, e / 2), s2 = LDEXP((T)1, e - e / 2);
#pragma omp simd
    for (int64_t i = 0; i < len; i++)
        x[i] = x[i] * s1 * s2;
}

/* Scales the lower triangle of W by 2^-ex with max|W| in [1/2, 1) (as
 * hh_scale_, with the powers computed once); returns ex (0 when amax is 0). */
static int PREC(hh_normalize_)(int64_t n, T *W, T amax)
{
    int ex = 0;
    if (amax == 0)
        return 0;
    FREXP(amax, &ex);
    const T s1 = LDEXP((T)1, -ex / 2), s2 = LDEXP((T)1, -ex - (-ex / 2));
    for (int64_t j = 0; j < n; j++) {
        T *w = W + j * n;
#pragma omp simd
        for (int64_t i = j; i < n; i++)
            w[i] = w[i] * s1 * s2;
    }
    return ex;
}

/* Dot product of two vectors of length m, with 8 independent partial sums
 * (vectorised, and kept in registers where an `omp simd` reduction may go
 * through the stack). */
static T PREC(hh_dot_)(int64_t m, const T *restrict x, const T *restrict y)
{
    T s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= m; i += 8)
        for (int l = 0; l < 8; l++)
            s[l] += x[i + l] * y[i + l];
    T r = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
    for (; i < m; i++)
        r += x[i] * y[i];
    return r;
}

#include "reflector_impl.h" /* PREC(refl_rescale_): squares that lost digits to underflow */

/* Builds the reflector that maps x (length m >= 2) to (beta, 0, ..., 0):
 * overwrites x with v (v[0] = 1), sets *tau, returns beta. When x[1:] is
 * already zero, tau = 0 (H = I), x is left alone and beta = x[0]. */
static T PREC(hh_reflector_)(int64_t m, T *x, T *tau)
{
    T alpha = x[0], sigma = PREC(hh_dot_)(m - 1, x + 1, x + 1);
    const T sc = PREC(refl_rescale_)(m, x, 1, &alpha, &sigma);
    if (sigma == 0) {
        *tau = 0;
        return x[0];
    }
    const T beta = -COPYSIGN(SQRT(alpha * alpha + sigma), alpha);
    const T r = (T)1 / ((alpha - beta) * sc); /* |alpha - beta| >= sqrt(sigma) > 0 */
    *tau = (beta - alpha) / beta;
    x[0] = 1;
#pragma omp simd
    for (int64_t i = 1; i < m; i++)
        x[i] *= r;
    return beta * sc;
}

/* p = S v for the symmetric S of order m whose lower triangle is stored
 * column-major with leading dimension ld: column j adds S[j:, j] v_j to
 * p[j:] and the dot S[j+1:, j] . v[j+1:] to p[j] (the upper part). */
static void PREC(hh_symv_)(int64_t m, int64_t ld, const T *restrict S, const T *restrict v,
                                    T *restrict p)
{
    for (int64_t i = 0; i < m; i++)
        p[i] = 0;
    for (int64_t j = 0; j < m; j++) {
        const T *col = S + j * ld;
        const T vj = v[j];
        T t = 0;
#pragma omp simd reduction(+ : t)
        for (int64_t i = j + 1; i < m; i++) {
            p[i] += col[i] * vj;
            t += col[i] * v[i];
        }
        p[j] += col[j] * vj + t;
    }
}

/* Two-sided application of H = I - tau v v^T to the symmetric trailing block
 * S (order m, lower triangle, leading dimension ld): S = H S H, computed as
 * S -= v w^T + w v^T with w = p - (tau/2)(p.v) v, p = tau S v. p: m scratch. */
static void PREC(hh_update_)(int64_t m, int64_t ld, T *restrict S, const T *restrict v,
                                      T tau, T *restrict p)
{
    PREC(hh_symv_)(m, ld, S, v, p);
#pragma omp simd
    for (int64_t i = 0; i < m; i++)
        p[i] *= tau;
    const T K = tau / 2 * PREC(hh_dot_)(m, p, v);
#pragma omp simd
    for (int64_t i = 0; i < m; i++)
        p[i] -= K * v[i];
    for (int64_t j = 0; j < m; j++) {
        T *col = S + j * ld;
        const T vj = v[j], wj = p[j];
#pragma omp simd
        for (int64_t i = j; i < m; i++)
            col[i] -= v[i] * wj + p[i] * vj;
    }
}

/* Reduces the (normalized) lower triangle of W to tridiagonal form: d (n),
 * e (n-1) of T, reflectors in W's columns and tau (n-2 used). p: n scratch. */
static void PREC(hh_reduce_)(int64_t n, T *W, T *d, T *e, T *tau, T *p)
{
    for (int64_t k = 0; k + 2 < n; k++) {
        T *x = W + k * n + k + 1; /* W[k+1:n, k], becomes v_k */
        d[k] = W[k * n + k];
        e[k] = PREC(hh_reflector_)(n - k - 1, x, &tau[k]);
        if (tau[k] != 0)
            PREC(hh_update_)(n - k - 1, n, W + (k + 1) * n + k + 1, x, tau[k], p);
    }
    if (n >= 2) { /* the last 2 x 2 block */
        d[n - 2] = W[(n - 2) * n + n - 2];
        e[n - 2] = W[(n - 2) * n + n - 1];
    }
    d[n - 1] = W[(n - 1) * n + n - 1];
}

/* x[k+1:n] = H_k x[k+1:n] for a vector x of length n (H_k symmetric, so this
 * is also H_k^T). */
static void PREC(hh_apply_)(int64_t n, int64_t k, const T *W, const T *tau, T *x)
{
    if (tau[k] == 0)
        return;
    const T *v = W + k * n + k + 1;
    const int64_t m = n - k - 1;
    const T t = tau[k] * PREC(hh_dot_)(m, v, x + k + 1);
    T *restrict y = x + k + 1;
#pragma omp simd
    for (int64_t i = 0; i < m; i++)
        y[i] -= t * v[i];
}

/* Forms Q = H_0 H_1 ... H_{n-3} (column-major n x n) by backward
 * accumulation: Q = I, then for k = n-3 .. 0 Q[k+1:, k+1:] = H_k Q[k+1:, k+1:]
 * (the columns <= k+1 of the partial product are still unit vectors). */
static void PREC(hh_form_q_)(int64_t n, const T *W, const T *tau, T *Q)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            Q[i + j * n] = i == j ? (T)1 : (T)0;
    for (int64_t k = n - 3; k >= 0; k--)
        for (int64_t j = k + 1; j < n; j++)
            PREC(hh_apply_)(n, k, W, tau, Q + j * n);
}

/* Fills len values with NaN (v may be NULL). */
static void PREC(hh_nan_)(int64_t len, T *v)
{
    for (int64_t i = 0; v != NULL && i < len; i++)
        v[i] = (T)NAN;
}

/* Workspace of one system, in elements of T: W, tau, p (tridiagonalize) and
 * d, e and the PCR workspace (solve). */
#ifndef BSYM_HH_WORK
#define BSYM_HH_WORK(n, solve) \
    (BSYM_HH_TRD_WORK(n) + ((solve) ? 6 * (size_t)(n) + BSYM_PCR_WORK(n) : 0))
#endif

/* Tridiagonalizes one system; Q may be NULL. work: BSYM_HH_TRD_WORK(n)
 * (internal.h; the eigensolvers of eigen.c call it too). Returns 0, or -1
 * (non-finite input: d, e, Q all NaN). */
int PREC(bsym__hh_tridiagonalize_one_)(char uplo, int64_t n, const T *A, T *d, T *e,
                                               T *Q, T *work)
{
    T *W = work, *tau = W + n * n, *p = tau + n, amax;
    if (!PREC(hh_load_)(uplo, n, A, W, &amax)) {
        PREC(hh_nan_)(n, d);
        PREC(hh_nan_)(n - 1, e);
        PREC(hh_nan_)(n * n, Q);
        return -1;
    }
    const int ex = PREC(hh_normalize_)(n, W, amax);
    PREC(hh_reduce_)(n, W, d, e, tau, p);
    PREC(hh_scale_)(n, d, ex);
    PREC(hh_scale_)(n - 1, e, ex);
    if (Q != NULL)
        PREC(hh_form_q_)(n, W, tau, Q);
    return 0;
}

/* Gaussian elimination with partial pivoting on one tridiagonal system
 * (LAPACK's gtsv scheme; the GPU has the same in cuda/pcr.cuh): dl (n-1
 * sub-diagonal entries), d, du (n-1 super-diagonal entries) and b are
 * overwritten, b by x; dl holds U's second super-diagonal afterwards.
 * Returns 0, or the 1-based row of a zero pivot (b is then unspecified).
 * Backward stable for any nonsingular T: the fallback where PCR is not. */
static int PREC(gtsv_pivoted_)(int64_t n, T *dl, T *d, T *du, T *b)
{
    for (int64_t i = 0; i + 1 < n; i++) {
        if (FABS(d[i]) >= FABS(dl[i])) {
            /* no interchange: eliminate dl[i] with row i */
            if (d[i] == 0)
                return PREC(pcr_row_info_)(i);
            const T fact = dl[i] / d[i];
            d[i + 1] -= fact * du[i];
            b[i + 1] -= fact * b[i];
            dl[i] = 0;
        } else {
            /* interchange rows i and i+1, then eliminate */
            const T fact = d[i] / dl[i];
            d[i] = dl[i];
            const T t = d[i + 1];
            d[i + 1] = du[i] - fact * t;
            if (i + 2 < n) {
                dl[i] = du[i + 1];
                du[i + 1] = -fact * dl[i];
            }
            du[i] = t;
            const T bi = b[i];
            b[i] = b[i + 1];
            b[i + 1] = bi - fact * b[i + 1];
        }
    }
    if (d[n - 1] == 0)
        return PREC(pcr_row_info_)(n - 1);
    /* back substitution with U (diagonal d, super-diagonals du and dl) */
    b[n - 1] /= d[n - 1];
    if (n > 1)
        b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2];
    for (int64_t i = n - 3; i >= 0; i--)
        b[i] = (b[i] - du[i] * b[i + 1] - dl[i] * b[i + 2]) / d[i];
    return 0;
}

/* y = T^{-1} z for one right-hand side (x holds z on entry, y on return),
 * T symmetric tridiagonal (d, e): PCR, then, where PCR broke down or its
 * residual is not below 4 n eps (||T|| ||y|| + ||z||) (PCR does not pivot:
 * an indefinite T with a small pivot), Gaussian elimination with partial
 * pivoting on T. The GPU does the same (cuda/householder.cu). work: 4n +
 * BSYM_PCR_WORK(n). Returns 0 or the 1-based row of a breakdown. */
static int PREC(hh_tridiag_solve_)(int64_t n, const T *d, const T *e, T *x, T *work)
{
    T *z = work, *cl = z + n, *cd = cl + n, *cu = cd + n, *pw = cu + n;
    for (int64_t i = 0; i < n; i++)
        z[i] = x[i];
    int info = PREC(pcr_solve_)(n, 1, e, d, e, x, pw);
    if (info == 0) {
        T res = 0, ymax = 0, zmax = 0, tnorm = 0;
        for (int64_t i = 0; i < n; i++) {
            const T el = i > 0 ? e[i - 1] : 0, er = i + 1 < n ? e[i] : 0;
            const T ty = d[i] * x[i] + (i > 0 ? el * x[i - 1] : 0) + (i + 1 < n ? er * x[i + 1] : 0);
            const T r = FABS(z[i] - ty), t = FABS(d[i]) + FABS(el) + FABS(er);
            res = r > res || r != r ? r : res;
            ymax = FABS(x[i]) > ymax ? FABS(x[i]) : ymax;
            zmax = FABS(z[i]) > zmax ? FABS(z[i]) : zmax;
            tnorm = t > tnorm ? t : tnorm;
        }
        if (res <= 4 * (T)n * EPS * (tnorm * ymax + zmax))
            return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        x[i] = z[i];
        cd[i] = d[i];
        cl[i] = cu[i] = i + 1 < n ? e[i] : 0;
    }
    return PREC(gtsv_pivoted_)(n, cl, cd, cu, x);
}

/* hh_tridiag_solve_ for the complex TRIDIAG solve (hetrd_impl.h), whose T
 * is real: one real right-hand side x; work bsym__hh_tridiag_work_*(n)
 * elements. */
size_t PREC(bsym__hh_tridiag_work_)(int64_t n)
{
    return 4 * (size_t)n + BSYM_PCR_WORK(n);
}
int PREC(bsym__hh_tridiag_solve_one_)(int64_t n, const T *d, const T *e, T *x, T *work)
{
    return PREC(hh_tridiag_solve_)(n, d, e, x, work);
}

/* Solves A X = B for one system (B n x nrhs, overwritten): with
 * 2^-ex A = Q T' Q^T, X = 2^-ex Q T'^{-1} Q^T B. work: BSYM_HH_WORK(n, 1).
 * Returns 0, -1 (non-finite input) or j > 0 (T' singular: zero pivot in row
 * j, or a non-finite solution in row j); X is all NaN when the result is
 * not 0. */
static int PREC(hh_solve_one_)(char uplo, int64_t n, int64_t nrhs, const T *A, T *B,
                                        T *work, T *d_out, T *e_out)
{
    T *W = work, *tau = W + n * n, *p = tau + n, *d = p + n, *e = d + n, *tw = e + n, amax;
    int info = 0;
    if (!PREC(hh_load_)(uplo, n, A, W, &amax) ||
        !PREC(pcr_all_finite_)(n * nrhs, B)) {
        PREC(hh_nan_)(n * nrhs, B);
        return -1;
    }
    const int ex = PREC(hh_normalize_)(n, W, amax);
    PREC(hh_reduce_)(n, W, d, e, tau, p);
    for (int64_t i = 0; i < n && d_out != NULL; i++) { /* T' for the conditioning test */
        d_out[i] = d[i];
        e_out[i] = i + 1 < n ? e[i] : (T)0;
    }
    for (int64_t r = 0; r < nrhs && info == 0; r++) {
        T *x = B + r * n;
        for (int64_t k = 0; k + 2 < n; k++) /* z = Q^T b = H_{n-3} ... H_0 b */
            PREC(hh_apply_)(n, k, W, tau, x);
        info = PREC(hh_tridiag_solve_)(n, d, e, x, tw); /* y = T'^{-1} z */
        for (int64_t k = n - 3; k >= 0; k--) /* x = 2^-ex Q y = 2^-ex H_0 ... H_{n-3} y */
            PREC(hh_apply_)(n, k, W, tau, x);
        PREC(hh_scale_)(n, x, -ex);
    }
    for (int64_t i = 0; i < n && info == 0; i++) /* overflow in the unscaling */
        for (int64_t r = 0; r < nrhs; r++)
            if (!(FABS(B[i + r * n]) <= TMAX))
                info = PREC(pcr_row_info_)(i);
    if (info != 0)
        PREC(hh_nan_)(n * nrhs, B);
    return info;
}

/* 1 when the workspace of one system of order n, BSYM_HH_WORK(n, 1) elements,
 * can be addressed. */
static int PREC(hh_work_fits_)(int64_t n)
{
    return (size_t)n <= SIZE_MAX / sizeof(T) / ((size_t)n + 16);
}

/* The arrays of one call of either entry point below. */
typedef struct {
    char uplo;
    int64_t n, nrhs;
    const T *A;
    T *B;          /* solve: n x nrhs x count */
    T *d, *e, *Q;  /* tridiagonalize (Q may be NULL); solve: T' or NULL */
    int *info;
    int solve;     /* 1: hh_solve_one_, 0: bsym__hh_tridiagonalize_one_ */
} PREC(hh_job_);

/* System k of a job (a bsym__team_body), on the thread's workspace of
 * BSYM_HH_WORK(n, solve) elements. */
static void PREC(hh_one_team_)(void *ctx, int64_t k, void *work)
{
    const PREC(hh_job_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs;
    j->info[k] = j->solve
        ? PREC(hh_solve_one_)(j->uplo, n, nrhs, j->A + k * n * n, nrhs > 0 ? j->B + k * n * nrhs : NULL, work,
                              j->d != NULL ? j->d + k * n : NULL, j->e != NULL ? j->e + k * n : NULL)
        : PREC(bsym__hh_tridiagonalize_one_)(j->uplo, n, j->A + k * n * n, j->d + k * n,
                                             n > 1 ? j->e + k * (n - 1) : NULL,
                                             j->Q != NULL ? j->Q + k * n * n : NULL, work);
}

/* Systems [0, count) of a job, OpenMP over the systems with one workspace per
 * thread (bsym__team_run, systems of equal cost). Returns 0, or -1 when a
 * workspace could not be allocated (nothing is then promised). */
static int PREC(hh_drive_)(const PREC(hh_job_) *j, int64_t count, int threads)
{
    if (!PREC(hh_work_fits_)(j->n))
        return -1;
    return bsym__team_run(count, threads, BSYM_HH_WORK(j->n, j->solve) * sizeof(T), 0, PREC(hh_one_team_),
                          (void *)j);
}

/* bsym_*tridiagonalize on systems [0, count); Q may be NULL. */
int PREC(bsym__tridiagonalize_cpu_)(char uplo, int64_t n, int64_t count, const T *A,
                                             T *d, T *e, T *Q, int *info, int threads)
{
    const PREC(hh_job_) j = {.uplo = uplo, .n = n, .A = A, .d = d, .e = e, .Q = Q,
                                      .info = info, .solve = 0};
    return PREC(hh_drive_)(&j, count, threads);
}

/* BSYM_METHOD_TRIDIAG solves of systems [0, count). */
int PREC(bsym__hhsolve_cpu_)(char uplo, int64_t n, int64_t nrhs, int64_t count,
                                      const T *A, T *B, int *info, int threads, T *d, T *e)
{
    const PREC(hh_job_) j = {.uplo = uplo, .n = n, .nrhs = nrhs, .A = A, .B = B,
                                      .d = d, .e = e, .info = info, .solve = 1};
    return PREC(hh_drive_)(&j, count, threads);
}

