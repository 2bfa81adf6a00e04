// householder.cuh -- what the two GPU Householder kernels share: the warp
// kernel for n <= 64 (householder.cu: the matrix in registers, a group of
// lanes per system) and the block kernel for 64 < n <= 256
// (householder_block.cu: the matrix packed in shared memory, a block per
// system). Their arguments, the launch of the block kernel, and the per-system
// numerics both must compute identically (the scaling against overflow, the
// reflector, the acceptance test of PCR's solution on T), so that a system
// gets the same d, e, Q, x and info whichever kernel its n selects.
#ifndef BSYM_HOUSEHOLDER_CUH
#define BSYM_HOUSEHOLDER_CUH

#include <cfloat>

#include "common.cuh"
#include "pcr.cuh"

namespace bsym_hh {

// Largest n of the warp kernel (householder.cu); above it the block kernel
// (householder_block.cu), which serves tridiagonalize, the tridiag solve and
// the eigensolver's and the automatic strategy's reductions alike.
// Measured on an H100 (inst/bench/bench_tridiag --parts b,c, batch 262144,
// systems/s, warp kernel -> block kernel; RESULTS.md, session 24):
//   float  tridiag   n = 33: 8.30e6 -> 2.58e7, 48: 6.48e6 -> 7.78e6, 64: 5.82e6 -> 5.08e6
//   double tridiag   n = 33: 3.02e6 -> 2.11e7, 48: 2.36e6 -> 6.53e6, 64: 2.03e6 -> 4.17e6
//   double (d, e, Q) n = 64: 7.95e5 -> 3.16e6
// (the warp kernel's class for n <= 64 (32, 2, 64) keeps two rows a lane and spills in
// double), so 32: the block kernel from 33 on, in both precisions; float
// loses 13 % at n = 64 and gains up to 3x below. A build-time knob for
// benchmarks, e.g. make lib NVCC_FLAGS="... -DBSYM_HH_WARP_MAX_N=64".
#ifndef BSYM_HH_WARP_MAX_N
#define BSYM_HH_WARP_MAX_N 32
#endif
constexpr int WARP_MAX_N = BSYM_HH_WARP_MAX_N;
static_assert(WARP_MAX_N >= 2 && WARP_MAX_N <= 64, "the warp kernel takes n <= 64, the block kernel n >= 3");

// What a kernel produces.
enum mode { TRIDIAGONALIZE, SOLVE };

template <typename T> struct hh_args {
    const T *A;
    char uplo;
    int n, nrhs;
    long long batch;
    T *d, *e, *Q;   // TRIDIAGONALIZE (Q may be null); SOLVE: T (n per system) or null
    T *B;           // SOLVE
    int *info;
};

// The block kernel for WARP_MAX_N < n <= BSYM_GPU_HOUSEHOLDER_MAX_N
// (householder_block.cu): same arguments and results as the warp kernel.
template <typename T, mode MODE>
bsym_status block_launch(const hh_args<T> &a, cudaStream_t stream, char *msg, size_t msglen);

// Threads of a block that takes a system, one per rb rows of the first
// trailing matrix (rows 1..n-1), whole warps (the block kernel of
// householder_block.cu, and hetrd.cu's).
inline int block_threads(int n, int rb) { return 32 * ((n - 1 + 32 * rb - 1) / (32 * rb)); }

// Exact power-of-two scale 2^-ex (ex from frexp of the largest |a_ij|), so
// that the scaled matrix's max is in [0.5, 1), applied as the two factors
// 2^-eh and 2^(eh-ex): for a subnormal max, 2^-ex alone would overflow.
// amax = 0: no scaling.
template <typename T> struct pow2_scale {
    T down1 = T(1), down2 = T(1), up1 = T(1), up2 = T(1);
    __host__ __device__ explicit pow2_scale(T amax)
    {
        int ex = 0;
        if (amax > T(0))
            frexp(amax, &ex);
        const int eh = ex / 2;
        down1 = ldexp(T(1), -eh);
        down2 = ldexp(T(1), eh - ex);
        up1 = ldexp(T(1), eh);
        up2 = ldexp(T(1), ex - eh);
    }
    __host__ __device__ T down(T v) const { return v * down1 * down2; }
    __host__ __device__ T up(T v) const { return v * up1 * up2; }
};

// The reflector H = I - tau v v^T (v_0 = 1, v_i = x_i * inv) with
// H [alpha; x] = [beta; 0], from alpha and sig = ||x||^2 (LAPACK's larfg
// without its rescaling loop: the input is scaled so that sig cannot
// overflow). sig = 0: H = I (tau = 0, beta = alpha).
//
// Below reflector_small (alpha^2 + sig < TMIN / EPS) a square may have lost
// digits to underflow (graded input: x_i^2 below TMIN, x_i not negligible
// beside alpha), and tau would not match v (H off orthogonality by far more
// than eps): the callers then pass alpha and sig of x / scale, scale =
// reflector_scale(max |x|) (a power of two: exact), and get the reflector
// of x itself (it is scale-invariant). The CPU's reflectors follow the
// same rule (core/reflector_impl.h).
template <typename T> struct reflector {
    T beta, tau, inv;
    __host__ __device__ reflector(T alpha, T sig, T scale = T(1))
    {
        const T bs = sig == T(0) ? alpha : -copysign(sqrt(alpha * alpha + sig), alpha);
        tau = sig == T(0) ? T(0) : (bs - alpha) / bs;
        inv = sig == T(0) ? T(0) : T(1) / ((alpha - bs) * scale);
        beta = bs * scale;
    }
};
// TMIN and TMIN / EPS of T (2^-103 in float, 2^-970 in double).
template <typename T> __host__ __device__ constexpr T reflector_tmin()
{
    return sizeof(T) == 4 ? T(FLT_MIN) : T(DBL_MIN);
}
template <typename T> __host__ __device__ constexpr T reflector_small()
{
    return reflector_tmin<T>() / (sizeof(T) == 4 ? T(FLT_EPSILON) : T(DBL_EPSILON));
}
// 2^e with max |x| / 2^e in [0.5, 1); 1 where max |x| is below TMIN (x
// is then absolutely negligible, its squares 0, and H = I: 1 / 2^e would
// overflow).
template <typename T> __host__ __device__ inline T reflector_scale(T amax)
{
    int ex = 0;
    if (amax >= reflector_tmin<T>())
        frexp(amax, &ex);
    return ldexp(T(1), ex);
}

// PCR does not pivot: its solution y of T y = z is kept when the residual is
// small, max |z - T y| <= 4 n eps (||T||_inf max |y| + max |z|), and no
// pivot broke down; otherwise the system's T is solved again by Gaussian
// elimination with partial pivoting (bsym::gtsv_pivoted).
template <typename T> __device__ __forceinline__ bool pcr_accept(T res, T tnorm, T ymax, T zmax, int n)
{
    const T tol = T(4) * T(n) * bsym::eps<T>();
    return res <= tol * (tnorm * ymax + zmax);
}

// The row i of the pivoted fallback's system (dl, d, du at dl[i], d[i],
// du[i]; dl[i] is row i+1's sub-diagonal, as gtsv_pivoted reads it) from the
// diagonal D and off-diagonal E of T.
template <typename T>
__device__ __forceinline__ void gtsv_row(const T *D, const T *E, int i, int n, T *dl, T *d, T *du)
{
    dl[i] = i + 1 < n ? E[i] : T(0);
    d[i] = D[i];
    du[i] = i + 1 < n ? E[i] : T(0);
}

// The row i of the PCR system (a, b, c) from D and E.
template <typename T>
__device__ __forceinline__ void pcr_row_of(const T *D, const T *E, int i, int n, T *a, T *b, T *c)
{
    a[i] = i > 0 ? E[i - 1] : T(0);
    b[i] = D[i];
    c[i] = i + 1 < n ? E[i] : T(0);
}

// ---- a block's reductions and its solve of T (the block kernel's, and
// hetrd.cu's complex solve on the real T) ----------------------------------
// Threads of a block at most: one per row of the trailing matrix (n - 1 <=
// 255 rows). The reductions' buffers have a slot per warp.
constexpr int MAX_THREADS = 256;
constexpr int MAX_WARPS = MAX_THREADS / 32;

// ---- reductions --------------------------------------------------------------
struct op_sum {
    template <typename V> __device__ V operator()(V a, V b) const { return a + b; }
};
struct op_max {
    template <typename V> __device__ V operator()(V a, V b) const { return max(a, b); }
};
struct op_min {
    template <typename V> __device__ V operator()(V a, V b) const { return min(a, b); }
};

template <typename V, typename Op> __device__ __forceinline__ V warp_reduce(V v, Op op)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = op(v, __shfl_xor_sync(bsym::FULL_MASK, v, o));
    return v;
}

// The reduction of v over the block, returned to every thread (the same
// value everywhere; see bsym_cuda::block_combine for the order and for the
// rule on red: consecutive reductions use different buffers; a buffer is
// reused after a later barrier).
template <typename V, typename Op> __device__ __forceinline__ V block_reduce(V v, V *red, Op op)
{
    return bsym_cuda::block_combine(warp_reduce(v, op), red, op);
}

// Reduction buffers (static shared memory): T ones and int ones. Each use
// below names its buffer; see block_reduce for the rule they follow.
template <typename T> struct reduce_bufs {
    T t[4][MAX_WARPS];
    int i[2][MAX_WARPS];
    int verdict; // gtsv_pivoted's result, from thread 0 to the block
};

// Solves T y = z for each right-hand side of b (z in b, y written over it),
// T in D, E: PCR by the block, redone with partial pivoting where its
// residual is not small or a pivot broke down (bsym_hh::pcr_accept).
// Returns (to every thread) the first failed row (0-based), INT_MAX if none.
template <int RB, typename T>
__device__ __forceinline__ int solve_t(const T *D, const T *E, T *PA, T *PB, T *PC, T *PF, T *b, int n, int nrhs,
                       reduce_bufs<T> &red)
{
    const int t = threadIdx.x, nt = blockDim.x;
    T tnorm = T(0); // ||T||_inf
    for (int i = t; i < n; i += nt)
        tnorm = max(tnorm, abs(D[i]) + (i > 0 ? abs(E[i - 1]) : T(0)) + (i + 1 < n ? abs(E[i]) : T(0)));
    tnorm = block_reduce(tnorm, red.t[3], op_max{});
    int fail_row = INT_MAX;
    for (int q = 0; q < nrhs; q++) {
        T *z = b + (long long)q * n;
        for (int i = t; i < n; i += nt) {
            pcr_row_of(D, E, i, n, PA, PB, PC);
            PF[i] = z[i];
        }
        __syncthreads(); // the PCR rows are complete
        int rhs_fail = INT_MAX;
        // (RB rows a thread: n - 1 <= RB nt, so n <= (RB + 1) nt)
        bsym::pcr_shared<RB + 1>(PA, PB, PC, PF, n, t, nt, &rhs_fail, bsym::block_sync{}); // ends with a barrier
        // residual of T y = z, relative to ||T|| ||y|| + ||z||
        T res = T(0), ymax = T(0), zmax = T(0);
        for (int i = t; i < n; i += nt) {
            const T y = PF[i];
            T ty = D[i] * y;
            if (i > 0)
                ty += E[i - 1] * PF[i - 1];
            if (i + 1 < n)
                ty += E[i] * PF[i + 1];
            res = max(res, abs(z[i] - ty));
            ymax = max(ymax, abs(y));
            zmax = max(zmax, abs(z[i]));
            if (!bsym::finite(ty))
                res = T(INFINITY);
        }
        res = block_reduce(res, red.t[0], op_max{});
        ymax = block_reduce(ymax, red.t[1], op_max{});
        zmax = block_reduce(zmax, red.t[2], op_max{});
        rhs_fail = block_reduce(rhs_fail, red.i[1], op_min{});
        if (rhs_fail != INT_MAX || !pcr_accept(res, tnorm, ymax, zmax, n)) {
            // (uniform: every thread has the same reductions) everyone has
            // read y before the reductions' barriers
            for (int i = t; i < n; i += nt) {
                gtsv_row(D, E, i, n, PA, PB, PC);
                PF[i] = z[i];
            }
            __syncthreads(); // the rows are complete
            if (t == 0)
                red.verdict = bsym::gtsv_pivoted(PA, PB, PC, PF, n);
            __syncthreads(); // y is in PF, the verdict visible
            rhs_fail = red.verdict > 0 ? red.verdict - 1 : INT_MAX;
        }
        for (int i = t; i < n; i += nt)
            z[i] = PF[i];
        fail_row = min(fail_row, rhs_fail);
        __syncthreads(); // everyone has read PF (and the verdict) before the next right-hand side
    }
    return fail_row;
}

} // namespace bsym_hh

#endif
