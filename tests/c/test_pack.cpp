// test_pack.cpp -- the host side of the GPU pipeline's staging
// (src/cuda/host_pack.h), compiled for the host: CI has no GPU, and a
// mistake here corrupts host memory before any kernel runs. Session 31
// found one: a triangle larger than the 64 KB scratch was packed into it
// anyway (complex double n = 256 crashed; real double n >= 128 wrote past
// it unnoticed). Checked here, for every element kind the pipeline packs
// (real and complex, double to double, double to float, float to float),
// both triangles, n on both sides of each scratch edge and batches of
// several scratch groups:
//  - scratch_group never plans more than the scratch holds;
//  - pack_tri's output is the referenced triangle by columns, each value
//    exact (small integers), nothing written past the batch's end;
//  - convert's output element by element, across several scratch groups.
//   test_pack [--counts FILE]   (FILE gets "passed failed")
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../src/cuda/host_pack.h"

using namespace bsym_host_pack;

static int passed = 0, failed = 0;
static void check(bool ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        std::printf("FAIL %s\n", what);
    }
}

// Entry (i, j) part q of system k: an integer below 2^24 (exact in float).
static double value(int64_t k, int n, int i, int j, int q) { return double((k * n * n + j * n + i) * 2 + q); }

template <int P, typename H, typename T> static void pack_case(int n, bool lower, int64_t count, const char *kind)
{
    const size_t nn = size_t(n) * n * P, te = tri_elems(n) * P;
    std::vector<H> src(nn * size_t(count));
    for (int64_t k = 0; k < count; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                for (int q = 0; q < P; q++)
                    src[size_t(k) * nn + (size_t(j) * n + i) * P + q] = H(value(k, n, i, j, q));
    const size_t guard = 64;
    std::vector<T> dst(te * size_t(count) + guard, T(-7));
    pack_tri<P>(src.data(), dst.data(), n, lower, count);
    bool ok = true;
    size_t e = 0;
    for (int64_t k = 0; k < count && ok; k++)
        for (int j = 0; j < n && ok; j++)
            for (int i = lower ? j : 0; i < (lower ? n : j + 1); i++)
                for (int q = 0; q < P; q++)
                    ok = ok && dst[e++] == T(value(k, n, i, j, q));
    for (size_t g = 0; g < guard && ok; g++)
        ok = dst[te * size_t(count) + g] == T(-7);
    char what[200];
    std::snprintf(what, sizeof what, "pack_tri %s n=%d %s count=%lld (scratch group %lld): the triangle by columns, nothing past it",
                  kind, n, lower ? "lower" : "upper", (long long)count, (long long)scratch_group(te * sizeof(T)));
    check(ok, what);
}

template <typename H, typename T> static void convert_case(size_t count, const char *kind)
{
    std::vector<H> src(count);
    for (size_t e = 0; e < count; e++)
        src[e] = H(double(e % 1000003));
    std::vector<T> dst(count + 16, T(-7));
    convert(src.data(), dst.data(), count);
    bool ok = true;
    for (size_t e = 0; e < count && ok; e++)
        ok = dst[e] == T(double(e % 1000003));
    for (size_t g = 0; g < 16; g++)
        ok = ok && dst[count + g] == T(-7);
    char what[160];
    std::snprintf(what, sizeof what, "convert %s count=%zu: element by element, nothing past it", kind, count);
    check(ok, what);
}

int main(int argc, char **argv)
{
    const char *counts = nullptr;
    for (int i = 1; i < argc; i++)
        if (std::strcmp(argv[i], "--counts") == 0 && i + 1 < argc)
            counts = argv[++i];
    // the plan: never more than the scratch holds, at least one where one fits
    bool ok = true;
    for (size_t bytes = 1; bytes <= 4 * SCRATCH; bytes += 7) {
        const int64_t g = scratch_group(bytes);
        ok = ok && size_t(g) * bytes <= SCRATCH && (bytes > SCRATCH || g >= 1) && (bytes <= SCRATCH || g == 0);
    }
    check(ok, "scratch_group: group * bytes <= SCRATCH, 0 only where one triangle does not fit");
    // n on both sides of each edge: real double and complex float 127 / 128,
    // float 180 / 181, complex double 90 / 91; 256 the largest dense n
    const int ns[] = {1, 2, 5, 31, 90, 91, 127, 128, 180, 181, 256};
    for (int n : ns)
        for (int lower = 0; lower < 2; lower++) {
            const int64_t count = n <= 32 ? 300 : 3; // several scratch groups at small n
            pack_case<1, double, double>(n, lower, count, "double");
            pack_case<1, double, float>(n, lower, count, "double->float");
            pack_case<1, float, float>(n, lower, count, "float");
            pack_case<2, double, double>(n, lower, count, "complex double");
            pack_case<2, double, float>(n, lower, count, "complex double->float");
            pack_case<2, float, float>(n, lower, count, "complex float");
        }
    for (size_t count : {size_t(1), size_t(100), SCRATCH / 4 + 3, 5 * SCRATCH / 8 + 1}) {
        convert_case<double, float>(count, "double->float");
        convert_case<float, double>(count, "float->double");
    }
    std::printf("host packing tests: %d passed, %d failed\n", passed, failed);
    if (counts != nullptr) {
        FILE *f = std::fopen(counts, "w");
        if (f != nullptr) {
            std::fprintf(f, "%d %d\n", passed, failed);
            std::fclose(f);
        }
    }
    return failed == 0 ? 0 : 1;
}
