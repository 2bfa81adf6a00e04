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
#include <type_traits>

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

// Launches the kernel for n on `batch` systems; work: partition_work bytes.
template <typename T>
bsym_status launch(tri_view<T> v, long long batch, int *info, T *work, cudaStream_t s, char *msg,
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
    return launch<T>(v, count, info, work, s, msg, msglen);
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
                       int *info, void *work, cudaStream_t s, char *msg, size_t msglen)
{
    tri_view<T> v{dl, d, du, B, n, nrhs};
    return launch<T>(v, batch, info, static_cast<T *>(work), s, msg, msglen);
}

#define BSYM_PCR_INSTANTIATE(T)                                                                     \
    template bsym_status pcr_op<T>(const bsym__exec *, const bsym__job *);                          \
    template bsym_status pcr_launch<T>(int, int, int64_t, const T *, const T *, const T *, T *, int *, \
                                       void *, cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_PCR_INSTANTIATE)

} // namespace bsym_cuda
