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
//   qlv_kernel (small n: eigen.cu's qls_from, n <= 16 in float, n <= 8 in
//     double; RPL rows a thread, NMAX / RPL threads a system):
//     loads Q (or I) row by row into registers, replays the recorded sweeps
//     on its rows and writes its rows of the selected eigenvectors in
//     ascending order. Its threads never talk to each other: a system's rows
//     are independent under column rotations.
//   qls_kernel (above): the same replay on rows held in shared memory, 32
//     rows a warp, QLS_SWEEPS sweeps a pass over them (a wavefront), their
//     rotations gathered into a table in shared memory (measured faster
//     from n = 17 in float, n = 9 in double).
//
// Why this split: a QL sweep is a chain of dependent rotations, each a few
// dozen operations on scalars. One system a thread runs 32 chains a warp side
// by side; the vector update is then 6 flops a row a rotation from registers,
// with every lane busy. (Divide and conquer, eigen.cu's eig_kernel, keeps a
// warp on one system's serial merge logic.) The cost is a record of about
// n^2 rotations (measured 1.0-1.3 n^2 on random matrices at n = 8..64,
// about 0.8 n^2 at 256): a system whose record would exceed its capacity is
// handed, untouched, to divide and conquer instead (eig_kernel's list mode)
// up to n = 64 (eigen.cu's DC_MAX_N), to qlr_kernel above, so the result
// never depends on the capacity.

#include "ql_iterate.h"

// One sub-batch's record (vectors): per system rot_cap rotations, swp_cap
// sweep headers (hi | count << 16: the rotations of columns hi, hi - 1, ...,
// hi - count + 1, in that order), n sorted positions, and meta = (sweeps or
// -1 when handed to divide and conquer, first selected position).
// A system's slot of rotations is rot_stride long (rot_stride >= rot_cap:
// above n = 64 the slot of a system that overflows is also the workspace of
// its fallback, qlr_kernel).
template <typename T> struct ql_record {
    ql_rot<T> *rot;
    int *swp;
    int *rank;
    int2 *meta;
    int rot_cap, swp_cap;
    int64_t rot_stride;
    int *list, *nlist; // the systems handed to the fallback
};

constexpr int QL_THREADS = 64;    // ql_kernel's block, at most

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

// The start of one system k: d[0..n) and e[0..n) loaded (e[n - 1] = 0),
// scaled by the core's rule, a non-finite Householder input marked, the
// selection's range set; ws (and misc) for the core's helpers.
template <typename T>
__device__ void ql_begin(const ql_args<T> &a, int64_t k, T *d, T *e, int *misc, typename cap32::te<T>::ws &ws)
{
    const int n = a.n;
    for (int i = 0; i < n; i++) {
        d[i] = a.d[k * n + i];
        e[i] = i + 1 < n ? a.e[k * (n - 1) + i] : T(0);
    }
    ws.d = d;
    ws.e = e;
    ws.D = e; // the sorted eigenvalues replace e once QL is done
    ws.misc = misc;
    cap32::te<T>::scale(&ws, n);
    if (a.hinfo != nullptr && a.hinfo[k] != 0)
        misc[TE_FINITE] = 0;
    cap32::te<T>::select(&ws, n, a.sel);
}

// The end of system k after QL (fail: ql_iterate's answer, not an
// overflow): the eigenvalues sorted ascending into ws.D (eigenvalue j to
// position rank_j, ties by index; rank != nullptr gets rank_j), the
// selection applied; with `write`, w, count and info written. Returns the
// count.
template <typename T>
__device__ int ql_finish(const ql_args<T> &a, int64_t k, typename cap32::te<T>::ws &ws, int fail, int *rank,
                         bool write)
{
    const int n = a.n;
    const T *d = ws.d;
    for (int j = 0; j < n; j++) {
        const T dj = d[j];
        int rk = 0;
        for (int i = 0; i < n; i++)
            rk += (d[i] < dj) | ((d[i] == dj) & (i < j));
        ws.D[rk] = dj;
        if (rank != nullptr)
            rank[j] = rk;
    }
    ws.misc[TE_FAIL] = fail;
    cap32::te<T>::dc_select(&ws, n, a.sel);
    const int count = fail ? 0 : ws.misc[TE_COUNT];
    if (write) {
        cap32::te<T>::output(&ws, n, a.w + k * n, nullptr, 0, 1);
        a.count[k] = count;
        a.info[k] = !ws.misc[TE_FINITE] ? -1 : fail;
    }
    return count;
}

// One thread per system; its d and e in shared memory at an odd stride
// (2n + 1), so that the lanes of a warp, at any one index, hit distinct banks.
// blockDim.x <= QL_THREADS (fewer where a block's d and e would not fit).
template <typename T, bool RECORD>
__global__ void __launch_bounds__(QL_THREADS) ql_kernel(ql_args<T> a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= a.batch)
        return; // no barriers in this kernel
    const int n = a.n;
    T *d = reinterpret_cast<T *>(smem) + (size_t)threadIdx.x * ql_stride(n, RECORD && a.perfect), *e = d + n;
    int misc[8];
    typename cap32::te<T>::ws ws;
    ql_begin(a, k, d, e, misc, ws);

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
    const int fail = ql_iterate<T, RECORD>(d, e, n, RECORD ? a.rec.rot + k * a.rec.rot_stride : nullptr,
                                           RECORD ? a.rec.swp + k * a.rec.swp_cap : nullptr, a.rec.rot_cap,
                                           a.rec.swp_cap, &nsw, lam);
    if (RECORD && fail == QL_OVERFLOW) {
        a.rec.meta[k] = make_int2(-1, 0);
        a.rec.list[atomicAdd(a.rec.nlist, 1)] = int(k);
        return;
    }
    ql_finish(a, k, ws, fail, RECORD ? a.rec.rank + k * n : nullptr, true);
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
// a rotation (measured on the H100: blocks pay in double, cost 10 % in
// float).
template <typename T, int NMAX> __host__ __device__ constexpr int qlv_block()
{
    static_assert(NMAX <= 16, "qlv_kernel serves n <= 16 (eigen.cu's qls_from: qls_kernel above)");
    return sizeof(T) == 8 ? 4 : 0;
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
    const ql_rot<T> *rot = a.rec.rot + k * a.rec.rot_stride;
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

// ---- rows in shared memory, and a fallback without a record -----------------

// Rows a warp of qls_kernel; its blocks hold 1 to QLS_WARPS warps (eigen.cu's
// qls_warps: a block of one warp is held to 32 blocks, 32 warps, an SM).
constexpr int QLS_ROWS = 32, QLS_WARPS = 4;

// The sweeps qls_kernel replays in one pass over the rows. Measured on the
// H200 (RESULTS.md, session 34; batch 1e5, vectors, matrices/s, 1 -> 2 -> 4
// sweeps a pass): float n = 32 1.82e7 -> 1.90e7 -> 1.94e7, 33 9.97e6 ->
// 1.09e7 -> 1.15e7, 48 5.08e6 -> 5.44e6 -> 5.56e6, 128 3.95e5 -> 3.66e5 ->
// 3.90e5; double n = 32 1.267e7 -> 1.258e7 -> 1.334e7, 33 6.68e6 -> 7.21e6
// -> 7.65e6, 96 4.55e5 -> 4.66e5 -> 5.04e5, 128 1.67e5 -> 1.69e5 -> 1.85e5
// (one sweep a pass: the kernel before, which streamed the rotations
// through shared memory 32 at a time; the same errors to the digits shown).
constexpr int QLS_SWEEPS = 4;

// A table of a group's steps, QLS_SWEEPS rotations a step (n + QLS_SWEEPS
// steps at most), in elements.
__host__ __device__ inline int qls_table(int n) { return (n + QLS_SWEEPS) * QLS_SWEEPS; }

// qls_kernel's shared bytes a warp at n: its 32 rows and two tables.
template <typename T> __host__ __device__ size_t qls_smem(int n)
{
    return (size_t(QLS_ROWS) * n * sizeof(T) + 2 * size_t(qls_table(n)) * sizeof(ql_rot<T>) + 15) / 16 * 16;
}

// The replay from eigen.cu's qls_from (n = 17 in float, 9 in double) up:
// a warp owns rows [t QLS_ROWS, (t + 1) QLS_ROWS) of one system (warp
// k tiles + t of the grid), all n columns of them in its shared memory,
// column by column (Z[c QLS_ROWS + lane]: a warp's accesses hit distinct
// banks); the rows are independent, the warp syncs only around its tables.
// K = QLS_SWEEPS consecutive sweeps go in one pass over the columns, a
// wavefront (ql_iterate.h's ql_wave_pass): each column of a group's span is
// loaded and stored once for K sweeps instead of once a sweep. The group's
// table (its steps' K rotations each, identities where a sweep does not
// rotate) is gathered from the record by the warp's lanes, coalesced, by
// asynchronous copies while the pass of the group before runs (two tables;
// the headers of the group after that are read a pass ahead too), so that
// no pass waits on the record in global memory. A rotation then costs a row
// (K + 2) / K shared-memory accesses in float (the load and the store of
// its column, shared by the K sweeps; the table read 16 bytes for two
// rotations), against three for a sweep a pass (its column's load and
// store, its rotation's load).
template <typename T>
__global__ void __launch_bounds__(QLS_ROWS * QLS_WARPS) qls_kernel(qlv_args<T> a)
{
    constexpr int K = QLS_SWEEPS;
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = a.n, lane = threadIdx.x % QLS_ROWS, wib = threadIdx.x / QLS_ROWS;
    const int tiles = (n + QLS_ROWS - 1) / QLS_ROWS;
    const int64_t unit = int64_t(blockIdx.x) * (blockDim.x / QLS_ROWS) + wib; // this warp's tile
    if (unit >= a.batch * tiles)
        return; // the whole warp (no barrier but __syncwarp)
    unsigned char *own = smem + wib * qls_smem<T>(n);
    T *Z = reinterpret_cast<T *>(own);
    ql_rot<T> *tabs = reinterpret_cast<ql_rot<T> *>(own + size_t(QLS_ROWS) * n * sizeof(T));
    const int64_t k = unit / tiles;
    const int r = int(unit % tiles) * QLS_ROWS + lane;
    const int2 meta = a.rec.meta[k];
    if (meta.x < 0)
        return; // handed to the fallback (the whole warp: no barrier is missed)
    T *V = a.V + (size_t)k * n * n;
    for (int c = 0; c < n; c++)
        Z[c * QLS_ROWS + lane] = r < n ? (a.full ? V[r + (size_t)c * n] : T(r == c)) : T(0);
    const int *swp = a.rec.swp + k * a.rec.swp_cap;
    const ql_rot<T> *rot = a.rec.rot + k * a.rec.rot_stride; // rotation j of the system at rot[j]
    // group g's table into tabs + (g % 2) qls_table(n), by asynchronous
    // copies (the identities stored at once), committed as one batch
    auto gather = [&](const ql_wave<K> &g, ql_rot<T> *tab) {
        for (int t = lane; t < g.steps; t += QLS_ROWS)
#pragma unroll
            for (int q = 0; q < K; q++) {
                const int i = ql_wave_index<K>(g, t, q);
                if (i >= 0)
                    __pipeline_memcpy_async(tab + t * K + q, rot + i, sizeof(ql_rot<T>));
                else
                    tab[t * K + q] = ql_identity<T>();
            }
        __pipeline_commit();
    };
    int j = 0, h[K];
    ql_wave_headers<K>(swp, meta.x, 0, h);
    ql_wave<K> g = ql_wave_from<K>(h, j);
    if (meta.x > 0)
        gather(g, tabs);
    ql_wave_headers<K>(swp, meta.x, K, h); // the next group's headers
    for (int w = 0, gi = 0; w < meta.x; w += K, gi++) {
        ql_rot<T> *tab = tabs + (gi % 2) * qls_table(n);
        // the next group's table in flight during this pass (its buffer was
        // read by the last pass: the __syncwarp at the end of the loop), and
        // the headers of the group after it
        ql_wave<K> next{};
        if (w + K < meta.x) {
            next = ql_wave_from<K>(h, j);
            gather(next, tabs + ((gi + 1) % 2) * qls_table(n));
            ql_wave_headers<K>(swp, meta.x, w + 2 * K, h);
        } else {
            __pipeline_commit(); // an empty batch: this group's is the one before
        }
        __pipeline_wait_prior(1); // this lane's copies of this group's table landed
        __syncwarp();             // and every lane's
        ql_wave_pass<T, K>(g, tab, Z + lane, QLS_ROWS);
        __syncwarp(); // the table is read by every lane
        g = next;
    }
    if (r >= n)
        return;
    // column c (eigenvalue c) to position rank_c - first when selected; NaN
    // in the columns past the count (te_dc_output_'s rule)
    const int count = a.count[k], first = meta.y;
    const int *rank = a.rec.rank + k * n;
    for (int c = 0; c < n; c++) {
        const int col = rank[c] - first;
        if (col >= 0 && col < count)
            V[r + (size_t)col * n] = Z[c * QLS_ROWS + lane];
    }
    for (int col = count; col < n; col++)
        V[r + (size_t)col * n] = T(NAN);
}

// Each rotation as QL makes it, on a lane's rows (lane, lane + 32, ...) of
// V (global, column-major: the lanes of a warp touch consecutive entries).
template <typename T> struct qlr_apply {
    T *V;
    int n, lane;
    __device__ void operator()(int i, T c, T s) const
    {
        T *x = V + (size_t)i * n, *y = x + n;
        for (int r = lane; r < n; r += 32) {
            const T xi = x[r], f = y[r];
            y[r] = s * xi + c * f;
            x[r] = c * xi - s * f;
        }
    }
};

// The fallback above n = 64, for a system whose record overflowed (listed
// by ql_kernel; block b takes list entry b, blocks past the list return):
// one warp a system, every lane running the same QL on its own copy of d
// and e (so no lane waits on another) and applying each rotation as it is
// made to its rows of V. Slow (QL's latency is not hidden) but bounded by
// nothing: such systems are rare (none measured on random input). The
// lanes' d and e, and the rows before the final permutation, live in the
// system's record slot (rot_stride rotations: at least 32 (2n + 1) + n^2
// entries, eigen.cu's ql_slot).
template <typename T>
__global__ void __launch_bounds__(32) qlr_kernel(ql_args<T> a, T *V0, int full)
{
    if (int(blockIdx.x) >= *a.rec.nlist)
        return;
    const int64_t k = a.rec.list[blockIdx.x];
    const int n = a.n, lane = threadIdx.x;
    T *slot = reinterpret_cast<T *>(a.rec.rot + k * a.rec.rot_stride);
    T *d = slot + (size_t)lane * (2 * n + 1), *e = d + n, *tmp = slot + (size_t)32 * (2 * n + 1);
    T *V = V0 + (size_t)k * n * n;
    if (!full)
        for (int c = 0; c < n; c++)
            for (int r = lane; r < n; r += 32)
                V[r + (size_t)c * n] = T(r == c);
    int misc[8];
    typename cap32::te<T>::ws ws;
    ql_begin(a, k, d, e, misc, ws);
    int nsw = 0;
    const int fail = ql_iterate<T, false>(d, e, n, nullptr, nullptr, 0, 0, &nsw, nullptr, qlr_apply<T>{V, n, lane});
    int *rank = a.rec.rank + k * n;
    const int count = ql_finish(a, k, ws, fail, lane == 0 ? rank : nullptr, lane == 0);
    __syncwarp(); // lane 0's ranks seen by all
    const int first = misc[TE_FIRST];
    for (int c = 0; c < n; c++)
        for (int r = lane; r < n; r += 32)
            tmp[r + (size_t)c * n] = V[r + (size_t)c * n];
    for (int c = 0; c < n; c++) {
        const int col = rank[c] - first;
        if (col >= 0 && col < count)
            for (int r = lane; r < n; r += 32)
                V[r + (size_t)col * n] = tmp[r + (size_t)c * n];
    }
    for (int col = count; col < n; col++)
        for (int r = lane; r < n; r += 32)
            V[r + (size_t)col * n] = T(NAN);
}
