// test_ql.cpp -- the GPU eigensolver's QL iteration (src/cuda/ql_iterate.h),
// compiled for the host: CI has no GPU, so this runs on the CPU the very
// iteration the GPU's ql_kernel runs, and replays its recorded rotations as
// the GPU's qlv_kernel does, and as its qls_kernel does (2, 3 and 4 sweeps a
// pass, ql_wave_pass: the same bits). Each case: A = H3 H2 H1 diag(lambda) H1 H2 H3
// (random Householder reflections), reduced to tridiagonal form in double,
// scaled by a power of two to max|T| in [1/2, 1) and rounded to the working
// precision (as te_scale_ does); then QL must converge, the replayed vectors
// Z must be orthonormal and T Z = Z diag(d), both within 10 n eps, and the
// record must stay within the GPU's capacity (1.5 n^2 + 16 rotations) on
// random spectra. A tiny capacity must report QL_OVERFLOW.
//   test_ql [--counts FILE]   (FILE gets "passed failed")
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using std::copysign;
using std::fabs;
using std::fmax;
using std::max;
using std::min;
using std::sqrt;
#include "../../src/cuda/ql_iterate.h"

static int passed = 0, failed = 0;
static void check(bool ok, const char *what)
{
    ok ? passed++ : failed++;
    if (!ok)
        std::printf("FAIL %s\n", what);
}

static double rnd() { return std::rand() / (double)RAND_MAX * 2 - 1; }

// a := H a H, H = I - 2 v v^T / v^T v (a n x n, row major; v^T v > 0).
static void reflect(int n, std::vector<double> &a, const std::vector<double> &v)
{
    std::vector<double> p(n);
    double vv = 0, K = 0;
    for (int i = 0; i < n; i++)
        vv += v[i] * v[i];
    for (int i = 0; i < n; i++) {
        p[i] = 0;
        for (int j = 0; j < n; j++)
            p[i] += a[size_t(i) * n + j] * v[j];
        p[i] *= 2 / vv;
    }
    for (int i = 0; i < n; i++)
        K += v[i] * p[i];
    K /= vv;
    for (int i = 0; i < n; i++)
        p[i] -= K * v[i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[size_t(i) * n + j] -= v[i] * p[j] + p[i] * v[j];
}

// a (n x n, row major) = Q diag(lam) Q^T with Q three random reflections.
static void make(int n, const std::vector<double> &lam, std::vector<double> &a)
{
    a.assign(size_t(n) * n, 0);
    for (int i = 0; i < n; i++)
        a[size_t(i) * n + i] = lam[i];
    for (int r = 0; r < 3; r++) {
        std::vector<double> v(n);
        for (int i = 0; i < n; i++)
            v[i] = rnd();
        reflect(n, a, v);
    }
}

// Householder reduction of a to tridiagonal d, e (e[n-1] = 0), in double.
static void tridiag(int n, std::vector<double> a, std::vector<double> &d, std::vector<double> &e)
{
    for (int k = 0; k < n - 2; k++) {
        double alpha = 0, vn = 0;
        for (int i = k + 1; i < n; i++)
            alpha += a[size_t(i) * n + k] * a[size_t(i) * n + k];
        alpha = a[size_t(k + 1) * n + k] > 0 ? -sqrt(alpha) : sqrt(alpha);
        std::vector<double> v(n, 0);
        for (int i = k + 1; i < n; i++)
            v[i] = a[size_t(i) * n + k];
        v[k + 1] -= alpha;
        for (int i = k + 1; i < n; i++)
            vn += v[i] * v[i];
        if (vn != 0)
            reflect(n, a, v);
    }
    d.assign(n, 0);
    e.assign(n, 0);
    for (int i = 0; i < n; i++) {
        d[i] = a[size_t(i) * n + i];
        if (i + 1 < n)
            e[i] = a[size_t(i + 1) * n + i];
    }
}

struct outcome {
    int status, rotations;
    double resid, orth; // in units of n eps (resid relative to max row sum of |T|)
    bool same;          // the rotations applied as made (the fallback above n = 64) = the replay, bitwise
    bool wave;          // the replay K sweeps a pass (the GPU's qls_kernel, K = 2, 3, 4) = the replay, bitwise
};

// The record's sweeps replayed on the rows of I K at a time, as the GPU's
// qls_kernel does (ql_iterate.h's ql_wave_headers, ql_wave_from,
// ql_wave_index, ql_wave_pass):
// rows Z[r n + c].
template <typename T, int K>
static std::vector<T> wave_replay(int n, const std::vector<int> &swp, int nsw, const std::vector<ql_rot<T>> &rot)
{
    std::vector<T> Z(size_t(n) * n, T(0));
    for (int i = 0; i < n; i++)
        Z[size_t(i) * n + i] = 1;
    for (int w = 0, j = 0; w < nsw; w += K) {
        int h[K];
        ql_wave_headers<K>(swp.data(), nsw, w, h);
        const ql_wave<K> g = ql_wave_from<K>(h, j);
        std::vector<ql_rot<T>> tab(size_t(g.steps) * K);
        for (int t = 0; t < g.steps; t++)
            for (int q = 0; q < K; q++) {
                const int i = ql_wave_index<K>(g, t, q);
                tab[size_t(t) * K + q] = i >= 0 ? rot[i] : ql_identity<T>();
            }
        for (int r = 0; r < n; r++)
            ql_wave_pass<T, K>(g, tab.data(), &Z[size_t(r) * n], 1);
    }
    return Z;
}

// Rows Z[r n + c] updated by each rotation as QL makes it (eigen_ql.cuh's
// qlr_apply, on the host).
template <typename T> struct apply_rows {
    T *Z;
    int n;
    void operator()(int i, T c, T s) const
    {
        for (int r = 0; r < n; r++) {
            T *z = Z + size_t(r) * n;
            const T f = z[i + 1];
            z[i + 1] = s * z[i] + c * f;
            z[i] = c * z[i] - s * f;
        }
    }
};

// QL (recording) on dd, ed in precision T, then the replay on I.
template <typename T>
static outcome run(int n, const std::vector<double> &dd, const std::vector<double> &ed, int cap, bool perfect)
{
    outcome o{0, 0, 0, 0, true, true};
    double amax = 0;
    for (int i = 0; i < n; i++)
        amax = max(amax, max(fabs(dd[i]), fabs(ed[i])));
    int ex = 0;
    if (amax > 0)
        std::frexp(amax, &ex);
    const T flush = sqrt(T(sizeof(T) == 4 ? FLT_MIN : DBL_MIN));
    std::vector<T> d(n), e(n);
    for (int i = 0; i < n; i++) {
        const T x = T(std::ldexp(dd[i], -ex)), y = T(std::ldexp(ed[i], -ex));
        d[i] = fabs(x) < flush ? T(0) : x;
        e[i] = fabs(y) < flush ? T(0) : y;
    }
    e[n - 1] = 0;
    const std::vector<T> d0 = d, e0 = e;
    const int swp_cap = 3 * n + 8;
    std::vector<ql_rot<T>> rot(size_t(cap) + 1);
    std::vector<int> swp(swp_cap);
    int nsw = 0;
    // perfect shifts: the values of a values-only pass first, as ql_kernel
    std::vector<T> lam = d, e2 = e;
    const bool have = perfect && ql_iterate<T, false>(lam.data(), e2.data(), n, nullptr, nullptr, 0, 0, &nsw) == 0;
    o.status = ql_iterate<T, true>(d.data(), e.data(), n, rot.data(), swp.data(), cap, swp_cap, &nsw,
                                   have ? lam.data() : nullptr);
    if (o.status != 0)
        return o;
    std::vector<T> Z(size_t(n) * n, T(0)); // Z[r n + c], rows as the GPU's threads hold them
    for (int i = 0; i < n; i++)
        Z[size_t(i) * n + i] = 1;
    int t = 0;
    for (int w = 0; w < nsw; w++) {
        const int h = swp[w], hi = h & 0xffff, lo = hi - (h >> 16) + 1;
        for (int i = hi; i >= lo; i--, t++)
            for (int r = 0; r < n; r++) {
                T *z = &Z[size_t(r) * n];
                const T f = z[i + 1];
                z[i + 1] = rot[t].s * z[i] + rot[t].c * f;
                z[i] = rot[t].c * z[i] - rot[t].s * f;
            }
    }
    o.rotations = t;
    o.wave = wave_replay<T, 2>(n, swp, nsw, rot) == Z && wave_replay<T, 3>(n, swp, nsw, rot) == Z &&
             wave_replay<T, 4>(n, swp, nsw, rot) == Z;
    if (!perfect) {
        std::vector<T> Z2(size_t(n) * n, T(0)), d2 = d0, e2b = e0;
        for (int i = 0; i < n; i++)
            Z2[size_t(i) * n + i] = 1;
        int nsw2 = 0;
        const int st = ql_iterate<T, false>(d2.data(), e2b.data(), n, nullptr, nullptr, 0, 0, &nsw2, nullptr,
                                            apply_rows<T>{Z2.data(), n});
        o.same = st == 0 && Z2 == Z && d2 == d;
    }
    double tn = 0, res = 0, orth = 0;
    for (int i = 0; i < n; i++)
        tn = max(tn, double(fabs(d0[i])) + fabs(e0[i]) + (i ? fabs(e0[i - 1]) : 0));
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double s = 0;
            for (int r = 0; r < n; r++)
                s += double(Z[size_t(r) * n + a]) * Z[size_t(r) * n + b];
            orth = max(orth, fabs(s - (a == b)));
        }
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) {
            double tz = double(d0[r]) * Z[size_t(r) * n + c];
            if (r > 0)
                tz += double(e0[r - 1]) * Z[size_t(r - 1) * n + c];
            if (r + 1 < n)
                tz += double(e0[r]) * Z[size_t(r + 1) * n + c];
            res = max(res, fabs(tz - double(Z[size_t(r) * n + c]) * d[c]) / (tn > 0 ? tn : 1));
        }
    const double eps = sizeof(T) == 4 ? FLT_EPSILON : DBL_EPSILON;
    o.resid = res / (n * eps);
    o.orth = orth / (n * eps);
    return o;
}

int main(int argc, char **argv)
{
    const char *counts = argc > 2 && std::strcmp(argv[1], "--counts") == 0 ? argv[2] : nullptr;
    std::srand(16);
    const char *names[] = {"random", "ill-conditioned 1e12", "singular (half zeros)", "rank one",
                           "graded 2^-i", "zeros, 1e-9 and one 5"};
    for (int n : {1, 2, 3, 8, 16, 21, 32, 33, 64, 65, 100, 128, 256}) {
        const int trials = n > 64 ? 2 : 20;
        for (int kind = 0; kind < 6; kind++) {
            for (int single = 0; single < 2; single++)
              for (int perfect = 0; perfect < 2; perfect++) {
                int worst_rot = 0, bad = 0;
                double resid = 0, orth = 0;
                static long wilkinson_total; // the same matrices' rotations without perfect shifts
                long total = 0;
                std::srand(unsigned(1000 * n + 10 * kind + single)); // both passes: the same matrices
                bool same = true, wave = true;
                for (int trial = 0; trial < trials; trial++) {
                    std::vector<double> lam(n), a, d, e;
                    for (int i = 0; i < n; i++) {
                        const double x = n > 1 ? double(i) / (n - 1) : 0;
                        lam[i] = kind == 0   ? rnd()
                                 : kind == 1 ? std::pow(10.0, -12 * x) * (i % 2 ? 1 : -1)
                                 : kind == 2 ? (i < n / 2 ? 0 : rnd())
                                 : kind == 3 ? (i == 0 ? 1 : 0)
                                 : kind == 4 ? std::ldexp(1.0, -i)
                                             : (i == n - 1 ? 5 : i % 3 ? 0 : 1e-9);
                    }
                    make(n, lam, a);
                    tridiag(n, a, d, e);
                    const int cap = 3 * n * n / 2 + 16;
                    const outcome o = single ? run<float>(n, d, e, cap, perfect) : run<double>(n, d, e, cap, perfect);
                    bad += o.status != 0;
                    same = same && o.same;
                    wave = wave && (o.status != 0 || o.wave);
                    resid = max(resid, o.resid);
                    orth = max(orth, o.orth);
                    worst_rot = max(worst_rot, o.rotations);
                    total += o.rotations;
                }
                if (!perfect)
                    wilkinson_total = total;
                else if (kind == 0 && n >= 16 && n <= 64) { // random spectra: measured 13-43 % fewer
                    // (above 64 less: 9 % at n = 256 in float, where the GPU does not use them)
                    char fewer[160];
                    std::snprintf(fewer, sizeof fewer, "QL perfect shifts random n = %d %s: %ld rotations <= 0.9 x %ld",
                                  n, single ? "float" : "double", total, wilkinson_total);
                    check(total <= 0.9 * wilkinson_total, fewer);
                }
                char what[200];
                std::snprintf(what, sizeof what, "QL%s %s n = %d %s: converged (%d of %d did not)", perfect ? " (perfect shifts)" : "",
                              names[kind], n, single ? "float" : "double", bad, trials);
                check(bad == 0, what);
                std::snprintf(what, sizeof what, "QL%s %s n = %d %s: residual %.2f n eps, orthogonality %.2f n eps <= 10",
                              perfect ? " (perfect shifts)" : "", names[kind], n, single ? "float" : "double", resid, orth);
                check(resid <= 10 && orth <= 10, what);
                std::snprintf(what, sizeof what, "QL%s %s n = %d %s: at most %d rotations <= the record's %d",
                              perfect ? " (perfect shifts)" : "", names[kind], n, single ? "float" : "double", worst_rot, 3 * n * n / 2 + 16);
                check(worst_rot <= 3 * n * n / 2 + 16, what);
                std::snprintf(what, sizeof what, "QL%s %s n = %d %s: the replay 2, 3 and 4 sweeps a pass = a sweep a pass, bitwise",
                              perfect ? " (perfect shifts)" : "", names[kind], n, single ? "float" : "double");
                check(wave, what);
                if (!perfect) {
                    std::snprintf(what, sizeof what, "QL %s n = %d %s: rotations applied as made = the replay, bitwise",
                                  names[kind], n, single ? "float" : "double");
                    check(same, what);
                }
            }
        }
    }
    // a record too small for the rotations reports the overflow
    {
        std::vector<double> lam(32), a, d, e;
        for (double &x : lam)
            x = rnd();
        make(32, lam, a);
        tridiag(32, a, d, e);
        check(run<float>(32, d, e, 40, false).status == QL_OVERFLOW, "QL: a 40-rotation record overflows at n = 32");
    }
    std::printf("QL host tests (the GPU's iteration): %d passed, %d failed\n", passed, failed);
    if (counts != nullptr) {
        if (FILE *f = std::fopen(counts, "w")) {
            std::fprintf(f, "%d %d\n", passed, failed);
            std::fclose(f);
        }
    }
    return failed != 0;
}
