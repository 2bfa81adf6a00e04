// common.cuh -- what the CUDA files share: error checks that turn a failing
// CUDA call into a bsym_status with a message, the chunked host <-> device
// pipeline, and the templates of the backend table (backend.cu) and of the
// device-resident launches one file uses from another, each defined in its
// family's .cu and instantiated there for BSYM_CUDA_FOR_EACH_TYPE; and, for
// the files that define BSYM_CUDA_STRATEGY_NUMERICS before including it
// (strategy.cu, ldlt.cu), the strategy's per-system numerics.
#ifndef BSYM_COMMON_CUH
#define BSYM_COMMON_CUH

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "bsym_cuda.h"
#include "prec.cuh"

// Writes "what: CUDA's message" to msg and returns BSYM_ERR_CUDA (or
// BSYM_ERR_NOMEM for an allocation failure).
static inline bsym_status bsym_cuda_fail(cudaError_t err, const char *what, char *msg, size_t msglen)
{
    if (msg != nullptr && msglen > 0)
        std::snprintf(msg, msglen, "%s: %s", what, cudaGetErrorString(err));
    return err == cudaErrorMemoryAllocation ? BSYM_ERR_NOMEM : BSYM_ERR_CUDA;
}

// Evaluates a CUDA call; on failure returns its status from the enclosing
// function (which must have msg and msglen in scope).
#define BSYM_CUDA_TRY(call)                                                     \
    do {                                                                        \
        cudaError_t bsym_err_ = (call);                                         \
        if (bsym_err_ != cudaSuccess)                                           \
            return bsym_cuda_fail(bsym_err_, #call, msg, msglen);               \
    } while (0)

// One per-system array that a chunked call moves between host and device.
// in: host source (NULL when the kernel only writes it); out: host
// destination (NULL when the kernel only reads it); in == out for in/out;
// both NULL: device scratch. bytes_per_system: the kernels' bytes on the
// device. Typed arrays (host_data, host_matrix below) also say:
//   dsize, hsize  element bytes on the device and on the host (4 and 8: the
//                 device computes in float on double host data; the
//                 pipeline converts while it packs and unpacks);
//   tri_n, uplo   an input n x n symmetric matrix of which only the uplo
//                 triangle crosses the link (packed by columns; the device
//                 expands it to both triangles before the kernels run);
//   parts         reals per element of such a matrix: 1, or 2 for a complex
//                 Hermitian one (an element's real and imaginary parts travel
//                 together; the expansion conjugates the mirrored triangle).
struct bsym_array {
    const void *in;
    void *out;
    size_t bytes_per_system;
    int dsize = 0, hsize = 0;
    int tri_n = 0;
    char uplo = 0;
    int parts = 1;
};

// The pipeline's view of an element type: complex elements (bsym_cuda::cx<R>,
// below) travel as pairs of reals, R each, so that the conversion between
// the host's and the device's precisions is the reals' (ZC as DS).
namespace bsym_cuda {
template <typename R> struct cx;
}
template <typename T> struct pipeline_part {
    typedef T type;
    static constexpr int parts = 1;
};
template <typename R> struct pipeline_part<bsym_cuda::cx<R>> {
    typedef R type;
    static constexpr int parts = 2;
};

// elems elements per system, of type H on the host and T on the device
// (real or complex).
template <typename T, typename H>
bsym_array host_data(const H *in, H *out, size_t elems)
{
    return {in, out, elems * sizeof(T), int(sizeof(typename pipeline_part<T>::type)),
            int(sizeof(typename pipeline_part<H>::type))};
}
// The n x n symmetric input matrices A of type H on the host and T on the
// device (only triangle uplo crosses); complex T: Hermitian matrices.
template <typename T, typename H>
bsym_array host_matrix(const H *A, int64_t n, char uplo)
{
    typedef typename pipeline_part<T>::type P;
    return {A, nullptr, size_t(n * n) * sizeof(T), int(sizeof(P)), int(sizeof(typename pipeline_part<H>::type)),
            int(n), uplo, pipeline_part<T>::parts};
}

// Launches the kernel on `count` systems whose arrays are at dev[i] (in the
// order given to bsym_pipeline) on stream s; returns a status.
typedef bsym_status (*bsym_chunk_fn)(void *arg, void *const *dev, int64_t count, cudaStream_t s,
                                     char *msg, size_t msglen);

// Moves `batch` systems through the current device in chunks (device.cu:
// pinned staging reused across calls, host packing and the copies and
// kernels of consecutive chunks overlapped), the kernels through `launch`.
// Polls x->interrupt between chunks. waits: `launch` waits on the stream
// (reads results back between its steps), so each chunk is issued from a
// thread of its own. per_sm: for a compute-bound kernel, the systems one
// multiprocessor holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor
// times systems a block); chunks then hold at least a few full waves of the
// device, whatever their link bytes. 0: chunks sized by link bytes only.
bsym_status bsym_pipeline(const bsym__exec *x, const bsym_array *arrays, int narrays, int64_t batch,
                          bsym_chunk_fn launch, void *arg, bool waits = false, int per_sm = 0);

namespace bsym_cuda {

// ---- the backend table's rows (host arrays in and out, chunked through the
// pipeline; see core/backend.h) ----
void query(bsym_device_info *info);  // device.cu
void release(void *state);           // device.cu
int devices();                       // device.cu: usable devices visible
bsym_status link_rate(const int *gpus, int n, size_t bytes, double *h2d, double *d2h, char *msg,
                      size_t msglen); // device.cu
// Runs the table entry fn on job j over exec x's GPUs (device.cu): on one,
// or for a large batch a contiguous share on each, in parallel.
bsym_status on_gpus(const bsym__exec *x, const bsym__job *j, bsym__op_fn fn);
// H: the host's element type where it differs (double host data, float
// arithmetic: core/backend.h's BSYM__PREC_DS).
template <typename T, typename H = T> bsym_status ldlt_op(const bsym__exec *x, const bsym__job *j);    // ldlt.cu
template <typename T, typename H = T> bsym_status hhsolve_op(const bsym__exec *x, const bsym__job *j); // householder.cu
template <typename T> bsym_status tridiagonalize_op(const bsym__exec *x, const bsym__job *j); // householder.cu
template <typename T> bsym_status pcr_op(const bsym__exec *x, const bsym__job *j);            // pcr.cu
template <typename T> bsym_status eig_op(const bsym__exec *x, const bsym__job *j);            // eigen.cu
template <typename T, typename H = T> bsym_status strategy_op(const bsym__exec *x, const bsym__job *j); // strategy.cu
template <typename T> bsym_status lsfit_op(const bsym__exec *x, const bsym__job *j);          // strategy.cu
template <typename T, typename H = T> bsym_status pde_op(const bsym__exec *x, const bsym__job *j);     // pde.cu
// Complex elements on the device: R's two parts (the layout of bsym_cfloat
// and bsym_cdouble), the T of the complex columns (indef.cu).
template <typename R> struct cx {
    R re, im;
};
template <typename T, typename H = T> bsym_status bk_op(const bsym__exec *x, const bsym__job *j);   // indef.cu
template <typename T, typename H = T> bsym_status aasen_op(const bsym__exec *x, const bsym__job *j); // indef.cu
template <typename T, typename H = T> bsym_status ldlh_op(const bsym__exec *x, const bsym__job *j); // indef.cu (complex T)
// hetrd.cu (complex T): the Hermitian tridiagonalization and eigensolvers
template <typename T> bsym_status he_tridiagonalize_op(const bsym__exec *x, const bsym__job *j);
template <typename T> bsym_status he_eig_op(const bsym__exec *x, const bsym__job *j);
template <typename T, typename H = T> bsym_status he_hhsolve_op(const bsym__exec *x, const bsym__job *j); // method TRIDIAG
// hetrd.cu's device-resident pieces for strategy.cu (R: the real type; the
// scratch given): the complex TRIDIAG solve, x = Q T^-1 Q^H b (dT, eT:
// nullptr, or n a system receive T, scaled, for the conditioning test), and
// the eigensolver (d, e: n and n - 1 a system; Qs n x n complex, Z n x n
// real; V nullptr: values only).
template <typename R>
bsym_status he_hhsolve_device(char uplo, int n, int nrhs, int64_t batch, const cx<R> *A, cx<R> *B, int *info, R *dT,
                              R *eT, cudaStream_t s, char *msg, size_t msglen);
template <typename R>
bsym_status he_eig_device(char uplo, int n, int64_t batch, const cx<R> *A, R *d, R *e, cx<R> *Qs, R *Z,
                          const bsym_select &sel, R *w, cx<R> *V, int *count, int *info, cudaStream_t s, char *msg,
                          size_t msglen);

// ---- device-resident launches (device pointers, a stream; the benchmarks
// reach them through bsym_cuda.h's C names, bound in backend.cu) ----
// indef.cu: method BUNCH_KAUFMAN or AASEN (real or complex T), or LDLT
// (complex T);
// complex arrays as interleaved pairs of reals.
template <typename T>
bsym_status indef_launch(int method, char uplo, int n, int nrhs, int64_t batch, const void *A, void *B, int *info,
                         cudaStream_t s, char *msg, size_t msglen);
// group = threads per system, 0 = the tuned choice.
template <typename T>
bsym_status ldlt_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, int group,
                        cudaStream_t s, char *msg, size_t msglen);
// d, e (n x batch each) receive T when not NULL. n up to
// BSYM_GPU_HOUSEHOLDER_MAX_N (the block kernel above 64), as for tridiagonalize.
template <typename T>
bsym_status hhsolve_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info, T *d,
                           T *e, cudaStream_t s, char *msg, size_t msglen);
template <typename T>
bsym_status tridiagonalize_launch(char uplo, int n, int64_t batch, const T *A, T *d, T *e, T *Q, int *info,
                                  cudaStream_t s, char *msg, size_t msglen);
template <typename T>
bsym_status pcr_launch(int n, int nrhs, int64_t batch, const T *dl, const T *d, const T *du, T *B,
                       int *info, void *work, int rows, cudaStream_t s, char *msg, size_t msglen);
template <typename T>
bsym_status eig_launch(char uplo, int n, int64_t batch, const T *A, T *d, T *e, const bsym_select &sel, T *w,
                       T *V, int *count, int *info, cudaStream_t s, char *msg, size_t msglen);
// hetrd.cu (complex T; arrays untyped, complex ones as interleaved pairs
// of reals, d, e and w real): the Hermitian tridiagonalization (Q nullptr:
// not formed) and the eigensolver (V nullptr: values only; its scratch
// allocated on the stream).
template <typename T>
bsym_status he_tridiagonalize_launch(char uplo, int n, int64_t batch, const void *A, void *d, void *e, void *Q,
                                     int *info, cudaStream_t s, char *msg, size_t msglen);
template <typename T>
bsym_status he_eig_launch(char uplo, int n, int64_t batch, const void *A, void *w, void *V, const bsym_select &sel,
                          int *count, int *info, cudaStream_t s, char *msg, size_t msglen);
// indef.cu, for strategy.cu: the passes of method AUTO's certificate for
// complex A (the CPU's ldlh_cert_team_one_), sigma_k the shift of system k
// (strategy_shift_, in double as the CPU's), pos_k its verdict:
//  - CERT_CHEAP: LDL^H with positive finite pivots only (info j at the
//    first that is not), the solves, and pos_k POS_YES where the factors
//    certify (min D > sigma B2, strategy_cert_cheap_), POS_UNDECIDED where
//    they cannot tell, POS_NO where a pivot broke down (or info is -1);
//  - CERT_SHIFTED: the systems left POS_UNDECIDED (B, nrhs and info
//    unused): pos_k POS_YES when A_k - sigma_k I has only positive finite
//    LDL^H pivots, else POS_NO.
enum { CERT_NONE, CERT_CHEAP, CERT_SHIFTED };
enum { POS_YES = 0, POS_NO = 1, POS_UNDECIDED = 2 };
template <typename R>
bsym_status ldlh_cert_launch(int cert, char uplo, int n, int nrhs, int64_t batch, const cx<R> *A, cx<R> *B,
                             int *info, const double *sigma, int *pos, cudaStream_t s, char *msg, size_t msglen);
// The certificate of method AUTO's LDL^T start (core/strategy_numerics.h,
// strategy_shift_ and strategy_cert_cheap_), computed by ldlt.cu's
// certifying kernel while it solves: system k is certified when info is 0,
// every pivot of its LDL^T factorization is positive and finite, either the
// cheap form holds (min D > sigma B2, B2 from the comparison matrix of L) or
// the LDL^T factorization of A - sigma I has only positive finite pivots,
// and the backward error of every right-hand side (against B as given) is
// <= tol. Certified: rank n, used LDLT, *solved += 1 (and *cheap += 1 when
// the cheap form certified it; cheap may be NULL). Non-finite input (info
// -1): rank -1, used LDLT. Any other system: k appended to idx (atomically
// through *counter); its rank and used are left to the steps after.
struct ldlt_cert {
    double rcond, tol;
    int *rank, *used;
    int *idx, *counter;
    unsigned long long *solved, *cheap;
};
// mode: 0 the tuned certifying kernel for n; 1 LOCKSTEP, 2 SEQUENTIAL (see
// ldlt.cu; benchmarks), BSYM_ERR_ARG where that one is not built.
template <typename T>
bsym_status ldlt_cert_launch(char uplo, int n, int nrhs, int64_t batch, const T *A, T *B, int *info,
                             const ldlt_cert &cert, int mode, cudaStream_t s, char *msg, size_t msglen);
// The θ-scheme's time loop (pde.cu; bsym_cuda.h says which arrays are
// where). rows: nodes a thread, 0 = the tuned choice.
template <typename T>
bsym_status pde_launch(const bsym_pde *p, const T *final, T *u, int *info, int rows, cudaStream_t s, char *msg,
                       size_t msglen);
template <typename T>
bsym_status strategy_launch(const bsym__strategy *job, int64_t batch, const T *A, T *B, int *info, int *rank,
                            int *used, void *work, bsym__strategy_stats *stats, cudaStream_t s, char *msg,
                            size_t msglen);

// The integer in environment variable `name` (the kernels' measurement and
// test hooks, e.g. eigen.cu's BSYM_EIG_*, indef.cu's BSYM_INDEF_WARP3_MAX),
// or fallback where it is unset or empty.
inline int env_int(const char *name, int fallback)
{
    const char *env = std::getenv(name);
    return env != nullptr && *env != '\0' ? std::atoi(env) : fallback;
}

// ---- device helpers ----

// The cross-warp step of a block-wide reduction: lane 0 of each warp leaves
// its warp's partial v (already reduced over the warp) in red[warp], one
// barrier, then every thread folds the partials in warp order with op and
// gets the same result, bit for bit, so that decisions taken on it are
// uniform across the block. red: one slot a warp, which no thread may still be
// reading from an earlier call: callers alternate buffers, or put a barrier
// after the call before reusing it.
template <typename V, typename Op> __device__ __forceinline__ V block_combine(V v, V *red, Op op)
{
    const int warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if ((threadIdx.x & 31) == 0)
        red[warp] = v;
    __syncthreads(); // every warp's partial is visible
    V r = red[0];
    for (int w = 1; w < warps; w++)
        r = op(r, red[w]);
    return r;
}

} // namespace bsym_cuda

#endif // BSYM_COMMON_CUH

// ---- the strategy's per-system numerics, written once for the CPU and the GPU
// (core/strategy_numerics.h; eigen_numerics.cuh brings tridiag_eig_impl.h,
// whose Sturm counts the conditioning test uses), bound to precision-generic
// names: strategy_berr_(prec_tag<T>(), ...) etc. What a file does not call is
// not compiled.
#if defined(BSYM_CUDA_STRATEGY_NUMERICS) && !defined(BSYM_CUDA_STRATEGY_NUMERICS_DONE)
#define BSYM_CUDA_STRATEGY_NUMERICS_DONE
#define TE_FN static __device__
#define TE_SYNC() __syncwarp()
#define TE_DIV(a, b) ((a) / (b))
#define TE_ROWS_CAP 32
#include "eigen_numerics.cuh"
#undef TE_ROWS_CAP
#include "../core/prec_double.h"
#include "../core/strategy_numerics.h"
#include "../core/prec_end.h"
#include "../core/prec_float.h"
#include "../core/strategy_numerics.h"
#include "../core/prec_end.h"
BSYM_PREC_BIND(strategy_resid_row_)
BSYM_PREC_BIND(strategy_berr_)
BSYM_PREC_BIND(strategy_ill_)
BSYM_PREC_BIND(strategy_shift_)
BSYM_PREC_BIND(strategy_cert_cheap_)
BSYM_PREC_BIND(strategy_tau_)
BSYM_PREC_BIND(strategy_kept_)
BSYM_PREC_BIND(strategy_coef_)
BSYM_PREC_BIND(strategy_apply_row_)
BSYM_PREC_BIND(strategy_wdot_)
BSYM_PREC_BIND(strategy_fit_resid_)
BSYM_PREC_BIND(strategy_mod_)
BSYM_PREC_BIND(strategy_cresid_row_)
BSYM_PREC_BIND(strategy_hrow_norms_)
BSYM_PREC_BIND(strategy_ccoef_)
BSYM_PREC_BIND(strategy_capply_row_)
#endif
