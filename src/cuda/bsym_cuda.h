/*
 * bsym_cuda.h -- the CUDA backend's device-resident launches, for the
 * benchmarks and tuning tools (inst/bench): plain C, no CUDA headers. The
 * core never includes this file: it reaches the backend only through the
 * table of core/backend.h (cuda/backend.cu). The C names below are bound to
 * the backend's templates in one place, backend.cu.
 */
#ifndef BSYM_CUDA_H
#define BSYM_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "../core/batchsym.h"
#include "../core/backend.h" /* bsym__strategy, bsym__strategy_stats */

#ifdef __cplusplus
extern "C" {
#endif

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

/* Device-resident launches (benchmarks): device pointers, stream a
 * cudaStream_t (NULL = default stream). Inputs are read only, B is
 * overwritten by the solutions. The tridiagonal solve needs a device
 * workspace of bsym_cuda_pcr_workspace bytes (0: dwork may be NULL). */
/* hhsolve and tridiagonalize: n from 1 to BSYM_GPU_HOUSEHOLDER_MAX_N (256;
 * above 64 a block per system; in double near 256 the launch allocates a
 * small per-block workspace on the stream, cudaMallocAsync, and frees it
 * after the kernel). hhsolve: dd and de (n x batch each, n per system)
 * receive T when not NULL (the automatic solve's conditioning test). */
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
/* pcr: rows is the rows a thread of the tile kernel (n > 32): 4, 8 or 16,
 * or 0 for the tuned choice (other values: the tuned choice). */
bsym_status bsym_cuda_pcr_launch_d(int n, int nrhs, int64_t batch, const double *ddl, const double *dd,
                                   const double *ddu, double *dB, int *dinfo, void *dwork, int rows,
                                   void *stream);
bsym_status bsym_cuda_pcr_launch_s(int n, int nrhs, int64_t batch, const float *ddl, const float *dd,
                                   const float *ddu, float *dB, int *dinfo, void *dwork, int rows,
                                   void *stream);

/* Bunch-Kaufman (method BSYM_METHOD_BUNCH_KAUFMAN; s, d, c, z), Aasen
 * (BSYM_METHOD_AASEN; s, d, c, z) and LDL^H without pivoting
 * (BSYM_METHOD_LDLT; c, z only), n <= BSYM_GPU_INDEF_MAX_N:
 * dA n x n x batch (only the uplo triangle read), dB n x nrhs x batch
 * overwritten by the solutions, dinfo batch ints (the CPU's info codes);
 * complex arrays interleaved (bsym_cfloat, bsym_cdouble). */
bsym_status bsym_cuda_indef_launch_s(int method, char uplo, int n, int nrhs, int64_t batch, const void *dA,
                                     void *dB, int *dinfo, void *stream);
bsym_status bsym_cuda_indef_launch_d(int method, char uplo, int n, int nrhs, int64_t batch, const void *dA,
                                     void *dB, int *dinfo, void *stream);
bsym_status bsym_cuda_indef_launch_c(int method, char uplo, int n, int nrhs, int64_t batch, const void *dA,
                                     void *dB, int *dinfo, void *stream);
bsym_status bsym_cuda_indef_launch_z(int method, char uplo, int n, int nrhs, int64_t batch, const void *dA,
                                     void *dB, int *dinfo, void *stream);

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

/* Complex Hermitian (c: complex float, z: complex double; hetrd.cu), n
 * from 1 to 256: dA n x n x batch complex (only the uplo triangle read, the
 * diagonal's imaginary part ignored), dd, de, dw real (n, n - 1 and n a
 * system), dQ and dV complex n x n or NULL (not formed: values only);
 * dcount, dinfo batch ints. The eigensolver allocates its scratch on the
 * stream (cudaMallocAsync) and frees it after its kernels. */
bsym_status bsym_cuda_he_tridiagonalize_launch_c(char uplo, int n, int64_t batch, const void *dA, void *dd,
                                                 void *de, void *dQ, int *dinfo, void *stream);
bsym_status bsym_cuda_he_tridiagonalize_launch_z(char uplo, int n, int64_t batch, const void *dA, void *dd,
                                                 void *de, void *dQ, int *dinfo, void *stream);
bsym_status bsym_cuda_he_eig_launch_c(char uplo, int n, int64_t batch, const void *dA, const bsym_select *sel,
                                      void *dw, void *dV, int *dcount, int *dinfo, void *stream);
bsym_status bsym_cuda_he_eig_launch_z(char uplo, int n, int64_t batch, const void *dA, const bsym_select *sel,
                                      void *dw, void *dV, int *dcount, int *dinfo, void *stream);

/* The certifying LDL^T kernel of method AUTO's LDL^T start alone
 * (benchmarks): solves every system like bsym_cuda_ldlt_launch and decides
 * which keep the solution (common.cuh, ldlt_cert): a certified system gets
 * rank n and used BSYM_METHOD_LDLT in drank, dused; the others are listed in
 * didx (batch ints), their number added to *dcounter (one device int, zeroed
 * by the caller). dcounts (two device unsigned long long, accumulated): the
 * systems certified, and of them those that the cheap form certified. mode:
 * 0 the tuned kernel, 1 lockstep, 2 sequential (ldlt.cu); BSYM_ERR_ARG where
 * that kernel is not built. */
bsym_status bsym_cuda_ldlt_cert_launch_d(char uplo, int n, int nrhs, int64_t batch, const double *dA,
                                         double *dB, int *dinfo, double rcond, double tol, int *drank,
                                         int *dused, int *didx, int *dcounter, unsigned long long *dcounts,
                                         int mode, void *stream);
bsym_status bsym_cuda_ldlt_cert_launch_s(char uplo, int n, int nrhs, int64_t batch, const float *dA,
                                         float *dB, int *dinfo, double rcond, double tol, int *drank,
                                         int *dused, int *didx, int *dcounter, unsigned long long *dcounts,
                                         int mode, void *stream);

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
/* The same for complex Hermitian A (precision 'c' or 'z' in the workspace
 * call; dA, dB interleaved pairs of reals): with job->start TRIDIAG and
 * job->check 0, the plain complex Householder solve (method TRIDIAG). */
bsym_status bsym_cuda_strategy_launch_c(const bsym__strategy *job, int64_t batch, const void *dA, void *dB,
                                        int *dinfo, int *drank, int *dused, void *dwork,
                                        bsym__strategy_stats *stats, void *stream);
bsym_status bsym_cuda_strategy_launch_z(const bsym__strategy *job, int64_t batch, const void *dA, void *dB,
                                        int *dinfo, int *drank, int *dused, void *dwork,
                                        bsym__strategy_stats *stats, void *stream);

/* PDE (issue 15): the fused θ-scheme time loop of bsym_*pde_solve,
 * device-resident (benchmarks). p is the problem as for bsym_dpde_solve,
 * with p->x and p->t host arrays (the weights and the steps are computed
 * from them on the host and copied to the device once per call, on the
 * stream) and every other array of p (the coefficients, the boundary values,
 * the obstacle) a device array; dfinal, du (m x batch; du may equal dfinal)
 * and dinfo (batch ints) device arrays. dinfo as bsym_dpde_solve's, plus
 * BSYM__PDE_RETRY (core/backend.h) for a system the kernel could not
 * certify (no pivoting on the GPU: the host API solves those again on the
 * CPU), whose du is left as it was. rows: the kernel, 0 = the tuned
 * choice; 1 = a warp per system (m <= 512); 4 or 8 = a block per system
 * with that many nodes a thread (BSYM_ERR_ARG otherwise). m at most BSYM_GPU_PDE_MAX_N. The call
 * synchronizes with the stream once (the weights' copy). */
bsym_status bsym_cuda_pde_launch_d(const bsym_pde *p, const double *dfinal, double *du, int *dinfo, int rows,
                                   void *stream);
bsym_status bsym_cuda_pde_launch_s(const bsym_pde *p, const float *dfinal, float *du, int *dinfo, int rows,
                                   void *stream);

#ifdef __cplusplus
}
#endif
#endif
