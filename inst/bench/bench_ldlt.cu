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
// The machinery it shares with bench_tridiag.cu (checks, inputs, timing,
// validation, output) lives in bench_common.cuh.
//
// Usage: bench_ldlt [options] [--out FILE.md]   (bench_ldlt --help)
#define BENCH_NAME "bench_ldlt"
#include "bench_common.cuh"

namespace {

// ---- options -------------------------------------------------------------

struct options {
    std::vector<int> ns{8, 16, 32, 64, 96, 128, 192, 256};
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

// 1e6 systems up to n = 32, 2^18 up to 64, 1e5 up to 128, 2e4 above (the
// block kernel's range: double n = 256 is 10.5 GB a copy of A, and cuBLAS
// and cuSOLVER need theirs within --mem-gb): A from 256 MB (n = 8, float) to
// 13 GB (n = 128, double), far beyond the L2 everywhere.
long long default_batch(int n)
{
    return n <= 32 ? 1000000LL : n <= 64 ? 262144LL : n <= 128 ? 100000LL : 20000LL;
}
const char *const DEFAULT_BATCH = "1e6 for n <= 32, 262144 up to 64, 1e5 up to 128, 2e4 above";

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: bench_ldlt [options] [FILE.md]\n"
        "  --n LIST         sizes, comma-separated (default 8,16,32,64,96,128,192,256; 1..%d)\n"
        "  --prec LIST      s,d (also single,double,float; default s,d)\n"
        "  --methods LIST   ours,cusolver,cublas (default all)\n"
        "  --batch N        systems per configuration (default %s)\n"
        "  --reps N         timed repeats, median reported (default 10)\n"
        "  --warmup N       untimed runs per method after validation (default 1)\n"
        "  --sample N       systems checked for backward error (default 1000)\n"
        "  --mem-gb X       device memory budget in GB (default 40)\n"
        "  --uplo L|U       triangle referenced (default L)\n"
        "  --out FILE.md    write the tables as markdown to FILE.md and as CSV to FILE.csv\n"
        "exit status: 0 ok, 1 our kernel failed validation, 3 a vendor routine failed\n"
        "validation, 2 a CUDA/cuBLAS/cuSOLVER call failed\n",
        BSYM_GPU_LDLT_MAX_N, DEFAULT_BATCH);
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
            // The row's note, after the run: the tuned choice behind G=0, and
            // the occupancy.
            m.describe = [n, g] {
                std::string note =
                    g == 0 ? "tuned default (G=" + std::to_string(bsym_cuda_ldlt_tuned_group(prec<T>::letter, n)) + ")"
                           : "";
                const int occ = bsym_cuda_ldlt_systems_per_sm(prec<T>::letter, n, g);
                return note + (note.empty() ? "" : "; ") + std::to_string(occ) + " systems/SM";
            };
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

void write_outputs(const report &rep, const std::string &md)
{
    if (md.empty())
        return;
    FILE *f = std::fopen(md.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", md.c_str(), std::strerror(errno));
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
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", csv.c_str(), std::strerror(errno));
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

    run_params params() const
    {
        run_params p;
        p.reps = o.reps;
        p.warmup = o.warmup;
        p.sample = o.sample;
        p.flush = &flush;
        p.s = s;
        return p;
    }
};

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
        row r = run_method(P, m, env.params(), bounds[0].rate);
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
std::vector<std::string> describe(const options &o, const cudaDeviceProp &p, const handles &h, double bandwidth,
                                  size_t bw_bytes, size_t flush_bytes)
{
    int driver = 0, runtime = 0, blas = 0, solver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cublasGetVersion(h.blas, &blas));
    CHECK(cusolverGetVersion(&solver));
    std::string ns, ps, ms;
    for (int n : o.ns)
        ns += (ns.empty() ? "" : ",") + std::to_string(n);
    for (char c : o.precisions)
        ps += (ps.empty() ? "" : ",") + std::string(1, c);
    for (const std::string &m : o.methods)
        ms += (ms.empty() ? "" : ",") + m;
    return {
        "date: " + utc_now(),
        "host: " + host_name(),
        "GPU: " + gpu_description(p),
        "CUDA driver " + version_string(driver) + ", runtime " + version_string(runtime) + ", cuBLAS " +
            std::to_string(blas) + ", cuSOLVER " + std::to_string(solver),
        "command: `" + o.command + "`",
        "sizes n = " + ns + "; precisions " + ps + "; methods " + ms + "; uplo " + std::string(1, o.uplo) +
            "; batch " + (o.batch > 0 ? std::to_string(o.batch) : std::string(DEFAULT_BATCH)),
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
    CHECK(cusolverDnDestroy(h.solver));
    CHECK(cublasDestroy(h.blas));
    CHECK(cudaStreamDestroy(s));
    return bench_end(0, {}, o.out, rep.ours_failed, "our LDL^T kernel", rep.vendor_failed, "a vendor routine");
}