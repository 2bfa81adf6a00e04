// eigen.cu -- the batched symmetric eigensolvers on the GPU (bsym_*syev,
// bsym_*stev). The Householder kernels of householder.cu / householder_block.cu
// reduce full matrices to d, e (and Q, written where V goes); then:
//   - the implicit QL iteration with Wilkinson shifts (eigen_ql.cuh), one
//     thread a system, gives the values; with vectors it records its
//     rotations and a second kernel replays them on the rows of Q (or I),
//     each thread owning rows in registers (small n: qls_from below) or in
//     shared memory;
//   - divide and conquer (Abbas-Turki & Graillat 2017, Sect. 5, Algorithm 3;
//     eig_kernel below: the per-system numerics of core/tridiag_eig_impl.h,
//     the CPU's source, with a group of G lanes per system and its whole
//     workspace in shared memory) solves, in list mode, the systems whose
//     QL record would overflow, up to DC_MAX_N = 64; above, eigen_ql.cuh's
//     qlr_kernel does (no record: each rotation applied as it is made).
// Scaling, selection and output rules are the core's (te_scale_,
// te_select_range_, te_dc_select_, te_dc_output_).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <cuda_pipeline.h> // __pipeline_memcpy_async (eigen_ql.cuh's qls_kernel)

#include "common.cuh"

namespace {

// ---- the shared numerics: two copies, by the row update's cap ----------------
#define TE_FN static __device__
#define TE_SYNC() __syncwarp()
// a / b through the correctly rounded reciprocal (cheaper than IEEE division)
#include "ql_iterate.h"
#define TE_DIV(a, b) ql_div((a), (b))

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

// The largest n of divide and conquer (eig_kernel, cap64's row cap): the
// fallback of an overflowed QL record up to here, qlr_kernel above.
constexpr int DC_MAX_N = 64;

// ---- the kernel ------------------------------------------------------------------
template <typename T> struct eig_args {
    int n;
    int64_t batch;
    T *d, *e;           // tridiagonal input (device), e (n-1) per system;
                        // with A, the Householder reduction's output
    const int *hinfo;   // Householder info (-1 non-finite) or nullptr
    T *w, *V;           // V: Q on entry for full input (nullptr: values only)
    int full;           // 1: V holds Q on entry; 0: start from I
    int *count, *info;
    bsym_select sel;
    size_t sys_bytes;   // shared bytes of one system
    size_t t_bytes;     // of which the T part
    const int *list;    // list mode: the systems list[0 .. *nlist) only
    const int *nlist;
    const T *A;         // full input (run's Householder reduces it into d, e
                        // and Q in V, a sub-batch at a time), or nullptr
    char uplo;          // A's triangle
};

// Shared bytes of one system's divide-and-conquer workspace.
template <typename T> size_t t_part(int n)
{
    return (TE_WORK_T(n) * sizeof(T) + 15) / 16 * 16;
}
template <typename T> size_t sys_part(int n)
{
    return (t_part<T>(n) + TE_WORK_I(n) * sizeof(int) + 15) / 16 * 16;
}

// Divide and conquer with vectors: one group of G lanes per system,
// blockDim.x / G systems per block. A group
// past the batch end runs a copy of the last system (so that it meets every
// __syncwarp of its warp) and writes nothing.
template <typename T, int G, int CAP>
__global__ void __launch_bounds__(128, CAP > 32 || sizeof(T) == 8 ? 4 : 5) eig_kernel(eig_args<T> a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = a.n, lane = threadIdx.x % G, grp = threadIdx.x / G;
    const int spb = blockDim.x / G;
    int64_t k = (int64_t)blockIdx.x * spb + grp;
    bool live;
    if (a.list != nullptr) {
        const int nl = *a.nlist;
        if ((int64_t)blockIdx.x * spb >= nl)
            return; // the whole block: no group of it is listed
        live = k < nl;
        k = a.list[live ? k : nl - 1];
    } else {
        live = k < a.batch;
        if (!live)
            k = a.batch - 1;
    }
    // carve-out: system grp's T workspace, then its ints
    unsigned char *base = smem + grp * a.sys_bytes;
    typedef typename std::conditional<CAP == 32, cap32::te<T>, cap64::te<T>>::type te;
    typename te::ws ws;
    te::carve(&ws, n, reinterpret_cast<T *>(base), reinterpret_cast<int *>(base + a.t_bytes));
    for (int i = lane; i < n; i += G) {
        ws.d[i] = a.d[k * n + i];
        ws.e[i] = i + 1 < n ? a.e[k * (n - 1) + i] : T(0);
    }
    for (int idx = lane; idx < n * n; idx += G) {
        const int i = idx % n, j = idx / n;
        TE_W(&ws, n, i, j) = a.full ? a.V[k * n * n + idx] : T(i == j);
    }
    __syncwarp(); // d, e and W loaded before the leader scales them
    if (lane == 0) {
        te::scale(&ws, n);
        if (a.hinfo != nullptr && a.hinfo[k] != 0)
            ws.misc[TE_FINITE] = 0;
        te::select(&ws, n, a.sel);
    }
    __syncwarp(); // the scaled T and the selected range seen by all lanes
    te::dc(&ws, n, lane, G);
    if (lane == 0)
        te::dc_select(&ws, n, a.sel);
    __syncwarp(); // the range of a value selection
    if (live)
        te::output(&ws, n, a.w + k * n, a.V + k * n * n, lane, G);
    if (live && lane == 0) {
        a.count[k] = ws.misc[TE_FAIL] ? 0 : ws.misc[TE_COUNT]; // info != 0: NaN, nothing selected
        a.info[k] = !ws.misc[TE_FINITE] ? -1 : ws.misc[TE_FAIL];
    }
}

template <typename T, int G, int CAP>
bsym_status launch_group(eig_args<T> a, cudaStream_t s, char *msg, size_t msglen)
{
    a.t_bytes = t_part<T>(a.n);
    a.sys_bytes = sys_part<T>(a.n);
    // four warps per block while their workspaces stay below 96 KB, else one
    int spb = 128 / G;
    if (spb * a.sys_bytes > 96 * 1024)
        spb = 32 / G;
    const size_t shmem = spb * a.sys_bytes;
    if (shmem > 48 * 1024)
        BSYM_CUDA_TRY(cudaFuncSetAttribute(eig_kernel<T, G, CAP>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
    const int64_t blocks = (a.batch + spb - 1) / spb;
    eig_kernel<T, G, CAP><<<unsigned(blocks), spb * G, shmem, s>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// G lanes per system: 8 for n <= 8, 16 for n <= 16, else a warp; the
// row update's cap 32 up to n = 32, 64 above.
template <typename T>
bsym_status launch_vec(const eig_args<T> &a, cudaStream_t s, char *msg, size_t msglen)
{
    if (a.n <= 8)
        return launch_group<T, 8, 32>(a, s, msg, msglen);
    if (a.n <= 16)
        return launch_group<T, 16, 32>(a, s, msg, msglen);
    if (a.n <= 32)
        return launch_group<T, 32, 32>(a, s, msg, msglen);
    return launch_group<T, 32, 64>(a, s, msg, msglen);
}

#include "eigen_ql.cuh"

// ql_kernel's arguments for the systems of e (no record).
template <typename T> ql_args<T> ql_args_of(const eig_args<T> &e)
{
    ql_args<T> a{};
    a.n = e.n;
    a.batch = e.batch;
    a.d = e.d;
    a.e = e.e;
    a.hinfo = e.hinfo;
    a.w = e.w;
    a.count = e.count;
    a.info = e.info;
    a.sel = e.sel;
    return a;
}

using bsym_cuda::env_int; // the measurement and test hooks below

// ql_kernel's block at n: QL_THREADS threads, halved while their d and e
// would pass 96 KB of shared memory (n > 64 in double), and its shared bytes.
// perfect: with perfect shifts (their copy of d and e in shared memory too).
// replay_warps: with vectors, qls_kernel's warps a block (replay_shape_set),
// 0 where qlv_kernel replays.
struct ql_shape {
    int threads;
    size_t smem;
    bool perfect;
    int replay_warps;
};
template <typename T> ql_shape ql_shape_of(int n, bool perfect)
{
    const size_t per = size_t(ql_stride(n, perfect)) * sizeof(T);
    int th = QL_THREADS;
    while (th > 8 && th * per > 96 * 1024)
        th /= 2;
    return ql_shape{th, th * per, perfect, 0};
}

// ql_kernel<T, RECORD>'s shape at n, its shared limit raised where that
// passes 48 KB.
template <typename T, bool RECORD>
bsym_status ql_shape_set(int n, bool perfect, ql_shape *shape, char *msg, size_t msglen)
{
    *shape = ql_shape_of<T>(n, perfect);
    if (shape->smem > 48 * 1024)
        BSYM_CUDA_TRY(cudaFuncSetAttribute(ql_kernel<T, RECORD>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(shape->smem)));
    return BSYM_OK;
}

// Values only: QL, one thread per system, on the systems of b (shape from
// ql_shape_set<T, false>).
template <typename T> cudaError_t ql_values_launch(const eig_args<T> &b, const ql_shape &sh, cudaStream_t s)
{
    ql_kernel<T, false><<<unsigned((b.batch + sh.threads - 1) / sh.threads), sh.threads, sh.smem, s>>>(
        ql_args_of(b));
    return cudaGetLastError();
}

template <typename T, int NMAX, int RPL>
bsym_status launch_qlv(const qlv_args<T> &a, cudaStream_t s, char *msg, size_t msglen)
{
    const int64_t threads = a.batch * (NMAX / RPL);
    qlv_kernel<T, NMAX, RPL><<<unsigned((threads + 127) / 128), 128, 0, s>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// The smallest n replayed with rows in shared memory (qls_kernel): 17 in
// float, 9 in double, or BSYM_EIG_QLS_FROM where that is lower (a
// measurement hook). Measured on the H100 (batch 1e5, vectors, matrices/s,
// registers (qlv_kernel) -> shared memory):
//   float  n = 16: 6.94e7 -> 6.49e7; 17: 3.74e7 -> 3.99e7, 24: 2.25e7 ->
//          2.41e7, 32: 1.37e7 -> 1.42e7
//   double n = 8: 1.88e8 -> 1.66e8; 9: 9.74e7 -> 1.06e8, 17: 2.20e7 ->
//          2.68e7, 32: 7.87e6 -> 8.27e6
// and before, with qlv_kernel's NMAX = 64 class (since removed): float
// n = 33: 6.14e6 -> 9.07e6, 64: 1.62e6 -> 1.98e6; double n = 33: 3.00e6 ->
// 6.25e6, 64: 7.91e5 -> 9.37e5 (that class held 64 registers of row a
// thread whatever n, and loaded its rotations one by one from L2;
// qls_kernel stages them through shared memory a warp's worth at a time).
template <typename T> int qls_from()
{
    const int from = sizeof(T) == 8 ? 9 : 17;
    return std::min(from, env_int("BSYM_EIG_QLS_FROM", from));
}

// qls_kernel's warps a block at n: of 1, 2 and QLS_WARPS (within 48 KB of
// shared memory), the one that keeps the most warps on an SM (the fewest on
// a tie). A block of one warp is held to 32 an SM by the block limit: at
// n = 32 in float (4.3 KB a warp) 4 warps a block keep 52 an SM.
// BSYM_EIG_QLS_WARPS = 1, 2 or QLS_WARPS takes that one alone (a
// measurement hook; 1 where it does not fit 48 KB).
template <typename T> int qls_warps(int n)
{
    const int hook = env_int("BSYM_EIG_QLS_WARPS", 0);
    int best = 1, most = 0;
    for (int w = 1; w <= QLS_WARPS; w *= 2) {
        int blocks = 0;
        if (w > 1 && w * qls_smem<T>(n) > 48 * 1024)
            break;
        if (hook > 0 && w != hook)
            continue;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, qls_kernel<T>, w * QLS_ROWS,
                                                          w * qls_smem<T>(n)) != cudaSuccess)
            break;
        if (blocks * w > most) {
            most = blocks * w;
            best = w;
        }
    }
    return best;
}

// The replay's part of a run's shape at n, set once a run: from
// qls_from<T>() qls_kernel, its shared limit raised where it passes 48 KB
// (before the occupancy query), and its warps a block; below, 0 (qlv_kernel).
template <typename T> bsym_status replay_shape_set(int n, ql_shape *shape, char *msg, size_t msglen)
{
    shape->replay_warps = 0;
    if (n < qls_from<T>())
        return BSYM_OK;
    if (qls_smem<T>(n) > 48 * 1024)
        BSYM_CUDA_TRY(cudaFuncSetAttribute(qls_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(qls_smem<T>(n))));
    shape->replay_warps = qls_warps<T>(n);
    return BSYM_OK;
}

// The vector replay: qls_kernel with w warps a block (replay_shape_set),
// or for w = 0 qlv_kernel with NMAX the register row's length, one row a
// thread: n <= 8, and in float n <= 16.
template <typename T> bsym_status qlv(const qlv_args<T> &a, int w, cudaStream_t s, char *msg, size_t msglen)
{
    if (w > 0) { // rows in shared memory (eigen_ql.cuh's qls_kernel)
        const int64_t units = a.batch * ((a.n + QLS_ROWS - 1) / QLS_ROWS);
        qls_kernel<T><<<unsigned((units + w - 1) / w), w * QLS_ROWS, w * qls_smem<T>(a.n), s>>>(a);
        BSYM_CUDA_TRY(cudaGetLastError());
        return BSYM_OK;
    }
    if constexpr (sizeof(T) == 4)
        if (a.n > 8)
            return launch_qlv<T, 16, 1>(a, s, msg, msglen);
    return launch_qlv<T, 8, 1>(a, s, msg, msglen);
}

// The record's capacity a system: rotations 1.5 n^2 + 16 (measured 1.0-1.4
// n^2 on random matrices, n = 8..64; about 0.8 n^2 at 256), sweeps 3 n + 8
// (measured <= 2.4 n). BSYM_EIG_ROT_CAP overrides the rotations (tests: 0
// hands every system with a rotation to the fallback: divide and conquer up
// to DC_MAX_N, qlr_kernel above).
static int ql_rot_cap(int n) { return std::max(0, env_int("BSYM_EIG_ROT_CAP", 3 * n * n / 2 + 16)); }

// Perfect shifts (a values-only QL pass first, ql_iterate.h) with vectors,
// up to n = 32 in double, in float up to 28 and at 33..36: measured on the
// H100 (batch 1e5), vectors at n = 32 float 1.40e7 matrices/s against
// 1.23e7 without, double 7.98e6 against 7.71e6; at n = 64 they cost more
// than they save (float 1.52e6 against 1.67e6, double 7.0e5 against 8.0e5:
// the second QL pass is latency). Since the replay takes four sweeps a
// pass (eigen_ql.cuh's QLS_SWEEPS), the rotations they save cost less, and
// float n = 32 gains without them (H200, session 34, two calls, with 4
// sub-batches: 2.055e7 and 2.074e7 against 1.918e7 and 1.930e7; n = 28
// 2.41e7 against 2.32e7; 25 and 29 within 2 %; 24 still 3.44e7 with them
// against 2.89e7); double n = 32 is the same either way (1.333e7 against
// 1.335e7, 6 sub-batches).
// Float again since its Householder with Q takes two rows a lane from n =
// 29 and its record goes four rotations at a time (session 35, bb89be9,
// two rounds each, matrices/s without -> with): n = 24 4.26e7 -> 4.49e7,
// 25 3.11e7 -> 3.30e7, 26 2.95e7 -> 3.10e7, 28 2.76e7 -> 2.77e7, 30
// 2.59e7 -> 2.52e7, 31 2.48e7 -> 2.40e7, 32 2.42e7 -> 2.36e7, 33 1.214e7
// -> 1.242e7, 34 1.004e7 -> 1.025e7, 36 9.23e6 -> 9.30e6, 40 8.01e6 ->
// 7.90e6, 48 5.91e6 -> 5.68e6, 64 3.42e6 -> 3.10e6: on up to 28 and at
// 33..36 (which keeps the step from 32 to 33 below 2x). The environment
// variable BSYM_EIG_QL_PERFECT (0 or 1) overrides, for measurement.
template <typename T> bool ql_perfect(int n)
{
    const bool on = sizeof(T) == 8 ? n <= 32 : n <= 28 || (n >= 33 && n <= 36);
    return env_int("BSYM_EIG_QL_PERFECT", on) != 0;
}

// Scratch bytes one QL record buffer may take where a run's whole record
// needs `need` (there are two buffers when a run has more than one
// sub-batch): all of it up to 256 MB; above, an eighth of the free memory,
// within 64 MB .. 2 GB (at n = 32 in float a record is 13 KB a system: a
// sub-batch of 25000 takes 325 MB; at n = 256 0.8 MB). The free memory is
// asked only above 256 MB: the query costs about as much as a host path's
// chunk of 4000 systems at n = 32 computes.
static size_t ql_scratch_max(size_t need)
{
    if (need <= (size_t(256) << 20))
        return need;
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess)
        fr = size_t(2) << 30;
    return std::max(size_t(64) << 20, std::min(size_t(2) << 30, fr / 8));
}

// A system's slot of rotations: the capacity, and above DC_MAX_N at least
// the fallback's workspace (qlr_kernel: 32 (2n + 1) + n^2 entries).
static int64_t ql_slot(int n, int rot_cap)
{
    const int64_t need = n > DC_MAX_N ? (int64_t(32) * (2 * n + 1) + int64_t(n) * n + 1) / 2 : 0;
    return (std::max<int64_t>(std::max(rot_cap, 1), need) + 3) / 4 * 4; // whole fours (ql_rec4)
}

static size_t align_up(size_t b) { return (b + 255) / 256 * 256; }

// Carves one record buffer of sub systems out of p; returns its bytes.
template <typename T> size_t carve_record(ql_record<T> *rec, int n, int64_t sub, char *p)
{
    const size_t b_rot = align_up(size_t(sub) * rec->rot_stride * sizeof(ql_rot<T>)),
                 b_swp = align_up(size_t(sub) * rec->swp_cap * sizeof(int)),
                 b_rank = align_up(size_t(sub) * n * sizeof(int)), b_meta = align_up(size_t(sub) * sizeof(int2)),
                 b_list = align_up(size_t(sub) * sizeof(int));
    if (p != nullptr) {
        rec->rot = reinterpret_cast<ql_rot<T> *>(p);
        rec->swp = reinterpret_cast<int *>(p + b_rot);
        rec->rank = reinterpret_cast<int *>(p + b_rot + b_swp);
        rec->meta = reinterpret_cast<int2 *>(p + b_rot + b_swp + b_rank);
        rec->list = reinterpret_cast<int *>(p + b_rot + b_swp + b_rank + b_meta);
        rec->nlist = reinterpret_cast<int *>(p + b_rot + b_swp + b_rank + b_meta + b_list);
    }
    return align_up(b_rot + b_swp + b_rank + b_meta + b_list + sizeof(int));
}

// Sub-batch [k0, k0 + cnt) of e.
template <typename T> eig_args<T> sub_batch(const eig_args<T> &e, int64_t k0, int64_t cnt)
{
    const int n = e.n;
    eig_args<T> b = e;
    b.batch = cnt;
    b.d = e.d + k0 * n;
    b.e = e.e + k0 * (n - 1);
    b.A = e.A != nullptr ? e.A + k0 * n * n : nullptr;
    b.hinfo = e.hinfo != nullptr ? e.hinfo + k0 : nullptr;
    b.w = e.w + k0 * n;
    b.V = e.V != nullptr ? e.V + k0 * n * n : nullptr; // nullptr: values only
    b.count = e.count + k0;
    b.info = e.info + k0;
    return b;
}

// QL with its record (ql_kernel), on stream s.
template <typename T>
cudaError_t ql_record_launch(const eig_args<T> &b, const ql_record<T> &rec, const ql_shape &sh, cudaStream_t s)
{
    cudaError_t err = cudaMemsetAsync(rec.nlist, 0, sizeof(int), s);
    if (err != cudaSuccess)
        return err;
    ql_args<T> a = ql_args_of(b);
    a.rec = rec;
    a.perfect = sh.perfect;
    ql_kernel<T, true><<<unsigned((b.batch + sh.threads - 1) / sh.threads), sh.threads, sh.smem, s>>>(a);
    return cudaGetLastError();
}

// The replay (qlv), then the systems whose record overflowed: divide and
// conquer up to DC_MAX_N, qlr_kernel above.
template <typename T>
bsym_status ql_replay_launch(eig_args<T> b, const ql_record<T> &rec, const ql_shape &sh, cudaStream_t s,
                             char *msg, size_t msglen)
{
    qlv_args<T> v{b.n, b.batch, b.count, b.V, b.full, rec};
    bsym_status st = qlv<T>(v, sh.replay_warps, s, msg, msglen);
    if (st != BSYM_OK)
        return st;
    if (b.n > DC_MAX_N) {
        ql_args<T> a = ql_args_of(b);
        a.rec = rec;
        qlr_kernel<T><<<unsigned(b.batch), 32, 0, s>>>(a, b.V, b.full);
        BSYM_CUDA_TRY(cudaGetLastError());
        return BSYM_OK;
    }
    b.list = rec.list;
    b.nlist = rec.nlist;
    return launch_vec<T>(b, s, msg, msglen);
}

// Householder of sub-batch b where the input is full (b.A): its matrices
// to b.d, b.e and, with vectors, Q in b.V. Nothing for tridiagonal input.
template <typename T> bsym_status reduce(const eig_args<T> &b, cudaStream_t s, char *msg, size_t msglen)
{
    if (b.A == nullptr)
        return BSYM_OK;
    return bsym_cuda::tridiagonalize_launch<T>(b.uplo, b.n, b.batch, b.A, b.d, b.e, b.V, b.info, s, msg, msglen);
}

// The sub-batches a run with vectors aims at (eig_subs), each of at least
// EIG_SUB_MIN systems (QL runs a thread a system: fewer leave the GPU
// idle); values only, one (QL of sub-batches in turn costs more than it
// hides). Measured on the H200, batch 1e5, matrices/s with 1, 2, 4, 8
// sub-batches (session 29; before: 256 MB of record scratch, about 5
// sub-batches at n = 32 in float, QL alone beside the replay):
//   vectors float  n = 32: 1.63e7, 1.65e7, 1.74e7, 1.45e7 (before 1.48e7)
//                  n = 64: 2.49e6, 2.48e6, 2.57e6, 2.62e6 (before 2.00e6)
//           double n = 32: 1.12e7 all four (before 8.35e6)
//                  n = 64: 1.49e6 all four (before 9.31e5)
//   values  float  n = 32: 5.31e7, 5.19e7, 3.72e7, 2.57e7
// and since QL's double rotation takes one reciprocal square root (session
// 33, three rounds of 4 against 6 sub-batches, vectors): 6 win for double
// n = 32 (1.208e7 -> 1.257e7..1.266e7), 48 (1.033x), 64 (1.012x) and float
// 48 (1.03x), 64 (1.04x); 4 win for float 24 (6: 0.81x), 32 (0.97x), double
// 24 (0.97x); even at 128. So 6 for double 32..64, else 4. Float since its
// QL writes the record four rotations at a time (ql_iterate.h's ql_rec4:
// a wider QL launch no longer waits on the L2) and the replay takes four
// sweeps a pass (session 34, 1 / 2 / 3 / 4 or 6 sub-batches, the last the
// rule before): n = 9 2.45e8 / 2.25e8 / 1.94e8 / 1.62e8, 16 1.10e8 /
// 1.08e8 / 8.8e7 / 7.2e7, 17 7.29e7 / 7.31e7 / 6.55e7 / 6.01e7, 24 4.24e7 /
// 4.47e7 / 4.25e7 / 3.78e7, 32 2.32e7 / 2.37e7 / 2.34e7 / 2.09e7, 48
// 5.99e6 / 5.98e6 / 5.96e6 / 5.83e6, 64 3.458e6 / 3.457e6 / 3.453e6 /
// 3.405e6, 96 and 128 within 1 %: 2 up to n = 64, else 4.
// The environment variable BSYM_EIG_SUBS sets the sub-batches, values too,
// without the minimum (a measurement and test hook).
constexpr int64_t EIG_SUB_MIN = 16384;
template <typename T> int64_t eig_subs(int n)
{
    if (sizeof(T) == 4)
        return n <= 64 ? 2 : 4;
    return n <= 64 && n >= 32 ? 6 : 4;
}

// The systems of one sub-batch of a run of `batch`, at most cap (the record
// scratch), the sub-batches balanced; subs: eig_subs.
static int64_t sub_size(int64_t batch, int64_t cap, bool vectors, int64_t subs)
{
    const int64_t most = std::max<int64_t>(1, std::min(batch, cap)), hook = env_int("BSYM_EIG_SUBS", 0);
    int64_t parts = hook > 0 ? hook : !vectors ? 1 : std::min(subs, (batch + EIG_SUB_MIN - 1) / EIG_SUB_MIN);
    parts = std::max(parts, (batch + most - 1) / most);
    return (batch + parts - 1) / parts;
}

// The streams and events of a run of several sub-batches: s2 runs QL (at
// the highest priority, so that its blocks are dispatched beside the
// other stream's queue rather than after it), s3 the replays where they
// have a stream of their own (replay_own_stream); `reduced` orders QL of a
// sub-batch after its Householder, recorded[h] / replayed[h] the record
// buffer h between QL and the replay; done the scratch's allocation before
// s2 and s3 start, and then the end of each one's work before the caller's
// stream goes on (a wait takes the event's latest record, so one event
// serves them all in turn).
struct eig_streams {
    cudaStream_t s2 = nullptr, s3 = nullptr;
    cudaEvent_t reduced = nullptr, done = nullptr, recorded[2] = {}, replayed[2] = {};
    cudaError_t make(bool own_replay)
    {
        int least = 0, greatest = 0;
        cudaError_t err = cudaDeviceGetStreamPriorityRange(&least, &greatest);
        if (err == cudaSuccess)
            err = cudaStreamCreateWithPriority(&s2, cudaStreamNonBlocking, greatest);
        if (err == cudaSuccess && own_replay)
            err = cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
        cudaEvent_t *ev[6] = {&reduced, &done, &recorded[0], &recorded[1], &replayed[0], &replayed[1]};
        for (int i = 0; i < 6 && err == cudaSuccess; i++)
            err = cudaEventCreateWithFlags(ev[i], cudaEventDisableTiming);
        return err;
    }
    ~eig_streams()
    {
        for (cudaEvent_t ev : {reduced, done, recorded[0], recorded[1], replayed[0], replayed[1]})
            if (ev != nullptr)
                cudaEventDestroy(ev);
        for (cudaStream_t st : {s2, s3})
            if (st != nullptr)
                cudaStreamDestroy(st);
    }
};

// Whether the replays of a run of several sub-batches take a stream of
// their own (beside Householder of the next sub-batch) rather than
// following it on the caller's stream: above n = 32. Measured on the H200
// (session 34, batch 1e5, vectors, two runs each, matrices/s, behind ->
// own stream): float n = 33 1.152e7 -> 1.19e7, 48 5.67e6 -> 5.89e6, 64
// 3.42e6 -> 3.44e6, 96 1.063e6 -> 1.075e6, 128 4.63e5 -> 4.735e5; double
// 33 7.72e6 -> 7.80e6, 48 3.24e6 -> 3.31e6, 64 1.650e6 both, 96 5.146e5 ->
// 5.115e5, 128 1.92e5 -> 2.027e5; at n = 32 float lost (2.09e7 -> 2.05e7),
// double the same (with the sub-batches of then: float 4, 6 at 48..64; not
// measured again with float's 2). BSYM_EIG_REPLAY_STREAM (0 or 1)
// overrides, for measurement.
inline bool replay_own_stream(int n) { return env_int("BSYM_EIG_REPLAY_STREAM", n > 32) != 0; }

// The eigensolver on the systems of e (d, e given, or A to reduce first),
// on stream s. One sub-batch: Householder, QL (with vectors recording its
// rotations), the replay, in order. Several (sub_size): Householder of
// sub-batch i + 1 and the replay of i - 1 (on s, or on a third stream:
// replay_own_stream) run beside QL of i on a second stream (QL is
// latency-bound, a thread a system; the others are throughput-bound), with
// two record buffers. The replay then solves the systems whose record
// overflowed (divide and conquer or qlr_kernel).
template <typename T> bsym_status solve_all(const eig_args<T> &e, cudaStream_t s, char *msg, size_t msglen)
{
    const int n = e.n;
    const bool vectors = e.V != nullptr;
    ql_record<T> rec[2] = {};
    int64_t cap = e.batch;
    if (vectors) {
        rec[0].rot_cap = rec[1].rot_cap = ql_rot_cap(n);
        rec[0].swp_cap = rec[1].swp_cap = 3 * n + 8;
        rec[0].rot_stride = rec[1].rot_stride = ql_slot(n, rec[0].rot_cap);
        const size_t per = carve_record<T>(&rec[0], n, 1, nullptr);
        cap = int64_t(ql_scratch_max(size_t(e.batch) * per) / per);
    }
    const int64_t sub = sub_size(e.batch, cap, vectors, eig_subs<T>(n));
    const int nbuf = vectors ? (sub < e.batch ? 2 : 1) : 0;
    ql_shape shape{};
    bsym_status st = vectors ? ql_shape_set<T, true>(n, ql_perfect<T>(n), &shape, msg, msglen)
                             : ql_shape_set<T, false>(n, false, &shape, msg, msglen);
    if (st == BSYM_OK && vectors)
        st = replay_shape_set<T>(n, &shape, msg, msglen);
    if (st != BSYM_OK)
        return st;
    const size_t bytes = nbuf > 0 ? carve_record<T>(&rec[0], n, sub, nullptr) : 0;
    char *scratch = nullptr;
    if (nbuf > 0) {
        BSYM_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void **>(&scratch), nbuf * bytes, s));
        for (int h = 0; h < nbuf; h++)
            carve_record<T>(&rec[h], n, sub, scratch + h * bytes);
    }

    cudaError_t err = cudaSuccess;
    if (sub == e.batch) {
        if ((st = reduce<T>(e, s, msg, msglen)) == BSYM_OK) {
            if (!vectors)
                err = ql_values_launch<T>(e, shape, s);
            else if ((err = ql_record_launch<T>(e, rec[0], shape, s)) == cudaSuccess)
                st = ql_replay_launch<T>(e, rec[0], shape, s, msg, msglen);
        }
    } else {
        eig_streams q;
        err = q.make(vectors && replay_own_stream(n));
        if (err == cudaSuccess && (err = cudaEventRecord(q.done, s)) == cudaSuccess) // the scratch allocated
            err = cudaStreamWaitEvent(q.s2, q.done, 0);
        if (err == cudaSuccess && q.s3 != nullptr)
            err = cudaStreamWaitEvent(q.s3, q.done, 0);
        const cudaStream_t rs = q.s3 != nullptr ? q.s3 : s; // the replays' stream
        eig_args<T> prev{};
        int i = 0;
        for (int64_t k0 = 0; k0 < e.batch && err == cudaSuccess && st == BSYM_OK; k0 += sub, i++) {
            const int h = i % 2;
            const eig_args<T> b = sub_batch(e, k0, std::min(sub, e.batch - k0));
            if ((st = reduce<T>(b, s, msg, msglen)) != BSYM_OK)
                break;
            if ((err = cudaEventRecord(q.reduced, s)) != cudaSuccess ||
                (err = cudaStreamWaitEvent(q.s2, q.reduced, 0)) != cudaSuccess)
                break;
            if (!vectors) {
                err = ql_values_launch<T>(b, shape, q.s2);
                continue;
            }
            // buffer h is free once the replay of sub-batch i - 2 is done
            if (i >= 2 && (err = cudaStreamWaitEvent(q.s2, q.replayed[h], 0)) != cudaSuccess)
                break;
            if ((err = ql_record_launch<T>(b, rec[h], shape, q.s2)) != cudaSuccess ||
                (err = cudaEventRecord(q.recorded[h], q.s2)) != cudaSuccess)
                break;
            if (i >= 1) { // the replay of sub-batch i - 1, behind (or beside) Householder of i
                if ((err = cudaStreamWaitEvent(rs, q.recorded[1 - h], 0)) != cudaSuccess ||
                    (st = ql_replay_launch<T>(prev, rec[1 - h], shape, rs, msg, msglen)) != BSYM_OK ||
                    (err = cudaEventRecord(q.replayed[1 - h], rs)) != cudaSuccess)
                    break;
            }
            prev = b;
        }
        if (vectors && err == cudaSuccess && st == BSYM_OK &&
            (err = cudaStreamWaitEvent(rs, q.recorded[(i - 1) % 2], 0)) == cudaSuccess)
            st = ql_replay_launch<T>(prev, rec[(i - 1) % 2], shape, rs, msg, msglen);
        // every launch on s2 and s3 precedes what follows on s, but for an
        // error on the way: s waits for them before the scratch is freed
        for (cudaStream_t st : {q.s2, q.s3})
            if (st != nullptr && q.done != nullptr && cudaEventRecord(q.done, st) == cudaSuccess)
                cudaStreamWaitEvent(s, q.done, 0);
    }
    const cudaError_t freed = scratch != nullptr ? cudaFreeAsync(scratch, s) : cudaSuccess;
    BSYM_CUDA_TRY(err);
    BSYM_CUDA_TRY(freed);
    return st;
}

// The whole device-resident computation: Householder (full input), then QL
// (values, or values and vectors). dd, de: input (A == nullptr) or scratch.
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
    a.A = A;
    a.uplo = uplo;
    if (A != nullptr) {
        a.hinfo = info; // read before the kernel overwrites it, by the same thread
        a.full = 1;
    }
    return solve_all<T>(a, s, msg, msglen);
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
