/*
 * cuda_absent.c -- the CUDA backend's entry points in a build without CUDA:
 * they report that the build has no GPU support. Empty in a CUDA build.
 */
#include "../cuda/bsym_cuda.h"

#ifndef BSYM_WITH_CUDA
#include <stdio.h>
#include <string.h>

void bsym_cuda_query(bsym_device_info *info)
{
    info->built_with_cuda = 0;
    info->gpu_available = 0;
    snprintf(info->reason, sizeof info->reason,
             "batchsym was built without CUDA (no nvcc found, or BSYM_CUDA=0)");
}

void bsym_cuda_state_free(void *state)
{
    (void)state;
}

static bsym_status absent(char *msg, size_t msglen)
{
    snprintf(msg, msglen, "batchsym was built without CUDA");
    return BSYM_ERR_NODEVICE;
}

bsym_status bsym_cuda_ldlt_d(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                             const double *A, double *B, int *info,
                             bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)nrhs; (void)batch; (void)A; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_ldlt_s(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                             const float *A, float *B, int *info,
                             bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)nrhs; (void)batch; (void)A; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}
bsym_status bsym_cuda_tridiagonalize_d(void **state, char uplo, int64_t n, int64_t batch,
                                       const double *A, double *d, double *e, double *Q, int *info,
                                       bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)batch; (void)A; (void)d; (void)e; (void)Q; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_tridiagonalize_s(void **state, char uplo, int64_t n, int64_t batch,
                                       const float *A, float *d, float *e, float *Q, int *info,
                                       bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)batch; (void)A; (void)d; (void)e; (void)Q; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_hhsolve_d(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                                const double *A, double *B, int *info,
                                bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)nrhs; (void)batch; (void)A; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_hhsolve_s(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                                const float *A, float *B, int *info,
                                bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)nrhs; (void)batch; (void)A; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_pcr_d(void **state, int64_t n, int64_t nrhs, int64_t batch, const double *dl,
                            const double *d, const double *du, double *B, int *info,
                            bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)n; (void)nrhs; (void)batch; (void)dl; (void)d; (void)du; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_pcr_s(void **state, int64_t n, int64_t nrhs, int64_t batch, const float *dl,
                            const float *d, const float *du, float *B, int *info,
                            bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen)
{
    (void)state; (void)n; (void)nrhs; (void)batch; (void)dl; (void)d; (void)du; (void)B; (void)info;
    (void)interrupt; (void)idata;
    return absent(msg, msglen);
}
bsym_status bsym_cuda_eig_d(void **state, char uplo, int64_t n, int64_t batch, const double *A,
                            const double *d, const double *e, const bsym_select *sel, double *w,
                            double *V, int *count, int *info, bsym_interrupt_fn interrupt,
                            void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)batch; (void)A; (void)d; (void)e; (void)sel; (void)w;
    (void)V; (void)count; (void)info; (void)interrupt; (void)idata;
    return absent(msg, msglen);
}

bsym_status bsym_cuda_eig_s(void **state, char uplo, int64_t n, int64_t batch, const float *A,
                            const float *d, const float *e, const bsym_select *sel, float *w,
                            float *V, int *count, int *info, bsym_interrupt_fn interrupt,
                            void *idata, char *msg, size_t msglen)
{
    (void)state; (void)uplo; (void)n; (void)batch; (void)A; (void)d; (void)e; (void)sel; (void)w;
    (void)V; (void)count; (void)info; (void)interrupt; (void)idata;
    return absent(msg, msglen);
}
#define SX_ABSENT(P, TT)                                                                         \
    bsym_status bsym_cuda_solvex_##P(void **state, const bsym__sx_job *job, int64_t batch,       \
                                     const TT *A, TT *B, int *info, int *rank, int *used,        \
                                     bsym__sx_stats *stats, bsym_interrupt_fn interrupt,         \
                                     void *idata, char *msg, size_t msglen)                     \
    {                                                                                           \
        (void)state; (void)job; (void)batch; (void)A; (void)B; (void)info; (void)rank;          \
        (void)used; (void)stats; (void)interrupt; (void)idata;                                  \
        return absent(msg, msglen);                                                             \
    }                                                                                           \
    bsym_status bsym_cuda_lsfit_##P(void **state, const bsym__sx_job *job, int64_t m,            \
                                    int64_t batch, const TT *X, const TT *Y, const TT *w,       \
                                    TT *beta, TT *rss, int *info, int *rank, int *used,         \
                                    bsym__sx_stats *stats, bsym_interrupt_fn interrupt,          \
                                    void *idata, char *msg, size_t msglen)                      \
    {                                                                                           \
        (void)state; (void)job; (void)m; (void)batch; (void)X; (void)Y; (void)w; (void)beta;    \
        (void)rss; (void)info; (void)rank; (void)used; (void)stats; (void)interrupt;            \
        (void)idata;                                                                            \
        return absent(msg, msglen);                                                             \
    }
SX_ABSENT(d, double)
SX_ABSENT(s, float)
#else
typedef int bsym_cuda_present; /* ISO C wants a non-empty translation unit */

#endif
