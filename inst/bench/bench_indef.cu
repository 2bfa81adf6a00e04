// bench_indef.cu -- device-resident benchmark of the GPU's indefinite and
// Hermitian solves (issue 14): Bunch-Kaufman and Aasen in s, d, c, z and
// LDL^H without pivoting (c, z; the real LDL^T kernel of bench_ldlt for s, d), one
// right-hand side, beside the vendor's batched routines and the bandwidth
// bound, measured in the same run.
//
// For each type and n (default 8, 16, 32, 64; batch 1e5) two problems,
// generated on the device:
//   indefinite  Hermitian, entries' parts uniform in [-1, 1) (diagonal real):
//               Bunch-Kaufman pivots (1x1 and 2x2 blocks, interchanges);
//   definite    the same off-diagonal, diagonal 1 + the row's sum of |a_ij|
//               (diagonally dominant: Hermitian positive definite).
// Methods:
//   ours bunch-kaufman   bsym_cuda_indef_launch_{s,d,c,z}, BUNCH_KAUFMAN
//   ours aasen           bsym_cuda_indef_launch_{s,d,c,z}, AASEN (both problems)
//   ours ldlt            complex: bsym_cuda_indef_launch_{c,z}, LDLT (LDL^H);
//                        real: bsym_cuda_ldlt_launch_{s,d} (group 0)
//   ours tridiag, auto, eigen   complex only (issue 16; the real ones are
//                        bench_tridiag's and bench_auto's):
//                        bsym_cuda_strategy_launch_{c,z} with start TRIDIAG
//                        unchecked (the Householder solve x = Q T^-1 Q^H b),
//                        start LDLT checked (method AUTO: the certified
//                        LDL^H, then Householder, then the truncated
//                        spectrum for what is left; the share that reached
//                        the last is printed), start EIGEN (the truncated
//                        spectrum, default rcond); both problems
//   cublas getrf+getrs   cublas{S,D,C,Z}getrfBatched + getrsBatched (LU with
//                        partial pivoting of the full matrix; both problems)
//   cusolver potrf+potrs cusolverDn{S,D,C,Z}potrfBatched + potrsBatched
//                        (definite problem only)
//   bound                measured copy bandwidth / (A's n^2 + b's n + x's n
//                        elements): the bytes a solve must move
// Timing: CUDA events around the solve calls only, median of --reps repeats
// after a validation run and a warm-up; before every repeat, untimed, the
// working copies of A (for the vendor's in-place factorizations) and b are
// restored by device copies and L2 is flushed (bench_common.cuh).
// Validation: info all 0 and the backward error ||b - A x|| / (||A|| ||x|| +
// ||b||) (inf-norms, in double on the host) <= 100 n eps on --sample systems
// spread over the batch plus the last one; checked on the validation run and
// on the last timed repeat.
//
// Usage: bench_indef [--types s,d,c,z] [--n 8,16,32,64] [--batch 1e5]
//                    [--reps 10] [--sample 64] [--methods LIST] [--out FILE.md]
// --methods: only the methods whose name contains one of LIST's words (e.g.
// auto,potrf: ours auto and cusolver potrf+potrs).
#define BENCH_NAME "bench_indef"
#include "bench_common.cuh"

#include <cuComplex.h>

#include <complex>
#include <map>
#include <type_traits>

namespace {

void usage(FILE *f)
{
    std::fprintf(f, "usage: bench_indef [--types s,d,c,z] [--n 8,16,32,64] [--batch 1e5] [--reps 10] "
                    "[--sample 64] [--methods auto,potrf] [--out FILE.md]\n");
}

// ---- the element types: R real, C complex (cuComplex layout) ----------------
template <typename R, bool C> struct ty {
    typedef R real;
    typedef typename std::conditional<C, typename std::conditional<std::is_same<R, float>::value, cuFloatComplex,
                                                                      cuDoubleComplex>::type,
                                      R>::type E;
    static constexpr int parts = C ? 2 : 1;
    static constexpr double eps = std::is_same<R, float>::value ? FLT_EPSILON : DBL_EPSILON;
    static const char *name() { return C ? (sizeof(R) == 4 ? "complex single" : "complex double") : (sizeof(R) == 4 ? "single" : "double"); }
    static char letter() { return C ? (sizeof(R) == 4 ? 'c' : 'z') : (sizeof(R) == 4 ? 's' : 'd'); }
};

// The vendor's batched routines, one overload per element type.
cublasStatus_t getrf(cublasHandle_t h, int n, float **A, int *P, int *info, int b) { return cublasSgetrfBatched(h, n, A, n, P, info, b); }
cublasStatus_t getrf(cublasHandle_t h, int n, double **A, int *P, int *info, int b) { return cublasDgetrfBatched(h, n, A, n, P, info, b); }
cublasStatus_t getrf(cublasHandle_t h, int n, cuFloatComplex **A, int *P, int *info, int b) { return cublasCgetrfBatched(h, n, A, n, P, info, b); }
cublasStatus_t getrf(cublasHandle_t h, int n, cuDoubleComplex **A, int *P, int *info, int b) { return cublasZgetrfBatched(h, n, A, n, P, info, b); }
template <typename E>
cublasStatus_t getrs(cublasHandle_t h, int n, E **A, const int *P, E **B, int *info, int b);
template <> cublasStatus_t getrs(cublasHandle_t h, int n, float **A, const int *P, float **B, int *info, int b) { return cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, P, B, n, info, b); }
template <> cublasStatus_t getrs(cublasHandle_t h, int n, double **A, const int *P, double **B, int *info, int b) { return cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, P, B, n, info, b); }
template <> cublasStatus_t getrs(cublasHandle_t h, int n, cuFloatComplex **A, const int *P, cuFloatComplex **B, int *info, int b) { return cublasCgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, P, B, n, info, b); }
template <> cublasStatus_t getrs(cublasHandle_t h, int n, cuDoubleComplex **A, const int *P, cuDoubleComplex **B, int *info, int b) { return cublasZgetrsBatched(h, CUBLAS_OP_N, n, 1, A, n, P, B, n, info, b); }
cusolverStatus_t potrf(cusolverDnHandle_t h, int n, float **A, int *info, int b) { return cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, info, b); }
cusolverStatus_t potrf(cusolverDnHandle_t h, int n, double **A, int *info, int b) { return cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, info, b); }
cusolverStatus_t potrf(cusolverDnHandle_t h, int n, cuFloatComplex **A, int *info, int b) { return cusolverDnCpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, info, b); }
cusolverStatus_t potrf(cusolverDnHandle_t h, int n, cuDoubleComplex **A, int *info, int b) { return cusolverDnZpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, info, b); }
cusolverStatus_t potrs(cusolverDnHandle_t h, int n, float **A, float **B, int *info, int b) { return cusolverDnSpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info, b); }
cusolverStatus_t potrs(cusolverDnHandle_t h, int n, double **A, double **B, int *info, int b) { return cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info, b); }
cusolverStatus_t potrs(cusolverDnHandle_t h, int n, cuFloatComplex **A, cuFloatComplex **B, int *info, int b) { return cusolverDnCpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info, b); }
cusolverStatus_t potrs(cusolverDnHandle_t h, int n, cuDoubleComplex **A, cuDoubleComplex **B, int *info, int b) { return cusolverDnZpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info, b); }

// ours
bsym_status ours_indef(char t, int method, int n, long long batch, const void *A, void *B, int *info, cudaStream_t s)
{
    switch (t) {
    case 's': return bsym_cuda_indef_launch_s(method, 'L', n, 1, batch, A, B, info, s);
    case 'd': return bsym_cuda_indef_launch_d(method, 'L', n, 1, batch, A, B, info, s);
    case 'c': return bsym_cuda_indef_launch_c(method, 'L', n, 1, batch, A, B, info, s);
    default: return bsym_cuda_indef_launch_z(method, 'L', n, 1, batch, A, B, info, s);
    }
}

// ---- inputs: R parts, `parts` per element, on the device --------------------
// Entry (i, j) of system sys, part q: the pair's value (i > j), its conjugate
// (i < j), the diagonal real: uniform in [-1, 1) (indefinite), or 1 + the
// row's sum of |a_ij| (definite).
template <typename R>
__global__ void fill_hermitian(R *A, int n, int parts, long long batch, bool definite, uint64_t seed)
{
    const long long nn = (long long)n * n, total = nn * batch * parts;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const int q = int(idx % parts);
        const long long e = idx / parts, sys = e / nn;
        const int rem = int(e - sys * nn), j = rem / n, i = rem % n;
        double v = 0;
        if (i != j) {
            v = offdiag(seed + 7919 * uint64_t(q), sys, i, j);
            if (q == 1 && i < j)
                v = -v;
        } else if (q == 0) {
            if (definite) {
                for (int k = 0; k < n; k++)
                    if (k != i) {
                        const double a = offdiag(seed, sys, i, k), b = parts == 2 ? offdiag(seed + 7919, sys, i, k) : 0;
                        v += sqrt(a * a + b * b);
                    }
                v += 1;
            } else {
                v = uniform_pm1(seed ^ 0x5bd1e995ULL ^ (uint64_t(sys) << 16) ^ uint64_t(i));
            }
        }
        A[idx] = R(v);
    }
}

template <typename E> __global__ void pointers(E **ptr, E *base, long long batch, long long stride)
{
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < batch; k += (long long)gridDim.x * blockDim.x)
        ptr[k] = base + k * stride;
}

// Backward error of system k (inf-norms, in double): A full n x n, parts
// interleaved.
template <typename R>
double berr(const std::vector<R> &A, const std::vector<R> &b, const std::vector<R> &x, int n, int parts)
{
    typedef std::complex<double> Z;
    auto at = [&](const std::vector<R> &v, size_t e) { return parts == 2 ? Z(v[2 * e], v[2 * e + 1]) : Z(v[e], 0); };
    double na = 0, nx = 0, nb = 0, nr = 0;
    for (int i = 0; i < n; i++) {
        double row = 0;
        Z r = at(b, i);
        for (int j = 0; j < n; j++) {
            row += std::abs(at(A, i + size_t(j) * n));
            r -= at(A, i + size_t(j) * n) * at(x, j);
        }
        na = std::max(na, row);
        nx = std::max(nx, std::abs(at(x, i)));
        nb = std::max(nb, std::abs(at(b, i)));
        nr = std::max(nr, std::abs(r));
    }
    if (!std::isfinite(nr) || !std::isfinite(nx))
        return INFINITY;
    return nr / (na * nx + nb);
}

struct opts {
    std::vector<char> types{'s', 'd', 'c', 'z'};
    std::vector<int> ns{8, 16, 32, 64};
    long long batch = 100000;
    int reps = 10, sample = 64;
    std::string out;
    std::vector<std::string> methods; // empty: all; else the methods whose name contains one of these
    bool wanted(const std::string &name) const
    {
        for (const std::string &m : methods)
            if (name.find(m) != std::string::npos)
                return true;
        return methods.empty();
    }
};

struct result {
    std::string type, problem, method, check;
    int n = 0;
    long long batch = 0;
    double ms = NAN, rate = NAN, bound = NAN, worst = NAN;
};

// One type and n: both problems, every method; results appended to rows.
template <typename R, bool C>
void run_config(const opts &o, int n, double bw, l2_flusher &flush, cublasHandle_t cb, cusolverDnHandle_t cs,
                cudaStream_t s, std::vector<result> &rows)
{
    typedef ty<R, C> Y;
    typedef typename Y::E E;
    const int parts = Y::parts;
    const long long batch = o.batch, nn = (long long)n * n;
    const size_t na = size_t(nn * batch * parts), nb = size_t(n * batch * parts), nbatch = size_t(batch);
    dev_array<R> A0(na), Aw(na), B0(nb), Bw(nb);
    dev_array<int> info(nbatch), piv(nbatch * size_t(n)), rank(nbatch), used(nbatch);
    // the complex strategy's scratch (every start's arrays)
    dev_array<unsigned char> work(C ? bsym_cuda_strategy_workspace(Y::letter(), n, 1, batch) : 1);
    dev_array<E *> pa(nbatch), pb(nbatch);
    pointers<<<grid_for(batch, 256), 256, 0, s>>>(pa.p, reinterpret_cast<E *>(Aw.p), batch, nn);
    pointers<<<grid_for(batch, 256), 256, 0, s>>>(pb.p, reinterpret_cast<E *>(Bw.p), batch, n);
    fill_uniform<<<grid_for(n * batch * parts, 256), 256, 0, s>>>(B0.p, n * batch * parts, 12345);
    CHECK(cudaGetLastError());
    const double bound = bw / (double(nn + 2 * n) * sizeof(R) * parts);
    for (int definite = 0; definite < 2; definite++) {
        fill_hermitian<R><<<grid_for(nn * batch * parts, 256), 256, 0, s>>>(A0.p, n, parts, batch, definite != 0,
                                                                            0x1234 + uint64_t(n));
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(s));
        struct method {
            std::string name;
            bool in_place; // writes A
            std::function<std::string()> solve;
        };
        std::vector<method> ms;
        auto ours = [&](int m) {
            return [&, m]() -> std::string {
                const bsym_status st = ours_indef(Y::letter(), m, n, batch, Aw.p, Bw.p, info.p, s);
                return st == BSYM_OK ? "" : "status " + std::to_string(int(st));
            };
        };
        ms.push_back({"ours bunch-kaufman", false, ours(BSYM_METHOD_BUNCH_KAUFMAN)});
        ms.push_back({"ours aasen", false, ours(BSYM_METHOD_AASEN)});
        bsym__strategy_stats kept{0, 0, 0}; // the last run's (auto)
        auto strategy = [&](int start, int check) {
            return [&, start, check]() -> std::string {
                // the library's defaults: rcond 1e-5, tol 16 n u
                const bsym__strategy job{'L', n, 1, bsym_method(start), check, BSYM_RCOND_DEFAULT,
                                         16.0 * n * Y::eps / 2, 0};
                kept = bsym__strategy_stats{0, 0, 0};
                const bsym_status st =
                    sizeof(R) == 4 ? bsym_cuda_strategy_launch_c(&job, batch, Aw.p, Bw.p, info.p, rank.p, used.p,
                                                                 work.p, &kept, s)
                                   : bsym_cuda_strategy_launch_z(&job, batch, Aw.p, Bw.p, info.p, rank.p, used.p,
                                                                 work.p, &kept, s);
                return st == BSYM_OK ? "" : "status " + std::to_string(int(st));
            };
        };
        if (C) {
            ms.push_back({"ours tridiag", false, strategy(BSYM_METHOD_TRIDIAG, 0)});
            ms.push_back({"ours auto", false, strategy(BSYM_METHOD_LDLT, 1)});
            ms.push_back({"ours eigen", false, strategy(BSYM_METHOD_EIGEN, 0)});
        }
        if (definite) {
            if (C)
                ms.push_back({"ours ldlt (LDL^H)", false, ours(BSYM_METHOD_LDLT)});
            else
                ms.push_back({"ours ldlt (LDL^T kernel)", false, [&]() -> std::string {
                                  const bsym_status st =
                                      sizeof(R) == 4 ? bsym_cuda_ldlt_launch_s('L', n, 1, batch, (const float *)Aw.p,
                                                                               (float *)Bw.p, info.p, 0, s)
                                                     : bsym_cuda_ldlt_launch_d('L', n, 1, batch, (const double *)Aw.p,
                                                                               (double *)Bw.p, info.p, 0, s);
                                  return st == BSYM_OK ? "" : "status " + std::to_string(int(st));
                              }});
            ms.push_back({"cusolver potrf+potrs", true, [&]() -> std::string {
                              CHECK(potrf(cs, n, pa.p, info.p, int(batch)));
                              CHECK(potrs(cs, n, pa.p, pb.p, info.p, int(batch)));
                              return "";
                          }});
        }
        int host_info = 0;
        ms.push_back({"cublas getrf+getrs", true, [&]() -> std::string {
                          CHECK(getrf(cb, n, pa.p, piv.p, info.p, int(batch)));
                          CHECK(getrs(cb, n, pa.p, piv.p, pb.p, &host_info, int(batch)));
                          return "";
                      }});
        for (const method &m : ms) {
            if (!o.wanted(m.name))
                continue;
            result r;
            r.type = Y::name();
            r.problem = definite ? "definite" : "indefinite";
            r.method = m.name;
            r.n = n;
            r.batch = batch;
            r.bound = bound;
            g_activity = std::string(Y::name()) + ", n = " + std::to_string(n) + ", " + r.problem + ": " + m.name;
            auto prep = [&](int) {
                CHECK(cudaMemcpyAsync(Aw.p, A0.p, A0.bytes(), cudaMemcpyDeviceToDevice, s));
                CHECK(cudaMemcpyAsync(Bw.p, B0.p, B0.bytes(), cudaMemcpyDeviceToDevice, s));
                CHECK(cudaMemsetAsync(info.p, 0x7f, info.bytes(), s));
            };
            // validation: info, then the backward error of sampled systems
            auto validate = [&]() -> std::string {
                CHECK(cudaStreamSynchronize(s));
                std::vector<int> hi(nbatch);
                CHECK(cudaMemcpy(hi.data(), info.p, info.bytes(), cudaMemcpyDeviceToHost));
                long long bad = 0;
                for (int v : hi)
                    bad += v != 0;
                if (bad > 0)
                    return std::to_string(bad) + " systems with info != 0";
                if (host_info != 0)
                    return "getrs info " + std::to_string(host_info);
                double worst = 0;
                for (int q = 0; q <= o.sample; q++) {
                    const long long k = q == o.sample ? batch - 1 : (long long)q * batch / std::max(o.sample, 1);
                    std::vector<R> a(size_t(nn * parts)), b(size_t(n * parts)), x(size_t(n * parts));
                    CHECK(cudaMemcpy(a.data(), A0.p + k * nn * parts, a.size() * sizeof(R), cudaMemcpyDeviceToHost));
                    CHECK(cudaMemcpy(b.data(), B0.p + k * n * parts, b.size() * sizeof(R), cudaMemcpyDeviceToHost));
                    CHECK(cudaMemcpy(x.data(), Bw.p + k * n * parts, x.size() * sizeof(R), cudaMemcpyDeviceToHost));
                    worst = std::max(worst, berr(a, b, x, n, parts));
                }
                r.worst = worst / (n * Y::eps);
                return r.worst <= 100 ? "" : "backward error " + fmt("%.3g", r.worst) + " n eps > 100";
            };
            prep(0);
            std::string why = m.solve();
            if (why.empty())
                why = validate();
            if (why.empty()) {
                prep(0);
                m.solve(); // warm-up
                const timing t = time_repeats(o.reps, prep, [&](int) { return m.solve(); }, flush, s);
                why = t.why.empty() ? validate() : t.why;
                r.ms = t.median_ms;
                r.rate = batch / (t.median_ms * 1e-3);
            }
            r.check = why.empty() ? "ok" : "FAIL: " + why;
            if (m.name == "ours auto" && why.empty()) // the share of the last run the truncated spectrum solved
                std::printf("  (auto: %.2f%% of the systems reached the eigensolver)\n", 100.0 * kept.fallback / batch);
            std::printf("%-15s n=%-3d %-10s %-26s %10.4f ms %11.4g systems/s  bound %.3g  berr %.3g n eps  %s\n",
                        r.type.c_str(), n, r.problem.c_str(), r.method.c_str(), r.ms, r.rate, r.bound, r.worst,
                        r.check.c_str());
            std::fflush(stdout);
            rows.push_back(r);
        }
    }
    g_activity.clear();
}

void write_report(const opts &o, const std::string &header, const std::vector<result> &rows)
{
    if (o.out.empty())
        return;
    FILE *f = std::fopen(o.out.c_str(), "w");
    if (f == nullptr)
        return;
    std::fputs(header.c_str(), f);
    // the ratios of issue 14 (seed paper: no pivoting 3-5x Bunch-Kaufman)
    std::map<std::string, double> rate;
    for (const result &r : rows)
        rate[r.type + "|" + std::to_string(r.n) + "|" + r.problem + "|" + r.method] = r.rate;
    std::fprintf(f, "\n## Ratios (systems/s against systems/s, same run)\n\n");
    std::fprintf(f, "| type | n | BK / getrf+getrs (indefinite) | ldlt / BK (definite) | ldlt / potrf+potrs (definite) | "
                    "Aasen / BK (indefinite) | Aasen / BK (definite) |\n|---|---|---|---|---|---|---|\n");
    for (const result &r : rows) {
        if (r.problem != "indefinite" || r.method != "ours bunch-kaufman")
            continue;
        const std::string key = r.type + "|" + std::to_string(r.n) + "|";
        const double bk = r.rate, lu = rate[key + "indefinite|cublas getrf+getrs"],
                     ld = std::max(rate[key + "definite|ours ldlt (LDL^H)"], rate[key + "definite|ours ldlt (LDL^T kernel)"]),
                     bkd = rate[key + "definite|ours bunch-kaufman"], po = rate[key + "definite|cusolver potrf+potrs"],
                     aa = rate[key + "indefinite|ours aasen"], aad = rate[key + "definite|ours aasen"];
        std::fprintf(f, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", r.type.c_str(), r.n, bk / lu, ld / bkd,
                     ld / po, aa / bk, aad / bkd);
    }
    std::fprintf(f, "\n## Systems per second\n\n| type | n | batch | problem | method | median ms | systems/s | bound systems/s | %% of bound | worst backward error / (n eps) | check |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const result &r : rows)
        std::fprintf(f, "| %s | %d | %lld | %s | %s | %.4f | %.4g | %.4g | %.1f%% | %.3g | %s |\n", r.type.c_str(), r.n,
                     r.batch, r.problem.c_str(), r.method.c_str(), r.ms, r.rate, r.bound, 100 * r.rate / r.bound,
                     r.worst, r.check.c_str());
    std::fclose(f);
}

} // namespace

int main(int argc, char **argv)
{
    opts o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                bad_option(a + " needs a value");
            return argv[++i];
        };
        if (a == "--types") {
            o.types.clear();
            for (const std::string &t : split(next()))
                o.types.push_back(t[0]);
        } else if (a == "--n") {
            o.ns.clear();
            for (const std::string &t : split(next()))
                o.ns.push_back(int(parse_count(t, "--n")));
        } else if (a == "--batch") {
            o.batch = parse_count(next(), "--batch");
        } else if (a == "--reps") {
            o.reps = int(parse_count(next(), "--reps"));
        } else if (a == "--sample") {
            o.sample = int(parse_count(next(), "--sample"));
        } else if (a == "--out") {
            o.out = next();
        } else if (a == "--methods") {
            o.methods = split(next());
        } else if (a == "--help") {
            usage(stdout);
            return 0;
        } else {
            bad_option("unknown option " + a);
        }
    }
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cublasHandle_t cb;
    cusolverDnHandle_t cs;
    CHECK(cublasCreate(&cb));
    CHECK(cublasSetStream(cb, s));
    CHECK(cusolverDnCreate(&cs));
    CHECK(cusolverDnSetStream(cs, s));
    l2_flusher flush(size_t(p.l2CacheSize), p.multiProcessorCount);
    const double bw = measure_bandwidth(size_t(1) << 31, s);
    std::string cmd;
    for (int i = 0; i < argc; i++)
        cmd += (i ? " " : "") + std::string(argv[i]);
    const std::string header = "# bench_indef: Bunch-Kaufman, Aasen and LDL^H on the GPU (issue 14), device-resident\n\n- date: " +
                               utc_now() + "\n- GPU: " + gpu_description(p) + "\n- command: `" + cmd +
                               "`\n- bandwidth: " + fmt("%.1f", bw / 1e9) +
                               " GB/s (device-to-device copy, bytes read + written); bound = bandwidth / (n^2 + 2n elements)\n"
                               "- timing: median of " + std::to_string(o.reps) +
                               " repeats, CUDA events around the solve calls only; A and b restored and L2 flushed before each, untimed\n"
                               "- validation: info all 0, backward error <= 100 n eps on " + std::to_string(o.sample) +
                               " sampled systems + the last, on the validation run and the last repeat\n";
    std::printf("%s\n", header.c_str());
    std::vector<result> rows;
    bool ours_failed = false, vendor_failed = false;
    for (char t : o.types)
        for (int n : o.ns) {
            const size_t before = rows.size();
            if (t == 's')
                run_config<float, false>(o, n, bw, flush, cb, cs, s, rows);
            else if (t == 'd')
                run_config<double, false>(o, n, bw, flush, cb, cs, s, rows);
            else if (t == 'c')
                run_config<float, true>(o, n, bw, flush, cb, cs, s, rows);
            else
                run_config<double, true>(o, n, bw, flush, cb, cs, s, rows);
            for (size_t i = before; i < rows.size(); i++)
                if (rows[i].check != "ok")
                    (rows[i].method.rfind("ours", 0) == 0 ? ours_failed : vendor_failed) = true;
            write_report(o, header, rows);
        }
    CHECK(cublasDestroy(cb));
    CHECK(cusolverDnDestroy(cs));
    return bench_end(14, {}, o.out, ours_failed, "ours", vendor_failed, "a vendor routine");
}
