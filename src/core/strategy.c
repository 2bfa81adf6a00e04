/*
 * strategy.c -- CPU backend of the truncated-spectrum and automatic solves
 * (bsym_*solvex, methods EIGEN and AUTO) and of batched least squares
 * (bsym_*lsfit): the per-system numerics of strategy_numerics.h (shared with
 * the GPU's cuda/strategy.cu) and the OpenMP drivers of strategy_impl.h, once
 * for double and once for float. Implements Abbas-Turki & Graillat 2017, Sect. 5.1 (discard
 * the eigenvalues that push the condition number past 10^5, here 1/rcond) and
 * the residual-driven choice of Sect. 2.2 and 6.
 */
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
