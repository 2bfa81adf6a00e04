/*
 * hetrd_impl.h -- precision-generic complex Hermitian tridiagonalization
 * A = Q T Q^H with T REAL symmetric tridiagonal (bsym_ztridiagonalize,
 * bsym_ctridiagonalize) and what is built on it: the complex Hermitian
 * eigensolvers (bsym_zsyev, bsym_csyev) and the complex BSYM_METHOD_TRIDIAG
 * solve (bsym_zsolvex, bsym_csolvex). Included by hetrd.c once with prec_cdouble.h and
 * once with prec_cfloat.h; RPREC(name) names the real functions of the
 * matching real precision (d for z, s for c).
 *
 * Per system (LAPACK's zhetd2, lower order): the referenced triangle goes
 * into the lower triangle of an n x n column-major workspace W (the upper
 * triangle is read as the conjugate transpose, the diagonal's imaginary part
 * dropped), scaled by an exact power of two so that max(|re|, |im|) is in
 * [1/2, 1). For k = 0 .. n-3 the reflector H_k = I - tau_k v_k v_k^H
 * (zlarfg: H_k^H x = beta e1, beta real, v_k[0] = 1) acts on rows/columns
 * k+1 .. n-1; the trailing block becomes H_k^H W22 H_k through
 *   p = tau W22 v,  w = p - (tau/2)(p^H v) v,  W22 -= v w^H + w v^H.
 * This leaves T1 = Q1^H A Q1 Hermitian tridiagonal with a real diagonal and
 * sub-diagonal c_k (real where a reflector made it, complex for the last
 * one). The unitary diagonal D = diag(s), s_0 = 1, s_{k+1} = s_k c_k / |c_k|
 * (s_k where c_k = 0), makes T = D^H T1 D real with T(k+1, k) = |c_k| >= 0;
 * Q = Q1 D (column j of Q1 times s_j).
 *
 * The eigensolvers reduce A so, solve the real T with the real CPU
 * eigensolver (the bsym_*stev path: bsym__eig_cpu_d / _s with d, e, the one
 * place of the eigen logic) and back-transform the vectors, V = Q Z.
 */

/* Copies the referenced triangle of A into the lower triangle of W (leading
 * dimension n), the diagonal real; returns 1 when every entry read is finite
 * (the diagonal's imaginary part is not read), and max(|re|, |im|) in *amax. */
static int PREC(he_load_)(char uplo, int64_t n, const T *A, T *W, RT *amax)
{
    RT m = 0;
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        T *w = W + j * n;
        const RT djj = RE(A[j + j * n]);
        w[j] = djj;
        bad += !(FABS(djj) <= TMAX);
        m = FABS(djj) > m ? FABS(djj) : m;
        for (int64_t i = j + 1; i < n; i++) {
            const T v = uplo == 'L' ? A[i + j * n] : CONJ(A[j + i * n]);
            const RT ar = FABS(RE(v)), ai = FABS(IM(v));
            w[i] = v;
            bad += !(ar <= TMAX) + !(ai <= TMAX);
            m = ar > m ? ar : m;
            m = ai > m ? ai : m;
        }
    }
    *amax = m;
    return bad == 0;
}

/* x[0 .. len) *= 2^e exactly (real x; two powers, as hh_scale_). */
static void PREC(he_scale_)(int64_t len, RT *x, int e)
{
    const RT s1 = LDEXP((RT)1, e / 2), s2 = LDEXP((RT)1, e - e / 2);
    for (int64_t i = 0; i < len; i++)
        x[i] = x[i] * s1 * s2;
}

/* Scales the lower triangle of W by 2^-ex, max in [1/2, 1); returns ex. */
static int PREC(he_normalize_)(int64_t n, T *W, RT amax)
{
    int ex = 0;
    if (amax == 0)
        return 0;
    FREXP(amax, &ex);
    const RT s1 = LDEXP((RT)1, -ex / 2), s2 = LDEXP((RT)1, -ex - (-ex / 2));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            W[i + j * n] = W[i + j * n] * s1 * s2;
    return ex;
}

/* x^H y over m entries. */
static T PREC(he_dotc_)(int64_t m, const T *x, const T *y)
{
    T s = 0;
    for (int64_t i = 0; i < m; i++)
        s += CONJ(x[i]) * y[i];
    return s;
}

#include "reflector_impl.h"

/* zlarfg on x (length m >= 2): overwrites x with v (v[0] = 1), sets *tau and
 * returns beta (real) with H^H x = beta e1, H = I - tau v v^H. When x[1:]
 * is zero, tau = 0 and x[0] is returned as it is (complex: the phase step
 * makes it real). */
static T PREC(he_reflector_)(int64_t m, T *x, T *tau)
{
    T alpha = x[0];
    RT sigma = 0;
    for (int64_t i = 1; i < m; i++)
        sigma += RE(x[i]) * RE(x[i]) + IM(x[i]) * IM(x[i]);
    const RT sc = PREC(refl_rescale_)(m, x, 1, &alpha, &sigma); /* reflector_impl.h */
    if (sigma == 0) {
        *tau = 0;
        return x[0];
    }
    const RT ar = RE(alpha), ai = IM(alpha);
    const RT beta = -COPYSIGN(SQRT(ar * ar + ai * ai + sigma), ar);
    const T r = (T)1 / ((alpha - beta) * sc); /* |alpha - beta| >= sqrt(sigma) > 0 */
    *tau = (beta - alpha) / beta;
    x[0] = 1;
    for (int64_t i = 1; i < m; i++)
        x[i] *= r;
    return beta * sc;
}

/* S := H^H S H for the Hermitian S of order m (lower triangle, leading
 * dimension ld), H = I - tau v v^H; p: m scratch. */
static void PREC(he_update_)(int64_t m, int64_t ld, T *restrict S, const T *restrict v, T tau,
                             T *restrict p)
{
    for (int64_t i = 0; i < m; i++)
        p[i] = 0;
    for (int64_t j = 0; j < m; j++) { /* p = S v */
        const T *col = S + j * ld;
        const T vj = v[j];
        T t = 0;
        for (int64_t i = j + 1; i < m; i++) {
            p[i] += col[i] * vj;
            t += CONJ(col[i]) * v[i];
        }
        p[j] += RE(col[j]) * vj + t;
    }
    for (int64_t i = 0; i < m; i++)
        p[i] *= tau;
    const T K = tau / 2 * PREC(he_dotc_)(m, p, v);
    for (int64_t i = 0; i < m; i++)
        p[i] -= K * v[i];
    for (int64_t j = 0; j < m; j++) {
        T *col = S + j * ld;
        const T vj = CONJ(v[j]), wj = CONJ(p[j]);
        for (int64_t i = j; i < m; i++)
            col[i] -= v[i] * wj + p[i] * vj;
        col[j] = RE(col[j]);
    }
}

/* The reduction of one system: d, e of T' = D^H Q1^H (2^-ex A) Q1 D, with
 * 2^-ex the exact power of two that normalizes A (returned in *ex); the
 * reflectors v_k stay in W's columns; work holds W (n*n), then tau, the
 * phases s and the complex sub-diagonal c of T1, n each (BSYM_HE_TRD_WORK).
 * Returns 0, or -1 for non-finite input (nothing computed). */
static int PREC(he_reduce_)(char uplo, int64_t n, const T *A, RT *d, RT *e, T *work, int *ex)
{
    T *W = work, *tau = W + n * n, *s = tau + n, *c = s + n; /* c: the complex sub-diagonal of T1 */
    RT amax;
    if (!PREC(he_load_)(uplo, n, A, W, &amax))
        return -1;
    *ex = PREC(he_normalize_)(n, W, amax);
    for (int64_t k = 0; k + 2 < n; k++) {
        T *x = W + k * n + k + 1;
        d[k] = RE(W[k * n + k]);
        c[k] = PREC(he_reflector_)(n - k - 1, x, &tau[k]);
        if (tau[k] != 0)
            PREC(he_update_)(n - k - 1, n, W + (k + 1) * n + k + 1, x, tau[k], s);
    }
    if (n >= 2) {
        d[n - 2] = RE(W[(n - 2) * n + n - 2]);
        c[n - 2] = W[(n - 2) * n + n - 1];
    }
    if (n >= 1)
        d[n - 1] = RE(W[(n - 1) * n + n - 1]);
    /* the phases: s_0 = 1, s_{k+1} = s_k c_k / |c_k|; e_k = |c_k| */
    if (n >= 1)
        s[0] = 1;
    for (int64_t k = 0; k + 1 < n; k++) {
        const RT a = CABS(c[k]);
        e[k] = a;
        s[k + 1] = a > 0 ? s[k] * (c[k] / a) : s[k];
    }
    return 0;
}

/* y := H_k y on rows k+1 .. n-1 of the vector y (conj_tau: H_k^H), H_k =
 * I - tau_k v_k v_k^H with v_k in W's column k. */
static void PREC(he_apply_)(int64_t n, int64_t k, const T *W, const T *tau, int conj_tau, T *y)
{
    if (tau[k] == 0)
        return;
    const T *v = W + k * n + k + 1;
    const int64_t m = n - k - 1;
    const T t = (conj_tau ? CONJ(tau[k]) : tau[k]) * PREC(he_dotc_)(m, v, y + k + 1);
    for (int64_t i = 0; i < m; i++)
        y[k + 1 + i] -= t * v[i];
}

/* Tridiagonalizes one system; Q may be NULL. work: BSYM_HE_TRD_WORK(n)
 * elements of T. Returns 0, or -1 (non-finite input: d, e, Q all NaN). */
int PREC(bsym__he_tridiagonalize_one_)(char uplo, int64_t n, const T *A, RT *d, RT *e, T *Q,
                                       T *work)
{
    T *W = work, *tau = W + n * n, *s = tau + n;
    int ex = 0;
    if (PREC(he_reduce_)(uplo, n, A, d, e, work, &ex) != 0) {
        for (int64_t i = 0; i < n; i++)
            d[i] = (RT)NAN;
        for (int64_t i = 0; i + 1 < n; i++)
            e[i] = (RT)NAN;
        for (int64_t i = 0; Q != NULL && i < n * n; i++)
            Q[i] = (RT)NAN + (RT)NAN * I;
        return -1;
    }
    PREC(he_scale_)(n, d, ex);
    if (n > 1)
        PREC(he_scale_)(n - 1, e, ex);
    if (Q != NULL) {
        /* Q1 = H_0 ... H_{n-3} by backward accumulation, then Q = Q1 D */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                Q[i + j * n] = i == j ? (T)1 : (T)0;
        for (int64_t k = n - 3; k >= 0; k--)
            for (int64_t j = k + 1; j < n; j++)
                PREC(he_apply_)(n, k, W, tau, 0, Q + j * n);
        for (int64_t j = 1; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                Q[i + j * n] *= s[j];
    }
    return 0;
}

/* BSYM_METHOD_TRIDIAG on one complex system (B n x nrhs, overwritten), as
 * the real hh_solve_one_: with 2^-ex A = Q T' Q^H (T' real), X = 2^-ex Q
 * T'^{-1} Q^H B, T' solved by the real method's tridiagonal solver (PCR, its
 * pivoted fallback; householder_impl.h) on the real and the imaginary part
 * of Q^H b. work: BSYM_HE_TRD_WORK(n) elements of T; rwork 4n +
 * bsym__hh_tridiag_work_*(n) of RT. d_out, e_out (n each, e_out[n-1] = 0)
 * receive T' for the conditioning test when not NULL. Returns 0, -1
 * (non-finite input) or j > 0 (a breakdown in row j, or a non-finite
 * solution in row j); X is all NaN when the result is not 0. */
static int PREC(he_solve_one_)(char uplo, int64_t n, int64_t nrhs, const T *A, T *B, T *work, RT *rwork,
                               RT *d_out, RT *e_out)
{
    T *W = work, *tau = W + n * n, *s = tau + n;
    RT *d = rwork, *e = d + n, *yr = e + n, *yi = yr + n, *tw = yi + n;
    int ex = 0, info = 0;
    for (int64_t i = 0; i < n * nrhs && info == 0; i++)
        info = CFINITE(B[i]) ? 0 : -1;
    if (info == 0)
        info = PREC(he_reduce_)(uplo, n, A, d, e, work, &ex);
    for (int64_t i = 0; i < n && info == 0 && d_out != NULL; i++) {
        d_out[i] = d[i];
        e_out[i] = i + 1 < n ? e[i] : (RT)0;
    }
    for (int64_t r = 0; r < nrhs && info == 0; r++) {
        T *x = B + r * n;
        for (int64_t k = 0; k + 2 < n; k++) /* Q1^H b = H_{n-3}^H ... H_0^H b */
            PREC(he_apply_)(n, k, W, tau, 1, x);
        for (int64_t i = 0; i < n; i++) { /* z = D^H Q1^H b, in parts */
            const T z = CONJ(s[i]) * x[i];
            yr[i] = RE(z);
            yi[i] = IM(z);
        }
        info = RPREC(bsym__hh_tridiag_solve_one_)(n, d, e, yr, tw);
        if (info == 0)
            info = RPREC(bsym__hh_tridiag_solve_one_)(n, d, e, yi, tw);
        for (int64_t i = 0; i < n; i++) /* D y */
            x[i] = s[i] * (yr[i] + yi[i] * I);
        for (int64_t k = n - 3; k >= 0; k--) /* x = Q1 D y */
            PREC(he_apply_)(n, k, W, tau, 0, x);
        PREC(he_scale_)(2 * n, (RT *)x, -ex);
    }
    for (int64_t i = 0; i < n && info == 0; i++) /* overflow in the unscaling */
        for (int64_t r = 0; r < nrhs; r++)
            if (!CFINITE(B[i + r * n]))
                info = i + 1 < INT_MAX ? (int)(i + 1) : INT_MAX;
    if (info != 0)
        for (int64_t i = 0; i < n * nrhs; i++)
            B[i] = (RT)NAN + (RT)NAN * I;
    return info;
}

/* The arrays of one call of either driver below (as householder_impl.h's
 * hh_job_). */
typedef struct {
    char uplo;
    int64_t n, nrhs;
    const T *A;
    T *B;          /* solve: n x nrhs x count */
    RT *d, *e;     /* tridiagonalize: T; solve: T' (n each) or NULL */
    T *Q;          /* tridiagonalize: may be NULL */
    int *info;
    int solve;     /* 1: he_solve_one_, 0: bsym__he_tridiagonalize_one_ */
} PREC(he_job_);

/* System k of a job (a bsym__team_body): the thread's workspace holds
 * BSYM_HE_TRD_WORK(n) elements of T, then (solve) the real rwork. */
static void PREC(he_drive_one_)(void *ctx, int64_t k, void *work)
{
    const PREC(he_job_) *j = ctx;
    const int64_t n = j->n, nrhs = j->nrhs;
    T *w = work;
    RT *rwork = (RT *)((char *)work + bsym__align64(BSYM_HE_TRD_WORK(n) * sizeof(T)));
    j->info[k] = j->solve ? PREC(he_solve_one_)(j->uplo, n, nrhs, j->A + k * n * n,
                                                nrhs > 0 ? j->B + k * n * nrhs : NULL, w, rwork,
                                                j->d != NULL ? j->d + k * n : NULL,
                                                j->e != NULL ? j->e + k * n : NULL)
                          : PREC(bsym__he_tridiagonalize_one_)(j->uplo, n, j->A + k * n * n, j->d + k * n,
                                                               n > 1 ? j->e + k * (n - 1) : NULL,
                                                               j->Q != NULL ? j->Q + k * n * n : NULL, w);
}

/* Systems [0, count) of a job, OpenMP over them with one workspace per
 * thread. Returns 0, or -1 (no memory for a workspace). */
static int PREC(he_drive_)(const PREC(he_job_) *j, int64_t count, int threads)
{
    const int64_t n = j->n;
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 16))
        return -1;
    const size_t wbytes = bsym__align64(BSYM_HE_TRD_WORK(n) * sizeof(T));
    const size_t rbytes = j->solve ? (4 * (size_t)n + RPREC(bsym__hh_tridiag_work_)(n)) * sizeof(RT) : 0;
    /* systems handed out 16 at a time (schedule(dynamic, 16)) */
    return bsym__team_run(count, threads, wbytes + rbytes, 16, PREC(he_drive_one_), (void *)j);
}

/* BSYM_METHOD_TRIDIAG (complex) on systems [0, count); d and e (n x count
 * each) receive T' when not NULL (see he_solve_one_). */
int PREC(bsym__hhsolve_cpu_)(char uplo, int64_t n, int64_t nrhs, int64_t count, const T *A, T *B, int *info,
                             int threads, RT *d, RT *e)
{
    const PREC(he_job_) j = {.uplo = uplo, .n = n, .nrhs = nrhs, .A = A, .B = B, .d = d, .e = e,
                             .info = info, .solve = 1};
    return PREC(he_drive_)(&j, count, threads);
}

/* bsym_*tridiagonalize (complex) on systems [0, count); Q may be NULL. */
int PREC(bsym__tridiagonalize_cpu_)(char uplo, int64_t n, int64_t count, const T *A, RT *d,
                                    RT *e, T *Q, int *info, int threads)
{
    const PREC(he_job_) j = {.uplo = uplo, .n = n, .A = A, .d = d, .e = e, .Q = Q, .info = info, .solve = 0};
    return PREC(he_drive_)(&j, count, threads);
}

/* bsym_*syev (complex) on systems [0, count): the reduction above, the real
 * eigensolver on T (RPREC(bsym__eig_cpu_), as bsym_*stev), V = Q Z. Blocks of
 * systems bound the copies (Q complex and Z real, n x n each per system). */
int PREC(bsym__eig_cpu_)(char uplo, int64_t n, int64_t count, const T *A, const bsym_select *sel,
                         RT *w, T *V, int *cnt, int *info, int threads)
{
    if (n == 0 || count == 0) {
        for (int64_t k = 0; k < count; k++) {
            info[k] = 0;
            if (cnt != NULL)
                cnt[k] = 0;
        }
        return 0;
    }
    if ((size_t)n > SIZE_MAX / sizeof(T) / ((size_t)n + 16))
        return -1;
    const int64_t nn = n * n;
    int64_t bs = ((int64_t)1 << 22) / nn;
    bs = bs < 1 ? 1 : bs > count ? count : bs;
    RT *d = malloc((size_t)bs * (size_t)n * sizeof(RT));
    RT *e = malloc((size_t)bs * (size_t)(n > 1 ? n - 1 : 1) * sizeof(RT));
    int *tinfo = malloc((size_t)bs * sizeof(int));
    int *tcnt = malloc((size_t)bs * sizeof(int));
    T *Q = V != NULL ? malloc((size_t)bs * (size_t)nn * sizeof(T)) : NULL;
    RT *Z = V != NULL ? malloc((size_t)bs * (size_t)nn * sizeof(RT)) : NULL;
    int rc = d == NULL || e == NULL || tinfo == NULL || tcnt == NULL ||
             (V != NULL && (Q == NULL || Z == NULL)) ? -1 : 0;
    const T cnan = (RT)NAN + (RT)NAN * I;
    for (int64_t k0 = 0; k0 < count && rc == 0; k0 += bs) {
        const int64_t m = count - k0 < bs ? count - k0 : bs;
        rc = PREC(bsym__tridiagonalize_cpu_)(uplo, n, m, A + k0 * nn, d, e, Q, tinfo, threads);
        if (rc != 0)
            break;
        for (int64_t k = 0; k < m; k++) /* a non-finite system: T = 0 for now */
            if (tinfo[k] != 0) {
                for (int64_t i = 0; i < n; i++)
                    d[k * n + i] = 0;
                for (int64_t i = 0; i + 1 < n; i++)
                    e[k * (n - 1) + i] = 0;
            }
        rc = RPREC(bsym__eig_cpu_)('L', n, m, NULL, d, e, sel, w + k0 * n, Z, tcnt,
                                   info + k0, threads);
        if (rc != 0)
            break;
#pragma omp parallel for schedule(dynamic, 4) num_threads(bsym__team(m, threads))
        for (int64_t k = 0; k < m; k++) {
            int *ik = info + k0 + k;
            if (tinfo[k] != 0) {
                *ik = tinfo[k];
                tcnt[k] = 0;
                for (int64_t i = 0; i < n; i++)
                    w[(k0 + k) * n + i] = (RT)NAN;
            }
            if (V == NULL)
                continue;
            const T *q = Q + k * nn;
            const RT *z = Z + k * nn;
            T *v = V + (k0 + k) * nn;
            const int64_t c = *ik == 0 ? tcnt[k] : 0;
            for (int64_t j = 0; j < n; j++) {
                T *vj = v + j * n;
                if (j >= c) {
                    for (int64_t i = 0; i < n; i++)
                        vj[i] = cnan;
                    continue;
                }
                for (int64_t i = 0; i < n; i++)
                    vj[i] = 0;
                for (int64_t l = 0; l < n; l++) {
                    const RT zl = z[l + j * n];
                    const T *ql = q + l * n;
                    for (int64_t i = 0; i < n; i++)
                        vj[i] += ql[i] * zl;
                }
            }
        }
        for (int64_t k = 0; k < m && cnt != NULL; k++)
            cnt[k0 + k] = tcnt[k];
    }
    free(d);
    free(e);
    free(tinfo);
    free(tcnt);
    free(Q);
    free(Z);
    return rc;
}
