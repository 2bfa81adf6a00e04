/*
 * ldlt.c -- CPU backend of the batched LDL^T solve (double and float bodies
 * come from ldlt_impl.h). Implements Abbas-Turki & Graillat 2017, Sect. 3 (LDL^t
 * decomposition, Algorithm 1), vectorized across systems instead of threads.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The interleaved small-n code is also compiled for x86-64 with AVX-512 and
 * with AVX2 + FMA, and chosen at run time from what the CPU has (cpu_simd.h;
 * the package is built for the baseline, never -march=native). */
#include "cpu_simd.h"

/* The certificate of the automatic strategy's LDL^T step uses the shared
 * numerics of strategy_numerics.h (which needs tridiag_eig_impl.h's Sturm
 * counts; what this file does not call of them is not compiled). */
#define TE_BISECTION_ONLY 1
#define TE_FN static __attribute__((unused))
#define TE_SYNC() ((void)0)
#define TE_DIV(a, b) ((a) / (b))
#define TE_BISECT_W 8

#include "prec_double.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "ldlt_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "ldlt_impl.h"
#include "prec_end.h"

#include "prec_mixed.h"
#include "tridiag_eig_impl.h"
#include "strategy_numerics.h"
#include "ldlt_impl.h"
#include "prec_end.h"
