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

// PCR with one row per lane, inside one warp. Row i of the system sits in
// lane `lane` and rows i +- s in lanes lane +- s (the system occupies
// consecutive lanes; several systems may share a warp). Every lane of the warp
// must call this together (inactive lanes pass i = 0, n = 1, any row). Returns
// x_i; sets *fail when this row's pivot broke down. n must be the same in
// every lane (so that all lanes run the same steps).
template <typename T>
__device__ __forceinline__ T pcr_lanes(pcr_row<T> r, T f, int i, int n, bool *fail)
{
    for (int s = 1; s < n; s <<= 1) {
        // each lane shares the reciprocal of its own pivot, so that a row
        // needs no division for its two neighbours
        const T inv = T(1) / r.b;
        *fail |= !finite(inv) || r.b == T(0);
        const T ua = __shfl_up_sync(FULL_MASK, r.a, s), uc = __shfl_up_sync(FULL_MASK, r.c, s);
        const T uf = __shfl_up_sync(FULL_MASK, f, s), ui = __shfl_up_sync(FULL_MASK, inv, s);
        const T da = __shfl_down_sync(FULL_MASK, r.a, s), dc = __shfl_down_sync(FULL_MASK, r.c, s);
        const T df = __shfl_down_sync(FULL_MASK, f, s), di = __shfl_down_sync(FULL_MASK, inv, s);
        // a row beyond the system is the identity: its multiplier is 0
        const T k1 = i - s >= 0 ? r.a * ui : T(0);
        const T k2 = i + s < n ? r.c * di : T(0);
        r.b = r.b - uc * k1 - da * k2;
        f = f - uf * k1 - df * k2;
        r.a = i - s >= 0 ? -ua * k1 : T(0);
        r.c = i + s < n ? -dc * k2 : T(0);
    }
    const T x = f / r.b;
    *fail |= !finite(x);
    return x;
}

// PCR on `rows` rows held in shared memory (a, b, c, f), by `nthreads`
// threads (thread t owns rows t and t + nthreads, so rows <= 2 * nthreads).
// Updates in place: every step reads the neighbours into registers, waits at
// `sync` (all threads of the group), writes, and waits again. On return f
// holds x (after a final sync). Sets *fail_row to the smallest failed row
// index this thread met, or leaves it. Every thread of the group must call it.
template <typename T, typename Sync>
__device__ void pcr_shared(T *a, T *b, T *c, T *f, int rows, int t, int nthreads, int *fail_row,
                           Sync sync)
{
    for (int s = 1; s < rows; s <<= 1) {
        T na[2], nb[2], nc[2], nf[2];
#pragma unroll
        for (int k = 0; k < 2; k++) {
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
        for (int k = 0; k < 2; k++) {
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
    for (int k = 0; k < 2; k++) {
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

} // namespace bsym

#endif
