// householder.cu -- implements Abbas-Turki & Graillat 2017, Sect. 4
// (Algorithm 2, collaborative Householder reduction): batched Householder
// tridiagonalization A = Q T Q^T on the
// GPU, and the BSYM_METHOD_TRIDIAG solve built on it (Householder, PCR on T
// with Q^T b, x = Q z, Q never formed).
//
// The paper's collaborative version (Algorithm 2), with the matrix in
// registers instead of shared memory: a group of G lanes of one warp owns a
// system, lane l holding rows l, l + G, ..., l + G (R - 1) (NMAX = G R rows)
// up to column C (G, R and C: the size class of n, launch_warp below; the
// padding is zero, and in front: the system is the trailing n x n block of
// the order C). Step k (LAPACK's lower order) builds the reflector
// H_k = I - tau v v^T that zeroes column k below the sub-diagonal:
//   1. the owner of row k publishes it in shared memory (row k = column k);
//   2. a group reduction gives ||x||, every lane forms its part of v;
//   3. p = tau W v (each lane its rows, v broadcast from shared memory),
//      K = tau/2 p.v (group reduction), w = p - K v;
//   4. W -= v w^T + w v^T on every lane's rows.
// The group synchronises with __syncwarp only. The reflectors are kept in
// shared memory (where the input tile was) for Q or for the solve. The input
// is scaled by a power of two (exact) so that the norms cannot overflow.
// This warp kernel is built for n <= 64 and takes n <= bsym_hh::WARP_MAX_N
// (32: householder.cuh gives the measurements); larger n, up to
// BSYM_GPU_HOUSEHOLDER_MAX_N, go to the block kernel (householder_block.cu)
// from launch() below. Both share householder.cuh's numerics.
#include <cstdio>

#include "common.cuh"
#include "householder.cuh"
#include "pcr.cuh"

namespace {

using bsym::finite;
using bsym_hh::hh_args;
using bsym_hh::mode;
using bsym_hh::SOLVE;
using bsym_hh::TRIDIAGONALIZE;

// Sum (or max) over the G lanes of a group (aligned, G a power of two <= 32).
template <int G, typename T> __device__ __forceinline__ T group_sum(T v)
{
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(bsym::FULL_MASK, v, o);
    return v;
}
// Two sums at once (their shuffles interleave).
template <int G, typename T> __device__ __forceinline__ void group_sum2(T &a, T &b)
{
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {
        a += __shfl_xor_sync(bsym::FULL_MASK, a, o);
        b += __shfl_xor_sync(bsym::FULL_MASK, b, o);
    }
}
// x * y as a term of a lane's partial sum over its R rows before group_sum:
// rounded on its own where R = 2 (not fused into the sum), so that the
// partial sum (row l, then row l + G) is exactly the first butterfly step
// of group_sum over 2G lanes of one row each: class (G, 2, C) reduces to
// the same bits as (2G, 1, C). launch_warp relies on it: float with Q from
// n = 29 takes (16, 2, 32), without Q (32, 1, 32), and d, e must not
// depend on whether Q is asked for.
template <int R> __device__ __forceinline__ float lane_prod(float x, float y)
{
    return R == 2 ? __fmul_rn(x, y) : x * y;
}
template <int R> __device__ __forceinline__ double lane_prod(double x, double y)
{
    return R == 2 ? __dmul_rn(x, y) : x * y;
}
template <int G, typename T> __device__ __forceinline__ T group_max(T v)
{
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1)
        v = max(v, __shfl_xor_sync(bsym::FULL_MASK, v, o));
    return v;
}

// 16-byte shared-memory accesses (float4 / double2): W values of T.
template <typename T> struct vec16;
template <> struct vec16<float> {
    using type = float4;
    static constexpr int W = 4;
};
template <> struct vec16<double> {
    using type = double2;
    static constexpr int W = 2;
};
// p[j] = in[j] for j in [J0, N) (p + J0 16-byte aligned, N - J0 a multiple of W).
template <int J0, int N, typename T> __device__ __forceinline__ void store_vec(T *p, const T (&in)[N])
{
    using V = vec16<T>;
#pragma unroll
    for (int j = J0; j < N; j += V::W) {
        typename V::type q;
        T *e = reinterpret_cast<T *>(&q);
#pragma unroll
        for (int u = 0; u < V::W; u++)
            e[u] = in[j + u];
        *reinterpret_cast<typename V::type *>(p + j) = q;
    }
}

// Shared memory of one system, in elements of T: the input tile, later the
// reflectors V[k][i] (NMAX x (NMAX + 1), NMAX the rows of a group); the
// published row; v; w; tau; d; e; and four rows for PCR (R > 1) and the
// pivoted fallback. ROW, V and W are 16-byte aligned (NMAX a multiple of 4)
// for vector accesses.
template <int NMAX> struct layout {
    static_assert(NMAX % 4 == 0, "16-byte alignment of ROW, V, W");
    static constexpr int LD = NMAX + 1;
    static constexpr int TILE = 0, ROW = NMAX * LD, V = ROW + NMAX, W = V + NMAX, TAU = W + NMAX,
                         D = TAU + NMAX, E = D + NMAX, PA = E + NMAX, PB = PA + NMAX, PC = PB + NMAX,
                         PF = PC + NMAX, SIZE = PF + NMAX;
};

constexpr int WARPS_PER_BLOCK = 4;
// Blocks per multiprocessor the register allocation must allow for the float
// classes whose matrix takes at most 32 registers a lane (R C <= 32; 8: at
// most 64 registers a thread; on the H200 6.8e7 n = 32 solves/s against
// 6.2e7 with no limit, 80 registers; the float tridiagonalization without Q
// 8.9e7 against 6.8e7 matrices/s). Not for double at 64 registers: it spills
// (n = 32 solve 2.2e7/s against 3.0e7, with Q 5.7e6/s against 3.0e7). See
// inst/bench/RESULTS.md. Float classes with 32 < R C <= 80 get 4 (128
// registers; class 8, 3, 24 at n = 24: tridiagonalize 1.37e8 -> 1.68e8
// matrices/s; 8, 3, 20 the same with or without), larger ones none.
#ifndef BSYM_HH_MIN_BLOCKS
#define BSYM_HH_MIN_BLOCKS 8
#endif
// The same for double with 16 < R C <= 32 (4: at most 128 registers; class
// 32, 1, 32: 16 warps an SM instead of 12 at 166). Measured on the H200 (no
// limit -> 4 -> 5): n = 32 eigenvectors 1.13e7 -> 1.16e7 -> 9.75e6
// matrices/s (batch 1e5), values 2.50e7 -> 2.73e7 -> 2.77e7, method tridiag
// solve 33.9 -> 29.3 -> 28.3 ms (batch 1e6); at R C = 16 it cost 4-8 % (no
// limit there), and larger double classes lose to it (4, 3, 12 at n = 9:
// solve 4.16e8 -> 3.80e8; 8, 3, 20 at 17: 8.1e7 -> 5.7e7).
// The float classes with 32 < R C <= 48 (4, 3, 12: n = 9 to 12) get 6
// (80 registers; the solve spills 64 bytes): measured on the H200 (session
// 39, batch 1e6, systems/s, 4 -> 6 blocks, the padding in front): solve n =
// 9 7.70e8 -> 9.92e8, 12 7.10e8 -> 8.47e8; tridiagonalize (d, e) 9 1.27e9
// -> 1.48e9, 12 1.16e9 -> 1.28e9; with Q 9 9.45e8 -> 1.04e9, 12 8.05e8 ->
// 8.25e8.
#ifndef BSYM_HH_MIN_BLOCKS_MID
#define BSYM_HH_MIN_BLOCKS_MID 6
#endif
#ifndef BSYM_HH_MIN_BLOCKS_D
#define BSYM_HH_MIN_BLOCKS_D 4
#endif

// Applies reflector k (v in V[k][.], tau[k]) to the vector held as x[r] =
// x_{l + G r}: x -= tau v (v . x).
template <typename T, int NMAX, int R, int G>
__device__ __forceinline__ void apply_reflector(const T *s, int k, int l, T (&x)[R])
{
    using L = layout<NMAX>;
    T dot = T(0);
#pragma unroll
    for (int r = 0; r < R; r++)
        dot += s[L::TILE + k * L::LD + l + G * r] * x[r];
    dot = group_sum<G>(dot) * s[L::TAU + k];
#pragma unroll
    for (int r = 0; r < R; r++)
        x[r] -= dot * s[L::TILE + k * L::LD + l + G * r];
}

// Columns of W below BLOCK * (k / BLOCK) are done with at step k: a step
// is compiled for each block start J0 and touches columns >= J0 only; and,
// where a lane holds several rows (R > 1), rows r < J0 / G of every lane
// (indices below J0) as well (W is symmetric). With the padding in front
// (see householder_kernel), the padding is done with from the start, so a
// system of n < C runs the cheaper steps of the class's later blocks.
// BLOCK is 4 for the classes of at most BSYM_HH_BLOCK4_MAX_C columns (a
// step of every block start is compiled: C / BLOCK of them), 8 above.
#ifndef BSYM_HH_BLOCK4_MAX_C
#define BSYM_HH_BLOCK4_MAX_C 12
#endif
template <int C> __host__ __device__ constexpr int block_of() { return C <= BSYM_HH_BLOCK4_MAX_C ? 4 : 8; }

// Publishes columns >= J0 of row k (= column k) of W in s[ROW]; its owner
// writes it. (A size class: G lanes a system, R rows a lane, C columns; the
// rows G R >= C >= n, s laid out for G R rows.)
template <typename T, int G, int R, int C, int J0>
__device__ __forceinline__ void publish_row(const T (&w)[R][C], T *s, int k, int l)
{
    __syncwarp(); // the previous reader of s[ROW] is done
    if (l == k % G) {
        if (R == 1) {
            // (one row: stored as it is; through the copy below, nvcc
            // schedules the R = 1 classes' shared-memory loads differently)
            store_vec<J0>(s + layout<G * R>::ROW, w[0]);
        } else {
            // row k / G, chosen by selects: a branch per row lets the
            // compiler index w at run time, and w then leaves the registers
            // (rows r < J0 / G are done with: k / G >= J0 / G)
            constexpr int R0 = J0 / G;
            const int rk = k / G;
            T row[C];
#pragma unroll
            for (int j = J0; j < C; j++) {
                row[j] = w[R0][j];
#pragma unroll
                for (int r = R0 + 1; r < R; r++)
                    row[j] = rk == r ? w[r][j] : row[j];
            }
            store_vec<J0>(s + layout<G * R>::ROW, row);
        }
    }
    __syncwarp(); // the row is visible
}

// Step k of the reduction (J0 <= k): reflector H_k, W <- H_k W H_k, and
// b <- H_k b (so that b ends as Q^T b; b = 0 when there is none).
template <typename T, int G, int R, int C, int J0>
__device__ __forceinline__ void reduce_step(T (&w)[R][C], T (&b)[R], T *s, int k, int l)
{
    constexpr int BLOCK = block_of<C>();
    if (J0 + BLOCK < C && k >= J0 + BLOCK) {
        // a later block: recompile with its start (no recursion past C)
        reduce_step<T, G, R, C, (J0 + BLOCK < C ? J0 + BLOCK : J0)>(w, b, s, k, l);
        return;
    }
    using L = layout<G * R>;
    constexpr int R0 = J0 / G; // rows r < R0 of every lane are done with (J0 <= k < G R)
    publish_row<T, G, R, C, J0>(w, s, k, l);
    // x = W[k+1:, k]; alpha its first entry, sigma the squares of the rest
    const T alpha = s[L::ROW + k + 1];
    T x[R], sig = T(0);
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = l + G * r;
        x[r] = i > k + 1 && i < C ? s[L::ROW + i] : T(0); // (the row's columns < C)
        sig += lane_prod<R>(x[r], x[r]);
    }
    sig = group_sum<G>(sig);
    T scale = T(1), as = alpha;
    // (householder.cuh's reflector: where a square may have lost digits,
    // alpha and sig of x / scale; every group of the warp takes part in the
    // shuffles)
    const bool small = alpha * alpha + sig < bsym_hh::reflector_small<T>();
    if (__any_sync(bsym::FULL_MASK, small)) {
        T mx = fabs(alpha);
#pragma unroll
        for (int r = 0; r < R; r++)
            mx = max(mx, fabs(x[r]));
        const T sc = bsym_hh::reflector_scale(group_max<G>(mx));
        T sig2 = T(0);
#pragma unroll
        for (int r = 0; r < R; r++)
            sig2 += lane_prod<R>(x[r] / sc, x[r] / sc);
        sig2 = group_sum<G>(sig2);
        if (small) {
            scale = sc;
            as = alpha / sc;
            sig = sig2;
        }
    }
    const bsym_hh::reflector<T> h(as, sig, scale);
    const T beta = h.beta, tau = h.tau, inv = h.inv;
    T v[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = l + G * r;
        v[r] = i == k + 1 ? T(1) : x[r] * inv;
        s[L::V + i] = v[r];
        s[L::TILE + k * L::LD + i] = v[r];
    }
    if (l == 0) {
        s[L::D + k] = s[L::ROW + k];
        s[L::E + k] = beta;
        s[L::TAU + k] = tau;
    }
    __syncwarp(); // v is visible
    // p = tau W v on rows > k, K = tau/2 p.v, w = p - K v (v_j = 0 for j <= k);
    // v is read 16 bytes at a time, as it is used
    // (V::W partial sums per row: independent chains of multiply-adds)
    using V = vec16<T>;
    T acc[R][V::W];
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int u = 0; u < V::W; u++)
            acc[r][u] = T(0);
#pragma unroll
    for (int j = J0; j < C; j += V::W) {
        const typename V::type q = *reinterpret_cast<const typename V::type *>(s + L::V + j);
        const T *vj = reinterpret_cast<const T *>(&q);
#pragma unroll
        for (int r = R0; r < R; r++)
#pragma unroll
            for (int u = 0; u < V::W; u++)
                acc[r][u] += w[r][j + u] * vj[u];
    }
    T pv[R], dot = T(0), vb = T(0);
#pragma unroll
    for (int r = 0; r < R; r++) {
        T sum = T(0);
#pragma unroll
        for (int u = 0; u < V::W; u++)
            sum += acc[r][u];
        pv[r] = l + G * r > k ? tau * sum : T(0);
        dot += lane_prod<R>(pv[r], v[r]);
        vb += lane_prod<R>(v[r], b[r]);
    }
    group_sum2<G>(dot, vb);
    const T K = T(0.5) * tau * dot;
#pragma unroll
    for (int r = 0; r < R; r++)
        b[r] -= tau * vb * v[r];
#pragma unroll
    for (int r = 0; r < R; r++) {
        pv[r] -= K * v[r];
        s[L::W + l + G * r] = pv[r];
    }
    __syncwarp(); // w is visible
    // W -= v w^T + w v^T on columns >= J0
#pragma unroll
    for (int j = J0; j < C; j += V::W) {
        const typename V::type qv = *reinterpret_cast<const typename V::type *>(s + L::V + j);
        const typename V::type qw = *reinterpret_cast<const typename V::type *>(s + L::W + j);
        const T *vj = reinterpret_cast<const T *>(&qv), *wj = reinterpret_cast<const T *>(&qw);
#pragma unroll
        for (int r = R0; r < R; r++)
#pragma unroll
            for (int u = 0; u < V::W; u++)
                w[r][j + u] -= v[r] * wj[u] + pv[r] * vj[u];
    }
}

// Step k of Q = H_0 H_1 ... H_{n-3}, accumulated forward from I on a
// lane's rows: Q <- Q H_k = Q - tau (Q v) v^T. The reflector v (tile row
// k) is zero at indices <= k, so only columns > k are read or change: as
// in reduce_step, a step is compiled for each block start J0 <= k + 1 and
// touches columns >= J0 only. Measured on the H200 (batch 1e5, eigenvectors,
// matrices/s, against whole rows every step): float n = 32 1.80e7 -> 1.92e7;
// double n = 32 1.12e7 -> 1.14e7.
template <typename T, int G, int R, int C, int J0>
__device__ __forceinline__ void accumulate_step(T (&w)[R][C], const T *s, int k)
{
    constexpr int BLOCK = block_of<C>();
    if (J0 + BLOCK < C && k + 1 >= J0 + BLOCK) {
        // a later block: recompile with its start (no recursion past C)
        accumulate_step<T, G, R, C, (J0 + BLOCK < C ? J0 + BLOCK : J0)>(w, s, k);
        return;
    }
    using L = layout<G * R>;
    const T *vk = s + L::TILE + k * L::LD;
    const T tau = s[L::TAU + k];
#pragma unroll
    for (int r = 0; r < R; r++) {
        T acc = T(0);
#pragma unroll
        for (int j = J0; j < C; j++)
            acc += w[r][j] * vk[j];
        acc *= tau;
#pragma unroll
        for (int j = J0; j < C; j++)
            w[r][j] -= acc * vk[j];
    }
}

// The matrices of a warp's S systems first, first + 1, ... (consecutive in
// memory, S n^2 values) into their tiles (system q's at tiles + q SIZE,
// column-major with leading dimension LD), zeros past the batch. The 32
// lanes copy them as one array, 128 bytes a load, LOADS loads in flight a
// lane before their stores: a group of G lanes copying its own system would
// read 4 G bytes a column, one column at a time. Element e of the array is
// entry (i, j) of system q: e = q n^2 + j n + i, the quotients by exact
// multiplications (e d < 2^32).
template <typename T, int S, int C, typename L>
__device__ __forceinline__ void load_tiles(const T *__restrict__ A, long long batch, long long first, int n, T *tiles,
                                           int lane)
{
    constexpr int LOADS = 16, ITER = (S * C * C + 31) / 32; // ITER: loads a lane for n = C
    const unsigned nn = unsigned(n * n), all = S * nn;
    const long long live = batch - first; // systems of the warp in the batch (may be <= 0)
    const unsigned have = live <= 0 ? 0u : live >= S ? all : unsigned(live) * nn;
    const unsigned m_nn = 0xffffffffu / nn + 1u, m_n = 0xffffffffu / unsigned(n) + 1u; // ceil(2^32 / d)
    const T *src = A + (have > 0 ? first * (long long)nn : 0);
#pragma unroll
    for (int t0 = 0; t0 < ITER; t0 += LOADS) {
        T v[LOADS];
#pragma unroll
        for (int t = 0; t < LOADS; t++) {
            const unsigned e = unsigned(lane + 32 * (t0 + t));
            v[t] = t0 + t < ITER && e < have ? src[e] : T(0);
        }
#pragma unroll
        for (int t = 0; t < LOADS; t++) {
            const unsigned e = unsigned(lane + 32 * (t0 + t));
            if (t0 + t < ITER && e < all) {
                const unsigned q = nn == 1 ? e : __umulhi(e, m_nn), rem = e - q * nn;
                const unsigned j = n == 1 ? rem : __umulhi(rem, m_n), i = rem - j * unsigned(n);
                tiles[q * L::SIZE + L::TILE + i + j * L::LD] = v[t];
            }
        }
    }
}

// The reverse of load_tiles: the warp's systems' tiles (n x n each) out to
// their S n^2 consecutive values at A, the systems in the batch only.
template <typename T, int S, int C, typename L>
__device__ __forceinline__ void store_tiles(T *__restrict__ A, long long batch, long long first, int n,
                                            const T *tiles, int lane)
{
    constexpr int ITER = (S * C * C + 31) / 32;
    const unsigned nn = unsigned(n * n), all = S * nn;
    const long long live = batch - first;
    const unsigned have = live <= 0 ? 0u : live >= S ? all : unsigned(live) * nn;
    const unsigned m_nn = 0xffffffffu / nn + 1u, m_n = 0xffffffffu / unsigned(n) + 1u;
    T *dst = A + (have > 0 ? first * (long long)nn : 0);
#pragma unroll
    for (int t = 0; t < ITER; t++) {
        const unsigned e = unsigned(lane + 32 * t);
        if (e < have) {
            const unsigned q = nn == 1 ? e : __umulhi(e, m_nn), rem = e - q * nn;
            const unsigned j = n == 1 ? rem : __umulhi(rem, m_n), i = rem - j * unsigned(n);
            dst[e] = tiles[q * L::SIZE + L::TILE + i + j * L::LD];
        }
    }
}

// The register limit of a size class (blocks an SM, 0 for none), from the
// registers its matrix takes: R C values a lane.
template <typename T, int R, int C> constexpr int min_blocks()
{
    return sizeof(T) == 4 ? (R * C <= 32 ? BSYM_HH_MIN_BLOCKS : R * C <= 48 ? BSYM_HH_MIN_BLOCKS_MID : R * C <= 80 ? 4 : 0)
                          : (R * C <= 16 ? 0 : R * C <= 32 ? BSYM_HH_MIN_BLOCKS_D : 0);
}

// The kernel of a size class: G lanes a system (a power of two), R rows a
// lane (G R rows, padded), C columns (padded; C <= G R, a multiple of 4).
// The padding of the order is in front: the system is the trailing n x n
// block of an order C, its rows and columns at padded indices pad..C-1
// (pad = C - n), and the reduction starts at step pad; the leading rows and
// columns are zero and no step touches them (their v and w are zero). So
// they are done with from the start, and the blocks of BLOCK columns (and
// a lane's rows below them) that they fill are skipped at compile time as
// the finished columns are (reduce_step): n = 9 in the class of 12 columns
// runs 6 of its 7 steps on 2 rows x 8 columns a lane, as n = 8 does, not
// on 3 x 12. Rows at padded indices >= C (G R > C) are zero at the end. The
// shared arrays (the reflectors, d, e, tau, the PCR rows) are by padded
// index; the system's row q is padded row pad + q.
template <typename T, int G, int R, int C, mode MODE>
__global__ void __launch_bounds__(32 * WARPS_PER_BLOCK, min_blocks<T, R, C>()) householder_kernel(hh_args<T> p)
{
    static_assert(32 % G == 0 && C <= G * R && C % 4 == 0, "a size class");
    constexpr int NMAX = G * R;                  // rows of a system
    constexpr int PER_WARP = 32 / G;             // systems per warp
    using L = layout<NMAX>;
    extern __shared__ unsigned char smem_raw[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int slot = lane / G, l = lane % G;
    const int n = p.n, pad = C - n; // n <= C: the class of n
    const long long sys = ((long long)blockIdx.x * WARPS_PER_BLOCK + warp) * PER_WARP + slot;
    // a group beyond the batch runs on a zero matrix so that every lane of
    // the warp takes part in every shuffle and barrier; it writes nothing
    const bool live = sys < p.batch;
    T *s = reinterpret_cast<T *>(smem_raw) + (warp * PER_WARP + slot) * L::SIZE;

    // ---- load: the warp's systems into their tiles ---------------------------
    load_tiles<T, PER_WARP, C, L>(p.A, p.batch, ((long long)blockIdx.x * WARPS_PER_BLOCK + warp) * PER_WARP, n,
                                  reinterpret_cast<T *>(smem_raw) + warp * PER_WARP * L::SIZE, lane);
    __syncwarp(); // the tiles are complete
    // padded rows l + G r of the full symmetric matrix, from the referenced
    // triangle (the tile holds the system by its own indices)
    T w[R][C];
    T amax = T(0);
    bool bad = false;
    const bool lower = p.uplo == 'L';
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = l + G * r - pad; // the system's row
#pragma unroll
        for (int j0 = 0; j0 < C; j0++) {
            const int j = j0 - pad;
            T v = T(0);
            if (i >= 0 && i < n && j >= 0)
                v = (lower == (i >= j)) ? s[L::TILE + i + j * L::LD] : s[L::TILE + j + i * L::LD];
            w[r][j0] = v;
            bad |= !finite(v);
            amax = max(amax, abs(v));
        }
    }
    // ... and in SOLVE mode the right-hand sides must be finite too
    if (MODE == SOLVE && live)
        for (int k = 0; k < p.nrhs; k++)
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = l + G * r - pad;
                if (i >= 0 && i < n)
                    bad |= !finite(p.B[(sys * p.nrhs + k) * n + i]);
            }
    bad = group_max<G>(bad ? 1 : 0) != 0;
    amax = group_max<G>(bad ? T(1) : amax);
    // exact power-of-two scale so that max |W| is in [0.5, 1)
    const bsym_hh::pow2_scale<T> scale(amax);
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int j = 0; j < C; j++)
            w[r][j] = bad ? T(0) : scale.down(w[r][j]);
    __syncwarp(); // everyone has read the tile: it now holds the reflectors

    // ---- reduction to tridiagonal form ------------------------------------
    // (the first right-hand side rides along: bz = Q^T b at the end)
    T bz[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = l + G * r - pad;
        bz[r] = MODE == SOLVE && live && !bad && i >= 0 && i < n && p.nrhs > 0 ? p.B[sys * p.nrhs * n + i] : T(0);
    }
    for (int k = pad; k + 2 < C; k++)
        reduce_step<T, G, R, C, 0>(w, bz, s, k, l);
    // the last 2 x 2 block (n >= 2) or 1 x 1 (n = 1), published by the
    // block start of its columns (the padding before it is zero)
    constexpr int JL = C - 4; // C - 2 and C - 1 lie in the last block of 4
    if (n >= 2) {
        publish_row<T, G, R, C, JL>(w, s, C - 2, l);
        if (l == 0)
            s[L::D + C - 2] = s[L::ROW + C - 2];
        publish_row<T, G, R, C, JL>(w, s, C - 1, l);
        if (l == 0) {
            s[L::D + C - 1] = s[L::ROW + C - 1];
            s[L::E + C - 2] = s[L::ROW + C - 2];
        }
    } else {
        publish_row<T, G, R, C, JL>(w, s, C - 1, l);
        if (l == 0)
            s[L::D + C - 1] = s[L::ROW + C - 1];
    }
    __syncwarp(); // d, e, tau are complete
    // undo the scaling of T (Q does not depend on it)
    for (int i = pad + l; i < C; i += G) {
        s[L::D + i] = scale.up(s[L::D + i]);
        if (i + 1 < C)
            s[L::E + i] = scale.up(s[L::E + i]);
    }
    __syncwarp(); // T is final

    const T nan = T(NAN);
    if (MODE == TRIDIAGONALIZE) {
        if (live) {
            for (int i = l; i < n; i += G) {
                p.d[sys * n + i] = bad ? nan : s[L::D + pad + i];
                if (i + 1 < n)
                    p.e[sys * (n - 1) + i] = bad ? nan : s[L::E + pad + i];
            }
            if (l == 0)
                p.info[sys] = bad ? -1 : 0;
        }
        if (p.Q == nullptr)
            return; // (the whole warp)
        // Q = H_0 H_1 ... H_{n-3}, row by row: start from I, Q <- Q H_k
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int j = 0; j < C; j++)
                w[r][j] = (l + G * r == j) ? T(1) : T(0);
        for (int k = pad; k + 2 < C; k++)
            accumulate_step<T, G, R, C, 0>(w, s, k);
        // Q by the system's indices into the tile (the reflectors are read),
        // then the warp's systems out together
        __syncwarp();
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int i = l + G * r - pad;
            if (i >= 0 && i < n)
#pragma unroll
                for (int j = 0; j < C; j++)
                    if (j >= pad)
                        s[L::TILE + i + (j - pad) * L::LD] = bad ? nan : w[r][j];
        }
        __syncwarp(); // the tiles hold Q
        store_tiles<T, PER_WARP, C, L>(p.Q, p.batch, ((long long)blockIdx.x * WARPS_PER_BLOCK + warp) * PER_WARP, n,
                                       reinterpret_cast<const T *>(smem_raw) + warp * PER_WARP * L::SIZE, lane);
        return;
    }

    // ---- SOLVE: z = Q^T b, T y = z by PCR, x = Q y ------------------------
    // T itself when asked for (the automatic solve's conditioning test)
    if (p.d != nullptr && live)
        for (int i = l; i < n; i += G) {
            p.d[sys * n + i] = s[L::D + pad + i];
            p.e[sys * n + i] = i + 1 < n ? s[L::E + pad + i] : T(0);
        }
    // PCR does not pivot: where its residual on T y = z is not small (T
    // indefinite with a tiny pivot), the system's T is solved again by
    // Gaussian elimination with partial pivoting (bsym_hh::pcr_accept).
    T tnorm = T(0); // ||T||_inf
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = l + G * r; // padded
        if (i >= pad && i < C)
            tnorm = max(tnorm, abs(s[L::D + i]) + (i > pad ? abs(s[L::E + i - 1]) : T(0)) +
                                   (i + 1 < C ? abs(s[L::E + i]) : T(0)));
    }
    tnorm = group_max<G>(tnorm);
    int fail_row = 0x7fffffff;
    for (int rhs = 0; rhs < p.nrhs; rhs++) {
        T *b = p.B + ((live ? sys : 0) * p.nrhs + rhs) * (long long)n;
        T x[R], z[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int i = l + G * r - pad;
            x[r] = rhs == 0 ? bz[r] : live && i >= 0 && i < n && !bad ? b[i] : T(0);
        }
        if (rhs > 0)
            for (int k = pad; k + 2 < C; k++)
                apply_reflector<T, NMAX, R, G>(s, k, l, x);
        int rhs_fail = 0x7fffffff;
        if (R == 1) {
            // one row per lane: PCR through shuffles (lanes before pad are
            // idle; the system's row i in lane pad + i)
            const int i = l - pad;
            const bool in = i >= 0;
            bsym::pcr_row<T> row{in && i > 0 ? s[L::E + l - 1] : T(0), in ? s[L::D + l] : T(1),
                                 in && i + 1 < n ? s[L::E + l] : T(0)};
            bool f = false;
            z[0] = x[0];
            const T y = bsym::pcr_lanes(row, x[0], in ? i : 0, n, &f);
            if (f && in)
                rhs_fail = i;
            s[L::PF + l] = in ? y : T(0);
        } else {
            // R rows per lane: PCR in shared memory (rows l + G r)
#pragma unroll
            // (the PCR rows and y by padded index: the system's arrays
            // start at pad)
            for (int r = 0; r < R; r++) {
                const int i = l + G * r - pad;
                z[r] = x[r];
                if (i >= 0 && i < n) {
                    bsym_hh::pcr_row_of(s + L::D + pad, s + L::E + pad, i, n, s + L::PA + pad, s + L::PB + pad,
                                        s + L::PC + pad);
                    s[L::PF + pad + i] = x[r];
                }
            }
            __syncwarp(); // the PCR rows are complete
            bsym::pcr_shared<R>(s + L::PA + pad, s + L::PB + pad, s + L::PC + pad, s + L::PF + pad, n, l, G,
                                &rhs_fail, bsym::warp_sync{});
        }
        __syncwarp(); // y is in s[PF]
        // residual of T y = z, relative to ||T|| ||y|| + ||z||
        T res = T(0), ymax = T(0), zmax = T(0);
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int i = l + G * r; // padded
            if (i >= pad && i < C) {
                const T y = s[L::PF + i];
                T ty = s[L::D + i] * y;
                if (i > pad)
                    ty += s[L::E + i - 1] * s[L::PF + i - 1];
                if (i + 1 < C)
                    ty += s[L::E + i] * s[L::PF + i + 1];
                res = max(res, abs(z[r] - ty));
                ymax = max(ymax, abs(y));
                zmax = max(zmax, abs(z[r]));
                if (!finite(ty))
                    res = T(INFINITY);
            }
        }
        res = group_max<G>(res);
        ymax = group_max<G>(ymax);
        zmax = group_max<G>(zmax);
        rhs_fail = -group_max<G>(-rhs_fail); // min over the group
        const bool redo =
            live && !bad && (rhs_fail != 0x7fffffff || !bsym_hh::pcr_accept(res, tnorm, ymax, zmax, n));
        if (__any_sync(bsym::FULL_MASK, redo)) {
            // every group of the warp takes part in the barriers; only the
            // groups that need it solve again
            __syncwarp(); // everyone has read y
            if (redo)
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = l + G * r - pad;
                    if (i >= 0 && i < n) {
                        bsym_hh::gtsv_row(s + L::D + pad, s + L::E + pad, i, n, s + L::PA + pad, s + L::PB + pad,
                                          s + L::PC + pad);
                        s[L::PF + pad + i] = z[r];
                    }
                }
            __syncwarp(); // the rows are complete
            int g_info = 0;
            if (redo && l == 0)
                g_info = bsym::gtsv_pivoted(s + L::PA + pad, s + L::PB + pad, s + L::PC + pad, s + L::PF + pad, n);
            g_info = __shfl_sync(bsym::FULL_MASK, g_info, slot * G);
            __syncwarp(); // y is in s[PF]
            if (redo)
                rhs_fail = g_info > 0 ? g_info - 1 : 0x7fffffff;
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int i = l + G * r; // padded
            x[r] = i >= pad && i < C ? s[L::PF + i] : T(0);
        }
        __syncwarp(); // everyone has read y before the next right-hand side
        fail_row = min(fail_row, rhs_fail);
        for (int k = C - 3; k >= pad; k--)
            apply_reflector<T, NMAX, R, G>(s, k, l, x);
        if (live)
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = l + G * r - pad;
                if (i >= 0 && i < n) {
                    b[i] = x[r];
                    if (!finite(x[r]))
                        fail_row = min(fail_row, i);
                }
            }
    }
    // verdict of the group: -1 bad input, else the first failed row (1-based)
    const int first = -group_max<G>(-fail_row); // min over the group
    if (!live)
        return;
    const int code = bad ? -1 : first != 0x7fffffff ? first + 1 : 0;
    if (l == 0)
        p.info[sys] = code;
    if (code != 0)
        for (int rhs = 0; rhs < p.nrhs; rhs++)
            for (int i = l; i < n; i += G)
                p.B[(sys * p.nrhs + rhs) * n + i] = nan;
}

// Launches the kernel of a size class.
template <typename T, int G, int R, int C, mode MODE>
bsym_status launch_class(const hh_args<T> &a, cudaStream_t stream, char *msg, size_t msglen)
{
    constexpr int PER_WARP = 32 / G;
    const long long per_block = (long long)WARPS_PER_BLOCK * PER_WARP;
    const long long blocks = (a.batch + per_block - 1) / per_block;
    const size_t smem = size_t(per_block) * layout<G * R>::SIZE * sizeof(T);
    auto kernel = householder_kernel<T, G, R, C, MODE>;
    BSYM_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    kernel<<<unsigned(blocks), 32 * WARPS_PER_BLOCK, smem, stream>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// The size class of n (G lanes a system, R rows a lane, C columns), chosen
// by measurement on the H200 (inst/bench/RESULTS.md, session 30:
// bench_tridiag --parts b,c, batch 1e6, every class that holds n at n = 8,
// 9, 12, 13, 16, 17, 20, 21, 24, 25, 32). Fewer lanes a system (more
// systems a warp, several rows a lane) win wherever the registers allow: a
// step's fixed cost (publication, reflector, shuffles, barriers) is paid once
// a group, and a group of G lanes pays it G times over. The columns are
// padded to a multiple of 4 only (C = 12, 20, 24 between the powers of two),
// the rows to G R, with the padding of the order in front (the kernel's
// comment; session 39, against the padding at the end, systems/s, batch
// 1e6: float tridiagonalize (d, e) n = 9 1.17e9 -> 1.27e9, 25 1.02e8 ->
// 1.17e8, 13 6.70e8 -> 6.98e8; with Q n = 25 6.62e7 -> 8.36e7; double (d,
// e) n = 9 5.50e8 -> 5.99e8, 25 4.73e7 -> 5.31e7; the classes' largest n
// within 2 %, except float with Q at 12 and 16, 0.96x and 0.95x). Against one row a lane (classes 8, 16, 32 before), float
// tridiagonalize (d, e) in matrices/s: n = 8 2.09e9 -> 2.97e9, 9 7.28e8 ->
// 1.17e9, 16 4.22e8 -> 5.97e8, 17 1.44e8 -> 2.49e8, 24 1.06e8 -> 1.68e8.
template <typename T, mode MODE>
bsym_status launch_warp(const hh_args<T> &a, cudaStream_t stream, char *msg, size_t msglen)
{
    constexpr bool F = sizeof(T) == 4, SOLVES = MODE == SOLVE;
    const int n = a.n;
    if (n <= 8) {
        // double: 8, 1, 8 solves 7 % faster than 4, 2, 8 (and reduces 5 % slower)
        if constexpr (F)
            return launch_class<T, 4, 2, 8, MODE>(a, stream, msg, msglen);
        else
            return launch_class<T, 8, 1, 8, MODE>(a, stream, msg, msglen);
    }
    if (n <= 12)
        return launch_class<T, 4, 3, 12, MODE>(a, stream, msg, msglen);
    // (double solves took 16, 1, 16 until session 39, PCR on the lanes: with
    // the warp's systems loaded together 8, 2, 16 wins, n = 13 2.56e8 ->
    // 2.98e8, 16 2.14e8 -> 2.40e8 solves/s)
    if (n <= 16)
        return launch_class<T, 8, 2, 16, MODE>(a, stream, msg, msglen);
    if (n <= 20) {
        // float solves: 4, 5, 20 8 % faster (the reductions alike or slower;
        // measured while both classes' solves still fell back to the pivoted
        // solve, before pcr_shared took K rows a thread: not re-measured)
        if constexpr (F && SOLVES)
            return launch_class<T, 4, 5, 20, MODE>(a, stream, msg, msglen);
        else
            return launch_class<T, 8, 3, 20, MODE>(a, stream, msg, msglen);
    }
    if (n <= 24)
        return launch_class<T, 8, 3, 24, MODE>(a, stream, msg, msglen);
    // float with Q from n = 25: (16, 2, 32), two rows a lane, the same d
    // and e as (32, 1, 32) bit for bit (lane_prod). Measured on the H200
    // (session 35, tridiagonalize with Q, batch 1e6, matrices/s, (32, 1,
    // 32) -> (16, 2, 32)): n = 32 5.18e7 -> 5.89e7 (6.13e7 with
    // lane_prod), 28 5.84e7 both, 25 6.63e7 -> 6.27e7; the eigensolver
    // with vectors (batch 1e5) n = 32 2.38e7 -> 2.44e7, 29 2.70e7 ->
    // 2.73e7, 28 2.83e7 -> 2.87e7. From 29 then; from 25 since the padding
    // went in front (session 39: with Q n = 25 8.68e7 -> 1.06e8, 26 8.08e7
    // -> 1.00e8, 28 7.22e7 -> 9.10e7). Without Q, and in double, (32, 1,
    // 32) wins (session 30).
    if constexpr (F && !SOLVES)
        if (a.Q != nullptr && n > 24)
            return launch_class<T, 16, 2, 32, MODE>(a, stream, msg, msglen);
    if constexpr (bsym_hh::WARP_MAX_N > 32) // (the build-time knob above 32)
        if (n > 32)
            return launch_class<T, 32, 2, 64, MODE>(a, stream, msg, msglen);
    return launch_class<T, 32, 1, 32, MODE>(a, stream, msg, msglen);
}

template <typename T, mode MODE>
bsym_status launch(const hh_args<T> &a, cudaStream_t stream, char *msg, size_t msglen)
{
    if (a.n < 1 || a.n > BSYM_GPU_HOUSEHOLDER_MAX_N || (a.uplo != 'L' && a.uplo != 'U')) {
        std::snprintf(msg, msglen, "no GPU Householder kernel for n = %d", a.n);
        return BSYM_ERR_ARG;
    }
    if (a.batch == 0)
        return BSYM_OK;
    if (a.n > bsym_hh::WARP_MAX_N)
        return bsym_hh::block_launch<T, MODE>(a, stream, msg, msglen);
    return launch_warp<T, MODE>(a, stream, msg, msglen);
}

// Pipeline chunk launchers. Arrays: SOLVE A, B, info; TRIDIAGONALIZE A, d,
// e, info, [Q].
template <typename T>
bsym_status solve_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    hh_args<T> a = *static_cast<const hh_args<T> *>(arg);
    a.A = static_cast<const T *>(dev[0]);
    a.B = static_cast<T *>(dev[1]);
    a.info = static_cast<int *>(dev[2]);
    a.batch = count;
    return launch<T, SOLVE>(a, s, msg, msglen);
}

template <typename T>
bsym_status trd_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    hh_args<T> a = *static_cast<const hh_args<T> *>(arg);
    a.A = static_cast<const T *>(dev[0]);
    a.d = static_cast<T *>(dev[1]);
    a.e = static_cast<T *>(dev[2]);
    a.info = static_cast<int *>(dev[3]);
    a.Q = a.Q != nullptr ? static_cast<T *>(dev[4]) : nullptr;
    a.batch = count;
    return launch<T, TRIDIAGONALIZE>(a, s, msg, msglen);
}

bsym_status size_error(int64_t n, char *msg, size_t msglen)
{
    std::snprintf(msg, msglen, "n = %lld is outside the GPU Householder kernels' 1..%d", (long long)n,
                  BSYM_GPU_HOUSEHOLDER_MAX_N);
    return BSYM_ERR_SIZE;
}

template <typename T, typename H>
bsym_status solve_host(const bsym__exec *x, char uplo, int64_t n, int64_t nrhs, int64_t batch, const H *A, H *B,
                       int *info)
{
    if (n < 1 || n > BSYM_GPU_HOUSEHOLDER_MAX_N)
        return size_error(n, x->msg, x->msglen);
    hh_args<T> a{};
    a.uplo = uplo;
    a.n = int(n);
    a.nrhs = int(nrhs);
    const bsym_array arrays[3] = {
        host_matrix<T>(A, n, uplo),
        host_data<T>(B, B, size_t(n * nrhs)),
        {nullptr, info, sizeof(int)},
    };
    return bsym_pipeline(x, arrays, 3, batch, solve_chunk<T>, &a);
}

template <typename T>
bsym_status trd_host(const bsym__exec *x, char uplo, int64_t n, int64_t batch, const T *A, T *d, T *e, T *Q,
                     int *info)
{
    if (n < 1 || n > BSYM_GPU_HOUSEHOLDER_MAX_N)
        return size_error(n, x->msg, x->msglen);
    hh_args<T> a{};
    a.uplo = uplo;
    a.n = int(n);
    a.Q = Q; // only a flag here: the chunk launcher puts the device pointer in
    const bsym_array arrays[5] = {
        host_matrix<T>(A, n, uplo),
        {nullptr, d, size_t(n) * sizeof(T)},
        {nullptr, e, size_t(n - 1) * sizeof(T)},
        {nullptr, info, sizeof(int)},
        {nullptr, Q, size_t(n * n) * sizeof(T)},
    };
    return bsym_pipeline(x, arrays, Q != nullptr ? 5 : 4, batch, trd_chunk<T>, &a);
}

template <typename T>
bsym_status solve_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, T *d, T *e,
                         cudaStream_t stream, char *msg, size_t msglen)
{
    hh_args<T> a{};
    a.A = A;
    a.uplo = uplo;
    a.n = n;
    a.nrhs = nrhs;
    a.batch = batch;
    a.B = B;
    a.info = info;
    a.d = d;
    a.e = e;
    return launch<T, SOLVE>(a, stream, msg, msglen);
}

template <typename T>
bsym_status trd_launch(char uplo, int n, int64_t batch, const T *A, T *d, T *e, T *Q, int *info,
                       cudaStream_t stream, char *msg, size_t msglen)
{
    hh_args<T> a{};
    a.A = A;
    a.uplo = uplo;
    a.n = n;
    a.batch = batch;
    a.d = d;
    a.e = e;
    a.Q = Q;
    a.info = info;
    return launch<T, TRIDIAGONALIZE>(a, stream, msg, msglen);
}

} // namespace

namespace bsym_cuda {

template <typename T, typename H> bsym_status hhsolve_op(const bsym__exec *x, const bsym__job *j)
{
    return solve_host<T>(x, j->uplo, j->n, j->nrhs, j->batch, static_cast<const H *>(j->A), static_cast<H *>(j->B),
                         j->info);
}

template <typename T> bsym_status tridiagonalize_op(const bsym__exec *x, const bsym__job *j)
{
    return trd_host<T>(x, j->uplo, j->n, j->batch, static_cast<const T *>(j->A), static_cast<T *>(j->d),
                       static_cast<T *>(j->e), static_cast<T *>(j->Q), j->info);
}

template <typename T>
bsym_status hhsolve_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, T *d,
                           T *e, cudaStream_t s, char *msg, size_t msglen)
{
    return solve_launch<T>(uplo, n, nrhs, batch, A, B, info, d, e, s, msg, msglen);
}

template <typename T>
bsym_status tridiagonalize_launch(char uplo, int n, int64_t batch, const T *A, T *d, T *e, T *Q, int *info,
                                  cudaStream_t s, char *msg, size_t msglen)
{
    return trd_launch<T>(uplo, n, batch, A, d, e, Q, info, s, msg, msglen);
}

#define BSYM_HOUSEHOLDER_INSTANTIATE(T)                                                             \
    template bsym_status hhsolve_op<T>(const bsym__exec *, const bsym__job *);                      \
    template bsym_status tridiagonalize_op<T>(const bsym__exec *, const bsym__job *);               \
    template bsym_status hhsolve_launch<T>(char, int, int, int64_t, const T *, T *, int *, T *, T *, \
                                           cudaStream_t, char *, size_t);                           \
    template bsym_status tridiagonalize_launch<T>(char, int, int64_t, const T *, T *, T *, T *, int *, \
                                                  cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_HOUSEHOLDER_INSTANTIATE)
template bsym_status hhsolve_op<float, double>(const bsym__exec *, const bsym__job *);

} // namespace bsym_cuda
