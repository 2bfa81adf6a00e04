// householder_block.cu -- the GPU Householder kernels for 64 < n <= 256
// (BSYM_GPU_HOUSEHOLDER_MAX_N): batched tridiagonalization A = Q T Q^T
// (d, e, optionally Q) and the BSYM_METHOD_TRIDIAG solve (Householder, PCR on
// T with z = Q^T b, x = Q y), with the results, layouts and info codes of the
// warp kernel of householder.cu (n <= 64), which hands these sizes over here.
//
// A block per system. At n > 64 the warp kernel's matrix-in-registers no
// longer fits (a row of 256 doubles is 512 registers), so the matrix lives in
// shared memory, and only its lower triangle: packed by columns (column j
// holds rows j..n-1 at off(j) = j n - j (j - 1) / 2), 32 896 elements at
// n = 256, 129 KB in float (a full n x n would be 256 KB, more than a block
// may have). Where it does not fit (double above n ~ 230 on the H100's
// 227 KB; smaller n on GPUs with less shared memory), its first c0 columns
// live in a per-block global workspace (the "head", at most ~50 KB a block
// on the H100, L2-resident) and the rest stay in shared memory: the head is
// touched only by the first c0 steps, whose share of the work is small
// (from double n = 232 on the H100; at n = 256, c0 = 26 of 256 steps, about
// 3 % of the accesses), so throughput does not fall off a cliff where the head starts, as
// it would with the whole matrix in global memory. Such kernels are
// persistent (a grid of the resident blocks; each loops over systems) so
// that the workspace is per block, allocated on the stream by the launcher
// (cudaMallocAsync), whatever the batch; the pipeline needs no scratch array.
//
// Threads: one per row below the first, 32 ceil((n - 1) / 32) of them (64
// at n = 65, 256 at n = 256), thread t owning row t + 1 at every step (the
// rows done with leave whole warps idle); for n <= 128 (the kernel's NMAX =
// 64 and 128), where fewer registers let more systems run at once, some n
// take rows t + 1 and t + 1 + nt instead (RB = 2 rows a thread: float up to
// 88, double between 34 and 44; launch_small gives the measurements). Step k (LAPACK's lower order, sytd2), three barriers:
//   1. alpha = W(k+1, k), sig = ||W(k+2:n, k)||^2 (block reduction), the
//      reflector H_k = I - tau v v^T (bsym_hh::reflector, as the warp kernel);
//      beta is e_k;
//   2. p_i = tau (W v)_i, thread i reading the whole row i of the symmetric
//      W from the lower triangle (row part then column part: every thread
//      the same trip count n - k - 1) and v from column k; K = tau / 2 p.v
//      (block reduction), w = p - K v; v then overwrites column k below the
//      diagonal (v_{k+1} = 1 stored);
//   3. W -= v w^T + w v^T on the lower trailing triangle, thread i its row
//      (v_i, w_i in registers, (v_j, w_j) read as one pair, a broadcast).
// The diagonal is never overwritten: d_i = W(i, i) at the end. The input is
// scaled by a power of two first (bsym_hh::pow2_scale), T unscaled at the end.
// Q = H_0 ... H_{n-3} and the products Q^T b, Q y are applied by warps,
// columns of Q (2 or 4 at once) or a right-hand side per warp held in
// registers (lane l rows l + 32 r), reflector after reflector with warp
// shuffles only. The solve on
// T is PCR in shared memory by the whole block (bsym::pcr_shared), accepted
// or redone with pivoting exactly as in the warp kernel (bsym_hh::pcr_accept).
// The reduction is unblocked (sytd2): a sytrd-like panel of reflectors with
// a rank-2k update would cut step 3's shared-memory traffic; not done yet.
#include <algorithm>
#include <climits>
#include <cstdio>

#include "common.cuh"
#include "householder.cuh"
#include "pcr.cuh"

namespace {

using bsym::finite;
using namespace bsym_hh;



// Start of column j in the packed lower triangle of an n x n matrix (also the
// number of elements of columns 0..j-1).
__host__ __device__ __forceinline__ int col_start(int n, int j)
{
    return j * n - j * (j - 1) / 2;
}


// ---- the packed lower triangle ---------------------------------------------
// Element (i, j), i >= j, at index col_start(n, j) + i - j; columns < c0 in
// the global head (HEAD), the others in shared memory (tail, from column c0).
template <typename T, bool HEAD> struct packed {
    T *tail, *head;
    int n, c0, tail0; // tail0 = col_start(n, c0)

    __host__ __device__ __forceinline__ T &elem(int idx, int col) const
    {
        if (HEAD && col < c0)
            return head[idx];
        return tail[HEAD ? idx - tail0 : idx];
    }
    __host__ __device__ __forceinline__ T &at(int i, int j) const { return elem(col_start(n, j) + i - j, j); }
};

// Shared memory of a block, in elements of T from the start: the packed tail
// (columns c0..n-1; an even count so that the pairs after it are aligned);
// VW, the pairs (v_j, w_j) of the current step; D, E, TAU (T and the
// reflectors' tau); PA, PB, PC, PF, the rows of PCR or of the pivoted
// fallback. Host and device compute it alike.
struct block_layout {
    int head, tail, vw, d, e, tau, pa, pb, pc, pf, size;
    __host__ __device__ block_layout(int n, int c0)
    {
        head = col_start(n, c0);
        tail = col_start(n, n) - head;
        int o = (tail + 1) & ~1;
        vw = o, o += 2 * n;
        d = o, o += n;
        e = o, o += n;
        tau = o, o += n;
        pa = o, o += n;
        pb = o, o += n;
        pc = o, o += n;
        pf = o, o += n;
        size = o;
    }
};

// (v_j, w_j) as one 8- or 16-byte load.
template <typename T> struct pair_of;
template <> struct pair_of<float> {
    using type = float2;
};
template <> struct pair_of<double> {
    using type = double2;
};

// ---- one step of the reduction ---------------------------------------------
// (symv_row and rank2_row, like packed, also compile for the host: a host
// emulation of the kernel's steps can check their index arithmetic.)

// sum_{j >= j0} W(i, j) W(j, k) for k < j0, any row i > k: row i of the
// symmetric W (lower triangle stored) times the part of column k from row
// j0. W(i, j) sits in column j while j <= i (index step n - 1 - j), then in
// column i (step 1); W(j, k) in column k (step 1). Every thread runs n - j0
// iterations.
template <typename T, bool HEAD>
__host__ __device__ __forceinline__ T symv_row(const packed<T, HEAD> &W, int i, int j0, int k)
{
    const int n = W.n;
    int idx = j0 <= i ? col_start(n, j0) + i - j0 : col_start(n, i) + j0 - i;
    int xidx = col_start(n, k) + j0 - k;
    T acc0 = T(0), acc1 = T(0); // two chains of multiply-adds
    int j = j0;
    for (; j + 1 < n; j += 2) {
        acc0 += W.elem(idx, min(i, j)) * W.elem(xidx, k);
        idx += j < i ? n - 1 - j : 1;
        acc1 += W.elem(idx, min(i, j + 1)) * W.elem(xidx + 1, k);
        idx += j + 1 < i ? n - 2 - j : 1;
        xidx += 2;
    }
    if (j < n)
        acc0 += W.elem(idx, min(i, j)) * W.elem(xidx, k);
    return acc0 + acc1;
}

// Row i of W -= v w^T + w v^T on columns j0..i.
template <typename T, bool HEAD>
__host__ __device__ __forceinline__ void rank2_row(const packed<T, HEAD> &W, const T *VW, int i, int j0, T vi, T wi)
{
    const int n = W.n;
    using P = typename pair_of<T>::type;
    int idx = col_start(n, j0) + i - j0;
#pragma unroll 4
    for (int j = j0; j <= i; j++) {
        const P vw = *reinterpret_cast<const P *>(VW + 2 * j);
        T &a = W.elem(idx, j);
        a -= vi * vw.y + wi * vw.x;
        idx += n - 1 - j;
    }
}

// Step k (k + 2 < n): H_k from column k, W <- H_k W H_k on the trailing
// matrix; E[k] = beta, TAU[k] = tau, v in column k. Thread t owns row i =
// t + 1 at every step (active while i > k), so that the x_i it reads from
// column k is the one its own update of the step before wrote. Three
// barriers a step: the two reductions' and one before the update; the next
// step's first reduction orders this update before anything reads it.
template <typename T, bool HEAD, int RB>
__device__ __forceinline__ void reduce_step(const packed<T, HEAD> &W, T *VW, T *E, T *TAU, T *red_sig, T *red_dot, int k)
{
    const int n = W.n, t = threadIdx.x, nt = blockDim.x;
    int i[RB];
    bool row[RB];
    T xi[RB], vi[RB], pi[RB];
    // 1. the reflector from x = W(k+1:n, k): sig = ||x(2:)||^2, alpha = x_1
    T sq = T(0);
#pragma unroll
    for (int b = 0; b < RB; b++) {
        i[b] = t + 1 + nt * b;
        row[b] = i[b] > k && i[b] < n;
        xi[b] = row[b] ? W.at(i[b], k) : T(0);
        sq += row[b] && i[b] > k + 1 ? xi[b] * xi[b] : T(0);
    }
    T sig = block_reduce(sq, red_sig, op_sum{});
    // (the reduction's barrier: every row's update of step k-1 is done)
    T alpha = W.at(k + 1, k), scale = T(1);
    if (alpha * alpha + sig < reflector_small<T>()) { // uniform: householder.cuh's reflector
        // (red_dot, then red_sig again: each reused after a later barrier)
        T mx = T(0);
#pragma unroll
        for (int b = 0; b < RB; b++)
            mx = max(mx, row[b] ? fabs(xi[b]) : T(0));
        scale = reflector_scale(block_reduce(mx, red_dot, op_max{}));
        sq = T(0);
#pragma unroll
        for (int b = 0; b < RB; b++)
            sq += row[b] && i[b] > k + 1 ? (xi[b] / scale) * (xi[b] / scale) : T(0);
        sig = block_reduce(sq, red_sig, op_sum{});
        alpha /= scale;
    }
    const reflector<T> h(alpha, sig, scale);
    // 2. p = tau W v, K = tau/2 p.v, w = p - K v; v_{k+1} = 1 and v_j = x_j
    //    inv read from column k itself (overwritten by v after the barrier)
    T pv = T(0);
#pragma unroll
    for (int b = 0; b < RB; b++) {
        vi[b] = !row[b] ? T(0) : i[b] == k + 1 ? T(1) : xi[b] * h.inv;
        pi[b] = row[b] ? h.tau * (W.at(i[b], k + 1) + h.inv * symv_row(W, i[b], k + 2, k)) : T(0);
        pv += pi[b] * vi[b];
    }
    const T dot = block_reduce(pv, red_dot, op_sum{});
    // (the reduction's barrier: everyone has read column k and the trailing
    // matrix, and the previous update has read VW)
    T wi[RB];
#pragma unroll
    for (int b = 0; b < RB; b++) {
        wi[b] = pi[b] - T(0.5) * h.tau * dot * vi[b];
        if (row[b]) {
            W.at(i[b], k) = vi[b];
            VW[2 * i[b]] = vi[b];
            VW[2 * i[b] + 1] = wi[b];
        }
    }
    if (t == 0) {
        E[k] = h.beta;
        TAU[k] = h.tau;
    }
    __syncthreads(); // v and w are visible
    // 3. the symmetric rank-2 update, row by row
#pragma unroll
    for (int b = 0; b < RB; b++)
        if (row[b])
            rank2_row(W, VW, i[b], k + 1, vi[b], wi[b]);
}

// ---- reflectors applied by one warp ------------------------------------------
// x_c -= tau_k v_k (v_k . x_c) for C vectors held by a warp as x[c][r] =
// x_c(lane + 32 r) (R = NMAX / 32 rows a lane); v_k in column k, rows
// k+1..n-1. The C dot products' shuffles interleave (C independent chains:
// the latency of a reflector is paid once for C vectors).
template <typename T, bool HEAD, int R, int C>
__device__ __forceinline__ void warp_reflect(const packed<T, HEAD> &W, const T *TAU, int k, int lane, T (&x)[C][R])
{
    const int n = W.n;
    T v[R], dot[C];
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = lane + 32 * r;
        v[r] = T(0);
        if (32 * r + 31 > k && i > k && i < n) // (the first test is the warp's: whole chunks above k skip)
            v[r] = W.at(i, k);
    }
#pragma unroll
    for (int c = 0; c < C; c++) {
        dot[c] = T(0);
#pragma unroll
        for (int r = 0; r < R; r++)
            dot[c] += v[r] * x[c][r];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
#pragma unroll
        for (int c = 0; c < C; c++)
            dot[c] += __shfl_xor_sync(bsym::FULL_MASK, dot[c], o);
    const T tau = TAU[k];
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
        for (int r = 0; r < R; r++)
            x[c][r] -= dot[c] * tau * v[r];
}

// Q = H_0 ... H_{n-3} into q (n x n, column-major): column j is
// H_0 ... H_{j-1} e_j (H_k e_j = e_j for k >= j). A warp takes C consecutive
// columns at once and runs the reflectors of the last one, k = j_last - 1
// down to 0: for an earlier column j, the H_k with k >= j meet x = e_j, whose
// dot with v_k is exactly 0, and leave it exactly as it is.
template <typename T, bool HEAD, int R>
__device__ __forceinline__ void form_q(const packed<T, HEAD> &W, const T *TAU, T *q)
{
    // columns a warp at once (registers: C R); measured on the H200 (batch
    // 2e4 to 1e5, eigenvectors, matrices/s) against C = 2 for R < 8: R = 4
    // with 4 float n = 128 3.85e5 -> 4.03e5, double 1.69e5 -> 1.74e5 (n =
    // 100 unchanged); R = 2 with 8 float n = 64 2.60e6 -> 2.66e6 but double
    // 1.50e6 -> 1.43e6..1.47e6 (double keeps 2 there)
    constexpr int C = R >= 4 ? 4 : sizeof(T) == 4 ? 8 : 2;
    const int n = W.n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int j0 = warp * C; j0 < n; j0 += warps * C) {
        T x[C][R];
#pragma unroll
        for (int c = 0; c < C; c++)
#pragma unroll
            for (int r = 0; r < R; r++)
                x[c][r] = lane + 32 * r == j0 + c ? T(1) : T(0);
        const int last = min(j0 + C, n) - 1;
        for (int k = min(last - 1, n - 3); k >= 0; k--)
            warp_reflect(W, TAU, k, lane, x);
#pragma unroll
        for (int c = 0; c < C; c++)
#pragma unroll
            for (int r = 0; r < R; r++)
                if (j0 + c < n && lane + 32 * r < n)
                    q[lane + 32 * r + (long long)(j0 + c) * n] = x[c][r];
    }
}

// The right-hand sides b (n x nrhs, in place): b <- Q^T b (TRANS) or Q b,
// a warp per right-hand side. Returns the first row (0-based) of a
// non-finite result this thread wrote, INT_MAX if none.
template <typename T, bool HEAD, int R>
__device__ __forceinline__ int apply_q(const packed<T, HEAD> &W, const T *TAU, T *b, int nrhs, bool trans)
{
    const int n = W.n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    int fail = INT_MAX;
    for (int q = warp; q < nrhs; q += warps) {
        T *bq = b + (long long)q * n;
        T x[1][R];
#pragma unroll
        for (int r = 0; r < R; r++)
            x[0][r] = lane + 32 * r < n ? bq[lane + 32 * r] : T(0);
        if (trans)
            for (int k = 0; k + 2 < n; k++)
                warp_reflect(W, TAU, k, lane, x);
        else
            for (int k = n - 3; k >= 0; k--)
                warp_reflect(W, TAU, k, lane, x);
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int i = lane + 32 * r;
            if (i < n) {
                bq[i] = x[0][r];
                if (!finite(x[0][r]))
                    fail = min(fail, i);
            }
        }
    }
    return fail;
}

// ---- the kernel ------------------------------------------------------------


// Reads system sys's matrix into W (triangle uplo of the full n x n A) and
// checks it (and, SOLVE, B): returns (to every thread) whether anything is
// not finite, and the largest |a_ij| in *amax.
template <typename T, bool HEAD, mode MODE>
__device__ __forceinline__ bool load_system(const hh_args<T> &p, const packed<T, HEAD> &W, long long sys, reduce_bufs<T> &red,
                            T *amax)
{
    const int n = W.n, t = threadIdx.x, nt = blockDim.x;
    const T *a = p.A + sys * (long long)n * n;
    T mx = T(0);
    bool bad = false;
    if (p.uplo == 'L') {
        // column j of A, rows j..n-1 (coalesced), to column j of W
        for (int j = 0; j < n; j++)
            for (int i = j + t; i < n; i += nt) {
                const T v = a[i + j * n];
                W.at(i, j) = v;
                bad |= !finite(v);
                mx = max(mx, abs(v));
            }
    } else {
        // column c of A, rows 0..c (coalesced), to row c of W: W(c, r) = A(r, c)
        for (int c = 0; c < n; c++)
            for (int r = t; r <= c; r += nt) {
                const T v = a[r + c * n];
                W.at(c, r) = v;
                bad |= !finite(v);
                mx = max(mx, abs(v));
            }
    }
    if (MODE == SOLVE) {
        const T *b = p.B + sys * (long long)n * p.nrhs;
        for (long long i = t; i < (long long)n * p.nrhs; i += nt)
            bad |= !finite(b[i]);
    }
    const int any_bad = block_reduce(bad ? 1 : 0, red.i[0], op_max{});
    *amax = block_reduce(mx, red.t[0], op_max{});
    return any_bad != 0;
}

// The whole packed matrix times s (the head, then the tail).
template <typename T, bool HEAD>
__device__ __forceinline__ void scale_matrix(const packed<T, HEAD> &W, const pow2_scale<T> &s, int tail_elems)
{
    const int t = threadIdx.x, nt = blockDim.x;
    if (HEAD)
        for (int i = t; i < W.tail0; i += nt)
            W.head[i] = s.down(W.head[i]);
    for (int i = t; i < tail_elems; i += nt)
        W.tail[i] = s.down(W.tail[i]);
}


// One block per system at a time (a loop over systems: the grid may hold
// fewer blocks than the batch, HEAD's are persistent). NMAX: 128 or 256, the
// register rows (NMAX / 32 a lane) of the warps' vectors. head_ws: HEAD's
// workspace, layout(n, c0).head elements per block.
// MINB, RB: the register limit (blocks an SM) and rows a thread (NMAX <= 128;
// the block's threads then at most NMAX / RB). The default MINB = RB = 1
// keeps MAX_THREADS as the bound, as the kernel had before the two were
// added (double NMAX = 128 reductions: 106 registers; with 128 as the
// bound, 117).
template <typename T, int NMAX, bool HEAD, mode MODE, int MINB = 1, int RB = 1>
__global__ void __launch_bounds__(NMAX <= 128 && (MINB > 1 || RB > 1) ? NMAX / RB : MAX_THREADS, MINB)
    householder_block_kernel(hh_args<T> p, T *head_ws, int c0)
{
    constexpr int R = NMAX / 32;
    extern __shared__ __align__(16) unsigned char bsym_hh_block_smem[];
    __shared__ reduce_bufs<T> red;
    const int n = p.n, t = threadIdx.x, nt = blockDim.x;
    const block_layout L(n, HEAD ? c0 : 0);
    T *sm = reinterpret_cast<T *>(bsym_hh_block_smem);
    const packed<T, HEAD> W{sm, HEAD ? head_ws + (long long)blockIdx.x * L.head : nullptr, n, HEAD ? c0 : 0,
                            L.head};
    T *VW = sm + L.vw, *D = sm + L.d, *E = sm + L.e, *TAU = sm + L.tau;
    const T nan = T(NAN);

    for (long long sys = blockIdx.x; sys < p.batch; sys += gridDim.x) {
        __syncthreads(); // the previous system is done with shared memory and the head
        T amax;
        const bool bad = load_system<T, HEAD, MODE>(p, W, sys, red, &amax);
        if (bad) {
            // -1; NaN results (the solve's T of a zeroed matrix is 0, as in
            // the warp kernel)
            if (t == 0)
                p.info[sys] = -1;
            if (MODE == TRIDIAGONALIZE) {
                for (int i = t; i < n; i += nt) {
                    p.d[sys * n + i] = nan;
                    if (i + 1 < n)
                        p.e[sys * (n - 1) + i] = nan;
                }
                if (p.Q != nullptr)
                    for (long long i = t; i < (long long)n * n; i += nt)
                        p.Q[sys * (long long)n * n + i] = nan;
            } else {
                if (p.d != nullptr)
                    for (int i = t; i < n; i += nt)
                        p.d[sys * n + i] = p.e[sys * n + i] = T(0);
                for (long long i = t; i < (long long)n * p.nrhs; i += nt)
                    p.B[sys * (long long)n * p.nrhs + i] = nan;
            }
            continue; // (uniform: every thread has the same verdict)
        }
        const pow2_scale<T> scale(amax);
        scale_matrix(W, scale, L.tail);
        __syncthreads(); // the scaled matrix is complete

        // ---- reduction to tridiagonal form ----------------------------------
        for (int k = 0; k + 2 < n; k++)
            reduce_step<T, HEAD, RB>(W, VW, E, TAU, red.t[1], red.t[2], k);
        __syncthreads(); // the last update is done
        // T, unscaled: the diagonal (never overwritten), the betas, and the
        // last off-diagonal (no reflector: n >= 2 here)
        for (int i = t; i < n; i += nt) {
            D[i] = scale.up(W.at(i, i));
            if (i + 1 < n)
                E[i] = scale.up(i == n - 2 ? W.at(n - 1, n - 2) : E[i]);
        }
        __syncthreads(); // T is final

        if (MODE == TRIDIAGONALIZE) {
            for (int i = t; i < n; i += nt) {
                p.d[sys * n + i] = D[i];
                if (i + 1 < n)
                    p.e[sys * (n - 1) + i] = E[i];
            }
            if (t == 0)
                p.info[sys] = 0;
            if (p.Q != nullptr)
                form_q<T, HEAD, R>(W, TAU, p.Q + sys * (long long)n * n);
            continue;
        }

        // ---- SOLVE: z = Q^T b, T y = z, x = Q y (all in B, in place) ---------
        // T itself when asked for (the automatic solve's conditioning test)
        if (p.d != nullptr)
            for (int i = t; i < n; i += nt) {
                p.d[sys * n + i] = D[i];
                p.e[sys * n + i] = i + 1 < n ? E[i] : T(0);
            }
        T *b = p.B + sys * (long long)n * p.nrhs;
        apply_q<T, HEAD, R>(W, TAU, b, p.nrhs, true);
        __syncthreads(); // z = Q^T b is in B for the whole block
        int fail = solve_t<RB>(D, E, sm + L.pa, sm + L.pb, sm + L.pc, sm + L.pf, b, n, p.nrhs, red);
        fail = min(fail, apply_q<T, HEAD, R>(W, TAU, b, p.nrhs, false));
        fail = block_reduce(fail, red.i[0], op_min{}); // (its barrier: x is in B)
        const int code = fail != INT_MAX ? fail + 1 : 0;
        if (t == 0)
            p.info[sys] = code;
        if (code != 0)
            for (long long i = t; i < (long long)n * p.nrhs; i += nt)
                b[i] = nan;
    }
}

// ---- launch ----------------------------------------------------------------

// Runs the kernel for NMAX and HEAD: dynamic shared memory for L, opted in
// above 48 KB; HEAD: a persistent grid and its workspace on the stream.
template <typename T, int NMAX, bool HEAD, mode MODE, int MINB = 1, int RB = 1>
bsym_status launch_kernel(const hh_args<T> &a, int c0, size_t smem, cudaStream_t stream, char *msg, size_t msglen)
{
    auto kernel = householder_block_kernel<T, NMAX, HEAD, MODE, MINB, RB>;
    const int threads = block_threads(a.n, RB);
    BSYM_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    long long blocks = a.batch < 0x7fffffffLL ? a.batch : 0x7fffffffLL;
    T *ws = nullptr;
    if (HEAD) {
        int dev = 0, sms = 0, per_sm = 0;
        BSYM_CUDA_TRY(cudaGetDevice(&dev));
        BSYM_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
        blocks = std::min<long long>(blocks, (long long)sms * std::max(per_sm, 1));
        const size_t bytes = size_t(blocks) * size_t(block_layout(a.n, c0).head) * sizeof(T);
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&ws), bytes, stream));
    }
    kernel<<<unsigned(blocks), threads, smem, stream>>>(a, ws, c0);
    const cudaError_t launched = cudaGetLastError();
    if (HEAD)
        BSYM_CUDA_TRY(cudaFreeAsync(ws, stream));
    BSYM_CUDA_TRY(launched);
    return BSYM_OK;
}

// n <= 128 (no head): NMAX (64 or 128), rows a thread (RB) and register
// limit (MINB blocks an SM) by n, measured on the H200 (bench_tridiag
// --parts b,c, batch 262144 up to n = 64, 2^28 / n^2 above; tridiag solve /
// tridiagonalize (d, e) / with Q, systems/s; RESULTS.md, session 30),
// against NMAX = 128 with one row a thread and no register limit (80 to 112
// registers):
//   float  n <= 48  NMAX 64, RB 2, MINB 32 (64 registers): n = 34 1.42e7 /
//                   1.95e7 / 1.35e7 -> 2.40e7 / 2.65e7 / 1.77e7; 48 9.09e6 /
//                   1.15e7 / 7.92e6 -> 1.48e7 / 1.58e7 / 1.10e7;
//          n <= 64  NMAX 64, RB 2, MINB 16 (96 registers): 64 5.94e6 /
//                   7.18e6 / 4.81e6 -> 8.31e6 / 9.00e6 / 6.38e6;
//          n <= 88  NMAX 128, RB 2, MINB 16 (64 threads): 65 5.73e6 / 7.00e6 /
//                   4.67e6 -> 7.40e6 / 8.69e6 / 4.97e6; 80 2.58e6 / 3.46e6 /
//                   2.47e6 -> 3.39e6 / 3.64e6 / 2.64e6 (two rows lose from
//                   96 on: tridiagonalize 2.60e6 -> 2.37e6);
//          above    NMAX 128, RB 1, MINB 6 (85 registers): the solve 128
//                   9.78e5 -> 1.08e6, the reductions as they were;
//   double 34..44   NMAX 64, RB 2, MINB 24 (80 registers): 34 1.02e7 / 1.27e7 /
//                   8.46e6 -> 1.74e7 / 1.96e7 / 1.27e7;
//          n <= 64  NMAX 64, RB 1, MINB 16 (64 registers, some spilled in the
//                   solve): 33 2.09e7 / 2.65e7 / 1.34e7 -> 2.66e7 / 3.44e7 /
//                   1.76e7; 64 4.15e6 / 4.66e6 / 2.98e6 -> 4.49e6 / 4.94e6 /
//                   3.21e6;
//          n <= 88  NMAX 128, RB 1, MINB 6: 65 4.02e6 / 4.52e6 / 2.92e6 ->
//                   4.36e6 / 5.15e6 / 3.00e6; 80 1.88e6 / 2.09e6 / 1.49e6 ->
//                   2.16e6 / 2.59e6 / 1.68e6;
//          above    NMAX 128, RB 1, no limit (MINB 6 loses: 96 solve 1.37e6
//                   -> 1.25e6).
template <typename T, mode MODE>
bsym_status launch_small(const hh_args<T> &a, size_t smem, cudaStream_t stream, char *msg, size_t msglen)
{
    const int n = a.n;
    if constexpr (sizeof(T) == 4) {
        if (n <= 48)
            return launch_kernel<T, 64, false, MODE, 32, 2>(a, 0, smem, stream, msg, msglen);
        if (n <= 64)
            return launch_kernel<T, 64, false, MODE, 16, 2>(a, 0, smem, stream, msg, msglen);
        if (n <= 88)
            return launch_kernel<T, 128, false, MODE, 16, 2>(a, 0, smem, stream, msg, msglen);
        return launch_kernel<T, 128, false, MODE, 6, 1>(a, 0, smem, stream, msg, msglen);
    } else {
        if (n >= 34 && n <= 44)
            return launch_kernel<T, 64, false, MODE, 24, 2>(a, 0, smem, stream, msg, msglen);
        if (n <= 64)
            return launch_kernel<T, 64, false, MODE, 16, 1>(a, 0, smem, stream, msg, msglen);
        if (n <= 88)
            return launch_kernel<T, 128, false, MODE, 6, 1>(a, 0, smem, stream, msg, msglen);
        return launch_kernel<T, 128, false, MODE, 1, 1>(a, 0, smem, stream, msg, msglen);
    }
}

} // namespace

namespace bsym_hh {

// Blocks a multiprocessor the head may buy (a build-time knob, untuned):
// with 2, a matrix that fits one block but not two (float above n = 231,
// double from 161 on the H100) gets up to n / 8 head columns where that
// makes two blocks fit, twice the warps to hide latency for a few accesses
// to L2. 1 (default): a head only where the matrix does not fit at all.
#ifndef BSYM_HH_HEAD_BLOCKS
#define BSYM_HH_HEAD_BLOCKS 1
#endif
constexpr int HEAD_BLOCKS = BSYM_HH_HEAD_BLOCKS;

// Picks the kernel for n: the whole packed matrix in shared memory when it
// fits this device (c0 = 0: NMAX = 64 or 128 for n <= 128, see
// launch_small; else 256), else the fewest head columns c0 that make the
// rest fit (NMAX = 256, HEAD); see HEAD_BLOCKS.
template <typename T, mode MODE>
bsym_status block_launch(const hh_args<T> &a, cudaStream_t stream, char *msg, size_t msglen)
{
    if (a.n <= WARP_MAX_N || a.n > BSYM_GPU_HOUSEHOLDER_MAX_N || (a.uplo != 'L' && a.uplo != 'U')) {
        std::snprintf(msg, msglen, "no GPU Householder block kernel for n = %d", a.n);
        return BSYM_ERR_ARG;
    }
    if (a.batch == 0)
        return BSYM_OK;
    int dev = 0, optin = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    // the static shared memory (reduction buffers) comes off the opt-in limit
    const size_t avail = size_t(optin) - sizeof(reduce_bufs<T>);
    int c0 = 0;
    while (c0 < a.n && size_t(block_layout(a.n, c0).size) * sizeof(T) > avail)
        c0++;
    if (HEAD_BLOCKS > 1) {
        // more head columns, at most n / 8 (about 5 % of the accesses), when
        // they make HEAD_BLOCKS blocks fit a multiprocessor (1 KB of each
        // block's shared memory is the system's)
        int per_sm = 0;
        BSYM_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
        const size_t share = size_t(per_sm) / HEAD_BLOCKS - 1024 - sizeof(reduce_bufs<T>);
        int c = c0;
        while (c < a.n / 8 && size_t(block_layout(a.n, c).size) * sizeof(T) > share)
            c++;
        if (size_t(block_layout(a.n, c).size) * sizeof(T) <= share)
            c0 = c;
    }
    const size_t smem = size_t(block_layout(a.n, c0).size) * sizeof(T);
    if (smem > avail) {
        std::snprintf(msg, msglen, "the GPU Householder block kernel for n = %d needs %zu bytes of shared memory",
                      a.n, smem);
        return BSYM_ERR_ARG;
    }
    if (c0 > 0)
        return launch_kernel<T, 256, true, MODE>(a, c0, smem, stream, msg, msglen);
    if (a.n <= 128)
        return launch_small<T, MODE>(a, smem, stream, msg, msglen);
    return launch_kernel<T, 256, false, MODE>(a, 0, smem, stream, msg, msglen);
}

#define BSYM_HH_BLOCK_INSTANTIATE(T)                                                                        \
    template bsym_status block_launch<T, TRIDIAGONALIZE>(const hh_args<T> &, cudaStream_t, char *, size_t); \
    template bsym_status block_launch<T, SOLVE>(const hh_args<T> &, cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_HH_BLOCK_INSTANTIATE)

} // namespace bsym_hh
