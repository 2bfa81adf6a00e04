/*
 * bsym_cuda.h -- the CUDA backend as the core sees it: plain C, no CUDA
 * headers. In a build without CUDA (BSYM_WITH_CUDA undefined) the same
 * functions come from core/cuda_absent.c and report that no GPU exists.
 */
#ifndef BSYM_CUDA_H
#define BSYM_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "../core/batchsym.h"
#include "../core/internal.h" /* bsym__strategy, bsym__strategy_stats */

#ifdef __cplusplus
extern "C" {
#endif

/* Fills the CUDA part of *info (built_with_cuda, gpu_available, device 0's
 * properties, reason). Never fails, also with no driver installed. */
void bsym_cuda_query(bsym_device_info *info);

/* Releases the backend's cached state (streams, buffers); NULL is fine. */
void bsym_cuda_state_free(void *state);

/* Batched LDL^T solve of host arrays (layout as bsym_dsolve), chunked through
 * the GPU. *state caches streams and buffers between calls (created on first
 * use). interrupt is polled between chunks from the calling thread. On error
 * a message is written to msg. 1 <= n <= BSYM_GPU_LDLT_MAX_N. */
bsym_status bsym_cuda_ldlt_d(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                             const double *A, double *B, int *info,
                             bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_ldlt_s(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                             const float *A, float *B, int *info,
                             bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);

/* Device-resident launch (benchmarks and tuning): dA, dB, dinfo are device
 * pointers, stream a cudaStream_t (NULL = default stream). group = threads
 * per system (0 = the tuned choice; else one of those listed by
 * bsym_cuda_ldlt_groups). Returns BSYM_ERR_ARG for an unknown group. */
bsym_status bsym_cuda_ldlt_launch_d(char uplo, int n, int nrhs, int64_t batch, const double *dA,
                                    double *dB, int *dinfo, int group, void *stream);
bsym_status bsym_cuda_ldlt_launch_s(char uplo, int n, int nrhs, int64_t batch, const float *dA,
                                    float *dB, int *dinfo, int group, void *stream);
/* Writes up to max group sizes available for n in the given precision
 * ('d' or 's') into groups; returns how many there are (0 for another
 * letter or n outside 1..BSYM_GPU_LDLT_MAX_N). */
int bsym_cuda_ldlt_groups(char precision, int n, int *groups, int max);
/* The group size that group = 0 stands for (0 when there is none). */
int bsym_cuda_ldlt_tuned_group(char precision, int n);
/* Systems of that variant resident on one multiprocessor (-1 on error). */
int bsym_cuda_ldlt_systems_per_sm(char precision, int n, int group);

/* Householder tridiagonalization of host arrays (layout as
 * bsym_dtridiagonalize; Q may be NULL), 1 <= n <= BSYM_GPU_HOUSEHOLDER_MAX_N. */
bsym_status bsym_cuda_tridiagonalize_d(void **state, char uplo, int64_t n, int64_t batch,
                                       const double *A, double *d, double *e, double *Q, int *info,
                                       bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_tridiagonalize_s(void **state, char uplo, int64_t n, int64_t batch,
                                       const float *A, float *d, float *e, float *Q, int *info,
                                       bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
/* BSYM_METHOD_TRIDIAG solves of host arrays (layout as bsym_dsolve),
 * 1 <= n <= BSYM_GPU_HOUSEHOLDER_MAX_N. */
bsym_status bsym_cuda_hhsolve_d(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                                const double *A, double *B, int *info,
                                bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_hhsolve_s(void **state, char uplo, int64_t n, int64_t nrhs, int64_t batch,
                                const float *A, float *B, int *info,
                                bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
/* Tridiagonal solves of host arrays (layout as bsym_dtridiag_solve; du NULL
 * for symmetric), 1 <= n <= BSYM_GPU_PCR_MAX_N. */
bsym_status bsym_cuda_pcr_d(void **state, int64_t n, int64_t nrhs, int64_t batch, const double *dl,
                            const double *d, const double *du, double *B, int *info,
                            bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_pcr_s(void **state, int64_t n, int64_t nrhs, int64_t batch, const float *dl,
                            const float *d, const float *du, float *B, int *info,
                            bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);

/* Device-resident launches (benchmarks): device pointers, stream a
 * cudaStream_t (NULL = default stream). Inputs are read only, B is
 * overwritten by the solutions. The tridiagonal solve needs a device
 * workspace of bsym_cuda_pcr_workspace bytes (0: dwork may be NULL). */
/* hhsolve: dd and de (n x batch each, n per system) receive T scaled by a
 * power of two when not NULL (the automatic solve's conditioning test). */
bsym_status bsym_cuda_hhsolve_launch_d(char uplo, int n, int nrhs, int64_t batch, const double *dA,
                                       double *dB, int *dinfo, double *dd, double *de, void *stream);
bsym_status bsym_cuda_hhsolve_launch_s(char uplo, int n, int nrhs, int64_t batch, const float *dA,
                                       float *dB, int *dinfo, float *dd, float *de, void *stream);
bsym_status bsym_cuda_tridiagonalize_launch_d(char uplo, int n, int64_t batch, const double *dA,
                                              double *dd, double *de, double *dQ, int *dinfo,
                                              void *stream);
bsym_status bsym_cuda_tridiagonalize_launch_s(char uplo, int n, int64_t batch, const float *dA,
                                              float *dd, float *de, float *dQ, int *dinfo,
                                              void *stream);
size_t bsym_cuda_pcr_workspace(char precision, int n, int nrhs, int64_t batch);
bsym_status bsym_cuda_pcr_launch_d(int n, int nrhs, int64_t batch, const double *ddl, const double *dd,
                                   const double *ddu, double *dB, int *dinfo, void *dwork, void *stream);
bsym_status bsym_cuda_pcr_launch_s(int n, int nrhs, int64_t batch, const float *ddl, const float *dd,
                                   const float *ddu, float *dB, int *dinfo, void *dwork, void *stream);

/* Eigensolvers of host arrays (layout as bsym_dsyev when A != NULL, else as
 * bsym_dstev with d, e), 1 <= n <= BSYM_GPU_EIGEN_MAX_N; sel is never NULL,
 * V and count may be NULL. */
bsym_status bsym_cuda_eig_d(void **state, char uplo, int64_t n, int64_t batch, const double *A,
                            const double *d, const double *e, const bsym_select *sel, double *w,
                            double *V, int *count, int *info, bsym_interrupt_fn interrupt,
                            void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_eig_s(void **state, char uplo, int64_t n, int64_t batch, const float *A,
                            const float *d, const float *e, const bsym_select *sel, float *w,
                            float *V, int *count, int *info, bsym_interrupt_fn interrupt,
                            void *idata, char *msg, size_t msglen);
/* Device-resident launch (benchmarks): dA full input or NULL; dd (n x batch)
 * and de ((n-1) x batch, may be NULL for n = 1) are the tridiagonal input when
 * dA is NULL, and scratch that the Householder reduction writes otherwise;
 * dV NULL for values only; dcount and dinfo batch ints. */
bsym_status bsym_cuda_eig_launch_d(char uplo, int n, int64_t batch, const double *dA, double *dd,
                                   double *de, const bsym_select *sel, double *dw, double *dV,
                                   int *dcount, int *dinfo, void *stream);
bsym_status bsym_cuda_eig_launch_s(char uplo, int n, int64_t batch, const float *dA, float *dd,
                                   float *de, const bsym_select *sel, float *dw, float *dV,
                                   int *dcount, int *dinfo, void *stream);

/* bsym_*solvex with method EIGEN or AUTO (strategy.cu) on host arrays
 * (layout as bsym_dsolve; rank and used batch ints), 1 <= n <=
 * BSYM_GPU_EIGEN_MAX_N; *stats accumulated. */
bsym_status bsym_cuda_strategy_d(void **state, const bsym__strategy *job, int64_t batch, const double *A,
                               double *B, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                               bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_strategy_s(void **state, const bsym__strategy *job, int64_t batch, const float *A,
                               float *B, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                               bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
/* bsym_*lsfit (job->n = p <= BSYM_GPU_EIGEN_MAX_N, job->nrhs responses) on
 * host arrays; w and rss may be NULL. */
bsym_status bsym_cuda_lsfit_d(void **state, const bsym__strategy *job, int64_t m, int64_t batch,
                              const double *X, const double *Y, const double *w, double *beta,
                              double *rss, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                              bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
bsym_status bsym_cuda_lsfit_s(void **state, const bsym__strategy *job, int64_t m, int64_t batch,
                              const float *X, const float *Y, const float *w, float *beta,
                              float *rss, int *info, int *rank, int *used, bsym__strategy_stats *stats,
                              bsym_interrupt_fn interrupt, void *idata, char *msg, size_t msglen);
/* Device-resident launch (benchmarks): dA, dB, dinfo, drank, dused device
 * arrays of `batch` systems, dwork bsym_cuda_strategy_workspace bytes. The
 * call synchronizes with the stream once (the count of systems redone). */
size_t bsym_cuda_strategy_workspace(char precision, int n, int nrhs, int64_t batch);
bsym_status bsym_cuda_strategy_launch_d(const bsym__strategy *job, int64_t batch, const double *dA,
                                      double *dB, int *dinfo, int *drank, int *dused, void *dwork,
                                      bsym__strategy_stats *stats, void *stream);
bsym_status bsym_cuda_strategy_launch_s(const bsym__strategy *job, int64_t batch, const float *dA,
                                      float *dB, int *dinfo, int *drank, int *dused, void *dwork,
                                      bsym__strategy_stats *stats, void *stream);

#ifdef __cplusplus
}
#endif
#endif
