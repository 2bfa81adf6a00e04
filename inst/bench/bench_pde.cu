// bench_pde.cu -- device-resident benchmark of issue 15: the fused GPU
// θ-scheme PDE solver (bsym_cuda_pde_launch_{s,d}) pricing American puts,
// beside a cuSPARSE-per-step loop and the memory-bandwidth bound, measured in
// the same run.
//
// The problem (per precision, grid and batch): Black-Scholes in S,
//     du/dt + 0.5 σ_k² S² u_SS + r S u_S - r u = 0,
// a = 0.5 σ_k² S² per system (m x 1 x batch), b = r S (a vector of m shared
// by all systems), c = -r (a scalar), d = 0; final = obstacle = max(K_k - S, 0)
// (m x batch, two arrays); θ = 0.5 (Crank-Nicolson), rannacher = 2, "linear"
// boundaries at both ends; m nodes S in [0, 4 K_max] (uniform, or sinh-packed
// around S = 100 with --grid nonuniform), N levels t uniform in [0, 1],
// r = 0.03, strikes K_k in [80, 120] and volatilities σ_k in [0.15, 0.45]
// spread over the batch (two low-discrepancy sequences, so that every batch
// size covers both ranges).
//
// Methods, each on the same device arrays:
//   ours (rows=R)        bsym_cuda_pde_launch_{s,d}: the whole time loop in one
//                        call (R rows per thread; 0 = the tuned choice; the
//                        call computes the weights on the host and copies
//                        them, which is timed: it is part of the call);
//   cusparse gtsv2 loop  per (half) step: our assembly kernel (the step's
//                        tridiagonal system dl, d, du and right-hand side from
//                        the scheme of src/core/pde_impl.h: the same weights,
//                        "linear" boundary rows, Rannacher half steps with the
//                        midpoint's rows), cusparse{S,D}gtsv2StridedBatch in
//                        place on the right-hand side (buffer from its
//                        bufferSizeExt query, allocated once, untimed; calls
//                        of at most 2^26 entries), then an obstacle kernel
//                        u = max(x, obstacle); N - 1 + rannacher solves;
//   bound                measured copy bandwidth / bytes that must move per
//                        option: a, final and obstacle read once, u written
//                        once (4 m entries) and info (4 bytes); b and c are
//                        shared (m + 1 entries in all, not counted).
//
// What is timed: CUDA events around the solve calls only, after one
// validation run and --warmup untimed runs; before every repeat a read of 4x
// the L2 size evicts the L2 (outside the timed region). The inputs are never
// overwritten (u is its own array), so nothing is restored between repeats.
// Options/s = batch / median over --reps repeats.
//
// Validation of each configuration:
//   - ours: every info entry 0 (a BSYM__PDE_RETRY, which the host API would
//     solve again on the CPU, counts as a failure here), no non-finite entry;
//   - max |ours - cuSPARSE loop| / max |cuSPARSE loop| over the whole batch
//     <= 1e-10 (double) / 1e-3 (single) (reported: expect about 1e-12 /
//     1e-4), on the validation run and on the last timed repeat's output;
//   - both against the library's CPU solver (bsym_{d,s}pde_solve on the host,
//     the reference scheme) on --sample systems spread over the batch plus the
//     last one, same bounds relative to max |CPU|;
//   - sanity (per precision and grid, at the first batch size): ours with the
//     obstacle removed (the European put), the price at S = K_k (quadratic
//     interpolation) against the Black-Scholes formula on the sampled options,
//     within 2e-2 (double) / 3e-2 (single) absolute (strikes 80..120), and the
//     American price at S = K_k not below the European one.
//
// --self-test (no GPU needed): the cuSPARSE loop's assembly (the same
// __host__ __device__ code) with a host Thomas solve and the obstacle, on a
// few systems, against the CPU core, and the CPU core's European ATM price
// against Black-Scholes, for both precisions and grids.
//
// Exit status: 0 all checks passed; 1 ours failed a check; 3 only the
// cuSPARSE loop failed one; 2 a CUDA/cuSPARSE call failed (the run stops
// there, naming what it was doing). The tables are (re)written after every
// configuration.
//
// Usage: bench_pde [options] [--out FILE.md]   (bench_pde --help)
#define BENCH_NAME "bench_pde"
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

struct options {
    int m = 512, N = 200;
    std::vector<long long> batches{10000, 100000};
    std::vector<char> precisions{'s', 'd'};
    std::vector<int> rows{0};          // ours' rows per thread (0 = tuned)
    std::vector<bool> nonuniform{false}; // grids
    bool ours = true, cusparse = true;
    int reps = 10;
    int warmup = 1;
    int sample = 32;
    double mem_gb = 40;
    bool quick = false, self_test = false;
    std::string out;
    std::string command;
};

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: bench_pde [options] [FILE.md]\n"
        "  --m M              grid nodes (default 512; 3..%d)\n"
        "  --N N              time levels (default 200; >= 4)\n"
        "  --batch LIST       options per configuration (default 1e4,1e5)\n"
        "  --prec LIST        s,d (also single,double,float,both; default s,d)\n"
        "  --rows LIST        ours' rows per thread: 0 (the tuned choice), 4, 8 (default 0)\n"
        "  --grid LIST        uniform,nonuniform (also both; default uniform)\n"
        "  --methods LIST     ours,cusparse (default both)\n"
        "  --reps N           timed repeats, median reported (default 10)\n"
        "  --warmup N         untimed runs per method after validation (default 1)\n"
        "  --sample N         systems checked against the CPU core (default 32, plus the last)\n"
        "  --mem-gb X         device memory budget in GB (default 40)\n"
        "  --quick            a smoke run: batch 1e4, 3 repeats\n"
        "  --self-test        check the cuSPARSE loop's assembly on the host against the CPU core\n"
        "                     (no GPU needed) and exit\n"
        "  --out FILE.md      write the tables as markdown to FILE.md and as CSV to FILE.csv\n"
        "exit status: 0 ok, 1 ours failed a check, 3 the cuSPARSE loop failed one, 2 a CUDA/cuSPARSE\n"
        "call failed\n",
        BSYM_GPU_PDE_MAX_N);
}

options parse_options(int argc, char **argv)
{
    options o;
    bool batch_given = false, reps_given = false;
    for (int i = 0; i < argc; i++)
        o.command += (i ? " " : "") + std::string(argv[i]);
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(0);
        }
        if (a == "--quick") {
            o.quick = true;
            continue;
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
        if (a == "--m") {
            const long long m = parse_count(v, "--m");
            if (m < 3 || m > BSYM_GPU_PDE_MAX_N)
                bad_option("--m: " + v + " is outside 3.." + std::to_string(BSYM_GPU_PDE_MAX_N));
            o.m = int(m);
        } else if (a == "--N") {
            const long long N = parse_count(v, "--N");
            if (N < 4 || N > 1000000)
                bad_option("--N: " + v + " is outside 4..1e6");
            o.N = int(N);
        } else if (a == "--batch") {
            o.batches.clear();
            for (const std::string &p : split(v))
                o.batches.push_back(parse_count(p, "--batch"));
            batch_given = true;
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
        } else if (a == "--rows") {
            o.rows.clear();
            for (const std::string &p : split(v)) {
                if (p == "0")
                    o.rows.push_back(0);
                else
                    o.rows.push_back(int(std::min(parse_count(p, "--rows"), 1024LL)));
            }
        } else if (a == "--grid") {
            o.nonuniform.clear();
            for (const std::string &p : split(v)) {
                if (p == "uniform")
                    o.nonuniform.push_back(false);
                else if (p == "nonuniform")
                    o.nonuniform.push_back(true);
                else if (p == "both") {
                    o.nonuniform.push_back(false);
                    o.nonuniform.push_back(true);
                } else
                    bad_option("--grid: unknown grid '" + p + "' (uniform, nonuniform or both)");
            }
        } else if (a == "--methods") {
            o.ours = o.cusparse = false;
            for (const std::string &p : split(v)) {
                if (p == "ours")
                    o.ours = true;
                else if (p == "cusparse")
                    o.cusparse = true;
                else
                    bad_option("--methods: unknown method '" + p + "' (ours or cusparse)");
            }
        } else if (a == "--reps") {
            o.reps = int(std::min(parse_count(v, "--reps"), 1000LL));
            reps_given = true;
        } else if (a == "--warmup") {
            o.warmup = v == "0" ? 0 : int(std::min(parse_count(v, "--warmup"), 100LL));
        } else if (a == "--sample") {
            o.sample = int(std::min(parse_count(v, "--sample"), 100000LL));
        } else if (a == "--mem-gb") {
            o.mem_gb = std::atof(v.c_str());
            if (!(o.mem_gb > 0))
                bad_option("--mem-gb: '" + v + "' is not a positive number");
        } else if (a == "--out") {
            o.out = v;
        } else {
            bad_option("unknown option " + a);
        }
    }
    if (o.quick) {
        if (!batch_given)
            o.batches = {10000};
        if (!reps_given)
            o.reps = 3;
    }
    if (o.precisions.empty() || o.batches.empty() || o.rows.empty() || o.nonuniform.empty() ||
        !(o.ours || o.cusparse))
        bad_option("--prec, --batch, --rows, --grid and --methods need at least one entry");
    if (!o.out.empty() && !o.self_test) { // fail now rather than after the run
        FILE *f = std::fopen(o.out.c_str(), "w");
        if (f == nullptr)
            bad_option("cannot write " + o.out + ": " + std::strerror(errno));
        std::fclose(f);
    }
    return o;
}

// ---- the problem: American puts under Black-Scholes in S ----------------------

constexpr double RATE = 0.03, MATURITY = 1.0;
constexpr double K_LO = 80, K_HI = 120, SIG_LO = 0.15, SIG_HI = 0.45;
constexpr double S_MAX = 4 * K_HI;
constexpr double THETA = 0.5;
constexpr int RANNACHER = 2;

__host__ __device__ inline double frac(double v) { return v - floor(v); }
// Strike and volatility of option k: two additive recurrences (the R2
// sequence's constants), so any batch size spreads over both ranges.
__host__ __device__ inline double strike_of(long long k)
{
    return K_LO + (K_HI - K_LO) * frac(0.5 + double(k) * 0.7548776662466927);
}
__host__ __device__ inline double vol_of(long long k)
{
    return SIG_LO + (SIG_HI - SIG_LO) * frac(0.5 + double(k) * 0.5698402909980532);
}

// The m nodes, in T (then widened): uniform on [0, S_MAX], or packed around
// S = 100 by a sinh map (as inst/bench/pde.R) with x_0 = 0, x_{m-1} = S_MAX.
template <typename T> std::vector<T> grid_nodes(int m, bool nonuniform)
{
    std::vector<T> x(static_cast<size_t>(m));
    const double kc = 100, lambda = 20;
    const double lo = std::asinh(-kc / lambda), hi = std::asinh((S_MAX - kc) / lambda);
    for (int i = 0; i < m; i++) {
        const double f = double(i) / (m - 1);
        x[size_t(i)] = T(nonuniform ? kc + lambda * std::sinh(lo + (hi - lo) * f) : S_MAX * f);
    }
    x[0] = T(0);
    x[size_t(m - 1)] = T(S_MAX);
    return x;
}

template <typename T> std::vector<T> time_levels(int N)
{
    std::vector<T> t(static_cast<size_t>(N));
    for (int n = 0; n < N; n++)
        t[size_t(n)] = T(MATURITY * n / (N - 1));
    return t;
}

// a = 0.5 σ_k² x_i², final = obstacle = max(K_k - x_i, 0); entry i of option
// k at k m + i. The host's sample (host_inputs) uses the same expressions.
template <typename T>
__host__ __device__ inline void put_inputs(double x, long long k, T &a, T &pay)
{
    const double s = vol_of(k), K = strike_of(k);
    a = T(0.5 * s * s * x * x);
    pay = T(K - x > 0 ? K - x : 0.0);
}

template <typename T> __global__ void fill_puts(const T *x, int m, long long batch, T *a, T *fin, T *obs)
{
    const long long total = (long long)m * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long k = idx / m;
        const int i = int(idx - k * m);
        T av, pay;
        put_inputs<T>(double(x[i]), k, av, pay);
        a[idx] = av;
        fin[idx] = pay;
        obs[idx] = pay;
    }
}

// ---- the scheme, as src/core/pde_impl.h (for the cuSPARSE loop) ----------------

// A coefficient by strides, as bsym_pde_coef (NULL v reads as 0).
template <typename T> struct coef_t {
    const T *v = nullptr;
    long long si = 0, sn = 0, sk = 0;
    __host__ __device__ T at(long long i, long long n, long long k) const
    {
        return v != nullptr ? v[i * si + n * sn + k * sk] : T(0);
    }
};

// What every step's assembly reads: the coefficients, the 6 m weights (w1m,
// w1c, w1p, w2m, w2c, w2p: eqs. 17 and 18) and the two boundary reciprocals.
// "linear" boundaries at both ends (the only ones this benchmark uses).
template <typename T> struct scheme_t {
    int m = 0;
    coef_t<T> a, b, c, d;
    const T *w = nullptr;
    T bl = 0, bu = 0; // 1 / (x_1 - x_0), 1 / (x_{m-1} - x_{m-2})
};

// The weights and boundary reciprocals from the nodes, in double then
// rounded to T, exactly as the CPU core computes them.
template <typename T> std::vector<T> scheme_weights(const std::vector<T> &x, T &bl, T &bu)
{
    const size_t m = x.size();
    std::vector<T> w(6 * m, T(0));
    for (size_t i = 1; i + 1 < m; i++) {
        const double hm = double(x[i]) - double(x[i - 1]), hp = double(x[i + 1]) - double(x[i]), hs = hm + hp;
        w[i] = T(-hp / (hm * hs));
        w[m + i] = T(1 / hm - 1 / hp);
        w[2 * m + i] = T(hm / (hp * hs));
        w[3 * m + i] = T(2 / (hm * hs));
        w[4 * m + i] = T(-2 / (hm * hp));
        w[5 * m + i] = T(2 / (hp * hs));
    }
    bl = T(1 / (double(x[1]) - double(x[0])));
    bu = T(1 / (double(x[m - 1]) - double(x[m - 2])));
    return w;
}

// Row i of L^n for system k: sub l, diagonal dg, super u, source f.
template <typename T>
__host__ __device__ inline void rows_at(const scheme_t<T> &s, long long n, int i, long long k, T &l, T &dg, T &u,
                                        T &f)
{
    const int m = s.m;
    if (i > 0 && i < m - 1) {
        const T av = s.a.at(i, n, k), bv = s.b.at(i, n, k), cv = s.c.at(i, n, k);
        l = av * s.w[3 * m + i] + bv * s.w[i];
        dg = av * s.w[4 * m + i] + bv * s.w[m + i] + cv;
        u = av * s.w[5 * m + i] + bv * s.w[2 * m + i];
    } else { // "linear": the a-term dropped, du/dx one-sided from the neighbour
        const T bv = s.b.at(i, n, k), cv = s.c.at(i, n, k);
        if (i == 0) {
            l = 0;
            dg = cv - bv * s.bl;
            u = bv * s.bl;
        } else {
            l = -bv * s.bu;
            dg = cv + bv * s.bu;
            u = 0;
        }
    }
    f = s.d.at(i, n, k);
}

// One (half) step from level nr = n + 1 to level nq = n: implicit rows Q of
// level nq (mid: the average of the rows of nq and nr, a Rannacher half
// step's midpoint), explicit rows R of level nr when expl; th = θ dt, eh =
// (1 - θ) dt, fq, fr the source's weights (pde_step_ of the CPU core).
template <typename T> struct step_t {
    long long nq = 0, nr = 0;
    int mid = 0, expl = 0;
    T th = 0, eh = 0, fq = 0, fr = 0;
};

template <typename T> step_t<T> make_step(long long n, int mid, double theta, double dt)
{
    step_t<T> st;
    st.nq = n;
    st.nr = n + 1;
    st.mid = mid;
    st.expl = theta < 1;
    st.th = T(theta * dt);
    st.eh = T((1 - theta) * dt);
    st.fq = T(theta * dt);
    st.fr = T((1 - theta) * dt);
    return st;
}

// The (half) steps of the whole solve, in order, from the times t: the first
// `rannacher` intervals counted from t_{N-1} as two fully implicit half steps
// (the midpoint's rows, then level n's), the others by the θ-scheme.
template <typename T> std::vector<step_t<T>> schedule(const std::vector<T> &t, double theta, int rannacher)
{
    std::vector<step_t<T>> steps;
    const long long N = (long long)t.size();
    for (long long n = N - 2; n >= 0; n--) {
        const double dt = double(t[size_t(n + 1)]) - double(t[size_t(n)]);
        if (N - 2 - n < rannacher) {
            steps.push_back(make_step<T>(n, 1, 1.0, 0.5 * dt));
            steps.push_back(make_step<T>(n, 0, 1.0, 0.5 * dt));
        } else {
            steps.push_back(make_step<T>(n, 0, theta, dt));
        }
    }
    return steps;
}

// Node i of system k of one step: the tridiagonal row (dl_i, d_i, du_i;
// dl_0 = du_{m-1} = 0 as cuSPARSE wants them) and the right-hand side, from
// the system's current values Uk (m entries).
template <typename T>
__host__ __device__ inline void assemble_node(const scheme_t<T> &s, const step_t<T> &st, int i, long long k,
                                              const T *Uk, T &dl, T &dg, T &du, T &rhs)
{
    const int m = s.m;
    T ql, qd, qu, qf, rl = 0, rd = 0, ru = 0, rf = 0;
    rows_at(s, st.nq, i, k, ql, qd, qu, qf);
    if (st.mid || st.expl)
        rows_at(s, st.nr, i, k, rl, rd, ru, rf);
    if (st.mid) {
        ql = T(0.5) * (ql + rl);
        qd = T(0.5) * (qd + rd);
        qu = T(0.5) * (qu + ru);
        qf = T(0.5) * (qf + rf);
    }
    T r = Uk[i] + st.fq * qf;
    if (st.expl) {
        T lu;
        if (i == 0)
            lu = rd * Uk[0] + ru * Uk[1];
        else if (i == m - 1)
            lu = rl * Uk[m - 2] + rd * Uk[m - 1];
        else
            lu = rl * Uk[i - 1] + rd * Uk[i] + ru * Uk[i + 1];
        r += st.eh * lu + st.fr * rf;
    }
    dl = i == 0 ? T(0) : -st.th * ql;
    dg = T(1) - st.th * qd;
    du = i == m - 1 ? T(0) : -st.th * qu;
    rhs = r;
}

template <typename T>
__global__ void assemble(scheme_t<T> s, step_t<T> st, long long batch, const T *U, T *dl, T *dg, T *du, T *X)
{
    const int m = s.m;
    const long long total = (long long)m * batch;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long k = idx / m;
        const int i = int(idx - k * m);
        assemble_node(s, st, i, k, U + k * m, dl[idx], dg[idx], du[idx], X[idx]);
    }
}

// u = max(x, obstacle), after every (half) step.
template <typename T> __global__ void apply_obstacle(const T *X, const T *O, T *U, long long count)
{
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x) {
        const T x = X[idx], o = O[idx];
        U[idx] = o > x ? o : x;
    }
}

// ---- precision traits ------------------------------------------------------------

template <typename T> struct pde_prec;

template <> struct pde_prec<float> {
    static bsym_status ours(const bsym_pde *p, const float *fin, float *u, int *info, int rows, cudaStream_t s)
    {
        return bsym_cuda_pde_launch_s(p, fin, u, info, rows, s);
    }
    static bsym_status cpu(bsym_ctx *ctx, const bsym_pde *p, const float *fin, float *u, int *info)
    {
        return bsym_spde_solve(ctx, p, fin, u, info);
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
    static constexpr double agree_tol = 1e-3;  // max |diff| / max |u| between two solvers
    static constexpr double bs_tol = 3e-2;     // European ATM price vs Black-Scholes (absolute)
    static constexpr double self_tol = 1e-4;   // --self-test: host loop vs CPU core
};

template <> struct pde_prec<double> {
    static bsym_status ours(const bsym_pde *p, const double *fin, double *u, int *info, int rows, cudaStream_t s)
    {
        return bsym_cuda_pde_launch_d(p, fin, u, info, rows, s);
    }
    static bsym_status cpu(bsym_ctx *ctx, const bsym_pde *p, const double *fin, double *u, int *info)
    {
        return bsym_dpde_solve(ctx, p, fin, u, info);
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
    static constexpr double agree_tol = 1e-10;
    static constexpr double bs_tol = 2e-2;
    static constexpr double self_tol = 1e-12;
};

std::string status_why(bsym_status st, const char *what)
{
    return st == BSYM_OK ? "" : std::string(what) + " returned " + bsym_status_string(st);
}

// ---- host references ---------------------------------------------------------------

// The inputs of options ks (m x ks.size() each, in the order of ks).
template <typename T> struct host_sample {
    std::vector<long long> ks;
    std::vector<T> a, fin, obs;
};

template <typename T> host_sample<T> host_inputs(const std::vector<T> &x, const std::vector<long long> &ks)
{
    host_sample<T> h;
    h.ks = ks;
    const size_t m = x.size();
    h.a.resize(m * ks.size());
    h.fin.resize(m * ks.size());
    for (size_t j = 0; j < ks.size(); j++)
        for (size_t i = 0; i < m; i++)
            put_inputs<T>(double(x[i]), ks[j], h.a[j * m + i], h.fin[j * m + i]);
    h.obs = h.fin;
    return h;
}

// The problem of p's shape on host arrays: per-system a (m x 1 x count), b
// vector, c scalar (the caller's b and c), obstacle or none.
template <typename T>
bsym_pde make_problem(int m, int N, long long count, const T *x, const T *t, const T *a, const T *b, const T *c,
                      const T *obstacle)
{
    bsym_pde p;
    std::memset(&p, 0, sizeof p);
    p.m = m;
    p.N = N;
    p.batch = count;
    p.x = x;
    p.t = t;
    p.a = bsym_pde_coef{a, 1, 0, m};
    p.b = bsym_pde_coef{b, 1, 0, 0};
    p.c = bsym_pde_coef{c, 0, 0, 0};
    p.d = bsym_pde_coef{nullptr, 0, 0, 0};
    p.theta = THETA;
    p.rannacher = RANNACHER;
    p.lower = BSYM_PDE_LINEAR;
    p.upper = BSYM_PDE_LINEAR;
    p.lower_value = bsym_pde_coef{nullptr, 0, 0, 0};
    p.upper_value = bsym_pde_coef{nullptr, 0, 0, 0};
    p.obstacle = obstacle;
    return p;
}

// The library's CPU solver on the sample (American when american, else
// European); returns "" or why it failed. u: m x count.
template <typename T>
std::string cpu_reference(const std::vector<T> &x, const std::vector<T> &t, const std::vector<T> &b, T c,
                          const host_sample<T> &h, bool american, std::vector<T> &u)
{
    const int m = int(x.size()), N = int(t.size());
    const long long count = (long long)h.ks.size();
    bsym_ctx *ctx = nullptr;
    if (bsym_ctx_create(&ctx) != BSYM_OK)
        return "bsym_ctx_create failed";
    std::string why = status_why(bsym_ctx_set_device(ctx, BSYM_DEVICE_CPU), "bsym_ctx_set_device");
    const bsym_pde p = make_problem<T>(m, N, count, x.data(), t.data(), h.a.data(), b.data(), &c,
                                       american ? h.obs.data() : nullptr);
    std::vector<int> info(size_t(count), 0);
    u.assign(size_t(m) * count, T(0));
    if (why.empty()) {
        const bsym_status st = pde_prec<T>::cpu(ctx, &p, h.fin.data(), u.data(), info.data());
        if (st != BSYM_OK)
            why = std::string("CPU bsym_pde_solve returned ") + bsym_status_string(st) + ": " +
                  bsym_ctx_message(ctx);
    }
    for (size_t j = 0; j < info.size() && why.empty(); j++)
        if (info[j] != 0)
            why = "CPU bsym_pde_solve: info[" + std::to_string(j) + "] = " + std::to_string(info[j]);
    bsym_ctx_destroy(ctx);
    return why;
}

// The cuSPARSE loop's scheme on the host for the sample: assemble_node, a
// Thomas solve in T (as the CPU core's sweep), the obstacle. u: m x count.
template <typename T>
void host_loop(const std::vector<T> &x, const std::vector<T> &t, const std::vector<T> &b, T c,
               const host_sample<T> &h, std::vector<T> &u)
{
    const int m = int(x.size()), N = int(t.size());
    const long long count = (long long)h.ks.size();
    scheme_t<T> s;
    s.m = m;
    const std::vector<T> w = scheme_weights(x, s.bl, s.bu);
    s.w = w.data();
    s.a = coef_t<T>{h.a.data(), 1, 0, m};
    s.b = coef_t<T>{b.data(), 1, 0, 0};
    s.c = coef_t<T>{&c, 0, 0, 0};
    const std::vector<step_t<T>> steps = schedule(t, THETA, RANNACHER);
    u = h.fin;
    std::vector<T> dl(static_cast<size_t>(m)), dg(static_cast<size_t>(m)), du(static_cast<size_t>(m)), r(static_cast<size_t>(m)), cp(static_cast<size_t>(m)), rp(static_cast<size_t>(m));
    for (long long j = 0; j < count; j++) {
        T *Uk = u.data() + j * m;
        const T *Ok = h.obs.data() + j * m;
        for (const step_t<T> &st : steps) {
            for (int i = 0; i < m; i++)
                assemble_node(s, st, i, j, Uk, dl[size_t(i)], dg[size_t(i)], du[size_t(i)], r[size_t(i)]);
            T rr = T(1) / dg[0];
            cp[0] = du[0] * rr;
            rp[0] = r[0] * rr;
            for (int i = 1; i < m; i++) {
                const T den = dg[size_t(i)] - dl[size_t(i)] * cp[size_t(i - 1)];
                rr = T(1) / den;
                cp[size_t(i)] = du[size_t(i)] * rr;
                rp[size_t(i)] = (r[size_t(i)] - dl[size_t(i)] * rp[size_t(i - 1)]) * rr;
            }
            T nx = rp[size_t(m - 1)];
            Uk[m - 1] = nx;
            for (int i = m - 2; i >= 0; i--) {
                nx = rp[size_t(i)] - cp[size_t(i)] * nx;
                Uk[i] = nx;
            }
            for (int i = 0; i < m; i++)
                Uk[i] = Ok[i] > Uk[i] ? Ok[i] : Uk[i];
        }
    }
}

// max |p - q| / max |q| over count entries (NaN when either has a NaN).
template <typename T> double rel_diff(const T *p, const T *q, size_t count)
{
    double diff = 0, scale = 0;
    for (size_t e = 0; e < count; e++) {
        const double d = std::fabs(double(p[e]) - double(q[e]));
        if (std::isnan(d))
            return NAN;
        diff = std::max(diff, d);
        scale = std::max(scale, std::fabs(double(q[e])));
    }
    return diff / scale;
}

double norm_cdf(double v) { return 0.5 * std::erfc(-v / std::sqrt(2.0)); }

double bs_put(double S, double K, double r, double s, double T)
{
    const double d1 = (std::log(S / K) + (r + 0.5 * s * s) * T) / (s * std::sqrt(T)), d2 = d1 - s * std::sqrt(T);
    return K * std::exp(-r * T) * norm_cdf(-d2) - S * norm_cdf(-d1);
}

// u at S = K by quadratic interpolation through the three nodes nearest K.
template <typename T> double value_at(const std::vector<T> &x, const T *u, double K)
{
    const int m = int(x.size());
    int j = 1;
    while (j < m - 2 && double(x[size_t(j)]) < K)
        j++;
    if (j > 1 && K - double(x[size_t(j - 1)]) < double(x[size_t(j)]) - K)
        j--; // j: the node nearest K, kept off the ends
    const double x0 = x[size_t(j - 1)], x1 = x[size_t(j)], x2 = x[size_t(j + 1)];
    const double l0 = (K - x1) * (K - x2) / ((x0 - x1) * (x0 - x2)), l1 = (K - x0) * (K - x2) / ((x1 - x0) * (x1 - x2)),
                 l2 = (K - x0) * (K - x1) / ((x2 - x0) * (x2 - x1));
    return l0 * double(u[j - 1]) + l1 * double(u[j]) + l2 * double(u[j + 1]);
}

// max over the sample of |u(K_k) - Black-Scholes|.
template <typename T> double bs_error(const std::vector<T> &x, const host_sample<T> &h, const std::vector<T> &u)
{
    const size_t m = x.size();
    double worst = 0;
    for (size_t j = 0; j < h.ks.size(); j++) {
        const double K = strike_of(h.ks[j]);
        const double e = std::fabs(value_at(x, u.data() + j * m, K) - bs_put(K, K, RATE, vol_of(h.ks[j]), MATURITY));
        worst = std::isnan(e) ? NAN : std::max(worst, e);
        if (std::isnan(worst))
            break;
    }
    return worst;
}

// min over the sample of American - European at S = K_k.
template <typename T>
double min_premium(const std::vector<T> &x, const host_sample<T> &h, const std::vector<T> &am, const std::vector<T> &eu)
{
    const size_t m = x.size();
    double low = INFINITY;
    for (size_t j = 0; j < h.ks.size(); j++) {
        const double K = strike_of(h.ks[j]);
        low = std::min(low, value_at(x, am.data() + j * m, K) - value_at(x, eu.data() + j * m, K));
    }
    return low;
}

// Options sample of a batch: count spread over it, plus the last.
std::vector<long long> sample_of(long long batch, int count)
{
    std::vector<long long> ks;
    const long long c = std::min<long long>(count, batch);
    const long long stride = std::max<long long>(1, batch / c);
    for (long long j = 0; j < c; j++)
        ks.push_back(j * stride);
    if (ks.back() != batch - 1)
        ks.push_back(batch - 1);
    return ks;
}

// ---- self-test (host only) ---------------------------------------------------------

template <typename T> bool self_test_one(const options &o, bool nonuniform)
{
    const std::vector<T> x = grid_nodes<T>(o.m, nonuniform), t = time_levels<T>(o.N);
    std::vector<T> b(x.size());
    for (size_t i = 0; i < x.size(); i++)
        b[i] = T(RATE * double(x[i]));
    const T c = T(-RATE);
    const host_sample<T> h = host_inputs(x, sample_of(100000, 16));
    std::vector<T> ref, mine, eu;
    std::string why = cpu_reference(x, t, b, c, h, true, ref);
    if (why.empty())
        why = cpu_reference(x, t, b, c, h, false, eu);
    host_loop(x, t, b, c, h, mine);
    const double d = rel_diff(mine.data(), ref.data(), ref.size());
    const double bse = why.empty() ? bs_error(x, h, eu) : NAN;
    const double prem = why.empty() ? min_premium(x, h, ref, eu) : NAN;
    const bool ok = why.empty() && d <= pde_prec<T>::self_tol && bse <= pde_prec<T>::bs_tol && prem >= 0;
    std::printf("%-6s %-10s host loop vs CPU core: max rel diff %.2e (<= %.0e); CPU European at S = K vs "
                "Black-Scholes: max |err| %.2e (<= %.0e); min American - European %.3g: %s%s%s\n",
                prec<T>::name, nonuniform ? "nonuniform" : "uniform", d, pde_prec<T>::self_tol, bse,
                pde_prec<T>::bs_tol, prem, ok ? "ok" : "FAIL", why.empty() ? "" : ": ", why.c_str());
    return ok;
}

int self_test(const options &o)
{
    bool ok = true;
    for (char p : o.precisions)
        for (bool nu : o.nonuniform)
            ok = (p == 's' ? self_test_one<float>(o, nu) : self_test_one<double>(o, nu)) && ok;
    std::printf("%s\n", ok ? "self-test passed" : "self-test FAILED");
    return ok ? 0 : 1;
}

// ---- device helpers ------------------------------------------------------------------

// out[0] = max |p - q|, out[1] = max |q| (as the bits of non-negative doubles,
// whose order is that of unsigned integers; NaN is counted apart).
template <typename T> __global__ void max_abs_diff(const T *p, const T *q, long long count, unsigned long long *out)
{
    double diff = 0, scale = 0;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < count;
         idx += (long long)gridDim.x * blockDim.x) {
        const double a = double(p[idx]), b = double(q[idx]);
        diff = fmax(diff, fabs(a - b));
        scale = fmax(scale, fabs(b));
    }
    atomicMax(&out[0], (unsigned long long)__double_as_longlong(diff));
    atomicMax(&out[1], (unsigned long long)__double_as_longlong(scale));
}

// max |p - q| / max |q| over the device arrays (NaN when either holds a
// non-finite entry).
template <typename T> double device_rel_diff(const T *p, const T *q, long long count, cudaStream_t s)
{
    if (nonfinite_count(p, count, s) != 0 || nonfinite_count(q, count, s) != 0)
        return NAN;
    dev_array<unsigned long long> out(2);
    CHECK(cudaMemsetAsync(out.p, 0, out.bytes(), s));
    max_abs_diff<T><<<std::min(grid_for(count, 256), 4096u), 256, 0, s>>>(p, q, count, out.p);
    CHECK(cudaGetLastError());
    unsigned long long h[2] = {0, 0};
    CHECK(cudaMemcpyAsync(h, out.p, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    double diff = 0, scale = 0;
    std::memcpy(&diff, &h[0], sizeof diff);
    std::memcpy(&scale, &h[1], sizeof scale);
    return diff / scale;
}

// Options ks of the device array src (m per option) to the host.
template <typename T> std::vector<T> gather_options(const T *src, int m, const std::vector<long long> &ks)
{
    std::vector<T> h(size_t(m) * ks.size());
    for (size_t j = 0; j < ks.size(); j++)
        CHECK(cudaMemcpy(h.data() + j * m, src + ks[j] * m, size_t(m) * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// "" when every info entry is 0, else the counts by kind.
std::string info_kinds(const int *dinfo, long long batch)
{
    std::vector<int> h(static_cast<size_t>(batch));
    CHECK(cudaMemcpy(h.data(), dinfo, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    long long retry = 0, input = 0, level = 0, other = 0, first = -1;
    for (long long k = 0; k < batch; k++) {
        const int v = h[size_t(k)];
        if (v == 0)
            continue;
        if (first < 0)
            first = k;
        if (v == BSYM__PDE_RETRY)
            retry++;
        else if (v == -1)
            input++;
        else if (v > 0)
            level++;
        else
            other++;
    }
    if (first < 0)
        return "";
    char s[256];
    std::snprintf(s, sizeof s,
                  "info: %lld of %lld nonzero (%lld BSYM__PDE_RETRY, %lld -1, %lld > 0, %lld other; first [%lld] = %d)",
                  retry + input + level + other, batch, retry, input, level, other, first, h[size_t(first)]);
    return s;
}

// ---- report ------------------------------------------------------------------------

struct prow {
    std::string precision, grid;
    int m = 0, N = 0;
    long long batch = 0;
    std::string method;
    double median_ms = NAN, spread = NAN, rate = NAN, pct_bound = NAN, speedup = NAN;
    double diff_cs = NAN, diff_cpu = NAN;
    std::string check, note;
};

struct sanity_row {
    std::string precision, grid;
    long long batch = 0;
    int count = 0;
    double bs_err = NAN, bs_tol = NAN, premium = NAN;
    std::string check, note;
};

struct pde_report {
    std::vector<std::string> header;
    std::vector<prow> rows;
    std::vector<sanity_row> sanity;
    std::vector<std::string> targets;
    bool ours_failed = false, vendor_failed = false;
};

const std::vector<std::string> PDE_COLUMNS{
    "precision", "grid", "m", "N", "batch", "method", "median ms", "spread", "options/s", "% of bound",
    "ours / this", "max rel diff vs cuSPARSE loop", "max rel diff vs CPU core", "check", "note"};
const std::vector<std::string> SANITY_COLUMNS{"precision", "grid", "batch", "options checked",
                                              "max abs err European at S = K vs Black-Scholes", "bound",
                                              "min American - European at S = K", "check", "note"};

std::string fmt_rate(double v) { return fmt("%.4g", v); }

std::vector<std::string> prow_cells(const prow &r)
{
    return {r.precision, r.grid, std::to_string(r.m), std::to_string(r.N), std::to_string(r.batch), r.method,
            fmt("%.3f", r.median_ms), fmt("%.1f%%", 100 * r.spread), fmt_rate(r.rate), fmt("%.2f%%", r.pct_bound),
            fmt("%.3g", r.speedup), fmt("%.1e", r.diff_cs), fmt("%.1e", r.diff_cpu), r.check, r.note};
}

std::vector<std::string> sanity_cells(const sanity_row &r)
{
    return {r.precision, r.grid, std::to_string(r.batch), std::to_string(r.count), fmt("%.2e", r.bs_err),
            fmt("%.0e", r.bs_tol), fmt("%.4f", r.premium), r.check, r.note};
}

void print_prow(const prow &r)
{
    const std::vector<std::string> c = prow_cells(r);
    std::printf("%-6s %-10s %7s  %-22s %10s %7s %11s %8s %7s %9s %9s %-5s %s\n", c[0].c_str(), c[1].c_str(),
                c[4].c_str(), c[5].c_str(), c[6].c_str(), c[7].c_str(), c[8].c_str(), c[9].c_str(), c[10].c_str(),
                c[11].c_str(), c[12].c_str(), c[13].c_str(), c[14].c_str());
    std::fflush(stdout);
}

void print_prow_columns()
{
    std::printf("\n%-6s %-10s %7s  %-22s %10s %7s %11s %8s %7s %9s %9s %-5s %s\n", "prec", "grid", "batch",
                "method", "median ms", "spread", "options/s", "%bound", "ours/x", "vs cusp", "vs CPU", "check",
                "note");
}

void write_outputs(const pde_report &rep, const options &o)
{
    if (o.out.empty())
        return;
    FILE *f = std::fopen(o.out.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", o.out.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(f, "# bench_pde: the fused GPU θ-scheme PDE solver (issue 15), American puts, device-resident\n\n");
    for (const std::string &h : rep.header)
        std::fprintf(f, "- %s\n", h.c_str());
    if (!rep.targets.empty()) {
        std::fprintf(f, "\n## Targets of issue 15\n\n");
        for (const std::string &t : rep.targets)
            std::fprintf(f, "- %s\n", t.c_str());
    }
    std::fprintf(f, "\n## American puts, m x N grid: options per second\n\n");
    std::vector<std::vector<std::string>> body;
    for (const prow &r : rep.rows)
        body.push_back(prow_cells(r));
    markdown_table(f, PDE_COLUMNS, body);
    if (!rep.sanity.empty()) {
        std::fprintf(f, "\n## Sanity: ours' European put (obstacle removed) at S = K against Black-Scholes\n\n");
        std::vector<std::vector<std::string>> sb;
        for (const sanity_row &r : rep.sanity)
            sb.push_back(sanity_cells(r));
        markdown_table(f, SANITY_COLUMNS, sb);
    }
    std::fclose(f);

    const std::string csv = csv_path(o.out);
    FILE *g = std::fopen(csv.c_str(), "w");
    if (g == nullptr) {
        std::fprintf(stderr, BENCH_NAME ": cannot write %s: %s\n", csv.c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(g, "precision,grid,m,N,batch,method,median_ms,spread,options_per_s,pct_of_bound,ours_over_this,"
                    "rel_diff_cusparse,rel_diff_cpu,check,note\n");
    for (const prow &r : rep.rows)
        std::fprintf(g, "%s,%s,%d,%d,%lld,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.3g,%.3g,%s,%s\n", r.precision.c_str(),
                     r.grid.c_str(), r.m, r.N, r.batch, csv_field(r.method).c_str(), r.median_ms, r.spread, r.rate,
                     r.pct_bound, r.speedup, r.diff_cs, r.diff_cpu, r.check.c_str(), csv_field(r.note).c_str());
    std::fclose(g);
}

// ---- one configuration ------------------------------------------------------------

struct env_t {
    const options &o;
    cusparseHandle_t sparse;
    l2_flusher &flush;
    cudaStream_t s;
    double bandwidth; // bytes/s
};

// Largest m * batch of one cusparse{S,D}gtsv2StridedBatch call (its size
// query overflows above about 2^27 entries: see bench_tridiag.cu).
const long long CUSPARSE_MAX_ENTRIES = 1LL << 26;

double memory_budget(const options &o)
{
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    return std::min(o.mem_gb * 1e9, double(free_b) - 2e9); // 2 GB left for the libraries
}

// The cuSPARSE loop's device state: the scheme, the step list, the systems'
// arrays and cuSPARSE's buffer.
template <typename T> struct cs_state {
    int m = 0;
    long long batch = 0, chunk = 0;
    scheme_t<T> sch;
    std::vector<step_t<T>> steps;
    dev_array<T> w, dl, dg, du, X, U;
    dev_array<unsigned char> buffer;
};

template <typename T> std::string cusparse_loop(cs_state<T> &C, cusparseHandle_t h, const T *dfinal, const T *dobs,
                                                cudaStream_t s)
{
    const long long total = (long long)C.m * C.batch;
    const T *U = dfinal;
    for (const step_t<T> &st : C.steps) {
        assemble<T><<<grid_for(total, 256), 256, 0, s>>>(C.sch, st, C.batch, U, C.dl.p, C.dg.p, C.du.p, C.X.p);
        CHECK(cudaGetLastError());
        for (long long k0 = 0; k0 < C.batch; k0 += C.chunk) {
            const long long nb = std::min(C.chunk, C.batch - k0), off = k0 * C.m;
            CHECK(pde_prec<T>::gtsv(h, C.m, C.dl.p + off, C.dg.p + off, C.du.p + off, C.X.p + off, int(nb),
                                    C.buffer.p));
        }
        apply_obstacle<T><<<grid_for(total, 256), 256, 0, s>>>(C.X.p, dobs, C.U.p, total);
        CHECK(cudaGetLastError());
        U = C.U.p;
    }
    return "";
}

// Validation run, warm-up, timed repeats of solve(); fills the row's timing.
void time_method(prow &r, const std::function<std::string()> &solve, env_t &env, long long batch)
{
    const cudaStream_t s = env.s;
    std::string why;
    for (int w = 0; w < env.o.warmup && why.empty(); w++)
        why = solve();
    CHECK(cudaStreamSynchronize(s));
    const timing t = time_repeats(
        env.o.reps, [](int) {}, [&](int) { return solve(); }, env.flush, s);
    why = why.empty() ? t.why : why;
    if (!why.empty()) {
        r.check = "FAIL";
        r.note += (r.note.empty() ? "" : "; ") + why;
        return;
    }
    r.median_ms = t.median_ms;
    r.spread = (t.max_ms - t.min_ms) / t.median_ms;
    r.rate = double(batch) / (t.median_ms * 1e-3);
}

template <typename T> void run_config(long long batch, bool nonuniform, bool sanity, env_t &env, pde_report &rep)
{
    const options &o = env.o;
    const cudaStream_t s = env.s;
    const int m = o.m, N = o.N;
    const char *pname = prec<T>::name;
    const std::string gname = nonuniform ? "nonuniform" : "uniform";
    const std::string cfg = std::string(pname) + ", " + gname + ", batch " + std::to_string(batch);
    const long long total = (long long)m * batch;
    const double elem = double(sizeof(T));
    const double bytes_per_option = 4.0 * m * elem + sizeof(int);
    const double bound = env.bandwidth / bytes_per_option;

    auto base_row = [&](const std::string &method) {
        prow r;
        r.precision = pname;
        r.grid = gname;
        r.m = m;
        r.N = N;
        r.batch = batch;
        r.method = method;
        return r;
    };

    // Memory: a, final, obstacle, ours' u; the loop's dl, d, du, X, U.
    const double need = double(total) * elem * (4 + (o.cusparse ? 5 : 0)) + 4.0 * batch;
    if (need > memory_budget(o) || (o.cusparse && batch > 0x7fffffffLL)) {
        prow r = base_row("all");
        r.check = "SKIP";
        r.note = "needs " + fmt("%.1f", need / 1e9) + " GB, budget " + fmt("%.1f", memory_budget(o) / 1e9) + " GB";
        print_prow(r);
        rep.rows.push_back(r);
        return;
    }

    g_activity = cfg + ": generating the inputs";
    const std::vector<T> hx = grid_nodes<T>(m, nonuniform), ht = time_levels<T>(N);
    std::vector<T> hb(static_cast<size_t>(m));
    for (int i = 0; i < m; i++)
        hb[size_t(i)] = T(RATE * double(hx[size_t(i)]));
    const T hc = T(-RATE);
    dev_array<T> dx(static_cast<size_t>(m)), db(static_cast<size_t>(m)), dc(1), da(static_cast<size_t>(total)), dfin(static_cast<size_t>(total)), dobs(static_cast<size_t>(total)),
        du(static_cast<size_t>(total));
    dev_array<int> dinfo(static_cast<size_t>(batch));
    CHECK(cudaMemcpy(dx.p, hx.data(), dx.bytes(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db.p, hb.data(), db.bytes(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc.p, &hc, sizeof(T), cudaMemcpyHostToDevice));
    fill_puts<T><<<grid_for(total, 256), 256, 0, s>>>(dx.p, m, batch, da.p, dfin.p, dobs.p);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    const bsym_pde p = make_problem<T>(m, N, batch, hx.data(), ht.data(), da.p, db.p, dc.p, dobs.p);

    // The host reference on the sample (the CPU core, American).
    const host_sample<T> hs = host_inputs(hx, sample_of(batch, o.sample));
    std::vector<T> ref;
    g_activity = cfg + ": CPU reference";
    const std::string ref_why = cpu_reference(hx, ht, hb, hc, hs, true, ref);
    if (!ref_why.empty())
        std::fprintf(stderr, BENCH_NAME ": %s: %s (the CPU column stays empty)\n", cfg.c_str(), ref_why.c_str());
    auto cpu_diff = [&](const T *dev) {
        if (!ref_why.empty())
            return double(NAN);
        const std::vector<T> mine = gather_options(dev, m, hs.ks);
        return rel_diff(mine.data(), ref.data(), ref.size());
    };

    // The cuSPARSE loop: validation run first (ours is compared with it).
    cs_state<T> C;
    prow cs_row = base_row("cusparse gtsv2 loop");
    bool cs_ok = false;
    if (o.cusparse) {
        g_activity = cfg + ": cuSPARSE loop setup";
        C.m = m;
        C.batch = batch;
        C.chunk = std::max(1LL, std::min(batch, CUSPARSE_MAX_ENTRIES / m));
        C.steps = schedule(ht, THETA, RANNACHER);
        std::vector<T> w = scheme_weights(hx, C.sch.bl, C.sch.bu);
        C.w = dev_array<T>(w.size());
        CHECK(cudaMemcpy(C.w.p, w.data(), C.w.bytes(), cudaMemcpyHostToDevice));
        C.sch.m = m;
        C.sch.w = C.w.p;
        C.sch.a = coef_t<T>{da.p, 1, 0, m};
        C.sch.b = coef_t<T>{db.p, 1, 0, 0};
        C.sch.c = coef_t<T>{dc.p, 0, 0, 0};
        C.dl = dev_array<T>(size_t(total));
        C.dg = dev_array<T>(size_t(total));
        C.du = dev_array<T>(size_t(total));
        C.X = dev_array<T>(size_t(total));
        C.U = dev_array<T>(size_t(total));
        size_t bytes = 0;
        CHECK(pde_prec<T>::gtsv_buffer(env.sparse, m, C.dl.p, C.dg.p, C.du.p, C.X.p, int(C.chunk), &bytes));
        C.buffer = dev_array<unsigned char>(std::max<size_t>(bytes, 1));
        g_activity = cfg + ": cuSPARSE loop validation run";
        cusparse_loop(C, env.sparse, dfin.p, dobs.p, s);
        CHECK(cudaStreamSynchronize(s));
        cs_row.diff_cpu = cpu_diff(C.U.p);
        const unsigned long long bad = nonfinite_count(C.U.p, total, s);
        std::string why;
        if (bad != 0)
            add_why(why, std::to_string(bad) + " non-finite entries in u");
        if (!(cs_row.diff_cpu <= pde_prec<T>::agree_tol) && ref_why.empty())
            add_why(why, "max rel diff vs CPU core " + fmt("%.2e", cs_row.diff_cpu) + " > " +
                             fmt("%.0e", pde_prec<T>::agree_tol));
        cs_ok = why.empty();
        cs_row.check = cs_ok ? "ok" : "FAIL";
        cs_row.note = std::to_string(C.steps.size()) + " steps x (assembly + " +
                      std::to_string((batch + C.chunk - 1) / C.chunk) + " gtsv2StridedBatch + obstacle)";
        if (!cs_ok) {
            add_why(cs_row.note, why);
            std::fprintf(stderr, "\n*** FAIL: %s: cuSPARSE loop: %s ***\n\n", cfg.c_str(), why.c_str());
        }
    }

    // Ours, per rows variant: validation, timing, check of the last repeat.
    double rate_ours = NAN;
    std::vector<prow> ours_rows;
    for (int rows : o.ours ? o.rows : std::vector<int>{}) {
        prow r = base_row(rows == 0 ? "ours (rows=tuned)" : "ours (rows=" + std::to_string(rows) + ")");
        auto solve = [&, rows]() {
            return status_why(pde_prec<T>::ours(&p, dfin.p, du.p, dinfo.p, rows, s), "bsym_cuda_pde_launch");
        };
        auto verify = [&](const char *when) {
            std::string why = info_kinds(dinfo.p, batch);
            const unsigned long long bad = nonfinite_count(du.p, total, s);
            if (bad != 0)
                add_why(why, std::to_string(bad) + " non-finite entries in u");
            if (o.cusparse) {
                r.diff_cs = device_rel_diff(du.p, C.U.p, total, s);
                if (!(r.diff_cs <= pde_prec<T>::agree_tol) && cs_ok)
                    add_why(why, "max rel diff vs cuSPARSE loop " + fmt("%.2e", r.diff_cs) + " > " +
                                     fmt("%.0e", pde_prec<T>::agree_tol));
            }
            const double dc2 = cpu_diff(du.p);
            r.diff_cpu = std::isnan(r.diff_cpu) ? dc2 : std::max(r.diff_cpu, dc2);
            if (!(dc2 <= pde_prec<T>::agree_tol) && ref_why.empty())
                add_why(why, "max rel diff vs CPU core " + fmt("%.2e", dc2) + " > " +
                                 fmt("%.0e", pde_prec<T>::agree_tol));
            return why.empty() ? why : std::string(when) + ": " + why;
        };
        g_activity = cfg + ": " + r.method + ": validation run";
        CHECK(cudaMemsetAsync(dinfo.p, 0x7f, dinfo.bytes(), s));
        CHECK(cudaMemsetAsync(du.p, 0xff, du.bytes(), s)); // NaN: a node never written shows
        std::string why = solve();
        CHECK(cudaStreamSynchronize(s));
        if (why.empty())
            why = verify("validation");
        if (why.empty()) {
            g_activity = cfg + ": " + r.method + ": timed repeats";
            r.check = "ok";
            time_method(r, solve, env, batch);
            if (r.check == "ok") {
                g_activity = cfg + ": " + r.method + ": check of the last repeat";
                why = verify("after timing");
            } else {
                why = r.note;
            }
        }
        if (!why.empty()) {
            r.check = "FAIL";
            r.note = why;
            rep.ours_failed = true;
            std::fprintf(stderr, "\n*** FAIL: %s: %s: %s ***\n\n", cfg.c_str(), r.method.c_str(), why.c_str());
        }
        r.pct_bound = 100 * r.rate / bound;
        r.speedup = 1;
        if (rows == 0 || std::isnan(rate_ours))
            rate_ours = r.check == "ok" ? r.rate : rate_ours;
        print_prow(r);
        ours_rows.push_back(r);
    }
    rep.rows.insert(rep.rows.end(), ours_rows.begin(), ours_rows.end());

    // The sanity line (ours, European): untimed, after ours' American rows.
    if (sanity && o.ours && !ours_rows.empty()) {
        g_activity = cfg + ": European sanity run";
        sanity_row sr;
        sr.precision = pname;
        sr.grid = gname;
        sr.batch = batch;
        sr.count = int(hs.ks.size());
        sr.bs_tol = pde_prec<T>::bs_tol;
        const std::vector<T> am = gather_options(du.p, m, hs.ks);
        bsym_pde pe = p;
        pe.obstacle = nullptr;
        CHECK(cudaMemsetAsync(dinfo.p, 0x7f, dinfo.bytes(), s));
        std::string why = status_why(pde_prec<T>::ours(&pe, dfin.p, du.p, dinfo.p, o.rows[0], s),
                                     "bsym_cuda_pde_launch (European)");
        CHECK(cudaStreamSynchronize(s));
        if (why.empty())
            why = info_kinds(dinfo.p, batch);
        if (why.empty()) {
            const std::vector<T> eu = gather_options(du.p, m, hs.ks);
            sr.bs_err = bs_error(hx, hs, eu);
            sr.premium = min_premium(hx, hs, am, eu);
            if (!(sr.bs_err <= sr.bs_tol))
                add_why(why, "European price off Black-Scholes by " + fmt("%.2e", sr.bs_err));
            if (!(sr.premium >= 0))
                add_why(why, "American below European");
        }
        sr.check = why.empty() ? "ok" : "FAIL";
        sr.note = why.empty() ? "quadratic interpolation at S = K_k over the sampled options" : why;
        if (!why.empty()) {
            rep.ours_failed = true;
            std::fprintf(stderr, "\n*** FAIL: %s: European sanity: %s ***\n\n", cfg.c_str(), why.c_str());
        }
        std::printf("  sanity (%s): European at S = K vs Black-Scholes max |err| %.2e (<= %.0e), min American - "
                    "European %.4f: %s\n",
                    cfg.c_str(), sr.bs_err, sr.bs_tol, sr.premium, sr.check.c_str());
        rep.sanity.push_back(sr);
    }

    // The cuSPARSE loop's timing (after ours: its output C.U stays ours'
    // reference until here).
    if (o.cusparse) {
        if (cs_ok) {
            g_activity = cfg + ": cuSPARSE loop: timed repeats";
            time_method(cs_row, [&]() { return cusparse_loop(C, env.sparse, dfin.p, dobs.p, s); }, env, batch);
            if (cs_row.check == "ok") {
                g_activity = cfg + ": cuSPARSE loop: check of the last repeat";
                const double d2 = cpu_diff(C.U.p);
                cs_row.diff_cpu = std::max(cs_row.diff_cpu, d2);
                if (!(d2 <= pde_prec<T>::agree_tol) && ref_why.empty()) {
                    cs_row.check = "FAIL";
                    add_why(cs_row.note, "after timing: max rel diff vs CPU core " + fmt("%.2e", d2));
                }
            }
        }
        if (cs_row.check == "FAIL")
            rep.vendor_failed = true;
        cs_row.pct_bound = 100 * cs_row.rate / bound;
        cs_row.speedup = rate_ours / cs_row.rate;
        print_prow(cs_row);
        rep.rows.push_back(cs_row);
        const double sp = cs_row.speedup;
        rep.targets.push_back(cfg + ": ours / cuSPARSE loop = " + fmt("%.2f", sp) +
                              (sp >= 5 ? " (target >= 5: met)" : " (target >= 5: NOT met)"));
    }

    prow b = base_row("bound: a+final+obstacle+u");
    b.rate = bound;
    b.pct_bound = 100;
    b.speedup = rate_ours / bound;
    b.check = "-";
    b.note = "copy bandwidth / (4m*" + std::to_string(sizeof(T)) + " + 4 B) per option";
    print_prow(b);
    rep.rows.push_back(b);
    g_activity.clear();
}

// ---- main ----------------------------------------------------------------------

std::vector<std::string> describe(const options &o, const cudaDeviceProp &p, cusparseHandle_t sparse,
                                  double bandwidth, size_t bw_bytes, size_t flush_bytes)
{
    int driver = 0, runtime = 0, sp = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cusparseGetVersion(sparse, &sp));
    std::string ps, bs, rs, gs;
    for (char c : o.precisions)
        ps += (ps.empty() ? "" : ",") + std::string(1, c);
    for (long long b : o.batches)
        bs += (bs.empty() ? "" : ",") + std::to_string(b);
    for (int r : o.rows)
        rs += (rs.empty() ? "" : ",") + (r == 0 ? std::string("tuned") : std::to_string(r));
    for (bool nu : o.nonuniform)
        gs += (gs.empty() ? "" : ",") + std::string(nu ? "nonuniform" : "uniform");
    return {
        "date: " + utc_now(),
        "host: " + host_name(),
        "GPU: " + gpu_description(p),
        "CUDA driver " + version_string(driver) + ", runtime " + version_string(runtime) + ", cuSPARSE " +
            std::to_string(sp),
        "command: `" + o.command + "`",
        "m = " + std::to_string(o.m) + " nodes, N = " + std::to_string(o.N) + " levels; batches " + bs +
            "; precisions " + ps + "; grids " + gs + "; ours' rows " + rs,
        "problem: American puts under Black-Scholes in S: a = 0.5 sigma_k^2 S^2 (m x 1 x batch), b = r S (m), c = "
        "-r, r = 0.03, T = 1; final = obstacle = max(K_k - S, 0); theta = 0.5, rannacher = 2, \"linear\" "
        "boundaries; S in [0, 480] (uniform, or sinh-packed around 100); K_k in [80, 120], sigma_k in [0.15, "
        "0.45]",
        "timing: median of " + std::to_string(o.reps) + " repeats (CUDA events around the solve calls only), after "
            "1 validation run and " + std::to_string(o.warmup) + " warm-up run(s); L2 flushed by reading " +
            fmt("%.0f", flush_bytes / 1e6) + " MB before each repeat, outside the timed region; ours' call "
            "includes its host-side weights and their copy",
        "cuSPARSE loop: per (half) step our assembly kernel (rows and right-hand side of the scheme of "
        "src/core/pde_impl.h), cusparse{S,D}gtsv2StridedBatch in place, an obstacle kernel; N - 1 + rannacher "
        "steps; its buffer allocated once, untimed",
        "bandwidth: " + fmt("%.1f", bandwidth / 1e9) + " GB/s, device-to-device cudaMemcpy of " +
            fmt("%.0f", bw_bytes / 1e6) + " MB counted as bytes read + bytes written (median of 10)",
        "bound = bandwidth / bytes per option: a, final, obstacle read once and u written once (4m entries) + "
        "info (4 B); the shared b and c not counted; ours / this on the bound row = ours' fraction of it",
        "validation: ours' info all 0 and u finite; max |ours - cuSPARSE loop| / max |cuSPARSE loop| over the "
        "batch and both against the CPU core (bsym_{s,d}pde_solve) on " + std::to_string(o.sample) +
            " sampled options + the last, relative to max |CPU|, <= 1e-10 (double) / 1e-3 (single); checked on "
            "the validation run and the last timed repeat",
        "spread = (max - min) / median over the repeats",
    };
}

} // namespace

int main(int argc, char **argv)
{
    const options o = parse_options(argc, argv);
    if (o.self_test)
        return self_test(o);

    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaSetDevice(0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s)); // blocking: plain cudaMemcpy calls order after it
    cusparseHandle_t sparse = nullptr;
    CHECK(cusparseCreate(&sparse));
    CHECK(cusparseSetStream(sparse, s));

    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t bw_bytes = std::min<size_t>(size_t(2) << 30, free_b / 4);
    const double bandwidth = measure_bandwidth(bw_bytes, s);

    pde_report rep;
    {
        l2_flusher flush(size_t(prop.l2CacheSize), prop.multiProcessorCount);
        rep.header = describe(o, prop, sparse, bandwidth, bw_bytes, flush.buf.bytes());
        std::printf("bench_pde\n");
        for (const std::string &line : rep.header)
            std::printf("  %s\n", line.c_str());
        env_t env{o, sparse, flush, s, bandwidth};
        for (char p : o.precisions)
            for (bool nu : o.nonuniform) {
                print_prow_columns();
                for (size_t bi = 0; bi < o.batches.size(); bi++) {
                    if (p == 's')
                        run_config<float>(o.batches[bi], nu, bi == 0, env, rep);
                    else
                        run_config<double>(o.batches[bi], nu, bi == 0, env, rep);
                    write_outputs(rep, o);
                }
            }
        write_outputs(rep, o);
    }

    CHECK(cusparseDestroy(sparse));
    CHECK(cudaStreamDestroy(s));
    return bench_end(15, rep.targets, o.out, rep.ours_failed, "ours", rep.vendor_failed, "the cuSPARSE loop");
}
