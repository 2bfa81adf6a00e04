// bench_heev.cu -- device-resident batched complex Hermitian eigensolvers
// (issue 16: every dense method on the GPU, complex included):
//   ours-vec, ours-val   bsym_cuda_he_eig_launch_{c,z} (hetrd.cu: the
//                        Hermitian Householder reduction, the real GPU
//                        eigensolver on T, V = Q Z), vectors / values only;
//   xsyev-vec, xsyev-val cusolverDnXsyevBatched, CUDA_C_32F / CUDA_C_64F
//                        (default cusolverDnParams), vectors / values only;
//   heevj-vec            cusolverDn{C,Z}heevjBatched (n <= 32 only), default
//                        syevjInfo.
// Input: random Hermitian matrices (entries uniform in [-1, 1), real
// diagonal), generated on the device. Timing: CUDA events around the solve
// call alone (the input restored before each repeat for cuSOLVER, which
// overwrites it), the L2 flushed before each repeat, the median of --reps.
// Validation on --sample systems spread over the batch, in double on the
// host: ||A V - V W||_F / ||A||_F and ||V^H V - I||_F (vectors), in units
// of n eps of the working precision, and max |w - w_ref| / ||A||_2-ish
// (max |w_ref|) against the first method run (values); a row passes at
// <= 100 n eps and with every info 0.
//
//   bench_heev --n 8,32,64,128 --prec c,z --batch 100000 --reps 5 --sample 8
#define BENCH_NAME "bench_heev"
#include "bench_common.cuh"

#include <complex>

namespace {

void usage(FILE *f)
{
    std::fprintf(f, "usage: bench_heev [--n LIST] [--prec c,z] [--batch N] [--reps R] [--sample S]\n"
                    "                  [--methods ours-vec,ours-val,xsyev-vec,xsyev-val,heevj-vec]\n"
                    "  --batch N    systems (capped so that A, V and the scratch fit in 40 %% of memory)\n");
}

// The precision's names: ours (bsym_cuda.h) and cuSOLVER's; eps from
// bench_common's prec<R>.
template <typename R> struct cplx;
template <> struct cplx<float> {
    typedef cuComplex CT; // cuSOLVER's element of A
    static constexpr cudaDataType A = CUDA_C_32F, W = CUDA_R_32F;
    static constexpr char letter = 'c';
    static constexpr auto ours = bsym_cuda_he_eig_launch_c;
    static constexpr auto trd = bsym_cuda_he_tridiagonalize_launch_c;
    static constexpr auto stev = bsym_cuda_eig_launch_s; // the real eigensolver on T
    static constexpr auto heevj_size = cusolverDnCheevjBatched_bufferSize;
    static constexpr auto heevj = cusolverDnCheevjBatched;
};
template <> struct cplx<double> {
    typedef cuDoubleComplex CT;
    static constexpr cudaDataType A = CUDA_C_64F, W = CUDA_R_64F;
    static constexpr char letter = 'z';
    static constexpr auto ours = bsym_cuda_he_eig_launch_z;
    static constexpr auto trd = bsym_cuda_he_tridiagonalize_launch_z;
    static constexpr auto stev = bsym_cuda_eig_launch_d;
    static constexpr auto heevj_size = cusolverDnZheevjBatched_bufferSize;
    static constexpr auto heevj = cusolverDnZheevjBatched;
};

// A random Hermitian matrix a system: (i, j) and (j, i) from one key, the
// diagonal real.
template <typename R> __global__ void fill_hermitian(R *A, int n, long long batch, uint64_t seed)
{
    const long long total = (long long)n * n * batch;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        const long long k = t / ((long long)n * n);
        const int e = int(t % ((long long)n * n)), i = e % n, j = e / n;
        const int lo = min(i, j), hi = max(i, j);
        const uint64_t key = seed ^ (uint64_t(k) * 0x100000001b3ULL + uint64_t(hi) * 4099 + uint64_t(lo));
        const R re = R(uniform_pm1(mix64(key))), im = i == j ? R(0) : R(uniform_pm1(mix64(key ^ 0x5bd1e995)));
        A[2 * t] = re;
        A[2 * t + 1] = i > j ? im : -im;
    }
}

struct result {
    double ms = 0, res = 0, orth = 0, wdiff = 0;
    std::string check = "ok", note;
};

using cd = std::complex<double>;

// The validation of the sampled systems (host, double).
template <typename R>
void validate(const std::vector<R> &A, const std::vector<R> &w, const std::vector<R> &V, int n, int nsamp,
              const std::vector<R> *wref, result &out)
{
    const size_t nn = size_t(n) * n;
    for (int s = 0; s < nsamp; s++) {
        auto a = [&](int i, int j) { return cd(A[2 * (s * nn + i + size_t(j) * n)], A[2 * (s * nn + i + size_t(j) * n) + 1]); };
        auto v = [&](int i, int j) { return cd(V[2 * (s * nn + i + size_t(j) * n)], V[2 * (s * nn + i + size_t(j) * n) + 1]); };
        double an = 0, wmax = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                an += std::norm(a(i, j));
        an = std::sqrt(an);
        for (int j = 0; j < n; j++)
            wmax = std::max(wmax, std::fabs(double(w[s * n + j])));
        if (!V.empty()) {
            double r = 0, o = 0;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < n; i++) {
                    cd t = -double(w[s * n + j]) * v(i, j);
                    for (int l = 0; l < n; l++)
                        t += a(i, l) * v(l, j);
                    r += std::norm(t);
                }
                for (int i = 0; i < n; i++) {
                    cd t = i == j ? -1.0 : 0.0;
                    for (int l = 0; l < n; l++)
                        t += std::conj(v(l, i)) * v(l, j);
                    o += std::norm(t);
                }
            }
            out.res = std::max(out.res, std::sqrt(r) / (an > 0 ? an : 1));
            out.orth = std::max(out.orth, std::sqrt(o));
        }
        if (wref != nullptr)
            for (int j = 0; j < n; j++)
                out.wdiff = std::max(out.wdiff, std::fabs(double(w[s * n + j]) - double((*wref)[s * n + j])) /
                                                    (wmax > 0 ? wmax : 1));
        for (int j = 0; j < n; j++)
            if (!std::isfinite(double(w[s * n + j])))
                out.check = "FAIL";
    }
}

template <typename R> void run(int n, long long batch0, int reps, int nsamp, const std::vector<std::string> &methods,
                               l2_flusher &flush, cudaStream_t s, cusolverDnHandle_t solver)
{
    typedef cplx<R> C;
    const size_t nn = size_t(n) * n, cbytes = 2 * sizeof(R);
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    // A0, A (working), V, Q and Z scratch: about 4 complex matrices a system
    const long long cap = std::max(1LL, (long long)(0.4 * double(free_b) / (4.0 * nn * cbytes + 64.0 * n)));
    const long long batch = std::min(batch0, cap);
    nsamp = int(std::min<long long>(nsamp, batch));
    dev_array<R> A0(2 * nn * batch), Aw(2 * nn * batch), V(2 * nn * batch), w(size_t(n) * batch);
    dev_array<int> info(batch), count(batch);
    fill_hermitian<R><<<grid_for((long long)nn * batch, 256), 256, 0, s>>>(A0.p, n, batch, 0x9e3779b97f4a7c15ULL);
    CHECK(cudaGetLastError());
    // the sampled systems of a run of cnt: 0, cnt / nsamp, ...
    auto take = [&](const R *src, size_t per, long long cnt) {
        std::vector<R> h(per * nsamp);
        for (int q = 0; q < nsamp; q++)
            CHECK(cudaMemcpyAsync(h.data() + q * per, src + (cnt / nsamp) * q * per, per * sizeof(R),
                                  cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        return h;
    };
    std::vector<R> wref; // the first method's values, of a run of the whole batch
    for (const std::string &m : methods) {
        const bool vec = m.find("-vec") != std::string::npos, ours = m.rfind("ours", 0) == 0,
                   heevj = m.rfind("heevj", 0) == 0;
        result r;
        if (heevj && n > 32) {
            continue; // (cuSOLVER's batched Jacobi: n <= 32)
        }
        dev_array<unsigned char> work;
        std::vector<unsigned char> host_work;
        size_t work_bytes = 0, host_bytes = 0;
        int lwork = 0;
        syevjInfo_t jp = nullptr;
        cusolverDnParams_t xp = nullptr;
        const cusolverEigMode_t jobz = vec ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        if (heevj)
            CHECK(cusolverDnCreateSyevjInfo(&jp));
        else if (!ours)
            CHECK(cusolverDnCreateParams(&xp));
        // one solve of b systems (the vendor's workspace sized for b first)
        long long b = batch;
        auto setup = [&]() -> bool {
            size_t fb = 0, tb = 0;
            CHECK(cudaMemGetInfo(&fb, &tb));
            const double room = double(fb) + double(work.bytes()) - 1e9; // 1 GB left for the library
            work = dev_array<unsigned char>();
            if (heevj) {
                if (C::heevj_size(solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                  reinterpret_cast<typename C::CT *>(Aw.p), n, w.p, &lwork, jp,
                                  int(b)) != CUSOLVER_STATUS_SUCCESS)
                    return false;
                work_bytes = size_t(lwork) * cbytes;
            } else if (!ours) {
                if (cusolverDnXsyevBatched_bufferSize(solver, xp, jobz, CUBLAS_FILL_MODE_LOWER, n, C::A, Aw.p, n,
                                                      C::W, w.p, C::A, &work_bytes, &host_bytes,
                                                      b) != CUSOLVER_STATUS_SUCCESS)
                    return false;
                host_work.assign(std::max<size_t>(host_bytes, 1), 0);
            }
            if (double(work_bytes) > room)
                return false;
            if (work_bytes > 0)
                work = dev_array<unsigned char>(work_bytes);
            return true;
        };
        auto solve = [&]() -> bool {
            if (ours)
                return C::ours('L', n, b, A0.p, nullptr, w.p, vec ? V.p : nullptr, count.p, info.p, s) == BSYM_OK;
            if (heevj)
                return C::heevj(solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                reinterpret_cast<typename C::CT *>(Aw.p), n, w.p,
                                reinterpret_cast<typename C::CT *>(work.p), lwork, info.p, jp,
                                int(b)) == CUSOLVER_STATUS_SUCCESS;
            return cusolverDnXsyevBatched(solver, xp, jobz, CUBLAS_FILL_MODE_LOWER, n, C::A, Aw.p, n, C::W, w.p, C::A,
                                          work.p, work_bytes, host_work.data(), host_bytes, info.p,
                                          b) == CUSOLVER_STATUS_SUCCESS;
        };
        // the vendor's largest batch that runs: halved from the whole one
        // (cuSOLVER refuses some batches, or wants more workspace than fits)
        bool ran = false;
        for (; b >= 1 && !ran; b = b > 1024 || b == batch ? b / 2 : 0) {
            if (!ours)
                CHECK(cudaMemcpyAsync(Aw.p, A0.p, A0.bytes(), cudaMemcpyDeviceToDevice, s));
            ran = setup() && solve() && cudaStreamSynchronize(s) == cudaSuccess;
            if (!ran)
                cudaGetLastError();
            else
                break;
        }
        if (!ran) {
            std::printf("| %c | %d | %s | - | - | - | - | - | - | skipped | no batch ran |\n", C::letter, n, m.c_str());
            if (jp != nullptr)
                cusolverDnDestroySyevjInfo(jp);
            if (xp != nullptr)
                cusolverDnDestroyParams(xp);
            continue;
        }
        if (b < batch)
            r.note = "batch " + std::to_string(b) + " (larger ones refused or out of memory)";
        cudaEvent_t t0, t1;
        CHECK(cudaEventCreate(&t0));
        CHECK(cudaEventCreate(&t1));
        std::vector<double> times;
        std::string parts;
        bool failed = false;
        for (int rep = 0; rep < reps; rep++) {
            if (!ours)
                CHECK(cudaMemcpyAsync(Aw.p, A0.p, A0.bytes(), cudaMemcpyDeviceToDevice, s));
            flush.run(s);
            CHECK(cudaEventRecord(t0, s));
            failed |= !solve();
            CHECK(cudaEventRecord(t1, s));
            CHECK(cudaEventSynchronize(t1));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, t0, t1));
            times.push_back(ms);
        }
        if (jp != nullptr)
            cusolverDnDestroySyevjInfo(jp);
        if (xp != nullptr)
            cusolverDnDestroyParams(xp);
        r.ms = median(times);
        if (ours && vec) { // where the time goes: the reduction with Q, T's eigensolver with Z, the rest V = Q Z
            dev_array<R> d(size_t(n) * b), e(size_t(n) * b);
            R *Z = Aw.p; // (a complex buffer: room for a real n x n a system)
            std::vector<double> tq, tz;
            for (int rep = 0; rep < reps; rep++) {
                flush.run(s);
                CHECK(cudaEventRecord(t0, s));
                const bool a_ok = C::trd('L', n, b, A0.p, d.p, e.p, V.p, info.p, s) == BSYM_OK;
                CHECK(cudaEventRecord(t1, s));
                CHECK(cudaEventSynchronize(t1));
                float ms = 0;
                CHECK(cudaEventElapsedTime(&ms, t0, t1));
                tq.push_back(ms);
                flush.run(s);
                CHECK(cudaEventRecord(t0, s));
                const bool b_ok = C::stev('L', n, b, nullptr, d.p, e.p, nullptr, w.p, Z, count.p, info.p, s) == BSYM_OK;
                CHECK(cudaEventRecord(t1, s));
                CHECK(cudaEventSynchronize(t1));
                CHECK(cudaEventElapsedTime(&ms, t0, t1));
                tz.push_back(ms);
                failed |= !a_ok || !b_ok;
            }
            parts = fmt("%.3g", median(tq)) + " + " + fmt("%.3g", median(tz)) + " + " +
                    fmt("%.3g", r.ms - median(tq) - median(tz)) + " ms";
            // (the vectors of the timed run again, for the validation below)
            failed |= !solve();
        }
        CHECK(cudaEventDestroy(t0));
        CHECK(cudaEventDestroy(t1));
        std::vector<int> hinfo(b);
        CHECK(cudaMemcpy(hinfo.data(), info.p, b * sizeof(int), cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (int v : hinfo)
            bad += v != 0;
        const std::vector<R> hA = take(A0.p, 2 * nn, b), hw = take(w.p, n, b);
        const std::vector<R> hV = vec ? take(ours ? V.p : Aw.p, 2 * nn, b) : std::vector<R>();
        validate<R>(hA, hw, hV, n, nsamp, wref.empty() || b != batch ? nullptr : &wref, r);
        if (wref.empty() && b == batch)
            wref = hw;
        const double unit = n * prec<R>::eps;
        r.res /= unit;
        r.orth /= unit;
        r.wdiff /= unit;
        if (failed || bad > 0 || r.res > 100 || r.orth > 100 || r.wdiff > 100)
            r.check = "FAIL";
        if (bad > 0)
            r.note += std::string(r.note.empty() ? "" : "; ") + std::to_string(bad) + " info != 0";
        if (!parts.empty())
            r.note += std::string(r.note.empty() ? "" : "; ") + "reduction with Q + T's eigensolver + V = Q Z: " + parts;
        std::printf("| %c | %d | %s | %lld | %.4f | %.4g | %.3g | %.3g | %.3g | %s | %s |\n", C::letter, n, m.c_str(),
                    b, r.ms, b / (r.ms * 1e-3), r.res, r.orth, r.wdiff, r.check.c_str(), r.note.c_str());
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> ns = {8, 16, 32, 64, 128};
    std::vector<std::string> precs = {"c", "z"};
    std::vector<std::string> methods = {"ours-vec", "ours-val", "xsyev-vec", "xsyev-val", "heevj-vec"};
    long long batch = 100000;
    int reps = 5, sample = 8;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                bad_option(a + " needs a value");
            return argv[++i];
        };
        if (a == "--n") {
            ns.clear();
            for (const std::string &x : split(next()))
                ns.push_back(int(parse_count(x, "--n")));
        } else if (a == "--prec") {
            precs = split(next());
        } else if (a == "--methods") {
            methods = split(next());
        } else if (a == "--batch") {
            batch = parse_count(next(), "--batch");
        } else if (a == "--reps") {
            reps = int(parse_count(next(), "--reps"));
        } else if (a == "--sample") {
            sample = int(parse_count(next(), "--sample"));
        } else if (a == "--help") {
            usage(stdout);
            return 0;
        } else {
            bad_option("unknown option " + a);
        }
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cusolverDnHandle_t solver;
    CHECK(cusolverDnCreate(&solver));
    CHECK(cusolverDnSetStream(solver, s));
    l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
    std::printf("bench_heev on %s, %s UTC; matrices/s, errors in n eps of the precision (ok: <= 100)\n\n",
                prop.name, utc_now().c_str());
    std::printf("| prec | n | method | batch | ms | matrices/s | residual | orthogonality | values vs first | check | note |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string &p : precs)
        for (int n : ns) {
            if (p == "c")
                run<float>(n, batch, reps, sample, methods, flush, s, solver);
            else if (p == "z")
                run<double>(n, batch, reps, sample, methods, flush, s, solver);
            else
                bad_option("--prec: c or z");
        }
    cusolverDnDestroy(solver);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
