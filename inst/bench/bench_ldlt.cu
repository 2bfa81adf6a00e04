// bench_ldlt.cu -- device-resident benchmark of the batched LDL^T solve
// (factor + one right-hand side), beside the vendor's batched routines and
// the memory-bandwidth bound, measured in the same run.
//
// For each precision and n it times, on one device-resident batch of random
// SPD systems:
//   ours G=0            bsym_cuda_ldlt_launch_{s,d} with group 0 (the tuned
//                       default that the library uses);
//   ours G=g            every group size g that bsym_cuda_ldlt_groups lists
//                       (the n* tuning table: the fastest is marked);
//   cusolver potrf+potrs  cusolverDn{S,D}potrfBatched + potrsBatched (lower
//                       or upper as --uplo; potrsBatched only takes nrhs = 1);
//   cublas getrf+getrs  cublas{S,D}getrfBatched + getrsBatched (partial
//                       pivoting, full matrix);
//   bound               measured device-to-device copy bandwidth divided by
//                       the bytes one system must move: A (n*n), b (n) read,
//                       x (n) written. Our kernel reads only the triangle
//                       named by uplo, so a second row gives the bound with
//                       n(n+1)/2 entries of A; "ratio to bound" is always
//                       against the full-A bound.
//
// What is timed and what is not (the honest design):
//   - A0, B0: pristine inputs, generated on the device once per (precision,
//     n). Aw[c], Bw[c], c < ncopies: working copies (two when they fit in the
//     memory budget, else one); repeat r uses copy r % ncopies, so that two
//     consecutive repeats never touch the same addresses.
//   - Before every repeat, OUTSIDE the timed region and on the same stream:
//     Bw[c] <- B0 by a device copy (every method overwrites b with x); Aw[c]
//     <- A0 when a method that factors in place (cuSOLVER, cuBLAS) wrote it
//     since; then a kernel READS a buffer of 4x the L2 size, which evicts
//     whatever the copies or the previous repeat left in L2 (reads leave no
//     dirty lines, so no write-back spills into the timed region).
//   - Inside the timed region (a CUDA event pair on that stream): exactly the
//     solve calls -- our one launch; potrf + potrs; getrf + getrs. Handles,
//     pointer arrays, pivot and info arrays are all prepared beforehand.
//   - Systems/s = batch / median over --reps repeats (default 10), after one
//     validation run and --warmup untimed runs per method.
//
// Validation (before timing, and again on the output of the last timed
// repeat): every entry of info must be 0 (our info array is first filled
// with a sentinel, so an entry the kernel never wrote fails too), no entry of
// x may be non-finite, and the backward error
//     ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf)
// computed in double on the host over --sample systems spread over the batch
// (and always the last one) must be <= 100 n eps of the working precision.
//
// Exit status: 0 all checks passed; 1 our kernel failed a check; 3 only a
// vendor routine failed one; 2 a CUDA/cuBLAS/cuSOLVER call failed (the run
// stops there). The tables are (re)written after every configuration.
//
// Usage: bench_ldlt [options] [--out FILE.md]   (bench_ldlt --help)
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

[[noreturn]] void die(const char *file, int line, const char *what, const char *why)
{
    std::fprintf(stderr, "\nbench_ldlt: %s:%d: %s failed: %s\n", file, line, what, why);
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

// ---- options -------------------------------------------------------------

struct options {
    std::vector<int> ns{8, 16, 32, 64};
    std::vector<char> precisions{'s', 'd'};
    std::vector<std::string> methods{"ours", "cusolver", "cublas"};
    long long batch = 0; // 0: default per n (default_batch)
    int reps = 10;
    int warmup = 1;
    int sample = 1000;
    double mem_gb = 40;
    char uplo = 'L';
    std::string out; // markdown file; the CSV goes beside it
    std::string command;
};

// 1e6 systems up to n = 32, 2^18 above: at least 1e5 everywhere, A from
// 256 MB (n = 8, float) to 8.6 GB (n = 64, double), far beyond the L2.
long long default_batch(int n) { return n <= 32 ? 1000000LL : 262144LL; }

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: bench_ldlt [options] [FILE.md]\n"
        "  --n LIST         sizes, comma-separated (default 8,16,32,64; 1..%d)\n"
        "  --prec LIST      s,d (also single,double,float; default s,d)\n"
        "  --methods LIST   ours,cusolver,cublas (default all)\n"
        "  --batch N        systems per configuration (default 1e6 for n <= 32, 262144 above)\n"
        "  --reps N         timed repeats, median reported (default 10)\n"
        "  --warmup N       untimed runs per method after validation (default 1)\n"
        "  --sample N       systems checked for backward error (default 1000)\n"
        "  --mem-gb X       device memory budget in GB (default 40)\n"
        "  --uplo L|U       triangle referenced (default L)\n"
        "  --out FILE.md    write the tables as markdown to FILE.md and as CSV to FILE.csv\n"
        "exit status: 0 ok, 1 our kernel failed validation, 3 a vendor routine failed\n"
        "validation, 2 a CUDA/cuBLAS/cuSOLVER call failed\n",
        BSYM_GPU_LDLT_MAX_N);
}

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
    std::fprintf(stderr, "bench_ldlt: %s\n", what.c_str());
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

options parse_options(int argc, char **argv)
{
    options o;
    for (int i = 0; i < argc; i++)
        o.command += (i ? " " : "") + std::string(argv[i]);
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(0);
        }
        if (a.rfind("--", 0) != 0) { // a bare argument is the output file
            o.out = a;
            continue;
        }
        if (i + 1 >= argc)
            bad_option(a + " needs a value");
        const std::string v = argv[++i];
        if (a == "--n") {
            o.ns.clear();
            for (const std::string &p : split(v)) {
                const long long n = parse_count(p, "--n");
                if (n > BSYM_GPU_LDLT_MAX_N)
                    bad_option("--n: " + p + " is above " + std::to_string(BSYM_GPU_LDLT_MAX_N));
                o.ns.push_back(int(n));
            }
        } else if (a == "--prec") {
            o.precisions.clear();
            for (const std::string &p : split(v)) {
                if (p == "s" || p == "single" || p == "float")
                    o.precisions.push_back('s');
                else if (p == "d" || p == "double")
                    o.precisions.push_back('d');
                else
                    bad_option("--prec: unknown precision '" + p + "'");
            }
        } else if (a == "--methods") {
            o.methods = split(v);
            for (const std::string &m : o.methods)
                if (m != "ours" && m != "cusolver" && m != "cublas")
                    bad_option("--methods: unknown method '" + m + "'");
        } else if (a == "--batch") {
            o.batch = parse_count(v, "--batch");
        } else if (a == "--reps") {
            o.reps = int(std::min(parse_count(v, "--reps"), 1000LL));
        } else if (a == "--warmup") {
            o.warmup = v == "0" ? 0 : int(std::min(parse_count(v, "--warmup"), 100LL));
        } else if (a == "--sample") {
            o.sample = int(std::min(parse_count(v, "--sample"), 1000000LL));
        } else if (a == "--mem-gb") {
            o.mem_gb = std::atof(v.c_str());
            if (!(o.mem_gb > 0))
                bad_option("--mem-gb: '" + v + "' is not a positive number");
        } else if (a == "--uplo") {
            if (v != "L" && v != "U")
                bad_option("--uplo: must be L or U");
            o.uplo = v[0];
        } else if (a == "--out") {
            o.out = v;
        } else {
            bad_option("unknown option " + a);
        }
    }
    if (o.ns.empty() || o.precisions.empty() || o.methods.empty())
        bad_option("--n, --prec and --methods need at least one entry");
    if (!o.out.empty()) { // fail now rather than after the run
        FILE *f = std::fopen(o.out.c_str(), "w");
        if (f == nullptr)
            bad_option("cannot write " + o.out + ": " + std::strerror(errno));
        std::fclose(f);
    }
    return o;
}

bool wants(const options &o, const char *method)
{
    return std::find(o.methods.begin(), o.methods.end(), method) != o.methods.end();
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

// ---- one configuration's data ----------------------------------------------

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
    std::string family; // "ours", "cusolver", "cublas"
    int group = -1;     // ours: threads per system (0 = tuned default)
    bool writes_A = false;
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

template <typename T>
std::vector<method> make_methods(problem<T> &P, handles &H, const options &o, cudaStream_t s)
{
    std::vector<method> ms;
    const cublasFillMode_t fill = o.uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const int n = P.n, batch = int(P.batch);
    if (wants(o, "ours")) {
        std::vector<int> groups{0};
        int list[64];
        const int count = bsym_cuda_ldlt_groups(prec<T>::letter, n, list, 64);
        groups.insert(groups.end(), list, list + std::min(count, 64));
        for (int g : groups) {
            method m;
            m.name = "ours G=" + std::to_string(g);
            m.family = "ours";
            m.group = g;
            m.solve = [&P, &o, g, s](int c) -> std::string {
                const bsym_status st = prec<T>::ours(o.uplo, P.n, P.batch, P.Aw[c].p, P.Bw[c].p, P.info.p, g, s);
                return st == BSYM_OK ? "" : std::string("launch returned ") + bsym_status_string(st);
            };
            m.check_info = [&P] { return info_summary(P.info.p, P.batch, "info"); };
            ms.push_back(m);
        }
    }
    if (wants(o, "cusolver")) {
        method m;
        m.name = "cusolver potrf+potrs";
        m.family = "cusolver";
        m.writes_A = true;
        m.solve = [&P, &H, fill, n, batch](int c) -> std::string {
            CHECK(prec<T>::potrf(H.solver, fill, n, P.Ap[c].p, P.info.p, batch));
            CHECK(prec<T>::potrs(H.solver, fill, n, P.Ap[c].p, P.Bp[c].p, P.info1.p, batch));
            return "";
        };
        m.check_info = [&P] {
            const std::string a = info_summary(P.info.p, P.batch, "potrf info");
            const std::string b = info_summary(P.info1.p, 1, "potrs info");
            return a + (a.empty() || b.empty() ? "" : "; ") + b;
        };
        ms.push_back(m);
    }
    if (wants(o, "cublas")) {
        method m;
        m.name = "cublas getrf+getrs";
        m.family = "cublas";
        m.writes_A = true;
        m.solve = [&P, &H, n, batch](int c) -> std::string {
            CHECK(prec<T>::getrf(H.blas, n, P.Ap[c].p, P.piv.p, P.info.p, batch));
            CHECK(prec<T>::getrs(H.blas, n, P.Ap[c].p, P.piv.p, P.Bp[c].p, &H.getrs_info, batch));
            return H.getrs_info == 0 ? "" : "getrs info = " + std::to_string(H.getrs_info);
        };
        m.check_info = [&P] { return info_summary(P.info.p, P.batch, "getrf info"); };
        ms.push_back(m);
    }
    return ms;
}

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
    std::string why;    // "" = passed
    bool ok() const { return why.empty(); }
};

// Checks the solution in Bw[c] of a synchronised run of m.
template <typename T> verdict check_output(problem<T> &P, const method &m, int c, const options &o, cudaStream_t s)
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

    const long long count = std::min<long long>(o.sample, P.batch);
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

// reps timed repeats of m (each: untimed prepare + L2 flush, then the solve
// between two events); returns milliseconds.
template <typename T>
timing time_method(problem<T> &P, const method &m, int reps, l2_flusher &flush, cudaStream_t s)
{
    timing t;
    std::vector<cudaEvent_t> start(static_cast<size_t>(reps)), stop(static_cast<size_t>(reps));
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventCreate(&start[size_t(r)]));
        CHECK(cudaEventCreate(&stop[size_t(r)]));
    }
    int done = 0;
    for (int r = 0; r < reps && t.why.empty(); r++, done++) {
        const int c = r % P.ncopies;
        prepare(P, m, c, s);
        flush.run(s);
        CHECK(cudaEventRecord(start[size_t(r)], s));
        t.why = m.solve(c);
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
    double rate = NAN, ratio = NAN;       // systems/s; rate / full-A bound
    double berr = NAN, berr_bound = NAN;
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

// The n* table: per (precision, n), the fastest explicit group size of ours
// and how close the tuned default (G=0) comes to it.
std::vector<std::vector<std::string>> tuning_table(const std::vector<row> &rows)
{
    std::vector<std::vector<std::string>> t;
    for (size_t i = 0; i < rows.size(); i++) {
        if (rows[i].method != "ours G=0")
            continue;
        const row &def = rows[i];
        std::string groups, best_name;
        double best = NAN;
        for (size_t j = i + 1; j < rows.size() && rows[j].method.rfind("ours G=", 0) == 0; j++) {
            groups += (groups.empty() ? "" : ",") + rows[j].method.substr(7);
            if (rows[j].check == "ok" && !(rows[j].rate <= best)) {
                best = rows[j].rate;
                best_name = rows[j].method.substr(7);
            }
        }
        t.push_back({def.precision, std::to_string(def.n), groups, best_name.empty() ? "-" : best_name,
                     fmt("%.4g", best), fmt("%.4g", def.rate), fmt("%.3f", def.rate / best)});
    }
    return t;
}

const std::vector<std::string> TUNING_COLUMNS{"precision", "n", "groups tried", "fastest G", "fastest systems/s",
                                              "G=0 (tuned) systems/s", "G=0 / fastest"};

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

std::string csv_field(const std::string &s)
{
    if (s.find_first_of(",\"") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char ch : s)
        q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

void write_outputs(const report &rep, const std::string &md)
{
    if (md.empty())
        return;
    FILE *f = std::fopen(md.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, "bench_ldlt: cannot write %s: %s\n", md.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(f, "# bench_ldlt: batched LDL^T solve (factor + 1 right-hand side), device-resident\n\n");
    for (const std::string &h : rep.header)
        std::fprintf(f, "- %s\n", h.c_str());
    std::fprintf(f, "\n## Systems per second\n\n");
    std::vector<std::vector<std::string>> body;
    for (const row &r : rep.rows)
        body.push_back(cells(r));
    markdown_table(f, COLUMNS, body);
    std::fprintf(f, "\n## n* tuning: threads per system (G) of our kernel\n\n");
    markdown_table(f, TUNING_COLUMNS, tuning_table(rep.rows));
    std::fclose(f);

    const std::string csv = csv_path(md);
    FILE *g = std::fopen(csv.c_str(), "w");
    if (g == nullptr) {
        std::fprintf(stderr, "bench_ldlt: cannot write %s: %s\n", csv.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(g, "precision,n,batch,method,median_ms,spread,systems_per_s,ratio_to_bound,"
                    "backward_error,backward_error_bound,check,note\n");
    for (const row &r : rep.rows)
        std::fprintf(g, "%s,%d,%lld,%s,%.6g,%.6g,%.6g,%.6g,%.3g,%.3g,%s,%s\n", r.precision.c_str(), r.n, r.batch,
                     csv_field(r.method).c_str(), r.median_ms, r.spread, r.rate, r.ratio, r.berr, r.berr_bound,
                     r.check.c_str(), csv_field(r.note).c_str());
    std::fclose(g);
}

// ---- one configuration -----------------------------------------------------

struct bench_env {
    const options &o;
    handles &h;
    l2_flusher &flush;
    cudaStream_t s;
    double bandwidth; // bytes/s
};

// Validates, warms up, times and checks one method; appends its row.
template <typename T> row run_method(problem<T> &P, const method &m, bench_env &env, double bound)
{
    row r;
    r.precision = prec<T>::name;
    r.n = P.n;
    r.batch = P.batch;
    r.method = m.name;

    // Validation run on copy 0, info first filled with a sentinel.
    prepare(P, m, 0, env.s);
    CHECK(cudaMemsetAsync(P.info.p, 0x7f, P.info.bytes(), env.s));
    CHECK(cudaMemsetAsync(P.info1.p, 0x7f, P.info1.bytes(), env.s));
    std::string why = m.solve(0);
    CHECK(cudaStreamSynchronize(env.s));
    verdict v;
    if (why.empty())
        v = check_output(P, m, 0, env.o, env.s);
    else
        v.why = why;
    r.berr = v.berr;
    r.berr_bound = v.bound;
    if (v.ok()) {
        for (int w = 0; w < env.o.warmup && why.empty(); w++) {
            prepare(P, m, w % P.ncopies, env.s);
            why = m.solve(w % P.ncopies);
        }
        CHECK(cudaStreamSynchronize(env.s));
        const timing t = time_method(P, m, env.o.reps, env.flush, env.s);
        why = why.empty() ? t.why : why;
        if (why.empty()) {
            r.median_ms = t.median_ms;
            r.spread = (t.max_ms - t.min_ms) / t.median_ms;
            r.rate = double(P.batch) / (t.median_ms * 1e-3);
            r.ratio = r.rate / bound;
            // The output of the last timed repeat must be right as well.
            const verdict after = check_output(P, m, (env.o.reps - 1) % P.ncopies, env.o, env.s);
            r.berr = std::max(r.berr, after.berr);
            if (!after.ok())
                v.why = "after timing: " + after.why;
        } else {
            v.why = why;
        }
    }
    r.check = v.ok() ? "ok" : "FAIL";
    r.note = m.group == 0 ? "tuned default (G=" + std::to_string(bsym_cuda_ldlt_tuned_group(prec<T>::letter, P.n)) + ")" : "";
    if (m.group >= 0) {
        const int occ = bsym_cuda_ldlt_systems_per_sm(prec<T>::letter, P.n, m.group);
        r.note += (r.note.empty() ? "" : "; ") + std::to_string(occ) + " systems/SM";
    }
    if (!v.ok())
        r.note += (r.note.empty() ? "" : "; ") + v.why;
    if (!v.ok()) {
        std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, m.name.c_str(),
                     v.why.c_str());
    }
    return r;
}

// Bound rows: the full-A bound and, for information, the triangle bound.
std::vector<row> bound_rows(const char *precision, int n, long long batch, size_t elem, double bandwidth)
{
    const double full = bandwidth / (double(n) * n + 2.0 * n) / double(elem);
    const double tri = bandwidth / (double(n) * (n + 1) / 2 + 2.0 * n) / double(elem);
    row a, b;
    a.precision = b.precision = precision;
    a.n = b.n = n;
    a.batch = b.batch = batch;
    a.check = b.check = "-";
    a.method = "bound: A+b+x";
    a.rate = full;
    a.ratio = 1;
    a.note = "copy bandwidth / ((n^2+2n)*" + std::to_string(elem) + " B)";
    b.method = "bound: tri(A)+b+x";
    b.rate = tri;
    b.ratio = tri / full;
    b.note = "only the referenced triangle of A read";
    return {a, b};
}

template <typename T> void run_config(int n, bench_env &env, report &rep)
{
    const options &o = env.o;
    const long long batch = o.batch > 0 ? o.batch : default_batch(n);
    const std::vector<row> bounds = bound_rows(prec<T>::name, n, batch, sizeof(T), env.bandwidth);

    // Two working copies when they fit the budget (and free memory, leaving
    // 2 GB for the vendor libraries' workspace), else one, else skip.
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    const double budget = std::min(o.mem_gb * 1e9, double(free_b) - 2e9);
    int ncopies = 2;
    while (ncopies > 0 && double(bytes_needed(n, batch, sizeof(T), ncopies)) > budget)
        ncopies--;
    if (ncopies == 0 || batch > 0x7fffffffLL) {
        row r = bounds[0];
        r.method = "all";
        r.rate = r.ratio = NAN;
        r.check = "SKIP";
        r.note = batch > 0x7fffffffLL ? "batch above 2^31-1 (the vendor API takes an int)"
                                      : "needs " + fmt("%.1f", bytes_needed(n, batch, sizeof(T), 1) / 1e9) +
                                            " GB, budget " + fmt("%.1f", budget / 1e9) + " GB";
        print_row(r);
        rep.rows.push_back(r);
        return;
    }

    problem<T> P(n, batch, ncopies, env.s);
    std::vector<method> methods = make_methods(P, env.h, o, env.s);
    const size_t first = rep.rows.size();
    for (const method &m : methods) {
        row r = run_method(P, m, env, bounds[0].rate);
        if (r.check == "FAIL")
            (m.family == "ours" ? rep.ours_failed : rep.vendor_failed) = true;
        print_row(r);
        rep.rows.push_back(r);
    }
    // Mark the fastest explicit group size of ours (the n* choice).
    size_t best = rep.rows.size();
    for (size_t i = first; i < rep.rows.size(); i++) {
        const row &r = rep.rows[i];
        if (r.method.rfind("ours G=", 0) == 0 && r.method != "ours G=0" && r.check == "ok" &&
            (best == rep.rows.size() || r.rate > rep.rows[best].rate))
            best = i;
    }
    if (best < rep.rows.size()) {
        std::string &note = rep.rows[best].note;
        note = "fastest ours" + std::string(note.empty() ? "" : "; ") + note;
    }
    for (const row &b : bounds) {
        print_row(b);
        rep.rows.push_back(b);
    }
    if (ncopies < 2) // say so on every row of this configuration
        for (size_t i = first; i < rep.rows.size(); i++)
            rep.rows[i].note += std::string(rep.rows[i].note.empty() ? "" : "; ") + "1 working copy (memory budget)";
}

// ---- main ----------------------------------------------------------------------

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

std::vector<std::string> describe(const options &o, const cudaDeviceProp &p, const handles &h, double bandwidth,
                                  size_t bw_bytes, size_t flush_bytes)
{
    int driver = 0, runtime = 0, blas = 0, solver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cublasGetVersion(h.blas, &blas));
    CHECK(cusolverGetVersion(&solver));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    std::string ns, ps, ms;
    for (int n : o.ns)
        ns += (ns.empty() ? "" : ",") + std::to_string(n);
    for (char c : o.precisions)
        ps += (ps.empty() ? "" : ",") + std::string(1, c);
    for (const std::string &m : o.methods)
        ms += (ms.empty() ? "" : ",") + m;
    char gpu[512];
    std::snprintf(gpu, sizeof gpu, "%s (compute capability %d.%d, %d SMs, %.1f GB, L2 %.0f MB)", p.name, p.major,
                  p.minor, p.multiProcessorCount, p.totalGlobalMem / 1e9, p.l2CacheSize / 1e6);
    return {
        "date: " + utc_now(),
        "host: " + std::string(host),
        "GPU: " + std::string(gpu),
        "CUDA driver " + version_string(driver) + ", runtime " + version_string(runtime) + ", cuBLAS " +
            std::to_string(blas) + ", cuSOLVER " + std::to_string(solver),
        "command: `" + o.command + "`",
        "sizes n = " + ns + "; precisions " + ps + "; methods " + ms + "; uplo " + std::string(1, o.uplo) +
            "; batch " + (o.batch > 0 ? std::to_string(o.batch) : std::string("1e6 for n <= 32, 262144 above")),
        "timing: median of " + std::to_string(o.reps) + " repeats (CUDA events around the solve calls only), after " +
            "1 validation run and " + std::to_string(o.warmup) +
            " warm-up run(s); B (and A for in-place factorisations) restored by a device copy and L2 flushed by " +
            "reading " + fmt("%.0f", flush_bytes / 1e6) + " MB before each repeat, outside the timed region; " +
            "repeats alternate between 2 working copies where memory allows",
        "bandwidth: " + fmt("%.1f", bandwidth / 1e9) + " GB/s, device-to-device cudaMemcpy of " +
            fmt("%.0f", bw_bytes / 1e6) + " MB counted as bytes read + bytes written (median of 10)",
        "bound = bandwidth / ((n^2 + 2n) * sizeof(T)) systems/s; ratio to bound = systems/s / bound",
        "validation: info all 0, x finite, max backward error ||b-Ax||/(||A|| ||x||+||b||) (inf-norms) over " +
            std::to_string(o.sample) + " sampled systems + the last <= 100 n eps; checked before timing and on " +
            "the last timed repeat's output",
        "spread = (max - min) / median over the repeats",
    };
}

} // namespace

int main(int argc, char **argv)
{
    const options o = parse_options(argc, argv);

    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaSetDevice(0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s)); // blocking: plain cudaMemcpy calls order after it
    handles h;
    CHECK(cublasCreate(&h.blas));
    CHECK(cublasSetStream(h.blas, s));
    CHECK(cusolverDnCreate(&h.solver));
    CHECK(cusolverDnSetStream(h.solver, s));

    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t bw_bytes = std::min<size_t>(size_t(2) << 30, free_b / 4);
    const double bandwidth = measure_bandwidth(bw_bytes, s);

    report rep;
    {
        l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
        rep.header = describe(o, prop, h, bandwidth, bw_bytes, flush.buf.bytes());
        std::printf("bench_ldlt\n");
        for (const std::string &line : rep.header)
            std::printf("  %s\n", line.c_str());
        std::printf("\n");
        print_columns();
        bench_env env{o, h, flush, s, bandwidth};
        for (char p : o.precisions)
            for (int n : o.ns) {
                if (p == 's')
                    run_config<float>(n, env, rep);
                else
                    run_config<double>(n, env, rep);
                write_outputs(rep, o.out);
            }
    }

    std::printf("\nn* tuning (fastest threads per system G of ours; G=0 is the tuned default):\n");
    for (const std::vector<std::string> &t : tuning_table(rep.rows))
        std::printf("  %-6s n = %-3s groups %-10s fastest G = %-3s %11s systems/s; G=0: %11s (%s of fastest)\n",
                    t[0].c_str(), t[1].c_str(), t[2].c_str(), t[3].c_str(), t[4].c_str(), t[5].c_str(),
                    t[6].c_str());
    if (!o.out.empty())
        std::printf("\nwrote %s and %s\n", o.out.c_str(), csv_path(o.out).c_str());

    CHECK(cusolverDnDestroy(h.solver));
    CHECK(cublasDestroy(h.blas));
    CHECK(cudaStreamDestroy(s));
    if (rep.ours_failed) {
        std::fprintf(stderr, "\n*** FAIL: our LDL^T kernel failed validation (see the check column) ***\n");
        return 1;
    }
    if (rep.vendor_failed) {
        std::fprintf(stderr, "\n*** FAIL: a vendor routine failed validation (see the check column) ***\n");
        return 3;
    }
    return 0;
}
