// team.cuh -- what the GPU's complex-capable kernels share (indef.cu's
// Bunch-Kaufman, Aasen and LDL^H; hetrd.cu's Hermitian tridiagonalization):
// element arithmetic written once for float, double and cx<R> (common.cuh),
// the packed lower triangle, warp reductions, and the teams of threads
// (a warp or a block) that solve one system together. Included inside an
// anonymous namespace of its includer: every name here is file-local.
#ifndef BSYM_TEAM_CUH
#define BSYM_TEAM_CUH
constexpr unsigned ALL_LANES = 0xffffffffu; // a whole warp's shuffles

// ---- element types: float, double, and cx<R> (common.cuh) ----
using bsym_cuda::cx;
template <typename T> struct part_of {
    typedef T type;
};
template <typename R> struct part_of<cx<R>> {
    typedef R type;
};


// Where a system's matrix lives: its lower triangle packed by columns,
// entry (i, c), i >= c, at col(c) + i, col(c) = c (2n - 1 - c) / 2 (the
// columns before c hold n + (n - 1) + ... + (n - c + 1) entries, less the
// c rows above the diagonal that column c does not store; c (2n - 1 - c) is
// even). Column c is consecutive (a warp's rows, no bank conflicts); a
// row's entries lie at strides n - 1 - c that fall by one a column, which
// spread over the banks too. Loops over columns step col() by next():
// col(c + 1) = col(c) + n - 1 - c (col's product is a chain of integer
// latencies that an inner loop cannot afford: the warp kernel at n = 32
// lost 11 % with it).
struct lower_packed {
    int n;
    __host__ __device__ __forceinline__ int col(int c) const { return (c * (2 * n - 1 - c)) >> 1; }
    __device__ __forceinline__ int next(int c) const { return n - 1 - c; }
    __device__ __forceinline__ int operator()(int i, int c) const { return col(c) + i; }
};
__host__ __device__ constexpr size_t packed_elems(int n) { return size_t(n) * size_t(n + 1) / 2; }

template <typename R> __device__ __forceinline__ cx<R> operator+(cx<R> a, cx<R> b) { return {a.re + b.re, a.im + b.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a, cx<R> b) { return {a.re - b.re, a.im - b.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator*(cx<R> a, cx<R> b)
{
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a) { return {-a.re, -a.im}; }
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
// a / b: plain for real T; for complex T through conj(b) / |b| (no
// product overflows where the quotient does not, as the CPU's C99 division).
__device__ __forceinline__ float quot(float a, float b) { return a / b; }
__device__ __forceinline__ double quot(double a, double b) { return a / b; }
template <typename R> __device__ __forceinline__ cx<R> quot(cx<R> a, cx<R> b)
{
    const R m = modulus(b);
    const cx<R> x = a * cx<R>{b.re / m, -b.im / m};
    return {x.re / m, x.im / m};
}
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

// The threads that solve one system together, a team: a warp (n <= 64,
// several systems a block: warp_team) or a whole block (64 < n <= 256:
// block_team). The device functions below take one as tm: t, the member's
// index (it owns rows t, t + stride(), ...), sync(), the team's barrier,
// and reductions whose result every member gets, the same bits for all
// (so that the members' branches on it agree).
struct warp_team {
    int t; // the lane
    __device__ __forceinline__ int stride() const { return 32; }
    __device__ __forceinline__ bool first() const { return t == 0; }
    __device__ __forceinline__ void sync() const { __syncwarp(); }
    // before reading what other members wrote before a reduction: the
    // shuffles order no memory, so a warp barrier (block_team: nothing, its
    // reductions have barriers)
    __device__ __forceinline__ void after_reduce() const { __syncwarp(); }
    template <typename T> __device__ __forceinline__ T sum(T v) const { return warp_sum(v); }
    template <typename R> __device__ __forceinline__ R max(R v) const { return warp_max(v); }
    template <typename R> __device__ __forceinline__ void argmax(R &v, int &idx) const { warp_argmax(v, idx); }
    __device__ __forceinline__ bool any(bool p) const { return __any_sync(ALL_LANES, p); }
    __device__ __forceinline__ int from_first(int v) const { return __shfl_sync(ALL_LANES, v, 0); }
};
// A block of 32 nw threads (nw <= BLOCK_TEAM_WARPS): the reductions go
// through the warps' shuffles, then a word a warp in scratch (shared,
// BLOCK_TEAM_SCRATCH bytes), which every thread folds in warp order; a
// barrier before and after (scratch is free again when one returns).
constexpr int BLOCK_TEAM_WARPS = 8;
constexpr int BLOCK_TEAM_SCRATCH = BLOCK_TEAM_WARPS * (16 + 4);
struct block_team {
    int t, nw;            // the thread, the warps
    unsigned char *scratch;
    __device__ __forceinline__ int stride() const { return 32 * nw; }
    __device__ __forceinline__ bool first() const { return t == 0; }
    __device__ __forceinline__ void sync() const { __syncthreads(); }
    __device__ __forceinline__ void after_reduce() const {} // (fold's barriers)
    // the warps' partials v folded across the block (bsym_cuda::block_combine);
    // the barrier after it frees the scratch for the next call.
    template <typename T, typename F> __device__ __forceinline__ T fold(T v, F op) const
    {
        const T r = bsym_cuda::block_combine(v, reinterpret_cast<T *>(scratch), op);
        __syncthreads();
        return r;
    }
    template <typename T> __device__ __forceinline__ T sum(T v) const
    {
        return fold(warp_sum(v), [](T a, T b) { return a + b; });
    }
    template <typename R> __device__ __forceinline__ R max(R v) const
    {
        return fold(warp_max(v), [](R a, R b) { return a > b ? a : b; });
    }
    // (the same tie rule as warp_argmax: the smallest index among equals)
    template <typename R> __device__ __forceinline__ void argmax(R &v, int &idx) const
    {
        warp_argmax(v, idx);
        R *sv = reinterpret_cast<R *>(scratch);
        int *si = reinterpret_cast<int *>(scratch + BLOCK_TEAM_WARPS * 16);
        if ((t & 31) == 0) {
            sv[t >> 5] = v;
            si[t >> 5] = idx;
        }
        __syncthreads();
        v = sv[0];
        idx = si[0];
        for (int w = 1; w < nw; w++)
            if (sv[w] > v || (sv[w] == v && si[w] < idx)) {
                v = sv[w];
                idx = si[w];
            }
        __syncthreads();
    }
    __device__ __forceinline__ bool any(bool p) const { return __syncthreads_or(p) != 0; }
    __device__ __forceinline__ int from_first(int v) const
    {
        int *s = reinterpret_cast<int *>(scratch);
        if (t == 0)
            s[0] = v;
        __syncthreads();
        v = s[0];
        __syncthreads();
        return v;
    }
};

#endif // BSYM_TEAM_CUH
