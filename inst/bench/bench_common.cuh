// bench_common.cuh -- what the device-resident benchmarks share (bench_ldlt.cu,
// bench_tridiag.cu): error checks that end the run, option helpers, device
// arrays, deterministic input generation on the device, the L2 flush, the
// dense SPD problem with its working copies and the vendor's pointer arrays,
// the method/validation/timing machinery (CUDA events around the solve calls
// only, median of repeats), the measured copy bandwidth behind every bound,
// and the result rows with their markdown and CSV output.
//
// Include it once per program, after defining BENCH_NAME (the program's name,
// a string literal, used in messages), and define in the program
//     void usage(FILE *f);
// inside an unnamed namespace (bad_option prints it). Everything here lives
// in an unnamed namespace: each benchmark is one translation unit.
#ifndef BSYM_BENCH_COMMON_CUH
#define BSYM_BENCH_COMMON_CUH

#ifndef BENCH_NAME
#error "define BENCH_NAME (the program's name) before including bench_common.cuh"
#endif

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bsym_cuda.h"

namespace {

// ---- error checks: any failing library call ends the run (exit 2) ---------

// What the program is doing now ("single, n = 32: ours PCR general:
// validation run"); printed with a failure when not empty.
std::string g_activity;

[[noreturn]] void die(const char *file, int line, const char *what, const char *why)
{
    std::fprintf(stderr, "\n" BENCH_NAME ": %s:%d: %s failed: %s\n", file, line, what, why);
    if (!g_activity.empty())
        std::fprintf(stderr, BENCH_NAME ": while: %s\n", g_activity.c_str());
    std::exit(2);
}

void check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        die(file, line, what, cudaGetErrorString(e));
}

void check(cublasStatus_t e, const char *what, const char *file, int line)
{
    if (e != CUBLAS_STATUS_SUCCESS)
        die(file, line, what, cublasGetStatusString(e));
}

void check(cusolverStatus_t e, const char *what, const char *file, int line)
{
    if (e != CUSOLVER_STATUS_SUCCESS) {
        char why[64];
        std::snprintf(why, sizeof why, "cusolverStatus_t %d", int(e));
        die(file, line, what, why);
    }
}

#define CHECK(call) check((call), #call, __FILE__, __LINE__)

// ---- options ---------------------------------------------------------------

void usage(FILE *f); // defined by the program

std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= s.size()) {
        size_t end = s.find(',', start);
        if (end == std::string::npos)
            end = s.size();
        if (end > start)
            parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

[[noreturn]] void bad_option(const std::string &what)
{
    std::fprintf(stderr, BENCH_NAME ": %s\n", what.c_str());
    usage(stderr);
    std::exit(2);
}

// A positive whole number, also written like 1e6.
long long parse_count(const std::string &s, const char *name)
{
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !(v >= 1) || v > 9e15 || v != std::floor(v))
        bad_option(std::string(name) + ": '" + s + "' is not a positive whole number");
    return (long long)v;
}

// ---- device memory ---------------------------------------------------------

// One cudaMalloc'd array, freed with its owner.
template <typename T> struct dev_array {
    T *p = nullptr;
    size_t count = 0;

    dev_array() = default;
    explicit dev_array(size_t n) : count(n) { CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T))); }
    dev_array(dev_array &&o) noexcept : p(o.p), count(o.count) { o.p = nullptr; o.count = 0; }
    dev_array &operator=(dev_array &&o) noexcept
    {
        std::swap(p, o.p);
        std::swap(count, o.count);
        return *this;
    }
    dev_array(const dev_array &) = delete;
    dev_array &operator=(const dev_array &) = delete;
    ~dev_array()
    {
        if (p != nullptr)
            cudaFree(p);
    }
    size_t bytes() const { return count * sizeof(T); }
};

unsigned grid_for(long long work, int threads)
{
    return unsigned(std::min<long long>((work + threads - 1) / threads, 1LL << 20));
}

// ---- input generation (deterministic, on the device) ------------------------

__host__ __device__ inline uint64_t mix64(uint64_t x) // splitmix64's finaliser
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Uniform in [-1, 1) from a key.
__host__ __device__ inline double uniform_pm1(uint64_t key)
{
    return double(mix64(key) >> 11) * 0x1.0p-52 - 1.0;
}

// Off-diagonal entry (i, j) = (j, i) of system sys: depends on the unordered
// pair only, so the matrix is exactly symmetric.
__host__ __device__ inline double offdiag(uint64_t seed, long long sys, int i, int j)
{
    const uint64_t lo = uint64_t(i < j ? i : j), hi = uint64_t(i < j ? j : i);
    return uniform_pm1(seed ^ ((uint64_t(sys) << 24) | (lo << 12) | hi));
}

// Fills both triangles of every system: off-diagonal entries uniform in
// [-1, 1), diagonal = 1 + the row's sum of |off-diagonal| (strictly
// diagonally dominant with a positive diagonal, hence SPD, and by Gershgorin
// every eigenvalue lies in [1, 2n - 1]: condition number below 2n).
template <typename T> __global__ void fill_spd(T *A, int n, long long batch, uint64_t seed)
{
    const long long nn = (long long)n * n, total = nn * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long sys = idx / nn;
        const int rem = int(idx - sys * nn), j = rem / n, i = rem % n;
        double v = 0;
        if (i != j) {
            v = offdiag(seed, sys, i, j);
        } else {
            for (int k = 0; k < n; k++)
                if (k != i)
                    v += fabs(offdiag(seed, sys, i, k));
            v += 1;
        }
        A[idx] = T(v);
    }
}

// Right-hand sides uniform in [-1, 1).
template <typename T> __global__ void fill_uniform(T *x, long long count, uint64_t seed)
{
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x)
        x[idx] = T(uniform_pm1(seed ^ mix64(uint64_t(idx))));
}

// ptr[k] = base + k * stride: the pointer arrays of the vendor's batched API.
template <typename T> __global__ void fill_pointers(T **ptr, T *base, long long batch, long long stride)
{
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < batch;
         k += (long long)gridDim.x * blockDim.x)
        ptr[k] = base + k * stride;
}

// Counts the non-finite entries of x.
template <typename T> __global__ void count_nonfinite(const T *x, long long count, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x)
        mine += !isfinite(x[idx]);
    if (mine)
        atomicAdd(bad, mine);
}

// Reads every word of buf (to push everything else out of L2). The buffer
// holds zeros, so the store never happens, but the compiler cannot know.
__global__ void read_all(const uint4 *buf, size_t count, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
        const uint4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

// The L2 flush run before every timed repeat.
struct l2_flusher {
    dev_array<uint4> buf;
    dev_array<unsigned> sink{1};
    int sms = 1;

    l2_flusher(size_t l2_bytes, int sm_count) : sms(sm_count)
    {
        const size_t bytes = std::max<size_t>(4 * l2_bytes, size_t(128) << 20);
        buf = dev_array<uint4>(bytes / sizeof(uint4));
        CHECK(cudaMemset(buf.p, 0, buf.bytes()));
    }
    void run(cudaStream_t s)
    {
        read_all<<<unsigned(sms * 8), 256, 0, s>>>(buf.p, buf.count, sink.p);
        CHECK(cudaGetLastError());
    }
};

// Counts the non-finite entries of the device array x[0..count) (synchronises s).
template <typename T> unsigned long long nonfinite_count(const T *x, long long count, cudaStream_t s)
{
    dev_array<unsigned long long> bad(1);
    CHECK(cudaMemsetAsync(bad.p, 0, sizeof(unsigned long long), s));
    count_nonfinite<T><<<grid_for(count, 256), 256, 0, s>>>(x, count, bad.p);
    CHECK(cudaGetLastError());
    unsigned long long h = 0;
    CHECK(cudaMemcpyAsync(&h, bad.p, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    return h;
}

// ---- precision traits: the only place float and double differ --------------

template <typename T> struct prec;

template <> struct prec<float> {
    static constexpr char letter = 's';
    static constexpr const char *name = "single";
    static constexpr double eps = FLT_EPSILON;
    static bsym_status ours(char uplo, int n, long long batch, const float *A, float *B, int *info, int group,
                            cudaStream_t s)
    {
        return bsym_cuda_ldlt_launch_s(uplo, n, 1, batch, A, B, info, group, s);
    }
    static cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t f, int n, float **A, int *info, int batch)
    {
        return cusolverDnSpotrfBatched(h, f, n, A, n, info, batch);
    }
    static cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t f, int n, float **A, float **B, int *info,
                                  int batch)
    {
        return cusolverDnSpotrsBatched(h, f, n, 1, A, n, B, n, info, batch);
    }
    static cublasStatus_t getrf(cublasHandle_t h, int n, float **A, int *piv, int *info, int batch)
    {
        return cublasSgetrfBatched(h, n, A, n, piv, info, batch);
    }
    static cublasStatus_t getrs(cublasHandle_t h, int n, float **A, const int *piv, float **B, int *info, int batch)
    {
        return cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, piv, B, n, info, batch);
    }
};

template <> struct prec<double> {
    static constexpr char letter = 'd';
    static constexpr const char *name = "double";
    static constexpr double eps = DBL_EPSILON;
    static bsym_status ours(char uplo, int n, long long batch, const double *A, double *B, int *info, int group,
                            cudaStream_t s)
    {
        return bsym_cuda_ldlt_launch_d(uplo, n, 1, batch, A, B, info, group, s);
    }
    static cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t f, int n, double **A, int *info, int batch)
    {
        return cusolverDnDpotrfBatched(h, f, n, A, n, info, batch);
    }
    static cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t f, int n, double **A, double **B, int *info,
                                  int batch)
    {
        return cusolverDnDpotrsBatched(h, f, n, 1, A, n, B, n, info, batch);
    }
    static cublasStatus_t getrf(cublasHandle_t h, int n, double **A, int *piv, int *info, int batch)
    {
        return cublasDgetrfBatched(h, n, A, n, piv, info, batch);
    }
    static cublasStatus_t getrs(cublasHandle_t h, int n, double **A, const int *piv, double **B, int *info,
                                int batch)
    {
        return cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, piv, B, n, info, batch);
    }
};

// ---- one configuration's data: a batch of dense SPD systems -----------------

const uint64_t SEED_A = 0x5eed0001ULL, SEED_B = 0x5eed0002ULL;

// Device bytes one configuration needs with ncopies working copies.
size_t bytes_needed(int n, long long batch, size_t elem, int ncopies)
{
    const size_t a = size_t(n) * n * batch * elem, b = size_t(n) * batch * elem;
    return (1 + ncopies) * (a + b)             // pristine + working A and B
           + ncopies * 2 * batch * sizeof(void *) // pointer arrays
           + batch * sizeof(int)               // info
           + size_t(n) * batch * sizeof(int);  // cuBLAS pivots
}

template <typename T> struct problem {
    int n;
    long long batch;
    int ncopies;
    dev_array<T> A0, B0;                 // pristine inputs
    std::vector<dev_array<T>> Aw, Bw;    // working copies
    std::vector<dev_array<T *>> Ap, Bp;  // their pointer arrays (vendor API)
    std::vector<bool> A_dirty;           // Aw[c] overwritten since restored
    dev_array<int> info, info1, piv;     // per system; potrs's one int; pivots
    dev_array<unsigned long long> nonfinite{1};

    problem(int n_, long long batch_, int ncopies_, cudaStream_t s)
        : n(n_), batch(batch_), ncopies(ncopies_), A0(a_elems()), B0(b_elems()), A_dirty(ncopies_, false),
          info(size_t(batch_)), info1(1), piv(size_t(n_) * batch_)
    {
        const int threads = 256;
        fill_spd<T><<<grid_for(a_elems(), threads), threads, 0, s>>>(A0.p, n, batch, SEED_A);
        CHECK(cudaGetLastError());
        fill_uniform<T><<<grid_for(b_elems(), threads), threads, 0, s>>>(B0.p, b_elems(), SEED_B);
        CHECK(cudaGetLastError());
        for (int c = 0; c < ncopies; c++) {
            Aw.emplace_back(a_elems());
            Bw.emplace_back(b_elems());
            Ap.emplace_back(size_t(batch));
            Bp.emplace_back(size_t(batch));
            CHECK(cudaMemcpyAsync(Aw[c].p, A0.p, A0.bytes(), cudaMemcpyDeviceToDevice, s));
            fill_pointers<T><<<grid_for(batch, threads), threads, 0, s>>>(Ap[c].p, Aw[c].p, batch, (long long)n * n);
            CHECK(cudaGetLastError());
            fill_pointers<T><<<grid_for(batch, threads), threads, 0, s>>>(Bp[c].p, Bw[c].p, batch, n);
            CHECK(cudaGetLastError());
        }
        CHECK(cudaStreamSynchronize(s));
    }
    size_t a_elems() const { return size_t(n) * n * batch; }
    size_t b_elems() const { return size_t(n) * batch; }
};

// ---- methods -----------------------------------------------------------------

struct method {
    std::string name;   // as printed
    std::string family; // "ours", "cusolver", "cublas", "cusparse"
    int group = -1;     // ours (LDL^T): threads per system (0 = tuned default)
    bool writes_A = false;
    std::string note;   // the row's note (a failure's reason is appended)
    // When set, gives the note instead, evaluated after the method has run
    // (bsym_cuda_ldlt_systems_per_sm reports 0 for a variant that needs more
    // than 48 KB of shared memory until its first launch has opted it in).
    std::function<std::string()> describe;
    // Enqueues the solve of working copy c on the stream; returns "" or why
    // the call was refused.
    std::function<std::string(int c)> solve;
    // After a synchronisation: "" when every info value is 0, else a summary.
    std::function<std::string()> check_info;
};

// "" when all of the device array info[0..count) is 0, else a summary.
std::string info_summary(const int *dinfo, long long count, const char *what)
{
    std::vector<int> h(static_cast<size_t>(count));
    CHECK(cudaMemcpy(h.data(), dinfo, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0, first = -1;
    for (long long k = 0; k < count; k++)
        if (h[size_t(k)] != 0 && bad++ == 0)
            first = k;
    if (bad == 0)
        return "";
    char s[160];
    std::snprintf(s, sizeof s, "%s: %lld of %lld nonzero (first: [%lld] = %d)", what, bad, count, first,
                  h[size_t(first)]);
    return s;
}

struct handles {
    cublasHandle_t blas = nullptr;
    cusolverDnHandle_t solver = nullptr;
    int getrs_info = 0; // cuBLAS getrs reports argument errors on the host
};

// Untimed preparation of working copy c for method m: restore B (and A when
// a factor-in-place method wrote it since), enqueued on s.
template <typename T> void prepare(problem<T> &P, const method &m, int c, cudaStream_t s)
{
    if (P.A_dirty[c])
        CHECK(cudaMemcpyAsync(P.Aw[c].p, P.A0.p, P.A0.bytes(), cudaMemcpyDeviceToDevice, s));
    P.A_dirty[c] = m.writes_A; // true once the solve enqueued next has run
    CHECK(cudaMemcpyAsync(P.Bw[c].p, P.B0.p, P.B0.bytes(), cudaMemcpyDeviceToDevice, s));
}

// ---- validation --------------------------------------------------------------

// ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) in double; A full.
template <typename T> double backward_error(const T *A, const T *b, const T *x, int n)
{
    double normA = 0, normx = 0, normb = 0, normr = 0;
    for (int i = 0; i < n; i++) {
        double row = 0, r = b[i];
        for (int j = 0; j < n; j++) {
            const double a = A[i + size_t(j) * n];
            row += std::fabs(a);
            r -= a * double(x[j]);
        }
        normA = std::max(normA, row);
        normr = std::max(normr, std::fabs(r));
        normx = std::max(normx, std::fabs(double(x[i])));
        normb = std::max(normb, std::fabs(double(b[i])));
    }
    return normr / (normA * normx + normb);
}

// Copies `count` systems of `per` elements, every `stride`-th one, plus the
// last system of the batch, from the device array src to the host.
template <typename T>
std::vector<T> gather(const T *src, size_t per, long long batch, long long stride, long long count)
{
    std::vector<T> h(per * size_t(count + 1));
    int max_pitch = 0;
    CHECK(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, 0));
    const size_t pitch = per * size_t(stride) * sizeof(T);
    if (pitch <= size_t(max_pitch)) // one strided copy
        CHECK(cudaMemcpy2D(h.data(), per * sizeof(T), src, pitch, per * sizeof(T), size_t(count),
                           cudaMemcpyDeviceToHost));
    else // a stride beyond what one copy takes: system by system
        for (long long k = 0; k < count; k++)
            CHECK(cudaMemcpy(h.data() + per * k, src + per * stride * k, per * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h.data() + per * count, src + per * (batch - 1), per * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

struct verdict {
    double berr = NAN;  // max backward error over the sample
    double bound = 0;   // 100 n eps
    double resid = NAN; // max relative residual (where a program computes it)
    std::string why;    // "" = passed
    bool ok() const { return why.empty(); }
};

// Appends a problem to a "; "-separated list.
void add_why(std::string &why, const std::string &more)
{
    if (!more.empty())
        why += (why.empty() ? "" : "; ") + more;
}

// Checks the solution in Bw[c] of a synchronised run of m: info, finiteness,
// and the backward error over `sample` systems spread over the batch plus the
// last one (<= 100 n eps).
template <typename T> verdict check_output(problem<T> &P, const method &m, int c, int sample, cudaStream_t s)
{
    verdict v;
    v.bound = 100.0 * P.n * prec<T>::eps;
    std::string why = m.check_info();

    CHECK(cudaMemsetAsync(P.nonfinite.p, 0, sizeof(unsigned long long), s));
    count_nonfinite<T><<<grid_for(P.b_elems(), 256), 256, 0, s>>>(P.Bw[c].p, P.b_elems(), P.nonfinite.p);
    CHECK(cudaGetLastError());
    unsigned long long nonfinite = 0;
    CHECK(cudaMemcpyAsync(&nonfinite, P.nonfinite.p, sizeof nonfinite, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    if (nonfinite != 0)
        why += (why.empty() ? "" : "; ") + std::to_string(nonfinite) + " non-finite entries in x";

    const long long count = std::min<long long>(sample, P.batch);
    const long long stride = std::max<long long>(1, P.batch / count);
    const size_t nn = size_t(P.n) * P.n;
    const std::vector<T> A = gather(P.A0.p, nn, P.batch, stride, count);
    const std::vector<T> b = gather(P.B0.p, size_t(P.n), P.batch, stride, count);
    const std::vector<T> x = gather(P.Bw[c].p, size_t(P.n), P.batch, stride, count);
    double worst = 0;
    for (long long k = 0; k <= count; k++) {
        const double e = backward_error(&A[nn * k], &b[size_t(P.n) * k], &x[size_t(P.n) * k], P.n);
        if (std::isnan(e) || (!std::isnan(worst) && e > worst)) // a NaN, once seen, stays
            worst = e;
    }
    v.berr = worst;
    if (!(worst <= v.bound)) {
        char s2[96];
        std::snprintf(s2, sizeof s2, "backward error %.2e > %.2e", worst, v.bound);
        why += (why.empty() ? "" : "; ") + std::string(s2);
    }
    v.why = why;
    return v;
}

// ---- timing ------------------------------------------------------------------

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct timing {
    double median_ms = NAN, min_ms = NAN, max_ms = NAN;
    std::string why; // "" = every repeat ran
};

// reps timed repeats: each runs prep(r) (untimed: restore what the previous
// repeat overwrote) and the L2 flush, then solve(r) between two CUDA events
// on s; solve returns "" or why the call was refused (which ends the series).
// Returns milliseconds.
timing time_repeats(int reps, const std::function<void(int r)> &prep, const std::function<std::string(int r)> &solve,
                    l2_flusher &flush, cudaStream_t s)
{
    timing t;
    std::vector<cudaEvent_t> start(static_cast<size_t>(reps)), stop(static_cast<size_t>(reps));
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventCreate(&start[size_t(r)]));
        CHECK(cudaEventCreate(&stop[size_t(r)]));
    }
    int done = 0;
    for (int r = 0; r < reps && t.why.empty(); r++, done++) {
        prep(r);
        flush.run(s);
        CHECK(cudaEventRecord(start[size_t(r)], s));
        t.why = solve(r);
        CHECK(cudaEventRecord(stop[size_t(r)], s));
    }
    CHECK(cudaStreamSynchronize(s));
    std::vector<double> ms;
    for (int r = 0; r < done && t.why.empty(); r++) {
        float e = 0;
        CHECK(cudaEventElapsedTime(&e, start[size_t(r)], stop[size_t(r)]));
        ms.push_back(e);
    }
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventDestroy(start[size_t(r)]));
        CHECK(cudaEventDestroy(stop[size_t(r)]));
    }
    if (!ms.empty()) {
        t.median_ms = median(ms);
        t.min_ms = *std::min_element(ms.begin(), ms.end());
        t.max_ms = *std::max_element(ms.begin(), ms.end());
    }
    return t;
}

// reps timed repeats of m (each: untimed prepare + L2 flush, then the solve
// between two events); returns milliseconds.
template <typename T>
timing time_method(problem<T> &P, const method &m, int reps, l2_flusher &flush, cudaStream_t s)
{
    return time_repeats(
        reps, [&](int r) { prepare(P, m, r % P.ncopies, s); }, [&](int r) { return m.solve(r % P.ncopies); },
        flush, s);
}

// Device-to-device copy bandwidth in bytes/s (bytes read + bytes written),
// median of 10 copies of a large buffer.
double measure_bandwidth(size_t bytes, cudaStream_t s)
{
    dev_array<unsigned char> src(bytes), dst(bytes);
    CHECK(cudaMemsetAsync(src.p, 1, bytes, s));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<double> ms;
    for (int r = 0; r < 12; r++) {
        CHECK(cudaEventRecord(a, s));
        CHECK(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice, s));
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float e = 0;
        CHECK(cudaEventElapsedTime(&e, a, b));
        if (r >= 2) // two warm-up copies
            ms.push_back(e);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return 2.0 * double(bytes) / (median(ms) * 1e-3);
}

// ---- results -------------------------------------------------------------------

struct row {
    std::string precision;
    int n = 0;
    long long batch = 0;
    std::string method;
    double median_ms = NAN, spread = NAN; // spread = (max - min) / median
    double rate = NAN, ratio = NAN;       // systems/s; rate / bound
    double berr = NAN, berr_bound = NAN;
    double resid = NAN;                   // relative residual (bench_tridiag)
    std::string check; // "ok", "FAIL", "-" (bound rows), "SKIP"
    std::string note;
};

struct report {
    std::vector<std::string> header; // "key: value" lines
    std::vector<row> rows;
    bool ours_failed = false, vendor_failed = false;
};

std::string fmt(const char *f, double v)
{
    if (std::isnan(v))
        return "-";
    char s[64];
    std::snprintf(s, sizeof s, f, v);
    return s;
}

std::vector<std::string> cells(const row &r)
{
    return {r.precision, std::to_string(r.n), std::to_string(r.batch), r.method, fmt("%.4f", r.median_ms),
            fmt("%.1f%%", 100 * r.spread), fmt("%.4g", r.rate), fmt("%.3f", r.ratio), fmt("%.1e", r.berr),
            r.check, r.note};
}

const std::vector<std::string> COLUMNS{"precision", "n", "batch", "method", "median ms", "spread",
                                       "systems/s", "ratio to bound", "backward err", "check", "note"};

void print_row(const row &r)
{
    const std::vector<std::string> c = cells(r);
    std::printf("%-7s %3s %8s  %-22s %10s %7s %11s %7s %9s %-5s %s\n", c[0].c_str(), c[1].c_str(), c[2].c_str(),
                c[3].c_str(), c[4].c_str(), c[5].c_str(), c[6].c_str(), c[7].c_str(), c[8].c_str(), c[9].c_str(),
                c[10].c_str());
    std::fflush(stdout);
}

void print_columns()
{
    std::printf("%-7s %3s %8s  %-22s %10s %7s %11s %7s %9s %-5s %s\n", "prec", "n", "batch", "method", "median ms",
                "spread", "systems/s", "/bound", "berr", "check", "note");
}

void markdown_table(FILE *f, const std::vector<std::string> &head, const std::vector<std::vector<std::string>> &body)
{
    for (const std::string &h : head)
        std::fprintf(f, "| %s ", h.c_str());
    std::fprintf(f, "|\n");
    for (size_t i = 0; i < head.size(); i++)
        std::fprintf(f, "|---");
    std::fprintf(f, "|\n");
    for (const std::vector<std::string> &r : body) {
        for (const std::string &c : r)
            std::fprintf(f, "| %s ", c.c_str());
        std::fprintf(f, "|\n");
    }
}

// FILE.md -> FILE.csv (or FILE + ".csv" without a .md ending).
std::string csv_path(const std::string &md)
{
    const size_t dot = md.rfind('.'), slash = md.rfind('/');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        return md.substr(0, dot) + ".csv";
    return md + ".csv";
}

// A benchmark's last lines: the targets of issue `issue` (none: nothing),
// the files written (out empty: none), and its exit status: 1 when one of
// ours failed a check (`ours` says which), 3 when only a vendor routine did
// (`vendor`), else 0.
int bench_end(int issue, const std::vector<std::string> &targets, const std::string &out, bool ours_failed,
              const char *ours, bool vendor_failed, const char *vendor)
{
    if (!targets.empty()) {
        std::printf("\ntargets of issue %d:\n", issue);
        for (const std::string &t : targets)
            std::printf("  %s\n", t.c_str());
    }
    if (!out.empty())
        std::printf("\nwrote %s and %s\n", out.c_str(), csv_path(out).c_str());
    if (ours_failed) {
        std::fprintf(stderr, "\n*** FAIL: %s failed a check (see the check column) ***\n", ours);
        return 1;
    }
    if (vendor_failed) {
        std::fprintf(stderr, "\n*** FAIL: %s failed a check (see the check column) ***\n", vendor);
        return 3;
    }
    return 0;
}

std::string csv_field(const std::string &s)
{
    if (s.find_first_of(",\"") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char ch : s)
        q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

// ---- one method of one configuration ------------------------------------------

struct run_params {
    int reps = 10, warmup = 1, sample = 1000;
    l2_flusher *flush = nullptr;
    cudaStream_t s = nullptr;
};

// Validates, warms up, times and checks one method on the dense problem P;
// returns its row (ratio against `bound` systems/s). A method that fails
// validation is not timed.
template <typename T> row run_method(problem<T> &P, const method &m, const run_params &rp, double bound)
{
    row r;
    r.precision = prec<T>::name;
    r.n = P.n;
    r.batch = P.batch;
    r.method = m.name;

    // Validation run on copy 0, info first filled with a sentinel.
    prepare(P, m, 0, rp.s);
    CHECK(cudaMemsetAsync(P.info.p, 0x7f, P.info.bytes(), rp.s));
    CHECK(cudaMemsetAsync(P.info1.p, 0x7f, P.info1.bytes(), rp.s));
    std::string why = m.solve(0);
    CHECK(cudaStreamSynchronize(rp.s));
    verdict v;
    if (why.empty())
        v = check_output(P, m, 0, rp.sample, rp.s);
    else
        v.why = why;
    r.berr = v.berr;
    r.berr_bound = v.bound;
    if (v.ok()) {
        for (int w = 0; w < rp.warmup && why.empty(); w++) {
            prepare(P, m, w % P.ncopies, rp.s);
            why = m.solve(w % P.ncopies);
        }
        CHECK(cudaStreamSynchronize(rp.s));
        const timing t = time_method(P, m, rp.reps, *rp.flush, rp.s);
        why = why.empty() ? t.why : why;
        if (why.empty()) {
            r.median_ms = t.median_ms;
            r.spread = (t.max_ms - t.min_ms) / t.median_ms;
            r.rate = double(P.batch) / (t.median_ms * 1e-3);
            r.ratio = r.rate / bound;
            // The output of the last timed repeat must be right as well.
            const verdict after = check_output(P, m, (rp.reps - 1) % P.ncopies, rp.sample, rp.s);
            r.berr = std::max(r.berr, after.berr);
            if (!after.ok())
                v.why = "after timing: " + after.why;
        } else {
            v.why = why;
        }
    }
    r.check = v.ok() ? "ok" : "FAIL";
    r.note = m.describe ? m.describe() : m.note;
    if (!v.ok())
        r.note += (r.note.empty() ? "" : "; ") + v.why;
    if (!v.ok()) {
        std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, m.name.c_str(),
                     v.why.c_str());
    }
    return r;
}

// ---- the header of a report ---------------------------------------------------

std::string utc_now()
{
    const std::time_t now = std::time(nullptr);
    char s[64];
    std::strftime(s, sizeof s, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
    return s;
}

std::string version_string(int v) // 13000 -> "13.0"
{
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// "NAME (compute capability X.Y, N SMs, M GB, L2 K MB)"
std::string gpu_description(const cudaDeviceProp &p)
{
    char gpu[512];
    std::snprintf(gpu, sizeof gpu, "%s (compute capability %d.%d, %d SMs, %.1f GB, L2 %.0f MB)", p.name, p.major,
                  p.minor, p.multiProcessorCount, p.totalGlobalMem / 1e9, p.l2CacheSize / 1e6);
    return gpu;
}

std::string host_name()
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    return host;
}

} // namespace

#endif
