// ldlt_block.cu -- batched LDL^T solve without pivoting for 64 < n <= 256 on
// the GPU: one thread block a system, the matrix in shared memory, a blocked
// right-looking factorization whose rank-NB updates run from registers.
// Same arguments and per-system semantics as ldlt.cu's kernel (uplo, nrhs,
// info), which serves n <= 64 from registers alone; and, like ldlt.cu's
// SEQUENTIAL kernels, a certifying form (template CERT) for method AUTO's
// LDL^T start (common.cuh's ldlt_cert; the numerics are
// core/strategy_numerics.h's): a pivot that is not positive is a breakdown
// too; the norms of A give the shift sigma; beside the first right-hand
// sides' substitutions the last two warps solve M y = e and M^T z = e with
// the comparison matrix M of L (the cheap form, min D > sigma ||y|| ||z||);
// the whole block takes each solution's backward error against A and b as
// given (row t by thread t; A re-read from global memory, b before x
// overwrites it); and only where a system passes all that but the cheap
// form fails is A - sigma I loaded and factored for the signs of its
// pivots. The verdict: certified (rank n, used LDLT) or listed for the
// steps after.
//
// Layout of the work:
//  - a persistent grid: block b solves systems b, b + gridDim.x, ...; NT
//    threads a block (NT >= the padded order N below: thread r owns row r
//    of the matrix in the panel steps);
//  - padding in front: the system is embedded as the trailing n x n block of
//    an order N = n rounded up to the panel width NB, the leading N - n
//    rows and columns an identity. Their factorization is the identity too
//    and leaves the rest alone, so every panel is full (NB columns, every
//    loop bound fixed at compile time), and the waste stays inside the first
//    panel: the trailing updates, the O(N^3) part, only ever touch real rows.
//    (Padding at the end would cost (N/n)^3 in the updates, up to 1.7x at
//    n = 81 for NB = 16, a step in throughput.)
//  - the lower triangle of the padded matrix lives in 4 x 4 tiles (TB = 4),
//    rows of tiles one after the other (row I, tiles K = 0..I, from 16
//    I(I+1)/2 on); the diagonal tiles are stored whole, their upper slots
//    zero (or, after the updates, values that nothing reads). Within a row
//    of tiles, column kk of every tile comes together: a strip of I + 1
//    four-value words, word K holding rows 4I..4I+3 of column 4K + kk (see
//    at()). So the threads of a warp updating neighbouring tiles K of one
//    row read and write consecutive 16-byte words, one column at a time (no
//    bank conflicts; with each tile's 16 values together, the 64-byte
//    stride between the threads made every such access 4-way conflicted
//    in float, 45 % of all shared-memory wavefronts at n = 128 by Nsight
//    Compute), and L(4I..4I+3, c) of a panel column is one such word;
//  - per panel of NB columns p..p+NB-1:
//      1. panel steps (one barrier a column): thread r >= p holds row r of
//         the panel, A(r, p..p+NB-1), in registers; at column c the rows of
//         the diagonal block publish column c, every row below c takes
//         L(r, c) = A(r, c) / D_c and updates the rest of its panel row.
//         The forward substitution of the first right-hand side rides
//         along (y_c is published with column c), as in ldlt.cu;
//      2. the panel's L goes back to the tiles, D to their diagonal, and
//         W = L D (the unscaled columns, rows below the panel) to a buffer of
//         NB x N;
//      3. the trailing update A(i, k) -= sum_j L(i, j) W(k, j) for i >= k >=
//         p + NB, one 4 x 4 tile a thread at a time: 16 accumulators in
//         registers over the NB columns (two 16-byte reads a column for 16
//         FMAs: the warp's L read is one broadcast, its W reads consecutive),
//         then one read-modify-write of the tile. A rank-1 update per column
//         would read and write every entry of the trailing matrix NB times
//         as often: shared-memory bound.
//  - substitutions: one warp a right-hand side (warps take right-hand sides
//    in turn), lane l owning rows l, l + 32, ...; x_j goes from its owner to
//    the warp by a shuffle. The chain of n dependent steps is the same
//    however many threads join in, and a shuffle is the shortest link (a
//    block barrier a step costs several times more).
// Shared memory of one block: the tiles (when they fit: all of float, double
// up to n = 224 on Hopper, 227 KB a block), W, two column buffers, the first
// right-hand side, 16 bytes of scratch. Above that the tiles move to a
// workspace in global memory (one slot a block of the grid, allocated per
// launch), the same code on a global pointer (template SMEM = false).
#include <algorithm>
#include <cmath>
#include <mutex>

#define BSYM_CUDA_STRATEGY_NUMERICS // strategy_shift_, strategy_berr_ etc. (common.cuh)
#include "ldlt.cuh"

namespace {

using namespace bsym_ldlt;

constexpr int TB = 4; // tile side

// The tuning of each kernel, per precision and thread count (plain and
// certifying alike unless said), measured with inst/bench/bench_ldlt on an
// H200 (inst/bench/RESULTS.md, 2026-11-27, session 28):
//  - NB, the panel width with the tiles in shared memory: 16 columns, so
//    that each trailing tile makes half as many passes over shared memory as
//    with 8; but 8 for double, so that W (NB x N) leaves room for the tiles
//    of n = 224 (204 KB + 14 KB), and 8 for float at 96 threads (n = 65 to
//    96), where the padding to 80 of 16 costs more at n = 65 (2.6e7 against
//    2.2e7 systems/s) than the half-width panels cost at 96 (1.64e7 against
//    1.84e7). With the tiles in global memory, 16 (half the round trips).
//  - REGS, the registers a thread of the plain kernel is planned with
//    (ptxas, by __launch_bounds__' blocks a multiprocessor, below): with
//    128 its own demand was 109 to 125 in float, but fewer registers and
//    more blocks a multiprocessor win wherever shared memory admits the
//    blocks: 64 at 96 threads (10 blocks, 80 bytes spilled: n = 65 at 2.6e7
//    instead of 1.8e7), 96 at 128 and 160 (5 and 4 blocks; n = 128 at 8.9e6
//    instead of 7.9e6, n = 129 at 6.2e6 instead of 5.5e6), 128 above (192
//    and 256 threads: nothing to gain). Double: 176. The certifying
//    kernels, which hold the certificate's values on top, keep 128 (float)
//    and 176. (These figures are of the layout of whole tiles; the strip
//    layout of the tiles, below, then added 1 to 53 % at every n measured.)
template <typename T, int NT> struct block_tuning {
    static constexpr bool F = sizeof(T) == 4;
    static constexpr int NB = F && NT == 96 ? 8 : F ? 16 : 8;
    static constexpr int REGS = !F ? 176 : NT == 96 ? 64 : NT <= 160 ? 96 : 128;
    static constexpr int CERT_REGS = F ? 128 : 176;
};
template <typename T, int NT, bool SMEM> __host__ __device__ constexpr int panel_width()
{
    return SMEM ? block_tuning<T, NT>::NB : 16;
}

// The padded order: n rounded up to a whole number of panels.
__host__ __device__ inline int padded_order(int n, int nb) { return (n + nb - 1) / nb * nb; }
__host__ __device__ constexpr int tile_index(int I, int K) { return I * (I + 1) / 2 + K; }
// Elements of the tiles of the lower triangle of order N (a multiple of TB).
__host__ __device__ inline int tile_elems(int N)
{
    return tile_index(N / TB, 0) * TB * TB;
}
// Offset of column kk (0..TB-1) of row of tiles I: its strip of I + 1 words.
__host__ __device__ constexpr int strip(int I, int kk) { return tile_index(I, 0) * (TB * TB) + kk * TB * (I + 1); }
// From entry (i, c) to (i, c + jj) among the tiles, c a multiple of TB, sw =
// TB (i / TB + 1) the distance between two columns' strips of i's row.
__device__ __forceinline__ int column_step(int jj, int sw) { return (jj % TB) * sw + (jj / TB) * TB; }
// Offset of entry (i, k), i >= k, of the padded matrix among the tiles.
__device__ __forceinline__ int at(int i, int k)
{
    return strip(i / TB, k % TB) + (k / TB) * TB + i % TB;
}
// The row I of the tile of index t among the tiles of a triangle (t = I(I+1)/2
// + K, K <= I): the square root gives it to within one, the tests make it exact.
__device__ __forceinline__ int tile_row(int t)
{
    int I = int((sqrtf(8.0f * float(t) + 1.0f) - 1.0f) * 0.5f);
    if (tile_index(I + 1, 0) <= t)
        I++;
    if (tile_index(I, 0) > t)
        I--;
    return I;
}

// Shared memory of one block, offsets in elements of T; every piece a whole
// number of 16-byte words, so each starts 16-byte aligned:
//   tiles    tile_elems(N)   the matrix (only when SMEM)
//   w        NB * N          W = L D of the current panel, W(r, j) at j*N + r
//   col      2 * (NB + 4)    column buffers, alternating with the column's
//                            parity (one barrier a step suffices: a buffer is
//                            rewritten two steps later, after every thread
//                            passed the barrier in between): column c of the
//                            diagonal block at [r - p], y_c at [NB]
//   y        N               the first right-hand side after L y = b
//   scratch  16 bytes        group_reduce's
struct block_layout {
    int N, tiles, w, col, y, scratch, total;
};
template <typename T, int NT, bool SMEM> __host__ __device__ inline block_layout layout_of(int n)
{
    constexpr int NB = panel_width<T, NT, SMEM>();
    block_layout L;
    L.N = padded_order(n, NB);
    L.tiles = 0;
    L.w = SMEM ? tile_elems(L.N) : 0;
    L.col = L.w + NB * L.N;
    L.y = L.col + 2 * (NB + 4);
    L.scratch = L.y + L.N;
    L.total = L.scratch + 16 / int(sizeof(T));
    return L;
}
template <typename T, int NT, bool SMEM> size_t shared_bytes(int n)
{
    return size_t(layout_of<T, NT, SMEM>(n).total) * sizeof(T);
}

// The blocks a multiprocessor should hold at once, for ptxas to plan
// registers by (block_tuning's REGS a thread, CERT_REGS for the certifying
// form); with the tiles in global memory 1 (64-bit addresses: up to 250
// registers). Shared memory admits as many wherever REGS asks for more
// blocks than at ptxas's own demand (float at 96 threads: 14 KB a block at
// n = 65, 23 KB at 96; at 128: 42 KB at n = 128; at 160: 52 KB at n = 144),
// except near the top of a class (float n = 160: 3 blocks of 62 KB).
template <typename T, int NT, bool SMEM, bool CERT> constexpr int min_blocks()
{
    using tune = block_tuning<T, NT>;
    return !SMEM ? 1 : 65536 / (NT * (CERT ? tune::CERT_REGS : tune::REGS));
}

// ---- 1. the system into the tiles --------------------------------------------------

// The referenced triangle of system A (n x n, column-major) into the tiles,
// shifted by off = N - n, minus `shift` on the diagonal when SHIFT; amax =
// max |entry| over the finite ones, bad = 1 when one is not finite. Thread r
// reads row r of each column (NT >= n): a warp reads consecutive words, 8
// columns' loads in flight before the stores.
template <typename T, int NT, bool SHIFT = false>
__device__ __forceinline__ void load_system(const T *__restrict__ A, int n, int off, bool lower, T *tiles, int r,
                                            T &amax, int &bad, T shift = T(0))
{
    constexpr int U = 8;
    for (int c0 = 0; c0 < n; c0 += U) {
        T v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int c = c0 + u;
            const bool ref = r < n && c < n && (lower ? r >= c : r <= c);
            v[u] = ref ? A[r + (long long)c * n] : T(0);
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int c = c0 + u;
            if (r < n && c < n && (lower ? r >= c : r <= c)) {
                if (!isfinite(v[u]))
                    bad = 1;
                amax = max(amax, fabs(v[u])); // max ignores a NaN
                // (r, c) of the lower triangle, or (c, r) for the upper one
                tiles[lower ? at(r + off, c + off) : at(c + off, r + off)] = SHIFT && r == c ? v[u] - shift : v[u];
            }
        }
    }
}

// The padding: identity in the first off rows and columns (and zero in the
// rows below them), zero in the upper slots of the diagonal tiles.
template <typename T, int NT> __device__ __forceinline__ void pad_system(T *tiles, int N, int off, int t)
{
    for (int e = t; e < off * N; e += NT) {
        const int k = e / N, i = e - k * N;
        if (i >= k)
            tiles[at(i, k)] = i == k ? T(1) : T(0);
    }
    for (int e = t; e < N / TB * TB * TB; e += NT) {
        const int I = e / (TB * TB), s = e % (TB * TB);
        if (s % TB < s / TB) // row within the tile < column
            tiles[at(TB * I + s % TB, TB * I + s / TB)] = T(0);
    }
}

// ---- 2. the factorization ---------------------------------------------------------------

// The rules of breakdown at a pivot d (every rule also breaks down at a pivot
// that is not finite; a NaN fails every comparison): the solve's, |d| <=
// tol; the certificate's, d <= tol (a pivot must also be positive); the
// shifted factorization's, d <= 0.
enum { RULE_SOLVE, RULE_CERT, RULE_SHIFTED };
template <int RULE, typename T> __device__ __forceinline__ bool pivot_ok(T d, T tol)
{
    if constexpr (RULE == RULE_SOLVE)
        return fabs(d) > tol && fabs(d) <= prec<T>::max;
    else
        return fabs(d) <= prec<T>::max && (RULE == RULE_CERT ? d > tol : d > T(0));
}

// Columns p..p+NB-1 (see the top of the file), thread r holding row r. The
// first right-hand side's y_r is updated with every column (L y = b);
// breakdown takes the first real column (c >= off) whose pivot fails RULE
// (pivot_ok), 1-based in the caller's numbering, as the CPU does; mind
// tracks the smallest real pivot (the cheap certificate's min D).
// L(r, c) (D_c for r = c) goes to the tiles and W(r, c) to w as soon as
// column c is done (nothing reads them before the caller's barrier), so that
// the registers of the panel row die as the panel advances.
template <typename T, int NB, int RULE>
__device__ __forceinline__ void factor_panel(T *tiles, T *w, T *col, int N, int off, int p, int r, T tol, T &y,
                                             int &breakdown, T &mind)
{
    constexpr int V = VW<T>, CB = NB + 4; // a column buffer, whole 16-byte words
    const bool mine = r >= p && r < N;
    const int base = at(r, p), sw = TB * (r / TB + 1);
    auto entry = [&](int jj) { return base + column_step(jj, sw); }; // (r, p + jj)
    T a[NB]; // the panel row
#pragma unroll
    for (int jj = 0; jj < NB; jj++)
        a[jj] = mine && p + jj <= r ? tiles[entry(jj)] : T(0); // no tile above the diagonal
#pragma unroll
    for (int j = 0; j < NB; j++) {
        const int c = p + j;
        T *buf = col + (c & 1) * CB;
        if (r >= c && r < p + NB)
            buf[r - p] = a[j]; // column c of the diagonal block, rows >= c
        if (r == c) {
            buf[NB] = y;
            tiles[entry(j)] = a[j]; // D_c
        }
        __syncthreads(); // column c and y_c published
        T cv[CB];
#pragma unroll
        for (int v = 0; v < CB / V; v++) // (the reads below j are dead, so dropped)
            unpack(reinterpret_cast<const vec_t<T> *>(buf)[v], cv + v * V);
        const T d = cv[j];
        if (c >= off && breakdown == 0 && !pivot_ok<RULE>(d, tol))
            breakdown = c - off + 1;
        if (RULE == RULE_CERT && c >= off)
            mind = min(mind, d);
        const T inv = reciprocal(d);
        if (mine && r > c) {
            const T l = a[j] * inv;
            if (r >= p + NB)
                w[j * N + r] = a[j]; // W(r, c) = D_c L(r, c), for the trailing update
            tiles[entry(j)] = l;
#pragma unroll
            for (int k = j + 1; k < NB; k++)
                a[k] -= l * cv[k]; // A(r, p+k) -= L(r, c) D_c L(p+k, c)
            y -= l * cv[NB];
        }
    }
}

// The trailing update after the panel at p: A(i, k) -= sum_j L(i, p+j)
// W(k, j) for every tile (I, K), p + NB <= 4K <= 4I, thread t taking tiles
// t, t + NT, ... (counted along rows of tiles, so that a warp mostly shares
// one I: its L reads are broadcasts).
template <typename T, int NT, int NB>
__device__ __forceinline__ void update_trailing(T *tiles, const T *w, int N, int p, int t)
{
    constexpr int V = VW<T>;
    const int S0 = (p + NB) / TB, m = N / TB - S0;
    for (int e = t; e < tile_index(m, 0); e += NT) {
        const int Il = tile_row(e);
        const int I = S0 + Il, K = S0 + e - tile_index(Il, 0);
        const int sw = TB * (I + 1);             // from one column's strip of row I to the next
        const T *lp = tiles + strip(I, 0) + p; // L(4I + ii, p + j) at lp[column_step(j, sw) + ii]
        const T *wp = w + K * TB;              // W(4K + kk, j) at wp[j*N + kk]
        T acc[TB][TB];
#pragma unroll
        for (int ii = 0; ii < TB; ii++)
#pragma unroll
            for (int kk = 0; kk < TB; kk++)
                acc[ii][kk] = T(0);
#pragma unroll
        for (int j = 0; j < NB; j++) {
            T l[TB], x[TB];
#pragma unroll
            for (int v = 0; v < TB / V; v++) {
                unpack(reinterpret_cast<const vec_t<T> *>(lp + column_step(j, sw))[v], l + v * V);
                unpack(reinterpret_cast<const vec_t<T> *>(wp + j * N)[v], x + v * V);
            }
#pragma unroll
            for (int ii = 0; ii < TB; ii++)
#pragma unroll
                for (int kk = 0; kk < TB; kk++)
                    acc[ii][kk] += l[ii] * x[kk];
        }
        T *tp = tiles + strip(I, 0) + K * TB; // (4I + ii, 4K + kk) at tp[kk*sw + ii]
#pragma unroll
        for (int kk = 0; kk < TB; kk++)
#pragma unroll
            for (int v = 0; v < TB / V; v++) {
                vec_t<T> *q = reinterpret_cast<vec_t<T> *>(tp + kk * sw) + v;
                T s[V];
                unpack(*q, s);
#pragma unroll
                for (int e2 = 0; e2 < V; e2++)
                    s[e2] -= acc[v * V + e2][kk];
                *q = pack(s);
            }
    }
}

// The whole factorization under RULE, panel by panel (every thread of the
// block calls it; it ends with a barrier).
template <typename T, int NT, int NB, int RULE>
__device__ __forceinline__ void factor_all(T *tiles, T *w, T *col, int N, int off, int t, T tol, T &y,
                                           int &breakdown, T &mind)
{
    for (int p = 0; p < N; p += NB) {
        factor_panel<T, NB, RULE>(tiles, w, col, N, off, p, t, tol, y, breakdown, mind);
        __syncthreads(); // the panel's L, D and W are in place
        update_trailing<T, NT, NB>(tiles, w, N, p, t);
        __syncthreads(); // the trailing matrix is up to date (and w free)
    }
}

// ---- 3. the substitutions, one warp a right-hand side -------------------------------

// L y = b in place in x (rows lane + 32q of the padded order N); ABS: M y =
// b instead, M the comparison matrix of L (unit diagonal, -|L| below it).
template <typename T, int Q, bool ABS = false>
__device__ __forceinline__ void forward_warp(const T *tiles, int N, T (&x)[Q], int lane)
{
#pragma unroll
    for (int q0 = 0; q0 < Q; q0++) {
        if (32 * q0 >= N)
            break;
        for (int jj = 0; jj < 32 && 32 * q0 + jj < N; jj++) {
            const int j = 32 * q0 + jj;
            const T xj = __shfl_sync(0xffffffffu, x[q0], jj);
#pragma unroll
            for (int q = q0; q < Q; q++) {
                const int row = lane + 32 * q;
                if (row > j && row < N) {
                    if (ABS)
                        x[q] += fabs(tiles[at(row, j)]) * xj;
                    else
                        x[q] -= tiles[at(row, j)] * xj;
                }
            }
        }
    }
}

// D z = y, then L^T x = z, in place in x; ABS: M^T x = y alone (no D).
template <typename T, int Q, bool ABS = false>
__device__ __forceinline__ void backward_warp(const T *tiles, int N, T (&x)[Q], int lane)
{
#pragma unroll
    for (int q = 0; q < Q; q++) {
        const int row = lane + 32 * q;
        if (!ABS && row < N)
            x[q] /= tiles[at(row, row)];
    }
#pragma unroll
    for (int q0 = Q - 1; q0 >= 0; q0--) {
        if (32 * q0 >= N)
            continue;
        for (int jj = min(31, N - 1 - 32 * q0); jj >= 0; jj--) {
            const int i = 32 * q0 + jj;
            const T xi = __shfl_sync(0xffffffffu, x[q0], jj);
#pragma unroll
            for (int q = 0; q <= q0; q++) {
                const int row = lane + 32 * q;
                if (row < i) {
                    if (ABS)
                        x[q] += fabs(tiles[at(i, row)]) * xi;
                    else
                        x[q] -= tiles[at(i, row)] * xi; // L(i, row)
                }
            }
        }
    }
}

// Right-hand side c's solution, rows lane + 32q of the padded order in x:
// the first one's y = L^-1 b came with the factorization (ys), the others
// start from b.
template <typename T, int Q>
__device__ __forceinline__ void solve_warp(const T *tiles, const T *ys, const T *b, int c, int N, int off,
                                           T (&x)[Q])
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int q = 0; q < Q; q++) {
        const int row = lane + 32 * q;
        x[q] = row >= N ? T(0) : c == 0 ? ys[row] : row >= off ? b[row - off] : T(0);
    }
    if (c > 0)
        forward_warp<T, Q>(tiles, N, x, lane);
    backward_warp<T, Q>(tiles, N, x, lane);
}

// The real rows of x into b.
template <typename T, int Q> __device__ __forceinline__ void store_warp(const T (&x)[Q], T *b, int N, int off)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int q = 0; q < Q; q++) {
        const int row = lane + 32 * q;
        if (row >= off && row < N)
            b[row - off] = x[q];
    }
}

// ---- 4. the certificate (CERT) -----------------------------------------------------

// max that keeps a NaN (the backward error's: NaN fails the test).
__device__ __forceinline__ double max_nan(double a, double b) { return a > b || a != a ? a : b; }

// Block-wide max, sum (SUM; else max) and max of three doubles, NaN kept by
// the maxima (every thread gets them), through red (3 NT/32 doubles of
// shared memory, free again on return).
template <int NT, bool SUM = true>
__device__ __forceinline__ void block_reduce3(double &m0, double &s, double &m1, double *red)
{
    constexpr int W = NT / 32;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
        m0 = max_nan(m0, __shfl_xor_sync(0xffffffffu, m0, o));
        const double so = __shfl_xor_sync(0xffffffffu, s, o);
        s = SUM ? s + so : max_nan(s, so);
        m1 = max_nan(m1, __shfl_xor_sync(0xffffffffu, m1, o));
    }
    if (lane == 0) {
        red[warp] = m0;
        red[W + warp] = s;
        red[2 * W + warp] = m1;
    }
    __syncthreads(); // every warp's part is in
    m0 = red[0];
    s = red[W];
    m1 = red[2 * W];
#pragma unroll
    for (int k = 1; k < W; k++) {
        m0 = max_nan(m0, red[k]);
        s = SUM ? s + red[W + k] : max_nan(s, red[W + k]);
        m1 = max_nan(m1, red[2 * W + k]);
    }
    __syncthreads(); // red is read
}

// The norms of the certificate's shift (strategy_shift_) from the system in
// the tiles, in double as ldlt.cu's cert_shift: anorm = ||A||_inf (the
// backward error's norm too), fro = ||A||_F^2, dmax = max |a_ii|; thread t
// sums row t of the symmetric matrix.
template <typename T, int NT>
__device__ __forceinline__ void cert_norms(const T *tiles, int N, int off, int t, double *red, double &anorm,
                                           double &fro, double &dmax)
{
    anorm = fro = dmax = 0;
    if (t >= off && t < N) {
        for (int k = off; k < N; k++) {
            const double v = double(tiles[t >= k ? at(t, k) : at(k, t)]);
            anorm += fabs(v);
            fro += v * v;
        }
        dmax = fabs(double(tiles[at(t, t)]));
    }
    block_reduce3<NT>(anorm, fro, dmax, red);
}

// max over the rows of M^-1 e (warp Q - 2) or M^-T e (warp Q - 1), M the
// comparison matrix of the factored L in the tiles, into red[0] and red[1];
// the last two warps, which the first right-hand sides leave idle.
template <typename T, int Q> __device__ __forceinline__ void cheap_maxima(const T *tiles, int N, T *red)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 - (Q - 2);
    if (warp < 0)
        return;
    T v[Q];
#pragma unroll
    for (int q = 0; q < Q; q++)
        v[q] = lane + 32 * q < N ? T(1) : T(0);
    if (warp == 0)
        forward_warp<T, Q, true>(tiles, N, v, lane);
    else
        backward_warp<T, Q, true>(tiles, N, v, lane);
    T m = 0;
#pragma unroll
    for (int q = 0; q < Q; q++)
        m = max(m, v[q]);
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0)
        red[warp] = m;
}

// The backward error (strategy_berr_) of one right-hand side's solution,
// x (N values, padded) in shared memory, against A (global, as given) and b
// (before x overwrites it), thread t taking row t; red: 3 NT/32 doubles.
// Every thread of the block calls it and gets the result.
template <typename T, int NT>
__device__ __forceinline__ double block_berr(const T *xs, const T *A, const T *b, int n, int off, bool lower,
                                             double anorm, double *red)
{
    const int t = threadIdx.x;
    double m[3] = {0, 0, 0}; // max |residual|, |x|, |b|
    if (t < n) {
        double arow;
        m[0] = strategy_resid_row_(prec_tag<T>(), lower ? 'L' : 'U', n, A, xs + off, b[t], t, &arow);
        m[1] = fabs(double(xs[off + t]));
        m[2] = fabs(double(b[t]));
    }
    block_reduce3<NT, false>(m[0], m[1], m[2], red);
    return strategy_berr_(prec_tag<T>(), m[0], anorm, m[1], m[2]);
}

// ---- the kernel -------------------------------------------------------------------------

// work: the tiles' global workspace when !SMEM (tile_elems(N) a block);
// cert: read when CERT (common.cuh, ldlt_cert; see the top of the file).
template <typename T, int NT, bool SMEM, bool CERT>
__global__ void __launch_bounds__(NT, min_blocks<T, NT, SMEM, CERT>())
ldlt_block_kernel(int n, int nrhs, long long batch, const T *__restrict__ A, T *__restrict__ B,
                  int *__restrict__ info, bool lower, T *__restrict__ work, bsym_cuda::ldlt_cert cert)
{
    constexpr int NB = panel_width<T, NT, SMEM>(), Q = NT / 32;
    static_assert(!CERT || NB >= Q, "the certificate keeps each warp's x in W (NB x N)");
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *sm = reinterpret_cast<T *>(smem_raw);
    const block_layout L = layout_of<T, NT, SMEM>(n);
    const int N = L.N, off = N - n;
    T *tiles;
    if constexpr (SMEM)
        tiles = sm + L.tiles;
    else
        tiles = work + (long long)blockIdx.x * tile_elems(N);
    T *w = sm + L.w, *col = sm + L.col, *ys = sm + L.y, *scratch = sm + L.scratch;
    // the certificate's scratch: the norms' reduction in w (free before the
    // factorization), the cheap form's two maxima in the column buffers
    // (free after it)
    double *wred = reinterpret_cast<double *>(w);
    T *cred = col;
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    const T tol_scale = T(n) * limits<T>::eps();
    unsigned long long certified = 0, cheaply = 0; // thread 0's counts, added once at the end

    for (long long sys = blockIdx.x; sys < batch; sys += gridDim.x) {
        const T *As = A + sys * (long long)n * n;
        T *Bs = B + sys * (long long)n * nrhs;

        // 1. The system into the tiles (and the padding), max |a| and the
        //    finiteness of A and of every right-hand side; the first
        //    right-hand side's row t (padded with zeros in front). CERT:
        //    the norms, and the shift sigma.
        T amax = 0;
        int bad = 0;
        load_system<T, NT>(As, n, off, lower, tiles, t, amax, bad);
        pad_system<T, NT>(tiles, N, off, t);
        for (long long e = t; e < (long long)n * nrhs; e += NT)
            if (!isfinite(Bs[e]))
                bad = 1;
        T y = nrhs > 0 && t >= off && t < N ? Bs[t - off] : T(0);
        group_reduce<T, NT>(amax, bad, t, scratch); // (its barriers also publish the tiles)
        const T tol = tol_scale * amax;
        double anorm = 0, sigma = 0;
        if (CERT) {
            double fro, dmax;
            cert_norms<T, NT>(tiles, N, off, t, wred, anorm, fro, dmax);
            sigma = strategy_shift_(prec_tag<T>(), n, fmin(anorm, sqrt(fro)), dmax, cert.rcond);
        }

        // 2. The factorization, panel by panel (CERT: a pivot must also be
        //    positive).
        int breakdown = 0; // the same in every thread: all see every pivot
        T mind = T(INFINITY);
        factor_all<T, NT, NB, CERT ? RULE_CERT : RULE_SOLVE>(tiles, w, col, N, off, t, tol, y, breakdown, mind);
        if (t < N)
            ys[t] = y;
        __syncthreads(); // the first right-hand side's y is complete

        // 3. The solutions, or NaN everywhere for a system with a non-finite
        //    input or a breakdown (uniform over the block).
        bool cheap = false, shift_ok = false;
        double worst = 0; // CERT: the worst backward error over the right-hand sides
        if (bad || breakdown != 0) {
            for (long long e = t; e < (long long)n * nrhs; e += NT)
                Bs[e] = T(NAN);
        } else if constexpr (!CERT) {
            for (int c = warp; c < nrhs; c += Q) {
                T *b = Bs + (long long)c * n;
                T x[Q];
                solve_warp<T, Q>(tiles, ys, b, c, N, off, x);
                store_warp<T, Q>(x, b, N, off);
            }
        } else {
            // Rounds of Q right-hand sides, a warp each; in the first, the
            // last two warps also take the cheap form's maxima (cred[0, 1]).
            // Then each solution's backward error, row t by thread t (x
            // through w, the reductions through ys, free after the first
            // round's barrier: 3 NT/32 doubles, N >= 65 values of T),
            // before the solutions overwrite b.
            for (int c0 = 0; c0 < nrhs || c0 == 0; c0 += Q) {
                const int c = c0 + warp;
                T *b = Bs + (long long)c * n;
                T x[Q];
                if (c < nrhs) {
                    solve_warp<T, Q>(tiles, ys, b, c, N, off, x);
#pragma unroll
                    for (int q = 0; q < Q; q++)
                        if (lane + 32 * q < N)
                            w[warp * N + lane + 32 * q] = x[q];
                }
                if (c0 == 0)
                    cheap_maxima<T, Q>(tiles, N, cred);
                __syncthreads(); // the round's solutions and the maxima are in place
                if (c0 == 0) {
                    cheap = strategy_cert_cheap_(prec_tag<T>(), n, double(mind), double(cred[0]) * double(cred[1]), sigma);
                }
                for (int k = 0; k < Q && c0 + k < nrhs; k++)
                    worst = max_nan(worst, block_berr<T, NT>(w + k * N, As, Bs + (long long)(c0 + k) * n, n, off, lower,
                                                             anorm, reinterpret_cast<double *>(ys)));
                if (c < nrhs)
                    store_warp<T, Q>(x, b, N, off);
            }
        }

        // 4. CERT: the verdict, after the factorization of A - sigma I where
        //    only the cheap form failed (uniform over the block; the last
        //    barrier of step 3 passed every use of the tiles, w and col).
        if constexpr (CERT) if (!bad && breakdown == 0 && !cheap && worst <= cert.tol) {
            T ignored = 0;
            int ignored_bad = 0;
            load_system<T, NT, true>(As, n, off, lower, tiles, t, ignored, ignored_bad, T(sigma));
            pad_system<T, NT>(tiles, N, off, t);
            __syncthreads(); // the shifted matrix is in place
            int shifted = 0;
            T y2 = 0, mind2 = 0;
            factor_all<T, NT, NB, RULE_SHIFTED>(tiles, w, col, N, off, t, T(0), y2, shifted, mind2);
            shift_ok = shifted == 0;
        }
        if (t == 0) {
            const int code = bad ? -1 : breakdown;
            info[sys] = code;
            if (CERT)
                cert_verdict(cert, sys, n, code, (cheap || shift_ok) && worst <= cert.tol, cheap, certified, cheaply);
        }
        __syncthreads(); // the tiles, ys and cred are read: the next system may overwrite them
    }
    if (CERT && t == 0)
        cert_totals(cert, certified, cheaply);
}

// Whether the tiles of n fit in the shared memory a block of the current
// device may have (opt-in: 227 KB on Hopper, 163 KB on A100).
template <typename T, int NT> bool tiles_fit(int n, int dev)
{
    int optin = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    return shared_bytes<T, NT, true>(n) <= size_t(optin);
}

// Opt-in to the device's largest shared memory a block and to the largest
// carve-out, once per device and kernel (function attributes belong to a
// device's context); the calls of several GPUs run on threads of their
// own: one flag per device. The shared memory depends on n, so the opt-in is
// to the device's maximum rather than to one n's bytes.
template <typename T, int NT, bool SMEM, bool CERT> cudaError_t prepare(int dev)
{
    static std::once_flag once[BSYM_MAX_GPUS];
    static cudaError_t result[BSYM_MAX_GPUS];
    std::call_once(once[dev], [dev] {
        int optin = 0;
        cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
        if (e == cudaSuccess)
            e = cudaFuncSetAttribute(ldlt_block_kernel<T, NT, SMEM, CERT>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     int(cudaSharedmemCarveoutMaxShared));
        if (e == cudaSuccess)
            e = cudaFuncSetAttribute(ldlt_block_kernel<T, NT, SMEM, CERT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     optin);
        result[dev] = e;
    });
    return result[dev];
}

// Blocks of ldlt_block_kernel<T, NT, SMEM, CERT> for n resident on one
// multiprocessor (0 on error).
template <typename T, int NT, bool SMEM, bool CERT> int blocks_per_sm(int n)
{
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ldlt_block_kernel<T, NT, SMEM, CERT>, NT,
                                                      shared_bytes<T, NT, SMEM>(n)) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return per_sm;
}

template <typename T, int NT, bool SMEM, bool CERT>
bsym_status launch(char uplo, int n, int nrhs, long long batch, const T *A, T *B, int *info,
                   const bsym_cuda::ldlt_cert &cert, int dev, cudaStream_t stream, char *msg, size_t msglen)
{
    BSYM_CUDA_TRY((prepare<T, NT, SMEM, CERT>(dev)));
    int sms = 0;
    BSYM_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const long long blocks = std::min<long long>(batch, (long long)std::max(1, sms * blocks_per_sm<T, NT, SMEM, CERT>(n)));
    if (blocks == 0)
        return BSYM_OK;
    T *work = nullptr; // the tiles of each block, when not in shared memory
    if (!SMEM)
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&work),
                                      size_t(blocks) * tile_elems(layout_of<T, NT, SMEM>(n).N) * sizeof(T), stream));
    ldlt_block_kernel<T, NT, SMEM, CERT><<<unsigned(blocks), NT, shared_bytes<T, NT, SMEM>(n), stream>>>(
        n, nrhs, batch, A, B, info, uplo == 'L', work, cert);
    const cudaError_t launched = cudaGetLastError();
    if (!SMEM)
        BSYM_CUDA_TRY(cudaFreeAsync(work, stream)); // stream-ordered: after the kernel
    BSYM_CUDA_TRY(launched);
    return BSYM_OK;
}

} // namespace

namespace bsym_cuda {

template <typename T, int NT>
bsym_status ldlt_block_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info,
                              const ldlt_cert *cert, cudaStream_t s, char *msg, size_t msglen)
{
    if (n < 1 || n > ldlt_block_max_n(NT)) {
        std::snprintf(msg, msglen, "no GPU LDL^T block kernel for n = %d with %d threads", n, NT);
        return BSYM_ERR_ARG;
    }
    int dev = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    if (dev < 0 || dev >= BSYM_MAX_GPUS) {
        std::snprintf(msg, msglen, "device %d is beyond batchsym's %d", dev, BSYM_MAX_GPUS);
        return BSYM_ERR_NODEVICE;
    }
    const bool fit = tiles_fit<T, NT>(n, dev);
    if (cert == nullptr) {
        const ldlt_cert none{};
        return fit ? launch<T, NT, true, false>(uplo, n, nrhs, batch, A, B, info, none, dev, s, msg, msglen)
                   : launch<T, NT, false, false>(uplo, n, nrhs, batch, A, B, info, none, dev, s, msg, msglen);
    }
    return fit ? launch<T, NT, true, true>(uplo, n, nrhs, batch, A, B, info, *cert, dev, s, msg, msglen)
               : launch<T, NT, false, true>(uplo, n, nrhs, batch, A, B, info, *cert, dev, s, msg, msglen);
}

template <typename T, int NT, bool CERT> int ldlt_block_systems_per_sm(int n)
{
    int dev = 0;
    if (n < 1 || n > ldlt_block_max_n(NT) || cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= BSYM_MAX_GPUS) {
        cudaGetLastError();
        return -1;
    }
    const bool fit = tiles_fit<T, NT>(n, dev);
    if ((fit ? prepare<T, NT, true, CERT>(dev) : prepare<T, NT, false, CERT>(dev)) != cudaSuccess)
        return -1;
    const int per_sm = fit ? blocks_per_sm<T, NT, true, CERT>(n) : blocks_per_sm<T, NT, false, CERT>(n);
    return per_sm > 0 ? per_sm : -1;
}

// One thread count NT: its launch and its occupancy, plain and certifying.
#define BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, NT)                                                             \
    template bsym_status ldlt_block_launch<T, NT>(char, int, int, int64_t, const T *, T *, int *,         \
                                                  const ldlt_cert *, cudaStream_t, char *, size_t);       \
    template int ldlt_block_systems_per_sm<T, NT, false>(int);                                            \
    template int ldlt_block_systems_per_sm<T, NT, true>(int);
#define BSYM_LDLT_BLOCK_INSTANTIATE(T)                                                                    \
    BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, 96)                                                                 \
    BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, 128)                                                                \
    BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, 160)                                                                \
    BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, 192)                                                                \
    BSYM_LDLT_BLOCK_INSTANTIATE_NT(T, 256)
BSYM_CUDA_FOR_EACH_TYPE(BSYM_LDLT_BLOCK_INSTANTIATE)
#undef BSYM_LDLT_BLOCK_INSTANTIATE
#undef BSYM_LDLT_BLOCK_INSTANTIATE_NT

} // namespace bsym_cuda
