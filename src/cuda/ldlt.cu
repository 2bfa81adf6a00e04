// ldlt.cu -- batched LDL^T solve without pivoting for n <= 64 on the GPU,
// and the table of variants that also binds ldlt_block.cu's kernel for 64 <
// n <= BSYM_GPU_LDLT_MAX_N (256; one thread block a system, see there).
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
//
// The certifying kernels (method AUTO's LDL^T start, ldlt_cert_launch; see
// cert_mode below) do the same solve and, in the same pass over A (kept in
// shared memory), decide whether the system keeps it: the shift sigma from
// the norms of A, the signs of the pivots of A - sigma I (beside the
// factorization of A, or after it), the backward error of each solution
// against A and b as given, and the verdict, listing the systems not
// certified. The cheap form of the certificate (strategy_cert_cheap_, from
// L and D alone) rides along the solve, and the shifted factorization runs
// only for the warps (blocks) that hold a system it leaves undecided.
// Measured on an H200 (bench_auto, batch 1e6, n = 32, diagonally dominant
// systems, all certified cheaply): the certifying kernel at 0.56x the plain
// kernel's throughput in float, 0.47x in double (0.42x and 0.34x before the
// cheap form); on A = M^T M + I, where the cheap form certifies 0 % (float)
// and 27 % (double), 0.41x and 0.33x. What remains is the norms and
// residuals in double, the second stage of shared memory and the registers
// (lower occupancy).
#include <algorithm>
#include <mutex>
#include <cfloat>
#include <cmath>

#include <cuda_pipeline.h>

#define BSYM_CUDA_STRATEGY_NUMERICS // strategy_shift_, strategy_berr_ (common.cuh)
#include "common.cuh"
#include "ldlt.cuh"

namespace {

using bsym_cuda::ldlt_cert;

using namespace bsym_ldlt; // limits, reciprocal, vec_t, unpack, group_reduce (ldlt.cuh)

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

// How a kernel certifies (method AUTO's LDL^T start; common.cuh's ldlt_cert):
//   PLAIN       no certificate: the plain solve;
//   LOCKSTEP    the factorization of A - sigma I runs beside that of A, in
//               the same steps (one barrier and one set of branches for both,
//               twice the registers for the frames), for every system;
//   SEQUENTIAL  after the solve, A - sigma I is loaded from shared memory
//               into the same registers and factored (no more registers, a
//               second pass of n steps), and only where needed: when some
//               system of the warp (G <= 32) or block (G > 32) has positive
//               pivots and an acceptable backward error but fails the cheap
//               form of the certificate; otherwise the pass is skipped.
// Both modes also evaluate the cheap form (cheap_state): its y = M^-1 e
// rides along the factorization, its z = M^-T e along the first back
// substitution, so it costs a few FMAs per step and no pass of its own. A
// system is certified when its pivots are positive and the cheap form OR the
// shifted factorization says so (the same decision in both modes).
// A certifying kernel keeps the system's triangle in shared memory until the
// system is done (the norms, the residuals, SEQUENTIAL's second load): two
// stages, alternating, the next system's copy going to the other one.
enum cert_mode { PLAIN = 0, LOCKSTEP = 1, SEQUENTIAL = 2 }; // 1, 2: ldlt_cert_launch's modes
__host__ __device__ constexpr int stages(int mode) { return mode == PLAIN ? 1 : 2; }
__host__ __device__ constexpr int frames(int mode) { return mode == LOCKSTEP ? 2 : 1; } // matrices in registers

// Shared memory of one system, in elements of T:
//   col    2*F*(NMAX+4)  two column buffers per frame (alternating, so one
//                      barrier per step suffices: a buffer is rewritten two
//                      steps later, after every thread passed the barrier in
//                      between); frame m, parity p at (2m + p)(NMAX+4)
//   L      tri         L of the system being solved, packed (the diagonal
//                      slots are unused)
//   stage  S*tri       the next system's referenced triangle, filled by
//                      asynchronous copies while this one is computed (S = 2
//                      when certifying: this system's stays)
//   slot   2*W         broadcast slots of the substitutions when G > 32: two
//                      sets of W = slot_width(MODE), alternating
// rounded up to 16 bytes so every system's area stays 16-byte aligned.
__host__ __device__ constexpr int slot_width(int mode) { return mode == PLAIN ? 1 : 2; } // values at once
template <typename T, int NMAX, int MODE> __host__ __device__ constexpr int shared_elems()
{
    return ((2 * frames(MODE) * col_elems<NMAX>() + (1 + stages(MODE)) * tri_elems<NMAX>() + 2 * slot_width(MODE)) *
                int(sizeof(T)) + 15) / 16 * 16 / int(sizeof(T));
}

// The blocks per multiprocessor that ptxas should plan registers for: 0 (its
// own choice) for the plain kernel and wherever shared memory admits blocks
// enough to leave fewer than 160 registers a thread; else, for a certifying
// kernel, as many as fit in shared memory (228 KB per multiprocessor on
// Hopper, 1 KB of it reserved per block). ptxas's own choice (168 registers
// for 128 threads: three blocks) made the double SEQUENTIAL kernel of NMAX 32
// spill, when shared memory admits only two blocks anyway.
template <typename T, int NMAX, int G, int MODE> __host__ __device__ constexpr int min_blocks()
{
    constexpr int bytes = systems_per_block(G) * shared_elems<T, NMAX, MODE>() * int(sizeof(T)) + 1024;
    constexpr int fit = 228 * 1024 / bytes > 0 ? 228 * 1024 / bytes : 1;
    return MODE == PLAIN || 65536 / (block_threads(G) * fit) < 160 ? 0 : fit;
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
// a shuffle within the group's lanes. G > 32: through the system's two sets
// of W shared slots, alternating with `step` so that one barrier per call
// suffices (a set is rewritten two calls later, after everyone passed the
// barrier of the call in between).
template <typename T, int G, int W>
__device__ __forceinline__ T group_bcast(T v, int src, int t, T *slot, int step)
{
    if (G <= 32)
        return __shfl_sync(0xffffffffu, v, src, G);
    T *s = slot + W * (step & 1);
    if (t == src)
        *s = v;
    __syncthreads(); // the owner's store is visible to the group
    return *s;
}

// Two values of thread `src` at once (group_bcast with W = 2; the same sets
// of slots and steps, so the two may be mixed).
template <typename T, int G>
__device__ __forceinline__ void group_bcast2(T &v, T &w, int src, int t, T *slot, int step)
{
    if (G <= 32) {
        v = __shfl_sync(0xffffffffu, v, src, G);
        w = __shfl_sync(0xffffffffu, w, src, G);
        return;
    }
    T *s = slot + 2 * (step & 1);
    if (t == src) {
        s[0] = v;
        s[1] = w;
    }
    __syncthreads(); // the owner's stores are visible to the group
    v = s[0];
    w = s[1];
}

// The vote of the group: whether `p` holds for any system of the
// warp (G <= 32: every group of the warp answers the same) or of the block
// (G > 32: one system per block). Every thread of the warp (block) calls it.
template <int G> __device__ __forceinline__ bool group_any(bool p)
{
    if (G <= 32)
        return __any_sync(0xffffffffu, p);
    return __syncthreads_or(p) != 0;
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

// ---- the certificate's pieces -------------------------------------------------------
// f(k, A(r, k)) for k = 0, ..., n-1 in order: row r of the symmetric A from
// its triangle packed in stage (columns k < r of row r, then column r).
template <int NMAX, typename T, typename F>
__device__ __forceinline__ void for_row(const T *stage, int n, int r, F f)
{
    int i = r; // tri(r, 0)
    for (int k = 0; k < n; k++) {
        f(k, stage[i]);
        i += k < r ? NMAX - k - 1 : 1;
    }
}

// Group-wide max of mx[0..K-1] (non-negative, +inf allowed) and sum of sm,
// in double. G <= 32: xor shuffles (every thread ends with the same values).
// G > 32: shared atomics on `scratch` (32 bytes at 64 bytes into the second
// column buffer of frame 0, apart from group_reduce's 16; non-negative
// doubles order like their bit patterns), a barrier after, so that the next
// call may reuse it.
template <int G, int K>
__device__ __forceinline__ void group_dreduce(double (&mx)[K], double &sm, int t, void *scratch)
{
    if (G <= 32) {
#pragma unroll
        for (int off = G / 2; off > 0; off /= 2) {
#pragma unroll
            for (int i = 0; i < K; i++)
                mx[i] = fmax(mx[i], __shfl_xor_sync(0xffffffffu, mx[i], off, G));
            sm += __shfl_xor_sync(0xffffffffu, sm, off, G);
        }
        return;
    }
    unsigned long long *m = reinterpret_cast<unsigned long long *>(static_cast<char *>(scratch) + 64);
    double *sum = reinterpret_cast<double *>(m + K);
    if (t == 0) {
#pragma unroll
        for (int i = 0; i < K; i++)
            m[i] = 0;
        *sum = 0;
    }
    __syncthreads(); // scratch initialised
#pragma unroll
    for (int i = 0; i < K; i++)
        atomicMax(m + i, (unsigned long long)__double_as_longlong(mx[i]));
    atomicAdd(sum, sm);
    __syncthreads(); // every thread's contribution is in
#pragma unroll
    for (int i = 0; i < K; i++)
        mx[i] = __longlong_as_double((long long)m[i]);
    sm = *sum;
    __syncthreads(); // read by all before the next call initialises it
}

// The shift sigma of the certificate (core/strategy_numerics.h,
// strategy_shift_) from the system's triangle in stage: ubound =
// min(||A||_inf, ||A||_F) and max|a_ii| of the symmetric A, in double; also
// sets *anorm = ||A||_inf, the backward error's norm (the same sums, in the
// same order, as strategy_resid_row_'s arow). Every thread of the group
// calls it.
template <typename T, int NMAX, int G>
__device__ __forceinline__ double cert_shift(const T *stage, int n, int t, bool active, double rcond,
                                             double *anorm, void *scratch)
{
    double mx[2] = {0, 0}, fro = 0; // max row sum, max |a_ii|; sum of squares
#pragma unroll
    for (int q = 0; q < NMAX / G; q++) {
        const int r = t + q * G;
        if (!active || r >= n)
            continue;
        double rs = 0;
        for_row<NMAX>(stage, n, r, [&](int k, T v) {
            const double d = double(v);
            rs += fabs(d);
            fro += d * d;
            if (k == r)
                mx[1] = fmax(mx[1], fabs(d));
        });
        mx[0] = fmax(mx[0], rs);
    }
    group_dreduce<G, 2>(mx, fro, t, scratch);
    *anorm = mx[0];
    return strategy_shift_(prec_tag<T>(), n, fmin(mx[0], sqrt(fro)), mx[1], rcond);
}

// My rows of the system in stage into the frame a (a[q][k] = entry (r, k),
// k <= r < (q+1)G, minus shift on the diagonal; identity past n or for an
// inactive group); amax = max |entry|, chk = sum of entry * 0 (NaN exactly
// when an entry is not finite).
template <typename T, int NMAX, int G, bool SHIFT>
__device__ __forceinline__ void load_rows(T (&a)[NMAX / G][NMAX], const T *stage, int n, int t, bool active,
                                          T shift, T &amax, T &chk)
{
#pragma unroll
    for (int q = 0; q < NMAX / G; q++) {
        const int r = t + q * G;
#pragma unroll
        for (int k = 0; k < NMAX; k++) {
            T v = (k == r) ? T(1) : T(0);
            if (k < (q + 1) * G && active && r < n && k <= r) {
                v = stage[tri<NMAX>(r, k)];
                chk += v * T(0);
                amax = max(amax, fabs(v)); // max ignores a NaN
                if (SHIFT && k == r)
                    v -= shift;
            }
            a[q][k] = v;
        }
    }
}

// What the cheap form of the certificate (strategy_cert_cheap_) gathers
// from the factorization of A itself: whether every pivot is positive and
// finite, min D, and B2 = max y max z, y = M^-1 e and z = M^-T e for the
// comparison matrix M of the unit lower L (y_i = 1 + sum_{k<i} |L_ik| y_k
// rides along the factorization, z_i = 1 + sum_{k>i} |L_ki| z_k along the
// first back substitution). Every thread of the group sees every pivot, y_j
// and z_i (published or broadcast), so each holds the same notpos, mind,
// ymax and zmax without a reduction; yz[q] is y, then z, of my row block q.
template <typename T, int R> struct cheap_state {
    T yz[R];
    T mind, ymax, zmax;
    int notpos;
};
template <typename T, int R> __device__ __forceinline__ void cheap_init(cheap_state<T, R> &c)
{
#pragma unroll
    for (int q = 0; q < R; q++)
        c.yz[q] = T(1);
    c.mind = prec<T>::max;
    c.ymax = c.zmax = T(0);
    c.notpos = 0;
}

// Right-looking LDL^T of the F frames a[m] in the moving frame (see the top
// of the file), all in the same steps: one barrier per step, one set of
// branches. MAIN: frame 0 is the system's: L goes to sL, D to dmine, the
// forward substitution of the first right-hand side rides along in y, and
// breakdown takes the first step whose |pivot| <= tol; CHEAP: the pivots'
// signs, min D and y = M^-1 e of the cheap certificate (cheap_state) ride
// along too. The other frames (the shifted matrix of the certificate) give
// only the signs of their pivots: shift_bad = 1 at a pivot that is not
// positive and finite.
template <typename T, int NMAX, int G, int F, bool MAIN, bool CHEAP = false>
__device__ __forceinline__ void factor(T (&a)[F][NMAX / G][NMAX], int n, int t, T *col, T *sL, T (&y)[NMAX / G],
                                       T (&dmine)[NMAX / G], T tol, int &breakdown, int &shift_bad,
                                       cheap_state<T, NMAX / G> &ch)
{
    constexpr int R = NMAX / G, CE = col_elems<NMAX>();
    int colj = 0; // tri(r, j) = colj + r
    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int m = 0; m < F; m++) {
            T *c = col + (2 * m + (j & 1)) * CE;
#pragma unroll
            for (int q = 0; q < R; q++) {
                if (t + q * G >= j)
                    c[t + q * G - j + 3] = a[m][q][0]; // publish column j, rows >= j
                if (MAIN && m == 0 && t + q * G == j) {
                    c[2] = y[q]; // and y_j of the fused forward substitution
                    if (CHEAP)
                        c[1] = ch.yz[q]; // and the cheap certificate's y_j
                }
            }
        }
        group_sync<G>(); // column j complete
        T l[F][R]; // L(r, j) for rows below j
#pragma unroll
        for (int m = 0; m < F; m++) {
            const T *c = col + (2 * m + (j & 1)) * CE;
            const T d = c[3];
            T yj = 0, ycj = 0;
            if (MAIN && m == 0) {
                yj = c[2];
                if (breakdown == 0 && !(fabs(d) > tol))
                    breakdown = j + 1; // also catches a NaN pivot
                if (CHEAP) {
                    ycj = c[1];
                    ch.ymax = max(ch.ymax, ycj);
                    ch.mind = min(ch.mind, d);
                    if (!(d > T(0) && d <= prec<T>::max))
                        ch.notpos = 1;
                }
            } else if (!(d > T(0) && d <= prec<T>::max)) {
                shift_bad = 1;
            }
            const T inv = reciprocal(d);
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int r = t + q * G;
                l[m][q] = a[m][q][0] * inv;
                if (MAIN && m == 0) {
                    if (r == j)
                        dmine[q] = d;
                    if (r > j) {
                        sL[colj + r] = l[m][q];
                        y[q] -= l[m][q] * yj; // L y = b for the first right-hand side
                        if (CHEAP)
                            ch.yz[q] += fabs(l[m][q]) * ycj; // M y = e
                    }
                }
            }
        }
        colj += NMAX - j - 1; // tri(r, j+1) = colj + r
        // a[q][m] = a[q][m+1] - l * A(j+1+m, j), reading the column 16
        // bytes at a time from index 4. Row block q needs columns <=
        // (q+1)G - 1 only, and no column reaches n: slots past those
        // bounds are left as they are (columns never read again).
#pragma unroll
        for (int kc = 0; kc * VW<T> < NMAX - 1; kc++) {
            if (kc * VW<T> >= n - 1 - j)
                break;
            T w[F][VW<T>];
#pragma unroll
            for (int m = 0; m < F; m++)
                unpack(reinterpret_cast<const vec_t<T> *>(col + (2 * m + (j & 1)) * CE + 4)[kc], w[m]);
#pragma unroll
            for (int q = 0; q < R; q++) {
                // the first test is known at compile time; the second
                // is implied by the loop's break for the last block
                if (kc * VW<T> >= (q + 1) * G - 1 || (q < R - 1 && kc * VW<T> >= (q + 1) * G - 1 - j))
                    continue;
#pragma unroll
                for (int e = 0; e < VW<T>; e++) {
                    const int mm = kc * VW<T> + e;
                    if (mm < (q + 1) * G - 1)
#pragma unroll
                        for (int m = 0; m < F; m++)
                            a[m][q][mm] = a[m][q][mm + 1] - l[m][q] * w[m][e];
                }
            }
        }
    }
}

// A persistent grid: block b handles systems b*S + local, then S*gridDim.x
// further, every block the same number of rounds (inactive groups still
// join barriers). While a system is factored, the next one's matrix arrives
// in shared memory through asynchronous copies, so the group does not wait
// on global memory. MODE != PLAIN adds the certificate (cert_mode above,
// common.cuh's ldlt_cert): the shift from the norms of A, the cheap form
// (cheap_state), the pivot signs of A - sigma I where needed, the backward
// error of each solution against A and the right-hand side as given (both
// still at hand: A in shared memory, the first b in sL's diagonal slots),
// and the verdict.
template <typename T, int NMAX, int G, int MODE>
__global__ void __launch_bounds__(block_threads(G), min_blocks<T, NMAX, G, MODE>())
ldlt_kernel(int n, int nrhs, long long batch, const T *__restrict__ A, T *__restrict__ B,
            int *__restrict__ info, bool lower, ldlt_cert cert)
{
    constexpr int R = NMAX / G;  // rows per thread
    constexpr int S = systems_per_block(G);
    constexpr int F = frames(MODE), CE = col_elems<NMAX>(), TRI = tri_elems<NMAX>();
    constexpr bool CERT = MODE != PLAIN;
    constexpr int W = slot_width(MODE);
    extern __shared__ __align__(16) unsigned char smem_raw[];

    const int local = threadIdx.x / G; // system within the block
    const int t = threadIdx.x % G;     // thread within the system
    T *col = reinterpret_cast<T *>(smem_raw) + local * shared_elems<T, NMAX, MODE>();
    T *sL = col + 2 * F * CE;
    T *stage0 = sL + TRI;
    T *slot = stage0 + stages(MODE) * TRI;
    T *scratch = col + CE; // group reductions (G > 32), before and after the factorization
    const long long stride = (long long)S * gridDim.x;
    const T tol_scale = T(n) * limits<T>::eps();
    unsigned long long certified = 0, cheaply = 0; // by thread 0 of the group, added once at the end

    long long base = (long long)blockIdx.x * S;
    if (base + local < batch)
        prefetch<T, NMAX, G>(A, base + local, n, lower, t, stage0);
    for (int round = 0; base < batch; base += stride, round++) {
        const long long sys = base + local;
        const bool active = sys < batch;
        T *Bk = B + (active ? sys : 0) * (long long)n * nrhs;
        T *stage = stage0 + (CERT ? (round & 1) * TRI : 0);

        // 1. My rows from the stage into registers (identity past n), max |a|
        //    and finiteness; then the first right-hand side is requested
        //    (used after the factorisation, so its latency is hidden) and the
        //    next system's copy is started.
        __pipeline_wait_prior(0);
        T a[F][R][NMAX];
        T amax = 0, chk = 0;
        load_rows<T, NMAX, G, false>(a[0], stage, n, t, active, T(0), amax, chk);
        int nonfinite = !(chk == T(0));
        T y[R], b0[R]; // first right-hand side: worked on, and as given (PLAIN)
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int r = t + q * G;
            b0[q] = y[q] = (active && nrhs > 0 && r < n) ? Bk[r] : T(0);
        }
        if (CERT) {
            // and as given (the residual), not in registers but in the
            // diagonal slots of sL, which L leaves unused: an asynchronous
            // copy by the thread that reads it back
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int r = t + q * G;
                if (active && nrhs > 0 && r < n)
                    __pipeline_memcpy_async(sL + tri<NMAX>(r, r), Bk + r, sizeof(T));
            }
            __pipeline_commit();
            group_sync<G>(); // every row is in stage: the certificate reads other threads' rows
        }
        const bool prefetched = base + stride + local < batch;
        if (prefetched)
            prefetch<T, NMAX, G>(A, base + stride + local, n, lower, t,
                                 stage0 + (CERT ? ((round + 1) & 1) * TRI : 0));
        group_reduce<T, G>(amax, nonfinite, t, scratch);
        const T tol = tol_scale * amax;
        double anorm = 0, sigma = 0, worst = 0; // the certificate's ||A||_inf, shift, backward error
        int shift_bad = 0;
        if (CERT)
            sigma = cert_shift<T, NMAX, G>(stage, n, t, active, cert.rcond, &anorm, scratch);
        if (MODE == LOCKSTEP)
#pragma unroll
            for (int q = 0; q < R; q++)
#pragma unroll
                for (int k = 0; k < NMAX; k++)
                    a[F - 1][q][k] = a[0][q][k] - (k == t + q * G && k < n ? T(sigma) : T(0));

        // 2. Right-looking LDL^T (and, LOCKSTEP, that of A - sigma I beside it).
        T dmine[R]; // D of my rows (1 past n)
#pragma unroll
        for (int q = 0; q < R; q++)
            dmine[q] = T(1);
        int breakdown = 0;
        cheap_state<T, R> ch;
        cheap_init(ch);
        factor<T, NMAX, G, F, true, CERT>(a, n, t, col, sL, y, dmine, tol, breakdown, shift_bad, ch);
        group_sync<G>(); // L complete in shared memory
#pragma unroll
        for (int q = 0; q < R; q++)
            ch.yz[q] = T(1); // y is done (ymax); z = M^-T e from here

        // 3. Substitutions, one right-hand side at a time.
        int step = 0;
        int lrow[R]; // tri(i, r) = lrow[q] + i for my rows r
#pragma unroll
        for (int q = 0; q < R; q++)
            lrow[q] = tri<NMAX>(t + q * G, t + q * G) - (t + q * G);
        for (int c = 0; c < nrhs; c++) {
            T bc[R]; // right-hand side c as given (the certificate's residual)
            if (c == 0) {
                if (CERT) { // the copy of b0 is done (the next system's may not be)
                    if (prefetched)
                        __pipeline_wait_prior(1);
                    else
                        __pipeline_wait_prior(0);
                }
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    bc[q] = !CERT ? b0[q] : active && r < n ? sL[tri<NMAX>(r, r)] : T(0);
                    if (!isfinite(bc[q]))
                        nonfinite = 1; // reduced over the group below
                }
            } else {
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    bc[q] = y[q] = (active && r < n) ? Bk[r + (long long)c * n] : T(0);
                    if (!isfinite(y[q]))
                        nonfinite = 1;
                }
                // L y = b (the first right-hand side had it during the
                // factorisation): y_j from its owner, rows below subtract
                // L(r, j) y_j.
                for (int j = 0, cj = 0; j < n; cj += NMAX - j - 1, j++) {
                    const T yj = group_bcast<T, G, W>(row_value(y, j / G), j % G, t, slot, step++);
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
                T xi = row_value(y, i / G);
                if (CERT && c == 0) { // z of the cheap certificate rides along
                    T zi = row_value(ch.yz, i / G);
                    group_bcast2<T, G>(xi, zi, i % G, t, slot, step++);
                    ch.zmax = max(ch.zmax, zi);
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (t + q * G < i) {
                            const T lir = sL[lrow[q] + i]; // L(i, r)
                            y[q] -= lir * xi;
                            ch.yz[q] += fabs(lir) * zi; // M^T z = e
                        }
                } else {
                    xi = group_bcast<T, G, W>(xi, i % G, t, slot, step++);
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (t + q * G < i)
                            y[q] -= sL[lrow[q] + i] * xi; // L(i, r)
                }
            }
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int r = t + q * G;
                if (active && r < n)
                    Bk[r + (long long)c * n] = y[q];
            }
            if (CERT) {
                // the backward error of x against A and b as given, as
                // strategy.cu's check_kernel: x through the first column
                // buffer (free since the factorization ended), rows of A
                // from the stage, sums in double
                T *xs = col;
#pragma unroll
                for (int q = 0; q < R; q++)
                    if (t + q * G < n)
                        xs[t + q * G] = y[q];
                group_sync<G>(); // x complete
                double m3[3] = {0, 0, 0}, none = 0; // max |residual|, |x|, |b|
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    if (!active || r >= n)
                        continue;
                    double s = 0;
                    for_row<NMAX>(stage, n, r, [&](int k, T v) { s += double(v) * double(xs[k]); });
                    const double res = fabs(double(bc[q]) - s);
                    m3[0] = fmax(m3[0], res == res ? res : double(INFINITY)); // NaN fails the test
                    m3[1] = fmax(m3[1], fabs(double(y[q])));
                    m3[2] = fmax(m3[2], fabs(double(bc[q])));
                }
                group_dreduce<G, 3>(m3, none, t, scratch);
                const double e = strategy_berr_(prec_tag<T>(), m3[0], anorm, m3[1], m3[2]);
                worst = e > worst || e != e ? e : worst;
                group_sync<G>(); // xs is read
            }
        }
        bool cheap = false; // the cheap form of the certificate holds
        if (CERT) {
            if (nrhs == 0) // z without a back substitution to ride along
                for (int i = n - 1; i >= 0; i--) {
                    const T zi = group_bcast<T, G, W>(row_value(ch.yz, i / G), i % G, t, slot, step++);
                    ch.zmax = max(ch.zmax, zi);
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (t + q * G < i)
                            ch.yz[q] += fabs(sL[lrow[q] + i]) * zi;
                }
            cheap = !ch.notpos && strategy_cert_cheap_(prec_tag<T>(), n, double(ch.mind),
                                                       double(ch.ymax) * double(ch.zmax), sigma);
        }
        if constexpr (MODE == SEQUENTIAL) {
            // A - sigma I into the frame, factored for its pivot signs: only
            // where a system of the warp (block) has positive pivots and a
            // small enough backward error but fails the cheap form (every
            // group of a warp runs the same steps: all or none of them)
            const bool need = active && breakdown == 0 && !ch.notpos && !cheap && worst <= cert.tol;
            if (group_any<G>(need)) {
                T ignored = 0, ignored2 = 0;
                load_rows<T, NMAX, G, true>(a[0], stage, n, t, active, T(sigma), ignored, ignored2);
                factor<T, NMAX, G, 1, false>(a, n, t, col, sL, y, dmine, tol, breakdown, shift_bad, ch);
                group_sync<G>(); // the column buffers are read
            }
        }
        // 4. A non-finite right-hand side, or a breakdown, spoils the whole
        //    system: NaN everywhere and its info code.
        T ignored = 0;
        group_reduce<T, G>(ignored, nonfinite, t, scratch);
        if (nonfinite || breakdown != 0)
            for (int c = 0; c < nrhs; c++)
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int r = t + q * G;
                    if (active && r < n)
                        Bk[r + (long long)c * n] = T(NAN);
                }
        if (active && t == 0) {
            const int code = nonfinite ? -1 : breakdown;
            info[sys] = code;
            // the verdict (SEQUENTIAL: every system that gets here without
            // the cheap form had its shifted factorization run)
            if (CERT)
                cert_verdict(cert, sys, n, code, !ch.notpos && (cheap || !shift_bad) && worst <= cert.tol, cheap,
                             certified, cheaply);
        }
        group_sync<G>(); // the column buffers are free for the next system
    }
    if (CERT && t == 0)
        cert_totals(cert, certified, cheaply);
}

// Launches one (NMAX, G, MODE) variant (cert: read when MODE != PLAIN).
template <typename T, int NMAX, int G, int MODE>
bsym_status launch(char uplo, int n, int nrhs, long long batch, const T *A, T *B, int *info,
                   const ldlt_cert &cert, cudaStream_t stream, char *msg, size_t msglen)
{
    const size_t smem = size_t(systems_per_block(G)) * shared_elems<T, NMAX, MODE>() * sizeof(T);
    // Above the default 48 KB a kernel must opt in, once per device and
    // variant (function attributes belong to a device's context). Also ask
    // for the largest shared-memory carve-out: the kernel is limited by how
    // many systems fit in shared memory, not by the L1 cache. A persistent
    // grid: as many blocks as are resident at once (each loops over the
    // batch), or fewer for a small batch. Both are found on a device's first
    // launch (the calls of several GPUs run on threads of their own: one
    // flag per device, set once).
    int dev = 0;
    BSYM_CUDA_TRY(cudaGetDevice(&dev));
    if (dev < 0 || dev >= BSYM_MAX_GPUS) {
        std::snprintf(msg, msglen, "device %d is beyond batchsym's %d", dev, BSYM_MAX_GPUS);
        return BSYM_ERR_NODEVICE;
    }
    static std::once_flag once[BSYM_MAX_GPUS];
    static cudaError_t opt_in[BSYM_MAX_GPUS];
    static int resident_of[BSYM_MAX_GPUS];
    std::call_once(once[dev], [smem, dev] {
        cudaError_t e = cudaFuncSetAttribute(ldlt_kernel<T, NMAX, G, MODE>,
                                             cudaFuncAttributePreferredSharedMemoryCarveout,
                                             int(cudaSharedmemCarveoutMaxShared));
        if (e == cudaSuccess && smem > 48 * 1024)
            e = cudaFuncSetAttribute(ldlt_kernel<T, NMAX, G, MODE>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        opt_in[dev] = e;
        int sms = 0, per_sm = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ldlt_kernel<T, NMAX, G, MODE>, block_threads(G),
                                                      smem);
        cudaGetLastError();
        resident_of[dev] = std::max(1, sms * per_sm);
    });
    BSYM_CUDA_TRY(opt_in[dev]);
    const int resident = resident_of[dev];
    const long long blocks =
        std::min<long long>(resident, (batch + systems_per_block(G) - 1) / systems_per_block(G));
    if (blocks == 0)
        return BSYM_OK;
    ldlt_kernel<T, NMAX, G, MODE><<<unsigned(blocks), block_threads(G), smem, stream>>>(
        n, nrhs, batch, A, B, info, uplo == 'L', cert);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// Resident systems per multiprocessor of one variant (occupancy; the same
// for every n of the variant).
template <typename T, int NMAX, int G, int MODE> int systems_per_sm(int)
{
    const size_t smem = size_t(systems_per_block(G)) * shared_elems<T, NMAX, MODE>() * sizeof(T);
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ldlt_kernel<T, NMAX, G, MODE>, block_threads(G),
                                                      smem) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return blocks * systems_per_block(G);
}

// The variants built, per precision: (NMAX, G, MODE). Rows per thread R =
// NMAX/G are limited so that R*NMAX values fit in registers (128 floats, 64
// doubles), per frame: LOCKSTEP holds two frames, so it is built only where
// both fit without spilling (nvcc -Xptxas -v), SEQUENTIAL elsewhere. `tuned`
// marks the default for each NMAX, chosen by inst/bench/bench_ldlt (plain)
// and bench_auto (certifying) on an H200 (inst/bench/RESULTS.md).
template <typename T> struct variant {
    int nmax, group, mode;
    bool tuned;
    bsym_status (*launch)(char, int, int, long long, const T *, T *, int *, const ldlt_cert &, cudaStream_t,
                          char *, size_t);
    int (*occupancy)(int n);
};
// The block kernel (ldlt_block.cu, 64 < n <= 256) as a variant: its group
// is its thread count, NT threads solving one system (NMAX = NT: thread r
// holds row r); plain, or certifying (CERT: the same certificate as
// SEQUENTIAL's, see ldlt_block.cu).
template <typename T, int NT, bool CERT>
bsym_status block_launch(char uplo, int n, int nrhs, long long batch, const T *A, T *B, int *info,
                         const ldlt_cert &cert, cudaStream_t stream, char *msg, size_t msglen)
{
    return bsym_cuda::ldlt_block_launch<T, NT>(uplo, n, nrhs, batch, A, B, info, CERT ? &cert : nullptr, stream,
                                               msg, msglen);
}
#define BSYM_VARIANT(T, NM, GR, TUNED) BSYM_CVARIANT(T, NM, GR, PLAIN, TUNED)
#define BSYM_CVARIANT(T, NM, GR, MO, TUNED) {NM, GR, MO, TUNED, launch<T, NM, GR, MO>, systems_per_sm<T, NM, GR, MO>}
#define BSYM_BLOCK_VARIANT(T, NM, NT, TUNED)                                                                \
    {NM, NT, PLAIN, TUNED, block_launch<T, NT, false>, bsym_cuda::ldlt_block_systems_per_sm<T, NT, false>}
#define BSYM_BLOCK_CVARIANT(T, NM, NT)                                                                     \
    {NM, NT, SEQUENTIAL, true, block_launch<T, NT, true>, bsym_cuda::ldlt_block_systems_per_sm<T, NT, true>}
// Above 64 the block kernel with the fewest threads that hold the padded
// order: 96 threads up to n = 96, then 128, 160, 192 and 256 (more systems a
// multiprocessor, fewer idle threads in the panel steps; 256 at n = 129
// ran at 1.5e6 systems/s in double, 160 at 2.0e6); in each class the next
// larger kernel stays listed for bench_ldlt's comparison (--group).
const variant<float> VARIANTS_S[] = {
    BSYM_VARIANT(float, 4, 4, false),   BSYM_VARIANT(float, 4, 2, false),   BSYM_VARIANT(float, 4, 1, true),
    BSYM_VARIANT(float, 8, 8, false),   BSYM_VARIANT(float, 8, 4, true),    BSYM_VARIANT(float, 8, 2, false),
    BSYM_VARIANT(float, 16, 16, false), BSYM_VARIANT(float, 16, 8, false),  BSYM_VARIANT(float, 16, 4, true),
    BSYM_VARIANT(float, 32, 32, false), BSYM_VARIANT(float, 32, 16, true),  BSYM_VARIANT(float, 32, 8, false),
    BSYM_VARIANT(float, 48, 48, true),
    BSYM_VARIANT(float, 64, 64, false), BSYM_VARIANT(float, 64, 32, true),
    BSYM_BLOCK_VARIANT(float, 96, 96, true),   BSYM_BLOCK_VARIANT(float, 96, 128, false),
    BSYM_BLOCK_VARIANT(float, 128, 128, true), BSYM_BLOCK_VARIANT(float, 128, 256, false),
    BSYM_BLOCK_VARIANT(float, 160, 160, true), BSYM_BLOCK_VARIANT(float, 160, 256, false),
    BSYM_BLOCK_VARIANT(float, 192, 192, true), BSYM_BLOCK_VARIANT(float, 192, 256, false),
    BSYM_BLOCK_VARIANT(float, 256, 256, true),
};
const variant<double> VARIANTS_D[] = {
    BSYM_VARIANT(double, 4, 4, false),   BSYM_VARIANT(double, 4, 2, false),   BSYM_VARIANT(double, 4, 1, true),
    BSYM_VARIANT(double, 8, 8, false),   BSYM_VARIANT(double, 8, 4, true),    BSYM_VARIANT(double, 8, 2, false),
    BSYM_VARIANT(double, 16, 16, false), BSYM_VARIANT(double, 16, 8, true),   BSYM_VARIANT(double, 16, 4, false),
    BSYM_VARIANT(double, 32, 32, false), BSYM_VARIANT(double, 32, 16, true),
    BSYM_VARIANT(double, 48, 48, true),
    BSYM_VARIANT(double, 64, 64, true),
    BSYM_BLOCK_VARIANT(double, 96, 96, true),   BSYM_BLOCK_VARIANT(double, 96, 128, false),
    BSYM_BLOCK_VARIANT(double, 128, 128, true), BSYM_BLOCK_VARIANT(double, 128, 256, false),
    BSYM_BLOCK_VARIANT(double, 160, 160, true), BSYM_BLOCK_VARIANT(double, 160, 256, false),
    BSYM_BLOCK_VARIANT(double, 192, 192, true), BSYM_BLOCK_VARIANT(double, 192, 256, false),
    BSYM_BLOCK_VARIANT(double, 256, 256, true),
};
// The certifying variants (method AUTO's LDL^T start), on the plain tuned
// group; the tuned one is SEQUENTIAL for every NMAX, since it skips the
// shifted factorization wherever the cheap form certifies the whole warp.
// Before the cheap form, bench_auto on an H200 (n = 32, batch 1e6): float
// LOCKSTEP 8.12 ms, SEQUENTIAL 7.92 ms; double SEQUENTIAL (G = 16) 18.2 ms,
// LOCKSTEP (G = 32: two frames of doubles need R = 1) 19.8 ms. With it, on
// diagonally dominant batches (all certified cheaply; n = 16, batch 1e5):
// float LOCKSTEP 0.181 ms, SEQUENTIAL 0.163 ms; double 0.296, 0.255 ms.
// LOCKSTEP stays built below NMAX 32 (bench_auto's rows; ldlt_cert_launch
// mode 1), not tuned. Above 64 the block kernel's certifying form, which
// also factors A - sigma I only where the cheap form fails (SEQUENTIAL).
const variant<float> CERT_VARIANTS_S[] = {
    BSYM_CVARIANT(float, 4, 1, LOCKSTEP, false),    BSYM_CVARIANT(float, 4, 1, SEQUENTIAL, true),
    BSYM_CVARIANT(float, 8, 4, LOCKSTEP, false),    BSYM_CVARIANT(float, 8, 4, SEQUENTIAL, true),
    BSYM_CVARIANT(float, 16, 4, LOCKSTEP, false),   BSYM_CVARIANT(float, 16, 4, SEQUENTIAL, true),
    BSYM_CVARIANT(float, 32, 16, SEQUENTIAL, true), BSYM_CVARIANT(float, 48, 48, SEQUENTIAL, true),
    BSYM_CVARIANT(float, 64, 32, SEQUENTIAL, true),
    BSYM_BLOCK_CVARIANT(float, 96, 96),             BSYM_BLOCK_CVARIANT(float, 128, 128),
    BSYM_BLOCK_CVARIANT(float, 160, 160), BSYM_BLOCK_CVARIANT(float, 192, 192),
    BSYM_BLOCK_CVARIANT(float, 256, 256),
};
const variant<double> CERT_VARIANTS_D[] = {
    BSYM_CVARIANT(double, 4, 1, LOCKSTEP, false),    BSYM_CVARIANT(double, 4, 1, SEQUENTIAL, true),
    BSYM_CVARIANT(double, 8, 4, LOCKSTEP, false),    BSYM_CVARIANT(double, 8, 4, SEQUENTIAL, true),
    BSYM_CVARIANT(double, 16, 8, LOCKSTEP, false),   BSYM_CVARIANT(double, 16, 8, SEQUENTIAL, true),
    BSYM_CVARIANT(double, 32, 16, SEQUENTIAL, true), BSYM_CVARIANT(double, 48, 48, SEQUENTIAL, true),
    BSYM_CVARIANT(double, 64, 64, SEQUENTIAL, true),
    BSYM_BLOCK_CVARIANT(double, 96, 96),             BSYM_BLOCK_CVARIANT(double, 128, 128),
    BSYM_BLOCK_CVARIANT(double, 160, 160), BSYM_BLOCK_CVARIANT(double, 192, 192),
    BSYM_BLOCK_CVARIANT(double, 256, 256),
};
#undef BSYM_CVARIANT
#undef BSYM_VARIANT
#undef BSYM_BLOCK_VARIANT
#undef BSYM_BLOCK_CVARIANT
const int NMAX_LIST[] = {4, 8, 16, 32, 48, 64, 96, 128, 160, 192, 256};

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
template <typename T> struct cert_variants_of;
template <> struct cert_variants_of<float> {
    static const variant<float> *begin() { return CERT_VARIANTS_S; }
    static const variant<float> *end() { return CERT_VARIANTS_S + sizeof CERT_VARIANTS_S / sizeof *CERT_VARIANTS_S; }
};
template <> struct cert_variants_of<double> {
    static const variant<double> *begin() { return CERT_VARIANTS_D; }
    static const variant<double> *end() { return CERT_VARIANTS_D + sizeof CERT_VARIANTS_D / sizeof *CERT_VARIANTS_D; }
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

// The certifying variant for n and mode (0 = the tuned one), or NULL.
template <typename T> const variant<T> *find_cert_variant(int n, int mode)
{
    const int nmax = nmax_for(n);
    for (const variant<T> *v = cert_variants_of<T>::begin(); v != cert_variants_of<T>::end(); v++)
        if (v->nmax == nmax && (mode == 0 ? v->tuned : v->mode == mode))
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
    return v->launch(uplo, n, nrhs, batch, A, B, info, ldlt_cert{}, stream, msg, msglen);
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

template <typename T, typename H>
bsym_status ldlt_host(const bsym__exec *x, char uplo, int64_t n, int64_t nrhs, int64_t batch, const H *A,
                      H *B, int *info)
{
    ldlt_call<T> call{uplo, int(n), int(nrhs)};
    const bsym_array arrays[3] = {
        host_matrix<T>(A, n, uplo),
        host_data<T>(B, B, size_t(n * nrhs)),
        {nullptr, info, sizeof(int)},
    };
    return bsym_pipeline(x, arrays, 3, batch, ldlt_chunk<T>, &call);
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

template <typename T, typename H> bsym_status ldlt_op(const bsym__exec *x, const bsym__job *j)
{
    return ldlt_host<T>(x, j->uplo, j->n, j->nrhs, j->batch, static_cast<const H *>(j->A), static_cast<H *>(j->B),
                        j->info);
}

template <typename T>
bsym_status ldlt_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, int group,
                        cudaStream_t s, char *msg, size_t msglen)
{
    return dispatch<T>(uplo, n, nrhs, batch, A, B, info, group, s, msg, msglen);
}

template <typename T>
bsym_status ldlt_cert_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info,
                             const ldlt_cert &cert, int mode, cudaStream_t s, char *msg, size_t msglen)
{
    const bool known = mode == 0 || mode == LOCKSTEP || mode == SEQUENTIAL;
    const variant<T> *v = n >= 1 && known ? find_cert_variant<T>(n, mode) : nullptr;
    if (v == nullptr) {
        std::snprintf(msg, msglen, "no certifying GPU LDL^T kernel for n = %d, mode %d", n, mode);
        return BSYM_ERR_ARG;
    }
    return v->launch(uplo, n, nrhs, batch, A, B, info, cert, s, msg, msglen);
}

#define BSYM_LDLT_INSTANTIATE(T)                                                                    \
    template bsym_status ldlt_op<T>(const bsym__exec *, const bsym__job *);                         \
    template bsym_status ldlt_launch<T>(char, int, int, int64_t, const T *, T *, int *, int,         \
                                        cudaStream_t, char *, size_t);                              \
    template bsym_status ldlt_cert_launch<T>(char, int, int, int64_t, const T *, T *, int *,         \
                                             const ldlt_cert &, int, cudaStream_t, char *, size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_LDLT_INSTANTIATE)
template bsym_status ldlt_op<float, double>(const bsym__exec *, const bsym__job *);

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
    return with_variant(precision, n, group, -1, [n](const auto &v) { return v.occupancy(n); });
}
