// host_pack.h -- the host side of the GPU pipeline's staging (device.cu):
// the referenced triangle of each symmetric or Hermitian matrix packed by
// columns (and converted to the device's type) into pinned staging, other
// arrays converted element by element, through a thread's scratch in cache
// and non-temporal stores. Plain C++ with no CUDA, so that the C tests
// (tests/c/test_pack.cpp) run it on a machine without a GPU.
#ifndef BSYM_HOST_PACK_H
#define BSYM_HOST_PACK_H
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define BSYM_HAVE_STREAM 1
#endif

namespace bsym_host_pack {

// Elements of the triangle of an n x n matrix.
inline size_t tri_elems(int n) { return size_t(n) * size_t(n + 1) / 2; }

// memcpy whose stores bypass the caches (non-temporal): the staging and the
// caller's result arrays are written once and read by someone else (the
// DMA engine, the caller), so the usual read-for-ownership of each line
// would only add to the host-memory traffic that bounds the host path (on
// the H200 machine: 6.3e6 against 6.1e6 LDL^T solves/s, n = 32, and 3.8e6
// against 3.1e6 eigendecompositions/s, inst/bench/bench_host.c). The
// writer's sfence (stream_fence) orders them before the copy is issued.
inline void stream_copy(void *dst, const void *src, size_t bytes)
{
#ifdef BSYM_HAVE_STREAM
    if (bytes >= 256) {
        char *d = static_cast<char *>(dst);
        const char *s = static_cast<const char *>(src);
        const size_t head = (16 - (reinterpret_cast<uintptr_t>(d) & 15)) & 15;
        std::memcpy(d, s, head);
        d += head;
        s += head;
        bytes -= head;
        size_t i = 0;
        for (; i + 64 <= bytes; i += 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 32));
            const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 48));
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + i), a);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 48), e);
        }
        for (; i + 16 <= bytes; i += 16)
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + i),
                             _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i)));
        std::memcpy(d + i, s + i, bytes - i);
        return;
    }
#endif
    std::memcpy(dst, src, bytes);
}
inline void stream_fence()
{
#ifdef BSYM_HAVE_STREAM
    _mm_sfence();
#endif
}

// Bytes of a thread's scratch, where a group of systems is packed (or
// converted) in cache before it is streamed out.
constexpr size_t SCRATCH = size_t(64) << 10;

// Systems a pass of pack_tri packs in the scratch: as many whole triangles
// of tri_bytes as fit (group * tri_bytes <= SCRATCH), 0 where not even one
// does (those go straight to dst).
inline int64_t scratch_group(size_t tri_bytes) { return int64_t(SCRATCH / std::max<size_t>(tri_bytes, 1)); }

// Systems [0, count) of a host matrix array into packed triangles at dst
// (type T): the referenced triangle only, converted to the device type; P
// reals per element (2: complex, the pair kept together). Through the
// scratch, scratch_group systems at a time; a triangle larger than the
// scratch (real double from n = 128, float from 181, complex double from
// 91) straight to dst.
template <int P, typename H, typename T>
inline void pack_tri(const H *src, T *dst, int n, bool lower, int64_t count)
{
    alignas(64) static thread_local char scratch[SCRATCH];
    const size_t nn = size_t(n) * size_t(n) * P, te = tri_elems(n) * P;
    // system k's triangle to p, which it advances past it
    auto pack_one = [&](int64_t k, T *&p) {
        const H *a = src + size_t(k) * nn;
        for (int j = 0; j < n; j++) {
            const int lo = lower ? j : 0, hi = lower ? n : j + 1;
            const H *col = a + size_t(j) * size_t(n) * P;
            for (int i = lo * P; i < hi * P; i++)
                *p++ = T(col[i]);
        }
    };
    const int64_t group = scratch_group(te * sizeof(T));
    if (group == 0) {
        T *p = dst;
        for (int64_t k = 0; k < count; k++)
            pack_one(k, p);
        return;
    }
    for (int64_t k0 = 0; k0 < count; k0 += group) {
        const int64_t g = std::min(group, count - k0);
        T *p = reinterpret_cast<T *>(scratch);
        for (int64_t k = k0; k < k0 + g; k++)
            pack_one(k, p);
        stream_copy(dst + size_t(k0) * te, scratch, size_t(g) * te * sizeof(T));
    }
}
template <typename H, typename T> inline void pack_tri(const H *src, T *dst, int n, bool lower, int64_t count, int parts)
{
    if (parts == 2)
        pack_tri<2>(src, dst, n, lower, count);
    else
        pack_tri<1>(src, dst, n, lower, count);
}
// count elements from src (type H) to dst (type T), through the scratch.
template <typename H, typename T> inline void convert(const H *src, T *dst, size_t count)
{
    alignas(64) static thread_local char scratch[SCRATCH];
    const size_t group = SCRATCH / sizeof(T);
    for (size_t e0 = 0; e0 < count; e0 += group) {
        const size_t g = std::min(group, count - e0);
        T *p = reinterpret_cast<T *>(scratch);
        for (size_t e = 0; e < g; e++)
            p[e] = T(src[e0 + e]);
        stream_copy(dst + e0, scratch, g * sizeof(T));
    }
}

} // namespace bsym_host_pack

#endif
