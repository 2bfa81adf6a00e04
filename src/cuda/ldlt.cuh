// ldlt.cuh -- what the two GPU LDL^T solves share: ldlt.cu (n <= 64, a
// system's rows in the registers of a group of threads) and ldlt_block.cu
// (64 < n <= 256, one thread block a system, the matrix in shared memory):
// the precision's facts, 16-byte vectors of T, the group reduction of max|a|
// and the non-finite flag, and the block kernel's launches, which ldlt.cu's
// table of variants binds beside its own.
#ifndef BSYM_LDLT_CUH
#define BSYM_LDLT_CUH

#include <cfloat>

#include "common.cuh"

namespace bsym_ldlt {

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

// The inverse of unpack: VW<T> elements as one 16-byte vector.
__device__ __forceinline__ float4 pack(const float *w) { return make_float4(w[0], w[1], w[2], w[3]); }
__device__ __forceinline__ double2 pack(const double *w) { return make_double2(w[0], w[1]); }

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

// The certificate's verdict on system sys (common.cuh, ldlt_cert), by one
// thread: code its info (-1 non-finite input, > 0 a breakdown), ok whether
// every other test passed, cheap whether the cheap form was among them.
// Certified: rank n, used LDLT, counted in the caller's certified (and
// cheaply); non-finite input: rank -1, used LDLT; else listed in idx.
__device__ __forceinline__ void cert_verdict(const bsym_cuda::ldlt_cert &cert, long long sys, int n, int code, bool ok,
                                             bool cheap, unsigned long long &certified, unsigned long long &cheaply)
{
    if (code == -1) {
        cert.rank[sys] = -1;
        cert.used[sys] = BSYM_METHOD_LDLT;
    } else if (code == 0 && ok) {
        cert.rank[sys] = n;
        cert.used[sys] = BSYM_METHOD_LDLT;
        certified++;
        cheaply += cheap;
    } else {
        cert.idx[atomicAdd(cert.counter, 1)] = int(sys);
    }
}

// A kernel's counts of certified systems into the call's totals (once a
// thread that holds them, at the end).
__device__ __forceinline__ void cert_totals(const bsym_cuda::ldlt_cert &cert, unsigned long long certified,
                                            unsigned long long cheaply)
{
    if (certified > 0) {
        atomicAdd(cert.solved, certified);
        if (cert.cheap != nullptr && cheaply > 0)
            atomicAdd(cert.cheap, cheaply);
    }
}

} // namespace bsym_ldlt

namespace bsym_cuda {

// ldlt_block.cu: the block kernel of NT threads a system, for 1 <= n <=
// ldlt_block_max_n(NT) (NT = 96, 128, 160, 192 or 256 threads: n <= NT), with
// ldlt_launch's arguments and semantics (cert null), or ldlt_cert_launch's
// (cert not null: the certifying kernel, common.cuh's ldlt_cert).
__host__ __device__ constexpr int ldlt_block_max_n(int NT) { return NT; }
template <typename T, int NT>
bsym_status ldlt_block_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info,
                              const ldlt_cert *cert, cudaStream_t s, char *msg, size_t msglen);
// Systems of n resident on one multiprocessor (-1 on error), plain or
// certifying kernel.
template <typename T, int NT, bool CERT> int ldlt_block_systems_per_sm(int n);

} // namespace bsym_cuda

#endif // BSYM_LDLT_CUH
