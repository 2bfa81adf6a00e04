// ql_iterate.h -- the implicit QL iteration of one scaled symmetric
// tridiagonal matrix (textbook tql2/tqli, Wilkinson shifts): the serial part
// of the GPU eigensolver (eigen_ql.cuh runs it one thread a system); and
// the replay of its recorded rotations several sweeps a pass (ql_wave_*,
// eigen_ql.cuh's qls_kernel). It is written for the device and the host
// alike, so that tests/c/test_ql.cpp runs on the CPU the very iteration and
// replay the GPU runs (CI has no GPU). The
// includer brings <cmath> and <cfloat> (and, on the host, fabs, sqrt, fmax,
// copysign, min and max for float and double into scope); nothing here
// includes a header, so that eigen.cu may include it inside its namespace.
#ifndef BSYM_QL_ITERATE_H
#define BSYM_QL_ITERATE_H
#ifdef __CUDACC__
#define QL_HD __host__ __device__
#define QL_UNROLL _Pragma("unroll")
#else
#define QL_HD
#define QL_UNROLL
#endif

// A rotation as the record stores it.
template <typename T> struct alignas(2 * sizeof(T)) ql_rot {
    T c, s;
};

constexpr int QL_MAXIT = 30;      // QL iterations an eigenvalue, as tqli
constexpr int QL_OVERFLOW = -2;   // ql_iterate: the record is full

// a / b: times the correctly rounded reciprocal on the GPU (cheaper than a
// division; eigen.cu's TE_DIV too), a / b on the host.
template <typename T> QL_HD inline T ql_div(T a, T b)
{
#ifdef __CUDA_ARCH__
    if constexpr (sizeof(T) == 4)
        return a * __frcp_rn(b);
    else
        return a * __drcp_rn(b);
#else
    return a / b;
#endif
}

// The rotation's r = hypot(f, g) and 1 / r from x = f^2 + g^2 > 0 (f, g
// scaled). In double on the GPU one reciprocal square root, at most 1 ulp
// off, gives both (r = x / sqrt(x)): one operation on the rotation's chain of
// dependent latencies where the IEEE square root and the reciprocal of its
// result were two. Measured on the H200 (RESULTS.md, session 33, batch 1e5):
// double with vectors n = 32 1.156e7 -> 1.218e7 matrices/s, values only
// +4 to +7 % at n = 8..64, eigenvalue, residual and orthogonality errors
// the same or smaller. Float keeps sqrt and the correctly rounded
// reciprocal: its reciprocal square root (2 ulp) made the orthogonality
// error 1.3x to 1.75x larger (n = 32, 64) for 2.5 % with vectors at n = 32;
// with one Newton step on it for 1 / r (and sqrtf for r, which is off the
// chain) 2x to 3.4x larger, the eigenvalue error 2x (a biased rounding
// compounds over a system's thousand rotations), for 2 % in values only.
// The host (tests/c/test_ql.cpp) takes sqrt and 1 / r.
template <typename T> QL_HD inline void ql_hypot_rcp(T x, T &r, T &ir)
{
#ifdef __CUDA_ARCH__
    if constexpr (sizeof(T) == 8) {
        ir = rsqrt(x);
        r = x * ir;
        return;
    }
#endif
    r = sqrt(x);
    ir = ql_div(T(1), r);
}

// The precision's machine epsilon.
template <typename T> QL_HD inline T ql_eps() { return sizeof(T) == 4 ? T(FLT_EPSILON) : T(DBL_EPSILON); }

// Below ql_small, a rotation's f and g are scaled by ql_big (exact powers of
// two) before their squares are taken.
template <typename T> QL_HD inline T ql_small() { return sizeof(T) == 4 ? T(0x1p-40) : T(0x1p-400); }
template <typename T> QL_HD inline T ql_big() { return sizeof(T) == 4 ? T(0x1p50) : T(0x1p500); }

// sqrt(1 + g^2) without overflow for the |g| of the first shift (up to
// 1/sqrt(TMIN) when e[l] is tiny).
template <typename T> QL_HD inline T ql_hypot1(T g)
{
    const T ag = fabs(g);
    return ag > T(1) / sqrt(ql_eps<T>()) ? ag : sqrt(T(1) + g * g);
}

// e is negligible beside its neighbours d0, d1 (tqli's relative test) or
// beside ||T|| (tiny = eps max_i |d_i| + |e_i|, EISPACK tql2's test: without
// it, e between two eigenvalues near 0 of a singular or ill-conditioned T
// need not reach eps of them in rounding, and the iteration stalls).
template <typename T> QL_HD inline bool ql_negligible(T e, T d0, T d1, T tiny)
{
    return fabs(e) <= ql_eps<T>() * (fabs(d0) + fabs(d1)) || fabs(e) <= tiny;
}
// The first index i >= l where T splits, or n - 1.
template <typename T> QL_HD int ql_split(const T *d, const T *e, int n, int l, T tiny)
{
    int m = l;
    while (m < n - 1 && !ql_negligible(e[m], d[m], d[m + 1], tiny))
        m++;
    return m;
}

// The implicit QL iteration on the scaled d[0..n), e[0..n-1) (e[n-1] = 0) of
// one system: d gets the eigenvalues (unsorted). Returns 0, l + 1 when
// eigenvalue l did not converge in QL_MAXIT iterations, or QL_OVERFLOW when
// RECORD and the record (rot, swp of capacity rot_cap, swp_cap) is full.
// *nswp: the sweeps recorded.
//
// Invariant of the loop on l: m is the first split index >= l. A sweep over
// [l, m] tests every index it changes as it goes (the lowest split it finds
// in (l, m), else m, is the next m), so T is scanned only where nothing is
// known: at the start, after a deflation without a sweep, after a sweep cut
// short by r = 0.
//
// lam (nullptr: none) holds the eigenvalues of this T, known beforehand (a
// values-only pass): then the first iteration of each l is shifted by the
// one not yet taken that is nearest Wilkinson's shift, a "perfect" shift
// that deflates at once in exact arithmetic (and, in rounding, mostly: the
// later iterations keep Wilkinson's), for fewer rotations to record and
// replay. Taken ones become NaN in lam.
template <typename T> QL_HD inline T ql_take_nearest(T *lam, int n, T shift)
{
    int best = -1;
    for (int j = 0; j < n; j++)
        if (lam[j] == lam[j] && (best < 0 || fabs(lam[j] - shift) < fabs(lam[best] - shift)))
            best = j;
    if (best < 0)
        return shift;
    const T x = lam[best];
    lam[best] = T(NAN);
    return x;
}

// The record's rotations written four at a time in float up to n =
// QL_REC4_MAX_N: rotations 4q .. 4q + 3 of a system together, a whole
// 32-byte sector, where one at a time the 32 lanes of a warp each wrote a
// quarter sector of their own (Nsight Compute, float n = 32, ql_kernel: 62 %
// of the L2's throughput). The last four wait in registers (b3 the newest);
// rot must be aligned to four rotations (eigen.cu's ql_slot). Double writes
// each rotation at once (16 bytes, the widest store: buffered, n = 96 and
// 128 lost 3 % on the H200), and so does float above QL_REC4_MAX_N. H200,
// session 35, float with vectors, batch 1e5, two rounds each, matrices/s
// buffered -> not: n = 65 2.554e6 -> 2.51e6, 72 1.884e6 -> 1.868e6, 80
// 1.503e6 -> 1.485e6, 88 1.222e6 -> 1.233e6, 96 1.057e6 -> 1.068e6, 128
// 4.63e5 -> 4.71e5; at batch 32768 n = 128 4.49e5 -> 4.66e5 (4.75e5 and
// 4.57e5).
#ifndef BSYM_QL_REC4_MAX_N
#define BSYM_QL_REC4_MAX_N 80
#endif
constexpr int QL_REC4_MAX_N = BSYM_QL_REC4_MAX_N;
template <typename T> struct ql_rec4 {
    ql_rot<T> b0, b1, b2, b3;
    bool four; // float and n <= QL_REC4_MAX_N
    QL_HD explicit ql_rec4(int n) : four(sizeof(T) == 4 && n <= QL_REC4_MAX_N) {}
    // rotation k (k = 0, 1, ... in turn), and the four up to it when k % 4 = 3
    QL_HD void push(ql_rot<T> *rot, int k, ql_rot<T> r)
    {
        if (!four) {
            rot[k] = r;
        } else if constexpr (sizeof(T) == 4) {
            b0 = b1;
            b1 = b2;
            b2 = b3;
            b3 = r;
            if ((k & 3) == 3) {
#ifdef __CUDA_ARCH__
                float4 *p = reinterpret_cast<float4 *>(rot + (k - 3));
                p[0] = make_float4(b0.c, b0.s, b1.c, b1.s);
                p[1] = make_float4(b2.c, b2.s, b3.c, b3.s);
#else
                rot[k - 3] = b0;
                rot[k - 2] = b1;
                rot[k - 1] = b2;
                rot[k] = b3;
#endif
            }
        }
    }
    // the last nrot % 4 of nrot rotations, still in registers
    QL_HD void flush(ql_rot<T> *rot, int nrot) const
    {
        if (four) {
            const int r = nrot & 3;
            if (r >= 3)
                rot[nrot - 3] = b1;
            if (r >= 2)
                rot[nrot - 2] = b2;
            if (r >= 1)
                rot[nrot - 1] = b3;
        }
    }
};

// No rotation applied as it is made (ql_iterate's default Apply).
struct ql_no_apply {
    template <typename T> QL_HD void operator()(int, T, T) const {}
};

// apply(i, c, s) is called with each rotation as it is made, of columns i
// and i + 1 (in the record's order: eigen_ql.cuh's replay convention), for a
// caller that updates its vectors at once instead of recording.
template <typename T, bool RECORD, class Apply = ql_no_apply>
QL_HD int ql_iterate(T *d, T *e, int n, ql_rot<T> *rot, int *swp, int rot_cap, int swp_cap, int *nswp,
                     T *lam = nullptr, Apply apply = Apply())
{
    int nrot = 0, nsw = 0;
    ql_rec4<T> rec(n); // RECORD: the rotations on their way to rot
    T tnorm = 0;
    for (int i = 0; i < n; i++)
        tnorm = fmax(tnorm, fabs(d[i]) + fabs(e[i]));
    const T tiny = ql_eps<T>() * tnorm;
    int m = ql_split(d, e, n, 0, tiny);
    for (int l = 0; l < n; l++) {
        int below = -1; // the first split index > l, when the last sweep found it
        for (int iter = 0; m != l; iter++) {
            if (iter == QL_MAXIT)
                return l + 1;
            if (RECORD && (nsw == swp_cap || nrot + (m - l) > rot_cap))
                return QL_OVERFLOW;
            // Wilkinson's shift from the leading 2 x 2 of the block [l, m]
            const T dl = d[l], el = e[l];
            T g = (d[l + 1] - dl) / (T(2) * el);
            T r = ql_hypot1(g);
            if (lam != nullptr && iter == 0)
                g = d[m] - ql_take_nearest(lam, n, dl - el / (g + copysign(r, g)));
            else
                g = d[m] - dl + el / (g + copysign(r, g));
            T s = 1, c = 1, p = 0;
            T dip1 = d[m], dnew = 0; // d[i + 1] as it stands; the new d[i + 2]
            T ei = e[m - 1], di = d[m - 1];
            below = m;
            int i = m - 1;
            for (; i >= l; i--) {
                const int ip = i > 0 ? i - 1 : 0; // the next iteration's loads, early
                const T en = e[ip], dn = d[ip];
                const T f = s * ei, b = c * ei;
                // r = hypot(f, g), c = g / r, s = f / r (ql_hypot_rcp); f,
                // g below ql_small<T> are scaled first (their squares would
                // lose digits to underflow, and c, s their orthogonality)
                T fs = f, gs = g, back = 1;
                if (fmax(fabs(f), fabs(g)) < ql_small<T>()) {
                    fs *= ql_big<T>();
                    gs *= ql_big<T>();
                    back = T(1) / ql_big<T>();
                }
                const T x = fs * fs + gs * gs;
                if (x == T(0)) { // f = g = 0: T splits at i + 1
                    e[i + 1] = r = T(0);
                    d[i + 1] = dip1 - p;
                    e[m] = 0;
                    break;
                }
                T rs, ir;
                ql_hypot_rcp(x, rs, ir);
                const T ej = rs * back; // e[i + 1], final
                e[i + 1] = r = ej;
                s = fs * ir;
                c = gs * ir;
                g = dip1 - p;
                r = (di - g) * s + T(2) * c * b;
                p = s * r;
                const T d1 = g + p;
                d[i + 1] = d1;
                g = c * r - b;
                if (i + 1 < m && ql_negligible(ej, d1, dnew, tiny))
                    below = i + 1; // index i + 1 is final now
                dnew = d1;
                dip1 = di;
                ei = en;
                di = dn;
                if (RECORD)
                    rec.push(rot, nrot++, ql_rot<T>{c, s});
                apply(i, c, s);
            }
            if (RECORD && i < m - 1)
                swp[nsw++] = (m - 1) | ((m - 1 - i) << 16);
            if (r == T(0) && i >= l) { // cut short: start over from a scan
                m = ql_split(d, e, n, l, tiny);
                below = -1;
                continue;
            }
            const T dl1 = dip1 - p;
            d[l] = dl1;
            e[l] = g;
            e[m] = 0;
            m = ql_negligible(g, dl1, dnew, tiny) ? l : below;
        }
        if (l + 1 < n)
            m = below > l ? below : ql_split(d, e, n, l + 1, tiny);
    }
    if (RECORD)
        rec.flush(rot, nrot);
    *nswp = nsw;
    return 0;
}

// ---- the replay, several sweeps a pass (eigen_ql.cuh's qls_kernel) ---------
// The record's sweeps are replayed on a row of Q K at a time, in one pass
// over the columns (a wavefront): sweep q of a group runs one column behind
// sweep q - 1, so the new column i + 1 that sweep q - 1's rotation of
// columns i, i + 1 hands down is final for it and is at once sweep q's
// input. At step t of a group (span [bottom, top] of its sweeps' rotations)
// sweep q rotates at column top - t + q, by its rotation there or by the
// identity (outside its own span), so every step is the same code:
//   x = z[top - t] (t < top - bottom + 1, else 0: the flush)
//   for q: (x, f_q) = (s_q x + c_q f_q, c_q x - s_q f_q)
//   z[top + K - t] = x (t >= K - 1: the columns the group changes),
// f_0 starting as z[top + 1]; after the last step z[bottom] = f_{K-1}. Each
// rotation is the sequential replay's, operation for operation (an identity
// step passes its values through exactly), so the result is the same bits.

// A group of K consecutive sweeps: each one's highest column, rotations and
// first rotation in the record; their span and steps.
template <int K> struct ql_wave {
    int hi[K], cnt[K], at[K], top, bottom, span, steps;
};

// The group of the sweeps whose headers are h (hi | count << 16, as the
// record's; 0 for none, past the last sweep), the first of them starting at
// rotation j of the record; j is advanced past them.
template <int K> QL_HD inline ql_wave<K> ql_wave_from(const int (&h)[K], int &j)
{
    ql_wave<K> g;
    g.top = 0;
    g.bottom = 1 << 16;
    QL_UNROLL
    for (int q = 0; q < K; q++) {
        g.hi[q] = h[q] & 0xffff;
        g.cnt[q] = h[q] >> 16;
        g.at[q] = j;
        j += g.cnt[q];
        if (g.cnt[q] > 0) {
            g.top = max(g.top, g.hi[q]);
            g.bottom = min(g.bottom, g.hi[q] - g.cnt[q] + 1);
        }
    }
    g.span = g.top - g.bottom + 1;
    g.steps = g.span + K - 1;
    return g;
}

// The headers of sweeps w .. w + K - 1 of swp (nsw in all; 0 past the last).
template <int K> QL_HD inline void ql_wave_headers(const int *swp, int nsw, int w, int (&h)[K])
{
    QL_UNROLL
    for (int q = 0; q < K; q++)
        h[q] = w + q < nsw ? swp[w + q] : 0;
}

// Entry t K + q of the group's table: sweep q's rotation at step t (of
// columns top - t + q and the next), rot[ql_wave_index], or ql_identity
// where the index is -1 (the sweep does not rotate there).
template <int K> QL_HD inline int ql_wave_index(const ql_wave<K> &g, int t, int q)
{
    const int i = g.hi[q] - (g.top - t + q); // its index in sweep q
    return i >= 0 && i < g.cnt[q] ? g.at[q] + i : -1;
}
template <typename T> QL_HD inline ql_rot<T> ql_identity() { return ql_rot<T>{T(1), T(0)}; }

// The K rotations of step t from the table (on the GPU in 16-byte loads).
template <typename T, int K> QL_HD inline void ql_wave_load(const ql_rot<T> *tab, int t, ql_rot<T> (&cs)[K])
{
#ifdef __CUDA_ARCH__
    constexpr int PER = 16 / int(sizeof(ql_rot<T>)); // rotations a 16-byte word: 2 (float) or 1
    static_assert(K % PER == 0, "a step's rotations are whole 16-byte words");
    const float4 *src = reinterpret_cast<const float4 *>(tab + t * K);
    QL_UNROLL
    for (int v = 0; v < K / PER; v++) {
        const float4 w = src[v];
        const ql_rot<T> *p = reinterpret_cast<const ql_rot<T> *>(&w);
        QL_UNROLL
        for (int u = 0; u < PER; u++)
            cs[v * PER + u] = p[u];
    }
#else
    QL_UNROLL
    for (int q = 0; q < K; q++)
        cs[q] = tab[t * K + q];
#endif
}

// The group's pass over one row, its column c at z[c stride], from the
// group's table (ql_wave_index's entries). Steps go in blocks of four, their
// loads first: a load of a later step never reads a column an earlier step
// stores (step t stores column top + K - t, above every column loaded from
// step t on).
template <typename T, int K> QL_HD inline void ql_wave_pass(const ql_wave<K> &g, const ql_rot<T> *tab, T *z, int stride)
{
    T f[K];
    QL_UNROLL
    for (int q = 0; q < K; q++)
        f[q] = T(0); // (sweep q's first steps are identities: they take the input as it comes)
    f[0] = z[(g.top + 1) * stride];
    auto step = [&](int t, const ql_rot<T>(&cs)[K], T x) {
        QL_UNROLL
        for (int q = 0; q < K; q++) {
            const T out = cs[q].s * x + cs[q].c * f[q];
            f[q] = cs[q].c * x - cs[q].s * f[q];
            x = out;
        }
        if (t >= K - 1)
            z[(g.top + K - t) * stride] = x;
    };
    constexpr int U = 4;
    int t = 0;
    for (; t + U <= g.steps; t += U) {
        ql_rot<T> cs[U][K];
        T x[U];
        QL_UNROLL
        for (int u = 0; u < U; u++) {
            ql_wave_load<T, K>(tab, t + u, cs[u]);
            x[u] = t + u < g.span ? z[(g.top - t - u) * stride] : T(0);
        }
        QL_UNROLL
        for (int u = 0; u < U; u++)
            step(t + u, cs[u], x[u]);
    }
    for (; t < g.steps; t++) {
        ql_rot<T> cs[K];
        ql_wave_load<T, K>(tab, t, cs);
        step(t, cs, t < g.span ? z[(g.top - t) * stride] : T(0));
    }
    z[g.bottom * stride] = f[K - 1];
}

#endif // BSYM_QL_ITERATE_H
