/*
 * cpu_simd.h -- what the CPU backend's SIMD code shares: forced inlining and
 * the run-time choice of instruction set on x86-64.
 *
 * The batch-interleaved kernels (ldlt_impl.h, eigen_lanes_impl.h) are
 * compiled once for the baseline ISA and again, through thin wrappers with
 * __attribute__((target(...))), for AVX2 + FMA and for AVX-512; the caller
 * picks one at run time with bsym__cpu_isa(). Their helpers are BSYM_INLINE
 * (forced inline) so that each copy takes the instruction set of its
 * wrapper. The library itself is never built with -march=native.
 */
#ifndef BSYM_CPU_SIMD_H
#define BSYM_CPU_SIMD_H

#define BSYM_INLINE __attribute__((always_inline)) inline

/* Instruction-set levels, in increasing order. */
#define BSYM_ISA_BASE 0   /* the compiler's baseline (SSE2 on x86-64)      */
#define BSYM_ISA_AVX2 1   /* AVX2 + FMA: 4 doubles (8 floats) per operation */
#define BSYM_ISA_AVX512 2 /* AVX-512 F/VL/DQ/BW: 8 doubles (16 floats)     */

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define BSYM_X86_DISPATCH 1
/* The target attributes of the two wrapped copies. */
#define BSYM_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define BSYM_TARGET_AVX512 \
    __attribute__((target("avx2,fma,avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")))

/* The best level this CPU runs. */
static inline int bsym__cpu_isa(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        return BSYM_ISA_BASE;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw"))
        return BSYM_ISA_AVX512;
    return BSYM_ISA_AVX2;
}
#else
static inline int bsym__cpu_isa(void)
{
    return BSYM_ISA_BASE;
}
#endif

/* Square roots of one 64-byte vector in memory (8 doubles or 16 floats),
 * in place, one copy per instruction set. A lane loop cannot call sqrt
 * itself: sqrt may set errno, which keeps GCC from vectorizing the loop, and
 * the library is not built with -fno-math-errno (R takes no -f flags). Code
 * compiled once per instruction set takes the matching copy as a constant
 * function pointer, which GCC then inlines. */
typedef void (*bsym__sqrt64_d)(double *x);
typedef void (*bsym__sqrt64_s)(float *x);
#ifdef BSYM_X86_DISPATCH
#include <immintrin.h>
static inline void bsym__sqrt64_base_d(double *x)
{
    for (int i = 0; i < 8; i += 2)
        _mm_storeu_pd(x + i, _mm_sqrt_pd(_mm_loadu_pd(x + i)));
}
static inline void bsym__sqrt64_base_s(float *x)
{
    for (int i = 0; i < 16; i += 4)
        _mm_storeu_ps(x + i, _mm_sqrt_ps(_mm_loadu_ps(x + i)));
}
BSYM_TARGET_AVX2 static inline void bsym__sqrt64_avx2_d(double *x)
{
    for (int i = 0; i < 8; i += 4)
        _mm256_storeu_pd(x + i, _mm256_sqrt_pd(_mm256_loadu_pd(x + i)));
}
BSYM_TARGET_AVX2 static inline void bsym__sqrt64_avx2_s(float *x)
{
    for (int i = 0; i < 16; i += 8)
        _mm256_storeu_ps(x + i, _mm256_sqrt_ps(_mm256_loadu_ps(x + i)));
}
BSYM_TARGET_AVX512 static inline void bsym__sqrt64_avx512_d(double *x)
{
    _mm512_storeu_pd(x, _mm512_sqrt_pd(_mm512_loadu_pd(x)));
}
BSYM_TARGET_AVX512 static inline void bsym__sqrt64_avx512_s(float *x)
{
    _mm512_storeu_ps(x, _mm512_sqrt_ps(_mm512_loadu_ps(x)));
}
#else
#include <math.h>
static inline void bsym__sqrt64_base_d(double *x)
{
    for (int i = 0; i < 8; i++)
        x[i] = sqrt(x[i]);
}
static inline void bsym__sqrt64_base_s(float *x)
{
    for (int i = 0; i < 16; i++)
        x[i] = sqrtf(x[i]);
}
#endif

/* Non-temporal stores of 8 elements (64 bytes of doubles, 32 of floats) to
 * dst, aligned to their size: results too large for the caches (the
 * eigenvectors of a batch) bypass them and their reads for ownership. One
 * copy per instruction set, taken as the square roots above. */
typedef void (*bsym__stream8_d)(double *dst, const double *src);
typedef void (*bsym__stream8_s)(float *dst, const float *src);
#ifdef BSYM_X86_DISPATCH
static inline void bsym__stream8_base_d(double *dst, const double *src)
{
    for (int i = 0; i < 8; i += 2)
        _mm_stream_pd(dst + i, _mm_loadu_pd(src + i));
}
static inline void bsym__stream8_base_s(float *dst, const float *src)
{
    for (int i = 0; i < 8; i += 4)
        _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
}
BSYM_TARGET_AVX2 static inline void bsym__stream8_avx2_d(double *dst, const double *src)
{
    for (int i = 0; i < 8; i += 4)
        _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
}
BSYM_TARGET_AVX2 static inline void bsym__stream8_avx2_s(float *dst, const float *src)
{
    _mm256_stream_ps(dst, _mm256_loadu_ps(src));
}
BSYM_TARGET_AVX512 static inline void bsym__stream8_avx512_d(double *dst, const double *src)
{
    _mm512_stream_pd(dst, _mm512_loadu_pd(src));
}
BSYM_TARGET_AVX512 static inline void bsym__stream8_avx512_s(float *dst, const float *src)
{
    _mm256_stream_ps(dst, _mm256_loadu_ps(src));
}
/* orders the non-temporal stores before what follows */
static inline void bsym__stream_fence(void)
{
    _mm_sfence();
}
#else
static inline void bsym__stream8_base_d(double *dst, const double *src)
{
    for (int i = 0; i < 8; i++)
        dst[i] = src[i];
}
static inline void bsym__stream8_base_s(float *dst, const float *src)
{
    for (int i = 0; i < 8; i++)
        dst[i] = src[i];
}
static inline void bsym__stream_fence(void)
{
}
#endif

/* 1 when the CPU has AVX2 and FMA (the LDL^T kernels' one wrapped copy). */
static inline int bsym__cpu_has_avx2_fma(void)
{
    return bsym__cpu_isa() >= BSYM_ISA_AVX2;
}

#endif
