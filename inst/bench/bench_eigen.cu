// bench_eigen.cu -- device-resident benchmarks of issue 4: batched symmetric
// eigensolvers (bsym_cuda_eig_launch_{s,d}) beside the vendor's batched
// routines and the memory-bandwidth bound, measured in the same run.
//
// Inputs: random symmetric matrices, n x n x batch, column-major, both
// triangles written (every entry uniform in [-1, 1), the pair (i, j), (j, i)
// equal), generated deterministically on the device once per configuration;
// eigenvalues spread over about [-1.2 sqrt(n), 1.2 sqrt(n)], none
// structured. Every method reads the triangle named by --uplo (L).
//
// Methods (--methods, or --parts a,b,c,d as in the issue):
//   (a) ours-vec    bsym_cuda_eig_launch_{s,d} with dV: Householder reduction
//                   then implicit QL, its rotations replayed on Q (where a
//                   record overflows: divide and conquer up to n = 64, a warp
//                   applying the rotations as made above; BSYM_EIG_ROT_CAP=0
//                   sends every system there); reads A (kept), writes w and V;
//   (b) ours-val    the same with dV = NULL: Householder reduction, then
//                   implicit QL, one thread a system; writes w;
//   (c) syevj-vec   cusolverDn{S,D}syevjBatched, jobz = CUSOLVER_EIG_MODE_VECTOR,
//       syevj-val   and NOVECTOR; syevjInfo defaults (tolerance, max sweeps,
//                   sorted); overwrites A (with V); n <= 32 only, so n = 64
//                   gives a row "n/a (n > 32)";
//   (d) xsyev-vec   cusolverDnXsyevBatched (64-bit API, CUDA 12.6+), VECTOR
//       xsyev-val   and NOVECTOR, default cusolverDnParams, compute type = the
//                   data type; overwrites A. Its documented limit is n * lda
//                   * batch <= 2^31 - 1.
// A cuSOLVER routine that refuses a batch (a failed workspace query, a
// workspace that cannot be allocated, a status other than success) is not
// fatal: the batch is halved, down to --vendor-min-batch (default 32768), and
// the row says which batch ran and what failed before; when none ran, the
// row reads "failed: <status>" and does not count as a validation failure.
//
// What is timed: the CUDA event pair brackets only the solver calls. Before
// every repeat, OUTSIDE the timed region, cuSOLVER's working copy of A is
// restored from the pristine copy by a device copy (ours reads A without
// writing it and needs no restore), and a read of 4x the L2 size evicts the
// L2. Matrices/s = batch / median over the repeats, after one validation run
// and --warmup untimed runs; the repeats of one method are capped to about
// --max-seconds (default 1.5 s, at least 3 repeats) so that a slow vendor
// routine cannot stretch the run; the row's note says when.
//
// Validation, before timing and again on the last timed repeat's output:
// every info entry 0 (info and count first filled with a sentinel), ours'
// count = n, no non-finite entry in w (and V), and on the first and the last
// --sample (64) systems of the batch, in double on the host against a cyclic
// Jacobi eigensolver (this file; --self-test checks it):
//   eigenvalue error  max_i |w_i - lambda_i| / ||A||_2,
//   residual          ||A V - V diag(w)||_F / ||A||_F,
//   orthogonality     ||V'V - I||_F,
// each printed as a multiple of n eps of the working precision (worst over
// the sample) and required to be <= 100 (the tests bound them tighter).
// cuSOLVER's eigenvalues are ascending like ours, compared index by index.
//
// Bound: measured copy bandwidth / bytes one matrix must move: A read and w
// written, (n^2 + n) entries, values only; A read, w and V written,
// (2n^2 + n) entries, with vectors. "vs best cuSOLVER" = the row's matrices/s
// / the best validated cuSOLVER rate for the same job (vectors or values) at
// the same precision and n.
//
// Exit status: 0 all checks passed; 1 one of our kernels failed a check; 3
// only a vendor routine failed one; 2 a CUDA call failed (the run stops
// there, naming what it was doing). The tables are (re)written after every
// configuration.
//
// Usage: bench_eigen [options] [--out FILE.md]   (bench_eigen --help)
#define BENCH_NAME "bench_eigen"
#include "bench_common.cuh"

#include <chrono>
#include <map>

namespace {

// ---- methods and options -----------------------------------------------------

enum method_id { OURS_VEC, OURS_VAL, SYEVJ_VEC, SYEVJ_VAL, XSYEV_VEC, XSYEV_VAL, N_METHODS };

const char *const METHOD_KEYS[N_METHODS] = {"ours-vec", "ours-val", "syevj-vec", "syevj-val", "xsyev-vec",
                                            "xsyev-val"};
const char *const METHOD_NAMES[N_METHODS] = {
    "ours, vectors (Householder+QL)", "ours, values (Householder+QL)", "cusolver syevjBatched, vectors",
    "cusolver syevjBatched, values",   "cusolver XsyevBatched, vectors", "cusolver XsyevBatched, values"};

bool is_vectors(int m) { return m == OURS_VEC || m == SYEVJ_VEC || m == XSYEV_VEC; }
bool is_ours(int m) { return m == OURS_VEC || m == OURS_VAL; }

const int SYEVJ_MAX_N = 32;      // cusolverDn{S,D}syevjBatched takes n <= 32
const double C_EIG = 100;        // pass: every error <= C_EIG * n * eps
const uint64_t SEED_SYM = 0x5eed0041ULL;

struct options {
    std::vector<int> ns{8, 16, 32, 64};
    std::vector<char> precisions{'s', 'd'};
    bool methods[N_METHODS] = {true, true, true, true, true, true};
    long long batch = 100000;
    long long vendor_min_batch = 32768;
    int reps = 10;
    int warmup = 1;
    int sample = 64; // at each end of the batch
    double max_seconds = 1.5;
    double mem_gb = 40;
    char uplo = 'L';
    bool self_test = false;
    std::string out; // markdown file; the CSV goes beside it
    std::string command;
};

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: bench_eigen [options] [FILE.md]\n"
        "  --methods LIST     ours-vec,ours-val,syevj-vec,syevj-val,xsyev-vec,xsyev-val (default all);\n"
        "                     also ours, syevj, xsyev, cusolver, vec, val, all\n"
        "  --parts LIST       a,b,c,d as in issue 4: a ours-vec, b ours-val, c syevj-vec,val,\n"
        "                     d xsyev-vec,val (--parts and --methods add up)\n"
        "  --n LIST           sizes (default 8,16,32,64; 1..%d)\n"
        "  --prec LIST        s,d (also single,double,float,both; default s,d)\n"
        "  --batch N          matrices per configuration (default 1e5)\n"
        "  --vendor-min-batch N  smallest batch tried when cuSOLVER refuses a batch (halving; default 32768)\n"
        "  --reps N           timed repeats, median reported (default 10)\n"
        "  --warmup N         untimed runs per method after validation (default 1)\n"
        "  --max-seconds X    cap on one method's timed repeats, about (default 1.5; at least 3 repeats)\n"
        "  --sample N         systems checked on the host at each end of the batch (default 64)\n"
        "  --mem-gb X         device memory budget in GB (default 40)\n"
        "  --uplo L|U         triangle read (default L)\n"
        "  --out FILE.md      write the table as markdown to FILE.md and as CSV to FILE.csv\n"
        "  --self-test        check the host reference (Jacobi) and the error measures, no GPU needed\n"
        "exit status: 0 ok, 1 one of our kernels failed validation, 3 a vendor routine failed\n"
        "validation, 2 a CUDA call failed\n",
        BSYM_GPU_EIGEN_MAX_N);
}

void select_methods(options &o, const std::string &p, bool &any)
{
    auto on = [&](std::initializer_list<int> ms) {
        for (int m : ms)
            o.methods[m] = true;
        any = true;
    };
    for (int m = 0; m < N_METHODS; m++)
        if (p == METHOD_KEYS[m])
            return on({m});
    if (p == "all")
        on({OURS_VEC, OURS_VAL, SYEVJ_VEC, SYEVJ_VAL, XSYEV_VEC, XSYEV_VAL});
    else if (p == "ours")
        on({OURS_VEC, OURS_VAL});
    else if (p == "syevj")
        on({SYEVJ_VEC, SYEVJ_VAL});
    else if (p == "xsyev")
        on({XSYEV_VEC, XSYEV_VAL});
    else if (p == "cusolver")
        on({SYEVJ_VEC, SYEVJ_VAL, XSYEV_VEC, XSYEV_VAL});
    else if (p == "vec" || p == "vectors")
        on({OURS_VEC, SYEVJ_VEC, XSYEV_VEC});
    else if (p == "val" || p == "values")
        on({OURS_VAL, SYEVJ_VAL, XSYEV_VAL});
    else
        bad_option("--methods: unknown method '" + p + "'");
}

options parse_options(int argc, char **argv)
{
    options o;
    for (int i = 0; i < argc; i++)
        o.command += (i ? " " : "") + std::string(argv[i]);
    bool chose = false, any = false;
    auto choose = [&] {
        if (!chose)
            for (bool &m : o.methods)
                m = false;
        chose = true;
    };
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(0);
        }
        if (a == "--self-test") {
            o.self_test = true;
            continue;
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
                if (n > BSYM_GPU_EIGEN_MAX_N)
                    bad_option("--n: " + p + " is above " + std::to_string(BSYM_GPU_EIGEN_MAX_N));
                o.ns.push_back(int(n));
            }
        } else if (a == "--methods") {
            choose();
            for (const std::string &p : split(v))
                select_methods(o, p, any);
        } else if (a == "--parts") {
            choose();
            for (const std::string &p : split(v)) {
                if (p == "a")
                    select_methods(o, "ours-vec", any);
                else if (p == "b")
                    select_methods(o, "ours-val", any);
                else if (p == "c")
                    select_methods(o, "syevj", any);
                else if (p == "d")
                    select_methods(o, "xsyev", any);
                else
                    bad_option("--parts: unknown part '" + p + "' (a, b, c or d)");
            }
        } else if (a == "--prec") {
            o.precisions.clear();
            for (const std::string &p : split(v)) {
                if (p == "s" || p == "single" || p == "float")
                    o.precisions.push_back('s');
                else if (p == "d" || p == "double")
                    o.precisions.push_back('d');
                else if (p == "both") {
                    o.precisions.push_back('s');
                    o.precisions.push_back('d');
                } else
                    bad_option("--prec: unknown precision '" + p + "'");
            }
        } else if (a == "--batch") {
            o.batch = parse_count(v, "--batch");
        } else if (a == "--vendor-min-batch") {
            o.vendor_min_batch = parse_count(v, "--vendor-min-batch");
        } else if (a == "--reps") {
            o.reps = int(std::min(parse_count(v, "--reps"), 1000LL));
        } else if (a == "--warmup") {
            o.warmup = v == "0" ? 0 : int(std::min(parse_count(v, "--warmup"), 100LL));
        } else if (a == "--sample") {
            o.sample = int(std::min(parse_count(v, "--sample"), 100000LL));
        } else if (a == "--max-seconds") {
            o.max_seconds = std::atof(v.c_str());
            if (!(o.max_seconds > 0))
                bad_option("--max-seconds: '" + v + "' is not a positive number");
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
    if (chose && !any)
        bad_option("--methods / --parts need at least one entry");
    if (o.precisions.empty() || o.ns.empty())
        bad_option("--prec and --n need at least one entry");
    if (!o.out.empty() && !o.self_test) { // fail now rather than after the run
        FILE *f = std::fopen(o.out.c_str(), "w");
        if (f == nullptr)
            bad_option("cannot write " + o.out + ": " + std::strerror(errno));
        std::fclose(f);
    }
    return o;
}

// ---- precision traits of the eigensolvers --------------------------------------

template <typename T> struct eig;

template <> struct eig<float> {
    static constexpr cudaDataType dtype = CUDA_R_32F;
    static bsym_status ours(char uplo, int n, long long batch, const float *A, float *d, float *e,
                            const bsym_select *sel, float *w, float *V, int *count, int *info, cudaStream_t s)
    {
        return bsym_cuda_eig_launch_s(uplo, n, batch, A, d, e, sel, w, V, count, info, s);
    }
    static cusolverStatus_t syevj_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t f, int n,
                                         const float *A, const float *w, int *lwork, syevjInfo_t p, int batch)
    {
        return cusolverDnSsyevjBatched_bufferSize(h, jobz, f, n, A, n, w, lwork, p, batch);
    }
    static cusolverStatus_t syevj(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t f, int n, float *A,
                                  float *w, float *work, int lwork, int *info, syevjInfo_t p, int batch)
    {
        return cusolverDnSsyevjBatched(h, jobz, f, n, A, n, w, work, lwork, info, p, batch);
    }
};

template <> struct eig<double> {
    static constexpr cudaDataType dtype = CUDA_R_64F;
    static bsym_status ours(char uplo, int n, long long batch, const double *A, double *d, double *e,
                            const bsym_select *sel, double *w, double *V, int *count, int *info, cudaStream_t s)
    {
        return bsym_cuda_eig_launch_d(uplo, n, batch, A, d, e, sel, w, V, count, info, s);
    }
    static cusolverStatus_t syevj_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t f, int n,
                                         const double *A, const double *w, int *lwork, syevjInfo_t p, int batch)
    {
        return cusolverDnDsyevjBatched_bufferSize(h, jobz, f, n, A, n, w, lwork, p, batch);
    }
    static cusolverStatus_t syevj(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t f, int n, double *A,
                                  double *w, double *work, int lwork, int *info, syevjInfo_t p, int batch)
    {
        return cusolverDnDsyevjBatched(h, jobz, f, n, A, n, w, work, lwork, info, p, batch);
    }
};

std::string status_why(bsym_status st, const char *what)
{
    return st == BSYM_OK ? "" : std::string(what) + " returned " + bsym_status_string(st);
}

// "CUSOLVER_STATUS_INTERNAL_ERROR (7)"
std::string cusolver_status_name(cusolverStatus_t st)
{
    const char *s = "unknown cusolverStatus_t";
    switch (st) {
    case CUSOLVER_STATUS_SUCCESS: s = "CUSOLVER_STATUS_SUCCESS"; break;
    case CUSOLVER_STATUS_NOT_INITIALIZED: s = "CUSOLVER_STATUS_NOT_INITIALIZED"; break;
    case CUSOLVER_STATUS_ALLOC_FAILED: s = "CUSOLVER_STATUS_ALLOC_FAILED"; break;
    case CUSOLVER_STATUS_INVALID_VALUE: s = "CUSOLVER_STATUS_INVALID_VALUE"; break;
    case CUSOLVER_STATUS_ARCH_MISMATCH: s = "CUSOLVER_STATUS_ARCH_MISMATCH"; break;
    case CUSOLVER_STATUS_MAPPING_ERROR: s = "CUSOLVER_STATUS_MAPPING_ERROR"; break;
    case CUSOLVER_STATUS_EXECUTION_FAILED: s = "CUSOLVER_STATUS_EXECUTION_FAILED"; break;
    case CUSOLVER_STATUS_INTERNAL_ERROR: s = "CUSOLVER_STATUS_INTERNAL_ERROR"; break;
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: s = "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"; break;
    case CUSOLVER_STATUS_NOT_SUPPORTED: s = "CUSOLVER_STATUS_NOT_SUPPORTED"; break;
    case CUSOLVER_STATUS_INVALID_WORKSPACE: s = "CUSOLVER_STATUS_INVALID_WORKSPACE"; break;
    default: break;
    }
    return std::string(s) + " (" + std::to_string(int(st)) + ")";
}

// After a vendor call that returned an error status: clears a non-sticky
// CUDA error it may have left and waits for what it enqueued (a sticky error
// ends the run there, through CHECK).
void settle_after_failure(cudaStream_t s)
{
    (void)cudaGetLastError();
    CHECK(cudaStreamSynchronize(s));
}

// Device memory that may legitimately be refused (a vendor workspace): ""
// or why; never ends the run.
std::string try_alloc(dev_array<unsigned char> &buf, size_t bytes)
{
    buf = dev_array<unsigned char>();
    void *p = nullptr;
    const cudaError_t e = cudaMalloc(&p, std::max<size_t>(bytes, 1));
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); // an allocation failure is not sticky; clear it
        return "workspace of " + fmt("%.2f", bytes / 1e9) + " GB not allocated: " + cudaGetErrorString(e);
    }
    buf.p = static_cast<unsigned char *>(p);
    buf.count = bytes;
    return "";
}

// ---- the host reference: cyclic Jacobi in double ---------------------------------

// Eigenvalues of the symmetric n x n matrix a (column-major, both triangles;
// destroyed) by the cyclic Jacobi method, ascending in w; V (n x n, may be
// NULL) receives the eigenvectors. Every rotation zeroes its pair exactly;
// sweeps stop once the off-diagonal part is below 1e-3 eps ||A||_F (each
// eigenvalue then moves by less than that). Returns the sweeps used, -1 if
// 100 were not enough.
int jacobi_eig(int n, double *a, double *w, double *V)
{
    auto A = [&](int i, int j) -> double & { return a[i + size_t(j) * n]; };
    double frob2 = 0;
    for (size_t i = 0; i < size_t(n) * n; i++)
        frob2 += a[i] * a[i];
    if (V != nullptr)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                V[i + size_t(j) * n] = i == j;
    const double tol2 = frob2 * (1e-3 * DBL_EPSILON) * (1e-3 * DBL_EPSILON);
    int sweeps = 0;
    for (;; sweeps++) {
        double off2 = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++)
                off2 += 2 * A(i, j) * A(i, j);
        if (off2 <= tol2)
            break;
        if (sweeps == 100)
            return -1;
        for (int p = 0; p < n - 1; p++)
            for (int q = p + 1; q < n; q++) {
                const double apq = A(p, q);
                if (apq == 0)
                    continue;
                // The rotation J (J_pp = J_qq = c, J_pq = s, J_qp = -s) with
                // (J' A J)_pq = 0, t = tan of the smaller angle.
                const double theta = (A(q, q) - A(p, p)) / (2 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) { // columns p, q: A J
                    const double akp = A(k, p), akq = A(k, q);
                    A(k, p) = c * akp - s * akq;
                    A(k, q) = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) { // rows p, q: J' (A J)
                    const double apk = A(p, k), aqk = A(q, k);
                    A(p, k) = c * apk - s * aqk;
                    A(q, k) = s * apk + c * aqk;
                }
                A(p, q) = A(q, p) = 0;
                if (V != nullptr)
                    for (int k = 0; k < n; k++) {
                        double &vp = V[k + size_t(p) * n], &vq = V[k + size_t(q) * n];
                        const double x = vp, y = vq;
                        vp = c * x - s * y;
                        vq = s * x + c * y;
                    }
            }
    }
    std::vector<int> order(static_cast<size_t>(n));
    for (int i = 0; i < n; i++)
        order[size_t(i)] = i;
    std::sort(order.begin(), order.end(), [&](int x, int y) { return A(x, x) < A(y, y); });
    for (int i = 0; i < n; i++)
        w[i] = A(order[size_t(i)], order[size_t(i)]);
    if (V != nullptr) {
        std::vector<double> copy(V, V + size_t(n) * n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                V[i + size_t(j) * n] = copy[i + size_t(order[size_t(j)]) * n];
    }
    return sweeps;
}

// One sampled matrix: A in double (from the stored T values), its reference
// eigenvalues and norms.
struct reference {
    std::vector<double> A, lambda;
    double norm2 = 0, normF = 0;
};

reference make_reference(int n, std::vector<double> A)
{
    reference r;
    r.A = A;
    r.lambda.resize(size_t(n));
    for (double x : A)
        r.normF += x * x;
    r.normF = std::sqrt(r.normF);
    if (jacobi_eig(n, A.data(), r.lambda.data(), nullptr) < 0)
        r.lambda.assign(size_t(n), NAN); // never seen; fails the check loudly
    for (double l : r.lambda)
        r.norm2 = std::max(r.norm2, std::fabs(l));
    return r;
}

// The three measures of one system, each / (n eps); vectors may be NULL
// (values only: residual and orthogonality NaN).
struct eig_errors {
    double eval = NAN, resid = NAN, orth = NAN;
};

template <typename T> eig_errors measure(int n, const reference &ref, const T *w, const T *V, double eps)
{
    eig_errors e;
    const double unit = n * eps, tiny = DBL_MIN;
    double ev = 0;
    for (int i = 0; i < n; i++) {
        const double d = std::fabs(double(w[i]) - ref.lambda[size_t(i)]);
        ev = std::isnan(d) || std::isnan(ev) ? NAN : std::max(ev, d);
    }
    e.eval = ev / std::max(ref.norm2, tiny) / unit;
    if (V == nullptr)
        return e;
    double r2 = 0, o2 = 0;
    for (int j = 0; j < n; j++) {
        const double lj = w[j];
        for (int i = 0; i < n; i++) {
            double av = 0;
            for (int l = 0; l < n; l++)
                av += ref.A[i + size_t(l) * n] * double(V[l + size_t(j) * n]);
            const double r = av - lj * double(V[i + size_t(j) * n]);
            r2 += r * r;
        }
        for (int i = 0; i < n; i++) {
            double q = 0;
            for (int l = 0; l < n; l++)
                q += double(V[l + size_t(i) * n]) * double(V[l + size_t(j) * n]);
            q -= i == j ? 1.0 : 0.0;
            o2 += q * q;
        }
    }
    e.resid = std::sqrt(r2) / std::max(ref.normF, tiny) / unit;
    e.orth = std::sqrt(o2) / unit;
    return e;
}

// worst = max(worst, x), a NaN once seen staying.
void worsen(double &worst, double x)
{
    if (std::isnan(x) || (!std::isnan(worst) && x > worst))
        worst = x;
}

// ---- self-test of the reference (host only) ------------------------------------

int self_test()
{
    int failed = 0;
    auto report = [&](const char *what, int n, double err, double limit) {
        const bool ok = err <= limit;
        std::printf("  %-46s n = %2d: %.3g (limit %.3g) %s\n", what, n, err, limit, ok ? "ok" : "FAIL");
        failed += !ok;
    };
    std::printf("bench_eigen --self-test: the host Jacobi reference and the error measures\n");
    for (int n : {1, 2, 3, 5, 8, 16, 31, 32, 33, 64}) {
        const double unit = n * DBL_EPSILON;
        // tridiag(-1, 2, -1): lambda_k = 2 - 2 cos(k pi / (n + 1)).
        std::vector<double> A(size_t(n) * n, 0.0), w(static_cast<size_t>(n)), V(size_t(n) * n);
        for (int i = 0; i < n; i++) {
            A[i + size_t(i) * n] = 2;
            if (i + 1 < n)
                A[i + 1 + size_t(i) * n] = A[i + size_t(i + 1) * n] = -1;
        }
        const std::vector<double> A0 = A;
        int sweeps = jacobi_eig(n, A.data(), w.data(), V.data());
        double err = sweeps < 0 ? NAN : 0;
        for (int k = 1; k <= n; k++)
            worsen(err, std::fabs(w[size_t(k - 1)] - (2 - 2 * std::cos(k * M_PI / (n + 1)))) / 4 / unit);
        report("tridiag(-1,2,-1): eigenvalues / (n eps ||A||)", n, err, 10);
        reference ref = make_reference(n, A0);
        eig_errors e = measure<double>(n, ref, w.data(), V.data(), DBL_EPSILON);
        report("tridiag(-1,2,-1): residual, orthogonality", n, std::max(e.resid, e.orth), 10);

        // The benchmark's own generator (system 7): trace, Frobenius norm, A V = V diag(w).
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[i + size_t(j) * n] = offdiag(SEED_SYM, 7, i, j);
        ref = make_reference(n, A);
        std::vector<double> B = A;
        sweeps = jacobi_eig(n, B.data(), w.data(), V.data());
        double tr = 0, sum = 0, f2 = 0, s2 = 0;
        for (int i = 0; i < n; i++) {
            tr += A[i + size_t(i) * n];
            sum += w[size_t(i)];
            s2 += w[size_t(i)] * w[size_t(i)];
        }
        for (double x : A)
            f2 += x * x;
        const double inv = std::max(std::fabs(tr - sum) / (std::sqrt(double(n)) * ref.normF),
                                    std::fabs(f2 - s2) / (2 * f2)) / unit;
        report("random symmetric: trace and Frobenius invariants", n, sweeps < 0 ? NAN : inv, 10);
        e = measure<double>(n, ref, w.data(), V.data(), DBL_EPSILON);
        report("random symmetric: residual, orthogonality", n, std::max(e.resid, e.orth), 10);
        report("random symmetric: eigenvalues of V, reference", n, e.eval, 1);
        // The measures must see an error: a perturbed eigenvalue and vector.
        if (n >= 2) {
            std::vector<double> w2 = w, V2 = V;
            w2[0] += 1e-6 * ref.norm2;
            V2[1] += 1e-6;
            e = measure<double>(n, ref, w2.data(), V2.data(), DBL_EPSILON);
            const bool seen = e.eval > 1e3 && e.resid > 1e3 && e.orth > 1e3;
            std::printf("  %-46s n = %2d: %s\n", "measures see a 1e-6 perturbation", n, seen ? "ok" : "FAIL");
            failed += !seen;
        }
    }
    {   // repeated eigenvalues and the zero matrix
        const int n = 6;
        std::vector<double> A(size_t(n) * n, 0.0), w(static_cast<size_t>(n)), V(size_t(n) * n);
        const int r = jacobi_eig(n, A.data(), w.data(), V.data());
        report("zero matrix: max |lambda|", n, r < 0 ? NAN : std::fabs(*std::max_element(w.begin(), w.end())), 0);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[i + size_t(j) * n] = 1; // ones(6): eigenvalues 0 (5 times) and 6
        const std::vector<double> A0 = A;
        jacobi_eig(n, A.data(), w.data(), V.data());
        double err = std::fabs(w[size_t(n - 1)] - n);
        for (int i = 0; i < n - 1; i++)
            worsen(err, std::fabs(w[size_t(i)]));
        report("ones(6): eigenvalues / (n eps ||A||)", n, err / n / (n * DBL_EPSILON), 10);
        const eig_errors e = measure<double>(n, make_reference(n, A0), w.data(), V.data(), DBL_EPSILON);
        report("ones(6): residual, orthogonality", n, std::max(e.resid, e.orth), 10);
    }
    std::printf(failed ? "self-test: %d FAILED\n" : "self-test: all ok\n", failed);
    return failed ? 1 : 0;
}

// ---- one configuration's data ------------------------------------------------------

// A(i, j) = A(j, i) uniform in [-1, 1), diagonal included (offdiag depends on
// the unordered pair only; its key differs for i = j).
template <typename T> __global__ void fill_symmetric(T *A, int n, long long batch, uint64_t seed)
{
    const long long nn = (long long)n * n, total = nn * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long sys = idx / nn;
        const int rem = int(idx - sys * nn), j = rem / n, i = rem % n;
        A[idx] = T(offdiag(seed, sys, i, j));
    }
}

// Device bytes of one configuration (vendor workspaces not included).
size_t eig_bytes(int n, long long batch, size_t elem)
{
    const size_t nn = size_t(n) * n, ne = size_t(std::max(n - 1, 1));
    return (2 * nn + 2 * size_t(n) + ne) * batch * elem + 2 * batch * sizeof(int);
}

template <typename T> struct eig_problem {
    int n;
    long long batch;
    dev_array<T> A0; // pristine input (ours reads it directly, never writes it)
    dev_array<T> Aw; // cuSOLVER's working copy (A in, V out); ours' V output
    dev_array<T> w, d, e;
    dev_array<int> count, info;
    std::map<long long, reference> refs; // host references of sampled systems

    eig_problem(int n_, long long batch_, cudaStream_t s)
        : n(n_), batch(batch_), A0(nn() * batch_), Aw(nn() * batch_), w(size_t(n_) * batch_),
          d(size_t(n_) * batch_), e(size_t(std::max(n_ - 1, 1)) * batch_), count(size_t(batch_)),
          info(size_t(batch_))
    {
        const int threads = 256;
        fill_symmetric<T><<<grid_for((long long)A0.count, threads), threads, 0, s>>>(A0.p, n, batch, SEED_SYM);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(s));
    }
    size_t nn() const { return size_t(n) * n; }
};

// The sampled systems of a run over the first b matrices: the first and the
// last `sample` of them, as ranges [first, first + count).
std::vector<std::pair<long long, long long>> sample_ranges(long long b, int sample)
{
    const long long head = std::min<long long>(sample, b);
    const long long tail_first = std::max<long long>(head, b - sample);
    std::vector<std::pair<long long, long long>> r{{0, head}};
    if (tail_first < b)
        r.push_back({tail_first, b - tail_first});
    return r;
}

template <typename T> std::vector<T> fetch(const T *src, size_t per, long long first, long long count)
{
    std::vector<T> h(per * size_t(count));
    CHECK(cudaMemcpy(h.data(), src + per * size_t(first), h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// Fills P.refs for the sampled systems of a run over the first b matrices.
template <typename T> void ensure_references(eig_problem<T> &P, long long b, int sample)
{
    const int n = P.n;
    for (const auto &rg : sample_ranges(b, sample)) {
        bool missing = false;
        for (long long k = rg.first; k < rg.first + rg.second; k++)
            missing |= P.refs.count(k) == 0;
        if (!missing)
            continue;
        const std::vector<T> A = fetch(P.A0.p, P.nn(), rg.first, rg.second);
        for (long long k = 0; k < rg.second; k++)
            if (P.refs.count(rg.first + k) == 0)
                P.refs[rg.first + k] =
                    make_reference(n, std::vector<double>(A.begin() + P.nn() * k, A.begin() + P.nn() * (k + 1)));
    }
}

struct eig_verdict {
    eig_errors worst{0, NAN, NAN};
    std::string why; // "" = passed
    bool ok() const { return why.empty(); }
};

// Checks a synchronised run over the first b matrices: info_why (the
// method's info/count summary), finiteness of w (and V) over the run, and
// the three measures on the sampled systems (see the header).
template <typename T>
eig_verdict check_eig(eig_problem<T> &P, long long b, const T *dw, const T *dV, const std::string &info_why,
                      int sample, cudaStream_t s)
{
    eig_verdict v;
    v.why = info_why;
    const int n = P.n;
    unsigned long long bad = nonfinite_count(dw, (long long)(size_t(n) * b), s);
    if (dV != nullptr)
        bad += nonfinite_count(dV, (long long)(P.nn() * b), s);
    if (bad != 0)
        add_why(v.why, std::to_string(bad) + " non-finite entries in w" + (dV ? ", V" : ""));

    ensure_references(P, b, sample);
    if (dV != nullptr)
        v.worst.resid = v.worst.orth = 0;
    for (const auto &rg : sample_ranges(b, sample)) {
        const std::vector<T> w = fetch(dw, size_t(n), rg.first, rg.second);
        const std::vector<T> V = dV ? fetch(dV, P.nn(), rg.first, rg.second) : std::vector<T>();
        for (long long k = 0; k < rg.second; k++) {
            const eig_errors e = measure<T>(n, P.refs.at(rg.first + k), &w[size_t(n) * k],
                                            dV ? &V[P.nn() * k] : nullptr, prec<T>::eps);
            worsen(v.worst.eval, e.eval);
            if (dV != nullptr) {
                worsen(v.worst.resid, e.resid);
                worsen(v.worst.orth, e.orth);
            }
        }
    }
    char s2[128];
    const std::pair<const char *, double> measures[] = {
        {"eigenvalue error", v.worst.eval}, {"residual", v.worst.resid}, {"orthogonality", v.worst.orth}};
    for (int i = 0; i < (dV != nullptr ? 3 : 1); i++) // values only: the eigenvalues alone
        if (!(measures[i].second <= C_EIG)) {
            std::snprintf(s2, sizeof s2, "%s %.3g n eps > %.0f n eps", measures[i].first, measures[i].second, C_EIG);
            add_why(v.why, s2);
        }
    return v;
}

// "" when every count[0..b) equals n, else a summary.
std::string count_summary(const int *dcount, long long b, int n)
{
    std::vector<int> h(static_cast<size_t>(b));
    CHECK(cudaMemcpy(h.data(), dcount, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0, first = -1;
    for (long long k = 0; k < b; k++)
        if (h[size_t(k)] != n && bad++ == 0)
            first = k;
    if (bad == 0)
        return "";
    char s[160];
    std::snprintf(s, sizeof s, "count: %lld of %lld not n (first: [%lld] = %d)", bad, b, first, h[size_t(first)]);
    return s;
}

// ---- results ---------------------------------------------------------------------

struct eig_row {
    std::string precision;
    int n = 0;
    std::string method;
    int id = -1;                 // method_id
    long long batch = 0;         // the batch that ran
    std::string rate_text;       // replaces the matrices/s cell: "n/a (n > 32)", "failed: ..."
    double median_ms = NAN, spread = NAN;
    double rate = NAN, bound = NAN, vs_vendor = NAN; // matrices/s; bound; rate / best cuSOLVER
    eig_errors err{NAN, NAN, NAN};
    int reps = 0;
    std::string check; // "ok", "FAIL", "n/a", "SKIP"
    std::string note;
};

struct eig_report {
    std::vector<std::string> header;
    std::vector<eig_row> rows;
    std::vector<std::string> targets;
    bool ours_failed = false, vendor_failed = false;
};

const std::vector<std::string> EIG_COLUMNS{
    "precision", "n", "method", "batch", "matrices/s", "bound", "% of bound", "vs best cuSOLVER",
    "eigenvalue err/(n eps)", "residual/(n eps)", "orth/(n eps)", "median ms", "spread", "check", "note"};

std::vector<std::string> eig_cells(const eig_row &r)
{
    return {r.precision,
            std::to_string(r.n),
            r.method,
            r.batch > 0 ? std::to_string(r.batch) : "-",
            r.rate_text.empty() ? fmt("%.4g", r.rate) : r.rate_text,
            fmt("%.4g", r.bound),
            fmt("%.1f%%", 100 * r.rate / r.bound),
            fmt("%.2f", r.vs_vendor),
            fmt("%.2f", r.err.eval),
            fmt("%.2f", r.err.resid),
            fmt("%.2f", r.err.orth),
            fmt("%.4f", r.median_ms),
            fmt("%.1f%%", 100 * r.spread),
            r.check,
            r.note};
}

void print_eig_columns(const char *title)
{
    std::printf("\n%s\n%-6s %3s  %-32s %7s %11s %10s %7s %7s %8s %8s %8s %10s %-5s %s\n", title, "prec", "n",
                "method", "batch", "matrices/s", "bound", "%bound", "vs cus", "eval", "resid", "orth", "median ms",
                "check", "note");
}

void print_eig_row(const eig_row &r)
{
    const std::vector<std::string> c = eig_cells(r);
    std::printf("%-6s %3s  %-32s %7s %11s %10s %7s %7s %8s %8s %8s %10s %-5s %s\n", c[0].c_str(), c[1].c_str(),
                c[2].c_str(), c[3].c_str(), c[4].c_str(), c[5].c_str(), c[6].c_str(), c[7].c_str(), c[8].c_str(),
                c[9].c_str(), c[10].c_str(), c[11].c_str(), c[13].c_str(), c[14].c_str());
    std::fflush(stdout);
}

const char *const TARGETS_NOTE =
    "Targets of issue 4 (H200, matrices/s, ours): n = 32: >= 4e7 with vectors in single, >= 2e7 with vectors "
    "in double, >= 1e8 values only in single; n = 64: >= 5e6 with vectors in single.";

void write_outputs(const eig_report &rep, const options &o)
{
    if (o.out.empty())
        return;
    FILE *f = std::fopen(o.out.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", o.out.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(f, "# bench_eigen: batched symmetric eigensolvers, device-resident\n\n");
    std::fprintf(f, "%s\n\n", TARGETS_NOTE);
    for (const std::string &h : rep.header)
        std::fprintf(f, "- %s\n", h.c_str());
    if (!rep.targets.empty()) {
        std::fprintf(f, "\n## Targets of issue 4 (this run)\n\n");
        for (const std::string &t : rep.targets)
            std::fprintf(f, "- %s\n", t.c_str());
    }
    std::fprintf(f, "\n## Eigendecompositions: matrices per second\n\n");
    std::vector<std::vector<std::string>> body;
    for (const eig_row &r : rep.rows)
        body.push_back(eig_cells(r));
    markdown_table(f, EIG_COLUMNS, body);
    std::fprintf(f,
        "\nColumns: batch = matrices in the timed call (smaller than asked where cuSOLVER refused the batch); "
        "matrices/s = batch / median time; bound = copy bandwidth / bytes of A read + w (+ V) written; "
        "%% of bound = matrices/s / bound; vs best cuSOLVER = matrices/s / the best validated cuSOLVER "
        "matrices/s for the same job (vectors or values), same precision and n (> 1: faster); "
        "eigenvalue err = max|w - lambda| / ||A||_2, residual = ||AV - V diag(w)||_F / ||A||_F, "
        "orth = ||V'V - I||_F, worst over the sampled systems, each / (n eps) of the precision (pass: <= %.0f); "
        "spread = (max - min) / median over the repeats.\n", C_EIG);
    std::fclose(f);

    const std::string csv = csv_path(o.out);
    FILE *g = std::fopen(csv.c_str(), "w");
    if (g == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", csv.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(g, "precision,n,method,batch,matrices_per_s,bound,ratio_to_bound,vs_best_cusolver,"
                    "eigenvalue_err_neps,residual_neps,orth_neps,median_ms,spread,reps,check,note\n");
    for (const eig_row &r : rep.rows) {
        const std::string note = r.rate_text.empty() ? r.note : r.rate_text + (r.note.empty() ? "" : "; " + r.note);
        std::fprintf(g, "%s,%d,%s,%lld,%.6g,%.6g,%.6g,%.6g,%.3g,%.3g,%.3g,%.6g,%.6g,%d,%s,%s\n", r.precision.c_str(),
                     r.n, csv_field(r.method).c_str(), r.batch, r.rate, r.bound, r.rate / r.bound, r.vs_vendor,
                     r.err.eval, r.err.resid, r.err.orth, r.median_ms, r.spread, r.reps, r.check.c_str(),
                     csv_field(note).c_str());
    }
    std::fclose(g);
}

// ---- one method of one configuration ------------------------------------------------

struct env_t {
    const options &o;
    cusolverDnHandle_t solver;
    syevjInfo_t syevj_params;   // defaults
    cusolverDnParams_t x_params; // defaults
    l2_flusher &flush;
    cudaStream_t s;
    double bandwidth; // bytes/s
};

template <typename T> struct eig_method {
    int id = -1;
    std::vector<long long> batches;                 // tried in order until one runs
    std::function<std::string(long long b)> setup;  // workspace for batch b: "" or why (may be empty)
    std::function<void(long long b)> prep;          // untimed restore before a run (may be empty)
    std::function<std::string(long long b)> solve;  // enqueues the run: "" or why
    std::function<std::string(long long b)> check_info; // after a synchronisation
    const T *w = nullptr, *V = nullptr;             // outputs (V NULL: values only)
    std::string note;
};

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename T>
eig_row run_eig_method(eig_problem<T> &P, const eig_method<T> &m, const std::string &cfg, env_t &env, double bound)
{
    const options &o = env.o;
    const cudaStream_t s = env.s;
    const bool ours = is_ours(m.id);
    eig_row r;
    r.precision = prec<T>::name;
    r.n = P.n;
    r.method = METHOD_NAMES[m.id];
    r.id = m.id;
    r.bound = bound;
    r.note = m.note;
    const std::string where = cfg + ": " + r.method;

    // The first batch that the routine takes, with its validation run.
    std::vector<std::string> refused;
    long long b = 0;
    double per_run = 0; // wall seconds of one run: the validation run's, then the last warm-up's
    for (long long tb : m.batches) {
        g_activity = where + ": setup and validation run, batch " + std::to_string(tb);
        std::string why = m.setup ? m.setup(tb) : "";
        if (why.empty()) {
            if (m.prep)
                m.prep(tb);
            CHECK(cudaMemsetAsync(P.info.p, 0x7f, P.info.bytes(), s));
            CHECK(cudaMemsetAsync(P.count.p, 0x7f, P.count.bytes(), s));
            CHECK(cudaMemsetAsync(P.w.p, 0xff, P.w.bytes(), s)); // NaN: an entry never written fails
            if (ours && m.V != nullptr)
                CHECK(cudaMemsetAsync(P.Aw.p, 0xff, P.Aw.bytes(), s));
            CHECK(cudaStreamSynchronize(s));
            const auto t0 = std::chrono::steady_clock::now();
            why = m.solve(tb);
            if (!why.empty())
                settle_after_failure(s);
            CHECK(cudaStreamSynchronize(s));
            per_run = seconds_since(t0);
        }
        if (why.empty()) {
            b = tb;
            break;
        }
        refused.push_back("batch " + std::to_string(tb) + ": " + why);
        if (ours)
            break;
    }
    r.batch = b;
    std::string refusals;
    for (const std::string &x : refused)
        refusals += (refusals.empty() ? "" : "; ") + x;
    if (b == 0) { // nothing ran
        r.batch = m.batches.empty() ? 0 : m.batches.back();
        r.check = ours ? "FAIL" : "n/a";
        const std::string first = refused.empty() ? std::string("no batch to try") : refused.front();
        const size_t colon = first.find(": ");
        r.rate_text = ours ? "-" : "failed: " + (colon == std::string::npos ? first : first.substr(colon + 2));
        add_why(r.note, refusals);
        if (ours)
            std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, r.method.c_str(),
                         refusals.c_str());
        g_activity.clear();
        return r;
    }
    if (!refused.empty())
        add_why(r.note, "refused " + refusals + "; ran at batch " + std::to_string(b));

    g_activity = where + ": validation";
    eig_verdict v = check_eig(P, b, m.w, m.V, m.check_info(b), o.sample, s);
    r.err = v.worst;
    if (v.ok()) {
        g_activity = where + ": warm-up and timed repeats";
        std::string why;
        for (int wu = 0; wu < o.warmup && why.empty(); wu++) {
            if (m.prep)
                m.prep(b);
            CHECK(cudaStreamSynchronize(s));
            const auto t0 = std::chrono::steady_clock::now();
            why = m.solve(b);
            CHECK(cudaStreamSynchronize(s));
            per_run = seconds_since(t0);
        }
        int reps = o.reps;
        if (per_run * reps > o.max_seconds)
            reps = std::min(o.reps, std::max(3, int(o.max_seconds / std::max(per_run, 1e-9))));
        r.reps = reps;
        if (reps < o.reps)
            add_why(r.note, std::to_string(reps) + " repeats (--max-seconds)");
        if (why.empty()) {
            const timing t = time_repeats(
                reps, [&](int) { if (m.prep) m.prep(b); }, [&](int) { return m.solve(b); }, env.flush, s);
            why = t.why;
            if (why.empty()) {
                r.median_ms = t.median_ms;
                r.spread = (t.max_ms - t.min_ms) / t.median_ms;
                r.rate = double(b) / (t.median_ms * 1e-3);
                g_activity = where + ": check of the last timed repeat";
                const eig_verdict after = check_eig(P, b, m.w, m.V, m.check_info(b), o.sample, s);
                worsen(r.err.eval, after.worst.eval);
                worsen(r.err.resid, after.worst.resid);
                worsen(r.err.orth, after.worst.orth);
                if (!after.ok())
                    v.why = "after timing: " + after.why;
            }
        }
        if (!why.empty()) {
            settle_after_failure(s);
            v.why = why;
        }
    }
    g_activity.clear();
    r.check = v.ok() ? "ok" : "FAIL";
    if (!v.ok()) {
        add_why(r.note, v.why);
        std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, r.method.c_str(),
                     v.why.c_str());
    }
    return r;
}

// Batches a vendor routine is tried at: the batch asked for (at most cap),
// then the powers of two below it down to min (100000 -> 65536, 32768).
std::vector<long long> halving(long long batch, long long min, long long cap)
{
    std::vector<long long> v{std::min(batch, cap)};
    long long p = 1;
    while (p * 2 < v.front())
        p *= 2;
    for (; p >= min && p < v.front(); p /= 2)
        v.push_back(p);
    return v;
}

double device_budget(double mem_gb)
{
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    return std::min(mem_gb * 1e9, double(free_b) - 2e9); // 2 GB left for the libraries
}

eig_row plain_row(const char *precision, int n, int id, long long batch, const std::string &check,
                  const std::string &rate_text, const std::string &note, double bound)
{
    eig_row r;
    r.precision = precision;
    r.n = n;
    r.id = id;
    r.method = METHOD_NAMES[id];
    r.batch = batch;
    r.check = check;
    r.rate_text = rate_text;
    r.note = note;
    r.bound = bound;
    return r;
}

template <typename T> void run_config(int n, env_t &env, eig_report &rep)
{
    const options &o = env.o;
    const char *pname = prec<T>::name;
    const long long batch = o.batch;
    const double elem = double(sizeof(T));
    const double bound_vec = env.bandwidth / ((2.0 * n * n + n) * elem);
    const double bound_val = env.bandwidth / ((double(n) * n + n) * elem);
    auto bound_of = [&](int id) { return is_vectors(id) ? bound_vec : bound_val; };
    const size_t first = rep.rows.size();
    auto emit = [&](const eig_row &r) {
        print_eig_row(r);
        rep.rows.push_back(r);
    };

    const double budget = device_budget(o.mem_gb);
    if (double(eig_bytes(n, batch, sizeof(T))) > budget) {
        for (int id = 0; id < N_METHODS; id++)
            if (o.methods[id])
                emit(plain_row(pname, n, id, batch, "SKIP", "-",
                               "needs " + fmt("%.1f", eig_bytes(n, batch, sizeof(T)) / 1e9) + " GB, budget " +
                                   fmt("%.1f", budget / 1e9) + " GB",
                               bound_of(id)));
        return;
    }
    const std::string cfg = std::string(pname) + ", n = " + std::to_string(n);
    g_activity = cfg + ": generating the inputs";
    eig_problem<T> P(n, batch, env.s);
    g_activity = cfg + ": host references";
    ensure_references(P, batch, o.sample);
    g_activity.clear();

    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    const cublasFillMode_t fill = o.uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const cudaStream_t s = env.s;
    auto restore = [&P, s](long long b) {
        CHECK(cudaMemcpyAsync(P.Aw.p, P.A0.p, P.nn() * size_t(b) * sizeof(T), cudaMemcpyDeviceToDevice, s));
    };
    dev_array<unsigned char> work; // the vendor's device workspace of the current method
    std::vector<unsigned char> host_work;
    size_t work_bytes = 0, host_bytes = 0;
    int lwork = 0;

    for (int id = 0; id < N_METHODS; id++) {
        if (!o.methods[id])
            continue;
        const bool vec = is_vectors(id);
        const cusolverEigMode_t jobz = vec ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        eig_method<T> m;
        m.id = id;
        m.w = P.w.p;
        if (is_ours(id)) {
            m.batches = {batch};
            T *V = vec ? P.Aw.p : nullptr;
            m.V = V;
            m.solve = [&P, &o, V, s](long long b) {
                return status_why(eig<T>::ours(o.uplo, P.n, b, P.A0.p, P.d.p, P.e.p, &all, P.w.p, V, P.count.p,
                                               P.info.p, s),
                                  "bsym_cuda_eig_launch");
            };
            m.check_info = [&P](long long b) {
                std::string why = info_summary(P.info.p, b, "info");
                add_why(why, count_summary(P.count.p, b, P.n));
                return why;
            };
        } else if (id == SYEVJ_VEC || id == SYEVJ_VAL) {
            if (n > SYEVJ_MAX_N) {
                emit(plain_row(pname, n, id, 0, "n/a", "n/a (n > 32)", "syevjBatched takes n <= 32", bound_of(id)));
                continue;
            }
            m.batches = halving(batch, o.vendor_min_batch, 0x7fffffffLL);
            m.V = vec ? P.Aw.p : nullptr;
            m.prep = restore;
            m.setup = [&, jobz](long long b) -> std::string {
                lwork = 0;
                const cusolverStatus_t st = eig<T>::syevj_buffer(env.solver, jobz, fill, P.n, P.Aw.p, P.w.p, &lwork,
                                                                 env.syevj_params, int(b));
                if (st != CUSOLVER_STATUS_SUCCESS) {
                    settle_after_failure(s);
                    return cusolver_status_name(st) + " (bufferSize)";
                }
                work_bytes = size_t(std::max(lwork, 0)) * sizeof(T);
                return try_alloc(work, work_bytes);
            };
            m.solve = [&, jobz](long long b) -> std::string {
                const cusolverStatus_t st = eig<T>::syevj(env.solver, jobz, fill, P.n, P.Aw.p, P.w.p,
                                                          reinterpret_cast<T *>(work.p), lwork, P.info.p,
                                                          env.syevj_params, int(b));
                return st == CUSOLVER_STATUS_SUCCESS ? "" : cusolver_status_name(st);
            };
            m.check_info = [&P](long long b) { return info_summary(P.info.p, b, "info"); };
        } else { // XsyevBatched
            // documented: n * lda * batch <= 2^31 - 1
            const long long cap = std::max(1LL, 0x7fffffffLL / (long long)(size_t(n) * n));
            m.batches = halving(batch, o.vendor_min_batch, cap);
            if (batch > cap)
                m.note = "batch capped at " + std::to_string(m.batches.front()) + " (n*lda*batch <= 2^31-1)";
            m.V = vec ? P.Aw.p : nullptr;
            m.prep = restore;
            m.setup = [&, jobz](long long b) -> std::string {
                work_bytes = host_bytes = 0;
                const cusolverStatus_t st = cusolverDnXsyevBatched_bufferSize(
                    env.solver, env.x_params, jobz, fill, P.n, eig<T>::dtype, P.Aw.p, P.n, eig<T>::dtype, P.w.p,
                    eig<T>::dtype, &work_bytes, &host_bytes, b);
                if (st != CUSOLVER_STATUS_SUCCESS) {
                    settle_after_failure(s);
                    return cusolver_status_name(st) + " (bufferSize)";
                }
                size_t free_b = 0, total_b = 0;
                CHECK(cudaMemGetInfo(&free_b, &total_b));
                const double room = double(free_b) - 1e9; // 1 GB left for the library
                if (double(work_bytes) > room)
                    return "device workspace of " + fmt("%.3g", work_bytes / 1e9) + " GB (" +
                           fmt("%.3g", room / 1e9) + " GB free)";
                if (host_bytes > (size_t(16) << 30))
                    return "host workspace of " + fmt("%.3g", host_bytes / 1e9) + " GB";
                host_work.assign(std::max<size_t>(host_bytes, 1), 0);
                return try_alloc(work, work_bytes);
            };
            m.solve = [&, jobz](long long b) -> std::string {
                const cusolverStatus_t st = cusolverDnXsyevBatched(
                    env.solver, env.x_params, jobz, fill, P.n, eig<T>::dtype, P.Aw.p, P.n, eig<T>::dtype, P.w.p,
                    eig<T>::dtype, work.p, work_bytes, host_work.data(), host_bytes, P.info.p, b);
                return st == CUSOLVER_STATUS_SUCCESS ? "" : cusolver_status_name(st);
            };
            m.check_info = [&P](long long b) { return info_summary(P.info.p, b, "info"); };
        }
        eig_row r = run_eig_method(P, m, cfg, env, bound_of(id));
        if (!is_ours(id) && r.check == "ok" && work_bytes > 0)
            add_why(r.note, "workspace " + fmt("%.0f", work_bytes / 1e6) + " MB" +
                                (host_bytes > 0 ? " + host " + fmt("%.0f", host_bytes / 1e6) + " MB" : ""));
        if (r.check == "FAIL")
            (is_ours(id) ? rep.ours_failed : rep.vendor_failed) = true;
        emit(r);
        work = dev_array<unsigned char>(); // release before the next method
        host_work.clear();
        host_work.shrink_to_fit();
        work_bytes = host_bytes = 0;
    }

    // vs best cuSOLVER, per job (vectors / values).
    for (bool vec : {true, false}) {
        double best = NAN;
        for (size_t i = first; i < rep.rows.size(); i++) {
            const eig_row &r = rep.rows[i];
            if (!is_ours(r.id) && is_vectors(r.id) == vec && r.check == "ok" && !(r.rate <= best))
                best = r.rate;
        }
        for (size_t i = first; i < rep.rows.size(); i++)
            if (is_vectors(rep.rows[i].id) == vec && rep.rows[i].check == "ok")
                rep.rows[i].vs_vendor = rep.rows[i].rate / best;
    }
    std::string line;
    for (size_t i = first; i < rep.rows.size(); i++)
        if (is_ours(rep.rows[i].id) && !std::isnan(rep.rows[i].vs_vendor))
            line += std::string(line.empty() ? "" : ", ") + (rep.rows[i].id == OURS_VEC ? "vectors " : "values ") +
                    fmt("%.2f", rep.rows[i].vs_vendor) + "x";
    if (!line.empty())
        std::printf("       ours / best cuSOLVER: %s\n", line.c_str());
}

// ---- main ----------------------------------------------------------------------------

std::string join(const std::vector<int> &v)
{
    std::string s;
    for (int x : v)
        s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

std::vector<std::string> describe(const options &o, const cudaDeviceProp &p, double bandwidth, size_t bw_bytes,
                                  size_t flush_bytes)
{
    int driver = 0, runtime = 0, solver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cusolverGetVersion(&solver));
    std::string ps, ms;
    for (char c : o.precisions)
        ps += (ps.empty() ? "" : ",") + std::string(1, c);
    for (int m = 0; m < N_METHODS; m++)
        if (o.methods[m])
            ms += (ms.empty() ? "" : ",") + std::string(METHOD_KEYS[m]);
    return {
        "date: " + utc_now(),
        "host: " + host_name(),
        "GPU: " + gpu_description(p),
        "CUDA driver " + version_string(driver) + ", runtime " + version_string(runtime) + ", cuSOLVER " +
            std::to_string(solver),
        "command: `" + o.command + "`",
        "methods " + ms + "; precisions " + ps + "; n = " + join(o.ns) + "; batch " + std::to_string(o.batch) +
            " (cuSOLVER halving to >= " + std::to_string(o.vendor_min_batch) + " when it refuses a batch); uplo " +
            std::string(1, o.uplo) + "; all eigenvalues (BSYM_SELECT_ALL)",
        "timing: median of up to " + std::to_string(o.reps) + " repeats (CUDA events around the solver calls " +
            "only; fewer when one method's repeats would pass about " + fmt("%.1f", o.max_seconds) +
            " s, at least 3), after 1 validation run and " + std::to_string(o.warmup) +
            " warm-up run(s); cuSOLVER's A restored by a device copy and L2 flushed by reading " +
            fmt("%.0f", flush_bytes / 1e6) + " MB before each repeat, outside the timed region (ours reads A " +
            "without writing it)",
        "bandwidth: " + fmt("%.1f", bandwidth / 1e9) + " GB/s, device-to-device cudaMemcpy of " +
            fmt("%.0f", bw_bytes / 1e6) + " MB counted as bytes read + bytes written (median of 10)",
        "bounds = bandwidth / (entries that must move * sizeof(T)): values only A+w = n^2+n, with vectors "
        "A+w+V = 2n^2+n",
        "inputs: random symmetric, every entry of the pair (i,j), (j,i) uniform in [-1, 1), diagonal included, "
        "generated on the device",
        "cuSOLVER: syevjBatched with default syevjInfo (tolerance, max sweeps, sorted); XsyevBatched with default "
        "cusolverDnParams, compute type = data type",
        "validation: info all 0 (ours: count = n), w (and V) finite over the batch; on the first and last " +
            std::to_string(o.sample) + " systems, against a cyclic Jacobi reference in double on the host: " +
            "max|w - lambda|/||A||_2, ||AV - V diag(w)||_F/||A||_F, ||V'V - I||_F, each <= " +
            fmt("%.0f", C_EIG) + " n eps; checked before timing and on the last timed repeat's output",
    };
}

} // namespace

int main(int argc, char **argv)
{
    const options o = parse_options(argc, argv);
    if (o.self_test)
        return self_test();

    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaSetDevice(0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s)); // blocking: plain cudaMemcpy calls order after it
    cusolverDnHandle_t solver = nullptr;
    CHECK(cusolverDnCreate(&solver));
    CHECK(cusolverDnSetStream(solver, s));
    syevjInfo_t syevj_params = nullptr;
    CHECK(cusolverDnCreateSyevjInfo(&syevj_params));
    cusolverDnParams_t x_params = nullptr;
    CHECK(cusolverDnCreateParams(&x_params));

    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t bw_bytes = std::min<size_t>(size_t(2) << 30, free_b / 4);
    const double bandwidth = measure_bandwidth(bw_bytes, s);

    eig_report rep;
    {
        l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
        rep.header = describe(o, prop, bandwidth, bw_bytes, flush.buf.bytes());
        std::printf("bench_eigen\n  %s\n", TARGETS_NOTE);
        for (const std::string &line : rep.header)
            std::printf("  %s\n", line.c_str());
        env_t env{o, solver, syevj_params, x_params, flush, s, bandwidth};
        for (char p : o.precisions) {
            print_eig_columns(p == 's' ? "eigendecompositions, single" : "eigendecompositions, double");
            for (int n : o.ns) {
                if (p == 's')
                    run_config<float>(n, env, rep);
                else
                    run_config<double>(n, env, rep);
                write_outputs(rep, o);
            }
        }
        // The issue's targets, met or not (where this run measured them).
        struct target {
            const char *precision;
            int n, id;
            double rate;
            const char *what;
        };
        const target targets[] = {{"single", 32, OURS_VEC, 4e7, "with vectors"},
                                   {"double", 32, OURS_VEC, 2e7, "with vectors"},
                                   {"single", 32, OURS_VAL, 1e8, "values only"},
                                   {"single", 64, OURS_VEC, 5e6, "with vectors"}};
        for (const target &t : targets)
            for (const eig_row &r : rep.rows)
                if (r.precision == t.precision && r.n == t.n && r.id == t.id)
                    rep.targets.push_back("n = " + std::to_string(t.n) + " " + t.precision + ", " + t.what +
                                          " >= " + fmt("%.0e", t.rate) + " matrices/s: " + fmt("%.3g", r.rate) +
                                          (r.check == "ok" && r.rate >= t.rate ? " (met)" : " (NOT met)") +
                                          (std::isnan(r.vs_vendor) ? std::string()
                                                                   : "; " + fmt("%.2f", r.vs_vendor) +
                                                                         "x the best cuSOLVER"));
        write_outputs(rep, o);
    }

    CHECK(cusolverDnDestroyParams(x_params));
    CHECK(cusolverDnDestroySyevjInfo(syevj_params));
    CHECK(cusolverDnDestroy(solver));
    CHECK(cudaStreamDestroy(s));
    return bench_end(4, rep.targets, o.out, rep.ours_failed, "one of our kernels", rep.vendor_failed, "a vendor routine");
}
