/*
 * cpu_backend.c -- the CPU backend's table: every operation family in every
 * precision the CPU drivers have (ldlt.c, householder.c, pcr.c, eigen.c,
 * strategy.c, indef.c: OpenMP over the batch), bound to the one job description of
 * backend.h. The dispatcher hands it chunks of BSYM_CPU_CHUNK systems and
 * checks for interrupts between them.
 */
#include <stdio.h>

#include "internal.h"

/* A CPU driver's result (0, or -1 when a thread's workspace could not be
 * allocated) as a status with its message. */
static bsym_status cpu_done(const bsym__exec *x, const bsym__job *j, const char *what, int rc)
{
    if (rc == 0)
        return BSYM_OK;
    snprintf(x->msg, x->msglen, "no memory for the %s workspace (n = %lld)", what, (long long)j->n);
    return BSYM_ERR_NOMEM;
}

#include "prec_double.h"
#include "cpu_backend_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "cpu_backend_impl.h"
#include "prec_end.h"

#include "prec_cdouble.h"
#include "cpu_backend_impl.h"
#include "prec_end.h"

#include "prec_cfloat.h"
#include "cpu_backend_impl.h"
#include "prec_end.h"

/* Float arithmetic on double storage: the solves (LDL^T and the strategy,
 * whose tiles convert as they pack); Householder gets float copies. */
static bsym_status cpu_ldlt_m(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "LDL^T",
                    bsym__ldlt_cpu_m(j->uplo, j->n, j->nrhs, j->batch, (const double *)j->A, (double *)j->B,
                                     j->info, x->threads));
}

static bsym_status cpu_strategy_m(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "truncated-spectrum",
                    bsym__strategy_cpu_m(j->strategy, j->batch, (const double *)j->A, (double *)j->B, j->info,
                                         j->rank, j->used, j->stats, x->threads));
}

/* ---- issue 15 (PDE): bsym_*pde_solve in float, double, and float
 * arithmetic on double storage (pde.c converts as it loads and stores) ---- */
static bsym_status cpu_pde_d(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "PDE solver",
                    bsym__pde_cpu_d(j->pde, j->pde_k0, j->batch, (const double *)j->final, (double *)j->u,
                                    j->info, x->threads));
}
static bsym_status cpu_pde_s(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "PDE solver",
                    bsym__pde_cpu_s(j->pde, j->pde_k0, j->batch, (const float *)j->final, (float *)j->u,
                                    j->info, x->threads));
}
static bsym_status cpu_pde_m(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "PDE solver",
                    bsym__pde_cpu_m(j->pde, j->pde_k0, j->batch, (const double *)j->final, (double *)j->u,
                                    j->info, x->threads));
}
/* ---- end of issue 15 ---- */

/* The CPU has no device to describe. */
static void cpu_query(bsym_device_info *info)
{
    (void)info;
}

static void cpu_release(void *state)
{
    (void)state;
}

const bsym__backend bsym__cpu_backend = {
    .name = "CPU",
    .device = BSYM_DEVICE_CPU,
    .chunk = BSYM_CPU_CHUNK,
    .max_n = {{0}}, /* any n */
    .query = cpu_query,
    .release = cpu_release,
    .op = {
        /*                          float                    double                 c, z, ds (zc: none,
                                                                               complex float copies) */
        [BSYM__OP_LDLT]           = {cpu_ldlt_s,           cpu_ldlt_d, cpu_ldlt_c, cpu_ldlt_z, cpu_ldlt_m},
        [BSYM__OP_HHSOLVE]        = {cpu_hhsolve_s,        cpu_hhsolve_d, cpu_hhsolve_c, cpu_hhsolve_z},
        [BSYM__OP_TRIDIAGONALIZE] = {cpu_tridiagonalize_s, cpu_tridiagonalize_d, cpu_tridiagonalize_c,
                                     cpu_tridiagonalize_z},
        [BSYM__OP_PCR]            = {cpu_pcr_s,            cpu_pcr_d},
        [BSYM__OP_EIG]            = {cpu_eig_s,            cpu_eig_d,  cpu_eig_c,  cpu_eig_z},
        [BSYM__OP_STRATEGY]       = {cpu_strategy_s,       cpu_strategy_d, cpu_strategy_c, cpu_strategy_z,
                                     cpu_strategy_m},
        [BSYM__OP_LSFIT]          = {cpu_lsfit_s,          cpu_lsfit_d},
        [BSYM__OP_BK]             = {cpu_bk_s,             cpu_bk_d,   cpu_bk_c,   cpu_bk_z},
        [BSYM__OP_AASEN]          = {cpu_aasen_s,          cpu_aasen_d, cpu_aasen_c, cpu_aasen_z},
        [BSYM__OP_PDE]            = {cpu_pde_s,            cpu_pde_d, NULL, NULL, cpu_pde_m}, /* issue 15 */
    },
};
