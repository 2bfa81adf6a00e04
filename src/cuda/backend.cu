// backend.cu -- the CUDA backend's table (core/backend.h), and the C names of
// its device-resident launches (bsym_cuda.h): the one place where the
// backend's templates are bound to precisions by name.
#include "common.cuh"

using namespace bsym_cuda;

// A table entry: the template fn<T> (or fn<T, H>) run on the call's GPUs
// (device.cu's on_gpus: one, or a share of a large batch on each).
template <bsym__op_fn F> bsym_status gpus(const bsym__exec *x, const bsym__job *j) { return on_gpus(x, j, F); }

// A row of the table: one operation family in every type the backend is
// built for, in the columns of bsym__prec (s, d, c, z, ds, zc); the solves
// and the PDE solver also take double data to compute in float (BSYM__PREC_DS: the pipeline
// converts while it packs and unpacks, so only floats cross the link).
// Complex columns: Bunch-Kaufman, Aasen, and LDL^H in the LDL^T row
// (indef.cu); the Hermitian tridiagonalization, eigensolvers and TRIDIAG
// solve (hetrd.cu); the truncated-spectrum and automatic solves
// (strategy.cu, on indef.cu's and hetrd.cu's pieces).
// No complex columns elsewhere: the dispatcher answers device GPU with "the
// GPU has no ...; use the CPU" and chooses the CPU under device AUTO.
#define BSYM_CUDA_ROW(fn) {gpus<fn<float>>, gpus<fn<double>>, nullptr, nullptr, nullptr, nullptr}
#define BSYM_CUDA_ROW_DS(fn) {gpus<fn<float>>, gpus<fn<double>>, nullptr, nullptr, gpus<fn<float, double>>, nullptr}
#define BSYM_CUDA_ROW_NONE {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr}
// Real columns from fn, complex ones from hfn (no mixed precisions).
#define BSYM_CUDA_ROW_HE(fn, hfn)                                                                      \
    {gpus<fn<float>>, gpus<fn<double>>, gpus<hfn<cx<float>>>, gpus<hfn<cx<double>>>, nullptr, nullptr}
// Real columns and DS from fn, complex ones from hfn (ZC: staged to C by the
// dispatcher).
#define BSYM_CUDA_ROW_DS_HE(fn, hfn)                                                                   \
    {gpus<fn<float>>, gpus<fn<double>>, gpus<hfn<cx<float>>>, gpus<hfn<cx<double>>>, gpus<fn<float, double>>, nullptr}
// Every column, complex ones from cfn (ZC: complex float on complex double).
#define BSYM_CUDA_ROW_ALL(fn, cfn)                                                                     \
    {gpus<fn<float>>,       gpus<fn<double>>,        gpus<cfn<cx<float>>>,                             \
     gpus<cfn<cx<double>>>, gpus<fn<float, double>>, gpus<cfn<cx<float>, cx<double>>>}

extern "C" const bsym__backend bsym__cuda_backend = {
    "CUDA",
    BSYM_DEVICE_GPU,
    0, // the whole batch: the pipeline chunks it and polls the interrupt itself
    {
        // {real, complex}; 0 where the row has no complex columns (has_prec says no first)
        {BSYM_GPU_LDLT_MAX_N, BSYM_GPU_INDEF_MAX_N},        // LDLT (complex: LDL^H, indef.cu)
        {BSYM_GPU_HOUSEHOLDER_MAX_N, BSYM_GPU_HOUSEHOLDER_MAX_N}, // HHSOLVE (complex: hetrd.cu)
        {BSYM_GPU_HOUSEHOLDER_MAX_N, BSYM_GPU_HOUSEHOLDER_MAX_N}, // TRIDIAGONALIZE (complex: hetrd.cu)
        {BSYM_GPU_PCR_MAX_N, 0},                             // PCR
        {BSYM_GPU_EIGEN_MAX_N, BSYM_GPU_EIGEN_MAX_N},        // EIG (complex: hetrd.cu)
        {BSYM_GPU_STRATEGY_MAX_N, BSYM_GPU_STRATEGY_MAX_N},  // STRATEGY (complex too)
        {BSYM_GPU_STRATEGY_MAX_N, 0},                        // LSFIT
        {BSYM_GPU_INDEF_MAX_N, BSYM_GPU_INDEF_MAX_N},        // BK
        {BSYM_GPU_INDEF_MAX_N, BSYM_GPU_INDEF_MAX_N},        // AASEN
        {BSYM_GPU_PDE_MAX_N, 0},                             // PDE
    },
    query,
    release,
    devices,
    link_rate,
    {
        BSYM_CUDA_ROW_ALL(ldlt_op, ldlh_op), // BSYM__OP_LDLT (complex: LDL^H)
        BSYM_CUDA_ROW_ALL(hhsolve_op, he_hhsolve_op), // BSYM__OP_HHSOLVE (complex: hetrd.cu)
        BSYM_CUDA_ROW_HE(tridiagonalize_op, he_tridiagonalize_op), // BSYM__OP_TRIDIAGONALIZE
        BSYM_CUDA_ROW(pcr_op),            // BSYM__OP_PCR
        BSYM_CUDA_ROW_HE(eig_op, he_eig_op), // BSYM__OP_EIG
        BSYM_CUDA_ROW_ALL(strategy_op, strategy_op), // BSYM__OP_STRATEGY
        BSYM_CUDA_ROW(lsfit_op),          // BSYM__OP_LSFIT
        BSYM_CUDA_ROW_ALL(bk_op, bk_op),  // BSYM__OP_BK
        BSYM_CUDA_ROW_ALL(aasen_op, aasen_op), // BSYM__OP_AASEN
        BSYM_CUDA_ROW_DS(pde_op),         // BSYM__OP_PDE
    },
};
static_assert(BSYM__OPS == 10 && BSYM__PRECS == 6, "the CUDA table lists every operation and precision");

// ---- the C names of the device-resident launches (bsym_cuda.h), for one
// precision letter P and type TT; messages are dropped (the status says it) ----
#define BSYM_CUDA_LAUNCH_NAMES(P, TT)                                                                     \
    extern "C" bsym_status bsym_cuda_ldlt_launch_##P(char uplo, int n, int nrhs, int64_t batch,            \
                                                     const TT *dA, TT *dB, int *dinfo, int group,          \
                                                     void *stream)                                        \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return ldlt_launch<TT>(uplo, n, nrhs, batch, dA, dB, dinfo, group,                                \
                               static_cast<cudaStream_t>(stream), msg, sizeof msg);                       \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_ldlt_cert_launch_##P(char uplo, int n, int nrhs, int64_t batch,      \
                                                          const TT *dA, TT *dB, int *dinfo, double rcond, \
                                                          double tol, int *drank, int *dused, int *didx,  \
                                                          int *dcounter, unsigned long long *dcounts,     \
                                                          int mode, void *stream)                         \
    {                                                                                                     \
        char msg[256];                                                                                    \
        const ldlt_cert cert{rcond, tol, drank, dused, didx, dcounter, dcounts, dcounts + 1};             \
        return ldlt_cert_launch<TT>(uplo, n, nrhs, batch, dA, dB, dinfo, cert, mode,                      \
                                    static_cast<cudaStream_t>(stream), msg, sizeof msg);                  \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_hhsolve_launch_##P(char uplo, int n, int nrhs, int64_t batch,         \
                                                        const TT *dA, TT *dB, int *dinfo, TT *dd, TT *de,  \
                                                        void *stream)                                     \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return hhsolve_launch<TT>(uplo, n, nrhs, batch, dA, dB, dinfo, dd, de,                            \
                                  static_cast<cudaStream_t>(stream), msg, sizeof msg);                    \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_tridiagonalize_launch_##P(char uplo, int n, int64_t batch,            \
                                                               const TT *dA, TT *dd, TT *de, TT *dQ,       \
                                                               int *dinfo, void *stream)                  \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return tridiagonalize_launch<TT>(uplo, n, batch, dA, dd, de, dQ, dinfo,                           \
                                         static_cast<cudaStream_t>(stream), msg, sizeof msg);             \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_pcr_launch_##P(int n, int nrhs, int64_t batch, const TT *ddl,         \
                                                    const TT *dd, const TT *ddu, TT *dB, int *dinfo,       \
                                                    void *dwork, int rows, void *stream)                  \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return pcr_launch<TT>(n, nrhs, batch, ddl, dd, ddu, dB, dinfo, dwork, rows,                       \
                              static_cast<cudaStream_t>(stream), msg, sizeof msg);                        \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_eig_launch_##P(char uplo, int n, int64_t batch, const TT *dA, TT *dd, \
                                                    TT *de, const bsym_select *sel, TT *dw, TT *dV,        \
                                                    int *dcount, int *dinfo, void *stream)                \
    {                                                                                                     \
        char msg[256];                                                                                    \
        static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};                                 \
        return eig_launch<TT>(uplo, n, batch, dA, dd, de, sel != nullptr ? *sel : all, dw, dV, dcount,    \
                              dinfo, static_cast<cudaStream_t>(stream), msg, sizeof msg);                 \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_strategy_launch_##P(const bsym__strategy *job, int64_t batch,         \
                                                         const TT *dA, TT *dB, int *dinfo, int *drank,     \
                                                         int *dused, void *dwork,                         \
                                                         bsym__strategy_stats *stats, void *stream)       \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return strategy_launch<TT>(job, batch, dA, dB, dinfo, drank, dused, dwork, stats,                 \
                                   static_cast<cudaStream_t>(stream), msg, sizeof msg);                   \
    }
BSYM_CUDA_LAUNCH_NAMES(s, float)
BSYM_CUDA_LAUNCH_NAMES(d, double)

#define BSYM_CUDA_PDE_NAME(P, TT)                                                                         \
    extern "C" bsym_status bsym_cuda_pde_launch_##P(const bsym_pde *p, const TT *dfinal, TT *du, int *dinfo, \
                                                    int rows, void *stream)                              \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return pde_launch<TT>(p, dfinal, du, dinfo, rows, static_cast<cudaStream_t>(stream), msg,         \
                              sizeof msg);                                                                \
    }
BSYM_CUDA_PDE_NAME(s, float)
BSYM_CUDA_PDE_NAME(d, double)

// indef.cu's launches: complex types as cx<R>, arrays passed untyped.
#define BSYM_CUDA_INDEF_NAME(P, TT)                                                                       \
    extern "C" bsym_status bsym_cuda_indef_launch_##P(int method, char uplo, int n, int nrhs, int64_t batch,  \
                                                      const void *dA, void *dB, int *dinfo, void *stream)    \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return indef_launch<TT>(method, uplo, n, nrhs, batch, dA, dB, dinfo,                              \
                                static_cast<cudaStream_t>(stream), msg, sizeof msg);                      \
    }
BSYM_CUDA_INDEF_NAME(s, float)
BSYM_CUDA_INDEF_NAME(d, double)
BSYM_CUDA_INDEF_NAME(c, cx<float>)
BSYM_CUDA_INDEF_NAME(z, cx<double>)

// hetrd.cu's launches: complex types as cx<R>, arrays passed untyped.
#define BSYM_CUDA_HE_NAMES(P, TT)                                                                         \
    extern "C" bsym_status bsym_cuda_he_tridiagonalize_launch_##P(char uplo, int n, int64_t batch,         \
                                                                  const void *dA, void *dd, void *de,     \
                                                                  void *dQ, int *dinfo, void *stream)     \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return he_tridiagonalize_launch<TT>(uplo, n, batch, dA, dd, de, dQ, dinfo,                        \
                                            static_cast<cudaStream_t>(stream), msg, sizeof msg);          \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_he_eig_launch_##P(char uplo, int n, int64_t batch, const void *dA,    \
                                                       const bsym_select *sel, void *dw, void *dV,        \
                                                       int *dcount, int *dinfo, void *stream)             \
    {                                                                                                     \
        char msg[256];                                                                                    \
        static const bsym_select all = {BSYM_SELECT_ALL, 0, 0, 0.0, 0.0};                                 \
        return he_eig_launch<TT>(uplo, n, batch, dA, dw, dV, sel != nullptr ? *sel : all, dcount, dinfo,  \
                                 static_cast<cudaStream_t>(stream), msg, sizeof msg);                     \
    }                                                                                                     \
    extern "C" bsym_status bsym_cuda_strategy_launch_##P(const bsym__strategy *job, int64_t batch,         \
                                                         const void *dA, void *dB, int *dinfo, int *drank, \
                                                         int *dused, void *dwork,                         \
                                                         bsym__strategy_stats *stats, void *stream)       \
    {                                                                                                     \
        char msg[256];                                                                                    \
        return strategy_launch<TT>(job, batch, static_cast<const TT *>(dA), static_cast<TT *>(dB), dinfo, \
                                   drank, dused, dwork, stats, static_cast<cudaStream_t>(stream), msg,    \
                                   sizeof msg);                                                           \
    }
BSYM_CUDA_HE_NAMES(c, cx<float>)
BSYM_CUDA_HE_NAMES(z, cx<double>)
