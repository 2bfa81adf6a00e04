/*
 * r_glue.h -- what the R glue files share: the cached core context and the
 * translation of a core status into an R error.
 */
#ifndef BSYM_R_GLUE_H
#define BSYM_R_GLUE_H

#include <Rinternals.h>

#include "core/batchsym.h"

/* The package's context (created on first use, freed when the DLL unloads),
 * with the device and thread count set for this call and R's interrupt hook
 * installed. */
bsym_ctx *bsym_r_context(const char *device, int threads);
void bsym_r_context_free(void);

/* Raises an R error for a failing status, naming the R function. */
void bsym_r_stop(const char *fun, bsym_status status);

SEXP bsym_r_solve(SEXP A, SEXP B, SEXP dims, SEXP method, SEXP device, SEXP precision,
                  SEXP uplo, SEXP threads);
SEXP bsym_r_device_info(void);

#endif
