// eigen.cu -- the batched symmetric eigensolvers on the GPU (bsym_*syev,
// bsym_*stev). Implements Abbas-Turki & Graillat 2017, Sect. 5 (Algorithm 3,
// divide and conquer), and Lessig's bisection (values only). The
// Householder kernel of householder.cu reduces full matrices to d, e (and Q when vectors are wanted, written where V goes),
// then one kernel runs the per-system numerics of core/tridiag_eig_impl.h --
// the same source as the CPU -- with a group of G lanes per system:
// bisection (values only: one lane per eigenvalue) or divide and conquer
// (vectors: one lane per block, root, column or row of each phase). A
// system's whole workspace lives in shared memory.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "common.cuh"

namespace {

// ---- the shared numerics: two copies, by the row update's cap ----------------
#define TE_FN static __device__
#define TE_SYNC() __syncwarp()
// a / b through the correctly rounded reciprocal (cheaper than IEEE division)
__device__ __forceinline__ float te_div(float a, float b) { return a * __frcp_rn(b); }
__device__ __forceinline__ double te_div(double a, double b) { return a * __drcp_rn(b); }
#define TE_DIV(a, b) te_div((a), (b))

namespace cap32 {
#define TE_ROWS_CAP 32
#include "eigen_numerics.cuh"
#undef TE_ROWS_CAP
} // namespace cap32
namespace cap64 {
#define TE_ROWS_CAP 64
#include "eigen_numerics.cuh"
#undef TE_ROWS_CAP
} // namespace cap64

// ---- the kernel ------------------------------------------------------------------
template <typename T> struct eig_args {
    int n;
    int64_t batch;
    const T *d, *e;     // tridiagonal input (device), e (n-1) per system
    const int *hinfo;   // Householder info (-1 non-finite) or nullptr
    T *w, *V;           // V: Q on entry for full input (nullptr: values only)
    int full;           // 1: V holds Q on entry; 0: start from I
    int *count, *info;
    bsym_select sel;
    size_t sys_bytes;   // shared bytes of one system
    size_t t_bytes;     // of which the T part
};

// Shared bytes of one system: the whole workspace with vectors, else only d,
// e and the ints (bisection needs nothing else).
template <typename T> size_t t_part(int n, bool vectors)
{
    size_t b = (vectors ? TE_WORK_T(n) : 2 * (size_t)n) * sizeof(T);
    return (b + 15) / 16 * 16;
}
template <typename T> size_t sys_part(int n, bool vectors)
{
    return (t_part<T>(n, vectors) + TE_WORK_I(n) * sizeof(int) + 15) / 16 * 16;
}

// One group of G lanes per system, blockDim.x / G systems per block. A group
// past the batch end runs a copy of the last system (so that it meets every
// __syncwarp of its warp) and writes nothing.
template <typename T, int G, bool VECTORS, int CAP>
__global__ void __launch_bounds__(128, VECTORS ? (CAP > 32 || sizeof(T) == 8 ? 4 : 5) : 8) eig_kernel(eig_args<T> a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = a.n, lane = threadIdx.x % G, grp = threadIdx.x / G;
    int64_t k = (int64_t)blockIdx.x * (blockDim.x / G) + grp;
    const bool live = k < a.batch;
    if (!live)
        k = a.batch - 1;
    // carve-out: system grp's T workspace, then its ints
    unsigned char *base = smem + grp * a.sys_bytes;
    typedef typename std::conditional<CAP == 32, cap32::te<T>, cap64::te<T>>::type te;
    typename te::ws ws;
    te::carve(&ws, n, reinterpret_cast<T *>(base), reinterpret_cast<int *>(base + a.t_bytes));
    for (int i = lane; i < n; i += G) {
        ws.d[i] = a.d[k * n + i];
        ws.e[i] = i + 1 < n ? a.e[k * (n - 1) + i] : T(0);
    }
    if (VECTORS)
        for (int idx = lane; idx < n * n; idx += G) {
            const int i = idx % n, j = idx / n;
            TE_W(&ws, n, i, j) = a.full ? a.V[k * n * n + idx] : T(i == j);
        }
    __syncwarp(); // d, e and W loaded before the leader scales them
    if (lane == 0) {
        te::scale(&ws, n);
        if (a.hinfo != nullptr && a.hinfo[k] != 0)
            ws.misc[TE_FINITE] = 0;
        const int kind = VECTORS && a.sel.kind == BSYM_SELECT_VALUE ? BSYM_SELECT_ALL : a.sel.kind;
        te::select(&ws, n, a.sel, kind);
    }
    __syncwarp(); // the scaled T and the selected range seen by all lanes
    if (VECTORS) {
        te::dc(&ws, n, lane, G);
        if (lane == 0)
            te::dc_select(&ws, n, a.sel);
        __syncwarp(); // the range of a value selection
        if (live)
            te::output(&ws, n, a.w + k * n, a.V + k * n * n, lane, G);
    } else {
        te::bisect(&ws, n, live ? a.w + k * n : nullptr, lane, G);
    }
    if (live && lane == 0) {
        a.count[k] = ws.misc[TE_FAIL] ? 0 : ws.misc[TE_COUNT]; // info != 0: NaN, nothing selected
        a.info[k] = !ws.misc[TE_FINITE] ? -1 : ws.misc[TE_FAIL];
    }
}

template <typename T, int G, bool VECTORS, int CAP>
bsym_status launch_group(eig_args<T> a, cudaStream_t s, char *msg, size_t msglen)
{
    a.t_bytes = t_part<T>(a.n, VECTORS);
    a.sys_bytes = sys_part<T>(a.n, VECTORS);
    // four warps per block while their workspaces stay below 96 KB, else one
    int spb = 128 / G;
    if (spb * a.sys_bytes > 96 * 1024)
        spb = 32 / G;
    const size_t shmem = spb * a.sys_bytes;
    if (shmem > 48 * 1024)
        BSYM_CUDA_TRY(cudaFuncSetAttribute(eig_kernel<T, G, VECTORS, CAP>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
    const int64_t blocks = (a.batch + spb - 1) / spb;
    eig_kernel<T, G, VECTORS, CAP><<<unsigned(blocks), spb * G, shmem, s>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// G lanes per system: 8 for n <= 8, 16 for n <= 16, else a warp; the
// row update's cap 32 up to n = 32, 64 above.
template <typename T, bool VECTORS>
bsym_status launch_vec(const eig_args<T> &a, cudaStream_t s, char *msg, size_t msglen)
{
    if (a.n <= 8)
        return launch_group<T, 8, VECTORS, 32>(a, s, msg, msglen);
    if (a.n <= 16)
        return launch_group<T, 16, VECTORS, 32>(a, s, msg, msglen);
    if (a.n <= 32)
        return launch_group<T, 32, VECTORS, 32>(a, s, msg, msglen);
    return launch_group<T, 32, VECTORS, 64>(a, s, msg, msglen);
}

// The whole device-resident computation: Householder (full input), then the
// eigensolver kernel. dd, de: input (A == nullptr) or scratch.
template <typename T>
bsym_status run(char uplo, int n, int64_t batch, const T *A, T *dd, T *de, const bsym_select &sel,
                T *w, T *V, int *count, int *info, cudaStream_t s, char *msg, size_t msglen)
{
    if (batch == 0)
        return BSYM_OK;
    eig_args<T> a{};
    a.n = n;
    a.batch = batch;
    a.d = dd;
    a.e = de;
    a.w = w;
    a.V = V;
    a.count = count;
    a.info = info;
    a.sel = sel;
    if (A != nullptr) {
        bsym_status st = bsym_cuda::tridiagonalize_launch<T>(uplo, n, batch, A, dd, de, V, info, s, msg, msglen);
        if (st != BSYM_OK)
            return st;
        a.hinfo = info; // read before the kernel overwrites it, by the same thread
        a.full = 1;
    }
    return V != nullptr ? launch_vec<T, true>(a, s, msg, msglen) : launch_vec<T, false>(a, s, msg, msglen);
}

template <typename T> struct host_args {
    char uplo;
    int n;
    bool full, vectors;
    bsym_select sel;
};

// Pipeline arrays: input (A, or d then e), w, V, count, info, scratch d, e.
template <typename T>
bsym_status eig_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const host_args<T> &h = *static_cast<const host_args<T> *>(arg);
    const T *A = h.full ? static_cast<const T *>(dev[0]) : nullptr;
    T *dd = static_cast<T *>(dev[h.full ? 5 : 0]), *de = static_cast<T *>(dev[h.full ? 6 : 1]);
    T *w = static_cast<T *>(dev[2]), *V = h.vectors ? static_cast<T *>(dev[3]) : nullptr;
    return run<T>(h.uplo, h.n, count, A, dd, de, h.sel, w, V, static_cast<int *>(dev[4]),
                  static_cast<int *>(dev[7]), s, msg, msglen);
}

template <typename T>
bsym_status eig_host(const bsym__exec *x, char uplo, int64_t n, int64_t batch, const T *A, const T *d, const T *e,
                     const bsym_select *sel, T *w, T *V, int *count, int *info)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    if (n < 1 || n > BSYM_GPU_EIGEN_MAX_N) {
        std::snprintf(msg, msglen, "n = %lld is outside the GPU eigensolvers' 1..%d", (long long)n,
                      BSYM_GPU_EIGEN_MAX_N);
        return BSYM_ERR_SIZE;
    }
    host_args<T> h{uplo, int(n), A != nullptr, V != nullptr, *sel};
    const size_t sz = sizeof(T), ne = size_t(n > 1 ? n - 1 : 1);
    // slots 0, 1: the input; 5, 6: d, e scratch of full input (unused slots
    // carry 0 bytes)
    bsym_array input{d, nullptr, size_t(n) * sz};
    if (A != nullptr)
        input = host_matrix<T>(A, n, uplo);
    const bsym_array arrays[8] = {
        input,
        {A != nullptr ? nullptr : (const void *)e, nullptr, A != nullptr ? 0 : ne * sz},
        {nullptr, w, size_t(n) * sz},
        {nullptr, V, V != nullptr ? size_t(n * n) * sz : 0},
        {nullptr, count, sizeof(int)},
        {nullptr, nullptr, A != nullptr ? size_t(n) * sz : 0},
        {nullptr, nullptr, A != nullptr ? ne * sz : 0},
        {nullptr, info, sizeof(int)},
    };
    return bsym_pipeline(x, arrays, 8, batch, eig_chunk<T>, &h);
}

} // namespace

namespace bsym_cuda {

template <typename T> bsym_status eig_op(const bsym__exec *x, const bsym__job *j)
{
    return eig_host<T>(x, j->uplo, j->n, j->batch, static_cast<const T *>(j->A), static_cast<const T *>(j->dd),
                       static_cast<const T *>(j->dl), j->sel, static_cast<T *>(j->w), static_cast<T *>(j->V),
                       j->count, j->info);
}

template <typename T>
bsym_status eig_launch(char uplo, int n, int64_t batch, const T *A, T *d, T *e, const bsym_select &sel, T *w,
                       T *V, int *count, int *info, cudaStream_t s, char *msg, size_t msglen)
{
    return run<T>(uplo, n, batch, A, d, e, sel, w, V, count, info, s, msg, msglen);
}

#define BSYM_EIG_INSTANTIATE(T)                                                                     \
    template bsym_status eig_op<T>(const bsym__exec *, const bsym__job *);                          \
    template bsym_status eig_launch<T>(char, int, int64_t, const T *, T *, T *, const bsym_select &, \
                                       T *, T *, int *, int *, cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_EIG_INSTANTIATE)

} // namespace bsym_cuda
