/*
 * strategy.c -- CPU backend of the truncated-spectrum and automatic solves
 * (bsym_*solvex, methods EIGEN and AUTO) and of batched least squares
 * (bsym_*lsfit): the per-system numerics of strategy_numerics.h (shared with
 * the GPU's cuda/strategy.cu) and the OpenMP drivers of strategy_impl.h, once
 * for double, float and float on double storage, and once for complex double
 * and complex float (the GPU's are cuda/strategy.cu's). Implements Abbas-Turki & Graillat 2017, Sect. 5.1 (discard
 * the eigenvalues that push the condition number past 10^5, here 1/rcond) and
 * the residual-driven choice of Sect. 2.2 and 6.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The conditioning test's Sturm counts come from tridiag_eig_impl.h, without
 * its eigensolver (eigen.c's bsym__eig_cpu_* solves the systems
 * redone); what this file does not call of it is not compiled. */
#define TE_BISECTION_ONLY 1
#define TE_FN static __attribute__((unused))
#define TE_SYNC() ((void)0)
#define TE_DIV(a, b) ((a) / (b))
#define TE_BISECT_W 8 /* bisection chains run together (SIMD across chains) */

/* RPREC: the numerics of the real type of T's parts (T itself when real). */
#define RPREC(name) PREC(name)

#include "prec_double.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "strategy_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "strategy_impl.h"
#include "prec_end.h"

#include "prec_mixed.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "strategy_impl.h"
#include "prec_end.h"
#undef RPREC

/* Complex Hermitian (EIGEN and AUTO): the drivers again, on the numerics of
 * the real precision above (d for z, s for c). Complex float arithmetic on
 * complex double storage (bsym_zcsolvex) gets complex float copies
 * (dispatch.c, run_staged). */
#define RPREC(name) BSYM_PREC_PASTE(name, d)
#include "prec_cdouble.h"
#include "strategy_impl.h"
#include "prec_end.h"
#undef RPREC

#define RPREC(name) BSYM_PREC_PASTE(name, s)
#include "prec_cfloat.h"
#include "strategy_impl.h"
#include "prec_end.h"
#undef RPREC
