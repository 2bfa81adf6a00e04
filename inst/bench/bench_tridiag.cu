// bench_tridiag.cu -- device-resident benchmarks of issue 3: batched
// tridiagonal solves (PCR), method "tridiag" (Householder + PCR) and the
// Householder tridiagonalization, beside the vendor's batched routines and
// the memory-bandwidth bound, measured in the same run.
//
// Part (a), batched tridiagonal solve T_k x_k = b_k, one right-hand side,
// diagonally dominant random T_k (layout of bsym_dtridiag_solve):
//   ours pcr (symmetric)     bsym_cuda_pcr_launch_{s,d} with ddu = NULL;
//   ours pcr (general)       the same with a separate super-diagonal;
//   cusparse gtsv2StridedBatch  cusparse{S,D}gtsv2StridedBatch on the general
//                            system (its own layout: n entries per diagonal,
//                            dl[0] = du[n-1] = 0, prepared untimed; buffer
//                            from its bufferSizeExt query, allocated once;
//                            calls of at most 2^26 entries, since its size
//                            query overflows above about 2^27: for n >= 256
//                            at the default batch, several calls, all timed);
//                            run first: its x is the reference the others
//                            are compared with (max |x - x_strided| /
//                            max |x_strided| <= the residual tolerance below,
//                            else FAIL);
//   cusparse gtsvInterleavedBatch aK  cusparse{S,D}gtsvInterleavedBatch,
//                            algorithm K (--ialgo; 0 = Thomas by default, 1
//                            LU with pivoting, 2 QR) on the general system in
//                            its interleaved layout (entry i of system k at
//                            i*batch + k), prepared untimed; dl, d, du and b
//                            restored untimed before every repeat (the
//                            routine takes them non-const); x turned back
//                            into our layout, untimed, for the checks;
//   issue 15's table         ours (general) / the better vendor routine
//                            (target >= 1.5 for n = 256 .. 8192);
//                            --elems-pcr E gives every n the batch E / n, so
//                            that each n moves the same bytes; --pcr-rows
//                            runs ours once per rows-per-thread value
//                            (the launch's rows argument; for tuning);
//   bound                    measured copy bandwidth / bytes one system must
//                            move: general dl, d, du, b read and x written,
//                            (5n - 2) entries; symmetric (4n - 1) entries.
//                            Each row's ratio is against the bound of its own
//                            problem (symmetric or general).
// Part (b), method "tridiag" on random SPD systems (the inputs of bench_ldlt):
//   ours tridiag             bsym_cuda_hhsolve_launch_{s,d} (Householder
//                            A = Q T Q^T, PCR on T, x = Q z; the warp kernel
//                            up to n = 64, the block kernel from 65 to 256);
//   ours LDL^T G=0           bsym_cuda_ldlt_launch_{s,d}, group 0 (tuned),
//                            where n <= BSYM_GPU_LDLT_MAX_N;
//   cusolver potrf+potrs     cusolverDn{S,D}potrfBatched + potrsBatched: the
//                            vendor baseline at every n (cuSOLVER has no
//                            batched tridiagonalization or symmetric
//                            indefinite solve; syevjBatched is an
//                            eigensolver, not comparable), a Cholesky solve
//                            of the same SPD systems;
//   bound                    as in bench_ldlt: (n^2 + 2n) entries per system.
//   A second table gives LDL^T / tridiag (the paper reports about 5).
// Part (c), informational: bsym_cuda_tridiagonalize_launch_{s,d} without Q
// (d and e only) and with Q; bound: A read, d, e (and Q) written.
//
// What is timed (as bench_ldlt, whose machinery this shares through
// bench_common.cuh): inputs are generated on the device once per
// configuration; before every repeat, OUTSIDE the timed region, the
// right-hand side is restored from a pristine copy by a device copy (every
// solver overwrites b with x; A too for cuSOLVER, which factors in place) and
// a read of 4x the L2 size evicts the L2; the CUDA event pair brackets only
// the solve calls, so the restore is never counted, for ours and the vendor's
// alike. Two working copies alternate where memory allows. Systems/s = batch
// / median over --reps repeats, after one validation run and --warmup
// untimed runs.
//
// Validation, before timing and again on the last timed repeat's output:
// every info entry 0 (our info arrays are first filled with a sentinel), no
// non-finite entry in the output, and on --sample systems spread over the
// batch plus the last one, computed in double on the host:
//   (a) backward error ||b - T x||_inf / (||T||_inf ||x||_inf + ||b||_inf)
//       <= 100 n eps and relative residual ||b - T x||_inf / ||b||_inf <=
//       1e-3 (single) / 1e-10 (double);
//   (b) backward error <= 100 n eps (as bench_ldlt);
//   (c) with Q: max(||A Q - Q T||_F / ||A||_F, ||Q^T Q - I||_F) <= 100 n eps
//       (on at most 200 sampled systems); without Q, the invariants of the
//       similarity: |tr A - sum d| / (sqrt(n) ||A||_F) and
//       |(||A||_F^2 - ||T||_F^2)| / (2 ||A||_F^2) <= 100 n eps.
//
// Exit status: 0 all checks passed; 1 one of our kernels failed a check; 3
// only a vendor routine failed one; 2 a CUDA/cuSPARSE/cuSOLVER call failed
// (the run stops there, naming what it was doing). The tables are
// (re)written after every configuration.
//
// Usage: bench_tridiag [options] [--out FILE.md]   (bench_tridiag --help)
#define BENCH_NAME "bench_tridiag"
#include "bench_common.cuh"

#include <cusparse.h>

namespace {

void check(cusparseStatus_t e, const char *what, const char *file, int line)
{
    if (e != CUSPARSE_STATUS_SUCCESS) {
        char why[128];
        std::snprintf(why, sizeof why, "%s (cusparseStatus_t %d)", cusparseGetErrorString(e), int(e));
        die(file, line, what, why);
    }
}

// ---- options -------------------------------------------------------------

// Parts (b), (c) take the Householder kernels' sizes; part (b)'s LDL^T row
// only where the LDL^T kernels also take n.
const int DENSE_MAX_N = BSYM_GPU_HOUSEHOLDER_MAX_N;

struct options {
    std::vector<int> ns_pcr{8, 32, 64, 256, 1024}; // part (a)
    std::vector<int> ns_dense{8, 16, 32, 64, 65, 96, 128, 192, 256}; // parts (b), (c)
    std::vector<char> precisions{'s', 'd'};
    bool part_a = true, part_b = true, part_c = true;
    long long batch_pcr = 0, batch_dense = 0; // 0: defaults per n
    long long elems_pcr = 0;                  // part (a): batch = elems / n when > 0
    std::vector<int> pcr_rows;                // part (a): rows-a-thread values to run ours with
    std::vector<int> ialgos{0};               // part (a): gtsvInterleavedBatch algorithms
    int reps = 10;
    int warmup = 1;
    int sample = 1000;
    double mem_gb = 40;
    char uplo = 'L';
    std::string out; // markdown file; the CSV goes beside it
    std::string command;
};

// Part (a): 2^20 systems up to n = 256, then 2^28 / n (2^18 at n = 1024):
// each of b, x, d is 2^28 elements at most (1 GiB in float).
long long default_batch_pcr(int n) { return std::min<long long>(1LL << 20, std::max(1LL, (1LL << 28) / n)); }
// Parts (b), (c): as bench_ldlt (1e6 up to n = 32, 262144 up to 64); above
// 64, 2^28 / n^2 (2 GiB of double matrices a copy; 4096 at n = 256, still
// 30 waves of the block kernel on an H100).
long long default_batch_dense(int n)
{
    return n <= 32 ? 1000000LL : n <= 64 ? 262144LL : (1LL << 28) / (long long)n / n;
}

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: bench_tridiag [options] [FILE.md]\n"
        "  --parts LIST       a,b,c (default all): a tridiagonal solve (PCR) vs cuSPARSE gtsv2StridedBatch;\n"
        "                     b method \"tridiag\" vs our LDL^T and cuSOLVER potrf+potrs; c tridiagonalization\n"
        "  --n LIST           sizes for every part (each part skips sizes it does not take)\n"
        "  --n-pcr LIST       sizes of part a (default 8,32,64,256,1024; 2..%d)\n"
        "  --n-dense LIST     sizes of parts b and c (default 8,16,32,64,65,96,128,192,256; 1..%d)\n"
        "  --prec LIST        s,d (also single,double,float,both; default s,d)\n"
        "  --batch N          systems per configuration, every part\n"
        "  --batch-pcr N      part a (default 2^20 up to n = 256, 2^28/n above)\n"
        "  --elems-pcr E      part a: batch = E / n (every n moves about the same bytes), over --batch-pcr\n"
        "  --pcr-rows LIST    part a: run ours once per rows-per-thread value (4, 8, 16: the launch's rows argument)\n"
        "  --ialgo LIST       part a: cusparse gtsvInterleavedBatch algorithms (0 Thomas, 1 LU, 2 QR;\n"
        "                     default 0; 'none' skips it)\n"
        "  --batch-dense N    parts b, c (default 1e6 for n <= 32, 262144 up to 64, 2^28/n^2 above)\n"
        "  --reps N           timed repeats, median reported (default 10)\n"
        "  --warmup N         untimed runs per method after validation (default 1)\n"
        "  --sample N         systems checked for backward error (default 1000)\n"
        "  --mem-gb X         device memory budget in GB (default 40)\n"
        "  --uplo L|U         triangle referenced in parts b and c (default L)\n"
        "  --out FILE.md      write the tables as markdown to FILE.md and as CSV to FILE.csv\n"
        "exit status: 0 ok, 1 one of our kernels failed validation, 3 a vendor routine failed\n"
        "validation, 2 a CUDA/cuSPARSE/cuSOLVER call failed\n",
        BSYM_GPU_PCR_MAX_N, DENSE_MAX_N);
}

std::vector<int> parse_sizes(const std::string &v, const char *name, int max)
{
    std::vector<int> ns;
    for (const std::string &p : split(v)) {
        const long long n = parse_count(p, name);
        if (n > max)
            bad_option(std::string(name) + ": " + p + " is above " + std::to_string(max));
        ns.push_back(int(n));
    }
    return ns;
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
            o.ns_pcr = o.ns_dense = parse_sizes(v, "--n", std::max(BSYM_GPU_PCR_MAX_N, DENSE_MAX_N));
        } else if (a == "--n-pcr") {
            o.ns_pcr = parse_sizes(v, "--n-pcr", BSYM_GPU_PCR_MAX_N);
        } else if (a == "--n-dense") {
            o.ns_dense = parse_sizes(v, "--n-dense", DENSE_MAX_N);
        } else if (a == "--parts") {
            o.part_a = o.part_b = o.part_c = false;
            for (const std::string &p : split(v)) {
                if (p == "a")
                    o.part_a = true;
                else if (p == "b")
                    o.part_b = true;
                else if (p == "c")
                    o.part_c = true;
                else
                    bad_option("--parts: unknown part '" + p + "' (a, b or c)");
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
            o.batch_pcr = o.batch_dense = parse_count(v, "--batch");
        } else if (a == "--batch-pcr") {
            o.batch_pcr = parse_count(v, "--batch-pcr");
        } else if (a == "--elems-pcr") {
            o.elems_pcr = parse_count(v, "--elems-pcr");
        } else if (a == "--pcr-rows") {
            o.pcr_rows.clear();
            for (const std::string &p : split(v)) {
                const long long m = parse_count(p, "--pcr-rows");
                if (m != 4 && m != 8 && m != 16)
                    bad_option("--pcr-rows: " + p + " is not 4, 8 or 16");
                o.pcr_rows.push_back(int(m));
            }
        } else if (a == "--ialgo") {
            o.ialgos.clear();
            if (v != "none")
                for (const std::string &p : split(v)) {
                    if (p != "0" && p != "1" && p != "2")
                        bad_option("--ialgo: " + p + " is not 0, 1 or 2");
                    o.ialgos.push_back(p[0] - '0');
                }
        } else if (a == "--batch-dense") {
            o.batch_dense = parse_count(v, "--batch-dense");
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
    if (o.precisions.empty() || !(o.part_a || o.part_b || o.part_c))
        bad_option("--prec and --parts need at least one entry");
    if (!o.out.empty()) { // fail now rather than after the run
        FILE *f = std::fopen(o.out.c_str(), "w");
        if (f == nullptr)
            bad_option("cannot write " + o.out + ": " + std::strerror(errno));
        std::fclose(f);
    }
    return o;
}

// ---- precision traits of the new entry points and cuSPARSE --------------------

template <typename T> struct tri;

template <> struct tri<float> {
    static bsym_status pcr(int n, long long batch, const float *dl, const float *d, const float *du, float *B,
                           int *info, void *work, int rows, cudaStream_t s)
    {
        return bsym_cuda_pcr_launch_s(n, 1, batch, dl, d, du, B, info, work, rows, s);
    }
    static bsym_status hhsolve(char uplo, int n, long long batch, const float *A, float *B, int *info,
                               cudaStream_t s)
    {
        return bsym_cuda_hhsolve_launch_s(uplo, n, 1, batch, A, B, info, nullptr, nullptr, s);
    }
    static bsym_status tridiagonalize(char uplo, int n, long long batch, const float *A, float *d, float *e,
                                      float *Q, int *info, cudaStream_t s)
    {
        return bsym_cuda_tridiagonalize_launch_s(uplo, n, batch, A, d, e, Q, info, s);
    }
    static cusparseStatus_t gtsv_buffer(cusparseHandle_t h, int m, const float *dl, const float *d, const float *du,
                                        const float *x, int batch, size_t *bytes)
    {
        return cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, batch, m, bytes);
    }
    static cusparseStatus_t gtsv(cusparseHandle_t h, int m, const float *dl, const float *d, const float *du,
                                 float *x, int batch, void *buffer)
    {
        return cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, batch, m, buffer);
    }
    static cusparseStatus_t gtsvi_buffer(cusparseHandle_t h, int algo, int m, const float *dl, const float *d,
                                         const float *du, const float *x, int batch, size_t *bytes)
    {
        return cusparseSgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, batch, bytes);
    }
    static cusparseStatus_t gtsvi(cusparseHandle_t h, int algo, int m, float *dl, float *d, float *du, float *x,
                                  int batch, void *buffer)
    {
        return cusparseSgtsvInterleavedBatch(h, algo, m, dl, d, du, x, batch, buffer);
    }
    static constexpr double resid_tol = 1e-3;
};

template <> struct tri<double> {
    static bsym_status pcr(int n, long long batch, const double *dl, const double *d, const double *du, double *B,
                           int *info, void *work, int rows, cudaStream_t s)
    {
        return bsym_cuda_pcr_launch_d(n, 1, batch, dl, d, du, B, info, work, rows, s);
    }
    static bsym_status hhsolve(char uplo, int n, long long batch, const double *A, double *B, int *info,
                               cudaStream_t s)
    {
        return bsym_cuda_hhsolve_launch_d(uplo, n, 1, batch, A, B, info, nullptr, nullptr, s);
    }
    static bsym_status tridiagonalize(char uplo, int n, long long batch, const double *A, double *d, double *e,
                                      double *Q, int *info, cudaStream_t s)
    {
        return bsym_cuda_tridiagonalize_launch_d(uplo, n, batch, A, d, e, Q, info, s);
    }
    static cusparseStatus_t gtsv_buffer(cusparseHandle_t h, int m, const double *dl, const double *d,
                                        const double *du, const double *x, int batch, size_t *bytes)
    {
        return cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, batch, m, bytes);
    }
    static cusparseStatus_t gtsv(cusparseHandle_t h, int m, const double *dl, const double *d, const double *du,
                                 double *x, int batch, void *buffer)
    {
        return cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, batch, m, buffer);
    }
    static cusparseStatus_t gtsvi_buffer(cusparseHandle_t h, int algo, int m, const double *dl, const double *d,
                                         const double *du, const double *x, int batch, size_t *bytes)
    {
        return cusparseDgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, batch, bytes);
    }
    static cusparseStatus_t gtsvi(cusparseHandle_t h, int algo, int m, double *dl, double *d, double *du,
                                  double *x, int batch, void *buffer)
    {
        return cusparseDgtsvInterleavedBatch(h, algo, m, dl, d, du, x, batch, buffer);
    }
    static constexpr double resid_tol = 1e-10;
};

std::string status_why(bsym_status st, const char *what)
{
    return st == BSYM_OK ? "" : std::string(what) + " returned " + bsym_status_string(st);
}

// ---- report --------------------------------------------------------------------

struct tri_report {
    std::vector<std::string> header;
    std::vector<row> a, b, c;         // the three parts' rows
    std::vector<std::vector<std::string>> ratios; // part (b): LDL^T / tridiag
    std::vector<std::string> targets; // the issue's targets, met or not
    std::vector<std::vector<std::string>> summary; // part (a): issue 15's table
    std::vector<std::string> targets15;            // part (a): issue 15's targets
    bool ours_failed = false, vendor_failed = false;
};

const std::vector<std::string> COLUMNS_A{"precision", "n", "batch", "method", "median ms", "spread", "systems/s",
                                         "ratio to bound", "backward err", "rel. residual", "check", "note"};
const std::vector<std::string> COLUMNS_C{"precision", "n", "batch", "method", "median ms", "spread", "matrices/s",
                                         "ratio to bound", "decomposition err", "check", "note"};
const std::vector<std::string> SUMMARY_COLUMNS{"precision", "n", "batch", "ours general systems/s",
                                               "ours symmetric systems/s", "gtsv2StridedBatch",
                                               "gtsvInterleavedBatch (algo)", "ours general / best vendor",
                                               "ours general % of bound", "ours symmetric % of bound"};
const std::vector<std::string> RATIO_COLUMNS{"precision", "n", "tridiag systems/s", "LDL^T G=0 systems/s",
                                             "LDL^T / tridiag", "cusolver systems/s", "tridiag / cusolver"};

std::vector<std::string> cells_a(const row &r)
{
    std::vector<std::string> c = cells(r);
    c.insert(c.begin() + 9, fmt("%.1e", r.resid));
    return c;
}

void print_row_wide(const row &r, bool with_resid)
{
    const std::vector<std::string> c = cells(r);
    std::printf("%-7s %5s %8s  %-30s %10s %7s %11s %7s %9s %9s %-5s %s\n", c[0].c_str(), c[1].c_str(),
                c[2].c_str(), c[3].c_str(), c[4].c_str(), c[5].c_str(), c[6].c_str(), c[7].c_str(), c[8].c_str(),
                with_resid ? fmt("%.1e", r.resid).c_str() : "", c[9].c_str(), c[10].c_str());
    std::fflush(stdout);
}

void print_columns_wide(const char *title)
{
    std::printf("\n%s\n%-7s %5s %8s  %-30s %10s %7s %11s %7s %9s %9s %-5s %s\n", title, "prec", "n", "batch",
                "method", "median ms", "spread", "per s", "/bound", "err", "resid", "check", "note");
}

void write_outputs(const tri_report &rep, const options &o)
{
    if (o.out.empty())
        return;
    FILE *f = std::fopen(o.out.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", o.out.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(f, "# bench_tridiag: tridiagonal solves, method \"tridiag\" and tridiagonalization, "
                    "device-resident\n\n");
    for (const std::string &h : rep.header)
        std::fprintf(f, "- %s\n", h.c_str());
    if (!rep.targets.empty()) {
        std::fprintf(f, "\n## Targets of issue 3\n\n");
        for (const std::string &t : rep.targets)
            std::fprintf(f, "- %s\n", t.c_str());
    }
    if (o.part_a && !rep.summary.empty()) {
        std::fprintf(f, "\n## (a) Issue 15: ours against the better of cuSPARSE gtsv2StridedBatch and "
                        "gtsvInterleavedBatch (target >= 1.5)\n\n");
        for (const std::string &t : rep.targets15)
            std::fprintf(f, "- %s\n", t.c_str());
        std::fprintf(f, "\n");
        markdown_table(f, SUMMARY_COLUMNS, rep.summary);
    }
    if (o.part_a) {
        std::fprintf(f, "\n## (a) Batched tridiagonal solve (1 right-hand side): systems per second\n\n");
        std::vector<std::vector<std::string>> body;
        for (const row &r : rep.a)
            body.push_back(cells_a(r));
        markdown_table(f, COLUMNS_A, body);
    }
    if (o.part_b) {
        std::fprintf(f, "\n## (b) Method \"tridiag\" (Householder + PCR) on SPD systems: systems per second\n\n");
        std::vector<std::vector<std::string>> body;
        for (const row &r : rep.b)
            body.push_back(cells(r));
        markdown_table(f, COLUMNS, body);
        std::fprintf(f, "\n### (b) LDL^T / tridiag\n\n");
        markdown_table(f, RATIO_COLUMNS, rep.ratios);
    }
    if (o.part_c) {
        std::fprintf(f, "\n## (c) Householder tridiagonalization A = Q T Q^T: matrices per second "
                        "(informational)\n\n");
        std::vector<std::vector<std::string>> body;
        for (const row &r : rep.c)
            body.push_back(cells(r));
        markdown_table(f, COLUMNS_C, body);
    }
    std::fclose(f);

    const std::string csv = csv_path(o.out);
    FILE *g = std::fopen(csv.c_str(), "w");
    if (g == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", csv.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(g, "part,precision,n,batch,method,median_ms,spread,per_s,ratio_to_bound,error,error_bound,"
                    "rel_residual,check,note\n");
    const std::vector<std::pair<const char *, const std::vector<row> *>> parts{
        {"a", &rep.a}, {"b", &rep.b}, {"c", &rep.c}};
    for (const auto &p : parts)
        for (const row &r : *p.second)
            std::fprintf(g, "%s,%s,%d,%lld,%s,%.6g,%.6g,%.6g,%.6g,%.3g,%.3g,%.3g,%s,%s\n", p.first,
                         r.precision.c_str(), r.n, r.batch, csv_field(r.method).c_str(), r.median_ms, r.spread,
                         r.rate, r.ratio, r.berr, r.berr_bound, r.resid, r.check.c_str(),
                         csv_field(r.note).c_str());
    std::fclose(g);
}

row bound_row(const char *precision, int n, long long batch, const std::string &name, double rate,
              const std::string &note)
{
    row r;
    r.precision = precision;
    r.n = n;
    r.batch = batch;
    r.method = name;
    r.rate = rate;
    r.ratio = 1;
    r.check = "-";
    r.note = note;
    return r;
}

row skip_row(const char *precision, int n, long long batch, const std::string &name, const std::string &why)
{
    row r;
    r.precision = precision;
    r.n = n;
    r.batch = batch;
    r.method = name;
    r.check = "SKIP";
    r.note = why;
    return r;
}

struct env_t {
    const options &o;
    handles &h;
    cusparseHandle_t sparse;
    l2_flusher &flush;
    cudaStream_t s;
    double bandwidth; // bytes/s
};

double memory_budget(const options &o)
{
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    return std::min(o.mem_gb * 1e9, double(free_b) - 2e9); // 2 GB left for the libraries
}

// ---- part (a): batched tridiagonal solves ---------------------------------------

// Largest n * batch of one cusparse{S,D}gtsv2StridedBatch call (see run_part_a).
const long long CUSPARSE_MAX_ENTRIES = 1LL << 26;

const uint64_t SEED_DL = 0x5eed0011ULL, SEED_DU = 0x5eed0012ULL, SEED_D = 0x5eed0013ULL, SEED_TB = 0x5eed0014ULL;

// Diagonal entries in [2.5, 3.5): with off-diagonal entries in [-1, 1) every
// row is strictly diagonally dominant (margin > 0.5) for the symmetric and the
// general system alike, so no method needs pivoting and ||T^-1||_inf < 2.
template <typename T> __global__ void fill_diagonal(T *d, long long count, uint64_t seed)
{
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x)
        d[idx] = T(3.0 + 0.5 * uniform_pm1(seed ^ mix64(uint64_t(idx))));
}

// Our (n-1)-per-system off-diagonals -> cuSPARSE's n-per-system layout:
// dl_cs[k n + i] = T_k(i, i-1) (0 for i = 0), du_cs[k n + i] = T_k(i, i+1)
// (0 for i = n-1).
template <typename T>
__global__ void to_cusparse_layout(const T *dl, const T *du, int n, long long batch, T *dl_cs, T *du_cs)
{
    const long long total = (long long)n * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long k = idx / n;
        const int i = int(idx - k * n);
        dl_cs[idx] = i == 0 ? T(0) : dl[k * (n - 1) + i - 1];
        du_cs[idx] = i == n - 1 ? T(0) : du[k * (n - 1) + i];
    }
}

// Our (n-1)-per-system arrays or cuSPARSE's n-per-system ones (per = n) ->
// gtsvInterleavedBatch's layout: dst[i batch + k] = src[k per + i] (i < n;
// with per = n - 1, the sub-diagonal shifted down a row, dst = 0 at i = 0).
template <typename T> __global__ void to_interleaved(const T *src, int n, long long batch, T *dst)
{
    const long long total = (long long)n * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const int i = int(idx / batch);
        const long long k = idx - (long long)i * batch;
        dst[idx] = src[k * n + i];
    }
}

// The inverse for x: dst[k n + i] = src[i batch + k].
template <typename T> __global__ void from_interleaved(const T *src, int n, long long batch, T *dst)
{
    const long long total = (long long)n * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long k = idx / n;
        const int i = int(idx - k * n);
        dst[idx] = src[(long long)i * batch + k];
    }
}

// out[0] = max |x - ref|, out[1] = max |ref| (as the bits of non-negative
// doubles, which order as unsigned integers; a NaN sorts above everything).
template <typename T> __global__ void max_diff(const T *x, const T *ref, long long count, unsigned long long *out)
{
    double md = 0, mr = 0;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x) {
        const double d = std::fabs(double(x[idx]) - double(ref[idx])), r = std::fabs(double(ref[idx]));
        if (!(d <= md))
            md = d;
        if (!(r <= mr))
            mr = r;
    }
    atomicMax(&out[0], (unsigned long long)__double_as_longlong(md));
    atomicMax(&out[1], (unsigned long long)__double_as_longlong(mr));
}

// max |x - ref| / max |ref| over count entries (synchronises s).
template <typename T> double rel_diff(const T *x, const T *ref, long long count, cudaStream_t s)
{
    dev_array<unsigned long long> out(2);
    CHECK(cudaMemsetAsync(out.p, 0, out.bytes(), s));
    max_diff<T><<<grid_for(count, 256), 256, 0, s>>>(x, ref, count, out.p);
    CHECK(cudaGetLastError());
    unsigned long long h[2];
    CHECK(cudaMemcpyAsync(h, out.p, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    double md, mr;
    std::memcpy(&md, &h[0], sizeof md);
    std::memcpy(&mr, &h[1], sizeof mr);
    return md / mr;
}

// Device bytes of part (a) with ncopies working copies of b (besides the
// pristine one), cuSPARSE's copies of the off-diagonals, the interleaved
// copies (pristine and working dl, d, du, b: 8n per system, when asked),
// the vendor's x kept for the comparison, and our workspace.
size_t tri_bytes(int n, long long batch, size_t elem, int ncopies, bool interleaved, size_t work)
{
    const size_t per = size_t(2 * (n - 1) + n + n * (1 + ncopies) + 2 * n + n + (interleaved ? 8 * n : 0)) * elem +
                       sizeof(int);
    return per * size_t(batch) + work;
}

template <typename T> struct tri_problem {
    int n;
    long long batch;
    int ncopies;
    dev_array<T> dl, d, du, B0, dl_cs, du_cs, Xref;
    std::vector<dev_array<T>> Bw;
    dev_array<T> dl_i0, d_i0, du_i0, B_i0, dl_iw, d_iw, du_iw, B_iw; // interleaved (gtsvInterleavedBatch)
    dev_array<int> info;
    dev_array<unsigned char> work;
    bool have_ref = false; // Xref holds cuSPARSE's x

    tri_problem(int n_, long long batch_, int ncopies_, bool interleaved, size_t work_bytes, cudaStream_t s)
        : n(n_), batch(batch_), ncopies(ncopies_), dl(off()), d(b_elems()), du(off()), B0(b_elems()),
          dl_cs(b_elems()), du_cs(b_elems()), Xref(b_elems()), info(size_t(batch_)),
          work(std::max<size_t>(work_bytes, 1))
    {
        const int threads = 256;
        fill_uniform<T><<<grid_for(off(), threads), threads, 0, s>>>(dl.p, off(), SEED_DL);
        CHECK(cudaGetLastError());
        fill_uniform<T><<<grid_for(off(), threads), threads, 0, s>>>(du.p, off(), SEED_DU);
        CHECK(cudaGetLastError());
        fill_diagonal<T><<<grid_for(b_elems(), threads), threads, 0, s>>>(d.p, b_elems(), SEED_D);
        CHECK(cudaGetLastError());
        fill_uniform<T><<<grid_for(b_elems(), threads), threads, 0, s>>>(B0.p, b_elems(), SEED_TB);
        CHECK(cudaGetLastError());
        to_cusparse_layout<T><<<grid_for(b_elems(), threads), threads, 0, s>>>(dl.p, du.p, n, batch, dl_cs.p,
                                                                               du_cs.p);
        CHECK(cudaGetLastError());
        for (int c = 0; c < ncopies; c++)
            Bw.emplace_back(b_elems());
        if (interleaved) {
            for (dev_array<T> *a : {&dl_i0, &d_i0, &du_i0, &B_i0, &dl_iw, &d_iw, &du_iw, &B_iw})
                *a = dev_array<T>(b_elems());
            const std::pair<const T *, T *> conv[] = {
                {dl_cs.p, dl_i0.p}, {d.p, d_i0.p}, {du_cs.p, du_i0.p}, {B0.p, B_i0.p}};
            for (const auto &c : conv) {
                to_interleaved<T><<<grid_for(b_elems(), threads), threads, 0, s>>>(c.first, n, batch, c.second);
                CHECK(cudaGetLastError());
            }
        }
        CHECK(cudaStreamSynchronize(s));
    }
    size_t off() const { return size_t(n - 1) * batch; }
    size_t b_elems() const { return size_t(n) * batch; }
};

// Host check of x = Bw[c] for T = (dl, d, du) (du := dl when symmetric).
template <typename T>
verdict check_tri(tri_problem<T> &P, bool symmetric, int c, const std::string &info_why, int sample, cudaStream_t s)
{
    verdict v;
    v.bound = 100.0 * P.n * prec<T>::eps;
    std::string why = info_why;
    const unsigned long long bad = nonfinite_count(P.Bw[c].p, (long long)P.b_elems(), s);
    if (bad != 0)
        add_why(why, std::to_string(bad) + " non-finite entries in x");

    const int n = P.n;
    const long long count = std::min<long long>(sample, P.batch);
    const long long stride = std::max<long long>(1, P.batch / count);
    const std::vector<T> dl = gather(P.dl.p, size_t(n - 1), P.batch, stride, count);
    const std::vector<T> du = symmetric ? dl : gather(P.du.p, size_t(n - 1), P.batch, stride, count);
    const std::vector<T> d = gather(P.d.p, size_t(n), P.batch, stride, count);
    const std::vector<T> b = gather(P.B0.p, size_t(n), P.batch, stride, count);
    const std::vector<T> x = gather(P.Bw[c].p, size_t(n), P.batch, stride, count);
    double worst_berr = 0, worst_resid = 0;
    for (long long k = 0; k <= count; k++) {
        const T *L = &dl[size_t(n - 1) * k], *U = &du[size_t(n - 1) * k], *D = &d[size_t(n) * k];
        const T *bk = &b[size_t(n) * k], *xk = &x[size_t(n) * k];
        double normT = 0, normx = 0, normb = 0, normr = 0;
        for (int i = 0; i < n; i++) {
            double r = double(bk[i]) - double(D[i]) * xk[i], row = std::fabs(double(D[i]));
            if (i > 0) {
                r -= double(L[i - 1]) * xk[i - 1];
                row += std::fabs(double(L[i - 1]));
            }
            if (i < n - 1) {
                r -= double(U[i]) * xk[i + 1];
                row += std::fabs(double(U[i]));
            }
            normT = std::max(normT, row);
            normr = std::max(normr, std::fabs(r));
            normx = std::max(normx, std::fabs(double(xk[i])));
            normb = std::max(normb, std::fabs(double(bk[i])));
        }
        const double berr = normr / (normT * normx + normb), resid = normr / normb;
        if (std::isnan(berr) || (!std::isnan(worst_berr) && berr > worst_berr))
            worst_berr = berr;
        if (std::isnan(resid) || (!std::isnan(worst_resid) && resid > worst_resid))
            worst_resid = resid;
    }
    v.berr = worst_berr;
    v.resid = worst_resid;
    char s2[128];
    if (!(worst_berr <= v.bound)) {
        std::snprintf(s2, sizeof s2, "backward error %.2e > %.2e", worst_berr, v.bound);
        add_why(why, s2);
    }
    if (!(worst_resid <= tri<T>::resid_tol)) {
        std::snprintf(s2, sizeof s2, "relative residual %.2e > %.0e", worst_resid, tri<T>::resid_tol);
        add_why(why, s2);
    }
    v.why = why;
    return v;
}

// What a method of part (a) does besides its solve: restore(c) (untimed)
// puts back what solve(c) overwrites (default: b into Bw[c]); finish(c)
// (untimed, before each check) puts the solution into Bw[c] (default:
// nothing); ref: x to compare with (max |x - ref| / max |ref| <= the
// residual tolerance), named ref_name.
template <typename T> struct tri_hooks {
    std::function<void(int)> restore, finish;
    const T *ref = nullptr;
    std::string ref_name;
};

// One method of part (a): validation, warm-up, timing, check of the last
// repeat. solve(c) enqueues the solve of Bw[c]; info_check() summarises info.
template <typename T>
row run_tri_method(tri_problem<T> &P, const std::string &name, bool symmetric, const std::string &where,
                   const std::function<std::string(int)> &solve, const std::function<std::string()> &info_check,
                   env_t &env, double bound, const tri_hooks<T> &hooks = tri_hooks<T>())
{
    row r;
    r.precision = prec<T>::name;
    r.n = P.n;
    r.batch = P.batch;
    r.method = name;
    const cudaStream_t s = env.s;
    auto restore = [&](int c) {
        if (hooks.restore)
            hooks.restore(c);
        else
            CHECK(cudaMemcpyAsync(P.Bw[c].p, P.B0.p, P.B0.bytes(), cudaMemcpyDeviceToDevice, s));
    };
    auto finish = [&](int c) {
        if (hooks.finish)
            hooks.finish(c);
    };
    std::string vs_ref;
    auto compare = [&](int c, verdict &v) { // against the reference x
        if (hooks.ref == nullptr)
            return;
        const double d = rel_diff(P.Bw[c].p, hooks.ref, (long long)P.b_elems(), s);
        vs_ref = "max|x - x_" + hooks.ref_name + "|/max|x_" + hooks.ref_name + "| " + fmt("%.1e", d);
        if (!(d <= tri<T>::resid_tol))
            add_why(v.why, vs_ref + " > " + fmt("%.0e", tri<T>::resid_tol));
    };

    g_activity = where + ": validation run";
    restore(0);
    CHECK(cudaMemsetAsync(P.info.p, 0x7f, P.info.bytes(), s));
    std::string why = solve(0);
    CHECK(cudaStreamSynchronize(s));
    verdict v;
    if (why.empty()) {
        finish(0);
        v = check_tri(P, symmetric, 0, info_check(), env.o.sample, s);
        compare(0, v);
    } else {
        v.why = why;
    }
    r.berr = v.berr;
    r.berr_bound = v.bound;
    r.resid = v.resid;
    if (v.ok()) {
        g_activity = where + ": warm-up and timed repeats";
        for (int w = 0; w < env.o.warmup && why.empty(); w++) {
            restore(w % P.ncopies);
            why = solve(w % P.ncopies);
        }
        CHECK(cudaStreamSynchronize(s));
        const timing t = time_repeats(
            env.o.reps, [&](int rr) { restore(rr % P.ncopies); }, [&](int rr) { return solve(rr % P.ncopies); },
            env.flush, s);
        why = why.empty() ? t.why : why;
        if (why.empty()) {
            r.median_ms = t.median_ms;
            r.spread = (t.max_ms - t.min_ms) / t.median_ms;
            r.rate = double(P.batch) / (t.median_ms * 1e-3);
            r.ratio = r.rate / bound;
            g_activity = where + ": check of the last timed repeat";
            const int last = (env.o.reps - 1) % P.ncopies;
            finish(last);
            verdict after = check_tri(P, symmetric, last, info_check(), env.o.sample, s);
            compare(last, after);
            r.berr = std::max(r.berr, after.berr);
            r.resid = std::max(r.resid, after.resid);
            if (!after.ok())
                v.why = "after timing: " + after.why;
        } else {
            v.why = why;
        }
    }
    g_activity.clear();
    r.check = v.ok() ? "ok" : "FAIL";
    r.note = vs_ref;
    if (!v.ok()) {
        r.note = v.why;
        std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, name.c_str(),
                     v.why.c_str());
    }
    return r;
}

long long batch_part_a(const options &o, int n)
{
    if (o.elems_pcr > 0)
        return std::max(1LL, o.elems_pcr / n);
    return o.batch_pcr > 0 ? o.batch_pcr : default_batch_pcr(n);
}

template <typename T> void run_part_a(int n, env_t &env, tri_report &rep)
{
    const options &o = env.o;
    const char *pname = prec<T>::name;
    const long long batch = batch_part_a(o, n);
    const double elem = double(sizeof(T));
    const double bound_gen = env.bandwidth / ((5.0 * n - 2) * elem);
    const double bound_sym = env.bandwidth / ((4.0 * n - 1) * elem);
    auto emit = [&](const row &r) {
        print_row_wide(r, true);
        rep.a.push_back(r);
    };
    if (n < 2) {
        emit(skip_row(pname, n, batch, "all", "n < 2: nothing to reduce"));
        return;
    }

    const size_t work = bsym_cuda_pcr_workspace(prec<T>::letter, n, 1, batch);
    const double budget = memory_budget(o);
    const bool want_i = !o.ialgos.empty() && n >= 3 && batch <= 0x7fffffffLL;
    int ncopies = 2;
    while (ncopies > 0 && double(tri_bytes(n, batch, sizeof(T), ncopies, want_i, work)) > budget)
        ncopies--;
    if (ncopies == 0) {
        emit(skip_row(pname, n, batch, "all",
                      "needs " + fmt("%.1f", tri_bytes(n, batch, sizeof(T), 1, want_i, work) / 1e9) + " GB, budget " +
                          fmt("%.1f", budget / 1e9) + " GB"));
        return;
    }
    const std::string cfg = std::string(pname) + ", n = " + std::to_string(n) + ", part (a)";
    g_activity = cfg + ": generating the inputs";
    tri_problem<T> P(n, batch, ncopies, want_i, work, env.s);
    g_activity.clear();
    const size_t first = rep.a.size();
    double rate_strided = NAN, rate_inter = NAN, rate_gen = NAN, rate_sym = NAN;
    int best_ialgo = -1;
    std::string gen_name;

    // cuSPARSE gtsv2StridedBatch on the general system (first: its x is the
    // reference ours is compared with). Its buffer size query overflows (a
    // value near 2^64) once n * batch passes about 2^27 entries (H200, CUDA
    // 13.0: fine at 2^26 in float and double, wrong at 2^28), so a large
    // batch goes through it in calls of at most 2^26 entries, each call still
    // big enough to fill the device; the row's note says how many.
    const std::string cs_name = "cusparse gtsv2StridedBatch";
    if (n < 3) {
        emit(skip_row(pname, n, batch, cs_name, "gtsv2StridedBatch needs n >= 3"));
    } else {
        g_activity = cfg + ": " + cs_name + ": buffer size query";
        long long chunk = std::min<long long>(batch, std::max(1LL, CUSPARSE_MAX_ENTRIES / n));
        size_t free_b = 0, total_b = 0;
        CHECK(cudaMemGetInfo(&free_b, &total_b));
        size_t bytes = 0;
        for (;;) { // halve the chunk while the size reported is beyond the device
            CHECK(tri<T>::gtsv_buffer(env.sparse, n, P.dl_cs.p, P.d.p, P.du_cs.p, P.Bw[0].p, int(chunk), &bytes));
            if (bytes <= total_b || chunk == 1)
                break;
            chunk = (chunk + 1) / 2;
        }
        void *buffer = nullptr;
        const cudaError_t e = bytes <= total_b ? cudaMalloc(&buffer, std::max<size_t>(bytes, 1))
                                               : cudaErrorMemoryAllocation;
        if (e != cudaSuccess) {
            cudaGetLastError(); // an allocation failure is not sticky; clear it
            emit(skip_row(pname, n, batch, cs_name,
                          "its buffer of " + fmt("%.2f", bytes / 1e9) + " GB for " + std::to_string(chunk) +
                              " systems could not be allocated: " + cudaGetErrorString(e)));
        } else {
            const long long calls = (batch + chunk - 1) / chunk;
            auto solve = [&P, &env, buffer, chunk](int c) -> std::string {
                const size_t n_ = size_t(P.n);
                for (long long first = 0; first < P.batch; first += chunk) {
                    const size_t off = n_ * size_t(first);
                    const int count = int(std::min(chunk, P.batch - first));
                    CHECK(tri<T>::gtsv(env.sparse, P.n, P.dl_cs.p + off, P.d.p + off, P.du_cs.p + off,
                                       P.Bw[c].p + off, count, buffer));
                }
                return "";
            };
            auto info = [] { return std::string(); };
            row r = run_tri_method<T>(P, cs_name, false, cfg + ": " + cs_name, solve, info, env, bound_gen);
            r.note += (r.note.empty() ? "" : "; ") + std::string("general system; buffer ") +
                      fmt("%.0f", bytes / 1e6) + " MB" +
                      (calls > 1 ? "; " + std::to_string(calls) + " calls of <= " + std::to_string(chunk) + " systems"
                                 : std::string());
            if (r.check == "FAIL")
                rep.vendor_failed = true;
            if (r.check == "ok") {
                rate_strided = r.rate;
                const int last = (o.reps - 1) % P.ncopies; // its x is still there
                CHECK(cudaMemcpyAsync(P.Xref.p, P.Bw[last].p, P.Xref.bytes(), cudaMemcpyDeviceToDevice, env.s));
                CHECK(cudaStreamSynchronize(env.s));
                P.have_ref = true;
            }
            emit(r);
            CHECK(cudaFree(buffer));
        }
        g_activity.clear();
    }

    // cuSPARSE gtsvInterleavedBatch (its layout: entry i of system k at
    // i batch + k, prepared untimed; dl, d, du and b restored before each
    // repeat, since the routine may overwrite them; x turned back into our
    // layout, untimed, for the checks).
    if (want_i) {
        for (int algo : o.ialgos) {
            const std::string name = "cusparse gtsvInterleavedBatch a" + std::to_string(algo);
            g_activity = cfg + ": " + name + ": buffer size query";
            size_t bytes = 0;
            CHECK(tri<T>::gtsvi_buffer(env.sparse, algo, n, P.dl_iw.p, P.d_iw.p, P.du_iw.p, P.B_iw.p, int(batch),
                                       &bytes));
            void *buffer = nullptr;
            const cudaError_t e = cudaMalloc(&buffer, std::max<size_t>(bytes, 1));
            if (e != cudaSuccess) {
                cudaGetLastError();
                emit(skip_row(pname, n, batch, name,
                              "its buffer of " + fmt("%.2f", bytes / 1e9) + " GB could not be allocated"));
                continue;
            }
            tri_hooks<T> hk;
            hk.restore = [&P, &env](int) {
                const std::pair<const T *, T *> cp[] = {
                    {P.dl_i0.p, P.dl_iw.p}, {P.d_i0.p, P.d_iw.p}, {P.du_i0.p, P.du_iw.p}, {P.B_i0.p, P.B_iw.p}};
                for (const auto &c : cp)
                    CHECK(cudaMemcpyAsync(c.second, c.first, P.b_elems() * sizeof(T), cudaMemcpyDeviceToDevice,
                                          env.s));
            };
            hk.finish = [&P, &env](int c) {
                from_interleaved<T><<<grid_for(P.b_elems(), 256), 256, 0, env.s>>>(P.B_iw.p, P.n, P.batch,
                                                                                   P.Bw[c].p);
                CHECK(cudaGetLastError());
                CHECK(cudaStreamSynchronize(env.s));
            };
            if (P.have_ref) {
                hk.ref = P.Xref.p;
                hk.ref_name = "strided";
            }
            auto solve = [&P, &env, buffer, algo](int) -> std::string {
                CHECK(tri<T>::gtsvi(env.sparse, algo, P.n, P.dl_iw.p, P.d_iw.p, P.du_iw.p, P.B_iw.p, int(P.batch),
                                    buffer));
                return "";
            };
            auto info = [] { return std::string(); };
            row r = run_tri_method<T>(P, name, false, cfg + ": " + name, solve, info, env, bound_gen, hk);
            r.note += (r.note.empty() ? "" : "; ") + std::string("general system; buffer ") +
                      fmt("%.0f", bytes / 1e6) + " MB";
            if (r.check == "FAIL")
                rep.vendor_failed = true;
            if (r.check == "ok" && !(r.rate <= rate_inter)) {
                rate_inter = r.rate;
                best_ialgo = algo;
            }
            emit(r);
            CHECK(cudaFree(buffer));
            g_activity.clear();
        }
    } else if (!o.ialgos.empty()) {
        emit(skip_row(pname, n, batch, "cusparse gtsvInterleavedBatch", "needs n >= 3 and batch < 2^31"));
    }

    // ours, once per --pcr-rows value (or with the library's choice)
    std::vector<int> rows_list = o.pcr_rows.empty() ? std::vector<int>{0} : o.pcr_rows;
    for (int m : rows_list) {
        const std::string tag = m > 0 ? ", M=" + std::to_string(m) : "";
        auto ours = [&](bool symmetric) {
            const std::string name = (symmetric ? "ours pcr (symmetric" : "ours pcr (general") + tag + ")";
            auto solve = [&P, symmetric, m, &env](int c) {
                return status_why(tri<T>::pcr(P.n, P.batch, P.dl.p, P.d.p, symmetric ? nullptr : P.du.p,
                                              P.Bw[c].p, P.info.p, P.work.p, m, env.s),
                                  "bsym_cuda_pcr_launch");
            };
            auto info = [&P] { return info_summary(P.info.p, P.batch, "info"); };
            tri_hooks<T> hk;
            if (P.have_ref && !symmetric) { // the symmetric system is another problem
                hk.ref = P.Xref.p;
                hk.ref_name = "strided";
            }
            row r = run_tri_method<T>(P, name, symmetric, cfg + ": " + name, solve, info, env,
                                      symmetric ? bound_sym : bound_gen, hk);
            if (r.check == "FAIL")
                rep.ours_failed = true;
            if (r.check == "ok") {
                double &best = symmetric ? rate_sym : rate_gen;
                if (!(r.rate <= best)) {
                    best = r.rate;
                    if (!symmetric)
                        gen_name = name;
                }
            }
            emit(r);
        };
        ours(true);
        ours(false);
    }

    emit(bound_row(pname, n, batch, "bound: dl+d+du+b+x", bound_gen,
                   "copy bandwidth / ((5n-2)*" + std::to_string(sizeof(T)) + " B): general rows"));
    emit(bound_row(pname, n, batch, "bound: e+d+b+x", bound_sym,
                   "copy bandwidth / ((4n-1)*" + std::to_string(sizeof(T)) + " B): symmetric rows"));
    if (ncopies < 2)
        for (size_t i = first; i < rep.a.size(); i++)
            rep.a[i].note += std::string(rep.a[i].note.empty() ? "" : "; ") + "1 working copy (memory budget)";

    // issue 15's summary: ours (general) against the better vendor routine
    const double best_vendor = std::isnan(rate_inter) || rate_strided > rate_inter ? rate_strided : rate_inter;
    const double ratio = rate_gen / best_vendor;
    rep.summary.push_back({pname, std::to_string(n), std::to_string(batch), fmt("%.4g", rate_gen),
                           fmt("%.4g", rate_sym), fmt("%.4g", rate_strided),
                           fmt("%.4g", rate_inter) + (best_ialgo >= 0 ? " (a" + std::to_string(best_ialgo) + ")" : ""),
                           fmt("%.2f", ratio), fmt("%.0f%%", 100 * rate_gen / bound_gen),
                           fmt("%.0f%%", 100 * rate_sym / bound_sym)});
    if (n >= 256)
        rep.targets15.push_back("n = " + std::to_string(n) + " " + pname + ": " +
                                (gen_name.empty() ? std::string("ours (general)") : gen_name) + " / best vendor = " +
                                fmt("%.2f", ratio) + (ratio >= 1.5 ? " (met)" : " (NOT met)"));
}

// ---- parts (b) and (c): dense SPD systems -----------------------------------------

// Part (c)'s outputs.
template <typename T> struct tridiag_out {
    dev_array<T> d, e, Q;
    tridiag_out(int n, long long batch, bool with_q)
        : d(size_t(n) * batch), e(size_t(std::max(n - 1, 1)) * batch), Q(with_q ? size_t(n) * n * batch : 0)
    {
    }
};

// Host check of one tridiagonalization (Q may be absent): see the header.
template <typename T>
verdict check_tridiagonalization(problem<T> &P, tridiag_out<T> &out, bool with_q, int sample, cudaStream_t s)
{
    verdict v;
    const int n = P.n;
    v.bound = 100.0 * n * prec<T>::eps;
    std::string why = info_summary(P.info.p, P.batch, "info");
    unsigned long long bad = nonfinite_count(out.d.p, (long long)out.d.count, s);
    if (n > 1)
        bad += nonfinite_count(out.e.p, (long long)(size_t(n - 1) * P.batch), s);
    if (with_q)
        bad += nonfinite_count(out.Q.p, (long long)out.Q.count, s);
    if (bad != 0)
        add_why(why, std::to_string(bad) + " non-finite entries in d, e" + (with_q ? ", Q" : ""));

    const long long count = std::min<long long>(with_q ? std::min(sample, 200) : sample, P.batch);
    const long long stride = std::max<long long>(1, P.batch / count);
    const size_t nn = size_t(n) * n;
    const std::vector<T> A = gather(P.A0.p, nn, P.batch, stride, count);
    const std::vector<T> d = gather(out.d.p, size_t(n), P.batch, stride, count);
    const std::vector<T> e = n > 1 ? gather(out.e.p, size_t(n - 1), P.batch, stride, count) : std::vector<T>();
    const std::vector<T> Q = with_q ? gather(out.Q.p, nn, P.batch, stride, count) : std::vector<T>();
    double worst = 0;
    std::vector<double> AQ(nn), QT(nn);
    for (long long k = 0; k <= count; k++) {
        const T *Ak = &A[nn * k], *dk = &d[size_t(n) * k];
        const T *ek = n > 1 ? &e[size_t(n - 1) * k] : nullptr;
        double normA2 = 0, trA = 0, trT = 0, normT2 = 0;
        for (size_t i = 0; i < nn; i++)
            normA2 += double(Ak[i]) * Ak[i];
        for (int i = 0; i < n; i++) {
            trA += Ak[i + size_t(i) * n];
            trT += dk[i];
            normT2 += double(dk[i]) * dk[i] + (i < n - 1 ? 2.0 * double(ek[i]) * ek[i] : 0.0);
        }
        const double normA = std::sqrt(normA2);
        double err = std::max(std::fabs(trA - trT) / (std::sqrt(double(n)) * normA),
                              std::fabs(normA2 - normT2) / (2 * normA2));
        if (with_q) {
            const T *Qk = &Q[nn * k];
            // A Q and Q T (T tridiagonal: column j of Q T mixes columns j-1, j, j+1 of Q).
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    double aq = 0;
                    for (int l = 0; l < n; l++)
                        aq += double(Ak[i + size_t(l) * n]) * Qk[l + size_t(j) * n];
                    AQ[i + size_t(j) * n] = aq;
                    double qt = double(Qk[i + size_t(j) * n]) * dk[j];
                    if (j > 0)
                        qt += double(Qk[i + size_t(j - 1) * n]) * ek[j - 1];
                    if (j < n - 1)
                        qt += double(Qk[i + size_t(j + 1) * n]) * ek[j];
                    QT[i + size_t(j) * n] = qt;
                }
            double res2 = 0, orth2 = 0;
            for (size_t i = 0; i < nn; i++)
                res2 += (AQ[i] - QT[i]) * (AQ[i] - QT[i]);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    double q = 0;
                    for (int l = 0; l < n; l++)
                        q += double(Qk[l + size_t(i) * n]) * Qk[l + size_t(j) * n];
                    q -= i == j ? 1.0 : 0.0;
                    orth2 += q * q;
                }
            err = std::max(err, std::max(std::sqrt(res2) / normA, std::sqrt(orth2)));
        }
        if (std::isnan(err) || (!std::isnan(worst) && err > worst))
            worst = err;
    }
    v.berr = worst;
    if (!(worst <= v.bound)) {
        char s2[96];
        std::snprintf(s2, sizeof s2, "decomposition error %.2e > %.2e", worst, v.bound);
        add_why(why, s2);
    }
    v.why = why;
    return v;
}

template <typename T>
row run_tridiagonalize(problem<T> &P, tridiag_out<T> &out, bool with_q, const std::string &cfg, env_t &env,
                       double bound)
{
    const std::string name = with_q ? "ours tridiagonalize (d, e, Q)" : "ours tridiagonalize (d, e)";
    const std::string where = cfg + ": " + name;
    row r;
    r.precision = prec<T>::name;
    r.n = P.n;
    r.batch = P.batch;
    r.method = name;
    const cudaStream_t s = env.s;
    T *Q = with_q ? out.Q.p : nullptr;
    // Reads Aw[c] (never written by ours), writes d, e (and Q).
    auto solve = [&](int c) {
        return status_why(tri<T>::tridiagonalize(env.o.uplo, P.n, P.batch, P.Aw[c].p, out.d.p, out.e.p, Q,
                                                 P.info.p, s),
                          "bsym_cuda_tridiagonalize_launch");
    };
    for (int c = 0; c < P.ncopies; c++) // restore what cuSOLVER (part b) factored in place
        if (P.A_dirty[c]) {
            CHECK(cudaMemcpyAsync(P.Aw[c].p, P.A0.p, P.A0.bytes(), cudaMemcpyDeviceToDevice, s));
            P.A_dirty[c] = false;
        }

    g_activity = where + ": validation run";
    CHECK(cudaMemsetAsync(P.info.p, 0x7f, P.info.bytes(), s));
    CHECK(cudaMemsetAsync(out.d.p, 0xff, out.d.bytes(), s)); // NaN: an entry never written fails
    CHECK(cudaMemsetAsync(out.e.p, 0xff, out.e.bytes(), s));
    if (with_q)
        CHECK(cudaMemsetAsync(out.Q.p, 0xff, out.Q.bytes(), s));
    std::string why = solve(0);
    CHECK(cudaStreamSynchronize(s));
    verdict v;
    if (why.empty())
        v = check_tridiagonalization(P, out, with_q, env.o.sample, s);
    else
        v.why = why;
    r.berr = v.berr;
    r.berr_bound = v.bound;
    if (v.ok()) {
        g_activity = where + ": warm-up and timed repeats";
        for (int w = 0; w < env.o.warmup && why.empty(); w++)
            why = solve(w % P.ncopies);
        CHECK(cudaStreamSynchronize(s));
        const timing t = time_repeats(
            env.o.reps, [](int) {}, [&](int rr) { return solve(rr % P.ncopies); }, env.flush, s);
        why = why.empty() ? t.why : why;
        if (why.empty()) {
            r.median_ms = t.median_ms;
            r.spread = (t.max_ms - t.min_ms) / t.median_ms;
            r.rate = double(P.batch) / (t.median_ms * 1e-3);
            r.ratio = r.rate / bound;
            g_activity = where + ": check of the last timed repeat";
            const verdict after = check_tridiagonalization(P, out, with_q, env.o.sample, s);
            r.berr = std::max(r.berr, after.berr);
            if (!after.ok())
                v.why = "after timing: " + after.why;
        } else {
            v.why = why;
        }
    }
    g_activity.clear();
    r.check = v.ok() ? "ok" : "FAIL";
    if (!v.ok()) {
        r.note = v.why;
        std::fprintf(stderr, "\n*** FAIL: %s, n = %d, %s: %s ***\n\n", prec<T>::name, P.n, name.c_str(),
                     v.why.c_str());
    }
    return r;
}

template <typename T> void run_dense(int n, env_t &env, tri_report &rep)
{
    const options &o = env.o;
    const char *pname = prec<T>::name;
    const long long batch = o.batch_dense > 0 ? o.batch_dense : default_batch_dense(n);
    const double elem = double(sizeof(T));
    const size_t out_bytes = o.part_c ? (size_t(n) * n + 2 * size_t(n)) * batch * sizeof(T) : 0;
    const double budget = memory_budget(o);
    int ncopies = 2;
    while (ncopies > 0 && double(bytes_needed(n, batch, sizeof(T), ncopies) + out_bytes) > budget)
        ncopies--;
    if (ncopies == 0 || batch > 0x7fffffffLL) {
        const std::string why =
            batch > 0x7fffffffLL ? "batch above 2^31-1 (the vendor API takes an int)"
                                 : "needs " + fmt("%.1f", (bytes_needed(n, batch, sizeof(T), 1) + out_bytes) / 1e9) +
                                       " GB, budget " + fmt("%.1f", budget / 1e9) + " GB";
        if (o.part_b) {
            rep.b.push_back(skip_row(pname, n, batch, "all", why));
            print_row_wide(rep.b.back(), false);
        }
        if (o.part_c) {
            rep.c.push_back(skip_row(pname, n, batch, "all", why));
            print_row_wide(rep.c.back(), false);
        }
        return;
    }
    const std::string cfg = std::string(pname) + ", n = " + std::to_string(n);
    g_activity = cfg + ": generating the inputs";
    problem<T> P(n, batch, ncopies, env.s);
    g_activity.clear();
    run_params rp;
    rp.reps = o.reps;
    rp.warmup = o.warmup;
    rp.sample = o.sample;
    rp.flush = &env.flush;
    rp.s = env.s;

    if (o.part_b) {
        const double bound = env.bandwidth / ((double(n) * n + 2.0 * n) * elem);
        const double bound_tri = env.bandwidth / ((double(n) * (n + 1) / 2 + 2.0 * n) * elem);
        const cublasFillMode_t fill = o.uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
        const size_t first = rep.b.size();
        std::vector<method> ms;
        {
            method m;
            m.name = "ours tridiag (Householder+PCR)";
            m.family = "ours";
            m.solve = [&P, &o, &env](int c) {
                return status_why(tri<T>::hhsolve(o.uplo, P.n, P.batch, P.Aw[c].p, P.Bw[c].p, P.info.p, env.s),
                                  "bsym_cuda_hhsolve_launch");
            };
            m.check_info = [&P] { return info_summary(P.info.p, P.batch, "info"); };
            ms.push_back(m);
        }
        if (n <= BSYM_GPU_LDLT_MAX_N) {
            method m;
            m.name = "ours LDL^T G=0";
            m.family = "ours";
            m.group = 0;
            m.note = "tuned default (G=" + std::to_string(bsym_cuda_ldlt_tuned_group(prec<T>::letter, n)) + ")";
            m.solve = [&P, &o, &env](int c) {
                return status_why(prec<T>::ours(o.uplo, P.n, P.batch, P.Aw[c].p, P.Bw[c].p, P.info.p, 0, env.s),
                                  "bsym_cuda_ldlt_launch");
            };
            m.check_info = [&P] { return info_summary(P.info.p, P.batch, "info"); };
            ms.push_back(m);
        }
        {
            method m;
            m.name = "cusolver potrf+potrs";
            m.family = "cusolver";
            m.writes_A = true;
            const int nn = n, bb = int(batch);
            handles &H = env.h;
            m.solve = [&P, &H, fill, nn, bb](int c) -> std::string {
                CHECK(prec<T>::potrf(H.solver, fill, nn, P.Ap[c].p, P.info.p, bb));
                CHECK(prec<T>::potrs(H.solver, fill, nn, P.Ap[c].p, P.Bp[c].p, P.info1.p, bb));
                return "";
            };
            m.check_info = [&P] {
                const std::string a = info_summary(P.info.p, P.batch, "potrf info");
                const std::string b = info_summary(P.info1.p, 1, "potrs info");
                return a + (a.empty() || b.empty() ? "" : "; ") + b;
            };
            ms.push_back(m);
        }
        double rate_tridiag = NAN, rate_ldlt = NAN, rate_cusolver = NAN;
        for (const method &m : ms) {
            g_activity = cfg + ", part (b): " + m.name;
            row r = run_method(P, m, rp, bound);
            g_activity.clear();
            if (r.check == "FAIL")
                (m.family == "ours" ? rep.ours_failed : rep.vendor_failed) = true;
            if (r.check == "ok") {
                if (m.name.rfind("ours tridiag", 0) == 0)
                    rate_tridiag = r.rate;
                else if (m.family == "ours")
                    rate_ldlt = r.rate;
                else
                    rate_cusolver = r.rate;
            }
            print_row_wide(r, false);
            rep.b.push_back(r);
        }
        row full = bound_row(pname, n, batch, "bound: A+b+x", bound,
                             "copy bandwidth / ((n^2+2n)*" + std::to_string(sizeof(T)) + " B)");
        row tri_b = bound_row(pname, n, batch, "bound: tri(A)+b+x", bound_tri, "only the referenced triangle of A read");
        tri_b.ratio = bound_tri / bound;
        for (const row &b : {full, tri_b}) {
            print_row_wide(b, false);
            rep.b.push_back(b);
        }
        if (ncopies < 2)
            for (size_t i = first; i < rep.b.size(); i++)
                rep.b[i].note += std::string(rep.b[i].note.empty() ? "" : "; ") + "1 working copy (memory budget)";
        // "-" where a row did not run (LDL^T above its limit) or failed
        const auto num = [](const char *f, double v) { return std::isnan(v) ? std::string("-") : fmt(f, v); };
        rep.ratios.push_back({pname, std::to_string(n), num("%.4g", rate_tridiag), num("%.4g", rate_ldlt),
                              num("%.2f", rate_ldlt / rate_tridiag), num("%.4g", rate_cusolver),
                              num("%.2f", rate_tridiag / rate_cusolver)});
        if (n == 32 && prec<T>::letter == 's')
            rep.targets.push_back("(b) n = 32 single, method \"tridiag\" >= 1.5e8 systems/s: " +
                                  fmt("%.3g", rate_tridiag) +
                                  (rate_tridiag >= 1.5e8 ? " (met)" : " (NOT met)") +
                                  "; LDL^T / tridiag = " + fmt("%.2f", rate_ldlt / rate_tridiag) +
                                  " (the paper: about 5)");
    }

    if (o.part_c) {
        const size_t first = rep.c.size();
        tridiag_out<T> out(n, batch, true);
        const double bound_de = env.bandwidth / ((double(n) * n + 2.0 * n - 1) * elem);
        const double bound_q = env.bandwidth / ((2.0 * n * n + 2.0 * n - 1) * elem);
        for (bool with_q : {false, true}) {
            row r = run_tridiagonalize(P, out, with_q, cfg + ", part (c)", env, with_q ? bound_q : bound_de);
            if (r.check == "FAIL")
                rep.ours_failed = true;
            print_row_wide(r, false);
            rep.c.push_back(r);
        }
        for (const row &b :
             {bound_row(pname, n, batch, "bound: A+d+e", bound_de,
                        "copy bandwidth / ((n^2+2n-1)*" + std::to_string(sizeof(T)) + " B): rows without Q"),
              bound_row(pname, n, batch, "bound: A+d+e+Q", bound_q,
                        "copy bandwidth / ((2n^2+2n-1)*" + std::to_string(sizeof(T)) + " B): rows with Q")}) {
            print_row_wide(b, false);
            rep.c.push_back(b);
        }
        if (ncopies < 2)
            for (size_t i = first; i < rep.c.size(); i++)
                rep.c[i].note += std::string(rep.c[i].note.empty() ? "" : "; ") + "1 working copy (memory budget)";
    }
}

// ---- main ----------------------------------------------------------------------

std::string join(const std::vector<int> &v)
{
    std::string s;
    for (int x : v)
        s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

std::vector<std::string> describe(const options &o, const cudaDeviceProp &p, cusparseHandle_t sparse,
                                  double bandwidth, size_t bw_bytes, size_t flush_bytes)
{
    int driver = 0, runtime = 0, solver = 0, sp = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cusolverGetVersion(&solver));
    CHECK(cusparseGetVersion(sparse, &sp));
    std::string ps;
    for (char c : o.precisions)
        ps += (ps.empty() ? "" : ",") + std::string(1, c);
    std::string parts = std::string(o.part_a ? "a" : "") + (o.part_b ? "b" : "") + (o.part_c ? "c" : "");
    return {
        "date: " + utc_now(),
        "host: " + host_name(),
        "GPU: " + gpu_description(p),
        "CUDA driver " + version_string(driver) + ", runtime " + version_string(runtime) + ", cuSOLVER " +
            std::to_string(solver) + ", cuSPARSE " + std::to_string(sp),
        "command: `" + o.command + "`",
        "parts " + parts + "; precisions " + ps + "; part (a) n = " + join(o.ns_pcr) + ", batch " +
            (o.elems_pcr > 0 ? std::to_string(o.elems_pcr) + " / n (entries per array the same at every n)"
             : o.batch_pcr > 0 ? std::to_string(o.batch_pcr)
                               : std::string("2^20 up to n = 256, 2^28/n above")) +
            "; gtsvInterleavedBatch algorithms " + (o.ialgos.empty() ? std::string("none") : join(o.ialgos)) +
            (o.pcr_rows.empty() ? std::string() : "; ours with rows a thread = " + join(o.pcr_rows)) +
            "; parts (b), (c) n = " + join(o.ns_dense) + ", batch " +
            (o.batch_dense > 0 ? std::to_string(o.batch_dense) : std::string("1e6 for n <= 32, 262144 up to 64, 2^28/n^2 above")) +
            "; uplo " + std::string(1, o.uplo),
        "timing: median of " + std::to_string(o.reps) + " repeats (CUDA events around the solve calls only), after " +
            "1 validation run and " + std::to_string(o.warmup) +
            " warm-up run(s); b (and A for cuSOLVER) restored by a device copy and L2 flushed by reading " +
            fmt("%.0f", flush_bytes / 1e6) + " MB before each repeat, outside the timed region (the restore is " +
            "never timed, for ours and the vendor's alike); repeats alternate between 2 working copies where " +
            "memory allows",
        "bandwidth: " + fmt("%.1f", bandwidth / 1e9) + " GB/s, device-to-device cudaMemcpy of " +
            fmt("%.0f", bw_bytes / 1e6) + " MB counted as bytes read + bytes written (median of 10)",
        "bounds = bandwidth / (entries that must move * sizeof(T)): (a) general dl+d+du+b+x = 5n-2, symmetric "
        "e+d+b+x = 4n-1; (b) A+b+x = n^2+2n; (c) A+d+e = n^2+2n-1, with Q 2n^2+2n-1; ratio to bound against the "
        "bound of the row's own problem (tri(A) row of (b): tri / full)",
        "inputs: (a) off-diagonals uniform in [-1, 1), diagonal in [2.5, 3.5) (strictly diagonally dominant, "
        "the same d for the symmetric and the general system), b uniform in [-1, 1); (b), (c) the SPD matrices "
        "of bench_ldlt (condition number below 2n)",
        "validation: info all 0, output finite; on " + std::to_string(o.sample) +
            " sampled systems + the last: (a) backward error ||b-Tx||/(||T|| ||x||+||b||) <= 100 n eps and "
            "relative residual ||b-Tx||/||b|| <= 1e-3 (single) / 1e-10 (double), inf-norms; (b) backward error "
            "<= 100 n eps; (c) max(||AQ-QT||_F/||A||_F, ||Q'Q-I||_F) on <= 200 systems, and the trace and "
            "Frobenius invariants, <= 100 n eps; checked before timing and on the last timed repeat's output",
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
    CHECK(cusolverDnCreate(&h.solver));
    CHECK(cusolverDnSetStream(h.solver, s));
    cusparseHandle_t sparse = nullptr;
    CHECK(cusparseCreate(&sparse));
    CHECK(cusparseSetStream(sparse, s));

    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t bw_bytes = std::min<size_t>(size_t(2) << 30, free_b / 4);
    const double bandwidth = measure_bandwidth(bw_bytes, s);

    tri_report rep;
    {
        l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
        rep.header = describe(o, prop, sparse, bandwidth, bw_bytes, flush.buf.bytes());
        std::printf("bench_tridiag\n");
        for (const std::string &line : rep.header)
            std::printf("  %s\n", line.c_str());
        env_t env{o, h, sparse, flush, s, bandwidth};
        for (char p : o.precisions) {
            if (o.part_a) {
                print_columns_wide(p == 's' ? "(a) tridiagonal solve, single" : "(a) tridiagonal solve, double");
                for (int n : o.ns_pcr) {
                    if (p == 's')
                        run_part_a<float>(n, env, rep);
                    else
                        run_part_a<double>(n, env, rep);
                    write_outputs(rep, o);
                }
            }
            if (o.part_b || o.part_c) {
                print_columns_wide(p == 's' ? "(b) method \"tridiag\" / (c) tridiagonalization, single"
                                            : "(b) method \"tridiag\" / (c) tridiagonalization, double");
                for (int n : o.ns_dense) {
                    if (n > DENSE_MAX_N)
                        continue; // --n also lists the sizes of part (a)
                    if (p == 's')
                        run_dense<float>(n, env, rep);
                    else
                        run_dense<double>(n, env, rep);
                    write_outputs(rep, o);
                }
            }
        }
        // The issue's target of part (a): n = 32, single (listed before part (b)'s).
        std::vector<std::string> targets_a;
        for (const row &r : rep.a)
            if (r.n == 32 && r.precision == "single" && r.method.rfind("ours pcr", 0) == 0)
                targets_a.push_back("(a) n = 32 single, " + r.method + " >= 3e9 systems/s: " + fmt("%.3g", r.rate) +
                                    (r.check == "ok" && r.rate >= 3e9 ? " (met)" : " (NOT met)"));
        rep.targets.insert(rep.targets.begin(), targets_a.begin(), targets_a.end());
        write_outputs(rep, o);
    }

    if (!rep.ratios.empty()) {
        std::printf("\n(b) LDL^T / tridiag:\n");
        for (const std::vector<std::string> &t : rep.ratios)
            std::printf("  %-6s n = %-3s tridiag %11s  LDL^T %11s  LDL^T/tridiag %6s  cusolver %11s  "
                        "tridiag/cusolver %6s\n",
                        t[0].c_str(), t[1].c_str(), t[2].c_str(), t[3].c_str(), t[4].c_str(), t[5].c_str(),
                        t[6].c_str());
    }
    if (!rep.summary.empty()) {
        std::printf("\n(a) issue 15: ours (general) against the better cuSPARSE routine:\n");
        std::printf("  %-6s %5s %8s %11s %11s %11s %15s %7s %6s %6s\n", "prec", "n", "batch", "ours gen",
                    "ours sym", "strided", "interleaved", "ratio", "%bnd", "%bnd s");
        for (const std::vector<std::string> &t : rep.summary)
            std::printf("  %-6s %5s %8s %11s %11s %11s %15s %7s %6s %6s\n", t[0].c_str(), t[1].c_str(),
                        t[2].c_str(), t[3].c_str(), t[4].c_str(), t[5].c_str(), t[6].c_str(), t[7].c_str(),
                        t[8].c_str(), t[9].c_str());
        for (const std::string &t : rep.targets15)
            std::printf("  %s\n", t.c_str());
    }
    CHECK(cusparseDestroy(sparse));
    CHECK(cusolverDnDestroy(h.solver));
    CHECK(cudaStreamDestroy(s));
    return bench_end(3, rep.targets, o.out, rep.ours_failed, "one of our kernels", rep.vendor_failed, "a vendor routine");
}
