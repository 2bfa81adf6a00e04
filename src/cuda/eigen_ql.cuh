// eigen_ql.cuh -- included once by eigen.cu (after its te<T> numerics): the
// GPU's implicit QL eigensolver of the scaled tridiagonal T, in two kernels
// that split its serial part from its parallel part.
//
//   ql_kernel (one thread per system): scales T by the core's rule
//     (te_scale_), runs the implicit QL iteration with Wilkinson shifts on d
//     and e (textbook tql2/tqli), sorts the eigenvalues, applies the core's
//     selection and writes w, count and info. With vectors it records every
//     Givens rotation (c, s) of every sweep, and each eigenvalue's sorted
//     position, in a per-system scratch record.
//   qlv_kernel (RPL rows a thread, NMAX / RPL threads a system): loads Q (or
//     I) row by row into registers, replays the recorded sweeps on its rows
//     and writes its rows of the selected eigenvectors in ascending order.
//     Its threads never talk to each other: a system's rows are independent
//     under column rotations.
//
// Why this split: a QL sweep is a chain of dependent rotations, each a few
// dozen operations on scalars. One system a thread runs 32 chains a warp side
// by side; the vector update is then 6 flops a row a rotation from registers,
// with every lane busy. (Divide and conquer, eigen.cu's eig_kernel, keeps a
// warp on one system's serial merge logic.) The cost is a record of about
// n^2 rotations (measured 1.0-1.3 n^2 on random matrices at n = 8..64): a
// system whose record would exceed its capacity is handed, untouched, to
// divide and conquer instead (eig_kernel's list mode), so the result never
// depends on the capacity.

#include "ql_iterate.h"

// One sub-batch's record (vectors): per system rot_cap rotations, swp_cap
// sweep headers (hi | count << 16: the rotations of columns hi, hi - 1, ...,
// hi - count + 1, in that order), n sorted positions, and meta = (sweeps or
// -1 when handed to divide and conquer, first selected position).
template <typename T> struct ql_record {
    ql_rot<T> *rot;
    int *swp;
    int *rank;
    int2 *meta;
    int rot_cap, swp_cap;
    int *list, *nlist; // the systems handed to divide and conquer
};

constexpr int QL_THREADS = 64;    // ql_kernel's block

template <typename T> struct ql_args {
    int n;
    int64_t batch;
    const T *d, *e;   // the tridiagonal input, as eig_args
    const int *hinfo; // Householder info or nullptr
    T *w;
    int *count, *info;
    bsym_select sel;
    ql_record<T> rec; // rot == nullptr: values only
    int perfect;      // with the record: a values-only pass first, its eigenvalues the first shifts
};

// ql_kernel's shared elements a thread: d and e, and with perfect shifts
// their copy for the values-only pass; odd.
__host__ __device__ inline int ql_stride(int n, bool perfect) { return (perfect ? 4 : 2) * n + 1; }

// One thread per system; its d and e in shared memory at an odd stride
// (2n + 1), so that the lanes of a warp, at any one index, hit distinct banks.
template <typename T, bool RECORD>
__global__ void __launch_bounds__(QL_THREADS) ql_kernel(ql_args<T> a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= a.batch)
        return; // no barriers in this kernel
    const int n = a.n;
    T *d = reinterpret_cast<T *>(smem) + (size_t)threadIdx.x * ql_stride(n, RECORD && a.perfect), *e = d + n;
    for (int i = 0; i < n; i++) {
        d[i] = a.d[k * n + i];
        e[i] = i + 1 < n ? a.e[k * (n - 1) + i] : T(0);
    }
    int misc[8];
    typedef cap32::te<T> te;
    typename te::ws ws;
    ws.d = d;
    ws.e = e;
    ws.D = e; // the sorted eigenvalues replace e once QL is done
    ws.misc = misc;
    te::scale(&ws, n);
    if (a.hinfo != nullptr && a.hinfo[k] != 0)
        misc[TE_FINITE] = 0;
    te::select(&ws, n, a.sel);

    int nsw = 0;
    T *lam = nullptr; // perfect shifts: the eigenvalues of a values-only pass on a copy
    if (RECORD && a.perfect) {
        T *d2 = e + n, *e2 = d2 + n;
        for (int i = 0; i < n; i++) {
            d2[i] = d[i];
            e2[i] = e[i];
        }
        if (ql_iterate<T, false>(d2, e2, n, nullptr, nullptr, 0, 0, &nsw) == 0)
            lam = d2;
    }
    const int fail = ql_iterate<T, RECORD>(d, e, n, RECORD ? a.rec.rot + k * a.rec.rot_cap : nullptr,
                                           RECORD ? a.rec.swp + k * a.rec.swp_cap : nullptr, a.rec.rot_cap,
                                           a.rec.swp_cap, &nsw, lam);
    if (RECORD && fail == QL_OVERFLOW) {
        a.rec.meta[k] = make_int2(-1, 0);
        a.rec.list[atomicAdd(a.rec.nlist, 1)] = int(k);
        return;
    }
    // ascending order: eigenvalue j goes to position rank_j (ties by index)
    for (int j = 0; j < n; j++) {
        const T dj = d[j];
        int rk = 0;
        for (int i = 0; i < n; i++)
            rk += (d[i] < dj) | ((d[i] == dj) & (i < j));
        e[rk] = dj;
        if (RECORD)
            a.rec.rank[k * n + j] = rk;
    }
    misc[TE_FAIL] = fail;
    te::dc_select(&ws, n, a.sel);
    te::output(&ws, n, a.w + k * n, nullptr, 0, 1);
    const int count = fail ? 0 : misc[TE_COUNT];
    a.count[k] = count;
    a.info[k] = !misc[TE_FINITE] ? -1 : fail;
    if (RECORD)
        a.rec.meta[k] = make_int2(nsw, misc[TE_FIRST]);
}

template <typename T> struct qlv_args {
    int n;
    int64_t batch;
    const int *count;
    T *V;     // Q on entry (full input), the eigenvectors on exit
    int full; // 1: V holds Q; 0: start from I
    ql_record<T> rec;
};

// The replay's block of rotations (columns) loaded at once, 0 for one load
// a rotation (measured on the H100: blocks pay in double and at NMAX = 64,
// cost 10 % in float up to 32).
template <typename T, int NMAX> __host__ __device__ constexpr int qlv_block()
{
    return sizeof(T) == 8 ? 4 : NMAX > 32 ? 8 : 0;
}

// Block b's rotations (columns b BK .. b BK + BK - 1, clamped to the sweep
// [lo, hi]; b < 0 loads nothing) into buf.
template <int BK, typename T>
__device__ __forceinline__ void qlv_load(ql_rot<T> (&buf)[BK], const ql_rot<T> *p, int b, int lo, int hi)
{
    if (b < 0)
        return;
#pragma unroll
    for (int t = 0; t < BK; t++)
        buf[t] = p[-min(max(b * BK + t, lo), hi)];
}

// The rotation of columns I, I + 1 of a thread's rows (nothing where I + 1
// is past the rows' length: a switch case the replay never jumps to).
template <int I, typename T, int RPL, int NMAX>
__device__ __forceinline__ void qlv_rotate(T (&z)[RPL][NMAX], const ql_rot<T> &cs)
{
    if constexpr (I + 1 < NMAX) {
#pragma unroll
        for (int q = 0; q < RPL; q++) {
            const T f = z[q][I + 1];
            z[q][I + 1] = cs.s * z[q][I] + cs.c * f;
            z[q][I] = cs.c * z[q][I] - cs.s * f;
        }
    }
}

// Thread (system k, lane) owns rows lane + q G, q < RPL, G = NMAX / RPL.
template <typename T, int NMAX, int RPL>
__global__ void __launch_bounds__(128) qlv_kernel(qlv_args<T> a)
{
    constexpr int G = NMAX / RPL;
    const int64_t gid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t k = gid / G;
    const int lane = int(gid % G), n = a.n;
    if (k >= a.batch)
        return; // no barriers in this kernel
    const int2 meta = a.rec.meta[k];
    if (meta.x < 0)
        return; // handed to divide and conquer
    T *V = a.V + (size_t)k * n * n;
    T z[RPL][NMAX];
#pragma unroll
    for (int c = 0; c < NMAX; c++)
#pragma unroll
        for (int q = 0; q < RPL; q++) {
            const int r = lane + q * G;
            z[q][c] = c < n && r < n ? (a.full ? V[r + (size_t)c * n] : T(r == c)) : T(0);
        }
    // the sweeps, in the order QL ran them: a jump to column hi, then the
    // rotations down to lo. Rotations come one load each (BK = 0) or in
    // blocks of BK columns, loaded one block ahead into buf[block parity] (a
    // block's loads are independent and clamped to the sweep, so none waits
    // on a branch).
    constexpr int BK = qlv_block<T, NMAX>(), QB = BK > 0 ? BK : 1;
    const int *swp = a.rec.swp + k * a.rec.swp_cap;
    const ql_rot<T> *rot = a.rec.rot + k * a.rec.rot_cap;
    ql_rot<T> buf[2][QB];
    for (int w = 0; w < meta.x; w++) {
        const int h = swp[w], hi = h & 0xffff, lo = hi - (h >> 16) + 1;
        const ql_rot<T> *p = rot + hi; // column i's rotation at p[-i]
        if constexpr (BK > 0) {
            const int hb = hi / QB;
            if (hb & 1) {
                qlv_load<QB>(buf[1], p, hb, lo, hi);
                qlv_load<QB>(buf[0], p, hb - 1, lo, hi);
            } else {
                qlv_load<QB>(buf[0], p, hb, lo, hi);
                qlv_load<QB>(buf[1], p, hb - 1, lo, hi);
            }
        }
        switch (hi) {
#define QLV_CASE(I)                                                                                 \
    case (I):                                                                                       \
        if constexpr (BK == 0) {                                                                    \
            qlv_rotate<(I)>(z, p[-(I)]);                                                            \
        } else {                                                                                    \
            qlv_rotate<(I)>(z, buf[((I) / QB) & 1][(I) % QB]);                                     \
        }                                                                                           \
        if ((I) == lo)                                                                              \
            break;                                                                                  \
        if constexpr (BK > 0) {                                                                     \
            if ((I) % QB == 0 && (I) >= 2 * QB)                                                     \
                qlv_load<QB>(buf[((I) / QB) & 1], p, (I) / QB - 2, lo, hi);                         \
        }
#define QLV_CASE8(I)                                                                                \
    QLV_CASE(I + 7) QLV_CASE(I + 6) QLV_CASE(I + 5) QLV_CASE(I + 4) QLV_CASE(I + 3) QLV_CASE(I + 2)   \
    QLV_CASE(I + 1) QLV_CASE(I)
            QLV_CASE(62) QLV_CASE(61) QLV_CASE(60) QLV_CASE(59) QLV_CASE(58) QLV_CASE(57) QLV_CASE(56)
            QLV_CASE8(48) QLV_CASE8(40) QLV_CASE8(32) QLV_CASE8(24) QLV_CASE8(16) QLV_CASE8(8) QLV_CASE8(0)
#undef QLV_CASE8
#undef QLV_CASE
        default:
            break;
        }
        rot += hi - lo + 1;
    }
    // column c (eigenvalue c) goes to position rank_c - first when selected;
    // NaN in the columns past the count (te_dc_output_'s rule)
    const int count = a.count[k], first = meta.y;
    const int *rank = a.rec.rank + k * n;
#pragma unroll
    for (int c = 0; c < NMAX; c++) {
        if (c >= n)
            break;
        const int col = rank[c] - first;
        if (col >= 0 && col < count)
#pragma unroll
            for (int q = 0; q < RPL; q++)
                if (lane + q * G < n)
                    V[lane + q * G + (size_t)col * n] = z[q][c];
    }
    for (int col = count; col < n; col++)
#pragma unroll
        for (int q = 0; q < RPL; q++)
            if (lane + q * G < n)
                V[lane + q * G + (size_t)col * n] = T(NAN);
}
