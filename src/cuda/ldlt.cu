// ldlt.cu -- batched LDL^T solve without pivoting for n <= 64 on the GPU.
// Implements Abbas-Turki & Graillat 2017, Sect. 3 (Algorithm 1, hybrid LDL^t).
//
// Layout of the work (the paper's hybrid scheme, Sect. 3, with registers):
//  - a group of G threads factors one system; several systems share a block
//    (S = 128 / G of them, or 1 when G > 128), so small n fill the chip;
//  - thread t of a group owns rows t, t+G, ..., t+(R-1)G of the matrix
//    (R = NMAX / G: the paper's n* = G collaborating threads, each doing R
//    rows), held in registers;
//  - NMAX is the smallest supported size >= n; rows and columns past n are an
//    identity block, and every loop runs to n, not NMAX;
//  - the grid is persistent: while a group factors one system, asynchronous
//    copies (cp.async) bring the next system's referenced triangle into
//    shared memory; for column k the group copies rows t, t+1, ... of it,
//    adjacent in memory for uplo = 'L' (uplo = 'U' reads row k of the upper
//    triangle instead, strided).
// Right-looking factorisation in a moving frame: at step j register a[q][m]
// of a row holds its entry in column j + m. The rows at or below j publish
// a[q][0] (column j) in shared memory; each row below j takes L(r, j) =
// a[q][0] / D_j and computes a[q][m] = a[q][m+1] - L(r, j) * A(j+1+m, j), the
// trailing update and the shift of the frame in one FMA. So the step loop
// is a run-time loop over j with register indices fixed at compile time:
// the code stays small enough for the instruction cache (a fully unrolled
// version was no faster and twice the size). L goes to shared memory as it
// is produced. The forward substitution of the first right-hand side rides
// along with the factorisation (y_j is published with column j); further
// right-hand sides and the back substitution read L from shared memory.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include <cuda_pipeline.h>

#include "common.cuh"

namespace {

template <typename T> struct limits;
template <> struct limits<double> {
    static __device__ __forceinline__ double eps() { return DBL_EPSILON; }
};
template <> struct limits<float> {
    static __device__ __forceinline__ float eps() { return FLT_EPSILON; }
};

// 1/x correctly rounded, without the slow path of a full division.
__device__ __forceinline__ float reciprocal(float x) { return __frcp_rn(x); }
__device__ __forceinline__ double reciprocal(double x) { return __drcp_rn(x); }

// 16-byte vectors of T for shared-memory reads: VW<T> elements per vector.
template <typename T> struct vec16;
template <> struct vec16<float> { using type = float4; };
template <> struct vec16<double> { using type = double2; };
template <typename T> using vec_t = typename vec16<T>::type;
template <typename T> constexpr int VW = 16 / int(sizeof(T));
__device__ __forceinline__ void unpack(float4 v, float *w)
{
    w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
}
__device__ __forceinline__ void unpack(double2 v, double *w)
{
    w[0] = v.x; w[1] = v.y;
}

// Systems per block and threads per block for a group size.
__host__ __device__ constexpr int systems_per_block(int G) { return G >= 128 ? 1 : 128 / G; }
__host__ __device__ constexpr int block_threads(int G) { return systems_per_block(G) * G; }

// Column buffer of one step: entry of row r at index r - j + 3, so the pivot
// sits at index 3 and the rows below it start at the 16-byte boundary 4.
template <int NMAX> __host__ __device__ constexpr int col_elems() { return NMAX + 4; }

// Offset of (i, k), i >= k, in a lower triangle of order NMAX packed by
// columns. A group reading (r, k) for consecutive rows r and one k touches
// consecutive words (no bank conflicts).
template <int NMAX> __host__ __device__ constexpr int tri(int i, int k)
{
    return k * NMAX - k * (k - 1) / 2 + (i - k);
}
template <int NMAX> __host__ __device__ constexpr int tri_elems() { return NMAX * (NMAX + 1) / 2; }

// Shared memory of one system, in elements of T:
//   col    2*(NMAX+4)  two column buffers (alternating, so one barrier per
//                      step suffices: a buffer is rewritten two steps later,
//                      after every thread passed the barrier in between)
//   L      tri         L of the system being solved, packed (the diagonal
//                      slots are unused)
//   stage  tri         the next system's referenced triangle, filled by
//                      asynchronous copies while this one is computed
//   slot   2           broadcast slots of the substitutions when G > 32
// rounded up to 16 bytes so every system's area stays 16-byte aligned.
template <typename T, int NMAX> __host__ __device__ constexpr int shared_elems()
{
    return ((2 * col_elems<NMAX>() + 2 * tri_elems<NMAX>() + 2) * int(sizeof(T)) + 15) / 16 * 16 /
           int(sizeof(T));
}

// The value of y[i / G] (i at run time) of a thread: a select chain over the
// compile-time register indices.
template <typename T, int R> __device__ __forceinline__ T row_value(const T (&y)[R], int block)
{
    T v = y[0];
#pragma unroll
    for (int q = 1; q < R; q++)
        if (q == block)
            v = y[q];
    return v;
}

// Barrier among the threads of one system. G <= 32: groups are warp-aligned
// and every lane of a warp runs the same trip counts (n is uniform over the
// batch), so a warp barrier suffices. G > 32: the group spans warps and the
// whole block synchronises (again with uniform trip counts everywhere).
template <int G> __device__ __forceinline__ void group_sync()
{
    if (G <= 32)
        __syncwarp();
    else
        __syncthreads();
}

// Value v of the group's thread `src` to every thread of the group. G <= 32:
// a shuffle within the group's lanes. G > 32: through the system's two
// shared slots, alternating with `step` so that one barrier per call suffices
// (a slot is rewritten two calls later, after everyone passed the barrier of
// the call in between).
template <typename T, int G>
__device__ __forceinline__ T group_bcast(T v, int src, int t, T *slot, int step)
{
    if (G <= 32)
        return __shfl_sync(0xffffffffu, v, src, G);
    T *s = slot + (step & 1);
    if (t == src)
        *s = v;
    __syncthreads(); // the owner's store is visible to the group
    return *s;
}

// Group-wide max of amax and OR of bad. G <= 32: xor shuffles within the
// group. G > 32: shared atomics on `scratch` (16 bytes that nothing else uses
// before the first factor step has passed its barrier); non-negative floats
// order like their bit patterns, so an integer max is a float max.
template <typename T, int G>
__device__ __forceinline__ void group_reduce(T &amax, int &bad, int t, T *scratch)
{
    if (G <= 32) {
#pragma unroll
        for (int off = G / 2; off > 0; off /= 2) {
            amax = max(amax, __shfl_xor_sync(0xffffffffu, amax, off, G));
            bad |= __shfl_xor_sync(0xffffffffu, bad, off, G);
        }
        return;
    }
    unsigned long long *m = reinterpret_cast<unsigned long long *>(scratch);
    int *flag = reinterpret_cast<int *>(m + 1);
    if (t == 0) {
        *m = 0;
        *flag = 0;
    }
    __syncthreads(); // scratch initialised
    if (sizeof(T) == 8)
        atomicMax(m, (unsigned long long)__double_as_longlong(double(amax)));
    else
        atomicMax(reinterpret_cast<unsigned int *>(m), __float_as_uint(float(amax)));
    if (bad)
        atomicOr(flag, 1);
    __syncthreads(); // every thread's contribution is in
    amax = sizeof(T) == 8 ? T(__longlong_as_double((long long)*m))
                          : T(__uint_as_float(*reinterpret_cast<unsigned int *>(m)));
    bad = *flag;
}

// Starts the asynchronous copy of system sys's referenced triangle into
// stage: each thread copies the entries (r, k <= r) of its own rows, so the
// thread that later reads them is the one that waits for them (no barrier).
template <typename T, int NMAX, int G>
__device__ __forceinline__ void prefetch(const T *__restrict__ A, long long sys, int n, bool lower, int t,
                                         T *stage)
{
    constexpr int R = NMAX / G;
    const T *Ak = A + sys * (long long)n * n;
#pragma unroll
    for (int q = 0; q < R; q++) {
        const int r = t + q * G;
#pragma unroll
        for (int k = 0; k < (q + 1) * G; k++)
            if (k <= r && r < n)
                __pipeline_memcpy_async(stage + tri<NMAX>(r, k),
                                        lower ? Ak + r + (long long)k * n : Ak + k + (long long)r * n,
                                        sizeof(T));
    }
    __pipeline_commit();
}

// A persistent grid: block b handles systems b*S + local, then S*gridDim.x
// further, every block the same number of rounds (inactive groups still
// join barriers). While a system is factored, the next one's matrix arrives
// in shared memory through asynchronous copies, so the group does not wait
// on global memory.
template <typename T, int NMAX, int G>
__global__ void __launch_bounds__(block_threads(G))
ldlt_kernel(int n, int nrhs, long long batch, const T *__restrict__ A, T *__restrict__ B,
            int *__restrict__ info, bool lower)
{
    constexpr int R = NMAX / G;  // rows per thread
    constexpr int S = systems_per_block(G);
    extern __shared__ __align__(16) unsigned char smem_raw[];

    const int local = threadIdx.x / G; // system within the block
    const int t = threadIdx.x % G;     // thread within the system
    T *col = reinterpret_cast<T *>(smem_raw) + local * shared_elems<T, NMAX>();
    T *sL = col + 2 * col_elems<NMAX>();
    T *stage = sL + tri_elems<NMAX>();
    T *slot = stage + tri_elems<NMAX>();
    const long long stride = (long long)S * gridDim.x;
    const T tol_scale = T(n) * limits<T>::eps();

    long long base = (long long)blockIdx.x * S;
    if (base + local < batch)
        prefetch<T, NMAX, G>(A, base + local, n, lower, t, stage);
    for (; base < batch; base += stride) {
        const long long sys = base + local;
        const bool active = sys < batch;
        T *Bk = B + (active ? sys : 0) * (long long)n * nrhs;

        // 1. My rows from the stage into registers (a[q][k] = entry (r, k),
        //    k <= r < (q+1)G; identity past n), max |a| and finiteness; then
        //    the first right-hand side is requested (used after the
        //    factorisation, so its latency is hidden) and the next system's
        //    copy is started.
        __pipeline_wait_prior(0);
        T a[R][NMAX];
        T amax = 0, chk = 0; // v * 0 is NaN exactly when v is not finite
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int r = t + q * G;
#pragma unroll
            for (int k = 0; k < NMAX; k++) {
                T v = (k == r) ? T(1) : T(0);
                if (k < (q + 1) * G && active && r < n && k <= r) {
                    v = stage[tri<NMAX>(r, k)];
                    chk += v * T(0);
                    amax = max(amax, fabs(v)); // max ignores a NaN
                }
                a[q][k] = v;
            }
        }
        int nonfinite = !(chk == T(0));
        T y[R], b0[R]; // first right-hand side: worked on, and as given
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int r = t + q * G;
            b0[q] = y[q] = (active && nrhs > 0 && r < n) ? Bk[r] : T(0);
        }
        if (base + stride + local < batch)
            prefetch<T, NMAX, G>(A, base + stride + local, n, lower, t, stage);
        group_reduce<T, G>(amax, nonfinite, t, col + col_elems<NMAX>());
        const T tol = tol_scale * amax;

        // 2. Right-looking LDL^T in the moving frame (see the top of the file).
        T dmine[R]; // D of my rows (1 past n)
#pragma unroll
        for (int q = 0; q < R; q++)
            dmine[q] = T(1);
        int breakdown = 0;
        int colj = 0; // tri(r, j) = colj + r
        for (int j = 0; j < n; j++) {
            T *c = col + (j & 1) * col_elems<NMAX>();
#pragma unroll
            for (int q = 0; q < R; q++) {
                if (t + q * G >= j)
                    c[t + q * G - j + 3] = a[q][0]; // publish column j, rows >= j
                if (t + q * G == j)
                    c[2] = y[q]; // and y_j of the fused forward substitution
            }
            group_sync<G>(); // column j complete
            const T d = c[3];
            const T yj = c[2];
            if (breakdown == 0 && !(fabs(d) > tol))
                breakdown = j + 1; // also catches a NaN pivot
            const T inv = reciprocal(d);
            T l[R]; // L(r, j) for rows below j
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int r = t + q * G;
                if (r == j)
                    dmine[q] = d;
                l[q] = a[q][0] * inv;
                if (r > j) {
                    sL[colj + r] = l[q];
                    y[q] -= l[q] * yj; // L y = b for the first right-hand side
                }
            }
            colj += NMAX - j - 1; // tri(r, j+1) = colj + r
            // a[q][m] = a[q][m+1] - l * A(j+1+m, j), reading the column 16
            // bytes at a time from index 4. Row block q needs columns <=
            // (q+1)G - 1 only, and no column reaches n: slots past those
            // bounds are left as they are (columns never read again).
            const vec_t<T> *cv = reinterpret_cast<const vec_t<T> *>(c + 4);
#pragma unroll
            for (int kc = 0; kc * VW<T> < NMAX - 1; kc++) {
                if (kc * VW<T> >= n - 1 - j)
                    break;
                T w[VW<T>];
                unpack(cv[kc], w);
#pragma unroll
                for (int q = 0; q < R; q++) {
                    // the first test is known at compile time; the second
                    // is implied by the loop's break for the last block
                    if (kc * VW<T> >= (q + 1) * G - 1 || (q < R - 1 && kc * VW<T> >= (q + 1) * G - 1 - j))
                        continue;
#pragma unroll
                    for (int e = 0; e < VW<T>; e++) {
                        const int m = kc * VW<T> + e;
                        if (m < (q + 1) * G - 1)
                            a[q][m] = a[q][m + 1] - l[q] * w[e];
                    }
                }
            }
        }
        group_sync<G>(); // L complete in shared memory

        // 3. Substitutions, one right-hand side at a time.
        int step = 0;
        int lrow[R]; // tri(i, r) = lrow[q] + i for my rows r
#pragma unroll
        for (int q = 0; q < R; q++)
            lrow[q] = tri<NMAX>(t + q * G, t + q * G) - (t + q * G);
        for (int c = 0; c < nrhs; c++) {
            if (c == 0) {
#pragma unroll
                for (int q = 0; q < R; q++)
                    if (!isfinite(b0[q]))
                        nonfinite = 1; // reduced over the group below
            } else {
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    y[q] = (active && r < n) ? Bk[r + (long long)c * n] : T(0);
                    if (!isfinite(y[q]))
                        nonfinite = 1;
                }
                // L y = b (the first right-hand side had it during the
                // factorisation): y_j from its owner, rows below subtract
                // L(r, j) y_j.
                for (int j = 0, cj = 0; j < n; cj += NMAX - j - 1, j++) {
                    const T yj = group_bcast<T, G>(row_value(y, j / G), j % G, t, slot, step++);
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (t + q * G > j && t + q * G < n)
                            y[q] -= sL[cj + t + q * G] * yj;
                }
            }
            // D z = y, then L^T x = z: x_i from its owner, rows above
            // subtract L(i, r) x_i.
#pragma unroll
            for (int q = 0; q < R; q++)
                y[q] /= dmine[q];
            for (int i = n - 1; i >= 0; i--) {
                const T xi = group_bcast<T, G>(row_value(y, i / G), i % G, t, slot, step++);
#pragma unroll
                for (int q = 0; q < R; q++)
                    if (t + q * G < i)
                        y[q] -= sL[lrow[q] + i] * xi; // L(i, r)
            }
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int r = t + q * G;
                if (active && r < n)
                    Bk[r + (long long)c * n] = y[q];
            }
        }
        // 4. A non-finite right-hand side, or a breakdown, spoils the whole
        //    system: NaN everywhere and its info code.
        T ignored = 0;
        group_reduce<T, G>(ignored, nonfinite, t, col + col_elems<NMAX>());
        if (nonfinite || breakdown != 0)
            for (int c = 0; c < nrhs; c++)
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    if (active && r < n)
                        Bk[r + (long long)c * n] = T(NAN);
                }
        if (active && t == 0)
            info[sys] = nonfinite ? -1 : breakdown;
        group_sync<G>(); // the column buffers are free for the next system
    }
}

// Launches one (NMAX, G) variant.
template <typename T, int NMAX, int G>
bsym_status launch(char uplo, int n, int nrhs, long long batch, const T *A, T *B, int *info,
                   cudaStream_t stream, char *msg, size_t msglen)
{
    const size_t smem = size_t(systems_per_block(G)) * shared_elems<T, NMAX>() * sizeof(T);
    // Above the default 48 KB a kernel must opt in, once per process and
    // variant (a function-local static is initialised once, thread-safely).
    // Also ask for the largest shared-memory carve-out: the kernel is limited
    // by how many systems fit in shared memory, not by the L1 cache.
    static const cudaError_t opt_in = [smem] {
        cudaError_t e = cudaFuncSetAttribute(ldlt_kernel<T, NMAX, G>,
                                             cudaFuncAttributePreferredSharedMemoryCarveout,
                                             int(cudaSharedmemCarveoutMaxShared));
        if (e == cudaSuccess && smem > 48 * 1024)
            e = cudaFuncSetAttribute(ldlt_kernel<T, NMAX, G>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        return e;
    }();
    BSYM_CUDA_TRY(opt_in);
    // A persistent grid: as many blocks as are resident at once (each loops
    // over the batch), or fewer for a small batch.
    static const int resident = [smem] {
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ldlt_kernel<T, NMAX, G>, block_threads(G), smem);
        cudaGetLastError();
        return std::max(1, sms * per_sm);
    }();
    const long long blocks =
        std::min<long long>(resident, (batch + systems_per_block(G) - 1) / systems_per_block(G));
    if (blocks == 0)
        return BSYM_OK;
    ldlt_kernel<T, NMAX, G><<<unsigned(blocks), block_threads(G), smem, stream>>>(
        n, nrhs, batch, A, B, info, uplo == 'L');
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// Resident systems per multiprocessor of one variant (occupancy).
template <typename T, int NMAX, int G> int systems_per_sm()
{
    const size_t smem = size_t(systems_per_block(G)) * shared_elems<T, NMAX>() * sizeof(T);
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ldlt_kernel<T, NMAX, G>, block_threads(G),
                                                      smem) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return blocks * systems_per_block(G);
}

// The variants built, per precision: (NMAX, G). Rows per thread R = NMAX/G
// are limited so that R*NMAX values fit in registers (128 floats, 64 doubles).
// `tuned` marks the default for each NMAX, chosen by inst/bench/bench_ldlt on
// an H200 (the n* table in inst/bench/RESULTS.md).
template <typename T> struct variant {
    int nmax, group;
    bool tuned;
    bsym_status (*launch)(char, int, int, long long, const T *, T *, int *, cudaStream_t, char *, size_t);
    int (*occupancy)();
};
#define BSYM_VARIANT(T, NM, GR, TUNED) {NM, GR, TUNED, launch<T, NM, GR>, systems_per_sm<T, NM, GR>}
const variant<float> VARIANTS_S[] = {
    BSYM_VARIANT(float, 4, 4, false),   BSYM_VARIANT(float, 4, 2, false),   BSYM_VARIANT(float, 4, 1, true),
    BSYM_VARIANT(float, 8, 8, false),   BSYM_VARIANT(float, 8, 4, true),    BSYM_VARIANT(float, 8, 2, false),
    BSYM_VARIANT(float, 16, 16, false), BSYM_VARIANT(float, 16, 8, false),  BSYM_VARIANT(float, 16, 4, true),
    BSYM_VARIANT(float, 32, 32, false), BSYM_VARIANT(float, 32, 16, true),  BSYM_VARIANT(float, 32, 8, false),
    BSYM_VARIANT(float, 48, 48, true),
    BSYM_VARIANT(float, 64, 64, false), BSYM_VARIANT(float, 64, 32, true),
};
const variant<double> VARIANTS_D[] = {
    BSYM_VARIANT(double, 4, 4, false),   BSYM_VARIANT(double, 4, 2, false),   BSYM_VARIANT(double, 4, 1, true),
    BSYM_VARIANT(double, 8, 8, false),   BSYM_VARIANT(double, 8, 4, true),    BSYM_VARIANT(double, 8, 2, false),
    BSYM_VARIANT(double, 16, 16, false), BSYM_VARIANT(double, 16, 8, true),   BSYM_VARIANT(double, 16, 4, false),
    BSYM_VARIANT(double, 32, 32, false), BSYM_VARIANT(double, 32, 16, true),
    BSYM_VARIANT(double, 48, 48, true),
    BSYM_VARIANT(double, 64, 64, true),
};
#undef BSYM_VARIANT
const int NMAX_LIST[] = {4, 8, 16, 32, 48, 64};

int nmax_for(int n)
{
    for (int m : NMAX_LIST)
        if (n <= m)
            return m;
    return 0;
}

template <typename T> struct variants_of;
template <> struct variants_of<float> {
    static const variant<float> *begin() { return VARIANTS_S; }
    static const variant<float> *end() { return VARIANTS_S + sizeof VARIANTS_S / sizeof *VARIANTS_S; }
};
template <> struct variants_of<double> {
    static const variant<double> *begin() { return VARIANTS_D; }
    static const variant<double> *end() { return VARIANTS_D + sizeof VARIANTS_D / sizeof *VARIANTS_D; }
};

// The variant for n and group (0 = the tuned one), or NULL.
template <typename T> const variant<T> *find_variant(int n, int group)
{
    const int nmax = nmax_for(n);
    for (const variant<T> *v = variants_of<T>::begin(); v != variants_of<T>::end(); v++)
        if (v->nmax == nmax && ((group == 0 && v->tuned) || v->group == group))
            return v;
    return nullptr;
}

// Launches the variant for n and group (0 = tuned); precision-generic.
template <typename T>
bsym_status dispatch(char uplo, int n, int nrhs, long long batch, const T *A, T *B, int *info,
                     int group, cudaStream_t stream, char *msg, size_t msglen)
{
    const variant<T> *v = n >= 1 ? find_variant<T>(n, group) : nullptr;
    if (v == nullptr) {
        std::snprintf(msg, msglen, "no GPU LDL^T kernel for n = %d with %d threads per system", n, group);
        return BSYM_ERR_ARG;
    }
    return v->launch(uplo, n, nrhs, batch, A, B, info, stream, msg, msglen);
}

// Arguments of one host call, handed to the pipeline's chunk launcher.
template <typename T> struct ldlt_call {
    char uplo;
    int n, nrhs;
};

template <typename T>
bsym_status ldlt_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const ldlt_call<T> *c = static_cast<const ldlt_call<T> *>(arg);
    return dispatch<T>(c->uplo, c->n, c->nrhs, count, static_cast<const T *>(dev[0]),
                       static_cast<T *>(dev[1]), static_cast<int *>(dev[2]), 0, s, msg, msglen);
}

template <typename T>
bsym_status ldlt_host(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch, const T *A,
                      T *B, int *info, bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    ldlt_call<T> call{uplo, int(n), int(nrhs)};
    const bsym_array arrays[3] = {
        {A, nullptr, size_t(n * n) * sizeof(T)},
        {B, B, size_t(n * nrhs) * sizeof(T)},
        {nullptr, info, sizeof(int)},
    };
    return bsym_pipeline(state, arrays, 3, batch, ldlt_chunk<T>, &call, interrupt, idata, msg, msglen);
}

template <typename T> int groups_for(int n, int *groups, int max)
{
    int count = 0;
    if (n < 1 || n > BSYM_GPU_LDLT_MAX_N)
        return 0;
    const int nmax = nmax_for(n);
    for (const variant<T> *v = variants_of<T>::begin(); v != variants_of<T>::end(); v++)
        if (v->nmax == nmax) {
            if (count < max)
                groups[count] = v->group;
            count++;
        }
    return count;
}

} // namespace

namespace bsym_cuda {

template <typename T> bsym_status ldlt_op(const bsym__exec *x, const bsym__job *j)
{
    return ldlt_host<T>(x->state, j->uplo, j->n, j->nrhs, j->batch, static_cast<const T *>(j->A),
                        static_cast<T *>(j->B), j->info, x->interrupt, x->interrupt_data, x->msg, x->msglen);
}

template <typename T>
bsym_status ldlt_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, int group,
                        cudaStream_t s, char *msg, size_t msglen)
{
    return dispatch<T>(uplo, n, nrhs, batch, A, B, info, group, s, msg, msglen);
}

#define BSYM_LDLT_INSTANTIATE(T)                                                                    \
    template bsym_status ldlt_op<T>(const bsym__exec *, const bsym__job *);                         \
    template bsym_status ldlt_launch<T>(char, int, int, int64_t, const T *, T *, int *, int,         \
                                        cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_LDLT_INSTANTIATE)

} // namespace bsym_cuda

extern "C" int bsym_cuda_ldlt_groups(char precision, int n, int *groups, int max)
{
    if (precision == 'd')
        return groups_for<double>(n, groups, max);
    if (precision == 's')
        return groups_for<float>(n, groups, max);
    return 0;
}

// Calls f(variant) for the variant of (precision, n, group); `none` when
// there is none or the precision letter is unknown.
template <typename F> int with_variant(char precision, int n, int group, int none, F f)
{
    if (precision == 'd') {
        const variant<double> *v = find_variant<double>(n, group);
        return v ? f(*v) : none;
    }
    if (precision == 's') {
        const variant<float> *v = find_variant<float>(n, group);
        return v ? f(*v) : none;
    }
    return none;
}

extern "C" int bsym_cuda_ldlt_tuned_group(char precision, int n)
{
    return with_variant(precision, n, 0, 0, [](const auto &v) { return v.group; });
}

extern "C" int bsym_cuda_ldlt_systems_per_sm(char precision, int n, int group)
{
    return with_variant(precision, n, group, -1, [](const auto &v) { return v.occupancy(); });
}
