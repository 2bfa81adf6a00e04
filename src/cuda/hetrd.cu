// hetrd.cu -- complex Hermitian on the GPU: the tridiagonalization A = Q T
// Q^H with T REAL symmetric tridiagonal (bsym_[zc]tridiagonalize's device
// GPU) and the eigensolvers built on it (bsym_[zc]syev): the same results,
// layouts and info codes as the CPU's core/hetrd_impl.h, n from 1 to
// BSYM_GPU_HOUSEHOLDER_MAX_N (256).
//
// The reduction (he_trd_kernel): LAPACK's zhetd2 in lower order, as the
// CPU's he_reduce_, a block per system (a persistent grid: block b takes
// systems b, b + gridDim.x, ...), thread t owning row t + 1 of the trailing
// matrix at every step (32 ceil((n - 1) / 32) threads). The matrix's lower
// triangle lives packed by columns (team.cuh's lower_packed) in shared
// memory where the block's arrays fit (complex float to n = 237, complex
// double to 168 on the H200's 227 KB a block); above that its first
// columns (the head: the first steps' trailing matrices, and their
// reflectors) move to a global workspace, a slot a block (he_mat). Step k
// (k + 2 < n), as the real block kernel's (householder_block.cu) but with
// the conjugates of a Hermitian matrix:
//   1. x = W(k+1:n, k), sig = ||x(2:)||^2 (team sum), alpha = x_1; the
//      reflector H_k = I - tau v v^H with H_k^H x = beta e1, beta real
//      (zlarfg; below reflector_small, alpha and sig of x / 2^e, as the
//      CPU's reflector_impl.h); sig = 0 leaves H_k = I and the sub-diagonal
//      entry alpha as it is;
//   2. p = tau W22 v (thread i its row of the Hermitian W22: the stored row
//      left of the diagonal, the conjugated column below it),
//      w = p - (tau / 2) (p^H v) v (team sum);
//   3. W22 -= v w^H + w v^H on the lower triangle, thread i its row; the
//      diagonal stays real.
// The sub-diagonal c_k of T1 = Q1^H A Q1 is real but for the last one; the
// unitary diagonal D = diag(s), s_0 = 1, s_{k+1} = s_k c_k / |c_k|, makes T
// = D^H T1 D real with e_k = |c_k| >= 0, and Q = Q1 D (column j of Q1 times
// s_j). The input is scaled by an exact power of two first (pow2_scale), T
// scaled back at the end. Q1 = H_0 ... H_{n-3} is formed by warps, a few
// columns a warp at a time (lane l its rows l + 32 r), the reflectors of
// column j applied from H_{j-1} down to H_0 (the later ones leave e_j alone).
//
// The complex TRIDIAG solve (he_hhsolve_run) is the same kernel with the
// solve after each system's reduction (SOLVE; he_solve): x = 2^-ex Q1 D
// T'^-1 D^H Q1^H b, the reflectors applied to b as the CPU does (Q is not
// formed), T' solved by the real block kernel's PCR.
// The eigensolvers (he_eig_run) compose it with the real GPU eigensolver,
// as the CPU does: T's eigenvalues and real eigenvectors Z by eigen.cu
// (tridiagonal input: the bsym_*stev path, with all its rules), then V = Q Z
// (he_back_launch: a tiled product a system at a time, or a thread an entry
// for small n).
#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>

#include "common.cuh"
#include "householder.cuh"

namespace {

#include "team.cuh"

using bsym_hh::pow2_scale;
using bsym_hh::reflector_scale;
using bsym_hh::reflector_small;

constexpr int HE_MAX_THREADS = 256; // n - 1 <= 255 rows, a thread each
// The global workspace of the larger sizes at most (a slot a block: the
// persistent grid shrinks to fit it).
constexpr size_t HE_WS_MAX = size_t(512) << 20;

template <typename R> struct he_args {
    const cx<R> *A;
    char uplo;
    int n;
    long long batch;
    R *d, *e;        // n and n - 1 a system
    cx<R> *Q;        // n x n a system, or nullptr
    int *info;
    cx<R> *ws;       // the heads: `split` elements a block (nullptr when split = 0)
    int split, tail; // the packed matrix's elements [0, split) in ws, [split, P) in shared memory (tail of them)
    int c0;          // the first column in shared memory (split = its start; 0: all there)
    // the solve (the SOLVE kernels; see he_solve below): B n x nrhs a system,
    // b in, x out; dT, eT: nullptr, or T' (n a system, e's last 0) for the
    // strategy's conditioning test. d, e, Q are then nullptr (not written).
    cx<R> *B;
    int nrhs;
    R *dT, *eT;
};

// A block's packed matrix: elements below split (the columns before c0) in
// its global head, the rest (the later columns, which every step touches)
// in shared memory. A view with !HEAD reaches the shared part alone, as
// shared memory (no test, no generic pointer): the whole matrix where it
// has no head (split 0), and where it has one, every step k >= c0 and the
// reflectors k >= c0 (they touch no column before k).
template <typename R, bool HEAD> struct he_mat {
    cx<R> *head, *tail;
    int split;
    __device__ __forceinline__ cx<R> &operator[](int idx) const
    {
        if (!HEAD)
            return tail[idx - split];
        return idx < split ? head[idx] : tail[idx - split];
    }
};


// Shared memory of a block in elements of cx<R>: the packed matrix's tail
// (from 0), then v, w, tau, the sub-diagonal c and the phases s (n each);
// with the solve, T' too (its d and e as 2n reals). The solve's PCR rows
// (4n reals) reuse v and w, free after the reduction, and z (2n reals) c,
// free once the phases are made.
struct he_layout {
    int v, w, tau, c, s, t, size;
    __host__ __device__ he_layout(int n, int tail, bool solve = false)
    {
        v = tail;
        w = v + n;
        tau = w + n;
        c = tau + n;
        s = c + n;
        t = s + n;
        size = t + (solve ? n : 0);
    }
};

template <typename R> __device__ __forceinline__ R abs2(cx<R> z) { return z.re * z.re + z.im * z.im; }

// Reads system sys into the packed lower triangle W (the diagonal's
// imaginary part dropped, neither read nor checked); returns (to every
// thread) whether an entry read is not finite, and max(|re|, |im|) in *amax.
template <typename R, bool HEAD, typename Team>
__device__ bool he_load(const he_args<R> &p, const he_mat<R, HEAD> &W, long long sys, const Team &tm, R *amax)
{
    typedef cx<R> C;
    const int n = p.n, t = threadIdx.x, nt = blockDim.x;
    const lower_packed at{n};
    const C *a = p.A + sys * (long long)n * n;
    R mx = R(0);
    bool bad = false;
    if (p.uplo == 'L') {
        // column j of A, rows j..n-1 (coalesced), to column j of W
        for (int j = 0; j < n; j++)
            for (int i = j + t; i < n; i += nt) {
                C v = a[i + (long long)j * n];
                if (i == j)
                    v.im = R(0);
                bad |= !finite_t(v);
                mx = max(mx, max(abs(v.re), abs(v.im)));
                W[at(i, j)] = v;
            }
    } else {
        // column c of A, rows 0..c (coalesced), to row c of W: W(c, r) = conj(A(r, c))
        for (int c = 0; c < n; c++)
            for (int r = t; r <= c; r += nt) {
                C v = conj(a[r + (long long)c * n]);
                if (r == c)
                    v.im = R(0);
                bad |= !finite_t(v);
                mx = max(mx, max(abs(v.re), abs(v.im)));
                W[at(c, r)] = v;
            }
    }
    const bool any_bad = tm.any(bad);
    *amax = tm.max(mx);
    return any_bad;
}

// Step k of the reduction (see the head of the file); TAU[k] and CS[k] (c_k)
// written by thread 0. tm: the block (team.cuh's block_team), or its one
// warp (warp_team: shuffles and warp barriers only) where it has one.
template <typename R, bool HEAD, typename Team>
__device__ __forceinline__ void he_step(const he_mat<R, HEAD> &W, cx<R> *V, cx<R> *Wv, cx<R> *TAU, cx<R> *CS, int n, int k,
                                        const Team &tm)
{
    typedef cx<R> C;
    const lower_packed at{n};
    const int i = threadIdx.x + 1;
    const bool row = i > k && i < n;
    const C x = row ? W[at(i, k)] : C{R(0), R(0)};
    R sig = tm.sum(row && i > k + 1 ? abs2(x) : R(0));
    tm.after_reduce(); // the update of step k - 1 is done everywhere
    const C alpha0 = W[at(k + 1, k)];
    C alpha = alpha0;
    R scl = R(1);
    if (abs2(alpha) + sig < reflector_small<R>()) { // uniform
        scl = reflector_scale(tm.max(row ? max(abs(x.re), abs(x.im)) : R(0)));
        const C xs{x.re / scl, x.im / scl};
        sig = tm.sum(row && i > k + 1 ? abs2(xs) : R(0));
        alpha = C{alpha.re / scl, alpha.im / scl};
    }
    if (sig == R(0)) { // H_k = I: c_k = alpha as it is (uniform)
        if (threadIdx.x == 0) {
            TAU[k] = C{R(0), R(0)};
            CS[k] = alpha0;
        }
        return;
    }
    const R beta = -copysign(sqrt(abs2(alpha) + sig), alpha.re);
    const C r = quot(C{R(1), R(0)}, C{(alpha.re - beta) * scl, alpha.im * scl}); // |alpha - beta| >= sqrt(sig)
    const C tau{(beta - alpha.re) / beta, -alpha.im / beta};
    const C v = !row ? C{R(0), R(0)} : i == k + 1 ? C{R(1), R(0)} : x * r;
    if (row)
        V[i] = v;
    if (threadIdx.x == 0) {
        TAU[k] = tau;
        CS[k] = C{beta * scl, R(0)};
    }
    tm.sync(); // v is visible, and everyone has read alpha (W(k+1, k))
    if (row)
        W[at(i, k)] = v; // (column k: read again only in forming Q)
    // p_i = tau (W22 v)_i: the stored row i left of the diagonal (column j,
    // index step n - 1 - j), then column i from the diagonal down (step 1),
    // conjugated (the diagonal is real): every thread the same trip count
    C acc{R(0), R(0)};
    if (row) {
        int idx = at(i, k + 1);
#pragma unroll 4
        for (int j = k + 1; j < n; j++) {
            C wij = W[idx];
            if (j > i)
                wij.im = -wij.im;
            acc = acc + wij * V[j];
            idx += j < i ? at.next(j) : 1;
        }
    }
    const C pi = tau * acc;
    const C dot = tm.sum(row ? conj(pi) * v : C{R(0), R(0)});
    const C K = R(0.5) * (tau * dot);
    const C wi = pi - K * v;
    if (row)
        Wv[i] = wi;
    tm.sync(); // w is visible, and every read of W22 above is done
    // W22 -= v w^H + w v^H on row i, columns k+1..i
    if (row) {
        int idx = at(i, k + 1);
#pragma unroll 4
        for (int j = k + 1; j <= i; j++) {
            W[idx] = W[idx] - (v * conj(Wv[j]) + wi * conj(V[j]));
            idx += at.next(j);
        }
        W[at(i, i)].im = R(0);
    }
}

// Q = Q1 D into q (n x n): warps take columns, QC at once (their dot
// products' shuffles interleave, and v_k is read once for them), lane l
// rows l + 32 r (NR rows a lane, NR >= n / 32); column j is H_0 ... H_{j-1}
// e_j, times s_j. The warp runs the reflectors of its last column, k =
// j_last - 1 down to 0: for an earlier column j the H_k with k >= j meet x =
// e_j, whose product with v_k is exactly 0, and leave it as it is.
template <typename R, int NR, bool HEAD>
__device__ __forceinline__ void he_form_q(const he_mat<R, HEAD> &W, const he_mat<R, false> &Wt, int c0, const cx<R> *TAU,
                                          const cx<R> *S, int n, cx<R> *q)
{
    typedef cx<R> C;
    constexpr int QC = sizeof(R) == 4 && NR <= 2 ? 4 : 2; // (double: registers)
    const lower_packed at{n};
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int j0 = warp * QC; j0 < n; j0 += warps * QC) {
        C x[QC][NR];
#pragma unroll
        for (int c = 0; c < QC; c++)
#pragma unroll
            for (int r = 0; r < NR; r++)
                x[c][r] = C{lane + 32 * r == j0 + c ? R(1) : R(0), R(0)};
        for (int k = min(min(j0 + QC, n) - 2, n - 3); k >= 0; k--) {
            const C tk = TAU[k];
            if (tk.re == R(0) && tk.im == R(0))
                continue; // (uniform) H_k = I
            C v[NR], dot[QC];
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                v[r] = i > k && i < n ? (HEAD && k < c0 ? W[at(i, k)] : Wt[at(i, k)]) : C{R(0), R(0)};
            }
#pragma unroll
            for (int c = 0; c < QC; c++) {
                dot[c] = C{R(0), R(0)};
#pragma unroll
                for (int r = 0; r < NR; r++)
                    dot[c] = dot[c] + conj(v[r]) * x[c][r];
            }
#pragma unroll
            for (int m = 16; m > 0; m >>= 1)
#pragma unroll
                for (int c = 0; c < QC; c++)
                    dot[c] = dot[c] + shfl_xor(dot[c], m);
#pragma unroll
            for (int c = 0; c < QC; c++) {
                const C f = tk * dot[c];
#pragma unroll
                for (int r = 0; r < NR; r++)
                    x[c][r] = x[c][r] - f * v[r];
            }
        }
#pragma unroll
        for (int c = 0; c < QC; c++) {
            if (j0 + c >= n)
                break;
            const C sj = S[j0 + c];
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                if (i < n)
                    q[i + (long long)(j0 + c) * n] = x[c][r] * sj;
            }
        }
    }
}

// The reflectors of the reduction applied to one vector x by one warp,
// lane l its rows l + 32 r (as he_form_q): adjoint, Q1^H x = H_{n-3}^H ...
// H_0^H x (k ascending, H_k^H = I - conj(tau_k) v v^H); else Q1 x = H_0 ...
// H_{n-3} x (k descending).
// The lane's rows of reflector k's v (zero outside rows k+1..n-1).
template <typename R, int NR, bool HEAD>
__device__ __forceinline__ void he_reflector(const he_mat<R, HEAD> &W, const he_mat<R, false> &Wt, int c0, int n,
                                             int k, cx<R> (&v)[NR])
{
    const lower_packed at{n};
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int r = 0; r < NR; r++) {
        const int i = lane + 32 * r;
        v[r] = i > k && i < n ? (HEAD && k < c0 ? W[at(i, k)] : Wt[at(i, k)]) : cx<R>{R(0), R(0)};
    }
}

// (The next reflector's v is loaded while this one's dot product is
// reduced: the loads' latency, from the global head above the edges, is
// the chain's cost.)
template <typename R, int NR, bool HEAD>
__device__ __forceinline__ void he_apply(const he_mat<R, HEAD> &W, const he_mat<R, false> &Wt, int c0,
                                         const cx<R> *TAU, int n, bool adjoint, cx<R> (&x)[NR])
{
    typedef cx<R> C;
    const int steps = n - 2; // reflectors 0..n-3
    C vn[NR];
    if (steps > 0)
        he_reflector<R, NR, HEAD>(W, Wt, c0, n, adjoint ? 0 : n - 3, vn);
    for (int q = 0; q < steps; q++) {
        const int k = adjoint ? q : n - 3 - q;
        C v[NR];
#pragma unroll
        for (int r = 0; r < NR; r++)
            v[r] = vn[r];
        if (q + 1 < steps)
            he_reflector<R, NR, HEAD>(W, Wt, c0, n, adjoint ? k + 1 : k - 1, vn);
        const C tk = TAU[k];
        if (tk.re == R(0) && tk.im == R(0))
            continue; // (uniform) H_k = I
        C dot{R(0), R(0)};
#pragma unroll
        for (int r = 0; r < NR; r++)
            dot = dot + conj(v[r]) * x[r];
#pragma unroll
        for (int m = 16; m > 0; m >>= 1)
            dot = dot + shfl_xor(dot, m);
        const C f = (adjoint ? conj(tk) : tk) * dot;
#pragma unroll
        for (int r = 0; r < NR; r++)
            x[r] = x[r] - f * v[r];
    }
}

// The TRIDIAG solve of system sys after its reduction (the SOLVE kernels),
// each right-hand side b in turn: z = D^H Q1^H b by warp 0 (he_apply), T' y
// = z for z's real and imaginary parts at once by the block (T' is real:
// householder.cuh's solve_t, the real block kernel's PCR with its residual
// test and pivoted fallback), x = 2^-ex Q1 D y by warp 0: the CPU's
// he_solve_one_ (core/hetrd_impl.h). TD: T' (d, then e), Z: z's parts, PR:
// PCR's four rows (4n reals), in shared memory. Returns the info: 0, or j >
// 0 for a breakdown of T's solve in row j or a non-finite x in row j
// (overflow); the caller makes x NaN where it is not 0.
template <typename R, int NR, bool HEAD>
__device__ int he_solve(const he_args<R> &p, long long sys, const he_mat<R, HEAD> &W, const he_mat<R, false> &Wt,
                        const cx<R> *TAU, const cx<R> *S, R *TD, R *Z, R *PR, const pow2_scale<R> &sc)
{
    typedef cx<R> C;
    __shared__ bsym_hh::reduce_bufs<R> red;
    const int n = p.n, t = threadIdx.x, nt = blockDim.x, lane = t & 31;
    const bool w0 = t < 32;
    C *B = p.B + sys * n * p.nrhs;
    for (int q = 0; q < p.nrhs; q++) {
        C *b = B + (long long)q * n;
        if (w0) {
            C x[NR];
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                x[r] = i < n ? b[i] : C{R(0), R(0)};
            }
            he_apply<R, NR, HEAD>(W, Wt, p.c0, TAU, n, true, x);
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                if (i < n) {
                    const C z = conj(S[i]) * x[r];
                    Z[i] = z.re;
                    Z[n + i] = z.im;
                }
            }
        }
        __syncthreads(); // z is complete
        const int fail = bsym_hh::solve_t<1>(TD, TD + n, PR, PR + n, PR + 2 * n, PR + 3 * n, Z, n, 2, red);
        if (fail != INT_MAX)
            return fail + 1; // (the same for every thread: solve_t's reductions)
        if (w0) {
            C x[NR];
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                x[r] = i < n ? S[i] * C{Z[i], Z[n + i]} : C{R(0), R(0)};
            }
            he_apply<R, NR, HEAD>(W, Wt, p.c0, TAU, n, false, x);
#pragma unroll
            for (int r = 0; r < NR; r++) {
                const int i = lane + 32 * r;
                if (i < n)
                    b[i] = C{sc.down(x[r].re), sc.down(x[r].im)};
            }
        }
        __syncthreads(); // Z is read, and x written, before the next right-hand side
    }
    // overflow: the first row with a non-finite x
    int row = INT_MAX;
    for (int i = t; i < n * p.nrhs; i += nt)
        if (!finite_t(B[i]))
            row = min(row, i % n);
    row = bsym_hh::block_reduce(row, red.i[1], bsym_hh::op_min{});
    return row != INT_MAX ? row + 1 : 0;
}

// The team of a block: its one warp (WARP), or the whole block.
template <bool WARP> struct he_team;
template <> struct he_team<true> {
    typedef warp_team type;
    static __device__ __forceinline__ type make(unsigned char *) { return warp_team{int(threadIdx.x)}; }
};
template <> struct he_team<false> {
    typedef block_team type;
    static __device__ __forceinline__ type make(unsigned char *scratch)
    {
        return block_team{int(threadIdx.x), int(blockDim.x >> 5), scratch};
    }
};

// SOLVE: the TRIDIAG solve of B after each system's reduction (he_solve),
// instead of writing d, e and Q.
template <typename R, int NR, bool WARP, bool HEAD, bool SOLVE>
__global__ void __launch_bounds__(HE_MAX_THREADS) he_trd_kernel(he_args<R> p)
{
    typedef cx<R> C;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ __align__(16) unsigned char scratch[WARP ? 16 : BLOCK_TEAM_SCRATCH];
    const int n = p.n, t = threadIdx.x, nt = blockDim.x;
    const typename he_team<WARP>::type tm = he_team<WARP>::make(scratch);
    const lower_packed at{n};
    const he_layout L(n, p.tail, SOLVE);
    C *sh = reinterpret_cast<C *>(smem);
    const he_mat<R, HEAD> W{p.ws + size_t(blockIdx.x) * p.split, sh, p.split};
    const he_mat<R, false> Wt{nullptr, sh, p.split}; // the shared part as shared memory
    C *V = sh + L.v, *Wv = sh + L.w, *TAU = sh + L.tau, *CS = sh + L.c, *S = sh + L.s;
    R *TD = reinterpret_cast<R *>(sh + L.t), *Z = reinterpret_cast<R *>(CS); // SOLVE: T' (d, e), z (in c)
    R *PR = reinterpret_cast<R *>(V);                                       // SOLVE: PCR's rows (v, w)
    const R nan = R(NAN);
    for (long long sys = blockIdx.x; sys < p.batch; sys += gridDim.x) {
        R amax;
        bool bad = he_load(p, W, sys, tm, &amax);
        if (SOLVE) { // a non-finite b too (uniform)
            bool bb = false;
            for (int i = t; i < n * p.nrhs; i += nt)
                bb |= !finite_t(p.B[sys * n * p.nrhs + i]);
            bad = tm.any(bb) || bad;
        }
        if (bad) { // non-finite input: info -1, NaN out
            if (SOLVE) {
                for (int i = t; i < n * p.nrhs; i += nt)
                    p.B[sys * n * p.nrhs + i] = C{nan, nan};
            } else {
                for (int i = t; i < n; i += nt)
                    p.d[sys * n + i] = nan;
                for (int i = t; i + 1 < n; i += nt)
                    p.e[sys * (n - 1) + i] = nan;
                if (p.Q != nullptr)
                    for (long long i = t; i < (long long)n * n; i += nt)
                        p.Q[sys * n * n + i] = C{nan, nan};
            }
            if (t == 0)
                p.info[sys] = -1;
            continue; // (nothing of this system is read again; a thread writes the B it read)
        }
        tm.after_reduce(); // the loaded matrix is complete
        const pow2_scale<R> sc(amax);
        for (int idx = t; idx < int(packed_elems(n)); idx += nt)
            W[idx] = C{sc.down(W[idx].re), sc.down(W[idx].im)};
        tm.sync(); // the scaled matrix is complete
        for (int k = 0; k + 2 < n; k++)
            if (HEAD && k < p.c0)
                he_step(W, V, Wv, TAU, CS, n, k, tm);
            else
                he_step(Wt, V, Wv, TAU, CS, n, k, tm);
        tm.sync(); // the last update is done
        for (int i = t; i < n; i += nt) {
            const R di = W[at(i, i)].re; // T's diagonal (scaled)
            if (SOLVE) {
                TD[i] = di;
                if (p.dT != nullptr)
                    p.dT[sys * n + i] = di;
            } else {
                p.d[sys * n + i] = sc.up(di);
            }
        }
        if (t == 0) {
            // the phases: s_0 = 1, s_{k+1} = s_k c_k / |c_k|; e_k = |c_k|
            if (n >= 2)
                CS[n - 2] = W[at(n - 1, n - 2)];
            S[0] = C{R(1), R(0)};
            for (int k = 0; k + 1 < n; k++) {
                const R a = hypot(CS[k].re, CS[k].im);
                if (SOLVE)
                    TD[n + k] = a;
                else
                    p.e[sys * (n - 1) + k] = sc.up(a);
                S[k + 1] = a > R(0) ? S[k] * C{CS[k].re / a, CS[k].im / a} : S[k];
            }
            if (SOLVE) {
                TD[2 * n - 1] = R(0);
                if (p.eT != nullptr)
                    for (int k = 0; k < n; k++)
                        p.eT[sys * n + k] = TD[n + k];
            } else {
                p.info[sys] = 0;
            }
        }
        tm.sync(); // the phases (and T') are visible
        if (SOLVE) {
            const int info = he_solve<R, NR, HEAD>(p, sys, W, Wt, TAU, S, TD, Z, PR, sc);
            if (info != 0)
                for (int i = t; i < n * p.nrhs; i += nt)
                    p.B[sys * n * p.nrhs + i] = C{nan, nan};
            if (t == 0)
                p.info[sys] = info;
        } else if (p.Q != nullptr) {
            he_form_q<R, NR, HEAD>(W, Wt, p.c0, TAU, S, n, p.Q + sys * n * n);
        }
        tm.sync(); // everyone is done with W (and B) before the next system's load
    }
}

// The kernel for n (NR rows a lane in forming Q and in the solve; a warp
// team where the block is one warp, n <= 33; HEAD where the matrix's first
// columns live in global memory, above complex float 237 and complex double
// 168; SOLVE for the TRIDIAG solve).
template <typename R, bool SOLVE> void (*he_trd_kernel_for(int n, bool head))(he_args<R>)
{
    return n <= 32    ? he_trd_kernel<R, 1, true, false, SOLVE>
           : n <= 33  ? he_trd_kernel<R, 2, true, false, SOLVE>
           : n <= 64  ? he_trd_kernel<R, 2, false, false, SOLVE>
           : n <= 128 ? he_trd_kernel<R, 4, false, false, SOLVE>
           : head     ? he_trd_kernel<R, 8, false, true, SOLVE>
                      : he_trd_kernel<R, 8, false, false, SOLVE>;
}

bsym_status he_size_error(int64_t n, int most, const char *what, char *msg, size_t msglen)
{
    std::snprintf(msg, msglen, "n = %lld is outside 1..%d, the sizes of the GPU's complex Hermitian %s", (long long)n,
                  most, what);
    return BSYM_ERR_SIZE;
}

// Launches the reduction on a.batch device-resident systems (a's arrays
// set; the rest here): the packed matrix's tail in shared memory, whole
// columns c0..n-1, all of it where it fits; SOLVE: the TRIDIAG solve too.
template <typename R, bool SOLVE> bsym_status he_trd_run(he_args<R> a, cudaStream_t s, char *msg, size_t msglen)
{
    const int n = a.n;
    if (n < 1 || n > BSYM_GPU_HOUSEHOLDER_MAX_N)
        return he_size_error(n, BSYM_GPU_HOUSEHOLDER_MAX_N, SOLVE ? "solves" : "tridiagonalization", msg, msglen);
    if (a.batch == 0)
        return BSYM_OK;
    int dev = 0, sms = 0, optin = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const size_t elem = sizeof(cx<R>);
    const int threads = std::max(32, bsym_hh::block_threads(n, 1)); // a row each of the first trailing matrix
    const int P = int(packed_elems(n));
    // the fixed arrays, the team's scratch (the warp team's is less) and the
    // solve's reduction buffers (static)
    const size_t fixed = size_t(he_layout(n, 0, SOLVE).size) * elem + BLOCK_TEAM_SCRATCH +
                         (SOLVE ? sizeof(bsym_hh::reduce_bufs<R>) : 0);
    const size_t room = size_t(optin) > fixed ? (size_t(optin) - fixed) / elem : 0;
    int c0 = 0;
    while (size_t(P - lower_packed{n}.col(c0)) > room)
        c0++;
    const int tail = P - lower_packed{n}.col(c0);
    const size_t smem = size_t(he_layout(n, tail, SOLVE).size) * elem;
    auto kernel = he_trd_kernel_for<R, SOLVE>(n, tail < P);
    BSYM_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    int per_sm = 0;
    BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    int64_t grid = std::min<int64_t>(a.batch, int64_t(std::max(per_sm, 1)) * sms);
    a.ws = nullptr;
    a.split = P - tail;
    a.tail = tail;
    a.c0 = c0;
    if (a.split > 0) {
        const size_t slot = size_t(a.split) * elem;
        grid = std::max<int64_t>(1, std::min<int64_t>(grid, int64_t(HE_WS_MAX / slot)));
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&a.ws), size_t(grid) * slot, s));
    }
    kernel<<<unsigned(grid), threads, smem, s>>>(a);
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t freed = a.ws != nullptr ? cudaFreeAsync(a.ws, s) : cudaSuccess;
    BSYM_CUDA_TRY(launched);
    BSYM_CUDA_TRY(freed);
    return BSYM_OK;
}

// The reduction of `batch` device-resident systems on stream s (Q nullptr:
// not formed).
template <typename R>
bsym_status he_trd_launch(char uplo, int n, int64_t batch, const cx<R> *A, R *d, R *e, cx<R> *Q, int *info,
                          cudaStream_t s, char *msg, size_t msglen)
{
    he_args<R> a{A, uplo, n, (long long)batch, d, e, Q, info, nullptr, 0, 0, 0, nullptr, 0, nullptr, nullptr};
    return he_trd_run<R, false>(a, s, msg, msglen);
}

// V = Q Z for each system (Q complex, Z real, n x n): a block computes a TS
// x TS tile of V, its TS x (TS / 4) threads four entries each (thread (tx,
// ty): rows i0 + tx, columns j0 + ty + q TS / 4, q = 0..3, so that a value
// of Q read from shared memory serves four products and the warp's reads
// of Z are broadcasts), over chunks of TS columns of Q and rows of Z staged
// in shared memory; blocks loop over the systems. Z's NaN columns (not
// selected, failed) give NaN columns of V, as the real eigensolvers' V.
template <typename R, int TS>
__global__ void __launch_bounds__(TS *TS / 4) he_back_kernel(int n, long long batch, const cx<R> *Q, const R *Z,
                                                             cx<R> *V)
{
    typedef cx<R> C;
    constexpr int TY = TS / 4; // threads a column of the block
    __shared__ C qs[TS][TS + 1];
    __shared__ R zs[TS][TS + 1];
    const int tx = threadIdx.x % TS, ty = threadIdx.x / TS, tiles = (n + TS - 1) / TS;
    const int i0 = (blockIdx.y % tiles) * TS, j0 = (blockIdx.y / tiles) * TS, i = i0 + tx;
    for (long long sys = blockIdx.x; sys < batch; sys += gridDim.x) {
        const C *q = Q + sys * n * n;
        const R *z = Z + sys * n * n;
        C acc[4] = {};
        for (int l0 = 0; l0 < n; l0 += TS) {
#pragma unroll
            for (int u = 0; u < 4; u++) { // qs[c][r] = Q(i0 + r, l0 + c), zs[c][r] = Z(l0 + r, j0 + c)
                const int c = ty + u * TY;
                qs[c][tx] = i < n && l0 + c < n ? q[i + (long long)(l0 + c) * n] : C{R(0), R(0)};
                zs[c][tx] = l0 + tx < n && j0 + c < n ? z[l0 + tx + (long long)(j0 + c) * n] : R(0);
            }
            __syncthreads();
            const int lmax = min(TS, n - l0); // (the last chunk: its columns past n are zeros, not summed)
#pragma unroll 8
            for (int l = 0; l < lmax; l++) {
                const C a = qs[l][tx];
#pragma unroll
                for (int u = 0; u < 4; u++)
                    acc[u] = acc[u] + a * zs[ty + u * TY][l];
            }
            __syncthreads();
        }
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const int j = j0 + ty + u * TY;
            if (i < n && j < n)
                V[sys * n * n + i + (long long)j * n] = acc[u];
        }
    }
}

// The same product for n <= HE_BACK_SMALL: a thread an entry of V (threads
// in a row of a warp share their column of Z, read as a broadcast, and read
// consecutive entries of a column of Q), from global memory (the L1 cache
// holds a system's Q and Z); a tile per block would leave most of its
// threads idle.
constexpr int HE_BACK_SMALL = 16;
template <typename R>
__global__ void __launch_bounds__(256) he_back_small_kernel(int n, long long batch, const cx<R> *Q, const R *Z,
                                                            cx<R> *V)
{
    typedef cx<R> C;
    const long long nn = (long long)n * n, total = nn * batch;
    for (long long t = blockIdx.x * 256LL + threadIdx.x; t < total; t += gridDim.x * 256LL) {
        const long long sys = t / nn;
        const int e = int(t - sys * nn), i = e % n, j = e / n;
        const C *q = Q + sys * nn + i;
        const R *z = Z + sys * nn + (long long)j * n;
        C acc{R(0), R(0)};
        for (int l = 0; l < n; l++)
            acc = acc + q[(long long)l * n] * z[l];
        V[t] = acc;
    }
}

template <typename R>
bsym_status he_back_launch(int n, int64_t batch, const cx<R> *Q, const R *Z, cx<R> *V, cudaStream_t s,
                           char *msg, size_t msglen)
{
    if (n <= HE_BACK_SMALL) {
        const long long total = (long long)n * n * batch;
        he_back_small_kernel<R><<<unsigned(std::min<long long>((total + 255) / 256, 1LL << 20)), 256, 0, s>>>(
            n, batch, Q, Z, V);
    } else {
        constexpr int TS = 32;
        const int tiles = (n + TS - 1) / TS;
        const dim3 grid(unsigned(std::min<int64_t>(batch, 65535)), unsigned(tiles * tiles));
        he_back_kernel<R, TS><<<grid, TS * TS / 4, 0, s>>>(n, batch, Q, Z, V);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// The eigensolver on `batch` device-resident systems: d, e (n and n - 1 a
// system) and, with vectors, Qs (complex n x n) and Z (real n x n) scratch.
template <typename R>
bsym_status he_eig_run(char uplo, int n, int64_t batch, const cx<R> *A, R *d, R *e, cx<R> *Qs, R *Z,
                       const bsym_select &sel, R *w, cx<R> *V, int *count, int *info, cudaStream_t s, char *msg,
                       size_t msglen)
{
    if (n < 1 || n > BSYM_GPU_EIGEN_MAX_N)
        return he_size_error(n, BSYM_GPU_EIGEN_MAX_N, "eigensolvers", msg, msglen);
    if (batch == 0)
        return BSYM_OK;
    const bool vectors = V != nullptr;
    bsym_status st = he_trd_launch<R>(uplo, n, batch, A, d, e, vectors ? Qs : nullptr, info, s, msg, msglen);
    // T's eigenvalues (and Z): the real tridiagonal path; a system whose
    // reduction saw non-finite input has d, e NaN, and so info -1 there too
    if (st == BSYM_OK)
        st = bsym_cuda::eig_launch<R>('L', n, batch, nullptr, d, e, sel, w, vectors ? Z : nullptr, count, info, s,
                                      msg, msglen);
    if (st == BSYM_OK && vectors)
        st = he_back_launch<R>(n, batch, Qs, Z, V, s, msg, msglen);
    return st;
}

// The complex TRIDIAG solve of `batch` device-resident systems (B n x
// nrhs a system, in place; dT, eT: see he_args).
template <typename R>
bsym_status he_hhsolve_run(char uplo, int n, int nrhs, int64_t batch, const cx<R> *A, cx<R> *B, int *info, R *dT,
                           R *eT, cudaStream_t s, char *msg, size_t msglen)
{
    he_args<R> a{A, uplo, n, (long long)batch, nullptr, nullptr, nullptr, info, nullptr, 0, 0, 0, B, nrhs, dT, eT};
    return he_trd_run<R, true>(a, s, msg, msglen);
}

// ---- host arrays through the pipeline -----------------------------------
struct he_host_args {
    char uplo;
    int n;
    bool vectors;
    bsym_select sel;
    int nrhs; // the solve's
};

// Pipeline arrays: A, d, e, info, [Q].
template <typename R>
bsym_status he_trd_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const he_host_args &h = *static_cast<const he_host_args *>(arg);
    return he_trd_launch<R>(h.uplo, h.n, count, static_cast<const cx<R> *>(dev[0]), static_cast<R *>(dev[1]),
                            static_cast<R *>(dev[2]), h.vectors ? static_cast<cx<R> *>(dev[4]) : nullptr,
                            static_cast<int *>(dev[3]), s, msg, msglen);
}

// Pipeline arrays: A, w, V, count, info, and scratch d, e, Q, Z.
template <typename R>
bsym_status he_eig_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const he_host_args &h = *static_cast<const he_host_args *>(arg);
    return he_eig_run<R>(h.uplo, h.n, count, static_cast<const cx<R> *>(dev[0]), static_cast<R *>(dev[5]),
                         static_cast<R *>(dev[6]), static_cast<cx<R> *>(dev[7]), static_cast<R *>(dev[8]), h.sel,
                         static_cast<R *>(dev[1]), h.vectors ? static_cast<cx<R> *>(dev[2]) : nullptr,
                         static_cast<int *>(dev[3]), static_cast<int *>(dev[4]), s, msg, msglen);
}

// Pipeline arrays: A, B, info.
template <typename R>
bsym_status he_hhsolve_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const he_host_args &h = *static_cast<const he_host_args *>(arg);
    return he_hhsolve_run<R>(h.uplo, h.n, h.nrhs, count, static_cast<const cx<R> *>(dev[0]),
                             static_cast<cx<R> *>(dev[1]), static_cast<int *>(dev[2]), nullptr, nullptr, s, msg,
                             msglen);
}

} // namespace

namespace bsym_cuda {

// H: the host's element type (complex double under complex float
// arithmetic: the pipeline converts the parts while it packs).
template <typename T, typename H> bsym_status he_hhsolve_op(const bsym__exec *x, const bsym__job *j)
{
    typedef typename part_of<T>::type R;
    const int64_t n = j->n;
    if (n < 1 || n > BSYM_GPU_HOUSEHOLDER_MAX_N)
        return he_size_error(n, BSYM_GPU_HOUSEHOLDER_MAX_N, "solves", x->msg, x->msglen);
    const he_host_args h{j->uplo, int(n), false, {}, int(j->nrhs)};
    const bsym_array arrays[3] = {
        host_matrix<T>(static_cast<const H *>(j->A), n, j->uplo), // the Hermitian triangle
        host_data<T>(static_cast<const H *>(j->B), static_cast<H *>(j->B), size_t(n * j->nrhs)),
        {nullptr, j->info, sizeof(int)},
    };
    return bsym_pipeline(x, arrays, 3, j->batch, he_hhsolve_chunk<R>, const_cast<he_host_args *>(&h));
}

template <typename R>
bsym_status he_hhsolve_device(char uplo, int n, int nrhs, int64_t batch, const cx<R> *A, cx<R> *B, int *info, R *dT,
                              R *eT, cudaStream_t s, char *msg, size_t msglen)
{
    return he_hhsolve_run<R>(uplo, n, nrhs, batch, A, B, info, dT, eT, s, msg, msglen);
}

template <typename R>
bsym_status he_eig_device(char uplo, int n, int64_t batch, const cx<R> *A, R *d, R *e, cx<R> *Qs, R *Z,
                          const bsym_select &sel, R *w, cx<R> *V, int *count, int *info, cudaStream_t s, char *msg,
                          size_t msglen)
{
    return he_eig_run<R>(uplo, n, batch, A, d, e, Qs, Z, sel, w, V, count, info, s, msg, msglen);
}

template <typename T> bsym_status he_tridiagonalize_op(const bsym__exec *x, const bsym__job *j)
{
    typedef typename part_of<T>::type R;
    const int64_t n = j->n;
    if (n < 1 || n > BSYM_GPU_HOUSEHOLDER_MAX_N)
        return he_size_error(n, BSYM_GPU_HOUSEHOLDER_MAX_N, "tridiagonalization", x->msg, x->msglen);
    const he_host_args h{j->uplo, int(n), j->Q != nullptr, {}};
    const bsym_array arrays[5] = {
        host_matrix<T>(static_cast<const T *>(j->A), n, j->uplo), // the Hermitian triangle
        {nullptr, j->d, size_t(n) * sizeof(R)},
        {nullptr, j->e, size_t(n - 1) * sizeof(R)},
        {nullptr, j->info, sizeof(int)},
        {nullptr, j->Q, size_t(n * n) * sizeof(T)},
    };
    return bsym_pipeline(x, arrays, h.vectors ? 5 : 4, j->batch, he_trd_chunk<R>, const_cast<he_host_args *>(&h));
}

template <typename T> bsym_status he_eig_op(const bsym__exec *x, const bsym__job *j)
{
    typedef typename part_of<T>::type R;
    const int64_t n = j->n;
    if (n < 1 || n > BSYM_GPU_EIGEN_MAX_N)
        return he_size_error(n, BSYM_GPU_EIGEN_MAX_N, "eigensolvers", x->msg, x->msglen);
    const bool vectors = j->V != nullptr;
    const he_host_args h{j->uplo, int(n), vectors, *j->sel};
    const size_t rs = sizeof(R), nn = size_t(n * n), vec = vectors ? 1 : 0;
    const bsym_array arrays[9] = {
        host_matrix<T>(static_cast<const T *>(j->A), n, j->uplo), // the Hermitian triangle
        {nullptr, j->w, size_t(n) * rs},
        {nullptr, j->V, vec * nn * sizeof(T)},
        {nullptr, j->count, sizeof(int)},
        {nullptr, j->info, sizeof(int)},
        {nullptr, nullptr, size_t(n) * rs},          // d
        {nullptr, nullptr, size_t(n - 1) * rs},      // e
        {nullptr, nullptr, vec * nn * sizeof(T)},    // Q
        {nullptr, nullptr, vec * nn * rs},           // Z
    };
    return bsym_pipeline(x, arrays, 9, j->batch, he_eig_chunk<R>, const_cast<he_host_args *>(&h));
}

// Device-resident (benchmarks): the scratch allocated on the stream.
template <typename T>
bsym_status he_eig_launch(char uplo, int n, int64_t batch, const void *A, void *w, void *V, const bsym_select &sel,
                          int *count, int *info, cudaStream_t s, char *msg, size_t msglen)
{
    typedef typename part_of<T>::type R;
    if (n < 1 || n > BSYM_GPU_EIGEN_MAX_N)
        return he_size_error(n, BSYM_GPU_EIGEN_MAX_N, "eigensolvers", msg, msglen);
    const size_t nn = size_t(n) * n, b = size_t(batch);
    const size_t bytes = b * (2 * size_t(n) * sizeof(R) + (V != nullptr ? nn * (sizeof(T) + sizeof(R)) : 0));
    char *scratch = nullptr;
    if (batch > 0)
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&scratch), bytes, s));
    R *d = reinterpret_cast<R *>(scratch), *e = d + b * n;
    cx<R> *Qs = V != nullptr ? reinterpret_cast<cx<R> *>(e + b * n) : nullptr;
    R *Z = V != nullptr ? reinterpret_cast<R *>(Qs + b * nn) : nullptr;
    const bsym_status st = he_eig_run<R>(uplo, n, batch, static_cast<const cx<R> *>(A), d, e, Qs, Z, sel,
                                         static_cast<R *>(w), static_cast<cx<R> *>(V), count, info, s, msg, msglen);
    if (scratch != nullptr)
        BSYM_CUDA_TRY(cudaFreeAsync(scratch, s));
    return st;
}

template <typename T>
bsym_status he_tridiagonalize_launch(char uplo, int n, int64_t batch, const void *A, void *d, void *e, void *Q,
                                     int *info, cudaStream_t s, char *msg, size_t msglen)
{
    typedef typename part_of<T>::type R;
    return he_trd_launch<R>(uplo, n, batch, static_cast<const cx<R> *>(A), static_cast<R *>(d),
                            static_cast<R *>(e), static_cast<cx<R> *>(Q), info, s, msg, msglen);
}

#define BSYM_HETRD_INSTANTIATE(T)                                                                       \
    template bsym_status he_tridiagonalize_op<T>(const bsym__exec *, const bsym__job *);              \
    template bsym_status he_eig_op<T>(const bsym__exec *, const bsym__job *);                         \
    template bsym_status he_eig_launch<T>(char, int, int64_t, const void *, void *, void *,           \
                                          const bsym_select &, int *, int *, cudaStream_t, char *, size_t); \
    template bsym_status he_tridiagonalize_launch<T>(char, int, int64_t, const void *, void *, void *, \
                                                     void *, int *, cudaStream_t, char *, size_t);
BSYM_HETRD_INSTANTIATE(cx<float>)
BSYM_HETRD_INSTANTIATE(cx<double>)
#define BSYM_HETRD_DEVICE_INSTANTIATE(R)                                                                \
    template bsym_status he_hhsolve_op<cx<R>>(const bsym__exec *, const bsym__job *);                 \
    template bsym_status he_hhsolve_device<R>(char, int, int, int64_t, const cx<R> *, cx<R> *, int *, R *, \
                                              R *, cudaStream_t, char *, size_t);                       \
    template bsym_status he_eig_device<R>(char, int, int64_t, const cx<R> *, R *, R *, cx<R> *, R *,    \
                                          const bsym_select &, R *, cx<R> *, int *, int *, cudaStream_t, \
                                          char *, size_t);
BSYM_HETRD_DEVICE_INSTANTIATE(float)
template bsym_status he_hhsolve_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);
BSYM_HETRD_DEVICE_INSTANTIATE(double)

} // namespace bsym_cuda
