// indef.cu -- the GPU's solves of symmetric indefinite and complex Hermitian
// systems, n <= BSYM_GPU_INDEF_MAX_N (256), a warp per system up to n = 64
// (and on to 96 where that measured faster: warp3_max), a block per system
// above:
//   Bunch-Kaufman  P A P^T = L D L^H, D with 1x1 and 2x2 blocks, LAPACK's
//                  pivot rule (core/bk_rule.h, shared with the CPU); real
//                  and complex (BSYM__OP_BK);
//   Aasen          P A P^T = L T L^H, T Hermitian tridiagonal, left-looking
//                  with partial pivoting, T solved by its pivoted LU; real
//                  and complex (BSYM__OP_AASEN);
//   LDL^H          without pivoting, D real, complex only (BSYM__OP_LDLT's
//                  complex columns; the real LDL^T is ldlt.cu's).
// The same factorizations, breakdown rules and info codes as the CPU's
// (core/indef_impl.h): info -1 for a non-finite entry of the referenced
// triangle (the diagonal's real part) or of B, j > 0 for Bunch-Kaufman's
// exactly zero column j (A singular), for Aasen's exactly zero pivot in row
// j of T's LU and for LDL^H's first pivot with |d_j| <= n eps max|a_ij| or
// not finite; NaN solutions there.
//
// Layout: the warp keeps its system's Hermitian matrix in shared memory,
// the lower triangle alone, packed by columns (lower_packed below); lane l
// owns rows l, l + 32 (and l + 64). A step of the factorization updates the
// trailing matrix's lower triangle, each lane its own rows; the symmetric
// interchanges are LAPACK's *hetf2 swaps within that triangle. (Until
// session 32 both triangles were kept, n x (n | 1): twice the shared
// memory, so half the systems a multiprocessor, and twice the trailing
// updates' work, for plain row and column swaps.) The pivot searches are
// warp reductions.
// Above that a block of 32 ceil(n / 32) threads takes a system, a row a
// thread, with the same device functions (a team: warp_team or block_team
// below; block barriers and block reductions instead of the warp's); a
// warp whose rows are all above a trailing update's columns skips them. Its
// matrix stays in shared memory where it fits (float to n = 256, double and
// complex float to 238, complex double to 168; Aasen, whose arrays are 4n
// longer, to 234 and 164; on the H200's 227 KB a block) and shared memory
// holds two blocks a multiprocessor or more; else it moves to a workspace
// in global memory, a slot a block of a persistent grid (prefers_global:
// below the edges, only where that workspace stays in the L2 cache).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#define BSYM_CUDA_STRATEGY_NUMERICS // strategy_mod_, strategy_cert_cheap_ (ldlh_cheap)
#include "common.cuh"
#include "../core/bk_rule.h"

namespace {

#include "team.cuh"

// The shared pivot rule in the precision of R.
__device__ __forceinline__ int bk_row(float a, float c) { return bsym__bk_row_s(a, c); }
__device__ __forceinline__ int bk_row(double a, double c) { return bsym__bk_row_d(a, c); }
__device__ __forceinline__ int bk_pick(float a, float c, float r, float ai, int k, int imax, int *kp)
{
    int64_t p;
    const int step = bsym__bk_pick_s(a, c, r, ai, k, imax, &p);
    *kp = int(p);
    return step;
}
__device__ __forceinline__ int bk_pick(double a, double c, double r, double ai, int k, int imax, int *kp)
{
    int64_t p;
    const int step = bsym__bk_pick_d(a, c, r, ai, k, imax, &p);
    *kp = int(p);
    return step;
}

// The 2x2 pivot D = [a conj(e); e c] (a, c real) through r = 1/e and
// s = 1 / (a c / |e|^2 - 1), scaled by the off-diagonal (the CPU's
// ix_pivot2_):
//   D z = w:        z1 = (c conj(r) w1 - w2) r s,  z2 = (a r w2 - w1) conj(r) s;
//   y D = x (rows): y1 = (c r x1 - x2) conj(r) s,  y2 = (a conj(r) x2 - x1) r s.
template <typename T, typename R>
__device__ __forceinline__ void pivot2(R a, R c, T e, T &r, R &s)
{
    const R ae = modulus(e);
    r = conj(e) * (R(1) / ae / ae);
    s = R(1) / ((a / ae) * (c / ae) - R(1));
}

// Loads a system's referenced triangle (A, n x n, lower or upper), the
// diagonal's imaginary part dropped, by G threads (a group of lanes, or a
// block), this one number i of them: the n^2 entries in order (coalesced),
// LOADS a lane in flight before they are stored (one read at a time was
// latency-bound), the other triangle never read; entry A(r, c) goes to
// store(r, c, a). fin and amax gather the lane's finiteness and largest
// modulus. Without a system (valid false) the identity is stored instead.
template <typename T, typename R, typename Store>
__device__ __forceinline__ void load_hermitian(const T *__restrict__ A, int n, bool lower, bool valid, Store store,
                                               int i, int G, bool &fin, R &amax)
{
    constexpr int LOADS = 8;
    const int nn = n * n;
    for (int e0 = 0; e0 < nn; e0 += G * LOADS) {
        T v[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int e = e0 + G * u + i, c = e / n, r = e - c * n;
            const bool ref = e < nn && (lower ? r >= c : r <= c);
            v[u] = ref && valid ? A[e] : real_t<T>(r == c ? R(1) : R(0));
        }
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int e = e0 + G * u + i, c = e / n, r = e - c * n;
            if (e < nn && (lower ? r >= c : r <= c)) {
                const T a = r == c ? real_t<T>(re(v[u])) : v[u];
                fin = fin && finite_t(a);
                amax = max(amax, modulus(a));
                store(r, c, a);
            }
        }
    }
}

// One launch's arguments: systems' A (n x n, only the uplo triangle read),
// B (n x nrhs, overwritten by the solutions) and info.
template <typename T> struct indef_args {
    const T *A;
    T *B;
    int *info;
    int n, nrhs;
    size_t per_sys;    // T elements of a system's arrays (layout_for)
    int ints;          // ints of a system's arrays (layout_for)
    bool lower;
    // LDL^H only, method AUTO's certificate for complex A (strategy.cu, as
    // the CPU's ldlh_cert_team_one_; common.cuh's CERT_* and POS_*): cert,
    // the pass; sigma, the shift sigma_k of each system; pos, its verdict.
    //  - CERT_CHEAP: A_k factored with positive finite pivots only (the
    //    first that is not breaks down: info j), solved, and pos[k] =
    //    POS_YES where its factors certify it (ldlh_cheap), POS_UNDECIDED
    //    where the shifted pass must decide, POS_NO where a pivot broke down
    //    or the input was not finite;
    //  - CERT_SHIFTED: only the systems with pos[k] == POS_UNDECIDED: A_k -
    //    sigma_k I factored (nrhs 0; B and info untouched), pos[k] POS_YES
    //    when every pivot is positive and finite, else POS_NO.
    int cert = bsym_cuda::CERT_NONE;
    const double *sigma = nullptr; // (the CPU's: double, rounded to R for the shifted pass)
    int *pos = nullptr;
};

// The kernel's methods (its METHOD argument).
// K_LDLH_CERT: LDL^H in the passes of AUTO's certificate (indef_args'
// cert), built apart so that the plain LDL^H kernels carry none of its code
// (with it as a run-time branch they lost up to 7 %: complex double n = 16).
enum { K_LDLH, K_BK, K_AASEN, K_LDLH_CERT };

// A member's rows i of the system, t and t + stride() (RPL of them: for a
// warp 1 for n <= 32, 2 for n <= 64; for a block 1); the device functions
// below run on the whole team, with tm and RPL in scope.
#define ROWS(i) \
    _Pragma("unroll") for (int r_ = 0, i = tm.t; r_ < RPL; r_++, i += tm.stride())

// P M P^T on the trailing block M(from:n, from:n) of the Hermitian matrix
// kept in its lower triangle (LAPACK's *hetf2 interchange), a < b: rows a
// and b swap in the columns from..a-1; A(i, a) and conj(A(b, i)) swap for
// a < i < b, A(b, a) is conjugated and the diagonals swap; A(i, a) and
// A(i, b) swap below b. Every entry has one owner (the member of row i,
// or of row b), so one barrier, after, suffices; the caller's barrier
// before it ends the reads of the entries it moves. Bunch-Kaufman swaps
// from the pivot's first column (a 2x2 pivot's first column takes part);
// Aasen from 0, so that the rows of L's columns (kept left of the trailing
// block) swap with it.
template <typename T, int RPL, class Team>
__device__ __forceinline__ void sym_swap(T *M, lower_packed ix, int n, const Team &tm, int from, int a, int b)
{
    ROWS(i)
    if (i < n) {
        if (i >= from && i < a) {
            swap_t(M[ix(a, i)], M[ix(b, i)]);
        } else if (i > a && i < b) {
            const T x = M[ix(i, a)];
            M[ix(i, a)] = conj(M[ix(b, i)]);
            M[ix(b, i)] = conj(x);
        } else if (i == b) {
            M[ix(b, a)] = conj(M[ix(b, a)]);
            swap_t(M[ix(a, a)], M[ix(b, b)]);
        } else if (i > b) {
            swap_t(M[ix(i, a)], M[ix(i, b)]);
        }
    }
    tm.sync();
}

// ---- LDL^H and Bunch-Kaufman: the CPU's ix_ldlh_factor_, ix_bk_factor_
// and ix_bk_solve_. M's strictly lower triangle gets L below the blocks of
// D, its diagonal (and first subdiagonal at a 2x2 block) D; piv as LAPACK's
// *hetrf: piv[c] = kp >= 0 (1x1 block, rows c and kp swapped) or
// piv[c] = piv[c+1] = -(kp + 1) (2x2, rows c + 1 and kp). ----

// The trailing update of a pivot's P columns c0 .. c0 + P - 1 (P = 1 or
// 2), c1 = c0 + P: for the columns c >= c1 and the member's rows i >= c
// (the lower triangle),
//   M(i, c) -= l_0(i) u_0(c)  (P = 1),  l_0(i) u_0(c) + l_1(i) u_1(c)  (P = 2),
// u_q(c) = conj(M(c, c0 + q)) s. U columns at a time, all their loads
// before their stores: a store could alias a later load for the compiler,
// so a plain loop runs one column at a time, a chain of shared-memory (or,
// for the block kernel without SMEM, global) latencies. A warp stops at its
// last row's column (top: the same for the whole warp, so no lane waits on
// another's branch): in the block kernel the warps of the upper rows are
// free early for the other blocks of the multiprocessor.
template <typename T, int RPL, int P, class Team>
__device__ __forceinline__ void rank_update(T *M, lower_packed ix, int n, const Team &tm, int c0,
                                            const T (&l)[P][RPL], typename part_of<T>::type s)
{
    constexpr int U = 4;
    const int c1 = c0 + P, top = min(n, (tm.t | 31) + 1 + (RPL - 1) * tm.stride());
    int c = c1;
    auto apply = [&](const T (&u)[P], T m, int r_) {
        return P == 1 ? m - l[0][r_] * u[0] : m - (l[0][r_] * u[0] + l[P - 1][r_] * u[P - 1]);
    };
    int pc[P]; // col() of the pivot's columns
#pragma unroll
    for (int q = 0; q < P; q++)
        pc[q] = ix.col(c0 + q);
    int cc = ix.col(c); // col(c), stepped with c
    for (; c + U <= top; c += U) {
        T u[U][P], m[U][RPL];
        int ck[U]; // col(c + k): col(c) + k (n - 1 - c) - k (k - 1) / 2
#pragma unroll
        for (int k = 0; k < U; k++)
            ck[k] = cc + k * ix.next(c) - k * (k - 1) / 2;
        cc = cc + U * ix.next(c) - U * (U - 1) / 2;
#pragma unroll
        for (int k = 0; k < U; k++) {
#pragma unroll
            for (int q = 0; q < P; q++)
                u[k][q] = conj(M[pc[q] + c + k]) * s;
            ROWS(i) m[k][r_] = i >= c + k && i < n ? M[ck[k] + i] : real_t<T>(0);
        }
#pragma unroll
        for (int k = 0; k < U; k++)
            ROWS(i) if (i >= c + k && i < n) M[ck[k] + i] = apply(u[k], m[k][r_], r_);
    }
    for (; c < top; c++) {
        T u[P];
#pragma unroll
        for (int q = 0; q < P; q++)
            u[q] = conj(M[pc[q] + c]) * s;
        ROWS(i) if (i >= c && i < n) M[cc + i] = apply(u, M[cc + i], r_);
        cc += ix.next(c);
    }
}

// One 1x1 pivot at column c0 (after its interchange): L's column c0 and
// the trailing update W(i, c) -= x_i conj(x_c) / d, x = column c0.
template <typename T, int RPL, class Team> __device__ __forceinline__ void step1(T *M, lower_packed ix, int n, const Team &tm, int c0)
{
    typedef typename part_of<T>::type R;
    const R rinv = R(1) / re(M[ix(c0, c0)]);
    T x[1][RPL];
    ROWS(i) x[0][r_] = i > c0 && i < n ? M[ix(i, c0)] : real_t<T>(0);
    rank_update<T, RPL, 1>(M, ix, n, tm, c0, x, rinv);
    ROWS(i) if (i > c0 && i < n) M[ix(i, i)] = real_t<T>(re(M[ix(i, i)]));
    tm.sync();
    ROWS(i) if (i > c0 && i < n) M[ix(i, c0)] = x[0][r_] * rinv;
    tm.sync();
}

// LDL^H without pivoting; returns the info (amax: the largest modulus of
// A's entries, the CPU's breakdown tolerance n eps amax). positive: the
// certificate's test instead (the CPU's bsym__ldlh_cert_one_): the first
// pivot that is not positive and finite breaks down.
template <typename T, int RPL, class Team>
__device__ int ldlh_factor(T *M, lower_packed ix, int n, const Team &tm, int *piv, typename part_of<T>::type amax,
                           bool positive = false)
{
    typedef typename part_of<T>::type R;
    const R tol = positive ? R(0) : R(n) * (sizeof(R) == 4 ? R(FLT_EPSILON) : R(DBL_EPSILON)) * amax;
    for (int c0 = 0; c0 < n; c0++) {
        const R d = re(M[ix(c0, c0)]);
        if (!((positive ? d : abs(d)) > tol) || !isfinite(d))
            return c0 + 1;
        if (tm.first())
            piv[c0] = c0;
        step1<T, RPL>(M, ix, n, tm, c0);
    }
    return 0;
}

// The cheap form of AUTO's certificate from ldlh_factor's factors (the
// CPU's ldlh_cheap_, strategy_impl.h): min D > sigma B2
// (strategy_cert_cheap_), B2 = max y max z, y = C^-1 e and z = C^-T e for
// the comparison matrix C of L (unit diagonal, -|l_ik| below it: |L^-1| <=
// C^-1). Both triangular solves column by column in double, the moduli by
// strategy_mod_, in s (n doubles of shared memory: y's buffer, free after
// the solves).
template <typename T, int RPL, class Team>
__device__ bool ldlh_cheap(const T *M, lower_packed ix, int n, const Team &tm, double *s, double sigma)
{
    typedef typename part_of<T>::type R;
    auto mod = [](T l) { return strategy_mod_(prec_tag<R>(), double(l.re), double(l.im)); }; // (T complex)
    double ymax = 0, zmax = 0, mind = INFINITY;
    ROWS(i) if (i < n)
    {
        s[i] = 1;
        mind = fmin(mind, double(re(M[ix(i, i)])));
    }
    tm.sync();
    for (int k = 0; k + 1 < n; k++) { // y_i = 1 + sum_{k < i} |l_ik| y_k
        const double yk = s[k];
        ROWS(i) if (i > k && i < n) s[i] += mod(M[ix(i, k)]) * yk;
        tm.sync();
    }
    ROWS(i) if (i < n) ymax = fmax(ymax, s[i]);
    tm.sync(); // every member has read y
    ROWS(i) if (i < n) s[i] = 1;
    tm.sync();
    for (int k = n - 1; k > 0; k--) { // z_i = 1 + sum_{k > i} |l_ki| z_k
        const double zk = s[k];
        ROWS(i) if (i < k) s[i] += mod(M[ix(k, i)]) * zk;
        tm.sync();
    }
    ROWS(i) if (i < n) zmax = fmax(zmax, s[i]);
    ymax = tm.max(ymax);
    zmax = tm.max(zmax);
    mind = -tm.max(-mind);
    return strategy_cert_cheap_(prec_tag<R>(), n, mind, ymax * zmax, sigma) != 0;
}

// Bunch-Kaufman; returns the info.
template <typename T, int RPL, class Team> __device__ int bk_factor(T *M, lower_packed ix, int n, const Team &tm, int *piv)
{
    typedef typename part_of<T>::type R;
    for (int c0 = 0; c0 < n;) {
        // the pivot column's largest off-diagonal entry
        R colmax = R(0);
        int imax = c0;
        ROWS(i)
        {
            const R a = i > c0 && i < n ? abs1(M[ix(i, c0)]) : R(0);
            if (a > colmax) {
                colmax = a;
                imax = i;
            }
        }
        tm.argmax(colmax, imax);
        const R absakk = abs(re(M[ix(c0, c0)]));
        if (!(absakk > 0) && !(colmax > 0))
            return c0 + 1; // column c0 exactly zero: A singular
        int step = 1, kp = c0;
        if (bk_row(absakk, colmax)) { // row imax's largest off-diagonal entry (its lower part
            R rowmax = R(0);          // left of the diagonal, then column imax below it)
            ROWS(i) if (i >= c0 && i < n && i != imax) rowmax = max(rowmax, abs1(M[i < imax ? ix(imax, i) : ix(i, imax)]));
            rowmax = tm.max(rowmax);
            step = bk_pick(absakk, colmax, rowmax, abs(re(M[ix(imax, imax)])), c0, imax, &kp);
        }
        const int kk = c0 + step - 1;
        if (kp != kk) { // rows and columns kk and kp of the trailing block
            tm.sync();  // (once every member has read the pivot's entries above)
            sym_swap<T, RPL>(M, ix, n, tm, c0, kk, kp);
        }
        if (step == 1) {
            if (tm.first())
                piv[c0] = kp;
            step1<T, RPL>(M, ix, n, tm, c0);
            c0 += 1;
            continue;
        }
        // a 2x2 pivot: [L1 L2] = [x1 x2] D^-1 below it, then
        // W(i, c) -= L1_i conj(x1_c) + L2_i conj(x2_c)
        if (tm.first())
            piv[c0] = piv[c0 + 1] = -(kp + 1);
        const R a = re(M[ix(c0, c0)]), c = re(M[ix(c0 + 1, c0 + 1)]);
        T r;
        R s;
        pivot2(a, c, M[ix(c0 + 1, c0)], r, s);
        const T cr = c * r, ar = a * conj(r), rcs = conj(r) * s, rs = r * s;
        T lq[2][RPL]; // L1, L2
        ROWS(i)
        {
            lq[0][r_] = lq[1][r_] = real_t<T>(0);
            if (i > c0 + 1 && i < n) {
                const T x1 = M[ix(i, c0)], x2 = M[ix(i, c0 + 1)];
                lq[0][r_] = (cr * x1 - x2) * rcs;
                lq[1][r_] = (ar * x2 - x1) * rs;
            }
        }
        rank_update<T, RPL, 2>(M, ix, n, tm, c0, lq, R(1));
        ROWS(i) if (i > c0 + 1 && i < n) M[ix(i, i)] = real_t<T>(re(M[ix(i, i)]));
        tm.sync();
        ROWS(i)
        if (i > c0 + 1 && i < n) {
            M[ix(i, c0)] = lq[0][r_];
            M[ix(i, c0 + 1)] = lq[1][r_];
        }
        tm.sync();
        c0 += 2;
    }
    return 0;
}

// Solves with the factors of ldlh_factor (piv[c] = c) or bk_factor, one
// right-hand side y (shared) in place: L D y = P b with the interchanges in
// between, then L^H x = y with them in reverse.
template <typename T, int RPL, class Team> __device__ void bk_solve(const T *M, lower_packed ix, int n, const Team &tm, const int *piv, T *y)
{
    typedef typename part_of<T>::type R;
    for (int c0 = 0; c0 < n;) {
        const int p = piv[c0];
        if (p >= 0) {
            if (tm.first() && p != c0)
                swap_t(y[c0], y[p]);
            tm.sync();
            const T yk = y[c0];
            ROWS(i) if (i > c0 && i < n) y[i] = y[i] - M[ix(i, c0)] * yk;
            tm.sync();
            if (tm.first())
                y[c0] = yk * (R(1) / re(M[ix(c0, c0)]));
            c0 += 1;
        } else {
            const int pp = -p - 1;
            if (tm.first() && pp != c0 + 1)
                swap_t(y[c0 + 1], y[pp]);
            tm.sync();
            const T w1 = y[c0], w2 = y[c0 + 1];
            ROWS(i)
            if (i > c0 + 1 && i < n) y[i] = y[i] - (M[ix(i, c0)] * w1 + M[ix(i, c0 + 1)] * w2);
            tm.sync();
            if (tm.first()) {
                const R a = re(M[ix(c0, c0)]), c = re(M[ix(c0 + 1, c0 + 1)]);
                T r;
                R s;
                pivot2(a, c, M[ix(c0 + 1, c0)], r, s);
                y[c0] = (c * conj(r) * w1 - w2) * r * s;
                y[c0 + 1] = (a * r * w2 - w1) * conj(r) * s;
            }
            c0 += 2;
        }
        tm.sync();
    }
    for (int c0 = n - 1; c0 >= 0;) {
        // y[c0] -= sum_{i > c0} conj(L(i, c0)) y[i] (and y[c0 - 1] likewise for a 2x2 block)
        const int p = piv[c0];
        T s1 = real_t<T>(0), s2 = real_t<T>(0);
        ROWS(i)
        if (i > c0 && i < n) {
            s1 = s1 + conj(M[ix(i, c0)]) * y[i];
            if (p < 0)
                s2 = s2 + conj(M[ix(i, c0 - 1)]) * y[i];
        }
        s1 = tm.sum(s1);
        if (p < 0)
            s2 = tm.sum(s2);
        if (tm.first()) {
            y[c0] = y[c0] - s1;
            if (p < 0)
                y[c0 - 1] = y[c0 - 1] - s2;
            const int pp = p >= 0 ? p : -p - 1;
            if (pp != c0)
                swap_t(y[c0], y[pp]);
        }
        tm.sync();
        c0 -= p >= 0 ? 1 : 2;
    }
}

// ---- Aasen: the CPU's ix_aasen_factor_, ix_gt_factor_, ix_gt_solve_ and
// ix_aasen_solve_ (core/indef_impl.h, whose comments give the recurrences),
// step for step: the same pivot choices (up to rounding) and info codes.
// T's pivoted LU and its solve are O(n): lane 0 runs them. ----

// The tridiagonal T of Aasen's factorization and its LU (n elements each):
// d its diagonal, e its subdiagonal (T(j+1, j)), du its superdiagonal;
// after gt_factor, e the multipliers, d, du, du2 U's three diagonals, swp[i]
// 1 where rows i and i + 1 were swapped.
template <typename T> struct tridiag {
    T *d, *e, *du, *du2;
    int *swp;
};

// P A P^T = L T L^H of the warp's matrix M, left-looking (H = T L^H a column
// at a time). Column k >= 1 of L (rows k+1..n-1; L(k, k) = 1, column 0 is
// e1) goes to M's column k - 1, free by then: step j reads A's trailing
// block M(j:n, j:n) (rows < j of it never) and L, and A's column j is spent
// once v is formed, just before L's column j + 1 is written. h: n elements
// of scratch (H's column j, then v below it); perm[j], j >= 1: the row
// swapped with row j at step j - 1.
template <typename T, int RPL, class Team> __device__ void aasen_factor(T *M, lower_packed ix, int n, const Team &tm, T *h, tridiag<T> t, int *perm)
{
    typedef typename part_of<T>::type R;
    T *d = t.d, *e = t.e;
    for (int j = 0; j < n; j++) {
        // L(j, i): row j of L, with L(j, j) = 1 and L(j, 0) = 0 (j > 0)
        auto lj = [&](int i) { return i == j ? real_t<T>(1) : i == 0 ? real_t<T>(0) : M[ix(j, i - 1)]; };
        // h(0:j-1) = H(0:j-1, j) from T and row j of L, a lane a row
        ROWS(i)
        if (i < j) {
            T s = d[i] * conj(lj(i)) + conj(e[i]) * conj(lj(i + 1));
            if (i > 0)
                s = s + e[i - 1] * conj(lj(i - 1));
            h[i] = s;
        }
        tm.sync();
        // h(j) = A(j, j) - L(j, 1:j-1) h(1:j-1), d_j = h(j) - e_{j-1} conj(L(j, j-1))
        T part = real_t<T>(0);
        ROWS(i) if (i >= 1 && i < j) part = part + M[ix(j, i - 1)] * h[i];
        const T hj = M[ix(j, j)] - tm.sum(part);
        if (tm.first()) {
            h[j] = hj;
            d[j] = real_t<T>(re(j > 0 ? hj - e[j - 1] * conj(lj(j - 1)) : hj));
        }
        tm.sync();
        if (j == n - 1)
            break;
        // v = A(j+1:n, j) - L(j+1:n, 1:j) h(1:j) into h(j+1:n) (apart from
        // h(1:j), read meanwhile), and q, the row of the largest |v_i|
        // (abs1, the CPU's): the first of equals, as the CPU's scan from row
        // j + 1 on; a NaN wins only in row j + 1, where that scan starts.
        R key = R(-1);
        int q = n;
        ROWS(i)
        if (i > j && i < n) {
            T s = M[ix(i, j)];
            for (int k = 1, at = i; k <= j; at += ix.next(k - 1), k++) // at = ix(i, k - 1)
                s = s - M[at] * h[k];
            h[i] = s;
            const R a = isnan(abs1(s)) ? (i == j + 1 ? R(INFINITY) : R(-1)) : abs1(s);
            if (a > key) {
                key = a;
                q = i;
            }
        }
        tm.argmax(key, q);
        tm.sync(); // v seen by every lane
        const R vmax = abs1(h[q]);
        const int p = j + 1;
        if (q != p) // rows p and q of L's columns 1..j (M's 0..j-1), and of A's trailing block, then its columns
            sym_swap<T, RPL>(M, ix, n, tm, 0, p, q);
        if (tm.first()) { // (every lane has read h[q]: sym_swap's barriers, or none to swap)
            perm[p] = q;
            if (q != p)
                swap_t(h[p], h[q]);
            e[j] = h[p];
        }
        tm.sync();
        // L(j+2:n, j+1) = v(j+2:n) / e_j into M's column j (zero where v is)
        if (p < n - 1) {
            const T inv = vmax > 0 ? quot(real_t<T>(1), e[j]) : real_t<T>(0);
            ROWS(i) if (i > p && i < n) M[ix(i, j)] = vmax > 0 ? h[i] * inv : real_t<T>(0);
        }
        tm.sync();
    }
}

// T = tridiag(e, d, conj(e)) factored in place by Gaussian elimination
// with partial pivoting (the CPU's ix_gt_factor_); one lane. Returns 0, or
// the 1-based row of an exactly zero pivot of U.
template <typename T> __device__ int gt_factor(int n, tridiag<T> t)
{
    T *dl = t.e, *d = t.d, *du = t.du, *du2 = t.du2;
    for (int i = 0; i + 1 < n; i++)
        du[i] = conj(dl[i]);
    for (int i = 0; i + 1 < n; i++) {
        if (abs1(d[i]) >= abs1(dl[i])) { // no swap
            t.swp[i] = 0;
            if (abs1(d[i]) == 0)
                return i + 1;
            const T l = quot(dl[i], d[i]);
            dl[i] = l;
            d[i + 1] = d[i + 1] - l * du[i];
            if (i + 2 < n)
                du2[i] = real_t<T>(0);
        } else { // row i + 1 on top
            t.swp[i] = 1;
            const T l = quot(d[i], dl[i]);
            const T di1 = d[i + 1];
            d[i] = dl[i];
            dl[i] = l;
            d[i + 1] = du[i] - l * di1;
            du[i] = di1;
            if (i + 2 < n) {
                du2[i] = du[i + 1];
                du[i + 1] = -l * du2[i];
            }
        }
    }
    if (abs1(d[n - 1]) == 0)
        return n;
    return 0;
}

// Solves with gt_factor's factors, one right-hand side b in place (the
// CPU's ix_gt_solve_); one lane.
template <typename T> __device__ void gt_solve(int n, tridiag<T> t, T *b)
{
    for (int i = 0; i + 1 < n; i++) {
        if (t.swp[i]) {
            const T s = b[i];
            b[i] = b[i + 1];
            b[i + 1] = s - t.e[i] * b[i + 1];
        } else {
            b[i + 1] = b[i + 1] - t.e[i] * b[i];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        T s = b[i];
        if (i + 1 < n)
            s = s - t.du[i] * b[i + 1];
        if (i + 2 < n)
            s = s - t.du2[i] * b[i + 2];
        b[i] = quot(s, t.d[i]);
    }
}

// Solves P A P^T = L T L^H (aasen_factor, gt_factor) for one right-hand
// side y (shared) in place: P b, L, T, L^H, P^T (the CPU's ix_aasen_solve_).
template <typename T, int RPL, class Team>
__device__ void aasen_solve(const T *M, lower_packed ix, int n, const Team &tm, const int *perm, tridiag<T> t, T *y)
{
    if (tm.first()) // P b
        for (int j = 1; j < n; j++)
            swap_t(y[j], y[perm[j]]);
    tm.sync();
    for (int k = 1; k + 1 < n; k++) { // L y = P b (column 0 is e1; column k in M's k - 1)
        const T yk = y[k];
        ROWS(i) if (i > k && i < n) y[i] = y[i] - M[ix(i, k - 1)] * yk;
        tm.sync();
    }
    if (tm.first())
        gt_solve(n, t, y);
    tm.sync();
    for (int k = n - 2; k >= 1; k--) { // L^H
        T s = real_t<T>(0);
        ROWS(i) if (i > k && i < n) s = s + conj(M[ix(i, k - 1)]) * y[i];
        s = tm.sum(s); // (every lane has read y: lane 0 writes y[k] below)
        if (tm.first())
            y[k] = y[k] - s;
        tm.sync();
    }
    if (tm.first()) // P^T
        for (int j = n - 1; j >= 1; j--)
            swap_t(y[j], y[perm[j]]);
    tm.sync();
}

// The arrays of a system (per_sys T elements, then its ints: in the warp
// kernel after every warp's T arrays; the block kernel's one system has the
// same layout, M perhaps in global memory): the matrix M (packed_elems(n),
// lower_packed), y (n: one right-hand side; Aasen's h while it factors),
// with Aasen T's four diagonals (4n); the ints piv (n: the pivots, Aasen's
// perm), with Aasen T's row swaps (n).
template <typename T> void layout_for(indef_args<T> &g, bool aasen)
{
    g.per_sys = packed_elems(g.n) + size_t(g.n) * (aasen ? 5 : 1);
    g.ints = g.n * (aasen ? 2 : 1);
}

// One system, k, by team tm (the device functions' RPL rows a member):
// its referenced triangle into M's lower one (lower_packed), the
// factorization (METHOD: K_LDLH, K_BK or K_AASEN), then the solves, one
// right-hand side at a time through y; info, and NaN solutions where it is
// not 0. y: n elements (Aasen: h while it factors, then T's four
// diagonals, t, behind it); piv: n ints (Aasen: 2n). On return every member
// is done with M, y and piv.
template <typename T, int RPL, int METHOD, class Team>
__device__ __forceinline__ void solve_system(const Team &tm, const indef_args<T> &g, long long k, T *M, T *y, int *piv)
{
    typedef typename part_of<T>::type R;
    constexpr bool CERT = METHOD == K_LDLH_CERT, LDLH = METHOD == K_LDLH || CERT;
    const int n = g.n;
    const lower_packed ix{n};
    const tridiag<T> t{y + n, y + 2 * n, y + 3 * n, y + 4 * n, piv + n}; // Aasen's only
    if (CERT && g.cert == bsym_cuda::CERT_SHIFTED && g.pos[k] != bsym_cuda::POS_UNDECIDED)
        return; // decided by the cheap pass (uniform: M, y and piv untouched)
    const T *__restrict__ A = g.A + k * n * n;
    T *B = g.B + k * n * g.nrhs;

    // Load the referenced triangle into M's lower one.
    bool fin = true;
    R amax = R(0);
    auto store = [&](int r, int c, T a) {
        if (r >= c)
            M[ix(r, c)] = a;
        else
            M[ix(c, r)] = conj(a);
    };
    load_hermitian(A, n, g.lower, true, store, tm.t, tm.stride(), fin, amax);
    for (int e = tm.t; e < n * g.nrhs; e += tm.stride())
        fin = fin && finite_t(B[e]);
    int info = tm.any(!fin) ? -1 : 0;
    tm.sync();

    if (info == 0) {
        if constexpr (LDLH) {
            if (CERT && g.cert == bsym_cuda::CERT_SHIFTED) { // (uniform) A - sigma I for its pivots' signs alone
                const R sigma = R(g.sigma[k]);
                ROWS(i) if (i < n) M[ix(i, i)] = real_t<T>(re(M[ix(i, i)]) - sigma);
                tm.sync(); // the shifted diagonal is complete
                const bool bad = ldlh_factor<T, RPL>(M, ix, n, tm, piv, R(0), true) != 0;
                if (tm.first())
                    g.pos[k] = bad ? bsym_cuda::POS_NO : bsym_cuda::POS_YES;
                tm.sync(); // every member is done with M
                return;
            }
            // the cheap pass breaks down at the first pivot that is not positive
            const bool cheap = CERT && g.cert == bsym_cuda::CERT_CHEAP;
            info = ldlh_factor<T, RPL>(M, ix, n, tm, piv, cheap ? R(0) : tm.max(amax), cheap);
        } else if constexpr (METHOD == K_BK) {
            info = bk_factor<T, RPL>(M, ix, n, tm, piv);
        } else {
            aasen_factor<T, RPL>(M, ix, n, tm, y, t, piv);
            int ti = 0;
            if (tm.first())
                ti = gt_factor(n, t);
            info = tm.from_first(ti);
        }
    }
    if (info != 0) { // NaN solutions, the rest of the batch goes on
        for (int e = tm.t; e < n * g.nrhs; e += tm.stride())
            B[e] = nan_t<T>();
        if (tm.first())
            g.info[k] = info;
        if (CERT && g.cert == bsym_cuda::CERT_CHEAP && tm.first())
            g.pos[k] = bsym_cuda::POS_NO;
        tm.sync();
        return;
    }
    // The solves, one right-hand side at a time.
    for (int q = 0; q < g.nrhs; q++) {
        T *b = B + size_t(q) * n;
        ROWS(i) if (i < n) y[i] = b[i];
        tm.sync();
        if constexpr (METHOD == K_AASEN)
            aasen_solve<T, RPL>(M, ix, n, tm, piv, t, y);
        else
            bk_solve<T, RPL>(M, ix, n, tm, piv, y);
        ROWS(i) if (i < n) b[i] = y[i];
        tm.sync();
    }
    if constexpr (CERT)
        if (g.cert == bsym_cuda::CERT_CHEAP) {
            const bool yes = ldlh_cheap<T, RPL>(M, ix, n, tm, reinterpret_cast<double *>(y), g.sigma[k]);
            if (tm.first())
                g.pos[k] = yes ? bsym_cuda::POS_YES : bsym_cuda::POS_UNDECIDED;
        }
    if (tm.first())
        g.info[k] = 0;
}

// A warp per system; RPL = rows a lane (1: n <= 32, 2: n <= 64, 3: n <=
// warp3_max); METHOD: K_LDLH, K_BK or K_AASEN.
template <typename T, int RPL, int METHOD>
__global__ void __launch_bounds__(128) indef_kernel(indef_args<T> g, long long count)
{
    extern __shared__ unsigned char smem_raw[];
    const int w = threadIdx.x >> 5, W = blockDim.x >> 5;
    const long long k = (long long)blockIdx.x * W + w;
    if (k >= count)
        return; // a whole warp: it shares no barrier with the others
    T *M = reinterpret_cast<T *>(smem_raw) + size_t(w) * g.per_sys; // M[ix(i, c)] = A(i, c)
    int *piv = reinterpret_cast<int *>(reinterpret_cast<T *>(smem_raw) + size_t(W) * g.per_sys) + w * g.ints;
    solve_system<T, RPL, METHOD>(warp_team{int(threadIdx.x & 31)}, g, k, M, M + packed_elems(g.n), piv);
}

// A block per system, 64 < n <= BLOCK_MAX_N: 32 ceil(n / 32) threads, a row
// a thread, a persistent grid (block b takes systems b, b + gridDim.x, ...).
// Shared memory: when SMEM, M (packed_elems(n)), then y and the ints as a warp's
// (layout_for), then the team's scratch; without SMEM, M is the block's
// slot of work (packed_elems(n) a block, global memory: the same code,
// the block's barriers order its accesses there too).
constexpr int BLOCK_MAX_N = 32 * BLOCK_TEAM_WARPS;
// The team's scratch: the first 16-byte boundary from p on (a complex
// double's alignment); block_bytes leaves room for the rounding.
__device__ __forceinline__ unsigned char *block_scratch(int *p)
{
    return reinterpret_cast<unsigned char *>((reinterpret_cast<uintptr_t>(p) + 15) & ~uintptr_t(15));
}
template <typename T, int METHOD, bool SMEM>
__global__ void __launch_bounds__(32 * BLOCK_TEAM_WARPS, 2) indef_block_kernel(indef_args<T> g, long long count,
                                                                                  T *work)
{
    extern __shared__ unsigned char smem_raw[];
    const size_t mat = packed_elems(g.n);
    T *M = SMEM ? reinterpret_cast<T *>(smem_raw) : work + blockIdx.x * mat;
    T *y = reinterpret_cast<T *>(smem_raw) + (SMEM ? mat : 0);
    int *piv = reinterpret_cast<int *>(reinterpret_cast<T *>(smem_raw) + g.per_sys - (SMEM ? 0 : mat));
    const block_team tm{int(threadIdx.x), int(blockDim.x >> 5), block_scratch(piv + g.ints)};
    for (long long k = blockIdx.x; k < count; k += gridDim.x)
        solve_system<T, 1, METHOD>(tm, g, k, M, y, piv);
}
#undef ROWS

// Launches kernel(args, count) over count systems, per_block a block of
// `threads` threads with `smem` bytes of shared memory (the kernel's limit
// already raised to it by the caller), in grids of at most 2^31 - 1 blocks
// (A, B and info advanced between them).
template <typename T, typename K>
bsym_status launch_grid(K kernel, const indef_args<T> &g, long long count, int per_block, int threads, size_t smem,
                        cudaStream_t s, char *msg, size_t msglen)
{
    const long long most = 0x7fffffffLL * per_block;
    for (long long first = 0; first < count; first += most) {
        const long long c = std::min(most, count - first);
        indef_args<T> h = g;
        h.A += first * g.n * g.n;
        h.B += first * g.n * g.nrhs;
        h.info += first;
        if (h.sigma != nullptr) { // (the certificate's passes)
            h.sigma += first;
            h.pos += first;
        }
        kernel<<<unsigned((c + per_block - 1) / per_block), threads, smem, s>>>(h, c);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// ---- LDL^H with the rows in registers, n <= 32 (complex only) ----
// The kernel above keeps the matrix in shared memory and streams it through
// every step: three shared accesses per complex FMA, which bound it. For
// LDL^H (no interchanges) the rows can stay in registers, as in ldlt.cu's
// real LDL^T: a group of G = NMAX lanes (NMAX in {4, 8, 16, 32}, the
// smallest >= n) owns a system, 32 / G systems a warp; lane i holds row i
// of the trailing matrix, both triangles (rows and columns n..NMAX-1 an
// identity block), in a moving frame: at step j, a[m] is its entry in
// column j + m. Step j:
//   1. lane i >= j publishes a[0] = A(i, j) in a column buffer at index
//      i - j + 1 (the pivot at 1, the rows below from 2 on: so the reads
//      below sit at fixed offsets and pair up into 16-byte loads), one of
//      two buffers alternating, so one barrier a step suffices;
//   2. every lane reads the pivot d = A(j, j), lane i > j forms L(i, j) =
//      A(i, j) / d (written to shared memory for the solves) and, with the
//      shift of the frame in the same FMA,
//        a[m] = a[m + 1] - L(i, j) conj(A(j + 1 + m, j)),
//      the trailing update W(i, c) -= x_i conj(x_c) / d; lanes i <= j
//      multiply by 0 (their rows are done: the same instructions for all).
// Entries of the buffer past the trailing block's last row are stale from
// earlier steps; they only reach columns >= n of the frame, never read (the
// update stops at column n - 1).
// The breakdown test is the other kernel's (and the CPU's): info = j + 1 at
// the first |d| <= n eps max|a| or non-finite d (the certificate's first
// pass, CERT_CHEAP: d <= 0 or not finite); the steps go on, for the whole
// warp, and the system gets NaN solutions.
// The solves, one right-hand side at a time with y_i in lane i: forward
// y_i -= L(i, j) y_j (y_j shuffled from lane j), then z_i = y_i / d_i, then
// backward z_i -= conj(L(j, i)) z_j for j from n - 1 down. L lives in the
// staging tile (free once the rows are in registers), column j at j * LD:
// the forward reads are consecutive across lanes, the backward ones
// (row j, stride LD = NMAX + 1, odd) free of bank conflicts too.
template <int NMAX> __host__ __device__ constexpr int reg_ld() { return NMAX + 1; }
// Complex elements of a system's shared area: the tile (NMAX x LD), then
// two column buffers of NMAX + 2 (rounded to pairs: 16-byte aligned).
template <int NMAX> __host__ __device__ constexpr int reg_col_off() { return (NMAX * reg_ld<NMAX>() + 1) / 2 * 2; }
template <int NMAX> __host__ __device__ constexpr int reg_col_len() { return NMAX + 2; }
template <int NMAX> __host__ __device__ constexpr int reg_elems() { return reg_col_off<NMAX>() + 2 * reg_col_len<NMAX>(); }
constexpr int REG_WARPS = 4; // warps a block

// Sum and max over a group of G lanes (aligned, G a power of two).
template <int G, typename T> __device__ __forceinline__ T group_sum(T v)
{
#pragma unroll
    for (int m = G / 2; m > 0; m >>= 1)
        v = v + shfl_xor(v, m);
    return v;
}
template <int G, typename R> __device__ __forceinline__ R group_max(R v)
{
#pragma unroll
    for (int m = G / 2; m > 0; m >>= 1)
        v = max(v, shfl_xor(v, m));
    return v;
}
// v of lane `src` of the caller's group of G lanes.
template <int G, typename R> __device__ __forceinline__ cx<R> group_bcast(cx<R> v, int src)
{
    return {__shfl_sync(ALL_LANES, v.re, src, G), __shfl_sync(ALL_LANES, v.im, src, G)};
}

// x0, x1 = p[0], p[1] (p 16-byte aligned): one 16-byte load for complex
// float, two for complex double.
__device__ __forceinline__ void col_pair(const cx<float> *p, cx<float> &x0, cx<float> &x1)
{
    const float4 q = *reinterpret_cast<const float4 *>(p);
    x0 = {q.x, q.y};
    x1 = {q.z, q.w};
}
__device__ __forceinline__ void col_pair(const cx<double> *p, cx<double> &x0, cx<double> &x1)
{
    const double2 q0 = reinterpret_cast<const double2 *>(p)[0], q1 = reinterpret_cast<const double2 *>(p)[1];
    x0 = {q0.x, q0.y};
    x1 = {q1.x, q1.y};
}
// The frame's shifted entry after step j's update: w - l conj(x).
template <typename R> __device__ __forceinline__ cx<R> shift_update(cx<R> w, cx<R> l, cx<R> x)
{
    return {w.re - (l.re * x.re + l.im * x.im), w.im - (l.im * x.re - l.re * x.im)};
}

// The cheap form of AUTO's certificate from the factors in the staging tile
// (ldlh_cheap's, in the same order of operations): lane i of the group
// holds y_i, then z_i, in double; d_i its pivot.
template <int G, typename R>
__device__ bool reg_cheap(const cx<R> *M, int LD, int n, int i, R d_i, double sigma)
{
    auto mod = [](cx<R> l) { return strategy_mod_(prec_tag<R>(), double(l.re), double(l.im)); };
    double y = 1, z = 1;
    for (int j = 0; j + 1 < n; j++) { // y_i = 1 + sum_{j < i} |l_ij| y_j
        const double yj = __shfl_sync(ALL_LANES, y, j, G);
        if (i > j && i < n)
            y += mod(M[j * LD + i]) * yj;
    }
    for (int j = n - 1; j > 0; j--) { // z_i = 1 + sum_{j > i} |l_ji| z_j
        const double zj = __shfl_sync(ALL_LANES, z, j, G);
        if (i < j)
            z += mod(M[i * LD + j]) * zj;
    }
    const double ymax = group_max<G>(i < n ? y : 0.0), zmax = group_max<G>(i < n ? z : 0.0);
    const double mind = -group_max<G>(i < n ? -double(d_i) : -double(INFINITY));
    return strategy_cert_cheap_(prec_tag<R>(), n, mind, ymax * zmax, sigma) != 0;
}

template <typename R, int NMAX, bool CERT>
__global__ void __launch_bounds__(32 * REG_WARPS) ldlh_reg_kernel(indef_args<cx<R>> g, long long count)
{
    typedef cx<R> T;
    constexpr int G = NMAX, S = 32 / G, LD = reg_ld<NMAX>();
    extern __shared__ unsigned char smem_raw[];
    const int lane = threadIdx.x & 31, i = lane % G; // i: the row this lane owns
    const int sys = (threadIdx.x >> 5) * S + lane / G; // the group's system in the block
    const long long k = ((long long)blockIdx.x * REG_WARPS) * S + sys;
    const bool valid = k < count; // invalid groups run on an identity, store nothing
    const int n = g.n;
    T *M = reinterpret_cast<T *>(smem_raw) + size_t(sys) * reg_elems<NMAX>(); // M[c * LD + i]: A(i, c), later L
    T *col0 = M + reg_col_off<NMAX>();
    const T *__restrict__ A = g.A + (valid ? k : 0) * n * n;
    T *B = g.B + (valid ? k : 0) * n * g.nrhs;

    // The tile: the referenced triangle mirrored (the diagonal's imaginary
    // part dropped), the identity past n; coalesced reads in the group.
    bool fin = true;
    R amax = R(0);
    for (int c = 0; c < NMAX; c++) // lane i: its row's entries outside A(0:n, 0:n)
        if (c >= n || i >= n)
            M[c * LD + i] = real_t<T>(i == c ? R(1) : R(0));
    load_hermitian(
        A, n, g.lower, valid,
        [&](int r, int c, T a) {
            M[c * LD + r] = a;
            M[r * LD + c] = conj(a);
        },
        i, G, fin, amax);
    if (valid)
        for (int e = i; e < n * g.nrhs; e += G)
            fin = fin && finite_t(B[e]);
    __syncwarp();
    T a[NMAX]; // row i, columns j .. j + NMAX - 1 at step j
#pragma unroll
    for (int m = 0; m < NMAX; m++)
        a[m] = M[m * LD + i];
    fin = group_max<G>(R(fin ? 0 : 1)) == R(0);
    amax = group_max<G>(amax);
    const bool cheap = CERT && g.cert == bsym_cuda::CERT_CHEAP; // (uniform; CERT: the certificate's build)
    const R tol = cheap ? R(0) : R(n) * (sizeof(R) == 4 ? R(FLT_EPSILON) : R(DBL_EPSILON)) * amax;
    __syncwarp(); // every lane has its row: the tile becomes L

    int info = fin ? 0 : -1;
    R dinv = R(0), dmine = R(1); // 1 / d_i and d_i, lane i's
    for (int j = 0; j < n; j++) {
        T *col = col0 + (j & 1) * reg_col_len<NMAX>();
        if (i >= j)
            col[i - j + 1] = a[0];
        __syncwarp();
        const R d = col[1].re;
        if (info == 0 && (!((cheap ? d : abs(d)) > tol) || !isfinite(d)))
            info = j + 1;
        const R rinv = R(1) / d;
        if (i == j) {
            dinv = rinv;
            dmine = d;
        }
        const T l = i > j ? a[0] * rinv : real_t<T>(R(0));
        if (i > j)
            M[j * LD + i] = l;
        // Only columns j + 1 .. n - 1 are ever read again: the update stops
        // there (a branch the same for the whole warp), halving the work on
        // average; the frame's entries past it are left stale.
#pragma unroll
        for (int m = 0; m < NMAX; m += 2) { // x: A(j + 1 + m, j), A(j + 2 + m, j)
            if (m >= n - 1 - j)
                break;
            T x0, x1;
            col_pair(col + 2 + m, x0, x1);
            a[m] = shift_update(a[m + 1], l, x0);
            a[m + 1] = m + 2 < NMAX ? shift_update(a[m + 2], l, x1) : real_t<T>(R(0));
        }
    }
    __syncwarp();
    // The solves: every group runs them (their shuffles span the warp),
    // those without a system or with a breakdown store nothing.
    const bool solve = valid && info == 0;
    for (int q = 0; q < g.nrhs; q++) {
        T *b = B + size_t(q) * n;
        T y = solve && i < n ? b[i] : real_t<T>(R(0));
        for (int j = 0; j + 1 < n; j++) { // L y = b
            const T yj = group_bcast<G>(y, j);
            if (i > j)
                y = y - M[j * LD + i] * yj;
        }
        y = y * dinv; // D z = y
        for (int j = n - 1; j > 0; j--) { // L^H x = z
            const T xj = group_bcast<G>(y, j);
            if (i < j)
                y = y - conj(M[i * LD + j]) * xj;
        }
        if (solve && i < n)
            b[i] = y;
    }
    if (cheap) { // (every group: the shuffles span the warp)
        const bool yes = reg_cheap<G>(M, LD, n, i, dmine, valid ? g.sigma[k] : 0.0);
        if (valid && i == 0)
            g.pos[k] = info != 0 ? bsym_cuda::POS_NO : yes ? bsym_cuda::POS_YES : bsym_cuda::POS_UNDECIDED;
    }
    if (!valid)
        return;
    if (info != 0) // NaN solutions, the rest of the batch goes on
        for (int e = i; e < n * g.nrhs; e += G)
            B[e] = nan_t<T>();
    if (i == 0)
        g.info[k] = info;
}

template <typename R, int NMAX, bool CERT>
bsym_status launch_ldlh_reg(const indef_args<cx<R>> &g, long long count, cudaStream_t s, char *msg, size_t msglen)
{
    constexpr int per_block = REG_WARPS * (32 / NMAX);
    const size_t smem = size_t(per_block) * reg_elems<NMAX>() * sizeof(cx<R>);
    BSYM_CUDA_TRY(cudaFuncSetAttribute(ldlh_reg_kernel<R, NMAX, CERT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(smem)));
    return launch_grid(ldlh_reg_kernel<R, NMAX, CERT>, g, count, per_block, 32 * REG_WARPS, smem, s, msg, msglen);
}
// CERT: the build of the certificate's first pass (CERT_CHEAP), else plain.
template <bool CERT = false, typename R>
bsym_status launch_ldlh_reg(const indef_args<cx<R>> &g, long long count, cudaStream_t s, char *msg, size_t msglen)
{
    if (g.n <= 4)
        return launch_ldlh_reg<R, 4, CERT>(g, count, s, msg, msglen);
    if (g.n <= 8)
        return launch_ldlh_reg<R, 8, CERT>(g, count, s, msg, msglen);
    if (g.n <= 16)
        return launch_ldlh_reg<R, 16, CERT>(g, count, s, msg, msglen);
    return launch_ldlh_reg<R, 32, CERT>(g, count, s, msg, msglen);
}
// Real T has no LDL^H kernel here (ldlt.cu's LDL^T serves it).
template <bool CERT = false, typename T>
bsym_status launch_ldlh_reg(const indef_args<T> &, long long, cudaStream_t, char *msg, size_t msglen)
{
    std::snprintf(msg, msglen, "no register LDL^H kernel for a real type");
    return BSYM_ERR_ARG;
}
constexpr int REG_MAX_N = 32; // the register kernel's largest n

// Shared bytes of one warp's system.
template <typename T> size_t warp_bytes(const indef_args<T> &g) { return g.per_sys * sizeof(T) + g.ints * sizeof(int); }

// Systems (warps) a block of the warp kernel, W = 1, 2 or 4: the W whose
// blocks keep the most systems on a multiprocessor (the occupancy query:
// shared memory, registers and the block limit), the largest W on a tie. A
// block's shared memory is W systems', so its size sets how well the blocks
// tile a multiprocessor's 228 KB: at double n = 68 (19.4 KB a system)
// blocks of 4 hold 8 systems, blocks of 1 hold 11 (the rule until session
// 33, 4 up to 96 KB a block, ran 4 there and lost a third of the throughput
// from n = 67 on). W = 3 is left out, by measurement (H200, RESULTS.md
// session 33, every W forced): wherever the rule picked 3, another W was
// 1.02x to 1.06x faster (float Aasen n = 64 and 65, complex double
// Bunch-Kaufman and LDL^H 64, complex double Aasen 48, complex float Aasen
// 72), and 3 was never the fastest (likely cause: a multiprocessor's four
// schedulers, which blocks of three warps load unevenly). The environment
// variable BSYM_INDEF_WARPS (1..4, at most what fits) sets W instead (a
// measurement hook). The kernel's shared-memory limit is raised here, once,
// to the widest block's (the occupancy query needs it; launch_grid then
// launches within it).
template <typename T, int RPL, int METHOD>
bsym_status warps_for(const indef_args<T> &g, int &W, char *msg, size_t msglen)
{
    int dev = 0, optin = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const int widest = int(std::max<size_t>(1, std::min<size_t>(4, size_t(optin) / warp_bytes(g))));
    BSYM_CUDA_TRY(cudaFuncSetAttribute(indef_kernel<T, RPL, METHOD>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(size_t(widest) * warp_bytes(g))));
    W = 1;
    for (int w = 1, most = 0; w <= widest; w *= 2) {
        int blocks = 0;
        BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, indef_kernel<T, RPL, METHOD>, 32 * w,
                                                                    size_t(w) * warp_bytes(g)));
        if (blocks * w >= most) {
            most = blocks * w;
            W = w;
        }
    }
    const int hook = bsym_cuda::env_int("BSYM_INDEF_WARPS", 0);
    if (hook >= 1 && hook <= widest)
        W = hook;
    return BSYM_OK;
}

template <typename T, int RPL, int METHOD>
bsym_status launch_kernel(const indef_args<T> &g, long long count, cudaStream_t s, char *msg, size_t msglen)
{
    int W = 1;
    const bsym_status st = warps_for<T, RPL, METHOD>(g, W, msg, msglen);
    if (st != BSYM_OK)
        return st;
    return launch_grid(indef_kernel<T, RPL, METHOD>, g, count, W, 32 * W, size_t(W) * warp_bytes(g), s, msg,
                       msglen);
}

// The block kernel (64 < n): bytes of a block's shared memory, with M in
// it (smem) or not; the scratch's 16-byte rounding included.
template <typename T> size_t block_bytes(const indef_args<T> &g, bool smem)
{
    const size_t mat = smem ? 0 : packed_elems(g.n);
    return (g.per_sys - mat) * sizeof(T) + g.ints * sizeof(int) + 15 + BLOCK_TEAM_SCRATCH;
}
// The global workspace of the block kernel without SMEM is at most this
// (the grid shrinks to fit: complex double n = 256 takes 1 MB a block).
constexpr size_t BLOCK_WORK_MAX_BYTES = size_t(512) << 20;

// The block kernel's launch for g: threads, shared bytes, the blocks
// (systems) a multiprocessor holds at once (at least 1; without SMEM no
// more than the workspace cap admits over sms multiprocessors), and the
// bytes of a block's workspace slot (0 with SMEM: M is in shared memory).
struct block_plan {
    int threads;
    size_t smem;
    int per_sm;
    size_t slot;
};
template <typename T, int METHOD, bool SMEM>
bsym_status plan_block(const indef_args<T> &g, int sms, block_plan &pl, char *msg, size_t msglen)
{
    const auto kernel = indef_block_kernel<T, METHOD, SMEM>;
    pl.threads = 32 * ((g.n + 31) / 32);
    pl.smem = block_bytes(g, SMEM);
    BSYM_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(pl.smem)));
    BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pl.per_sm, kernel, pl.threads, pl.smem));
    pl.per_sm = std::max(1, pl.per_sm);
    pl.slot = SMEM ? 0 : packed_elems(g.n) * sizeof(T);
    if (!SMEM)
        pl.per_sm = int(std::max<size_t>(1, std::min<size_t>(pl.per_sm, BLOCK_WORK_MAX_BYTES / pl.slot / sms)));
    return BSYM_OK;
}

// A persistent grid of plan pl (plan_block's, for the same SMEM): as many
// blocks as the device's sms multiprocessors hold.
template <typename T, int METHOD, bool SMEM>
bsym_status launch_block(const indef_args<T> &g, long long count, int sms, const block_plan &pl,
                         cudaStream_t s, char *msg, size_t msglen)
{
    const long long blocks = std::min<long long>(count, (long long)sms * pl.per_sm);
    T *work = nullptr;
    if (!SMEM)
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&work), size_t(blocks) * pl.slot, s));
    indef_block_kernel<T, METHOD, SMEM><<<unsigned(blocks), pl.threads, pl.smem, s>>>(g, count, work);
    const cudaError_t launched = cudaGetLastError();
    if (!SMEM)
        BSYM_CUDA_TRY(cudaFreeAsync(work, s)); // stream-ordered: after the kernel
    BSYM_CUDA_TRY(launched);
    return BSYM_OK;
}

// The matrix in the global workspace although it fits in shared memory
// (shared, work: plan_block's plans with and without SMEM; l2: the L2
// cache's bytes): where shared memory holds only one block a
// multiprocessor and the workspace of the grid the global kernel runs (its
// blocks a multiprocessor, by registers) fits in the L2 cache, plus an
// eighth. One block a multiprocessor leaves the step's chains of dependent
// latencies (the reductions and barriers of the pivot search, Aasen's
// left-looking reads) unhidden; two or more from an L2-resident workspace
// hide them better than shared memory's speed makes up. Measured on the H200
// (RESULTS.md, session 32, every method with and without this rule):
// faster from the workspace at complex double n = 128 (1.38x to 1.61x),
// double and complex float 168 (1.09x to 1.67x), complex float 192 (1.36x
// to 1.45x), float 238 to 256 (1.12x to 1.31x; Aasen 1.13x to 1.16x);
// slower for real Bunch-Kaufman at double 234 to 238 (0.75x to 0.86x),
// kept for its width of three sizes against the gains; and double 192 and
// 234 in Aasen (78 and 87 MB of workspace, 0.96x and 0.67x) set the L2
// bound.
bool prefers_global(const block_plan &shared, const block_plan &work, int sms, int l2)
{
    const double grid_bytes = double(work.per_sm) * sms * double(work.slot);
    return shared.per_sm < 2 && work.per_sm >= 2 && grid_bytes <= 1.125 * l2;
}

// The largest n the warp kernel serves with three rows a lane (64 < n <=
// 96; the block kernel above it, and everywhere for 64). Measured on the
// H200 (RESULTS.md, session 33: bench_indef at n = 65..96, batch 1e4, the
// warp kernel against the block kernel, random indefinite and definite
// systems): the warp kernel keeps no barriers and a system a warp, the
// block kernel spreads a system's rows over 3 warps and waits at a barrier
// a step; the warp kernel wins by 1.8x at n = 65 in float Bunch-Kaufman and
// loses from where these edges stop (float BK: 1.07x to 1.12x still at 96;
// Aasen 1.09x at 84, 0.99x at 88; double BK 1.12x at 72, 0.96x to 1.01x at
// 76; double Aasen 1.04x at 68, 0.91x at 70; complex float BK 1.05x at 72,
// 0.91x at 76 (indefinite); LDL^H 1.01x at 84, 0.95x at 88; Aasen 1.03x at
// 80, 0.95x at 84; complex double: 0.72x to 0.91x for Bunch-Kaufman and
// Aasen at 65, LDL^H 1.02x at 65 and 66, 0.95x at 68: none). The
// environment variable BSYM_INDEF_WARP3_MAX overrides (64..96; a
// measurement and test hook).
template <typename T, int METHOD> int warp3_max()
{
    typedef typename part_of<T>::type R;
    constexpr bool real = std::is_same<T, R>::value, single = sizeof(R) == 4;
    int edge = 64;
    if (real)
        edge = METHOD == K_AASEN ? (single ? 84 : 68) : (single ? 96 : 72);
    else if (single)
        edge = METHOD == K_AASEN ? 80 : METHOD == K_LDLH || METHOD == K_LDLH_CERT ? 84 : 72;
    return std::min(96, std::max(64, bsym_cuda::env_int("BSYM_INDEF_WARP3_MAX", edge)));
}

// By n: a warp a system with one row a lane (n <= 32), two (n <= 64) or
// three (n <= warp3_max); a block a system above, M in shared memory where
// the block's arrays fit (unless prefers_global says otherwise), else in the
// global workspace. per_sm (not null): for the block kernel, the systems a
// multiprocessor holds, nothing launched (0 for the warp kernels: their
// chunks are sized by link bytes).
template <typename T, int METHOD>
bsym_status launch_rows(const indef_args<T> &g, long long count, cudaStream_t s, char *msg, size_t msglen,
                        int *per_sm)
{
    static_assert(BSYM_GPU_INDEF_MAX_N <= BLOCK_MAX_N, "the block kernel's rows");
    const bool warp = g.n <= warp3_max<T, METHOD>(); // warp3_max >= 64
    if (warp && per_sm != nullptr) {
        *per_sm = 0;
        return BSYM_OK;
    }
    if (g.n <= 32)
        return launch_kernel<T, 1, METHOD>(g, count, s, msg, msglen);
    if (g.n <= 64)
        return launch_kernel<T, 2, METHOD>(g, count, s, msg, msglen);
    if (warp)
        return launch_kernel<T, 3, METHOD>(g, count, s, msg, msglen);
    int dev = 0, optin = 0, sms = 0, l2 = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    // each variant planned once: the plans decide, and the chosen one launches
    block_plan shared{}, work{};
    const bool fits = block_bytes(g, true) <= size_t(optin);
    bsym_status st = plan_block<T, METHOD, false>(g, sms, work, msg, msglen);
    if (st == BSYM_OK && fits)
        st = plan_block<T, METHOD, true>(g, sms, shared, msg, msglen);
    if (st != BSYM_OK)
        return st;
    const bool smem = fits && !prefers_global(shared, work, sms, l2);
    if (per_sm != nullptr) {
        *per_sm = (smem ? shared : work).per_sm;
        return BSYM_OK;
    }
    return smem ? launch_block<T, METHOD, true>(g, count, sms, shared, s, msg, msglen)
                : launch_block<T, METHOD, false>(g, count, sms, work, s, msg, msglen);
}

// Launches `method` (BUNCH_KAUFMAN, AASEN; LDLT for complex T) on count
// systems; per_sm (not null): the systems a multiprocessor holds at once
// where a block takes one (n > 64; 0 below), nothing launched.
template <typename T>
bsym_status launch(int method, char uplo, int n, int nrhs, long long count, const T *A, T *B, int *info,
                   cudaStream_t s, char *msg, size_t msglen, int *per_sm = nullptr)
{
    constexpr bool complex_t = !std::is_same<T, typename part_of<T>::type>::value;
    const bool aasen = method == BSYM_METHOD_AASEN;
    if (method != BSYM_METHOD_BUNCH_KAUFMAN && !aasen && !(complex_t && method == BSYM_METHOD_LDLT)) {
        std::snprintf(msg, msglen, "the GPU's indefinite solver has no method %d for this type", method);
        return BSYM_ERR_ARG;
    }
    if (n < 1 || n > BSYM_GPU_INDEF_MAX_N || nrhs < 0) {
        std::snprintf(msg, msglen, "n = %d is outside the GPU indefinite solver's 1..%d", n, BSYM_GPU_INDEF_MAX_N);
        return BSYM_ERR_SIZE;
    }
    if (count == 0 && per_sm == nullptr)
        return BSYM_OK;
    indef_args<T> g{A, B, info, n, nrhs, 0, 0, uplo != 'U'};
    layout_for(g, aasen);
    if (method == BSYM_METHOD_BUNCH_KAUFMAN)
        return launch_rows<T, K_BK>(g, count, s, msg, msglen, per_sm);
    if (aasen)
        return launch_rows<T, K_AASEN>(g, count, s, msg, msglen, per_sm);
    // LDLT, complex T only (checked above): no LDL^H kernel is built for real T
    if (complex_t && n <= REG_MAX_N) {
        if (per_sm != nullptr) {
            *per_sm = 0;
            return BSYM_OK;
        }
        return launch_ldlh_reg(g, count, s, msg, msglen);
    }
    return launch_rows<T, complex_t ? K_LDLH : K_BK>(g, count, s, msg, msglen, per_sm);
}

// A pass of method AUTO's certificate for complex T (strategy.cu; the
// CPU's ldlh_cert_team_one_; indef_args' cert, sigma and pos): CERT_CHEAP
// solves (B, info) and certifies what it can from the factors (on the
// register kernel up to REG_MAX_N, as the plain LDL^H), CERT_SHIFTED decides
// the rest on the shared-memory kernels (a system already decided costs its
// team one read of pos).
template <typename T>
bsym_status ldlh_cert(int cert, char uplo, int n, int nrhs, long long count, const T *A, T *B, int *info,
                      const double *sigma, int *pos, cudaStream_t s, char *msg, size_t msglen)
{
    if (n < 1 || n > BSYM_GPU_INDEF_MAX_N || nrhs < 0) {
        std::snprintf(msg, msglen, "n = %d is outside the GPU indefinite solver's 1..%d", n, BSYM_GPU_INDEF_MAX_N);
        return BSYM_ERR_SIZE;
    }
    if (count == 0)
        return BSYM_OK;
    indef_args<T> g{A, B, info, n, nrhs, 0, 0, uplo != 'U', cert, sigma, pos};
    layout_for(g, false);
    if (cert == bsym_cuda::CERT_CHEAP && n <= REG_MAX_N)
        return launch_ldlh_reg<true>(g, count, s, msg, msglen);
    return launch_rows<T, K_LDLH_CERT>(g, count, s, msg, msglen, nullptr);
}

// ---- the host entries (the backend table's rows): A, B and info chunk by
// chunk through the pipeline. A sends its referenced triangle (the
// pipeline expands it to a symmetric or Hermitian matrix; the kernels read
// only the referenced triangle either way). ----
struct indef_call {
    int method;
    char uplo;
    int n, nrhs;
};

template <typename T>
bsym_status indef_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const indef_call *c = static_cast<const indef_call *>(arg);
    return launch<T>(c->method, c->uplo, c->n, c->nrhs, count, static_cast<const T *>(dev[0]),
                     static_cast<T *>(dev[1]), static_cast<int *>(dev[2]), s, msg, msglen);
}

template <typename T, typename H>
bsym_status indef_host(const bsym__exec *x, int method, const bsym__job *j)
{
    const int64_t n = j->n;
    indef_call call{method, j->uplo, int(n), int(j->nrhs)};
    const H *A = static_cast<const H *>(j->A);
    H *B = static_cast<H *>(j->B);
    const bsym_array arrays[3] = {
        host_matrix<T>(A, n, j->uplo), // complex: the Hermitian triangle, pairs kept together
        host_data<T>(B, B, size_t(n * j->nrhs)),
        {nullptr, j->info, sizeof(int)},
    };
    // above n = 64 the kernel is compute bound: chunks of a few full waves
    int per_sm = 0;
    const bsym_status st = launch<T>(method, j->uplo, int(n), int(j->nrhs), 0, nullptr, nullptr, nullptr, 0, x->msg,
                                     x->msglen, &per_sm);
    if (st != BSYM_OK)
        return st;
    return bsym_pipeline(x, arrays, 3, j->batch, indef_chunk<T>, &call, false, per_sm);
}

} // namespace

namespace bsym_cuda {

template <typename T, typename H> bsym_status bk_op(const bsym__exec *x, const bsym__job *j)
{
    return indef_host<T, H>(x, BSYM_METHOD_BUNCH_KAUFMAN, j);
}
template <typename T, typename H> bsym_status aasen_op(const bsym__exec *x, const bsym__job *j)
{
    return indef_host<T, H>(x, BSYM_METHOD_AASEN, j);
}
template <typename T, typename H> bsym_status ldlh_op(const bsym__exec *x, const bsym__job *j)
{
    return indef_host<T, H>(x, BSYM_METHOD_LDLT, j);
}

// The device-resident launch (bsym_cuda.h); complex arrays as interleaved
// pairs of reals.
template <typename T>
bsym_status indef_launch(int method, char uplo, int n, int nrhs, int64_t batch, const void *A, void *B, int *info,
                         cudaStream_t s, char *msg, size_t msglen)
{
    return launch<T>(method, uplo, n, nrhs, batch, static_cast<const T *>(A), static_cast<T *>(B), info, s, msg,
                     msglen);
}

template <typename R>
bsym_status ldlh_cert_launch(int cert, char uplo, int n, int nrhs, int64_t batch, const cx<R> *A, cx<R> *B,
                             int *info, const double *sigma, int *pos, cudaStream_t s, char *msg, size_t msglen)
{
    return ldlh_cert<cx<R>>(cert, uplo, n, nrhs, batch, A, B, info, sigma, pos, s, msg, msglen);
}
template bsym_status ldlh_cert_launch<float>(int, char, int, int, int64_t, const cx<float> *, cx<float> *, int *,
                                             const double *, int *, cudaStream_t, char *, size_t);
template bsym_status ldlh_cert_launch<double>(int, char, int, int, int64_t, const cx<double> *, cx<double> *,
                                              int *, const double *, int *, cudaStream_t, char *, size_t);

#define BSYM_INDEF_INSTANTIATE(T, H)                                                            \
    template bsym_status bk_op<T, H>(const bsym__exec *, const bsym__job *);                  \
    template bsym_status aasen_op<T, H>(const bsym__exec *, const bsym__job *);               \
    template bsym_status indef_launch<T>(int, char, int, int, int64_t, const void *, void *, int *, \
                                         cudaStream_t, char *, size_t);
BSYM_INDEF_INSTANTIATE(float, float)
BSYM_INDEF_INSTANTIATE(double, double)
BSYM_INDEF_INSTANTIATE(cx<float>, cx<float>)
BSYM_INDEF_INSTANTIATE(cx<double>, cx<double>)
template bsym_status bk_op<float, double>(const bsym__exec *, const bsym__job *);
template bsym_status bk_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status aasen_op<float, double>(const bsym__exec *, const bsym__job *);
template bsym_status aasen_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<float>, cx<float>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<double>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);

} // namespace bsym_cuda
