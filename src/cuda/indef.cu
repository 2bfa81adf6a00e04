// indef.cu -- the GPU's solves of symmetric indefinite and complex Hermitian
// systems, n <= BSYM_GPU_INDEF_MAX_N (64), a warp per system:
//   Bunch-Kaufman  P A P^T = L D L^H, D with 1x1 and 2x2 blocks, LAPACK's
//                  pivot rule (core/bk_rule.h, shared with the CPU); real
//                  and complex (BSYM__OP_BK);
//   LDL^H          without pivoting, D real, complex only (BSYM__OP_LDLT's
//                  complex columns; the real LDL^T is ldlt.cu's).
// The same factorizations, breakdown rules and info codes as the CPU's
// (core/indef_impl.h): info -1 for a non-finite entry of the referenced
// triangle (the diagonal's real part) or of B, j > 0 for Bunch-Kaufman's
// exactly zero column j (A singular) and for LDL^H's first pivot with
// |d_j| <= n eps max|a_ij| or not finite; NaN solutions there.
//
// Layout: the warp keeps its system's whole Hermitian matrix in shared
// memory, both triangles, column-major with an odd leading dimension (so
// that a row, read across lanes, has no bank conflicts); lane l owns rows
// l and l + 32. A step of the factorization updates the full trailing
// matrix, each lane its own rows: a lane-per-row layout would leave the
// lanes above the diagonal idle if only one triangle were kept, so the
// second costs no time and makes the symmetric interchanges plain row and
// column swaps. The pivot searches are warp reductions.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#include "common.cuh"
#include "../core/bk_rule.h"

namespace {

constexpr unsigned ALL_LANES = 0xffffffffu; // a whole warp's shuffles

// ---- element types: float, double, and cx<R> (common.cuh) ----
using bsym_cuda::cx;
template <typename T> struct part_of {
    typedef T type;
};
template <typename R> struct part_of<cx<R>> {
    typedef R type;
};

template <typename R> __device__ __forceinline__ cx<R> operator+(cx<R> a, cx<R> b) { return {a.re + b.re, a.im + b.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a, cx<R> b) { return {a.re - b.re, a.im - b.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator*(cx<R> a, cx<R> b)
{
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename R> __device__ __forceinline__ cx<R> operator*(R a, cx<R> b) { return {a * b.re, a * b.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator*(cx<R> b, R a) { return {a * b.re, a * b.im}; }

__device__ __forceinline__ float re(float x) { return x; }
__device__ __forceinline__ double re(double x) { return x; }
template <typename R> __device__ __forceinline__ R re(cx<R> z) { return z.re; }
__device__ __forceinline__ float conj(float x) { return x; }
__device__ __forceinline__ double conj(double x) { return x; }
template <typename R> __device__ __forceinline__ cx<R> conj(cx<R> z) { return {z.re, -z.im}; }
// T with real part r and no imaginary part.
template <typename T> __device__ __forceinline__ T real_t(typename part_of<T>::type r);
template <> __device__ __forceinline__ float real_t<float>(float r) { return r; }
template <> __device__ __forceinline__ double real_t<double>(double r) { return r; }
template <> __device__ __forceinline__ cx<float> real_t<cx<float>>(float r) { return {r, 0.0f}; }
template <> __device__ __forceinline__ cx<double> real_t<cx<double>>(double r) { return {r, 0.0}; }
// LAPACK's cabs1 (|re| + |im|), the pivot searches' magnitude.
__device__ __forceinline__ float abs1(float x) { return fabsf(x); }
__device__ __forceinline__ double abs1(double x) { return fabs(x); }
template <typename R> __device__ __forceinline__ R abs1(cx<R> z) { return abs(z.re) + abs(z.im); }
// The modulus (LDL^H's tolerance, the 2x2 pivot's scaling).
__device__ __forceinline__ float modulus(float x) { return fabsf(x); }
__device__ __forceinline__ double modulus(double x) { return fabs(x); }
template <typename R> __device__ __forceinline__ R modulus(cx<R> z) { return hypot(z.re, z.im); }
__device__ __forceinline__ bool finite_t(float x) { return isfinite(x); }
__device__ __forceinline__ bool finite_t(double x) { return isfinite(x); }
template <typename R> __device__ __forceinline__ bool finite_t(cx<R> z) { return isfinite(z.re) && isfinite(z.im); }
template <typename T> __device__ __forceinline__ T nan_t() { return real_t<T>(NAN); }
template <> __device__ __forceinline__ cx<float> nan_t<cx<float>>() { return {NAN, NAN}; }
template <> __device__ __forceinline__ cx<double> nan_t<cx<double>>() { return {NAN, NAN}; }

__device__ __forceinline__ float shfl_xor(float v, int m) { return __shfl_xor_sync(ALL_LANES, v, m); }
__device__ __forceinline__ double shfl_xor(double v, int m) { return __shfl_xor_sync(ALL_LANES, v, m); }
template <typename R> __device__ __forceinline__ cx<R> shfl_xor(cx<R> v, int m) { return {shfl_xor(v.re, m), shfl_xor(v.im, m)}; }
template <typename T> __device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v = v + shfl_xor(v, m);
    return v;
}
template <typename R> __device__ __forceinline__ R warp_max(R v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v = max(v, shfl_xor(v, m));
    return v;
}
// The largest v over the warp and its index (the smallest index among
// equal values, as the CPU's first strictly larger entry).
template <typename R> __device__ __forceinline__ void warp_argmax(R &v, int &idx)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) {
        const R ov = shfl_xor(v, m);
        const int oi = __shfl_xor_sync(ALL_LANES, idx, m);
        if (ov > v || (ov == v && oi < idx)) {
            v = ov;
            idx = oi;
        }
    }
}

template <typename T> __device__ __forceinline__ void swap_t(T &a, T &b)
{
    const T t = a;
    a = b;
    b = t;
}

// The shared pivot rule in the precision of R.
__device__ __forceinline__ int bk_row(float a, float c) { return bsym__bk_row_s(a, c); }
__device__ __forceinline__ int bk_row(double a, double c) { return bsym__bk_row_d(a, c); }
__device__ __forceinline__ int bk_pick(float a, float c, float r, float ai, int k, int imax, int *kp)
{
    int64_t p;
    const int step = bsym__bk_pick_s(a, c, r, ai, k, imax, &p);
    *kp = int(p);
    return step;
}
__device__ __forceinline__ int bk_pick(double a, double c, double r, double ai, int k, int imax, int *kp)
{
    int64_t p;
    const int step = bsym__bk_pick_d(a, c, r, ai, k, imax, &p);
    *kp = int(p);
    return step;
}

// The 2x2 pivot D = [a conj(e); e c] (a, c real) through r = 1/e and
// s = 1 / (a c / |e|^2 - 1), scaled by the off-diagonal (the CPU's
// ix_pivot2_):
//   D z = w:        z1 = (c conj(r) w1 - w2) r s,  z2 = (a r w2 - w1) conj(r) s;
//   y D = x (rows): y1 = (c r x1 - x2) conj(r) s,  y2 = (a conj(r) x2 - x1) r s.
template <typename T, typename R>
__device__ __forceinline__ void pivot2(R a, R c, T e, T &r, R &s)
{
    const R ae = modulus(e);
    r = conj(e) * (R(1) / ae / ae);
    s = R(1) / ((a / ae) * (c / ae) - R(1));
}

// One launch's arguments: systems' A (n x n, only the uplo triangle read),
// B (n x nrhs, overwritten by the solutions) and info.
template <typename T> struct indef_args {
    const T *A;
    T *B;
    int *info;
    int n, nrhs, ld;   // ld: the shared matrix's leading dimension (odd)
    size_t per_warp;   // T elements of a warp's shared arrays (matrix + y)
    bool lower;
};

// A warp per system; RPL = rows a lane (1: n <= 32, 2: n <= 64); PIVOT:
// Bunch-Kaufman, else LDL^H without pivoting.
template <typename T, int RPL, bool PIVOT>
__global__ void __launch_bounds__(128) indef_kernel(indef_args<T> g, long long count)
{
    typedef typename part_of<T>::type R;
    extern __shared__ unsigned char smem_raw[];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, W = blockDim.x >> 5;
    const long long k = (long long)blockIdx.x * W + w;
    if (k >= count)
        return; // a whole warp: it shares no barrier with the others
    const int n = g.n, ld = g.ld;
    T *M = reinterpret_cast<T *>(smem_raw) + size_t(w) * g.per_warp; // M[c * ld + i] = A(i, c)
    T *y = M + size_t(n) * ld;                                       // one right-hand side
    int *piv = reinterpret_cast<int *>(reinterpret_cast<T *>(smem_raw) + size_t(W) * g.per_warp) + w * n;
#define ROWS(i) \
    _Pragma("unroll") for (int r_ = 0, i = lane; r_ < RPL; r_++, i += 32)
    const T *__restrict__ A = g.A + k * n * n;
    T *B = g.B + k * n * g.nrhs;

    // Load the referenced triangle into both triangles of M (the diagonal's
    // imaginary part dropped): the system's n^2 entries read by the whole
    // warp in order (coalesced), LOADS a lane in flight before they are
    // stored (the loads do not wait on the stores before them).
    bool fin = true;
    R amax = R(0);
    constexpr int LOADS = 8;
    const int nn = n * n;
    for (int e0 = 0; e0 < nn; e0 += 32 * LOADS) {
        T v[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int e = e0 + 32 * u + lane;
            v[u] = e < nn ? A[e] : real_t<T>(0);
        }
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int e = e0 + 32 * u + lane, c = e / n, i = e - c * n;
            if (e < nn && (g.lower ? i >= c : i <= c)) {
                const T a = i == c ? real_t<T>(re(v[u])) : v[u];
                fin = fin && finite_t(a);
                amax = max(amax, modulus(a));
                M[c * ld + i] = a;
                M[i * ld + c] = conj(a);
            }
        }
    }
    for (int e = lane; e < n * g.nrhs; e += 32)
        fin = fin && finite_t(B[e]);
    int info = __any_sync(ALL_LANES, !fin) ? -1 : 0;
    __syncwarp();

    // One 1x1 pivot at column c0 (after its interchange): L's column c0 and
    // the trailing update W(i, c) -= x_i conj(x_c) / d, x = column c0.
    auto step1 = [&](int c0) {
        const R rinv = R(1) / re(M[c0 * ld + c0]);
        T x[RPL];
        ROWS(i) x[r_] = i > c0 && i < n ? M[c0 * ld + i] : real_t<T>(0);
#pragma unroll 4
        for (int c = c0 + 1; c < n; c++) {
            const T xc = conj(M[c0 * ld + c]) * rinv;
            ROWS(i) if (i > c0 && i < n) M[c * ld + i] = M[c * ld + i] - x[r_] * xc;
        }
        ROWS(i) if (i > c0 && i < n) M[i * ld + i] = real_t<T>(re(M[i * ld + i]));
        __syncwarp();
        ROWS(i) if (i > c0 && i < n) M[c0 * ld + i] = x[r_] * rinv;
        __syncwarp();
    };

    if (info == 0 && !PIVOT) { // LDL^H: the CPU's breakdown tolerance
        const R tol = R(n) * (sizeof(R) == 4 ? R(FLT_EPSILON) : R(DBL_EPSILON)) * warp_max(amax);
        for (int c0 = 0; c0 < n; c0++) {
            const R d = re(M[c0 * ld + c0]);
            if (!(abs(d) > tol) || !isfinite(d)) {
                info = c0 + 1;
                break;
            }
            if (lane == 0)
                piv[c0] = c0;
            step1(c0);
        }
    }
    for (int c0 = 0; info == 0 && PIVOT && c0 < n;) {
        // the pivot column's largest off-diagonal entry
        R colmax = R(0);
        int imax = c0;
        ROWS(i)
        {
            const R a = i > c0 && i < n ? abs1(M[c0 * ld + i]) : R(0);
            if (a > colmax) {
                colmax = a;
                imax = i;
            }
        }
        warp_argmax(colmax, imax);
        const R absakk = abs(re(M[c0 * ld + c0]));
        if (!(absakk > 0) && !(colmax > 0)) {
            info = c0 + 1; // column c0 exactly zero: A singular
            break;
        }
        int step = 1, kp = c0;
        if (bk_row(absakk, colmax)) { // row imax's largest off-diagonal entry
            R rowmax = R(0);
            ROWS(i) if (i >= c0 && i < n && i != imax) rowmax = max(rowmax, abs1(M[imax * ld + i]));
            rowmax = warp_max(rowmax);
            step = bk_pick(absakk, colmax, rowmax, abs(re(M[imax * ld + imax])), c0, imax, &kp);
        }
        const int kk = c0 + step - 1;
        if (kp != kk) { // rows kk and kp of columns c0.., then the columns
            ROWS(j) if (j >= c0 && j < n) swap_t(M[j * ld + kk], M[j * ld + kp]);
            __syncwarp();
            ROWS(i) if (i >= c0 && i < n) swap_t(M[kk * ld + i], M[kp * ld + i]);
            __syncwarp();
        }
        if (step == 1) {
            if (lane == 0)
                piv[c0] = kp;
            step1(c0);
            c0 += 1;
            continue;
        }
        // a 2x2 pivot: [L1 L2] = [x1 x2] D^-1 below it, then
        // W(i, c) -= L1_i conj(x1_c) + L2_i conj(x2_c)
        if (lane == 0)
            piv[c0] = piv[c0 + 1] = -(kp + 1);
        const R a = re(M[c0 * ld + c0]), c = re(M[(c0 + 1) * ld + c0 + 1]);
        T r;
        R s;
        pivot2(a, c, M[c0 * ld + c0 + 1], r, s);
        const T cr = c * r, ar = a * conj(r), rcs = conj(r) * s, rs = r * s;
        T l1[RPL], l2[RPL];
        ROWS(i)
        {
            l1[r_] = l2[r_] = real_t<T>(0);
            if (i > c0 + 1 && i < n) {
                const T x1 = M[c0 * ld + i], x2 = M[(c0 + 1) * ld + i];
                l1[r_] = (cr * x1 - x2) * rcs;
                l2[r_] = (ar * x2 - x1) * rs;
            }
        }
#pragma unroll 4
        for (int cl = c0 + 2; cl < n; cl++) {
            const T u1 = conj(M[c0 * ld + cl]), u2 = conj(M[(c0 + 1) * ld + cl]);
            ROWS(i) if (i > c0 + 1 && i < n) M[cl * ld + i] = M[cl * ld + i] - (l1[r_] * u1 + l2[r_] * u2);
        }
        ROWS(i) if (i > c0 + 1 && i < n) M[i * ld + i] = real_t<T>(re(M[i * ld + i]));
        __syncwarp();
        ROWS(i)
        if (i > c0 + 1 && i < n) {
            M[c0 * ld + i] = l1[r_];
            M[(c0 + 1) * ld + i] = l2[r_];
        }
        __syncwarp();
        c0 += 2;
    }

    if (info != 0) { // NaN solutions, the rest of the batch goes on
        for (int e = lane; e < n * g.nrhs; e += 32)
            B[e] = nan_t<T>();
        if (lane == 0)
            g.info[k] = info;
        return;
    }
    // The solves, one right-hand side at a time (the CPU's ix_bk_solve_;
    // LDL^H's pivots are piv[c] = c): L D y = P b with the interchanges in
    // between, then L^H x = y with them in reverse.
    for (int q = 0; q < g.nrhs; q++) {
        T *b = B + size_t(q) * n;
        ROWS(i) if (i < n) y[i] = b[i];
        __syncwarp();
        for (int c0 = 0; c0 < n;) {
            const int p = piv[c0];
            if (p >= 0) {
                if (lane == 0 && p != c0)
                    swap_t(y[c0], y[p]);
                __syncwarp();
                const T yk = y[c0];
                ROWS(i) if (i > c0 && i < n) y[i] = y[i] - M[c0 * ld + i] * yk;
                __syncwarp();
                if (lane == 0)
                    y[c0] = yk * (R(1) / re(M[c0 * ld + c0]));
                c0 += 1;
            } else {
                const int pp = -p - 1;
                if (lane == 0 && pp != c0 + 1)
                    swap_t(y[c0 + 1], y[pp]);
                __syncwarp();
                const T w1 = y[c0], w2 = y[c0 + 1];
                ROWS(i)
                if (i > c0 + 1 && i < n) y[i] = y[i] - (M[c0 * ld + i] * w1 + M[(c0 + 1) * ld + i] * w2);
                __syncwarp();
                if (lane == 0) {
                    const R a = re(M[c0 * ld + c0]), c = re(M[(c0 + 1) * ld + c0 + 1]);
                    T r;
                    R s;
                    pivot2(a, c, M[c0 * ld + c0 + 1], r, s);
                    y[c0] = (c * conj(r) * w1 - w2) * r * s;
                    y[c0 + 1] = (a * r * w2 - w1) * conj(r) * s;
                }
                c0 += 2;
            }
            __syncwarp();
        }
        for (int c0 = n - 1; c0 >= 0;) {
            // y[c0] -= sum_{i > c0} conj(L(i, c0)) y[i] (and y[c0 - 1] likewise for a 2x2 block)
            const int p = piv[c0];
            T s1 = real_t<T>(0), s2 = real_t<T>(0);
            ROWS(i)
            if (i > c0 && i < n) {
                s1 = s1 + conj(M[c0 * ld + i]) * y[i];
                if (p < 0)
                    s2 = s2 + conj(M[(c0 - 1) * ld + i]) * y[i];
            }
            s1 = warp_sum(s1);
            if (p < 0)
                s2 = warp_sum(s2);
            if (lane == 0) {
                y[c0] = y[c0] - s1;
                if (p < 0)
                    y[c0 - 1] = y[c0 - 1] - s2;
                const int pp = p >= 0 ? p : -p - 1;
                if (pp != c0)
                    swap_t(y[c0], y[pp]);
            }
            __syncwarp();
            c0 -= p >= 0 ? 1 : 2;
        }
        ROWS(i) if (i < n) b[i] = y[i];
        __syncwarp();
    }
    if (lane == 0)
        g.info[k] = 0;
#undef ROWS
}

// Systems (warps) a block: up to 4, fewer where a block's shared memory
// would pass 96 KB (n = 64 in complex double: one), so that a
// multiprocessor holds two blocks or more.
template <typename T> size_t warp_bytes(int n, int ld) { return (size_t(n) * ld + n) * sizeof(T) + n * sizeof(int); }
template <typename T> int warps_for(int n, int ld)
{
    return int(std::max<size_t>(1, std::min<size_t>(4, (size_t(96) << 10) / warp_bytes<T>(n, ld))));
}

template <typename T, int RPL, bool PIVOT>
bsym_status launch_kernel(const indef_args<T> &g, long long count, cudaStream_t s, char *msg, size_t msglen)
{
    const int W = warps_for<T>(g.n, g.ld);
    const size_t smem = size_t(W) * warp_bytes<T>(g.n, g.ld);
    BSYM_CUDA_TRY(cudaFuncSetAttribute(indef_kernel<T, RPL, PIVOT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(smem)));
    const long long most = 0x7fffffffLL * W;
    for (long long first = 0; first < count; first += most) {
        const long long c = std::min(most, count - first);
        indef_args<T> h = g;
        h.A += first * g.n * g.n;
        h.B += first * g.n * g.nrhs;
        h.info += first;
        indef_kernel<T, RPL, PIVOT><<<unsigned((c + W - 1) / W), 32 * W, smem, s>>>(h, c);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// Launches `method` (BUNCH_KAUFMAN; LDLT for complex T) on count systems.
template <typename T>
bsym_status launch(int method, char uplo, int n, int nrhs, long long count, const T *A, T *B, int *info,
                   cudaStream_t s, char *msg, size_t msglen)
{
    constexpr bool complex_t = !std::is_same<T, typename part_of<T>::type>::value;
    const bool pivot = method == BSYM_METHOD_BUNCH_KAUFMAN;
    if (!pivot && !(complex_t && method == BSYM_METHOD_LDLT)) {
        std::snprintf(msg, msglen, "the GPU's indefinite solver has no method %d for this type", method);
        return BSYM_ERR_ARG;
    }
    if (n < 1 || n > BSYM_GPU_INDEF_MAX_N || nrhs < 0) {
        std::snprintf(msg, msglen, "n = %d is outside the GPU indefinite solver's 1..%d", n, BSYM_GPU_INDEF_MAX_N);
        return BSYM_ERR_SIZE;
    }
    if (count == 0)
        return BSYM_OK;
    indef_args<T> g{A, B, info, n, nrhs, n | 1, 0, uplo != 'U'};
    g.per_warp = size_t(n) * g.ld + n;
    if (n <= 32)
        return pivot ? launch_kernel<T, 1, true>(g, count, s, msg, msglen)
                     : launch_kernel<T, 1, !complex_t>(g, count, s, msg, msglen);
    return pivot ? launch_kernel<T, 2, true>(g, count, s, msg, msglen)
                 : launch_kernel<T, 2, !complex_t>(g, count, s, msg, msglen);
}

// ---- the host entries (the backend table's rows): A, B and info chunk by
// chunk through the pipeline. A real A sends its referenced triangle (the
// pipeline expands it to a symmetric matrix); a complex A crosses whole
// (the expansion mirrors without conjugating; the kernel reads only the
// referenced triangle either way). ----
struct indef_call {
    int method;
    char uplo;
    int n, nrhs;
};

template <typename T>
bsym_status indef_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const indef_call *c = static_cast<const indef_call *>(arg);
    return launch<T>(c->method, c->uplo, c->n, c->nrhs, count, static_cast<const T *>(dev[0]),
                     static_cast<T *>(dev[1]), static_cast<int *>(dev[2]), s, msg, msglen);
}

// T and H as the pipeline sees them: complex elements as pairs of reals.
template <typename T> struct flat {
    typedef T type;
    static constexpr size_t parts = 1;
};
template <typename R> struct flat<cx<R>> {
    typedef R type;
    static constexpr size_t parts = 2;
};

template <typename T, typename H>
bsym_status indef_host(const bsym__exec *x, int method, const bsym__job *j)
{
    typedef typename flat<T>::type FT;
    typedef typename flat<H>::type FH;
    constexpr size_t parts = flat<T>::parts;
    const int64_t n = j->n;
    indef_call call{method, j->uplo, int(n), int(j->nrhs)};
    const FH *A = static_cast<const FH *>(j->A);
    FH *B = static_cast<FH *>(j->B);
    const bsym_array arrays[3] = {
        parts == 1 ? host_matrix<FT>(A, n, j->uplo) : host_data<FT>(A, static_cast<FH *>(nullptr), size_t(n * n) * parts),
        host_data<FT>(B, B, size_t(n * j->nrhs) * parts),
        {nullptr, j->info, sizeof(int)},
    };
    return bsym_pipeline(x, arrays, 3, j->batch, indef_chunk<T>, &call);
}

} // namespace

namespace bsym_cuda {

template <typename T, typename H> bsym_status bk_op(const bsym__exec *x, const bsym__job *j)
{
    return indef_host<T, H>(x, BSYM_METHOD_BUNCH_KAUFMAN, j);
}
template <typename T, typename H> bsym_status ldlh_op(const bsym__exec *x, const bsym__job *j)
{
    return indef_host<T, H>(x, BSYM_METHOD_LDLT, j);
}

// The device-resident launch (bsym_cuda.h); complex arrays as interleaved
// pairs of reals.
template <typename T>
bsym_status indef_launch(int method, char uplo, int n, int nrhs, int64_t batch, const void *A, void *B, int *info,
                         cudaStream_t s, char *msg, size_t msglen)
{
    return launch<T>(method, uplo, n, nrhs, batch, static_cast<const T *>(A), static_cast<T *>(B), info, s, msg,
                     msglen);
}

#define BSYM_INDEF_INSTANTIATE(T, H)                                                            \
    template bsym_status bk_op<T, H>(const bsym__exec *, const bsym__job *);                  \
    template bsym_status indef_launch<T>(int, char, int, int, int64_t, const void *, void *, int *, \
                                         cudaStream_t, char *, size_t);
BSYM_INDEF_INSTANTIATE(float, float)
BSYM_INDEF_INSTANTIATE(double, double)
BSYM_INDEF_INSTANTIATE(cx<float>, cx<float>)
BSYM_INDEF_INSTANTIATE(cx<double>, cx<double>)
template bsym_status bk_op<float, double>(const bsym__exec *, const bsym__job *);
template bsym_status bk_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<float>, cx<float>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<double>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status ldlh_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);

} // namespace bsym_cuda
