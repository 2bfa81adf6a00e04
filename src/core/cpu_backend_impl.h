/*
 * cpu_backend_impl.h -- the CPU backend's operations in one precision: each
 * takes the (already chunked) job and calls the CPU driver of its family.
 * Included by cpu_backend.c once per precision (T, PREC from prec_*.h); the
 * complex types have the solves (LDLT, BK, AASEN, TRIDIAG, EIGEN and AUTO),
 * the tridiagonalization and the eigensolver (bsym_*syev with A; hetrd.c).
 */

static bsym_status PREC(cpu_ldlt_)(const bsym__exec *x, const bsym__job *j)
{
#if BSYM_COMPLEX /* LDL^H without pivoting (indef.c) */
    return cpu_done(x, j, "LDL^H",
                    PREC(bsym__indef_cpu_)(BSYM_METHOD_LDLT, j->uplo, j->n, j->nrhs, j->batch, (const T *)j->A,
                                           (T *)j->B, j->info, x->threads));
#else
    return cpu_done(x, j, "LDL^T",
                    PREC(bsym__ldlt_cpu_)(j->uplo, j->n, j->nrhs, j->batch, (const T *)j->A, (T *)j->B,
                                          j->info, x->threads));
#endif
}

static bsym_status PREC(cpu_bk_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "Bunch-Kaufman",
                    PREC(bsym__indef_cpu_)(BSYM_METHOD_BUNCH_KAUFMAN, j->uplo, j->n, j->nrhs, j->batch,
                                           (const T *)j->A, (T *)j->B, j->info, x->threads));
}

static bsym_status PREC(cpu_aasen_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "Aasen",
                    PREC(bsym__indef_cpu_)(BSYM_METHOD_AASEN, j->uplo, j->n, j->nrhs, j->batch, (const T *)j->A,
                                           (T *)j->B, j->info, x->threads));
}

/* TRIDIAG (complex: hetrd.c), EIGEN and AUTO (strategy.c) */
static bsym_status PREC(cpu_hhsolve_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "Householder",
                    PREC(bsym__hhsolve_cpu_)(j->uplo, j->n, j->nrhs, j->batch, (const T *)j->A,
                                             (T *)j->B, j->info, x->threads, NULL, NULL));
}

static bsym_status PREC(cpu_strategy_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "truncated-spectrum",
                    PREC(bsym__strategy_cpu_)(j->strategy, j->batch, (const T *)j->A, (T *)j->B, j->info,
                                              j->rank, j->used, j->stats, x->threads));
}

#if BSYM_COMPLEX /* Hermitian tridiagonalization and eigensolver (hetrd.c): d, e, w real */
static bsym_status PREC(cpu_tridiagonalize_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "Householder",
                    PREC(bsym__tridiagonalize_cpu_)(j->uplo, j->n, j->batch, (const T *)j->A, (RT *)j->d,
                                                    (RT *)j->e, (T *)j->Q, j->info, x->threads));
}

static bsym_status PREC(cpu_eig_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "eigensolver",
                    PREC(bsym__eig_cpu_)(j->uplo, j->n, j->batch, (const T *)j->A, j->sel, (RT *)j->w,
                                         (T *)j->V, j->count, j->info, x->threads));
}
#endif

#if !BSYM_COMPLEX /* the rest: real only */

static bsym_status PREC(cpu_tridiagonalize_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "Householder",
                    PREC(bsym__tridiagonalize_cpu_)(j->uplo, j->n, j->batch, (const T *)j->A, (T *)j->d,
                                                    (T *)j->e, (T *)j->Q, j->info, x->threads));
}

static bsym_status PREC(cpu_pcr_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "tridiagonal solve",
                    PREC(bsym__pcr_cpu_)(j->n, j->nrhs, j->batch, (const T *)j->dl, (const T *)j->dd,
                                         (const T *)j->du, (T *)j->B, j->info, x->threads));
}

static bsym_status PREC(cpu_eig_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "eigensolver",
                    PREC(bsym__eig_cpu_)(j->uplo, j->n, j->batch, (const T *)j->A, (const T *)j->dd,
                                         (const T *)j->dl, j->sel, (T *)j->w, (T *)j->V, j->count,
                                         j->info, x->threads));
}

static bsym_status PREC(cpu_lsfit_)(const bsym__exec *x, const bsym__job *j)
{
    return cpu_done(x, j, "least-squares",
                    PREC(bsym__lsfit_cpu_)(j->strategy, j->m, j->batch, (const T *)j->X, (const T *)j->Y,
                                           (const T *)j->wts, (T *)j->B, (T *)j->rss, j->info, j->rank,
                                           j->used, j->stats, x->threads));
}
#endif /* !BSYM_COMPLEX */
