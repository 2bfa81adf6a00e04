// pde.cu -- the batched θ-scheme PDE solver on the GPU (bsym_*pde_solve,
// issue 15): Egloff, "High performance finite difference PDE solvers on
// GPUs" (2010), sect. 2.3 and algorithm 1, with the time loop inside one
// kernel. The scheme, its boundary rows, the Rannacher start and the
// obstacle are those of the CPU solver (core/pde_impl.h, which states them);
// the grid's weights come from the same core function (bsym__pde_weights).
//
// One block per system, for the whole time loop: thread t owns R
// consecutive nodes [t R, t R + R) and keeps their values u, the obstacle
// and the rows of the explicit level in registers; nothing of the state
// goes back to memory between the levels. Per level the thread computes its
// rows of the operator from the coefficients (read where they are: shared
// ones stay in the caches), the right-hand side (the neighbours' end values
// through shared memory), and the block solves the tridiagonal system by
// the partition method of pcr.cu: a sweep inside each thread's rows leaves
// two rows per thread coupled only to the neighbouring threads' ends; PCR
// solves those 2G rows in shared memory (bsym::pcr_shared); each thread
// then recovers its interior nodes.
//
// No pivoting on the GPU. Every level's solve is checked by its normwise
// backward error, ||r|| <= tol (||A|| ||x|| + ||b||) with tol = 1000 eps
// (the CPU pivots when its multipliers grow past 1000); a system that fails
// it, or whose elimination meets a zero or non-finite pivot, stops and is
// handed back with info BSYM__PDE_RETRY: the dispatcher solves it again on
// the CPU, which pivots (core/dispatch.c, pde_retry). Non-finite input:
// info -1, as on the CPU (every value the scheme reads is checked).
#include <algorithm>
#include <cfloat>
#include <initializer_list>
#include <climits>
#include <cstdio>
#include <vector>

#include "common.cuh"
#include "pcr.cuh"

extern "C" {
#include "../core/internal.h" // bsym__pde_weights
}

namespace {

using bsym::finite;

// The backward-error bound of one level's solve, in units of eps.
constexpr double PDE_BERR_EPS = 1000;

// A coefficient on the device: the value at node i, level n of system k is
// v[i si + n sn + k sk]; v NULL reads 0.
template <typename T> struct dcoef {
    const T *v;
    long long si, sn, sk;
    __device__ __forceinline__ T at(int i, int n, long long k) const
    {
        return v != nullptr ? __ldg(v + (i * si + n * sn + k * sk)) : T(0);
    }
};

// What every block of a launch reads.
template <typename T> struct pde_args {
    int m, N, rannacher;
    bool ldir, udir;       // Dirichlet at the lower / upper end
    double theta;
    T tol;                 // the backward-error bound
    const T *w;            // 6 m weights (bsym__pde_weights)
    const double *t;       // N times
    T bl, bu;
    dcoef<T> a, b, c, d, lv, uv;
    const T *obstacle;     // m per system, or NULL
    const T *final;        // m per system
    T *u;                  // m per system (may be final)
    int *info;
};

// Threads of a block for m nodes, R a thread: ceil(m / R) rounded up to a
// whole number of warps.
int pde_threads(int m, int R) { return ((m + R - 1) / R + 31) / 32 * 32; }

// Shared memory of a block of G threads: PCR's 4 arrays of 2G rows and the
// 2G end values of u.
template <typename T> size_t pde_smem(int G) { return 5 * size_t(2 * G) * sizeof(T); }

// Warps' maxima of one level's residual test: [parity][quantity][warp].
constexpr int RED_Q = 4; // max |r|, max |x|, max row sum of |A|, max |b|

template <typename T> __device__ __forceinline__ T warp_max(T v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = max(v, __shfl_xor_sync(bsym::FULL_MASK, v, o));
    return v;
}

// The row of level n at node i: sub l, diagonal dg, super up and source f
// of the operator (core/pde_impl.h, pde_rows_); at a Dirichlet end l = dg
// = up = 0 and f = the boundary value. chk += 0 * every value read.
template <typename T>
__device__ __forceinline__ void node_row(const pde_args<T> &g, long long k, int n, int i, T &l, T &dg, T &up, T &f,
                                         T &chk)
{
    const int m = g.m;
    l = dg = up = f = T(0);
    if (i == 0 || i == m - 1) {
        if (i == 0 ? g.ldir : g.udir) {
            const T v = i == 0 ? g.lv.at(0, n, k) : g.uv.at(0, n, k);
            f = v;
            chk += v * T(0);
            return;
        }
        const T bb = g.b.at(i, n, k), cv = g.c.at(i, n, k), dv = g.d.at(i, n, k);
        chk += bb * T(0) + cv * T(0) + dv * T(0);
        if (i == 0) {
            dg = cv - bb * g.bl;
            up = bb * g.bl;
        } else {
            l = -bb * g.bu;
            dg = cv + bb * g.bu;
        }
        f = dv;
        return;
    }
    const T av = g.a.at(i, n, k), bv = g.b.at(i, n, k), cv = g.c.at(i, n, k), dv = g.d.at(i, n, k);
    chk += av * T(0) + bv * T(0) + cv * T(0) + dv * T(0);
    const T *w = g.w;
    l = av * w[3 * m + i] + bv * w[i];
    dg = av * w[4 * m + i] + bv * w[m + i] + cv;
    up = av * w[5 * m + i] + bv * w[2 * m + i];
    f = dv;
}

// One system's time loop (see the top). R nodes per thread; blockDim.x
// threads, a multiple of 32, at least ceil(m / R) and at most MAXG (the
// launch bound, which caps the registers a thread may use: 256 for the
// usual grids, 1024 for the largest).
template <typename T, int R, int MAXG>
__global__ void __launch_bounds__(MAXG) pde_kernel(pde_args<T> g, long long count)
{
    extern __shared__ unsigned char smem_raw[];
    const int G = blockDim.x, t = threadIdx.x, lane = t & 31, warp = t >> 5, nwarps = G >> 5;
    T *wa = reinterpret_cast<T *>(smem_raw), *wb = wa + 2 * G, *wc = wb + 2 * G, *wf = wc + 2 * G;
    T *ends = wf + 2 * G; // u at each thread's first and last node
    __shared__ T red[2][RED_Q][32];
    __shared__ int s_flag, s_bad;

    const int m = g.m;
    const long long k = blockIdx.x;
    if (k >= count)
        return; // whole blocks only
    const int lo = t * R, cnt = max(0, min(R, m - lo));
    const int full = m / R, tail = m - full * R;
    const int rows = 2 * full + (tail >= 2 ? 2 : tail); // of the boundary system
    if (t == 0) {
        s_flag = 0;
        s_bad = 0;
    }

    T chk = T(0);
    T U[R], O[R];
    const bool has_obst = g.obstacle != nullptr;
#pragma unroll
    for (int j = 0; j < R; j++) {
        U[j] = O[j] = T(0);
        if (j < cnt) {
            U[j] = g.final[k * m + lo + j];
            chk += U[j] * T(0);
            if (has_obst) {
                O[j] = g.obstacle[k * m + lo + j];
                chk += O[j] * T(0);
            }
        }
    }
    // The implicit level's rows. The explicit level's are computed again
    // where the right-hand side needs them (from the caches: registers
    // are what bounds the blocks a multiprocessor holds).
    T Ql[R] = {}, Qd[R] = {}, Qu[R] = {}, Qf[R] = {};
    // rows of level n into Q; mid: the average of levels n and n + 1
    auto rows_of = [&](int n, bool mid) {
#pragma unroll
        for (int j = 0; j < R; j++) {
            if (j >= cnt)
                continue;
            node_row(g, k, n, lo + j, Ql[j], Qd[j], Qu[j], Qf[j], chk);
            if (mid) {
                T l, dg, up, f;
                node_row(g, k, n + 1, lo + j, l, dg, up, f, chk);
                Ql[j] = T(0.5) * (Ql[j] + l);
                Qd[j] = T(0.5) * (Qd[j] + dg);
                Qu[j] = T(0.5) * (Qu[j] + up);
                Qf[j] = T(0.5) * (Qf[j] + f);
            }
        }
    };
    rows_of(g.N - 1, false); // (the last level's values checked, as on the CPU)
    bool bad = false; // this thread met a broken pivot or a non-finite value
    int steps = 0;    // solves done (the parity of the residual maxima)

    // One implicit solve (I - th Q) x = rhs, with the explicit part
    // eh (R u) + fr Rf of level ne's rows R when expl; u <- max(x, obstacle).
    auto solve = [&](bool expl, int ne, T th, T eh, T fq, T fr) {
        // u at the neighbours' ends
        if (cnt >= 1) {
            T last = U[0];
#pragma unroll
            for (int j = 1; j < R; j++) // (a constant index keeps U in registers)
                if (j == cnt - 1)
                    last = U[j];
            ends[2 * t] = U[0];
            ends[2 * t + 1] = last;
        }
        __syncthreads();
        const T um = t > 0 && cnt >= 1 ? ends[2 * t - 1] : T(0);
        const T up = lo + cnt < m ? ends[2 * t + 2] : T(0);
        // the right-hand side, into U (each U[j] is read only by its own row now)
        T rhs[R];
#pragma unroll
        for (int j = 0; j < R; j++) {
            rhs[j] = T(0);
            if (j >= cnt)
                continue;
            const int i = lo + j;
            if ((i == 0 && g.ldir) || (i == m - 1 && g.udir)) {
                rhs[j] = Qf[j];
                continue;
            }
            T r = U[j] + fq * Qf[j];
            if (expl) {
                const T left = j > 0 ? U[j > 0 ? j - 1 : 0] : um;
                const T right = j + 1 < cnt ? U[j + 1 < R ? j + 1 : R - 1] : up;
                T rl, rd, ru, rf;
                node_row(g, k, ne, i, rl, rd, ru, rf, chk);
                r += eh * (rl * left + rd * U[j] + ru * right) + fr * rf;
            }
            rhs[j] = r;
        }
        // the matrix of row j
        auto row = [&](int j, T &sub, T &dia, T &sup) {
            const int i = lo + j;
            if ((i == 0 && g.ldir) || (i == m - 1 && g.udir)) {
                sub = sup = T(0);
                dia = T(1);
            } else {
                sub = -th * Ql[j];
                dia = T(1) - th * Qd[j];
                sup = -th * Qu[j];
            }
        };
        // the sweep inside the thread's rows (pcr.cu's partition kernel):
        // row j >= 1 becomes al_j x_lo + x_j + ga_j x_{j+1} = ph_j, then,
        // backward, x_j = ph_j - al_j x_lo - ga_j x_last
        T al[R], ga[R], ph[R];
        T a0, b0, c0;
        row(0, a0, b0, c0);
#pragma unroll
        for (int j = 1; j < R; j++) {
            al[j] = ga[j] = ph[j] = T(0);
            if (j >= cnt)
                continue;
            T a, b, c;
            row(j, a, b, c);
            const T q = b - a * (j == 1 ? T(0) : ga[j - 1]);
            bad |= !(q != T(0) && finite(q));
            const T inv = T(1) / q;
            al[j] = (j == 1 ? a : -a * al[j - 1]) * inv;
            ga[j] = c * inv;
            ph[j] = (rhs[j] - a * (j == 1 ? T(0) : ph[j - 1])) * inv;
        }
#pragma unroll
        for (int j = R - 3; j >= 1; j--) {
            if (j > cnt - 3)
                continue;
            ph[j] -= ga[j] * ph[j + 1];
            al[j] -= ga[j] * al[j + 1];
            ga[j] = -ga[j] * ga[j + 1];
        }
        // this thread's two rows of the boundary system
        if (cnt >= 1) {
            wa[2 * t] = a0;
            wb[2 * t] = cnt >= 3 ? b0 - c0 * al[1] : b0;
            wc[2 * t] = cnt >= 3 ? -c0 * ga[1] : c0;
            wf[2 * t] = cnt >= 3 ? rhs[0] - c0 * ph[1] : rhs[0];
        }
        if (cnt >= 2) {
            T lal = T(0), lga = T(0), lph = T(0);
#pragma unroll
            for (int j = 1; j < R; j++)
                if (j == cnt - 1) {
                    lal = al[j];
                    lga = ga[j];
                    lph = ph[j];
                }
            wa[2 * t + 1] = lal;
            wb[2 * t + 1] = T(1);
            wc[2 * t + 1] = lga;
            wf[2 * t + 1] = lph;
        }
        __syncthreads();
        int fr_row = INT_MAX;
        bsym::pcr_shared(wa, wb, wc, wf, rows, t, G, &fr_row, bsym::block_sync{});
        bad |= fr_row != INT_MAX;
        // recovery, the neighbours' ends, the residual of every row
        const T xf = cnt >= 1 ? wf[2 * t] : T(0), xl = cnt >= 2 ? wf[2 * t + 1] : xf;
        const T xm = t > 0 && cnt >= 1 ? wf[2 * t - 1] : T(0), xp = lo + cnt < m ? wf[2 * t + 2] : T(0);
        T *x = ph; // the solution, in place
#pragma unroll
        for (int j = 0; j < R; j++)
            x[j] = j == 0 ? xf : j == cnt - 1 ? xl : j < cnt ? ph[j] - al[j] * xf - ga[j] * xl : T(0);
        T rmax = T(0), xmax = T(0), amax = T(0), bmax = T(0);
#pragma unroll
        for (int j = 0; j < R; j++) {
            if (j >= cnt)
                continue;
            T sub, dia, sup;
            row(j, sub, dia, sup);
            const T left = j > 0 ? x[j > 0 ? j - 1 : 0] : xm;
            const T right = j + 1 < cnt ? x[j + 1 < R ? j + 1 : R - 1] : xp;
            const T r = rhs[j] - (sub * left + dia * x[j] + sup * right);
            bad |= !finite(r);
            rmax = max(rmax, abs(r));
            xmax = max(xmax, abs(x[j]));
            amax = max(amax, abs(sub) + abs(dia) + abs(sup));
            bmax = max(bmax, abs(rhs[j]));
            U[j] = has_obst ? (O[j] > x[j] ? O[j] : x[j]) : x[j];
        }
        // the block's maxima, tested by thread 0 one level later (its
        // parity's slots are rewritten only two levels later)
        const int p = steps & 1;
        rmax = warp_max(rmax);
        xmax = warp_max(xmax);
        amax = warp_max(amax);
        bmax = warp_max(bmax);
        if (lane == 0) {
            red[p][0][warp] = rmax;
            red[p][1][warp] = xmax;
            red[p][2][warp] = amax;
            red[p][3][warp] = bmax;
        }
        if (t == 0 && steps > 0) {
            const int q = p ^ 1;
            T r = 0, xx = 0, aa = 0, bb = 0;
            for (int w = 0; w < nwarps; w++) {
                r = max(r, red[q][0][w]);
                xx = max(xx, red[q][1][w]);
                aa = max(aa, red[q][2][w]);
                bb = max(bb, red[q][3][w]);
            }
            if (!(r <= g.tol * (aa * xx + bb)))
                s_flag = 1;
        }
        if (bad)
            s_flag = 1;
        steps++;
    };

    for (int n = g.N - 2; n >= 0; n--) {
        const double dt = g.t[n + 1] - g.t[n];
        if (g.N - 2 - n < g.rannacher) {
            // two fully implicit half steps, the first with the midpoint's rows
            const T th = T(0.5 * dt);
            rows_of(n, true);
            solve(false, n + 1, th, T(0), th, T(0));
            rows_of(n, false);
            solve(false, n + 1, th, T(0), th, T(0));
        } else {
            const double th = g.theta * dt, eh = (1 - g.theta) * dt;
            rows_of(n, false);
            solve(g.theta < 1, n + 1, T(th), T(eh), T(th), T(eh));
        }
        __syncthreads(); // s_flag of this level (and thread 0's test of the last) seen by all
        if (s_flag)
            break;
        __syncthreads(); // every thread has read s_flag before it can be set again
    }
    // thread 0's test of the last solve
    if (t == 0 && steps > 0 && !s_flag) {
        const int q = (steps - 1) & 1;
        T r = 0, xx = 0, aa = 0, bb = 0;
        for (int w = 0; w < nwarps; w++) {
            r = max(r, red[q][0][w]);
            xx = max(xx, red[q][1][w]);
            aa = max(aa, red[q][2][w]);
            bb = max(bb, red[q][3][w]);
        }
        if (!(r <= g.tol * (aa * xx + bb)))
            s_flag = 1;
    }
    if (!(chk == T(0)))
        s_bad = 1;
    __syncthreads();
    const int code = s_bad ? -1 : s_flag ? BSYM__PDE_RETRY : 0;
    if (t == 0)
        g.info[k] = code;
    // a system handed back keeps u untouched (where u is final, the CPU
    // then reads the final values it needs)
#pragma unroll
    for (int j = 0; j < R; j++)
        if (j < cnt && code != BSYM__PDE_RETRY)
            g.u[k * m + lo + j] = code != 0 ? T(NAN) : U[j];
}

// ---- m <= 32 R: a warp per system, no block barrier ------------------------
// Lane l owns nodes [l R, l R + R), W systems a block (one a warp). The same
// scheme and checks as pde_kernel; what differs is where things live:
//  * a level's rows are built by the whole warp, node c 32 + l by lane l
//    (coalesced reads of the coefficients and weights), into shared memory
//    at [i mod R][i / R] with rows of 33 (the lanes then read their own
//    nodes, [j][l], without bank conflicts); the sweep's al, ga, ph live
//    there too;
//  * u and the obstacle stay in registers; the explicit part of the next
//    level, eh (Q u) + fr Qf with this level's rows Q, is added to u at the
//    end of a level (so no level's rows are kept or read twice);
//  * the boundary system's 64 rows, two a lane (the lane's first node at
//    2l, its last at 2l + 1), are solved by PCR through warp shuffles;
//  * a level's residual test is decided at once (the warp's maxima are in
//    every lane).
constexpr int PDE_PAD = 33; // a row of the shared arrays: 32 lanes + 1

// One row of the boundary system in a PCR step, and the row divided by
// its pivot (what a neighbour reads).
template <typename T> struct prow {
    T a, b, c, f;
};

// The neighbour of a lane's row at distance s in the boundary system
// (rows 2l and 2l + 1 on lane l): for s = 1 the other slot (own lane or
// the next / previous one), for even s the same slot s / 2 lanes away.
template <typename T>
__device__ __forceinline__ void pcr_neighbours(const prow<T> (&nr)[2], int s, prow<T> (&lo)[2], prow<T> (&hi)[2])
{
    auto up = [](T v, int d) { return __shfl_up_sync(bsym::FULL_MASK, v, d); };
    auto down = [](T v, int d) { return __shfl_down_sync(bsym::FULL_MASK, v, d); };
    if (s == 1) {
        lo[0] = {up(nr[1].a, 1), T(0), up(nr[1].c, 1), up(nr[1].f, 1)}; // row 2l - 1
        hi[0] = nr[1];                                                 // row 2l + 1
        lo[1] = nr[0];                                                 // row 2l
        hi[1] = {down(nr[0].a, 1), T(0), down(nr[0].c, 1), down(nr[0].f, 1)}; // row 2l + 2
        return;
    }
    const int h = s >> 1;
#pragma unroll
    for (int q = 0; q < 2; q++) {
        lo[q] = {up(nr[q].a, h), T(0), up(nr[q].c, h), up(nr[q].f, h)};
        hi[q] = {down(nr[q].a, h), T(0), down(nr[q].c, h), down(nr[q].f, h)};
    }
}

template <typename T, int R>
__global__ void __launch_bounds__(128) pde_warp_kernel(pde_args<T> g, long long count)
{
    extern __shared__ unsigned char smem_raw[];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const long long k = (long long)blockIdx.x * (blockDim.x >> 5) + w;
    if (k >= count)
        return; // a whole warp: it shares no barrier with the others
    // this warp's shared arrays, 7 of R x PDE_PAD: the level's rows ql, qd,
    // qu, qf and the sweep's al, ga, ph
    constexpr int A = R * PDE_PAD;
    T *ql = reinterpret_cast<T *>(smem_raw) + (size_t)w * 7 * A, *qd = ql + A, *qu = qd + A, *qf = qu + A;
    T *al = qf + A, *ga = al + A, *ph = ga + A;
#define AT(arr, j) arr[(j) * PDE_PAD + lane] // the lane's node j
    const int m = g.m, lo = lane * R, cnt = max(0, min(R, m - lo));
    const int full = m / R, tail = m - full * R;
    const int rows = 2 * full + (tail >= 2 ? 2 : tail); // of the boundary system
    const bool has_obst = g.obstacle != nullptr;
    T chk = T(0);
    T U[R], O[R];
#pragma unroll
    for (int j = 0; j < R; j++) {
        U[j] = O[j] = T(0);
        if (j < cnt) {
            U[j] = g.final[k * m + lo + j];
            chk += U[j] * T(0);
            if (has_obst) {
                O[j] = g.obstacle[k * m + lo + j];
                chk += O[j] * T(0);
            }
        }
    }
    // The rows of level n (mid: the average of levels n and n + 1) into
    // the shared arrays, by the whole warp.
    auto build = [&](int n, bool mid) {
#pragma unroll
        for (int c = 0; c < R; c++) {
            const int i = c * 32 + lane;
            if (i >= m)
                break;
            T l, d, u, f;
            node_row(g, k, n, i, l, d, u, f, chk);
            if (mid) {
                T l2, d2, u2, f2;
                node_row(g, k, n + 1, i, l2, d2, u2, f2, chk);
                l = T(0.5) * (l + l2);
                d = T(0.5) * (d + d2);
                u = T(0.5) * (u + u2);
                f = T(0.5) * (f + f2);
            }
            const int at = (i % R) * PDE_PAD + i / R;
            ql[at] = l;
            qd[at] = d;
            qu[at] = u;
            qf[at] = f;
        }
        __syncwarp();
    };
    // A Dirichlet end (identity row) at the lane's node j.
    auto dir = [&](int j) { return (lo + j == 0 && g.ldir) || (lo + j == m - 1 && g.udir); };
    // The matrix row (I - th Q) at the lane's node j.
    auto row = [&](int j, T th, T &sub, T &dia, T &sup) {
        if (dir(j)) {
            sub = sup = T(0);
            dia = T(1);
        } else {
            sub = -th * AT(ql, j);
            dia = T(1) - th * AT(qd, j);
            sup = -th * AT(qu, j);
        }
    };
    // u += eh (Q u) + fr Qf with the rows Q in the shared arrays: the
    // explicit part of the level that follows (Dirichlet ends keep u).
    auto add_explicit = [&](T eh, T fr) {
        T ulast = U[0];
#pragma unroll
        for (int j = 1; j < R; j++)
            if (j == cnt - 1)
                ulast = U[j];
        const T um = __shfl_up_sync(bsym::FULL_MASK, ulast, 1);
        const T up = __shfl_down_sync(bsym::FULL_MASK, U[0], 1);
        T e[R];
#pragma unroll
        for (int j = 0; j < R; j++) {
            e[j] = T(0);
            if (j >= cnt || dir(j))
                continue;
            const T left = j > 0 ? U[j > 0 ? j - 1 : 0] : (lane > 0 ? um : T(0));
            const T right = j + 1 < cnt ? U[j + 1 < R ? j + 1 : R - 1] : (lo + j + 1 < m ? up : T(0));
            e[j] = eh * (AT(ql, j) * left + AT(qd, j) * U[j] + AT(qu, j) * right) + fr * AT(qf, j);
        }
#pragma unroll
        for (int j = 0; j < R; j++)
            U[j] += e[j];
    };
    build(g.N - 1, false); // (the last level's values checked, as on the CPU)
    bool bad = false;

    // One implicit solve (I - th Q) x = U + fq Qf with the rows Q built;
    // u <- max(x, obstacle); then, when the next level takes an explicit
    // part (eh, fr of its step; nexpl), u += eh (Q u) + fr Qf. Returns false
    // when the level failed its checks.
    auto solve = [&](T th, T fq, bool nexpl, T eh, T fr) -> bool {
        T rhs[R];
#pragma unroll
        for (int j = 0; j < R; j++)
            rhs[j] = j >= cnt ? T(0) : dir(j) ? AT(qf, j) : U[j] + fq * AT(qf, j);
        // the sweep inside the lane's nodes (pde_kernel's)
        T pal = T(0), pga = T(0), pph = T(0);
#pragma unroll
        for (int j = 1; j < R; j++) { // (unrolled: rhs stays in registers)
            if (j >= cnt)
                break;
            T a, b, c;
            row(j, th, a, b, c);
            const T q = j == 1 ? b : b - a * pga;
            bad |= !(q != T(0) && finite(q));
            const T inv = T(1) / q;
            pal = (j == 1 ? a : -a * pal) * inv;
            pga = c * inv;
            pph = (rhs[j] - (j == 1 ? T(0) : a * pph)) * inv;
            AT(al, j) = pal;
            AT(ga, j) = pga;
            AT(ph, j) = pph;
        }
        for (int j = cnt - 3; j >= 1; j--) {
            const T gj = AT(ga, j);
            AT(ph, j) -= gj * AT(ph, j + 1);
            AT(al, j) -= gj * AT(al, j + 1);
            AT(ga, j) = -gj * AT(ga, j + 1);
        }
        // the lane's two rows of the boundary system (identity rows past its end)
        prow<T> r2[2] = {{T(0), T(1), T(0), T(0)}, {T(0), T(1), T(0), T(0)}};
        if (cnt >= 1) {
            T a0, b0, c0;
            row(0, th, a0, b0, c0);
            r2[0] = cnt >= 3 ? prow<T>{a0, b0 - c0 * AT(al, 1), -c0 * AT(ga, 1), rhs[0] - c0 * AT(ph, 1)}
                             : prow<T>{a0, b0, c0, rhs[0]};
        }
        if (cnt >= 2)
            r2[1] = {AT(al, cnt - 1), T(1), AT(ga, cnt - 1), AT(ph, cnt - 1)};
        // PCR on the rows [0, rows), lanes in step
        for (int s = 1; s < rows; s <<= 1) {
            prow<T> nr[2], lo_[2], hi_[2];
#pragma unroll
            for (int q = 0; q < 2; q++) {
                const T inv = T(1) / r2[q].b;
                bad |= !finite(inv) && 2 * lane + q < rows;
                nr[q] = {r2[q].a * inv, T(0), r2[q].c * inv, r2[q].f * inv};
            }
            pcr_neighbours(nr, s, lo_, hi_);
#pragma unroll
            for (int q = 0; q < 2; q++) {
                const int i = 2 * lane + q;
                if (i - s < 0)
                    lo_[q] = {T(0), T(0), T(0), T(0)};
                if (i + s >= rows)
                    hi_[q] = {T(0), T(0), T(0), T(0)};
                const prow<T> o = r2[q];
                r2[q].b = o.b - o.a * lo_[q].c - o.c * hi_[q].a;
                r2[q].f = o.f - o.a * lo_[q].f - o.c * hi_[q].f;
                r2[q].a = -o.a * lo_[q].a;
                r2[q].c = -o.c * hi_[q].c;
            }
        }
        const T xf = r2[0].f / r2[0].b, xl = cnt >= 2 ? r2[1].f / r2[1].b : xf;
        const T xm = __shfl_up_sync(bsym::FULL_MASK, xl, 1), xp = __shfl_down_sync(bsym::FULL_MASK, xf, 1);
        // recovery, the residual of every row, u
        T x[R];
#pragma unroll
        for (int j = 0; j < R; j++)
            x[j] = j == 0 ? xf : j == cnt - 1 ? xl : j < cnt ? AT(ph, j) - AT(al, j) * xf - AT(ga, j) * xl : T(0);
        T rmax = T(0), xmax = T(0), amax = T(0), bmax = T(0);
#pragma unroll
        for (int j = 0; j < R; j++) {
            if (j >= cnt)
                continue;
            T sub, dia, sup;
            row(j, th, sub, dia, sup);
            const T left = j > 0 ? x[j > 0 ? j - 1 : 0] : (lane > 0 ? xm : T(0));
            const T right = j + 1 < cnt ? x[j + 1 < R ? j + 1 : R - 1] : (lo + j + 1 < m ? xp : T(0));
            const T r = rhs[j] - (sub * left + dia * x[j] + sup * right);
            bad |= !finite(r);
            rmax = max(rmax, abs(r));
            xmax = max(xmax, abs(x[j]));
            amax = max(amax, abs(sub) + abs(dia) + abs(sup));
            bmax = max(bmax, abs(rhs[j]));
            U[j] = has_obst ? (O[j] > x[j] ? O[j] : x[j]) : x[j];
        }
        rmax = warp_max(rmax);
        xmax = warp_max(xmax);
        amax = warp_max(amax);
        bmax = warp_max(bmax);
        bad |= !(rmax <= g.tol * (amax * xmax + bmax));
        if (nexpl) // the next level's explicit part, from this level's rows
            add_explicit(eh, fr);
        __syncwarp(); // every lane has read the rows before the next level's are built
        return !__any_sync(bsym::FULL_MASK, bad);
    };

    // The explicit part of the first level (from the last level's rows, built above)
    bool ok = true;
    {
        const double dt = g.t[g.N - 1] - g.t[g.N - 2];
        if (!(g.rannacher > 0) && g.theta < 1)
            add_explicit(T((1 - g.theta) * dt), T((1 - g.theta) * dt));
        __syncwarp();
    }
    for (int n = g.N - 2; n >= 0 && ok; n--) {
        const double dt = g.t[n + 1] - g.t[n];
        // the next level (n - 1): does its step take an explicit part, and its weights
        const bool nexpl = n > 0 && !(g.N - 2 - (n - 1) < g.rannacher) && g.theta < 1;
        const double dtn = n > 0 ? g.t[n] - g.t[n - 1] : 0, ehn = (1 - g.theta) * dtn;
        if (g.N - 2 - n < g.rannacher) {
            const T th = T(0.5 * dt);
            build(n, true);
            ok = solve(th, th, false, T(0), T(0));
            build(n, false);
            ok = solve(th, th, nexpl, T(ehn), T(ehn)) && ok;
        } else {
            build(n, false);
            ok = solve(T(g.theta * dt), T(g.theta * dt), nexpl, T(ehn), T(ehn));
        }
    }
#undef AT
    const bool badin = __any_sync(bsym::FULL_MASK, !(chk == T(0)));
    const int code = badin ? -1 : !ok ? BSYM__PDE_RETRY : 0;
    if (lane == 0)
        g.info[k] = code;
#pragma unroll
    for (int j = 0; j < R; j++)
        if (j < cnt && code != BSYM__PDE_RETRY)
            g.u[k * m + lo + j] = code != 0 ? T(NAN) : U[j];
}

// Systems (warps) a block of the warp kernel: up to 4, fewer where a
// block's shared memory would pass 64 KB (double, R = 16), so that a
// multiprocessor holds several blocks.
template <typename T> int pde_warps(int R)
{
    const size_t per = size_t(7) * R * PDE_PAD * sizeof(T);
    return int(std::max<size_t>(1, std::min<size_t>(4, (size_t(64) << 10) / per)));
}

// g with its per-system pointers advanced past the first `first` systems.
template <typename T> pde_args<T> advanced(pde_args<T> g, long long first)
{
    const long long m = g.m;
    g.final += first * m;
    g.u += first * m;
    g.info += first;
    if (g.obstacle != nullptr)
        g.obstacle += first * m;
    for (dcoef<T> *q : {&g.a, &g.b, &g.c, &g.d, &g.lv, &g.uv})
        if (q->v != nullptr)
            q->v += first * q->sk;
    return g;
}

// Launches kernel fn, `per` systems a block of `threads` threads and smem
// bytes of dynamic shared memory, over count systems (launches of at most
// 2^31 - 1 blocks). With per_sm non-NULL it launches nothing and reports
// the systems one multiprocessor holds at once (the pipeline sizes its
// chunks by it).
template <typename T>
bsym_status launch_grid(void (*fn)(pde_args<T>, long long), int per, int threads, size_t smem,
                        const pde_args<T> &g, long long count, cudaStream_t s, int *per_sm, char *msg,
                        size_t msglen)
{
    BSYM_CUDA_TRY(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    if (per_sm != nullptr) {
        int blocks = 0;
        BSYM_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads, smem));
        *per_sm = blocks * per;
        return BSYM_OK;
    }
    const long long most = 0x7fffffffLL * per;
    for (long long first = 0; first < count; first += most) {
        const long long c = std::min(most, count - first);
        fn<<<unsigned((c + per - 1) / per), threads, smem, s>>>(advanced(g, first), c);
    }
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// The warp kernel with R nodes a lane, pde_warps(R) systems a block.
template <typename T, int R>
bsym_status launch_warp(const pde_args<T> &g, long long count, cudaStream_t s, int *per_sm, char *msg,
                        size_t msglen)
{
    const int W = pde_warps<T>(R);
    const size_t smem = size_t(W) * 7 * R * PDE_PAD * sizeof(T);
    return launch_grid<T>(pde_warp_kernel<T, R>, W, 32 * W, smem, g, count, s, per_sm, msg, msglen);
}

// The block kernel with R nodes a thread, a system a block.
template <typename T, int R, int MAXG>
bsym_status launch_rows(const pde_args<T> &g, long long count, cudaStream_t s, int *per_sm, char *msg,
                        size_t msglen)
{
    const int G = pde_threads(g.m, R);
    return launch_grid<T>(pde_kernel<T, R, MAXG>, 1, G, pde_smem<T>(G), g, count, s, per_sm, msg, msglen);
}

// The block kernel's rows a thread: the tuned choice (rows 0) or the one
// asked for (4 or 8).
template <typename T> int tuned_rows(int m, int rows)
{
    if (rows != 0)
        return rows;
    // float: 8 (registers allow it); double: 4 while 1024 threads suffice
    return sizeof(T) == 4 || (m + 3) / 4 > 1024 ? 8 : 4;
}

// Launches the kernel for g.m nodes (rows: 0 the tuned choice, 1 the warp
// kernel, 4 or 8 the block kernel with that many nodes a thread); with
// per_sm non-NULL only reports that kernel's systems a multiprocessor.
template <typename T>
bsym_status launch(const pde_args<T> &g, long long count, int rows, cudaStream_t s, char *msg, size_t msglen,
                   int *per_sm = nullptr)
{
    if (g.m < 3 || g.m > BSYM_GPU_PDE_MAX_N) {
        std::snprintf(msg, msglen, "m = %d is outside the GPU PDE solver's 3..%d", g.m, BSYM_GPU_PDE_MAX_N);
        return BSYM_ERR_SIZE;
    }
    if (count == 0 && per_sm == nullptr)
        return BSYM_OK;
    if (rows == 1 || (rows == 0 && g.m <= 32 * 16)) { // a warp per system
        if (g.m <= 32 * 4)
            return launch_warp<T, 4>(g, count, s, per_sm, msg, msglen);
        if (g.m <= 32 * 8)
            return launch_warp<T, 8>(g, count, s, per_sm, msg, msglen);
        if (g.m <= 32 * 16)
            return launch_warp<T, 16>(g, count, s, per_sm, msg, msglen);
    }
    const int r = tuned_rows<T>(g.m, rows), G = r == 4 || r == 8 ? pde_threads(g.m, r) : 0;
    if (r == 4 && G <= 256)
        return launch_rows<T, 4, 256>(g, count, s, per_sm, msg, msglen);
    if (r == 4 && G <= 1024)
        return launch_rows<T, 4, 1024>(g, count, s, per_sm, msg, msglen);
    if (r == 8 && G <= 256)
        return launch_rows<T, 8, 256>(g, count, s, per_sm, msg, msglen);
    if (r == 8 && G <= 1024)
        return launch_rows<T, 8, 1024>(g, count, s, per_sm, msg, msglen);
    std::snprintf(msg, msglen, "no GPU PDE kernel with %d rows a thread for m = %d", rows, g.m);
    return BSYM_ERR_ARG;
}

// ---- the constants of a call on one device: the weights (in T), the times
// (double) and the coefficients shared by all systems (sk = 0, in T),
// uploaded once ----
template <typename T> struct pde_constants {
    void *mem = nullptr;
    ~pde_constants() { cudaFree(mem); }
};

// Elements a coefficient addresses for one system (0 when it is absent).
long long coef_extent(const bsym_pde_coef &c, const bsym_pde *p, bool boundary)
{
    if (c.v == nullptr)
        return 0;
    return (boundary ? 0 : (p->m - 1) * c.si) + (p->N - 1) * c.sn + 1;
}

// Fills g's weights, times and shared coefficients on the current device
// (uploaded with H host storage converted to T); the per-system
// coefficients are left to the caller (their dcoef gets the strides, v
// NULL). Synchronous.
template <typename T, typename H>
bsym_status upload_constants(const bsym_pde *p, pde_args<T> &g, pde_constants<T> &keep, char *msg, size_t msglen)
{
    const long long m = p->m, N = p->N;
    std::vector<double> wd(6 * m);
    double bl, bu;
    bsym__pde_weights(p, sizeof(H) == sizeof(float), wd.data(), &bl, &bu);
    const bsym_pde_coef *src[6] = {&p->a, &p->b, &p->c, &p->d, &p->lower_value, &p->upper_value};
    dcoef<T> *dst[6] = {&g.a, &g.b, &g.c, &g.d, &g.lv, &g.uv};
    // layout: weights (6m T) | times (N double) | each shared coefficient (T)
    size_t off_t = (6 * m * sizeof(T) + 255) / 256 * 256, total = off_t + (N * sizeof(double) + 255) / 256 * 256;
    size_t off[6];
    for (int q = 0; q < 6; q++) {
        off[q] = total;
        if (src[q]->v != nullptr && src[q]->sk == 0)
            total += (coef_extent(*src[q], p, q >= 4) * sizeof(T) + 255) / 256 * 256;
    }
    std::vector<unsigned char> host(total);
    T *w = reinterpret_cast<T *>(host.data());
    for (long long e = 0; e < 6 * m; e++)
        w[e] = T(wd[e]);
    double *tt = reinterpret_cast<double *>(host.data() + off_t);
    for (long long n = 0; n < N; n++)
        tt[n] = double(static_cast<const H *>(p->t)[n]);
    for (int q = 0; q < 6; q++) {
        const bsym_pde_coef &c = *src[q];
        const bool boundary = q >= 4;
        *dst[q] = {nullptr, boundary ? 0 : c.si, c.sn, c.sk};
        if (c.v != nullptr && c.sk == 0) {
            T *v = reinterpret_cast<T *>(host.data() + off[q]);
            const long long ext = coef_extent(c, p, boundary);
            for (long long e = 0; e < ext; e++)
                v[e] = T(static_cast<const H *>(c.v)[e]);
        }
    }
    BSYM_CUDA_TRY(cudaMalloc(&keep.mem, total));
    BSYM_CUDA_TRY(cudaMemcpy(keep.mem, host.data(), total, cudaMemcpyHostToDevice));
    unsigned char *d = static_cast<unsigned char *>(keep.mem);
    g.w = reinterpret_cast<const T *>(d);
    g.t = reinterpret_cast<const double *>(d + off_t);
    for (int q = 0; q < 6; q++)
        if (src[q]->v != nullptr && src[q]->sk == 0)
            dst[q]->v = reinterpret_cast<const T *>(d + off[q]);
    g.m = int(m);
    g.N = int(N);
    g.rannacher = p->rannacher;
    g.ldir = p->lower == BSYM_PDE_DIRICHLET;
    g.udir = p->upper == BSYM_PDE_DIRICHLET;
    g.theta = p->theta;
    g.tol = T(PDE_BERR_EPS * (sizeof(T) == sizeof(float) ? FLT_EPSILON : DBL_EPSILON));
    g.bl = T(bl);
    g.bu = T(bu);
    return BSYM_OK;
}

// ---- the host entry (the backend table's row): the constants once, then
// the per-system arrays chunk by chunk through the pipeline ----
template <typename T> struct pde_chunk_arg {
    pde_args<T> g;
    int idx[6];     // the pipeline array of a per-system coefficient, or -1
    int obst;       // the obstacle's, or -1
};

template <typename T>
bsym_status pde_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const pde_chunk_arg<T> *c = static_cast<const pde_chunk_arg<T> *>(arg);
    pde_args<T> g = c->g;
    g.final = static_cast<const T *>(dev[0]);
    g.u = static_cast<T *>(dev[0]);
    g.info = static_cast<int *>(dev[1]);
    g.obstacle = c->obst >= 0 ? static_cast<const T *>(dev[c->obst]) : nullptr;
    dcoef<T> *q[6] = {&g.a, &g.b, &g.c, &g.d, &g.lv, &g.uv};
    for (int e = 0; e < 6; e++)
        if (c->idx[e] >= 0)
            q[e]->v = static_cast<const T *>(dev[c->idx[e]]);
    return launch<T>(g, count, 0, s, msg, msglen);
}

} // namespace

namespace bsym_cuda {

template <typename T, typename H> bsym_status pde_op(const bsym__exec *x, const bsym__job *j)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    const bsym_pde *p = j->pde;
    const long long m = p->m, k0 = j->pde_k0;
    if (m < 3 || m > BSYM_GPU_PDE_MAX_N) {
        std::snprintf(msg, msglen, "m = %lld is outside the GPU PDE solver's 3..%d", m, BSYM_GPU_PDE_MAX_N);
        return BSYM_ERR_SIZE;
    }
    pde_chunk_arg<T> arg{};
    pde_constants<T> keep;
    bsym_status st = upload_constants<T, H>(p, arg.g, keep, msg, msglen);
    if (st != BSYM_OK)
        return st;
    // pipeline arrays: final / u (in place on the device), info, the
    // obstacle, the per-system coefficients (each system's sk elements,
    // which must hold all it addresses)
    bsym_array arrays[9];
    int na = 0;
    arrays[na++] = host_data<T>(static_cast<const H *>(j->final), static_cast<H *>(j->u), size_t(m));
    arrays[na++] = {nullptr, j->info, sizeof(int)};
    arg.obst = -1;
    if (p->obstacle != nullptr) {
        arg.obst = na;
        arrays[na++] = host_data<T>(static_cast<const H *>(p->obstacle) + k0 * m, static_cast<H *>(nullptr),
                                    size_t(m));
    }
    const bsym_pde_coef *src[6] = {&p->a, &p->b, &p->c, &p->d, &p->lower_value, &p->upper_value};
    static const char *const names[6] = {"a", "b", "c", "d", "lower_value", "upper_value"};
    for (int e = 0; e < 6; e++) {
        arg.idx[e] = -1;
        const bsym_pde_coef &c = *src[e];
        if (c.v == nullptr || c.sk == 0)
            continue;
        if (coef_extent(c, p, e >= 4) > c.sk) {
            std::snprintf(msg, msglen,
                          "%s: the GPU PDE solver needs each system's values in a block of its own (sk = %lld "
                          "elements); use the CPU",
                          names[e], (long long)c.sk);
            return BSYM_ERR_SIZE;
        }
        arg.idx[e] = na;
        arrays[na++] = host_data<T>(static_cast<const H *>(c.v) + k0 * c.sk, static_cast<H *>(nullptr),
                                    size_t(c.sk));
    }
    // the pipeline's chunks: at least a few full waves of the kernel (the
    // time loop is compute, not link, bound)
    int per_sm = 0;
    if ((st = launch<T>(arg.g, 0, 0, nullptr, msg, msglen, &per_sm)) != BSYM_OK)
        return st;
    return bsym_pipeline(x, arrays, na, j->batch, pde_chunk<T>, &arg, false, per_sm);
}

// The device-resident launch (bsym_cuda.h): x and t on the host, the rest
// on the device.
template <typename T>
bsym_status pde_launch(const bsym_pde *p, const T *final, T *u, int *info, int rows, cudaStream_t s, char *msg,
                       size_t msglen)
{
    if (p == nullptr || p->m < 3 || p->N < 2 || p->batch < 0) {
        std::snprintf(msg, msglen, "bad PDE problem");
        return BSYM_ERR_ARG;
    }
    if (p->m > BSYM_GPU_PDE_MAX_N) {
        std::snprintf(msg, msglen, "m = %lld is outside the GPU PDE solver's 3..%d", (long long)p->m,
                      BSYM_GPU_PDE_MAX_N);
        return BSYM_ERR_SIZE;
    }
    pde_args<T> g{};
    pde_constants<T> keep;
    // the shared coefficients are device arrays already: upload only the
    // weights and times (a copy of p without them), then point at them
    bsym_pde q = *p;
    for (bsym_pde_coef *c : {&q.a, &q.b, &q.c, &q.d, &q.lower_value, &q.upper_value})
        c->v = nullptr;
    bsym_status st = upload_constants<T, T>(&q, g, keep, msg, msglen);
    if (st != BSYM_OK)
        return st;
    const bsym_pde_coef *src[6] = {&p->a, &p->b, &p->c, &p->d, &p->lower_value, &p->upper_value};
    dcoef<T> *dst[6] = {&g.a, &g.b, &g.c, &g.d, &g.lv, &g.uv};
    for (int e = 0; e < 6; e++)
        *dst[e] = {static_cast<const T *>(src[e]->v), e >= 4 ? 0 : src[e]->si, src[e]->sn, src[e]->sk};
    g.obstacle = static_cast<const T *>(p->obstacle);
    g.final = final;
    g.u = u;
    g.info = info;
    st = launch<T>(g, p->batch, rows, s, msg, msglen);
    // the constants are freed when `keep` goes: after the kernel
    if (st == BSYM_OK)
        BSYM_CUDA_TRY(cudaStreamSynchronize(s));
    return st;
}

template bsym_status pde_op<float, float>(const bsym__exec *, const bsym__job *);
template bsym_status pde_op<double, double>(const bsym__exec *, const bsym__job *);
template bsym_status pde_op<float, double>(const bsym__exec *, const bsym__job *);
template bsym_status pde_launch<float>(const bsym_pde *, const float *, float *, int *, int, cudaStream_t, char *,
                                       size_t);
template bsym_status pde_launch<double>(const bsym_pde *, const double *, double *, int *, int, cudaStream_t,
                                        char *, size_t);

} // namespace bsym_cuda
