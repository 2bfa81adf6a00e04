// pcr.cuh -- parallel cyclic reduction (PCR) device functions shared by the
// tridiagonal solve kernels (pcr.cu) and the Householder solve (householder.cu).
//
// PCR works for any n, with no padding to a power of two: a neighbour row
// outside [0, n) acts as the identity row (a = 0, b = 1, c = 0, f = 0). Row i
// of a tridiagonal system reads a_i x_{i-s} + b_i x_i + c_i x_{i+s} = f_i at
// stride s; one step eliminates x_{i-s} and x_{i+s} with rows i-s and i+s,
// doubling s, until s >= n and x_i = f_i / b_i. A pivot (a neighbour's b) that
// is zero or not finite, or a non-finite x_i, marks the row as failed.
#ifndef BSYM_PCR_CUH
#define BSYM_PCR_CUH

#include <cuda_runtime.h>

namespace bsym {

constexpr unsigned FULL_MASK = 0xffffffffu;

// 1 when v is neither infinite nor NaN (cheap: v - v is 0 only then).
template <typename T> __device__ __forceinline__ bool finite(T v)
{
    return v - v == T(0);
}

// Barriers for pcr_shared: the whole block, or the lanes of one warp.
struct block_sync {
    __device__ void operator()() const { __syncthreads(); }
};
struct warp_sync {
    __device__ void operator()() const { __syncwarp(); }
};

// The coefficients of one row in the state of a PCR step.
template <typename T> struct pcr_row {
    T a, b, c;
};

// 1 / v without the slow path of IEEE division: in float the hardware's
// approximation (one instruction, within 1 ulp, subnormals kept), in double
// correctly rounded. (On the H200 the correctly rounded __frcp_rn ran PCR a
// little faster at n = 32, 2.39e9 against 2.26e9 systems/s; not yet applied:
// see inst/bench/RESULTS.md.)
__device__ __forceinline__ float recip(float v)
{
    float r;
    asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}
__device__ __forceinline__ double recip(double v) { return __drcp_rn(v); }

// PCR with one row per lane, inside one warp, for K independent systems at
// once (their steps interleave, which hides the latency of the shuffles).
// Row i of system k sits in lane `lane` and rows i +- s in lanes lane +- s
// (a system occupies consecutive lanes; several systems may share a warp).
// Every lane of the warp must call this together with the same n, so that
// all lanes run the same steps (idle lanes pass any row with i = 0).
// Returns x_i in f[k]; sets fail[k] when this row's pivot broke down.
template <typename T, int K>
__device__ __forceinline__ void pcr_lanes(pcr_row<T> (&r)[K], T (&f)[K], int i, int n, bool (&fail)[K])
{
    for (int s = 1; s < n; s <<= 1) {
        const bool up = i - s >= 0, down = i + s < n;
#pragma unroll
        for (int k = 0; k < K; k++) {
            // each lane shares its row divided by its pivot (a/b, c/b, f/b):
            // row i then eliminates x_{i-s} with multiplier a_i and x_{i+s}
            // with c_i, and needs no division (1/0 = inf fails too)
            const T inv = recip(r[k].b);
            fail[k] |= !finite(inv);
            const T na = r[k].a * inv, nc = r[k].c * inv, nf = f[k] * inv;
            T ua = __shfl_up_sync(FULL_MASK, na, s), uc = __shfl_up_sync(FULL_MASK, nc, s);
            T uf = __shfl_up_sync(FULL_MASK, nf, s);
            T da = __shfl_down_sync(FULL_MASK, na, s), dc = __shfl_down_sync(FULL_MASK, nc, s);
            T df = __shfl_down_sync(FULL_MASK, nf, s);
            // a row beyond the system (maybe another system's lane, maybe not
            // finite) is the identity: it contributes exact zeros
            if (!up)
                ua = uc = uf = T(0);
            if (!down)
                da = dc = df = T(0);
            r[k].b = r[k].b - uc * r[k].a - da * r[k].c;
            f[k] = f[k] - uf * r[k].a - df * r[k].c;
            r[k].a = -ua * r[k].a;
            r[k].c = -dc * r[k].c;
        }
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        f[k] = f[k] / r[k].b;
        fail[k] |= !finite(f[k]);
    }
}

// The same for one system: returns x_i, sets *fail.
template <typename T>
__device__ __forceinline__ T pcr_lanes(pcr_row<T> r, T f, int i, int n, bool *fail)
{
    pcr_row<T> rr[1] = {r};
    T ff[1] = {f};
    bool fl[1] = {false};
    pcr_lanes<T, 1>(rr, ff, i, n, fl);
    *fail |= fl[0];
    return ff[0];
}

// PCR through warp shuffles, one row per lane, for one matrix with R
// right-hand sides (f[0..R)); otherwise as pcr_lanes: row i of a system of
// n rows in lane `lane`, rows outside [0, n) the identity, every lane of the
// warp calling with the same n. Returns the R solutions in f; sets *fail when
// this row's pivot broke down or a solution is not finite.
template <typename T, int R>
__device__ __forceinline__ void pcr_lanes_rhs(pcr_row<T> &r, T (&f)[R], int i, int n, bool *fail)
{
    for (int s = 1; s < n; s <<= 1) {
        const bool up = i - s >= 0, down = i + s < n;
        const T inv = recip(r.b);
        *fail |= !finite(inv);
        const T na = r.a * inv, nc = r.c * inv;
        T ua = __shfl_up_sync(FULL_MASK, na, s), uc = __shfl_up_sync(FULL_MASK, nc, s);
        T da = __shfl_down_sync(FULL_MASK, na, s), dc = __shfl_down_sync(FULL_MASK, nc, s);
        if (!up)
            ua = uc = T(0);
        if (!down)
            da = dc = T(0);
#pragma unroll
        for (int k = 0; k < R; k++) {
            const T nf = f[k] * inv;
            T uf = __shfl_up_sync(FULL_MASK, nf, s), df = __shfl_down_sync(FULL_MASK, nf, s);
            if (!up)
                uf = T(0);
            if (!down)
                df = T(0);
            f[k] = f[k] - uf * r.a - df * r.c;
        }
        r.b = r.b - uc * r.a - da * r.c;
        r.a = -ua * r.a;
        r.c = -dc * r.c;
    }
#pragma unroll
    for (int k = 0; k < R; k++) {
        f[k] = f[k] / r.b;
        *fail |= !finite(f[k]);
    }
}

// PCR on `rows` rows held in shared memory (a, b, c, f), by `nthreads`
// threads (thread t owns rows t, t + nthreads, ..., t + (K - 1) nthreads,
// so rows <= K * nthreads).
// Updates in place: every step reads the neighbours into registers, waits at
// `sync` (all threads of the group), writes, and waits again. On return f
// holds x (after a final sync). Sets *fail_row to the smallest failed row
// index this thread met, or leaves it. Every thread of the group must call it.
template <int K = 2, typename T, typename Sync>
__device__ void pcr_shared(T *a, T *b, T *c, T *f, int rows, int t, int nthreads, int *fail_row,
                           Sync sync)
{
    for (int s = 1; s < rows; s <<= 1) {
        T na[K], nb[K], nc[K], nf[K];
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int i = t + k * nthreads;
            if (i >= rows)
                continue;
            T k1 = T(0), k2 = T(0);
            na[k] = nc[k] = T(0);
            nb[k] = b[i];
            nf[k] = f[i];
            if (i - s >= 0) {
                const T p = b[i - s];
                if (p == T(0) || !finite(p))
                    *fail_row = min(*fail_row, i - s);
                k1 = a[i] / p;
                na[k] = -a[i - s] * k1;
                nb[k] -= c[i - s] * k1;
                nf[k] -= f[i - s] * k1;
            }
            if (i + s < rows) {
                const T p = b[i + s];
                if (p == T(0) || !finite(p))
                    *fail_row = min(*fail_row, i + s);
                k2 = c[i] / p;
                nc[k] = -c[i + s] * k2;
                nb[k] -= a[i + s] * k2;
                nf[k] -= f[i + s] * k2;
            }
        }
        sync(); // every thread has read the step's old values
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int i = t + k * nthreads;
            if (i < rows) {
                a[i] = na[k];
                b[i] = nb[k];
                c[i] = nc[k];
                f[i] = nf[k];
            }
        }
        sync(); // the new values are visible before the next step reads them
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        const int i = t + k * nthreads;
        if (i < rows) {
            const T x = f[i] / b[i];
            if (!finite(x))
                *fail_row = min(*fail_row, i);
            f[i] = x;
        }
    }
    sync(); // x is visible to every thread of the group
}

// Machine epsilon of T.
template <typename T> __device__ __forceinline__ T eps();
template <> __device__ __forceinline__ float eps<float>() { return 1.1920929e-7f; }
template <> __device__ __forceinline__ double eps<double>() { return 2.220446049250313e-16; }

// Gaussian elimination with partial pivoting on one tridiagonal system, by
// one thread (LAPACK's gtsv scheme): dl (sub-diagonal, rows 1..n-1 at
// dl[0..n-2]), d, du (super-diagonal) and b are overwritten; b gets x.
// dl holds the second super-diagonal of U after the elimination. Returns 0,
// or the 1-based row of a zero pivot (b is then unspecified).
template <typename T> __device__ int gtsv_pivoted(T *dl, T *d, T *du, T *b, int n)
{
    for (int i = 0; i + 1 < n; i++) {
        if (abs(d[i]) >= abs(dl[i])) {
            // no interchange: eliminate dl[i] with row i
            if (d[i] == T(0))
                return i + 1;
            const T fact = dl[i] / d[i];
            d[i + 1] -= fact * du[i];
            b[i + 1] -= fact * b[i];
            dl[i] = T(0);
        } else {
            // interchange rows i and i+1, then eliminate
            const T fact = d[i] / dl[i];
            d[i] = dl[i];
            const T t = d[i + 1];
            d[i + 1] = du[i] - fact * t;
            if (i + 2 < n) {
                dl[i] = du[i + 1];
                du[i + 1] = -fact * dl[i];
            }
            du[i] = t;
            const T bi = b[i];
            b[i] = b[i + 1];
            b[i + 1] = bi - fact * b[i + 1];
        }
    }
    if (d[n - 1] == T(0))
        return n;
    // back substitution with U (diagonal d, super-diagonals du and dl)
    b[n - 1] /= d[n - 1];
    if (n > 1)
        b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2];
    for (int i = n - 3; i >= 0; i--)
        b[i] = (b[i] - du[i] * b[i + 1] - dl[i] * b[i + 2]) / d[i];
    return 0;
}

} // namespace bsym

#endif
