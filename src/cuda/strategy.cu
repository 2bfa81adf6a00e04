// strategy.cu -- the truncated-spectrum and automatic solves (bsym_*solvex,
// methods EIGEN and AUTO) on the GPU. Implements Abbas-Turki & Graillat 2017,
// Sect. 5.1 (the truncated spectrum: discard the eigenvalues past a condition
// number cap) and the residual-driven strategy. In detail (bsym_*solvex,
// methods EIGEN and AUTO) and batched least squares (bsym_*lsfit) on the GPU.
// The per-system numerics are those of core/strategy_numerics.h, shared with the
// CPU; the steps of one chunk are those of core/strategy_impl.h, each taking
// only the systems the one before let through:
//   1. (start LDLT) ldlt.cu's certifying kernel solves every system and, in
//      the same pass over A, decides whether it keeps the solution (positive
//      pivots of A - sigma I, the backward error, info 0); the others are
//      listed through an atomic counter, which the host reads (one
//      synchronization) to size the next launches;
//   2. (start LDLT: the listed systems, gathered from the original A and
//      B0; start TRIDIAG: every system, in place) Householder + PCR keeping
//      T, then check_kernel, one warp per system: the backward error (lanes
//      over rows), and cond_kernel, one thread per system: the Sturm-count
//      conditioning test; the systems to redo are listed likewise;
//   3. the listed systems are gathered, eigendecomposed by eigen.cu's
//      kernels, and trunc_kernel (one warp per system) writes the truncated
//      solutions back in place. With start EIGEN every system goes straight
//      to step 3, in place.
// Least squares adds gram_kernel before (G = X^T W X, C = X^T W Y, one block
// per system over tiles of rows) and rss_kernel after (one warp per system).
//
// Complex Hermitian A (T = cx<R>; the CPU's strategy_impl.h under
// BSYM_COMPLEX) takes the same steps with its own pieces: step 1 is LDL^H
// (indef.cu), certified as on the CPU: shift_kernel computes sigma from
// ||A|| (strategy_hrow_norms_), indef.cu's LDL^H solves with positive
// pivots and certifies from the factors where the cheap form holds (min D >
// sigma B2), factoring A - sigma I for the signs of its pivots only where
// it does not, and check_kernel keeps a system whose pivots were positive
// and whose backward error is at most tol; step 2 is hetrd.cu's complex
// Householder solve (x = Q T^-1 Q^H b, T real: the conditioning test is the
// real one); step 3 hetrd.cu's eigensolver and trunc_kernel with x = V
// diag(1/l) V^H b.
// The residual rows and the truncated solution are strategy_numerics.h's
// complex forms, on (re, im) pairs; d, e, w (T and the eigenvalues) are
// real (R) for both.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <type_traits>

#define BSYM_CUDA_STRATEGY_NUMERICS // strategy_berr_ etc. (common.cuh)
#include "common.cuh"

namespace {

#include "team.cuh" // cx<R>'s arithmetic, part_of, finite_t, nan_t, warp_sum, warp_max

constexpr int WARPS = 4; // warps per block of the warp-per-system kernels

// ---- strategy_numerics.h's forms for the element type: as they are for
// real T, the forms on (re, im) pairs for complex T ----
template <typename T> constexpr bool is_complex() { return !std::is_same<T, typename part_of<T>::type>::value; }

template <typename R>
__device__ double resid_row(char uplo, int n, const R *A, const R *x, R b, int i, double *arow)
{
    return strategy_resid_row_(prec_tag<R>(), uplo, n, A, x, b, i, arow);
}
template <typename R>
__device__ double resid_row(char uplo, int n, const cx<R> *A, const cx<R> *x, cx<R> b, int i, double *arow)
{
    return strategy_cresid_row_(prec_tag<R>(), uplo, n, reinterpret_cast<const R *>(A),
                                reinterpret_cast<const R *>(x), double(b.re), double(b.im), i, arow);
}
// |x| in double
template <typename R> __device__ double abs_d(R x) { return fabs(double(x)); }
template <typename R> __device__ double abs_d(cx<R> x) { return strategy_mod_(prec_tag<R>(), double(x.re), double(x.im)); }

template <typename R> __device__ R coef_of(int n, const R *V, const R *b, const R *w, int q, R tau)
{
    return strategy_coef_(prec_tag<R>(), n, V, b, w, q, tau);
}
template <typename R> __device__ cx<R> coef_of(int n, const cx<R> *V, const cx<R> *b, const R *w, int q, R tau)
{
    cx<R> c;
    strategy_ccoef_(prec_tag<R>(), n, reinterpret_cast<const R *>(V), reinterpret_cast<const R *>(b), w, q, tau,
                    &c.re, &c.im);
    return c;
}
template <typename R> __device__ R apply_row(int n, const R *V, const R *coef, int i)
{
    return strategy_apply_row_(prec_tag<R>(), n, V, coef, i);
}
template <typename R> __device__ cx<R> apply_row(int n, const cx<R> *V, const cx<R> *coef, int i)
{
    cx<R> x;
    strategy_capply_row_(prec_tag<R>(), n, reinterpret_cast<const R *>(V), reinterpret_cast<const R *>(coef), i,
                         &x.re, &x.im);
    return x;
}

// Call-wide counters: systems solved, fallbacks, not positive definite.
enum { ST_SOLVED, ST_FALLBACK, ST_NOTSPD, ST_N };

// ---- step 2 -------------------------------------------------------------------------
// The checks of a cheap solve of `count` positions: position j holds system
// map[j] (map null: j itself) solved in place or gathered (A, X, info_in and
// d, e by position); B0 and the results (info, rank, used, and out when the
// positions are gathered) by system.
template <typename T> struct check_args {
    typedef typename part_of<T>::type R;
    char uplo;
    int n, nrhs, start;          // start: the method of this solve (used of a kept system)
    int64_t count;
    double rcond, tol;
    const int *map;
    const T *A, *X;              // by position
    const R *d, *e;              // by position; null: no conditioning test
    const int *info_in;          // by position
    const T *B0;                 // by system
    T *out;                      // by system: where a kept gathered solution goes
    int *info, *rank, *used;     // by system
    int *idx, *counter;          // the systems to redo, and how many
    int *pending;                // by position; 1: residual passed, conditioning test next
    unsigned long long *stats;
    R *ws;                       // by position, 2n each: cond_kernel's scratch
    const int *pos;              // null, or by position: complex LDL^H's certificate (POS_YES: positive pivots)
    __device__ int64_t sys(int64_t j) const { return map != nullptr ? map[j] : j; }
};

template <typename T> __device__ void verdict(const check_args<T> &a, int64_t j, bool redo, int notspd);

template <typename T>
__global__ void __launch_bounds__(32 * WARPS) check_kernel(check_args<T> a)
{
    const int lane = threadIdx.x % 32, n = a.n;
    const int64_t j = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (j >= a.count)
        return; // the whole warp: no shuffle follows for it
    const int64_t k = a.sys(j);
    const int inf = a.info_in[j];
    if (inf == -1) { // non-finite input: reported as it is
        if (lane == 0) {
            a.info[k] = -1;
            a.rank[k] = -1;
            a.used[k] = a.start;
        }
        return;
    }
    bool redo = inf != 0 || (a.pos != nullptr && a.pos[j] != bsym_cuda::POS_YES);
    if (!redo) {
        // backward error, lanes over rows; NaN is tracked apart (fmax drops it)
        const T *A = a.A + j * n * n;
        double worst = 0, anorm = 0;
        bool nan = false;
        for (int r = 0; r < a.nrhs; r++) {
            const T *b = a.B0 + (k * a.nrhs + r) * n, *x = a.X + (j * a.nrhs + r) * n;
            double rmax = 0, xmax = 0, bmax = 0, arow;
            for (int i = lane; i < n; i += 32) {
                const double ri = resid_row(a.uplo, n, A, x, b[i], i, &arow);
                nan |= ri != ri;
                rmax = fmax(rmax, ri);
                anorm = fmax(anorm, arow);
                xmax = fmax(xmax, abs_d(x[i]));
                bmax = fmax(bmax, abs_d(b[i]));
            }
            rmax = warp_max(rmax);
            anorm = warp_max(anorm);
            xmax = warp_max(xmax);
            bmax = warp_max(bmax);
            worst = fmax(worst, strategy_berr_(prec_tag<typename check_args<T>::R>(), rmax, anorm, xmax, bmax));
        }
        nan = __any_sync(ALL_LANES, nan);
        redo = nan || !(worst <= a.tol);
    }
    if (lane != 0)
        return;
    if (redo || a.d == nullptr)
        verdict(a, j, redo, 0);
    else
        a.pending[j] = 1; // the conditioning test decides (cond_kernel)
}

// The verdict on position j: its system listed for step 3, or kept at full
// rank (a gathered solution copied to its place, its info set to 0: an LDL^T
// breakdown may have brought it here).
template <typename T> __device__ void verdict(const check_args<T> &a, int64_t j, bool redo, int notspd)
{
    const int64_t k = a.sys(j);
    if (redo) {
        a.idx[atomicAdd(a.counter, 1)] = int(k);
        return;
    }
    if (a.map != nullptr) {
        const int64_t nb = int64_t(a.n) * a.nrhs;
        for (int64_t i = 0; i < nb; i++)
            a.out[k * nb + i] = a.X[j * nb + i];
        a.info[k] = 0;
    }
    a.rank[k] = a.n;
    a.used[k] = a.start;
    atomicAdd(&a.stats[ST_SOLVED], 1ull);
    if (notspd)
        atomicAdd(&a.stats[ST_NOTSPD], 1ull);
}

// The conditioning test of the positions whose residual passed, one thread
// per position: Sturm counts are serial chains, so lanes take systems (a
// warp per system would issue 32 times the instructions for the same work).
// Its scratch (the scaled T) is in global memory: an array in local memory
// sized for n = 256 would make every launch reserve 4 KB for each thread the
// GPU can hold.
template <typename T>
__global__ void __launch_bounds__(128) cond_kernel(check_args<T> a)
{
    const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= a.count || !a.pending[j])
        return;
    int notspd = 0;
    const bool redo = strategy_ill_(prec_tag<typename check_args<T>::R>(), a.n, a.d + j * a.n, a.e + j * a.n,
                                    a.rcond, a.ws + j * 2 * a.n, &notspd);
    verdict(a, j, redo, notspd);
}

// rank and used of a plain LDL^T or Householder solve (least squares).
__global__ void plain_kernel(int n, int start, int64_t batch, const int *info, int *rank, int *used)
{
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < batch) {
        rank[k] = info[k] == 0 ? n : -1;
        used[k] = start;
    }
}

// ---- step 3 -------------------------------------------------------------------------
// Copies system idx[j] of A and B0 to position j of Ac and Bc; one block per j.
template <typename T>
__global__ void gather_kernel(int nn, int nb, const int *idx, const T *A, const T *B0, T *Ac, T *Bc)
{
    const int64_t j = blockIdx.x, k = idx[j];
    for (int i = threadIdx.x; i < nn; i += blockDim.x)
        Ac[j * nn + i] = A[k * nn + i];
    for (int i = threadIdx.x; i < nb; i += blockDim.x)
        Bc[j * nb + i] = B0[k * nb + i];
}

template <typename T> struct trunc_args {
    typedef typename part_of<T>::type R;
    int n, nrhs, start;
    int64_t count;
    double rcond;
    const int *idx;         // system of position j (null: j itself)
    const T *B;             // right-hand sides by position (may alias X)
    const R *w;             // eigenpairs by position: the values,
    const T *V;             // the vectors
    const int *einfo;       // eigensolver info by position
    T *X;                   // solutions by system
    int *info, *rank, *used;
    unsigned long long *stats;
};

// One warp per position: the coefficients (lanes over pairs) in shared
// memory, then the rows of x (lanes over rows).
template <typename T>
__global__ void __launch_bounds__(32 * WARPS) trunc_kernel(trunc_args<T> a)
{
    __shared__ T coef[WARPS][BSYM_GPU_STRATEGY_MAX_N]; // one row of coefficients per warp
    const int lane = threadIdx.x % 32, wp = threadIdx.x / 32, n = a.n;
    const int64_t j = (int64_t)blockIdx.x * WARPS + wp;
    if (j >= a.count)
        return; // the whole warp
    typedef typename trunc_args<T>::R R;
    const int64_t k = a.idx != nullptr ? a.idx[j] : j;
    const R *w = a.w + j * n;
    const T *V = a.V + j * n * n;
    T *x = a.X + k * n * a.nrhs;
    int inf = a.einfo[j];
    bool finite = true;
    for (int i = lane; i < n * a.nrhs; i += 32)
        finite &= finite_t(a.B[j * n * a.nrhs + i]);
    if (inf == 0 && !__all_sync(ALL_LANES, finite))
        inf = -1;
    if (inf != 0) {
        for (int i = lane; i < n * a.nrhs; i += 32)
            x[i] = nan_t<T>();
        if (lane == 0) {
            a.info[k] = inf;
            a.rank[k] = -1;
            a.used[k] = BSYM_METHOD_EIGEN;
        }
        return;
    }
    const R tau = strategy_tau_(prec_tag<R>(), n, w, a.rcond);
    for (int r = 0; r < a.nrhs; r++) {
        const T *b = a.B + (j * a.nrhs + r) * n;
        for (int q = lane; q < n; q += 32)
            coef[wp][q] = coef_of(n, V, b, w, q, tau);
        __syncwarp(); // the coefficients are complete, and b is read
        for (int i = lane; i < n; i += 32)
            x[r * n + i] = apply_row(n, V, coef[wp], i);
        __syncwarp(); // coef is read before the next right-hand side
    }
    if (lane == 0) {
        int kept = 0;
        for (int q = 0; q < n; q++)
            kept += strategy_kept_(prec_tag<R>(), w[q], tau);
        a.info[k] = 0;
        a.rank[k] = kept;
        a.used[k] = BSYM_METHOD_EIGEN;
        atomicAdd(&a.stats[ST_SOLVED], 1ull);
        if (a.start != BSYM_METHOD_EIGEN || kept < n)
            atomicAdd(&a.stats[ST_FALLBACK], 1ull);
        if (w[0] <= R(0))
            atomicAdd(&a.stats[ST_NOTSPD], 1ull);
    }
}

// ---- the scratch of steps 1 to 3 ----------------------------------------------------
// Per-system arrays, in this order; sizes by strategy_sizes. The last four
// are complex A's only: hetrd.cu's Q (n x n), the eigensolver's Z (n x n
// real), and step 1's shifts and certificate verdicts. (The complex
// eigensolver's reduction, d and e, takes W_D and W_E as the real one does:
// the conditioning test is done with them by then.)
enum { W_B0, W_D, W_E, W_AC, W_BC, W_W, W_V, W_IDX, W_IDX2, W_CNT, W_EINFO, W_COUNTER, W_PEND, W_WS,
       W_Q, W_Z, W_SIG, W_POS, W_N };

template <typename T> struct strategy_bufs {
    typedef typename part_of<T>::type R;
    T *B0;
    R *d, *e;  // T for the conditioning test (the eigensolvers' d, e too)
    T *Ac, *Bc;
    R *w;
    T *V;
    int *idx, *idx2, *cnt, *einfo, *counter, *pending;
    R *ws;
    T *Q;      // complex only, from here on
    R *Z;
    double *sigma; // in double, as the CPU's (the shifted pass rounds it to R)
    int *pos;
};

// Bytes per system of each scratch array of a job (0: unused). The counter
// array holds the two counters of a chunk (steps 1 and 2), so at least two
// ints in all.
template <typename T> void strategy_sizes(const bsym__strategy &job, size_t *b)
{
    typedef typename part_of<T>::type R;
    const size_t n = size_t(job.n), nb = n * size_t(job.nrhs), t = sizeof(T), r = sizeof(R);
    const bool cheap = job.start != BSYM_METHOD_EIGEN, check = cheap && job.check, cplx = is_complex<T>();
    b[W_B0] = check ? nb * t : 0;
    b[W_D] = b[W_E] = n * r; // T for the test, and the real eigensolver's d, e
    b[W_AC] = check ? n * n * t : 0;
    b[W_BC] = check ? nb * t : 0;
    b[W_W] = n * r;
    b[W_V] = n * n * t;
    b[W_IDX] = b[W_IDX2] = b[W_CNT] = b[W_EINFO] = b[W_PEND] = sizeof(int);
    b[W_COUNTER] = 2 * sizeof(int);
    b[W_WS] = check ? 2 * n * r : 0; // cond_kernel's
    b[W_Q] = cplx ? n * n * t : 0;
    b[W_Z] = cplx ? n * n * r : 0;
    const bool cert = cplx && check && job.start == BSYM_METHOD_LDLT;
    b[W_SIG] = cert ? sizeof(double) : 0;
    b[W_POS] = cert ? sizeof(int) : 0;
}

template <typename T> strategy_bufs<T> strategy_from(void *const *p)
{
    typedef typename part_of<T>::type R;
    return strategy_bufs<T>{static_cast<T *>(p[W_B0]),    static_cast<R *>(p[W_D]),     static_cast<R *>(p[W_E]),
                            static_cast<T *>(p[W_AC]),    static_cast<T *>(p[W_BC]),    static_cast<R *>(p[W_W]),
                            static_cast<T *>(p[W_V]),     static_cast<int *>(p[W_IDX]), static_cast<int *>(p[W_IDX2]),
                            static_cast<int *>(p[W_CNT]), static_cast<int *>(p[W_EINFO]),
                            static_cast<int *>(p[W_COUNTER]), static_cast<int *>(p[W_PEND]),
                            static_cast<R *>(p[W_WS]),    static_cast<T *>(p[W_Q]),     static_cast<R *>(p[W_Z]),
                            static_cast<double *>(p[W_SIG]),   static_cast<int *>(p[W_POS])};
}

// ---- the element type's solvers: the real kernels, or complex A's ----------------------
// The plain LDL^T (complex: LDL^H, indef.cu) of `count` systems.
template <typename T>
bsym_status plain_ldlt(const bsym__strategy &job, int64_t count, const T *A, T *B, int *info, cudaStream_t s,
                       char *msg, size_t msglen)
{
    if constexpr (is_complex<T>())
        return bsym_cuda::indef_launch<T>(BSYM_METHOD_LDLT, job.uplo, int(job.n), int(job.nrhs), count, A, B, info, s,
                                          msg, msglen);
    else
        return bsym_cuda::ldlt_launch<T>(job.uplo, int(job.n), int(job.nrhs), count, A, B, info, 0, s, msg, msglen);
}

// Householder + PCR of `count` systems (dT, eT: T for the conditioning
// test, or null); complex: hetrd.cu's solve.
template <typename T>
bsym_status householder(const bsym__strategy &job, int64_t count, const T *A, T *B, int *info,
                        const strategy_bufs<T> &b, typename part_of<T>::type *dT, typename part_of<T>::type *eT,
                        cudaStream_t s, char *msg, size_t msglen)
{
    if constexpr (is_complex<T>())
        return bsym_cuda::he_hhsolve_device<typename part_of<T>::type>(job.uplo, int(job.n), int(job.nrhs), count, A,
                                                                      B, info, dT, eT, s, msg, msglen);
    else
        return bsym_cuda::hhsolve_launch<T>(job.uplo, int(job.n), int(job.nrhs), count, A, B, info, dT, eT, s, msg,
                                            msglen);
}

// The eigenpairs (b.w, b.V) of `count` systems A, info in b.einfo.
template <typename T>
bsym_status eigenpairs(const bsym__strategy &job, int64_t count, const T *A, const strategy_bufs<T> &b,
                       cudaStream_t s, char *msg, size_t msglen)
{
    static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};
    if constexpr (is_complex<T>())
        return bsym_cuda::he_eig_device<typename part_of<T>::type>(job.uplo, int(job.n), count, A, b.d, b.e, b.Q,
                                                                  b.Z, all, b.w, b.V, b.cnt, b.einfo, s, msg, msglen);
    else
        return bsym_cuda::eig_launch<T>(job.uplo, int(job.n), count, A, b.d, b.e, all, b.w, b.V, b.cnt, b.einfo, s,
                                        msg, msglen);
}

// The shift sigma of complex A's certificate, one warp per system (lanes
// over rows): strategy_shift_ from min(||A||_inf, ||A||_F) and max|a_ii|,
// as the CPU's ldlh_cert_team_one_ (strategy_impl.h).
template <typename R>
__global__ void __launch_bounds__(32 * WARPS) shift_kernel(char uplo, int n, int64_t count, const cx<R> *A,
                                                           double rcond, double *sigma)
{
    const int lane = threadIdx.x % 32;
    const int64_t j = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (j >= count)
        return; // the whole warp
    const R *a = reinterpret_cast<const R *>(A + j * n * n);
    double anorm = 0, fro = 0, dmax = 0;
    for (int i = lane; i < n; i += 32) {
        double row, sq;
        strategy_hrow_norms_(prec_tag<R>(), uplo, n, a, i, &row, &sq);
        anorm = fmax(anorm, row);
        fro += sq;
        dmax = fmax(dmax, fabs(double(a[2 * (i + (size_t)i * n)])));
    }
    anorm = warp_max(anorm);
    fro = warp_sum(fro);
    dmax = warp_max(dmax);
    if (lane == 0)
        sigma[j] = strategy_shift_(prec_tag<R>(), n, fmin(anorm, sqrt(fro)), dmax, rcond);
}

// The device counter c, once the stream's work before it is done (the one
// synchronization of a step).
bsym_status read_count(const int *c, cudaStream_t s, int64_t *out, char *msg, size_t msglen)
{
    int h = 0;
    BSYM_CUDA_TRY(cudaMemcpyAsync(&h, c, sizeof(int), cudaMemcpyDeviceToHost, s));
    BSYM_CUDA_TRY(cudaStreamSynchronize(s));
    *out = h;
    return BSYM_OK;
}

// Copies systems idx[0..count-1] of A and B0 to positions 0..count-1 of Ac
// and Bc.
template <typename T>
bsym_status gather(const bsym__strategy &job, int64_t count, const int *idx, const T *A, const strategy_bufs<T> &b,
                   cudaStream_t s, char *msg, size_t msglen)
{
    const int n = int(job.n);
    gather_kernel<T><<<unsigned(count), 128, 0, s>>>(n * n, n * int(job.nrhs), idx, A, b.B0, b.Ac, b.Bc);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// Step 1 of start LDLT: every system by the certifying LDL^T kernel. The
// certified ones (and non-finite input) are final; the others are listed in
// b.idx, their number in *redo.
// Complex A (the CPU's strategy_ldlh_cert_): sigma by shift_kernel; LDL^H
// of A with positive pivots, its solve and the cheap form of the
// certificate from its factors (b.pos, indef.cu's CERT_CHEAP); the signs of
// A - sigma I's pivots only where the cheap form could not tell
// (CERT_SHIFTED); then check_kernel keeps a system whose pivots were
// positive (b.pos POS_YES) and whose backward error is at most tol (no
// conditioning test: the certificate stands for it).
template <typename T>
bsym_status certified_ldlt(const bsym__strategy &job, int64_t count, const T *A, T *B, int *info, int *rank, int *used,
                           const strategy_bufs<T> &b, unsigned long long *stats, int64_t *redo, cudaStream_t s,
                           char *msg, size_t msglen)
{
    if constexpr (is_complex<T>()) {
        typedef typename part_of<T>::type R;
        const int n = int(job.n);
        shift_kernel<R><<<unsigned((count + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(job.uplo, n, count, A, job.rcond,
                                                                                    b.sigma);
        BSYM_CUDA_TRY(cudaGetLastError());
        bsym_status st = bsym_cuda::ldlh_cert_launch<R>(bsym_cuda::CERT_CHEAP, job.uplo, n, int(job.nrhs), count, A,
                                                        B, info, b.sigma, b.pos, s, msg, msglen);
        if (st == BSYM_OK) // the systems the factors of A could not certify
            st = bsym_cuda::ldlh_cert_launch<R>(bsym_cuda::CERT_SHIFTED, job.uplo, n, 0, count, A, nullptr, nullptr,
                                                b.sigma, b.pos, s, msg, msglen);
        if (st != BSYM_OK)
            return st;
        check_args<T> c{job.uplo, n,      int(job.nrhs), BSYM_METHOD_LDLT, count,     job.rcond, job.tol, nullptr,
                        A,        B,      nullptr,       nullptr,          info,      b.B0,      B,       info,
                        rank,     used,   b.idx,         b.counter,        b.pending, stats,     b.ws,    b.pos};
        check_kernel<T><<<unsigned((count + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(c);
        BSYM_CUDA_TRY(cudaGetLastError());
        return read_count(b.counter, s, redo, msg, msglen);
    } else {
        const bsym_cuda::ldlt_cert cert{job.rcond, job.tol, rank, used, b.idx, b.counter, stats + ST_SOLVED, nullptr};
        bsym_status st = bsym_cuda::ldlt_cert_launch<T>(job.uplo, int(job.n), int(job.nrhs), count, A, B, info, cert,
                                                        0, s, msg, msglen);
        return st != BSYM_OK ? st : read_count(b.counter, s, redo, msg, msglen);
    }
}

// Step 2: Householder + PCR (keeping T) on m positions, then the checks; the
// positions are the systems themselves (map null, in place) or the systems
// map[0..m-1] gathered into b.Ac, b.Bc. The systems that fail are listed in
// *list (b.idx in place, b.idx2 gathered), their number in *redo.
template <typename T>
bsym_status checked_tridiag(const bsym__strategy &job, int64_t m, const int *map, const T *A, T *B, int *info,
                            int *rank, int *used, const strategy_bufs<T> &b, unsigned long long *stats,
                            const int **list, int64_t *redo, cudaStream_t s, char *msg, size_t msglen)
{
    const int n = int(job.n), nrhs = int(job.nrhs);
    const T *Am = map != nullptr ? b.Ac : A;
    T *Xm = map != nullptr ? b.Bc : B;
    int *im = map != nullptr ? b.einfo : info;
    int *out_idx = map != nullptr ? b.idx2 : b.idx, *out_counter = b.counter + (map != nullptr);
    bsym_status st = householder<T>(job, m, Am, Xm, im, b, b.d, b.e, s, msg, msglen);
    if (st != BSYM_OK)
        return st;
    check_args<T> c{job.uplo, n,    nrhs, BSYM_METHOD_TRIDIAG, m,    job.rcond, job.tol, map,     Am,
                    Xm,       b.d,  b.e,  im,                  b.B0, B,         info,    rank,    used,
                    out_idx,  out_counter, b.pending, stats, b.ws, nullptr};
    BSYM_CUDA_TRY(cudaMemsetAsync(b.pending, 0, size_t(m) * sizeof(int), s));
    check_kernel<T><<<unsigned((m + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(c);
    BSYM_CUDA_TRY(cudaGetLastError());
    cond_kernel<T><<<unsigned((m + 127) / 128), 128, 0, s>>>(c);
    BSYM_CUDA_TRY(cudaGetLastError());
    *list = out_idx;
    return read_count(out_counter, s, redo, msg, msglen);
}

// Steps 1 to 3 on `count` device-resident systems (see the top of the file):
// start LDLT: certified LDL^T, then checked Householder on the systems not
// certified, then the truncated spectrum on the rest; start TRIDIAG: the
// last two on every system; start EIGEN: the last on every system, in place.
// Synchronizes with the stream once per checked step (to read how many
// systems go on).
template <typename T>
bsym_status strategy_device(const bsym__strategy &job, int64_t count, const T *A, T *B, int *info, int *rank, int *used,
                      const strategy_bufs<T> &b, unsigned long long *stats, cudaStream_t s, char *msg, size_t msglen)
{
    if (count == 0)
        return BSYM_OK;
    const int n = int(job.n);
    const size_t nb = size_t(n) * size_t(job.nrhs);
    int64_t redo = count;
    const T *Ae = A, *Be = B;
    const int *map = nullptr;
    bsym_status st;
    if (job.start != BSYM_METHOD_EIGEN && !job.check) { // a plain cheap solve (least squares' ldlt)
        if (job.start == BSYM_METHOD_LDLT)
            st = plain_ldlt<T>(job, count, A, B, info, s, msg, msglen);
        else
            st = householder<T>(job, count, A, B, info, b, nullptr, nullptr, s, msg, msglen);
        if (st != BSYM_OK)
            return st;
        plain_kernel<<<unsigned((count + 127) / 128), 128, 0, s>>>(n, job.start, count, info, rank, used);
        BSYM_CUDA_TRY(cudaGetLastError());
        return BSYM_OK;
    }
    if (job.start != BSYM_METHOD_EIGEN) {
        if (nb > 0)
            BSYM_CUDA_TRY(cudaMemcpyAsync(b.B0, B, size_t(count) * nb * sizeof(T), cudaMemcpyDeviceToDevice, s));
        BSYM_CUDA_TRY(cudaMemsetAsync(b.counter, 0, 2 * sizeof(int), s));
        int64_t m = count;
        if (job.start == BSYM_METHOD_LDLT) {
            if ((st = certified_ldlt<T>(job, count, A, B, info, rank, used, b, stats, &m, s, msg, msglen)) != BSYM_OK)
                return st;
            if (m == 0)
                return BSYM_OK;
            if ((st = gather<T>(job, m, b.idx, A, b, s, msg, msglen)) != BSYM_OK)
                return st;
            map = b.idx;
        }
        const int *list = nullptr;
        if ((st = checked_tridiag<T>(job, m, map, A, B, info, rank, used, b, stats, &list, &redo, s, msg,
                                     msglen)) != BSYM_OK)
            return st;
        if (redo == 0)
            return BSYM_OK;
        if ((st = gather<T>(job, redo, list, A, b, s, msg, msglen)) != BSYM_OK)
            return st;
        Ae = b.Ac;
        Be = b.Bc;
        map = list;
    }
    if ((st = eigenpairs<T>(job, redo, Ae, b, s, msg, msglen)) != BSYM_OK)
        return st;
    trunc_args<T> t{n, int(job.nrhs), int(job.start), redo, job.rcond, map, Be, b.w, b.V, b.einfo,
                    B, info, rank, used, stats};
    trunc_kernel<T><<<unsigned((redo + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(t);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// ---- least squares -------------------------------------------------------------------
constexpr int GRAM_THREADS = 128;
constexpr int GRAM_ACC = 8;              // outputs per thread per pass
constexpr size_t GRAM_SMEM = 32 * 1024;  // bytes of one row tile

template <typename T> struct ls_args {
    int m, p, nrhs;
    int64_t batch;
    const T *X, *Y, *w; // w may be null
    T *G, *C;           // G: lower triangle; C: p x nrhs (the solve's B)
    T *rss;
    const int *info;
    int tile;           // rows per tile
    int64_t wstride;    // system k's weights at w + k * wstride: m, or 0 (shared)
};

// Rows of one tile for p columns of X and nrhs of Y (and w), or 0 when even
// one row does not fit.
template <typename T> int gram_tile(int p, int nrhs)
{
    const size_t row = size_t(p + nrhs + 1) * sizeof(T);
    const size_t rows = GRAM_SMEM / row;
    return rows == 0 ? 0 : int(rows < 32 ? rows : 32);
}

// One block per system: passes over the outputs (the lower triangle of G,
// then C), GRAM_ACC per thread each, accumulated in double over tiles of
// rows held in shared memory. A negative or non-finite weight makes G(0, 0)
// NaN: the solve then reports the system as non-finite input.
template <typename T>
__global__ void __launch_bounds__(GRAM_THREADS) gram_kernel(ls_args<T> a)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *tile = reinterpret_cast<T *>(smem_raw); // [tile rows] x (p + nrhs + 1), column-major
    __shared__ int badw;
    const int64_t k = blockIdx.x;
    const int m = a.m, p = a.p, nrhs = a.nrhs, tr = a.tile, cols = p + nrhs + 1;
    const T *X = a.X + k * m * p, *Y = a.Y + k * m * nrhs, *w = a.w != nullptr ? a.w + k * a.wstride : nullptr;
    T *G = a.G + k * p * p, *C = a.C + k * p * nrhs;
    const int ntri = p * (p + 1) / 2, nout = ntri + p * nrhs;
    if (threadIdx.x == 0)
        badw = 0;
    for (int o0 = 0; o0 < nout; o0 += GRAM_THREADS * GRAM_ACC) {
        // this thread's outputs: columns (ci, cj) of the tile
        int ci[GRAM_ACC], cj[GRAM_ACC];
        double acc[GRAM_ACC];
#pragma unroll
        for (int q = 0; q < GRAM_ACC; q++) {
            const int o = o0 + q * GRAM_THREADS + threadIdx.x;
            acc[q] = 0;
            ci[q] = cj[q] = -1;
            if (o < ntri) { // packed lower triangle, column by column
                int j = 0, rest = o;
                while (rest >= p - j) {
                    rest -= p - j;
                    j++;
                }
                ci[q] = j + rest;
                cj[q] = j;
            } else if (o < nout) {
                ci[q] = (o - ntri) % p;
                cj[q] = p + (o - ntri) / p;
            }
        }
        for (int r0 = 0; r0 < m; r0 += tr) {
            const int rows = m - r0 < tr ? m - r0 : tr;
            __syncthreads(); // the previous tile is read
            for (int idx = threadIdx.x; idx < rows * cols; idx += GRAM_THREADS) {
                const int r = idx % rows, c = idx / rows;
                T v;
                if (c < p)
                    v = X[(size_t)c * m + r0 + r];
                else if (c < p + nrhs)
                    v = Y[(size_t)(c - p) * m + r0 + r];
                else {
                    v = w != nullptr ? w[r0 + r] : T(1);
                    if (!(v >= T(0) && v <= prec<T>::max))
                        badw = 1;
                }
                tile[r + c * tr] = v;
            }
            __syncthreads(); // the tile is complete
#pragma unroll
            for (int q = 0; q < GRAM_ACC; q++)
                if (ci[q] >= 0)
                    acc[q] += strategy_wdot_(prec_tag<T>(), rows, tile + ci[q] * tr, tile + cj[q] * tr, tile + (p + nrhs) * tr);
        }
#pragma unroll
        for (int q = 0; q < GRAM_ACC; q++) {
            if (ci[q] < 0)
                continue;
            if (cj[q] < p)
                G[ci[q] + cj[q] * p] = T(acc[q]);
            else
                C[ci[q] + (cj[q] - p) * p] = T(acc[q]);
        }
    }
    __syncthreads(); // every G entry is written, badw final
    if (threadIdx.x == 0 && badw)
        G[0] = T(NAN);
}

// One warp per system and response: rss = sum_r w_r (y_r - x_r^T beta)^2.
template <typename T>
__global__ void __launch_bounds__(32 * WARPS) rss_kernel(ls_args<T> a)
{
    const int lane = threadIdx.x % 32;
    const int64_t g = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (g >= a.batch * a.nrhs)
        return; // the whole warp
    const int64_t k = g / a.nrhs, c = g % a.nrhs;
    const int m = a.m, p = a.p;
    const T *X = a.X + k * m * p, *y = a.Y + (k * a.nrhs + c) * m, *beta = a.C + (k * a.nrhs + c) * p;
    double s = 0;
    if (a.info[k] == 0)
        for (int r = lane; r < m; r += 32) {
            const double e = strategy_fit_resid_(prec_tag<T>(), m, p, X, beta, y[r], r);
            s += (a.w != nullptr ? double(a.w[k * a.wstride + r]) : 1.0) * e * e;
        }
    s = warp_sum(s);
    if (lane == 0)
        a.rss[g] = a.info[k] == 0 ? T(s) : T(NAN);
}

// ---- host side ----------------------------------------------------------------------------
// Adds the call-wide counters dev (ST_N, device) to *st (may be NULL), once
// the work of stream s that writes them is done.
bsym_status read_stats(const unsigned long long *dev, cudaStream_t s, bsym__strategy_stats *st, char *msg,
                       size_t msglen)
{
    unsigned long long h[ST_N];
    BSYM_CUDA_TRY(cudaMemcpyAsync(h, dev, sizeof h, cudaMemcpyDeviceToHost, s));
    BSYM_CUDA_TRY(cudaStreamSynchronize(s));
    if (st != nullptr) {
        st->solved += (int64_t)h[ST_SOLVED];
        st->fallback += (int64_t)h[ST_FALLBACK];
        st->not_spd += (int64_t)h[ST_NOTSPD];
    }
    return BSYM_OK;
}

// The call-wide counters of a pipelined call (its chunks have finished when
// add_to reads them).
struct counters {
    unsigned long long *dev = nullptr;
    ~counters() { cudaFree(dev); }
    bsym_status init(char *msg, size_t msglen)
    {
        BSYM_CUDA_TRY(cudaMalloc(&dev, ST_N * sizeof(unsigned long long)));
        BSYM_CUDA_TRY(cudaMemset(dev, 0, ST_N * sizeof(unsigned long long)));
        return BSYM_OK;
    }
    bsym_status add_to(bsym__strategy_stats *st, char *msg, size_t msglen)
    {
        return read_stats(dev, nullptr, st, msg, msglen);
    }
};

// A device copy of `bytes` host bytes, freed with the object (null when empty).
struct device_buffer {
    void *dev = nullptr;
    ~device_buffer() { cudaFree(dev); }
    bsym_status init(const void *src, size_t bytes, char *msg, size_t msglen)
    {
        BSYM_CUDA_TRY(cudaMalloc(&dev, bytes > 0 ? bytes : 1));
        BSYM_CUDA_TRY(cudaMemcpy(dev, src, bytes, cudaMemcpyHostToDevice));
        return BSYM_OK;
    }
};

template <typename T> struct strategy_host_args {
    bsym__strategy job;
    unsigned long long *stats;
    // least squares
    int m;
    bool weights, rss;
    int tile;
    const T *wshared; // weights shared by every system (w_stride 0), on the device; else null
};

// Pipeline arrays of a solve: A, B, info, rank, used, then the W_N scratch.
constexpr int SOLVE_ARRAYS = 5;

template <typename T>
bsym_status strategy_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const strategy_host_args<T> &h = *static_cast<const strategy_host_args<T> *>(arg);
    return strategy_device<T>(h.job, count, static_cast<const T *>(dev[0]), static_cast<T *>(dev[1]),
                        static_cast<int *>(dev[2]), static_cast<int *>(dev[3]), static_cast<int *>(dev[4]),
                        strategy_from<T>(dev + SOLVE_ARRAYS), h.stats, s, msg, msglen);
}

bsym_status size_check(int64_t n, const char *what, char *msg, size_t msglen)
{
    if (n >= 1 && n <= BSYM_GPU_STRATEGY_MAX_N)
        return BSYM_OK;
    std::snprintf(msg, msglen, "%s = %lld is outside the GPU's 1..%d", what, (long long)n, BSYM_GPU_STRATEGY_MAX_N);
    return BSYM_ERR_SIZE;
}

template <typename T, typename H>
bsym_status strategy_host(const bsym__exec *x, const bsym__strategy *job, int64_t batch, const H *A, H *B, int *info,
                          int *rank, int *used, bsym__strategy_stats *stats)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    bsym_status st = size_check(job->n, "n", msg, msglen);
    if (st != BSYM_OK)
        return st;
    counters cnt;
    if ((st = cnt.init(msg, msglen)) != BSYM_OK)
        return st;
    strategy_host_args<T> h{*job, cnt.dev, 0, false, false, 0};
    const size_t nb = size_t(job->n) * size_t(job->nrhs);
    size_t ws[W_N];
    strategy_sizes<T>(*job, ws);
    bsym_array arrays[SOLVE_ARRAYS + W_N] = {
        host_matrix<T>(A, job->n, job->uplo), // complex: the Hermitian triangle, pairs of reals
        host_data<T>(B, B, nb),
        {nullptr, info, sizeof(int)},
        {nullptr, rank, sizeof(int)},
        {nullptr, used, sizeof(int)},
    };
    for (int i = 0; i < W_N; i++)
        arrays[SOLVE_ARRAYS + i] = {nullptr, nullptr, ws[i]};
    st = bsym_pipeline(x, arrays, SOLVE_ARRAYS + W_N, batch, strategy_chunk<T>, &h, true);
    return st != BSYM_OK ? st : cnt.add_to(stats, msg, msglen);
}

// Pipeline arrays of least squares: X, Y, w, beta, rss, info, rank, used, G,
// then the W_N scratch.
enum { L_X, L_Y, L_W, L_BETA, L_RSS, L_INFO, L_RANK, L_USED, L_G, LS_ARRAYS };

template <typename T>
bsym_status lsfit_chunk(void *arg, void *const *dev, int64_t count, cudaStream_t s, char *msg, size_t msglen)
{
    const strategy_host_args<T> &h = *static_cast<const strategy_host_args<T> *>(arg);
    ls_args<T> a{h.m, int(h.job.n), int(h.job.nrhs), count,
                 static_cast<const T *>(dev[L_X]), static_cast<const T *>(dev[L_Y]),
                 !h.weights ? nullptr : h.wshared != nullptr ? h.wshared : static_cast<const T *>(dev[L_W]),
                 static_cast<T *>(dev[L_G]), static_cast<T *>(dev[L_BETA]), static_cast<T *>(dev[L_RSS]),
                 static_cast<const int *>(dev[L_INFO]), h.tile, h.wshared != nullptr ? 0 : h.m};
    const size_t smem = size_t(h.tile) * size_t(a.p + a.nrhs + 1) * sizeof(T);
    gram_kernel<T><<<unsigned(count), GRAM_THREADS, smem, s>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    bsym_status st = strategy_device<T>(h.job, count, a.G, a.C, static_cast<int *>(dev[L_INFO]),
                                  static_cast<int *>(dev[L_RANK]), static_cast<int *>(dev[L_USED]),
                                  strategy_from<T>(dev + LS_ARRAYS), h.stats, s, msg, msglen);
    if (st != BSYM_OK || !h.rss || a.nrhs == 0)
        return st;
    rss_kernel<T><<<unsigned((count * a.nrhs + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(a);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

template <typename T>
bsym_status lsfit_host(const bsym__exec *x, const bsym__strategy *job, int64_t m, int64_t batch, const T *X,
                       const T *Y, const T *w, T *beta, T *rss, int *info, int *rank, int *used,
                       bsym__strategy_stats *stats)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    bsym_status st = size_check(job->n, "p", msg, msglen);
    if (st != BSYM_OK)
        return st;
    const int tile = gram_tile<T>(int(job->n), int(job->nrhs));
    if (tile == 0) {
        std::snprintf(msg, msglen, "p + nrhs = %lld is too many columns for the GPU normal equations",
                      (long long)(job->n + job->nrhs));
        return BSYM_ERR_SIZE;
    }
    counters cnt;
    if ((st = cnt.init(msg, msglen)) != BSYM_OK)
        return st;
    const size_t p = size_t(job->n), k = size_t(job->nrhs), t = sizeof(T), mm = size_t(m);
    // weights shared by every system (w_stride 0): one copy on the device, not one per system
    const bool shared = w != nullptr && job->w_stride == 0;
    device_buffer wsh;
    if (shared && (st = wsh.init(w, mm * t, msg, msglen)) != BSYM_OK)
        return st;
    strategy_host_args<T> h{*job, cnt.dev, int(m), w != nullptr, rss != nullptr, tile,
                      static_cast<const T *>(wsh.dev)};
    size_t ws[W_N];
    strategy_sizes<T>(*job, ws);
    bsym_array arrays[LS_ARRAYS + W_N] = {
        {X, nullptr, mm * p * t},
        {Y, nullptr, mm * k * t},
        {shared ? nullptr : w, nullptr, w != nullptr && !shared ? mm * t : 0},
        {nullptr, beta, p * k * t},
        {nullptr, rss, rss != nullptr ? k * t : 0},
        {nullptr, info, sizeof(int)},
        {nullptr, rank, sizeof(int)},
        {nullptr, used, sizeof(int)},
        {nullptr, nullptr, p * p * t},
    };
    for (int i = 0; i < W_N; i++)
        arrays[LS_ARRAYS + i] = {nullptr, nullptr, ws[i]};
    st = bsym_pipeline(x, arrays, LS_ARRAYS + W_N, batch, lsfit_chunk<T>, &h, true);
    return st != BSYM_OK ? st : cnt.add_to(stats, msg, msglen);
}

// The device-resident launch: the scratch arrays carved from one buffer
// (each at a 256-byte boundary), after the call-wide counters.
const size_t ALIGN = 256;
size_t up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

template <typename T> size_t launch_workspace(const bsym__strategy &job, int64_t batch)
{
    size_t ws[W_N], total = up(ST_N * sizeof(unsigned long long));
    strategy_sizes<T>(job, ws);
    for (int i = 0; i < W_N; i++)
        total += up(ws[i] * size_t(batch));
    return total;
}

template <typename T>
bsym_status strategy_device_launch(const bsym__strategy *job, int64_t batch, const T *A, T *B, int *info, int *rank,
                          int *used, void *work, bsym__strategy_stats *stats, cudaStream_t s, char *msg,
                          size_t msglen)
{
    bsym_status st = size_check(job->n, "n", msg, msglen);
    if (st != BSYM_OK)
        return st;
    size_t ws[W_N];
    strategy_sizes<T>(*job, ws);
    char *base = static_cast<char *>(work);
    unsigned long long *dstats = reinterpret_cast<unsigned long long *>(base);
    void *p[W_N];
    size_t off = up(ST_N * sizeof(unsigned long long));
    for (int i = 0; i < W_N; i++) {
        p[i] = base + off;
        off += up(ws[i] * size_t(batch));
    }
    BSYM_CUDA_TRY(cudaMemsetAsync(dstats, 0, ST_N * sizeof(unsigned long long), s));
    if ((st = strategy_device<T>(*job, batch, A, B, info, rank, used, strategy_from<T>(p), dstats, s, msg, msglen)) != BSYM_OK)
        return st;
    return read_stats(dstats, s, stats, msg, msglen);
}

} // namespace

namespace bsym_cuda {

template <typename T, typename H> bsym_status strategy_op(const bsym__exec *x, const bsym__job *j)
{
    return strategy_host<T>(x, j->strategy, j->batch, static_cast<const H *>(j->A), static_cast<H *>(j->B), j->info,
                            j->rank, j->used, j->stats);
}

template <typename T> bsym_status lsfit_op(const bsym__exec *x, const bsym__job *j)
{
    return lsfit_host<T>(x, j->strategy, j->m, j->batch, static_cast<const T *>(j->X),
                         static_cast<const T *>(j->Y), static_cast<const T *>(j->wts), static_cast<T *>(j->B),
                         static_cast<T *>(j->rss), j->info, j->rank, j->used, j->stats);
}

template <typename T>
bsym_status strategy_launch(const bsym__strategy *job, int64_t batch, const T *A, T *B, int *info, int *rank,
                            int *used, void *work, bsym__strategy_stats *stats, cudaStream_t s, char *msg,
                            size_t msglen)
{
    return strategy_device_launch<T>(job, batch, A, B, info, rank, used, work, stats, s, msg, msglen);
}

#define BSYM_STRATEGY_INSTANTIATE(T)                                                                \
    template bsym_status strategy_op<T>(const bsym__exec *, const bsym__job *);                     \
    template bsym_status lsfit_op<T>(const bsym__exec *, const bsym__job *);                        \
    template bsym_status strategy_launch<T>(const bsym__strategy *, int64_t, const T *, T *, int *, int *, \
                                            int *, void *, bsym__strategy_stats *, cudaStream_t, char *, \
                                            size_t);
BSYM_CUDA_FOR_EACH_TYPE(BSYM_STRATEGY_INSTANTIATE)
template bsym_status strategy_op<float, double>(const bsym__exec *, const bsym__job *);
template bsym_status strategy_op<cx<float>>(const bsym__exec *, const bsym__job *);
template bsym_status strategy_op<cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status strategy_op<cx<float>, cx<double>>(const bsym__exec *, const bsym__job *);
template bsym_status strategy_launch<cx<float>>(const bsym__strategy *, int64_t, const cx<float> *, cx<float> *, int *,
                                                int *, int *, void *, bsym__strategy_stats *, cudaStream_t, char *,
                                                size_t);
template bsym_status strategy_launch<cx<double>>(const bsym__strategy *, int64_t, const cx<double> *, cx<double> *,
                                                 int *, int *, int *, void *, bsym__strategy_stats *, cudaStream_t,
                                                 char *, size_t);

} // namespace bsym_cuda

extern "C" size_t bsym_cuda_strategy_workspace(char precision, int n, int nrhs, int64_t batch)
{
    // the checked LDLT start needs every array any job of n and nrhs uses
    bsym__strategy job{'L', n, nrhs, BSYM_METHOD_LDLT, 1, 0.0, 0.0};
    switch (precision) {
    case 'd': return launch_workspace<double>(job, batch);
    case 'c': return launch_workspace<cx<float>>(job, batch);
    case 'z': return launch_workspace<cx<double>>(job, batch);
    default: return launch_workspace<float>(job, batch);
    }
}
