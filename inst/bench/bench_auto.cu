// bench_auto.cu -- device-resident throughput of the automatic strategy
// (issue 5): bsym_*solvex with method AUTO on batches where 0 %, 1 %, 10 %
// and 100 % of the systems are ill-conditioned, for each start a plan can
// choose (LDLT: the default, no history included; TRIDIAG: most systems seen
// were indefinite; EIGEN: most needed the truncated spectrum), beside the cheap solves alone and the
// vendor's batched routines in the same run:
//   ours auto (start ...)     bsym_cuda_strategy_launch_{s,d}
//   ours tridiag / ours ldlt  bsym_cuda_hhsolve_launch / bsym_cuda_ldlt_launch
//                             (no checks: the lower bound of the strategy)
//   cusolver potrf+potrs      cusolverDn{S,D}potrfBatched + potrsBatched
//                             (Cholesky, no checks, wrong on the ill ones)
//   cusolver syevjBatched     the eigendecomposition alone (n <= 32), without
//                             forming the truncated solution: a lower bound of
//                             a vendor truncated-spectrum solve
// `ours auto (start ldlt)` is the default start (issue 12): the certified
// LDL^T, then Householder and the truncated spectrum for the systems it does
// not certify; the row of `ours ldlt alone` gives its throughput as a
// fraction of LDL^T's. The rows `ours certifying ldlt (MODE)` time the
// certifying kernel of that start alone (bsym_cuda_ldlt_cert_launch: the
// tuned mode, and each mode built for n) and say which share of the systems
// it certified, and how many of those by the certificate's cheap form
// (strategy_cert_cheap_: min D > sigma ||M(L)^-1 e|| ||M(L)^-T e||, no
// second factorization).
// Inputs: well-conditioned systems as bench_common's fill_spd (strictly
// diagonally dominant, eigenvalues in [1, 2n - 1], L with small entries: the
// cheap form certifies them); ill-conditioned ones made from such a W by
// ill_apply (one eigenvalue 1e-9, the others in [1, 2n - 1]). With --gram 1
// also, per n, a batch that is SPD and well-conditioned but not diagonally
// dominant, A = M^T M + I (M uniform in [-1, 1), eigenvalues in [1, about
// 4n/3 + 1]), whose L has larger entries: there the cheap form mostly fails
// and the shifted factorization decides (the ill column reads "M'M+I"). One
// right-hand side.
// Validation of every ours-auto run: each ill system solved by EIGEN with rank
// n - 1, each other one by the start path at full rank, info 0 everywhere,
// and the backward error of 64 sampled systems below the strategy's tol.
// The memory bound: A read once, b read and x written (bytes / the measured
// device copy bandwidth).
//
//   bench_auto [--n 16,32,64] [--batch 100000] [--reps 7] [--prec s,d]
//              [--ill 0,1,10,100] [--starts tridiag,ldlt,eigen] [--vendor 1]
//              [--gram 0] [--out FILE.md]
// --starts: the starts of the ours-auto rows; --vendor 0: no cuSOLVER rows.
#define BENCH_NAME "bench_auto"
#include "bench_common.cuh"

namespace {

void usage(FILE *f)
{
    std::fprintf(f, "usage: bench_auto [--n 16,32,64] [--batch 100000] [--reps 7] [--prec s,d] "
                    "[--ill 0,1,10,100] [--starts tridiag,ldlt,eigen] [--vendor 1] [--gram 0] [--out FILE.md]\n");
}

// System k is ill-conditioned when its hash falls below pct percent.
__host__ __device__ inline bool is_ill(uint64_t seed, long long k, double pct)
{
    return double(mix64(seed ^ 0xabcdefULL ^ uint64_t(k)) >> 11) * 0x1.0p-53 * 100.0 < pct;
}

// Ill-conditioned systems: A = P W P + 1e-9 u u^T, W as fill_spd (its
// eigenvalues in [1, 2n - 1]), u = (1, ..., 1) / sqrt(n), P = I - u u^T: one
// eigenvalue 1e-9 (direction u), the others those of W compressed to u's
// complement, hence in [1, 2n - 1] too. r = W u per row, then the entries.
template <typename T> __global__ void ill_rows(const T *A, int n, long long batch, uint64_t seed, double pct, double *r)
{
    const long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (idx >= (long long)n * batch)
        return;
    const long long sys = idx / n;
    const int i = int(idx % n);
    if (!is_ill(seed, sys, pct))
        return;
    double s = 0;
    for (int j = 0; j < n; j++)
        s += double(A[sys * n * n + i + (long long)j * n]);
    r[idx] = s / sqrt(double(n));
}

template <typename T> __global__ void ill_apply(T *A, int n, long long batch, uint64_t seed, double pct, const double *r)
{
    const long long nn = (long long)n * n, total = nn * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long sys = idx / nn;
        if (!is_ill(seed, sys, pct))
            continue;
        const int rem = int(idx - sys * nn), j = rem / n, i = rem % n;
        const double u = 1 / sqrt(double(n));
        double uwu = 0;
        for (int q = 0; q < n; q++)
            uwu += u * r[sys * n + q];
        const double *rs = r + sys * n;
        A[idx] = T(double(A[idx]) - u * rs[j] - rs[i] * u + u * u * uwu + 1e-9 * u * u);
    }
}

template <typename T> void fill_mixed(T *A, int n, long long batch, uint64_t seed, double pct, double *r, cudaStream_t s)
{
    fill_spd<<<grid_for((long long)n * n * batch, 256), 256, 0, s>>>(A, n, batch, seed);
    ill_rows<<<grid_for((long long)n * batch, 256), 256, 0, s>>>(A, n, batch, seed, pct, r);
    ill_apply<<<grid_for((long long)n * n * batch, 256), 256, 0, s>>>(A, n, batch, seed, pct, r);
    CHECK(cudaGetLastError());
}

// A = M^T M + I per system, M (n x n, column-major) given in Mb: entry (i, j)
// is column i of M dotted with column j, in double (exactly symmetric).
template <typename T> __global__ void gram_apply(T *A, const T *Mb, int n, long long batch)
{
    const long long nn = (long long)n * n, total = nn * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long sys = idx / nn;
        const int rem = int(idx - sys * nn), j = rem / n, i = rem % n;
        const T *M = Mb + sys * nn;
        double v = i == j ? 1.0 : 0.0;
        for (int k = 0; k < n; k++)
            v += double(M[k + (long long)i * n]) * double(M[k + (long long)j * n]);
        A[idx] = T(v);
    }
}

// The M'M+I batch (see the header): M uniform in [-1, 1) into scratch Mb.
template <typename T> void fill_gram(T *A, T *Mb, int n, long long batch, uint64_t seed, cudaStream_t s)
{
    fill_uniform<<<grid_for((long long)n * n * batch, 256), 256, 0, s>>>(Mb, (long long)n * n * batch, seed);
    gram_apply<<<grid_for((long long)n * n * batch, 256), 256, 0, s>>>(A, Mb, n, batch);
    CHECK(cudaGetLastError());
}

// What bench_common's prec<T> (the LDL^T launch, potrf, potrs) does not
// have: the strategy, the Householder solve and syevjBatched, per precision.
template <typename T> struct auto_ops;
#define AUTO_OPS(P, TT, C)                                                                       \
    template <> struct auto_ops<TT> {                                                            \
        static bsym_status solvex(const bsym__strategy *j, long long b, const TT *A, TT *B, int *i, int *r, \
                                  int *u, void *w, bsym__strategy_stats *st, cudaStream_t s)             \
        {                                                                                        \
            return bsym_cuda_strategy_launch_##P(j, b, A, B, i, r, u, w, st, s);                  \
        }                                                                                        \
        static bsym_status hh(int n, long long b, const TT *A, TT *B, int *i, cudaStream_t s)  \
        {                                                                                        \
            return bsym_cuda_hhsolve_launch_##P('L', n, 1, b, A, B, i, nullptr, nullptr, s);    \
        }                                                                                        \
        static bsym_status cert(int n, long long b, const TT *A, TT *B, int *i, double rc, double tol, \
                                int *r, int *u, int *idx, int *cnt, unsigned long long *c2, int mode, \
                                cudaStream_t s)                                                  \
        {                                                                                        \
            return bsym_cuda_ldlt_cert_launch_##P('L', n, 1, b, A, B, i, rc, tol, r, u, idx, cnt, c2, mode, s); \
        }                                                                                        \
        static cusolverStatus_t syevj_buffer(cusolverDnHandle_t h, int n, const TT *A, const TT *w, int *lw, \
                                             syevjInfo_t p, int b)                               \
        {                                                                                        \
            return cusolverDn##C##syevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, \
                                                          n, A, n, w, lw, p, b);                 \
        }                                                                                        \
        static cusolverStatus_t syevj(cusolverDnHandle_t h, int n, TT *A, TT *w, TT *work, int lw, int *info, \
                                      syevjInfo_t p, int b)                                      \
        {                                                                                        \
            return cusolverDn##C##syevjBatched(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, A, n, w, \
                                               work, lw, info, p, b);                            \
        }                                                                                        \
    };
AUTO_OPS(s, float, S)
AUTO_OPS(d, double, D)

struct opts {
    std::vector<int> ns{16, 32, 64};
    long long batch = 100000;
    int reps = 7;
    std::vector<char> precs{'s', 'd'};
    std::vector<double> ills{0, 1, 10, 100};
    std::vector<bsym_method> starts{BSYM_METHOD_TRIDIAG, BSYM_METHOD_LDLT, BSYM_METHOD_EIGEN};
    bool vendor = true, gram = false;
    std::string out = "out/auto.md";
};

// The validation of an ours-auto run (see the header).
template <typename T>
std::string validate(const bsym__strategy &job, int n, long long batch, uint64_t seed, double pct, const T *dA,
                     const T *dB, const T *dX, const int *dinfo, const int *drank, const int *dused)
{
    const size_t nb = static_cast<size_t>(batch);
    std::vector<int> info(nb), rank(nb), used(nb);
    CHECK(cudaMemcpy(info.data(), dinfo, sizeof(int) * size_t(batch), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rank.data(), drank, sizeof(int) * size_t(batch), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(used.data(), dused, sizeof(int) * size_t(batch), cudaMemcpyDeviceToHost));
    long long wrong = 0, nill = 0;
    for (long long k = 0; k < batch; k++) {
        const bool ill = is_ill(seed, k, pct);
        nill += ill;
        const bool ok = info[size_t(k)] == 0 &&
                        (ill ? used[size_t(k)] == BSYM_METHOD_EIGEN && rank[size_t(k)] == n - 1
                             : used[size_t(k)] == (job.start == BSYM_METHOD_EIGEN ? BSYM_METHOD_EIGEN : int(job.start)) &&
                                   rank[size_t(k)] == n);
        wrong += !ok;
    }
    double worst = 0;
    const long long step = std::max<long long>(1, batch / 64);
    for (long long k = 0; k < batch; k += step) {
        if (is_ill(seed, k, pct))
            continue;
        std::vector<T> a(static_cast<size_t>(n) * n), b(static_cast<size_t>(n)), x(static_cast<size_t>(n));
        CHECK(cudaMemcpy(a.data(), dA + k * n * n, sizeof(T) * a.size(), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(b.data(), dB + k * n, sizeof(T) * b.size(), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(x.data(), dX + k * n, sizeof(T) * x.size(), cudaMemcpyDeviceToHost));
        worst = std::max(worst, backward_error(a.data(), b.data(), x.data(), n));
    }
    char s[200];
    std::snprintf(s, sizeof s, "%s: %lld ill, %lld wrong path/rank/info; worst backward error %.2g (tol %.2g)",
                  wrong == 0 && worst <= job.tol ? "ok" : "FAILED", nill, wrong, worst, job.tol);
    return s;
}

template <typename T>
void run_prec(const opts &o, double bw, l2_flusher &flush, cudaStream_t s, cusolverDnHandle_t h,
              std::vector<std::vector<std::string>> &body, bool &all_ok)
{
    const char *pname = sizeof(T) == 8 ? "double" : "single";
    const double eps = sizeof(T) == 8 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    for (int n : o.ns) {
        const long long batch = o.batch;
        dev_array<T> A(size_t(n) * n * batch), A2(size_t(n) * n * batch), B(size_t(n) * batch), X(size_t(n) * batch);
        dev_array<int> info(static_cast<size_t>(batch)), rank(static_cast<size_t>(batch)), used(static_cast<size_t>(batch));
        dev_array<unsigned char> work(bsym_cuda_strategy_workspace(sizeof(T) == 8 ? 'd' : 's', n, 1, batch));
        dev_array<T *> pa(static_cast<size_t>(batch)), pb(static_cast<size_t>(batch));
        dev_array<double> rows(size_t(n) * batch);
        dev_array<int> info1(1), cidx(static_cast<size_t>(batch)), ccounter(1);
        dev_array<unsigned long long> ccounts(2);
        fill_pointers<<<grid_for(batch, 256), 256, 0, s>>>(pa.p, A2.p, batch, (long long)n * n);
        fill_pointers<<<grid_for(batch, 256), 256, 0, s>>>(pb.p, X.p, batch, (long long)n);
        fill_uniform<<<grid_for(n * batch, 256), 256, 0, s>>>(B.p, n * batch, 7);
        CHECK(cudaGetLastError());
        const double bytes = double(batch) * (double(n) * n + 2.0 * n) * sizeof(T);
        const double bound = bw / bytes * double(batch); // systems/s
        // the batches: pct % ill-conditioned (diagonally dominant otherwise),
        // then with --gram the M'M+I one (pct -1 here; none ill)
        std::vector<double> cases = o.ills;
        if (o.gram)
            cases.push_back(-1);
        for (double kind : cases) {
            const bool gram = kind < 0;
            const double pct = gram ? 0 : kind;
            const uint64_t seed = 1234 + uint64_t(pct * 10) + (gram ? 777 : 0);
            if (gram)
                fill_gram(A.p, A2.p, n, batch, seed, s);
            else
                fill_mixed(A.p, n, batch, seed, pct, rows.p, s);
            CHECK(cudaStreamSynchronize(s));
            auto restore_x = [&](int) { CHECK(cudaMemcpyAsync(X.p, B.p, B.bytes(), cudaMemcpyDeviceToDevice, s)); };
            auto add = [&](const std::string &name, const timing &t, const std::string &valid) {
                char ill[32], ms[32], rate[32], frac[32];
                if (gram)
                    std::snprintf(ill, sizeof ill, "M'M+I");
                else
                    std::snprintf(ill, sizeof ill, "%g %%", pct);
                std::snprintf(ms, sizeof ms, "%.3f", t.median_ms);
                const double r = double(batch) / (t.median_ms * 1e-3);
                std::snprintf(rate, sizeof rate, "%.3g", r);
                std::snprintf(frac, sizeof frac, "%.1f %%", 100.0 * r / bound);
                body.push_back({pname, std::to_string(n), ill, name, t.why.empty() ? ms : t.why,
                                t.why.empty() ? rate : "-", t.why.empty() ? frac : "-", valid});
                std::printf("%s n=%d ill=%s %-34s %10s ms %10s/s  %s\n", pname, n, ill, name.c_str(), ms, rate,
                            valid.c_str());
                std::fflush(stdout);
            };
            // ours: the automatic strategy from each start a plan can choose
            double auto_ldlt_rate = 0; // systems/s of start LDLT, for its ratio to LDL^T alone
            for (bsym_method st : o.starts) {
                bsym__strategy job{'L', n, 1, st, 1, 1e-5, 16.0 * n * eps};
                timing t = time_repeats(o.reps, restore_x, [&](int) {
                    bsym_status e = auto_ops<T>::solvex(&job, batch, A.p, X.p, info.p, rank.p, used.p, work.p, nullptr, s);
                    return e == BSYM_OK ? std::string() : std::string("status ") + std::to_string(int(e));
                }, flush, s);
                std::string v = validate<T>(job, n, batch, seed, pct, A.p, B.p, X.p, info.p, rank.p, used.p);
                if (st == BSYM_METHOD_LDLT && t.why.empty())
                    auto_ldlt_rate = double(batch) / (t.median_ms * 1e-3);
                all_ok &= v.rfind("ok", 0) == 0;
                add(std::string("ours auto (start ") +
                        (st == BSYM_METHOD_TRIDIAG ? "tridiag" : st == BSYM_METHOD_LDLT ? "ldlt" : "eigen") + ")",
                    t, v);
            }
            // the cheap solves alone
            add("ours tridiag alone (no checks)", time_repeats(o.reps, restore_x, [&](int) {
                    return auto_ops<T>::hh(n, batch, A.p, X.p, info.p, s) == BSYM_OK ? std::string() : std::string("failed");
                }, flush, s), "-");
            const timing tl = time_repeats(o.reps, restore_x, [&](int) {
                return prec<T>::ours('L', n, batch, A.p, X.p, info.p, 0, s) == BSYM_OK ? std::string() : std::string("failed");
            }, flush, s);
            std::string ratio = "-";
            if (tl.why.empty() && auto_ldlt_rate > 0) {
                char r[80];
                std::snprintf(r, sizeof r, "auto (start ldlt) at %.2fx of this", auto_ldlt_rate * tl.median_ms * 1e-3 / double(batch));
                ratio = r;
            }
            add("ours ldlt alone (no checks)", tl, ratio);
            // the certifying kernel of start ldlt alone, in each mode built
            // for n (1 lockstep, 2 sequential; the ours-auto rows use the
            // tuned one): its share of certified systems, and of cheaply
            // certified ones
            const char *mode_names[] = {"tuned", "lockstep", "sequential"};
            for (int mode = 1; mode <= 2; mode++) {
                const double tol = 16.0 * n * eps, rcond = 1e-5; // as the ours-auto rows' job
                const timing tc = time_repeats(o.reps, [&](int) {
                        restore_x(0);
                        CHECK(cudaMemsetAsync(ccounter.p, 0, sizeof(int), s));
                        CHECK(cudaMemsetAsync(ccounts.p, 0, 2 * sizeof(unsigned long long), s));
                    }, [&](int) {
                        bsym_status e = auto_ops<T>::cert(n, batch, A.p, X.p, info.p, rcond, tol, rank.p, used.p,
                                                          cidx.p, ccounter.p, ccounts.p, mode, s);
                        return e == BSYM_OK ? std::string() : std::string("not built");
                    }, flush, s);
                if (!tc.why.empty())
                    continue;
                unsigned long long c[2] = {0, 0};
                CHECK(cudaMemcpy(c, ccounts.p, sizeof c, cudaMemcpyDeviceToHost));
                char v[160];
                std::snprintf(v, sizeof v, "certified %.2f %%, by the cheap form %.2f %%; %.2fx of ldlt alone",
                              100.0 * double(c[0]) / double(batch), 100.0 * double(c[1]) / double(batch),
                              tl.why.empty() ? tl.median_ms / tc.median_ms : 0.0);
                add(std::string("ours certifying ldlt (") + mode_names[mode] + ")", tc, v);
            }
            if (!o.vendor) {
                char b[64];
                std::snprintf(b, sizeof b, "%.3g", bound);
                body.push_back({pname, std::to_string(n), "", "memory bound (A, b read, x written)", "-", b, "100 %", "-"});
                continue;
            }
            // vendor: Cholesky (factor in a copy), and the eigendecomposition alone
            add("cusolver potrfBatched+potrsBatched", time_repeats(o.reps, [&](int) {
                    CHECK(cudaMemcpyAsync(A2.p, A.p, A.bytes(), cudaMemcpyDeviceToDevice, s));
                    restore_x(0);
                }, [&](int) {
                    CHECK(prec<T>::potrf(h, CUBLAS_FILL_MODE_LOWER, n, pa.p, info.p, int(batch)));
                    CHECK(prec<T>::potrs(h, CUBLAS_FILL_MODE_LOWER, n, pa.p, pb.p, info1.p, int(batch))); // info1: one device int
                    return std::string();
                }, flush, s), "no checks; ill systems fail or are wrong");
            if (n <= 32) {
                syevjInfo_t p;
                CHECK(cusolverDnCreateSyevjInfo(&p));
                dev_array<T> w(size_t(n) * batch);
                int lw = 0;
                CHECK(auto_ops<T>::syevj_buffer(h, n, A2.p, w.p, &lw, p, int(batch)));
                dev_array<T> wk(size_t(std::max(lw, 1)));
                add("cusolver syevjBatched (vectors only)", time_repeats(o.reps, [&](int) {
                        CHECK(cudaMemcpyAsync(A2.p, A.p, A.bytes(), cudaMemcpyDeviceToDevice, s));
                    }, [&](int) {
                        CHECK(auto_ops<T>::syevj(h, n, A2.p, w.p, wk.p, lw, info.p, p, int(batch)));
                        return std::string();
                    }, flush, s), "eigendecomposition without the solution");
                CHECK(cusolverDnDestroySyevjInfo(p));
            }
            char b[64];
            std::snprintf(b, sizeof b, "%.3g", bound);
            body.push_back({pname, std::to_string(n), "", "memory bound (A, b read, x written)", "-", b, "100 %", "-"});
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    opts o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage(stderr);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--n") {
            o.ns.clear();
            for (auto &x : split(next()))
                o.ns.push_back(int(parse_count(x, "--n")));
        } else if (a == "--batch") {
            o.batch = parse_count(next(), "--batch");
        } else if (a == "--reps") {
            o.reps = int(parse_count(next(), "--reps"));
        } else if (a == "--prec") {
            o.precs.clear();
            for (auto &x : split(next()))
                o.precs.push_back(x[0]);
        } else if (a == "--ill") {
            o.ills.clear();
            for (auto &x : split(next()))
                o.ills.push_back(std::atof(x.c_str()));
        } else if (a == "--starts") {
            o.starts.clear();
            for (auto &x : split(next())) {
                if (x != "tridiag" && x != "ldlt" && x != "eigen") {
                    usage(stderr);
                    return 2;
                }
                o.starts.push_back(x == "tridiag" ? BSYM_METHOD_TRIDIAG : x == "ldlt" ? BSYM_METHOD_LDLT : BSYM_METHOD_EIGEN);
            }
        } else if (a == "--vendor") {
            o.vendor = std::atoi(next().c_str()) != 0;
        } else if (a == "--gram") {
            o.gram = std::atoi(next().c_str()) != 0;
        } else if (a == "--out") {
            o.out = next();
        } else {
            usage(stderr);
            return 2;
        }
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cusolverDnHandle_t h;
    CHECK(cusolverDnCreate(&h));
    CHECK(cusolverDnSetStream(h, s));
    l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
    const double bw = measure_bandwidth(size_t(1) << 30, s);
    std::vector<std::vector<std::string>> body;
    bool ok = true;
    for (char p : o.precs) {
        if (p == 's')
            run_prec<float>(o, bw, flush, s, h, body, ok);
        else
            run_prec<double>(o, bw, flush, s, h, body, ok);
    }
    FILE *f = std::fopen(o.out.c_str(), "w");
    if (f == nullptr) {
        std::perror(o.out.c_str());
        return 2;
    }
    std::fprintf(f, "bench_auto, %s, %s, batch %lld, median of %d repeats, device copy bandwidth %.0f GB/s\n\n",
                 utc_now().c_str(), gpu_description(prop).c_str(), o.batch, o.reps, bw / 1e9);
    markdown_table(f, {"precision", "n", "ill-conditioned", "method", "median ms", "systems/s", "of memory bound",
                       "validation"},
                   body);
    std::fclose(f);
    std::printf("wrote %s; validation %s\n", o.out.c_str(), ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}
