// pcr.cu -- batched tridiagonal solves on the GPU (bsym_*tridiag_solve).
// Implements Abbas-Turki & Graillat 2017, Sect. 4.1-4.2 (PCR for any n, no
// padding), and Egloff, "High performance tridiagonal solvers on GPUs for
// PDEs" (general systems; systems larger than a warp split over a block).
//
// Two kernels, both for general (dl != du) and symmetric (du = dl) systems:
//
//  * n <= 32 ("lanes"): one lane per row, floor(32 / n) systems side by side
//    in a warp, PCR through warp shuffles (pcr_lanes): no shared memory, no
//    barrier, no padding of n to a power of two.
//  * n > 32 ("partition"): one block of G threads per system, thread t owning
//    m = ceil(n / G) consecutive rows. Each thread eliminates inside its rows
//    (a Thomas-like sweep down and up) so that every row depends only on the
//    first and last unknowns of its chunk; those 2G boundary rows form a
//    tridiagonal system that PCR solves in shared memory (pcr_shared); each
//    thread then recovers its interior rows. Work is O(n), the sequential
//    part O(n / G), and any n up to BSYM_GPU_PCR_MAX_N fits.
//
// No pivoting (as PCR itself): safe for diagonally dominant and SPD systems.
// info: -1 non-finite input; j > 0 a zero or non-finite pivot, or a
// non-finite solution, in row j (1-based); the system's solution is then NaN.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <cuda_pipeline.h>

#include "common.cuh"
#include "pcr.cuh"

namespace {

using bsym::finite;
using bsym::pcr_row;

// Where system `sys` keeps its coefficients; du == nullptr: symmetric.
template <typename T> struct tri_view {
    const T *dl, *d, *du;
    T *B;
    int n, nrhs;

    // Row i's sub-diagonal (0 for i = 0) and super-diagonal (0 for i = n-1).
    __device__ __forceinline__ T lower(long long sys, int i) const
    {
        return i > 0 ? dl[sys * (n - 1) + i - 1] : T(0);
    }
    __device__ __forceinline__ T upper(long long sys, int i) const
    {
        return i < n - 1 ? (du != nullptr ? du : dl)[sys * (n - 1) + i] : T(0);
    }
    __device__ __forceinline__ T *rhs(long long sys, int r) const
    {
        return B + (sys * nrhs + r) * (long long)n;
    }
};

// ---- n <= 32: one lane per row ---------------------------------------------
// A warp takes LANE_SETS sets of floor(32 / n) consecutive systems and
// reduces the sets together (more independent work in flight per warp; on
// the H200 at n = 32 float: 2.36e9 systems/s with 2 sets, 2.10e9 with 4).
#ifndef BSYM_PCR_LANE_SETS
#define BSYM_PCR_LANE_SETS 2
#endif
constexpr int LANE_SETS = BSYM_PCR_LANE_SETS;

template <typename T>
__global__ void __launch_bounds__(256) pcr_lanes_kernel(tri_view<T> v, long long batch, int *info)
{
    constexpr int K = LANE_SETS;
    const int n = v.n, per_warp = 32 / n;
    const int lane = threadIdx.x & 31;
    const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
    const int slot = lane / n, i = lane - slot * n;
    // idle lanes (beyond the last whole system of the warp, or the batch)
    // still take part in every shuffle (same n, so the same step count), as
    // row 0 of an identity system; their results are never used
    long long sys[K];
    bool active[K];
    pcr_row<T> r0[K];
    bool bad_input[K], fail[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        sys[k] = (warp * K + k) * per_warp + slot;
        active[k] = slot < per_warp && sys[k] < batch;
        r0[k] = {T(0), T(1), T(0)};
        if (active[k])
            r0[k] = {v.lower(sys[k], i), v.d[sys[k] * n + i], v.upper(sys[k], i)};
        bad_input[k] = !(finite(r0[k].a) && finite(r0[k].b) && finite(r0[k].c));
        fail[k] = false;
    }
    const int ii = slot < per_warp ? i : 0;
    for (int q = 0; q < v.nrhs; q++) {
        pcr_row<T> r[K];
        T f[K];
#pragma unroll
        for (int k = 0; k < K; k++) {
            r[k] = r0[k];
            f[k] = active[k] ? v.rhs(sys[k], q)[i] : T(0);
            bad_input[k] |= !finite(f[k]);
        }
        bsym::pcr_lanes<T, K>(r, f, ii, n, fail);
#pragma unroll
        for (int k = 0; k < K; k++)
            if (active[k])
                v.rhs(sys[k], q)[i] = f[k];
    }
    // each system's verdict from its lanes: -1 for bad input, else the first
    // failed row (1-based)
    const unsigned seg = (n == 32 ? bsym::FULL_MASK : ((1u << n) - 1u)) << (slot * n);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const unsigned bad_lanes = __ballot_sync(bsym::FULL_MASK, active[k] && bad_input[k]) & seg;
        const unsigned fail_lanes = __ballot_sync(bsym::FULL_MASK, active[k] && fail[k]) & seg;
        const int code = bad_lanes ? -1 : fail_lanes ? __ffs(fail_lanes) - slot * n : 0;
        if (!active[k])
            continue;
        if (i == 0)
            info[sys[k]] = code;
        if (code != 0)
            for (int q = 0; q < v.nrhs; q++)
                v.rhs(sys[k], q)[i] = T(NAN);
    }
}

// ---- n > 32: a block per system, rows partitioned among its threads --------

// Threads per system for n (a power of two from 32 to 1024, about 8 rows
// each; at least 2 rows each).
int partition_threads(int n)
{
    int g = 32;
    while (g < 1024 && g * 16 <= n)
        g *= 2;
    return g;
}

// Shared memory of the partition kernel: the boundary system's coefficients
// as built (a, b, c: kept for every right-hand side) and the working copy
// PCR reduces (a, b, c, f): 7 arrays of 2G.
template <typename T> size_t partition_smem(int g)
{
    return 7 * size_t(2 * g) * sizeof(T);
}

// Workspace in global memory: per system, the sweep's alpha and gamma of
// every row (2n values).
template <typename T> size_t partition_work(int n, long long batch)
{
    return 2 * size_t(n) * size_t(batch) * sizeof(T);
}

// SPB systems per block: SPB = 1, one system per block of G = blockDim.x
// threads (block barriers); SPB = 4, one system per warp (G = 32, warp
// barriers only). 1024 threads per block at most: 64 registers per thread.
template <typename T, int SPB>
__global__ void __launch_bounds__(SPB == 1 ? 1024 : 32 * SPB) pcr_partition_kernel(tri_view<T> v, long long batch,
                                                                                 T *work, int *info)
{
    using Sync = typename std::conditional<SPB == 1, bsym::block_sync, bsym::warp_sync>::type;
    const Sync sync{};
    extern __shared__ unsigned char smem_raw[];
    const int n = v.n, g = SPB == 1 ? blockDim.x : 32, rows2 = 2 * g;
    const int t = SPB == 1 ? threadIdx.x : threadIdx.x & 31, w = SPB == 1 ? 0 : threadIdx.x >> 5;
    const long long sys = (long long)blockIdx.x * SPB + w;
    if (SPB > 1 && sys >= batch)
        return; // a whole warp, which shares no barrier with the others
    // carve-out of this system: built a, b, c | working a, b, c, f (each 2G)
    T *sa = reinterpret_cast<T *>(smem_raw) + w * 7 * rows2, *sb = sa + rows2, *sc = sb + rows2;
    T *wa = sc + rows2, *wb = wa + rows2, *wc = wb + rows2, *wf = wc + rows2;
    __shared__ int fail_rows[SPB], bad_inputs[SPB];
    int &fail_row = fail_rows[w], &bad_input = bad_inputs[w];
    if (t == 0) {
        fail_row = INT_MAX;
        bad_input = 0;
    }
    sync(); // flags initialised before anyone records

    const int m = (n + g - 1) / g;           // rows per thread
    const int lo = t * m;
    const int cnt = max(0, min(m, n - lo));  // this thread's rows [lo, lo + cnt)
    T *alpha = work + sys * 2LL * n, *gamma = alpha + n;
    int my_fail = INT_MAX;
    bool my_bad = false;

    // Forward sweep, rows j = 1 .. cnt-1: row j becomes
    //   alpha_j x_lo + x_{lo+j} + gamma_j x_{lo+j+1} = phi_j
    // (phi in B, in place), starting from alpha_0 = -1, gamma_0 = 0, phi_0 = 0.
    T a0 = T(0), b0 = T(1), c0 = T(0);
    if (cnt > 0) {
        a0 = v.lower(sys, lo);
        b0 = v.d[sys * n + lo];
        c0 = v.upper(sys, lo);
        my_bad |= !(finite(a0) && finite(b0) && finite(c0));
        for (int k = 0; k < v.nrhs; k++)
            my_bad |= !finite(v.rhs(sys, k)[lo]);
    }
    T al = T(-1), ga = T(0);
    for (int j = 1; j < cnt; j++) {
        const int row = lo + j;
        const T a = v.lower(sys, row), b = v.d[sys * n + row], c = v.upper(sys, row);
        my_bad |= !(finite(a) && finite(b) && finite(c));
        const T q = b - a * ga;
        if (q == T(0) || !finite(q))
            my_fail = min(my_fail, row);
        const T inv = T(1) / q;
        for (int k = 0; k < v.nrhs; k++) {
            T *f = v.rhs(sys, k);
            const T fj = f[row];
            my_bad |= !finite(fj);
            f[row] = (fj - a * (j == 1 ? T(0) : f[row - 1])) * inv;
        }
        al = -a * al * inv;
        ga = c * inv;
        alpha[row] = al;
        gamma[row] = ga;
    }
    // Backward sweep, rows j = cnt-3 .. 1: substitute row j+1 so that
    //   x_{lo+j} = phi_j - alpha_j x_lo - gamma_j x_{lo+cnt-1}.
    if (cnt >= 3) {
        T al1 = alpha[lo + cnt - 2], ga1 = gamma[lo + cnt - 2];
        for (int j = cnt - 3; j >= 1; j--) {
            const int row = lo + j;
            const T gj = gamma[row];
            for (int k = 0; k < v.nrhs; k++) {
                T *f = v.rhs(sys, k);
                f[row] -= gj * f[row + 1];
            }
            al1 = alpha[row] - gj * al1;
            ga1 = -gj * ga1;
            alpha[row] = al1;
            gamma[row] = ga1;
        }
    }
    // This thread's rows of the boundary system: its first row (coupled to
    // the previous chunk's last and its own last unknown) and, with two rows
    // or more, its last row (coupled to its first and the next chunk's first).
    T fa = a0, fb = b0, fc = c0, la = T(0), lc = T(0);
    if (cnt >= 3) {
        fb = b0 - c0 * alpha[lo + 1];
        fc = -c0 * gamma[lo + 1];
    }
    if (cnt >= 2) {
        la = alpha[lo + cnt - 1];
        lc = gamma[lo + cnt - 1];
    }
    // boundary rows: 2t (first) and 2t+1 (last); only the last non-empty
    // thread can have a single row, so the count is 2 * (full threads) + ...
    const int full = n / m, tail = n - full * m;  // threads with m rows; rows of the partial one
    const int rows = 2 * full + (tail >= 2 ? 2 : tail);
    if (cnt >= 1) {
        sa[2 * t] = fa;
        sb[2 * t] = fb;
        sc[2 * t] = fc;
    }
    if (cnt >= 2) {
        sa[2 * t + 1] = la;
        sb[2 * t + 1] = T(1);
        sc[2 * t + 1] = lc;
    }
    // global row of boundary row i (for the failure report)
    auto global_row = [&](int i) {
        const int owner = i >> 1, first = owner * m;
        return (i & 1) ? first + min(m, n - first) - 1 : first;
    };

    for (int k = 0; k < v.nrhs; k++) {
        T *f = v.rhs(sys, k);
        sync(); // the boundary rows are built; the previous rhs is done with wf
        for (int i = t; i < rows; i += g) {
            wa[i] = sa[i];
            wb[i] = sb[i];
            wc[i] = sc[i];
        }
        if (cnt >= 1)
            wf[2 * t] = cnt >= 3 ? f[lo] - c0 * f[lo + 1] : f[lo];
        if (cnt >= 2)
            wf[2 * t + 1] = f[lo + cnt - 1];
        sync(); // the working copy is complete
        int fr = INT_MAX;
        bsym::pcr_shared(wa, wb, wc, wf, rows, t, g, &fr, sync);
        if (fr != INT_MAX)
            my_fail = min(my_fail, global_row(fr));
        if (cnt >= 1) {
            const T xf = wf[2 * t], xl = cnt >= 2 ? wf[2 * t + 1] : xf;
            for (int j = 1; j < cnt - 1; j++) {
                const int row = lo + j;
                const T x = f[row] - alpha[row] * xf - gamma[row] * xl;
                if (!finite(x))
                    my_fail = min(my_fail, row);
                f[row] = x;
            }
            f[lo] = xf;
            if (cnt >= 2)
                f[lo + cnt - 1] = xl;
        }
    }
    if (my_fail != INT_MAX)
        atomicMin(&fail_row, my_fail);
    if (my_bad)
        bad_input = 1;
    sync(); // every thread's verdict is in
    const int code = bad_input ? -1 : fail_row != INT_MAX ? fail_row + 1 : 0;
    if (t == 0)
        info[sys] = code;
    if (code != 0)
        for (int k = 0; k < v.nrhs; k++)
            for (int j = 0; j < cnt; j++)
                v.rhs(sys, k)[lo + j] = T(NAN);
}

// Launches the partition kernel with SPB systems per block.
template <typename T, int SPB>
bsym_status launch_partition(tri_view<T> v, long long batch, int *info, T *work, cudaStream_t s, char *msg,
                             size_t msglen)
{
    const int g = partition_threads(v.n);
    const size_t smem = SPB * partition_smem<T>(g);
    // opt in above the default 48 KB of dynamic shared memory
    BSYM_CUDA_TRY(cudaFuncSetAttribute(pcr_partition_kernel<T, SPB>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    const long long per_launch = 0x7fffffffLL * SPB;
    for (long long first = 0; first < batch; first += per_launch) {
        const long long count = std::min<long long>(batch - first, per_launch);
        tri_view<T> w = v;
        w.dl += first * (v.n - 1);
        w.d += first * v.n;
        if (w.du != nullptr)
            w.du += first * (v.n - 1);
        w.B += first * v.n * (long long)v.nrhs;
        pcr_partition_kernel<T, SPB><<<unsigned((count + SPB - 1) / SPB), SPB == 1 ? g : 32 * SPB, smem, s>>>(
            w, count, work + first * 2LL * v.n, info + first);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// ---- n > 32: a tile of whole systems staged in shared memory ---------------
//
// pcr_tile_kernel: a block takes `spb` consecutive systems. Their dl, d, du
// (or e) and one right-hand side are copied, as contiguous ranges with
// coalesced asynchronous copies (cp.async), into shared memory, where all the
// work happens in place; x leaves the same way. Thread (system s, chunk p)
// owns the M consecutive rows [pM, pM + M) of its system (P = ceil(n / M)
// chunks), and:
//  1. sweeps down and up its rows (Thomas-like, as the partition kernel) so
//     that every inner row reads x_j = phi_j - alpha_j x_first - gamma_j
//     x_last (alpha, gamma, phi written over the row's d, dl and b slots);
//     its first row couples the previous chunk's last unknown, x_first and
//     x_last; its last row x_first, x_last and the next chunk's first;
//  2. eliminates x_first with the next chunk's first row: one row per chunk
//     in the chunks' last unknowns y_p (a tridiagonal system of P rows);
//  3. solves that system: with P <= 32 ("packed": 32 / P systems side by side
//     in a warp) by PCR through shuffles (pcr_lanes); otherwise (P <= 1024,
//     one 32-lane segment per warp) each warp expresses its inner lanes'
//     y through its first and last y (PCR with 3 right-hand sides,
//     pcr_lanes_rhs), the warps' 2W end rows are reduced as in step 2 and
//     solved by PCR in the system's first warp, and each lane gets its y back;
//  4. recovers x_first from y_{p-1} and y_p, then its inner rows.
// No pivoting (as PCR): safe for diagonally dominant and SPD systems (every
// reduced system is a Schur complement of the one before). Global memory is
// read and written once (the matrix again for each further right-hand side).
// CDIRECT (general systems whose four arrays would not fit): du is read
// straight into registers, chunk by chunk, and not staged.

// Index in a tile array with one spare slot every 128 bytes, so that lanes
// reading rows M apart touch distinct banks.
template <typename T> __host__ __device__ __forceinline__ int tpad(int i)
{
    return i + (i >> (sizeof(T) == 8 ? 4 : 5));
}

// Shared-memory carve-out of the tile kernel, in elements of T from the
// start (then 2 spb ints of per-system flags):
//   D, A, [C], F  the tile: d (then alpha), dl or e (then gamma), du (general,
//                 not CDIRECT), b (then phi, then x); spb n or spb (n-1)
//                 entries each, padded (tpad);
//   Xa, Xc, Xf    (not packed) each chunk's first row divided by its pivot,
//                 for step 2 across warps: spb P each;
//   La..Lf        (not packed) the 2 end rows of each warp, step 3: spb 2W;
//   Yf, Yl        (not packed) each warp's first and last y: spb W each.
template <typename T> struct tile_layout {
    int oD, oA, oC, oF, oXa, oXc, oXf, oLa, oLb, oLc, oLf, oYf, oYl, total;
    __host__ __device__ tile_layout(int n, int spb, int p, int warps, bool packed, bool staged_c)
    {
        const int nd = tpad<T>(spb * n) + 1, ne = tpad<T>(spb * (n - 1)) + 1;
        const int nx = packed ? 0 : spb * p, nl = packed ? 0 : spb * 2 * warps, ny = packed ? 0 : spb * warps;
        int o = 0;
        oD = o, o += nd;
        oA = o, o += ne;
        oC = o, o += staged_c ? ne : 0;
        oF = o, o += nd;
        oXa = o, o += nx;
        oXc = o, o += nx;
        oXf = o, o += nx;
        oLa = o, o += nl;
        oLb = o, o += nl;
        oLc = o, o += nl;
        oLf = o, o += nl;
        oYf = o, o += ny;
        oYl = o, o += ny;
        total = o;
    }
    size_t bytes(int spb) const { return size_t(total) * sizeof(T) + 2 * size_t(spb) * sizeof(int); }
};

// One element from global to shared memory, asynchronously (cp.async).
template <typename T> __device__ __forceinline__ void stage(T *dst, const T *src)
{
    __pipeline_memcpy_async(dst, src, sizeof(T));
}

// Threads a block of the tile kernel may have: 1024 (64 registers a
// thread), but 512 for double with du in registers (128 registers: at 64 it
// spilled 196 bytes a thread).
template <typename T, bool CDIRECT> constexpr int tile_max_threads()
{
    return CDIRECT && sizeof(T) == 8 ? 512 : 1024;
}

template <typename T, int M, bool SYM, bool CDIRECT>
__global__ void __launch_bounds__(tile_max_threads<T, CDIRECT>()) pcr_tile_kernel(tri_view<T> v, long long batch, int spb, int *info)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *const sm = reinterpret_cast<T *>(smem_raw);
    const int n = v.n, nrhs = v.nrhs, P = (n + M - 1) / M;
    const bool packed = P <= 32;
    const int tps = packed ? 0 : (P + 31) & ~31, W = tps >> 5; // threads and warps per system
    const tile_layout<T> lay(n, spb, P, W, packed, !SYM && !CDIRECT);
    T *const tD = sm + lay.oD, *const tA = sm + lay.oA, *const tF = sm + lay.oF;
    T *const tC = SYM ? tA : sm + lay.oC;
    int *const fail_s = reinterpret_cast<int *>(sm + lay.total), *const bad_s = fail_s + spb;

    const int tid = threadIdx.x, nthr = blockDim.x, lane = tid & 31;
    int s, p; // system slot in the block, chunk in the system
    if (packed) {
        const int q = 32 / P, slot = lane / P;
        s = slot < q ? (tid >> 5) * q + slot : spb; // spb: an idle lane
        p = lane - slot * P;
    } else {
        s = tid / tps;
        p = tid - s * tps;
    }
    const long long sys0 = (long long)blockIdx.x * spb;
    const int nsys = int(min((long long)spb, batch - sys0));
    const bool has = s < nsys && p < P; // this thread owns rows
    const int lo = p * M, cnt = has ? min(M, n - lo) : 0;
    const int ss = has ? s : 0;
    const int bD = ss * n, bE = ss * (n - 1); // the system's first entry in the tile arrays
    if (tid < spb) {
        fail_s[tid] = INT_MAX;
        bad_s[tid] = 0;
    }

    // CDIRECT: this chunk's super-diagonal, straight from global memory.
    T cr[CDIRECT ? M : 1];
    if constexpr (CDIRECT) {
#pragma unroll
        for (int j = 0; j < M; j++) {
            const int r = lo + j;
            cr[j] = j < cnt && r < n - 1 ? __ldg(v.du + (sys0 + ss) * (n - 1) + r) : T(0);
        }
    }
    // c of row r (the chunk's j-th row)
    auto c_of = [&](int j, int r) -> T {
        if (r >= n - 1)
            return T(0);
        if constexpr (CDIRECT)
            return cr[j];
        else
            return tC[tpad<T>(bE + r)];
    };

    int my_fail = INT_MAX; // smallest failed row of this thread
    T chk = T(0);          // 0 while every input seen is finite (NaN sticks)
    const int len_d = nsys * n, len_e = nsys * (n - 1);
    const T *const gD = v.d + sys0 * n, *const gA = v.dl + sys0 * (n - 1);
    const T *const gC = SYM ? nullptr : v.du + sys0 * (n - 1);
    for (int q = 0; q < nrhs; q++) {
        // ---- stage the tile: right-hand side q and the matrix (step 1
        // overwrites it, so it comes again for each right-hand side)
        if (q > 0)
            __syncthreads(); // the previous right-hand side's x has left tF
        for (int k = tid; k < len_d; k += nthr)
            stage(tD + tpad<T>(k), gD + k);
        for (int k = tid; k < len_e; k += nthr)
            stage(tA + tpad<T>(k), gA + k);
        if constexpr (!SYM && !CDIRECT)
            for (int k = tid; k < len_e; k += nthr)
                stage(tC + tpad<T>(k), gC + k);
        if (nrhs == 1) {
            const T *const gF = v.B + sys0 * n;
            for (int k = tid; k < len_d; k += nthr)
                stage(tF + tpad<T>(k), gF + k);
        } else {
            for (int k = tid; k < len_d; k += nthr) {
                const int s2 = k / n, r = k - s2 * n;
                stage(tF + tpad<T>(k), v.rhs(sys0 + s2, q) + r);
            }
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads(); // the tile is complete

        // ---- step 1: sweeps inside the chunk
        T a0 = T(0), b0 = T(1), c0 = T(0), f0 = T(0);
        if (cnt > 0) {
            a0 = lo > 0 ? tA[tpad<T>(bE + lo - 1)] : T(0);
            b0 = tD[tpad<T>(bD + lo)];
            c0 = c_of(0, lo);
            f0 = tF[tpad<T>(bD + lo)];
            chk += (a0 - a0) + (b0 - b0) + (c0 - c0) + (f0 - f0);
        }
        // forward: row j becomes al_j x_first + x_j + ga_j x_{j+1} = ph_j
        T al = T(-1), ga = T(0), ph = T(0), pal = T(0), pga = T(0), pph = T(0);
#pragma unroll
        for (int j = 1; j < M; j++) {
            if (j < cnt) {
                const int r = lo + j;
                const T a = tA[tpad<T>(bE + r - 1)], b = tD[tpad<T>(bD + r)], c = c_of(j, r);
                const T f = tF[tpad<T>(bD + r)];
                chk += (a - a) + (b - b) + (c - c) + (f - f);
                const T piv = b - a * ga;
                if (piv == T(0) || !finite(piv))
                    my_fail = min(my_fail, r);
                const T inv = bsym::recip(piv);
                pal = al, pga = ga, pph = ph;
                ph = (f - a * ph) * inv;
                al = -a * al * inv;
                ga = c * inv;
                if (j < cnt - 1) { // inner rows: over d, dl (row's own slot) and b
                    tD[tpad<T>(bD + r)] = al;
                    tA[tpad<T>(bE + r - 1)] = ga;
                    tF[tpad<T>(bD + r)] = ph;
                }
            }
        }
        // backward: inner row j becomes x_j = ph_j - al_j x_first - ga_j x_last
        T bal = pal, bga = pga, bph = pph; // row j + 1, from row cnt - 2 up
#pragma unroll
        for (int j = M - 3; j >= 1; j--) {
            if (j <= cnt - 3) {
                const int r = lo + j;
                const T g = tA[tpad<T>(bE + r - 1)];
                const T a1 = tD[tpad<T>(bD + r)] - g * bal, p1 = tF[tpad<T>(bD + r)] - g * bph, g1 = -g * bga;
                tD[tpad<T>(bD + r)] = a1;
                tA[tpad<T>(bE + r - 1)] = g1;
                tF[tpad<T>(bD + r)] = p1;
                bal = a1, bga = g1, bph = p1;
            }
        }
        // the chunk's first row (fa x_prev + fb x_first + fc x_last = ff) and
        // last row (la x_first + lb x_last + lc x_next = lf)
        T fa = a0, fb = b0, fc = c0, ff = f0, la = T(0), lb = T(1), lc = T(0), lf = T(0);
        if (cnt >= 3) {
            fb = b0 - c0 * bal;
            fc = -c0 * bga;
            ff = f0 - c0 * bph;
        }
        if (cnt >= 2) {
            la = al;
            lc = ga;
            lf = ph;
        } else if (cnt == 1) { // one row (the system's last): x_last = x_first
            fc = T(0);
            la = T(-1);
        }

        // ---- step 2: x_first = nf - na y_{p-1} - nc y_p into the last row
        const T u = bsym::recip(fb);
        if (cnt > 0 && !finite(u))
            my_fail = min(my_fail, lo);
        const T na = fa * u, nc = fc * u, nf = ff * u;
        T nna, nnc, nnf; // the next chunk's
        if (packed) {
            nna = __shfl_down_sync(bsym::FULL_MASK, na, 1);
            nnc = __shfl_down_sync(bsym::FULL_MASK, nc, 1);
            nnf = __shfl_down_sync(bsym::FULL_MASK, nf, 1);
        } else {
            T *const xa = sm + lay.oXa + s * P, *const xc = sm + lay.oXc + s * P, *const xf = sm + lay.oXf + s * P;
            if (p < P) {
                xa[p] = na;
                xc[p] = nc;
                xf[p] = nf;
            }
            __syncthreads(); // every chunk's first row is out
            nna = p + 1 < P ? xa[p + 1] : T(0);
            nnc = p + 1 < P ? xc[p + 1] : T(0);
            nnf = p + 1 < P ? xf[p + 1] : T(0);
        }
        if (!(has && p + 1 < P))
            nna = nnc = nnf = T(0);
        T RA = -la * na, RB = lb - la * nc - lc * nna, RC = -lc * nnc, RF = lf - la * nf - lc * nnf;
        if (!has) {
            RA = RC = RF = T(0);
            RB = T(1);
        }

        // ---- step 3: the chunks' last unknowns y
        T y;
        int w = 0;
        T *Yl = nullptr;
        if (packed) {
            pcr_row<T> rr[1] = {{RA, RB, RC}};
            T fr[1] = {RF};
            bool fl[1] = {false};
            bsym::pcr_lanes<T, 1>(rr, fr, has ? p : 0, P, fl);
            y = fr[0];
            if (has && fl[0])
                my_fail = min(my_fail, lo + cnt - 1);
        } else {
            w = p >> 5;
            const int L = min(32, P - (w << 5)); // chunks of this warp (>= 1)
            // inner lanes 1 .. L-2: y = ph3 + V y_first + Wc y_last
            const bool inner = lane >= 1 && lane <= L - 2;
            pcr_row<T> rr = {T(0), T(1), T(0)};
            T fv[3] = {T(0), T(0), T(0)};
            if (inner) {
                rr.a = lane == 1 ? T(0) : RA;
                rr.b = RB;
                rr.c = lane == L - 2 ? T(0) : RC;
                fv[0] = RF;
                fv[1] = lane == 1 ? -RA : T(0);
                fv[2] = lane == L - 2 ? -RC : T(0);
            }
            bool fl = false;
            if (L > 2) // uniform in the warp
                bsym::pcr_lanes_rhs<T, 3>(rr, fv, lane - 1, L - 2, &fl);
            if (has && inner && fl)
                my_fail = min(my_fail, lo + cnt - 1);
            T ph3 = fv[0], V = fv[1], Wc = fv[2];
            if (lane == 0) {
                ph3 = T(0), V = T(1), Wc = T(0);
            } else if (lane == L - 1) {
                ph3 = T(0), V = T(0), Wc = T(1);
            } else if (lane >= L) {
                ph3 = V = Wc = T(0);
            }
            const T phD = __shfl_down_sync(bsym::FULL_MASK, ph3, 1), VD = __shfl_down_sync(bsym::FULL_MASK, V, 1);
            const T WD = __shfl_down_sync(bsym::FULL_MASK, Wc, 1);
            const T phU = __shfl_up_sync(bsym::FULL_MASK, ph3, 1), VU = __shfl_up_sync(bsym::FULL_MASK, V, 1);
            const T WU = __shfl_up_sync(bsym::FULL_MASK, Wc, 1);
            // the warp's first row (y_prev warp's last, y_first, y_last) and
            // last row (y_first, y_last, y_next warp's first)
            T *const La = sm + lay.oLa + s * 2 * W, *const Lb = sm + lay.oLb + s * 2 * W;
            T *const Lc = sm + lay.oLc + s * 2 * W, *const Lf = sm + lay.oLf + s * 2 * W;
            if (lane == 0) {
                La[2 * w] = RA;
                Lb[2 * w] = L >= 2 ? RB + RC * VD : RB;
                Lc[2 * w] = L >= 2 ? RC * WD : RC;
                Lf[2 * w] = L >= 2 ? RF - RC * phD : RF;
            }
            if (lane == L - 1) {
                La[2 * w + 1] = L >= 2 ? RA * VU : T(-1);
                Lb[2 * w + 1] = L >= 2 ? RB + RA * WU : T(1);
                Lc[2 * w + 1] = L >= 2 ? RC : T(0);
                Lf[2 * w + 1] = L >= 2 ? RF - RA * phU : T(0);
            }
            T *const Yf = sm + lay.oYf + s * W;
            Yl = sm + lay.oYl + s * W;
            __syncthreads(); // every warp's end rows are out
            if (w == 0) {
                // the system's first warp: eliminate each warp's first y
                // (as step 2), PCR on the W last y, then the first y
                const bool act = lane < W;
                T a1 = T(0), b1 = T(1), c1 = T(0), f1 = T(0), a2 = T(0), b2 = T(1), c2 = T(0), f2 = T(0);
                if (act) {
                    a1 = La[2 * lane], b1 = Lb[2 * lane], c1 = Lc[2 * lane], f1 = Lf[2 * lane];
                    a2 = La[2 * lane + 1], b2 = Lb[2 * lane + 1], c2 = Lc[2 * lane + 1], f2 = Lf[2 * lane + 1];
                }
                const T u3 = bsym::recip(b1);
                const T na3 = a1 * u3, nc3 = c1 * u3, nf3 = f1 * u3;
                T nna3 = __shfl_down_sync(bsym::FULL_MASK, na3, 1), nnc3 = __shfl_down_sync(bsym::FULL_MASK, nc3, 1);
                T nnf3 = __shfl_down_sync(bsym::FULL_MASK, nf3, 1);
                if (lane + 1 >= W)
                    nna3 = nnc3 = nnf3 = T(0);
                pcr_row<T> r3[1] = {{-a2 * na3, b2 - a2 * nc3 - c2 * nna3, -c2 * nnc3}};
                T f3[1] = {f2 - a2 * nf3 - c2 * nnf3};
                bool fl3[1] = {false};
                bsym::pcr_lanes<T, 1>(r3, f3, act ? lane : 0, W, fl3);
                const T z = f3[0];
                T zp = __shfl_up_sync(bsym::FULL_MASK, z, 1);
                if (lane == 0)
                    zp = T(0);
                if (act) {
                    Yf[lane] = nf3 - na3 * zp - nc3 * z;
                    Yl[lane] = z;
                    if (s < nsys && (fl3[0] || !finite(u3))) { // the warp's last row
                        const int last_chunk = min(P, 32 * lane + 32) - 1;
                        my_fail = min(my_fail, min(n, (last_chunk + 1) * M) - 1);
                    }
                }
            }
            __syncthreads(); // every warp's first and last y are in place
            const T y0 = Yf[w], yl = Yl[w];
            y = lane == 0 ? y0 : lane == L - 1 ? yl : ph3 + V * y0 + Wc * yl;
        }

        // ---- step 4: x_first, then the inner rows
        T yp = __shfl_up_sync(bsym::FULL_MASK, y, 1);
        if (!packed && lane == 0)
            yp = w > 0 ? Yl[w - 1] : T(0);
        if (p == 0)
            yp = T(0);
        if (cnt > 0) {
            const T xl = y, xf = cnt >= 2 ? nf - na * yp - nc * y : y;
            if (!finite(xf))
                my_fail = min(my_fail, lo);
            if (!finite(xl))
                my_fail = min(my_fail, lo + cnt - 1);
#pragma unroll
            for (int j = 1; j < M - 1; j++) {
                if (j <= cnt - 2) {
                    const int r = lo + j;
                    const T x = tF[tpad<T>(bD + r)] - tD[tpad<T>(bD + r)] * xf - tA[tpad<T>(bE + r - 1)] * xl;
                    if (!finite(x))
                        my_fail = min(my_fail, r);
                    tF[tpad<T>(bD + r)] = x;
                }
            }
            tF[tpad<T>(bD + lo)] = xf;
            tF[tpad<T>(bD + lo + cnt - 1)] = xl;
        }

        // ---- verdicts (rare path), then x leaves
        const bool mine_bad = !(chk == T(0));
        if (__syncthreads_or(my_fail != INT_MAX || mine_bad)) { // x is in tF, too
            if (has && my_fail != INT_MAX)
                atomicMin(&fail_s[s], my_fail);
            if (has && mine_bad)
                bad_s[s] = 1;
            __syncthreads(); // the block's verdicts are in
            if (has && (fail_s[s] != INT_MAX || bad_s[s] != 0))
                for (int j = 0; j < cnt; j++)
                    tF[tpad<T>(bD + lo + j)] = T(NAN);
            __syncthreads(); // failed systems are NaN in tF
        }
        if (nrhs == 1) {
            T *const gF = v.B + sys0 * n;
            for (int k = tid; k < len_d; k += nthr)
                gF[k] = tF[tpad<T>(k)];
        } else {
            for (int k = tid; k < len_d; k += nthr) {
                const int s2 = k / n, r = k - s2 * n;
                v.rhs(sys0 + s2, q)[r] = tF[tpad<T>(k)];
            }
        }
    }
    __syncthreads(); // the verdicts are final and every x is stored
    if (tid < nsys)
        info[sys0 + tid] = bad_s[tid] != 0 ? -1 : fail_s[tid] != INT_MAX ? fail_s[tid] + 1 : 0;
    // a failure met at a later right-hand side: the earlier ones go NaN too
    if (nrhs > 1 && has && (bad_s[s] != 0 || fail_s[s] != INT_MAX))
        for (int q = 0; q < nrhs; q++)
            for (int j = 0; j < cnt; j++)
                v.rhs(sys0 + s, q)[lo + j] = T(NAN);
}

// Rows per thread M of the tile kernel by default (4, 8 and 16 are
// instantiated). On an H100 (bench_tridiag --pcr-rows 8,16, n = 256 ..
// 8192), of the bandwidth bound: float M = 16 49-82 % (general) and 57-73 %
// (symmetric), M = 8 43-74 % and 39-65 %; double general M = 8 48-95 %,
// M = 16 48-85 %, except n = 512 (84 % against 81 %: 16 rows a thread put a
// system in one warp, without the reduction across warps); double
// symmetric M = 16 54-84 %, M = 8 49-88 % (below at every n but 256).
template <typename T> int tile_rows_default(int n, bool symmetric)
{
    if (sizeof(T) == 4 || symmetric)
        return 16;
    return (n + 7) / 8 > 32 && (n + 15) / 16 <= 32 ? 16 : 8;
}

// How the tile kernel takes n on this device: M, P, CDIRECT, and the block
// shapes that fit (units = warps when packed, else systems, from 1 to
// max_units; tile_shape gives each one's systems, threads and bytes);
// ok = false where no tile fits (the partition kernel then serves).
struct tile_plan {
    bool ok = false, packed = false, cdirect = false;
    int m = 0, p = 0, max_units = 0;
};

struct tile_shape {
    int spb = 0, threads = 0;
    size_t smem = 0;
};

template <typename T> tile_shape shape_of(int n, const tile_plan &pl, bool symmetric, int units)
{
    tile_shape sh;
    const int tps = (pl.p + 31) & ~31;
    sh.spb = pl.packed ? units * (32 / pl.p) : units;
    sh.threads = pl.packed ? 32 * units : units * tps;
    const tile_layout<T> lay(n, sh.spb, pl.p, tps / 32, pl.packed, !symmetric && !pl.cdirect);
    sh.smem = lay.bytes(sh.spb);
    return sh;
}

// The plan for M rows per thread (ok = false where no tile fits).
template <typename T> tile_plan plan_tile_m(int n, bool symmetric, int smem_max, int m)
{
    tile_plan pl;
    const int P = (n + m - 1) / m;
    if (P > 1024)
        return pl;
    pl.m = m;
    pl.p = P;
    pl.packed = P <= 32;
    // the four arrays staged where one system fits, else (general) CDIRECT;
    // up to 8 warps a block
    const int max_units = pl.packed ? 8 : std::max(1, 256 / ((P + 31) & ~31));
    for (int cd = 0; cd < 2; cd++) {
        pl.cdirect = !symmetric && cd == 1;
        if (cd == 1 && symmetric)
            break;
        if (pl.cdirect && ((P + 31) & ~31) > tile_max_threads<T, true>())
            continue;
        for (int units = max_units; units >= 1; units--)
            if (shape_of<T>(n, pl, symmetric, units).smem <= size_t(smem_max) &&
                shape_of<T>(n, pl, symmetric, units).threads <= (pl.cdirect ? tile_max_threads<T, true>() : 1024)) {
                pl.ok = true;
                pl.max_units = units;
                return pl;
            }
    }
    return tile_plan();
}

// M = rows (4, 8 or 16: the launch's choice, for tuning) or else
// tile_rows_default, doubled up to 16 while the system needs more than 1024
// threads or no tile fits.
template <typename T> tile_plan plan_tile(int n, bool symmetric, int smem_max, int rows)
{
    int m = rows == 4 || rows == 8 || rows == 16 ? rows : tile_rows_default<T>(n, symmetric);
    for (; m <= 16; m *= 2) {
        const tile_plan pl = plan_tile_m<T>(n, symmetric, smem_max, m);
        if (pl.ok)
            return pl;
    }
    return tile_plan();
}

// The block shape with the most tile bytes resident on an SM (the bytes in
// flight while the tiles stream in), then the most threads resident: a big
// tile that leaves most of the shared memory unused loses to a smaller one
// (H100, double, n = 512, M = 8: 4 systems a block, 2 blocks an SM, 77 %
// of the bound, against 91 % at n = 256 with 3 blocks an SM).
template <typename T, int M, bool SYM, bool CDIRECT>
bsym_status pick_shape(int n, const tile_plan &pl, int smem_max, tile_shape *best, char *msg, size_t msglen)
{
    auto kernel = pcr_tile_kernel<T, M, SYM, CDIRECT>;
    // opt in above the default 48 KB of dynamic shared memory
    BSYM_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
    double best_bytes = -1, best_threads = -1;
    for (int units = 1; units <= pl.max_units; units++) {
        const tile_shape sh = shape_of<T>(n, pl, SYM, units);
        int blocks = 0;
        BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, sh.threads, sh.smem));
        const double bytes = double(blocks) * double(sh.smem), threads = double(blocks) * sh.threads;
        if (bytes > best_bytes || (bytes == best_bytes && threads >= best_threads)) {
            best_bytes = bytes;
            best_threads = threads;
            *best = sh;
        }
    }
    return BSYM_OK;
}

template <typename T, int M, bool SYM, bool CDIRECT>
bsym_status launch_tile_kernel(tri_view<T> v, long long batch, int *info, const tile_plan &pl, int smem_max,
                               cudaStream_t s, char *msg, size_t msglen)
{
    tile_shape sh;
    const bsym_status st = pick_shape<T, M, SYM, CDIRECT>(v.n, pl, smem_max, &sh, msg, msglen);
    if (st != BSYM_OK)
        return st;
    const long long per_launch = 0x7fffffffLL * sh.spb;
    for (long long first = 0; first < batch; first += per_launch) {
        const long long count = std::min<long long>(batch - first, per_launch);
        tri_view<T> w = v;
        w.dl += first * (v.n - 1);
        w.d += first * v.n;
        if (w.du != nullptr)
            w.du += first * (v.n - 1);
        w.B += first * v.n * (long long)v.nrhs;
        pcr_tile_kernel<T, M, SYM, CDIRECT><<<unsigned((count + sh.spb - 1) / sh.spb), sh.threads, sh.smem, s>>>(
            w, count, sh.spb, info + first);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

template <typename T, int M>
bsym_status launch_tile_m(tri_view<T> v, long long batch, int *info, const tile_plan &pl, int smem_max,
                          cudaStream_t s, char *msg, size_t msglen)
{
    if (v.du == nullptr)
        return launch_tile_kernel<T, M, true, false>(v, batch, info, pl, smem_max, s, msg, msglen);
    if (pl.cdirect)
        return launch_tile_kernel<T, M, false, true>(v, batch, info, pl, smem_max, s, msg, msglen);
    return launch_tile_kernel<T, M, false, false>(v, batch, info, pl, smem_max, s, msg, msglen);
}

template <typename T>
bsym_status launch_tile(tri_view<T> v, long long batch, int *info, const tile_plan &pl, int smem_max,
                        cudaStream_t s, char *msg, size_t msglen)
{
    switch (pl.m) {
    case 4:
        return launch_tile_m<T, 4>(v, batch, info, pl, smem_max, s, msg, msglen);
    case 8:
        return launch_tile_m<T, 8>(v, batch, info, pl, smem_max, s, msg, msglen);
    default:
        return launch_tile_m<T, 16>(v, batch, info, pl, smem_max, s, msg, msglen);
    }
}

// Launches the kernel for n on `batch` systems; work: partition_work bytes;
// rows: the tile kernel's rows a thread (n > 32; 0 the tuned choice).
template <typename T>
bsym_status launch(tri_view<T> v, long long batch, int *info, T *work, int rows, cudaStream_t s, char *msg,
                   size_t msglen)
{
    if (v.n < 1 || v.n > BSYM_GPU_PCR_MAX_N || batch < 0 || v.nrhs < 0) {
        std::snprintf(msg, msglen, "no GPU tridiagonal solve for n = %d", v.n);
        return BSYM_ERR_ARG;
    }
    if (batch == 0)
        return BSYM_OK;
    if (v.n <= 32) {
        const int threads = 256, per_block = (threads / 32) * (32 / v.n) * LANE_SETS;
        const long long blocks = (batch + per_block - 1) / per_block;
        pcr_lanes_kernel<T><<<unsigned(blocks), threads, 0, s>>>(v, batch, info);
    } else {
        int dev = 0, smem_max = 0;
        BSYM_CUDA_TRY(cudaGetDevice(&dev));
        BSYM_CUDA_TRY(cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        const tile_plan pl = plan_tile<T>(v.n, v.du == nullptr, smem_max, rows);
        if (pl.ok)
            return launch_tile<T>(v, batch, info, pl, smem_max, s, msg, msglen);
        if (work == nullptr) {
            std::snprintf(msg, msglen, "the GPU tridiagonal solve for n = %d needs a workspace", v.n);
            return BSYM_ERR_ARG;
        }
        if (partition_threads(v.n) == 32)
            return launch_partition<T, 4>(v, batch, info, work, s, msg, msglen);
        return launch_partition<T, 1>(v, batch, info, work, s, msg, msglen);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// Arguments of one host call, for the pipeline's chunk launcher. Arrays in
// pipeline order: dl, d, [du], B, info, workspace.
template <typename T> struct pcr_call {
    int n, nrhs;
    bool symmetric;
};

template <typename T>
bsym_status pcr_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const pcr_call<T> *c = static_cast<const pcr_call<T> *>(arg);
    int k = 0;
    tri_view<T> v;
    v.dl = static_cast<const T *>(dev[k++]);
    v.d = static_cast<const T *>(dev[k++]);
    v.du = c->symmetric ? nullptr : static_cast<const T *>(dev[k++]);
    v.B = static_cast<T *>(dev[k++]);
    v.n = c->n;
    v.nrhs = c->nrhs;
    int *info = static_cast<int *>(dev[k++]);
    T *work = static_cast<T *>(dev[k++]);
    return launch<T>(v, count, info, work, 0, s, msg, msglen);
}

template <typename T>
bsym_status pcr_host(const bsym__exec *x, int64_t n, int64_t nrhs, int64_t batch, const T *dl, const T *d,
                     const T *du, T *B, int *info)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    if (n < 1 || n > BSYM_GPU_PCR_MAX_N) {
        std::snprintf(msg, msglen, "n = %lld is outside the GPU tridiagonal solve's 1..%d",
                      (long long)n, BSYM_GPU_PCR_MAX_N);
        return BSYM_ERR_SIZE;
    }
    pcr_call<T> call{int(n), int(nrhs), du == nullptr};
    bsym_array arrays[6];
    int k = 0;
    arrays[k++] = {dl, nullptr, size_t(n - 1) * sizeof(T)};
    arrays[k++] = {d, nullptr, size_t(n) * sizeof(T)};
    if (du != nullptr)
        arrays[k++] = {du, nullptr, size_t(n - 1) * sizeof(T)};
    arrays[k++] = {B, B, size_t(n * nrhs) * sizeof(T)};
    arrays[k++] = {nullptr, info, sizeof(int)};
    // device-only workspace (n > 32): neither copied in nor out
    arrays[k++] = {nullptr, nullptr, n > 32 ? partition_work<T>(int(n), 1) : 0};
    return bsym_pipeline(x, arrays, k, batch, pcr_chunk<T>, &call);
}

} // namespace

extern "C" size_t bsym_cuda_pcr_workspace(char precision, int n, int nrhs, int64_t batch)
{
    (void)nrhs;
    if (n <= 32)
        return 0;
    return precision == 'd' ? partition_work<double>(n, batch) : partition_work<float>(n, batch);
}

namespace bsym_cuda {

template <typename T> bsym_status pcr_op(const bsym__exec *x, const bsym__job *j)
{
    return pcr_host<T>(x, j->n, j->nrhs, j->batch, static_cast<const T *>(j->dl), static_cast<const T *>(j->dd),
                       static_cast<const T *>(j->du), static_cast<T *>(j->B), j->info);
}

template <typename T>
bsym_status pcr_launch(int n, int nrhs, int64_t batch, const T *dl, const T *d, const T *du, T *B,
                       int *info, void *work, int rows, cudaStream_t s, char *msg, size_t msglen)
{
    tri_view<T> v{dl, d, du, B, n, nrhs};
    return launch<T>(v, batch, info, static_cast<T *>(work), rows, s, msg, msglen);
}

#define BSYM_PCR_INSTANTIATE(T)                                                                     \
    template bsym_status pcr_op<T>(const bsym__exec *, const bsym__job *);                          \
    template bsym_status pcr_launch<T>(int, int, int64_t, const T *, const T *, const T *, T *, int *, \
                                       void *, int, cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_PCR_INSTANTIATE)

} // namespace bsym_cuda
