/*
 * ldlt.c -- CPU backend of the batched LDL^T solve (double and float bodies
 * come from ldlt_impl.h). Implements Abbas-Turki & Graillat 2017, Sect. 3 (LDL^t
 * decomposition, Algorithm 1), vectorized across systems instead of threads.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* The interleaved small-n code is also compiled for x86-64 with AVX2 and FMA
 * and chosen at run time where the CPU has them (cpu_simd.h): 4 doubles (8
 * floats) per instruction instead of SSE2's 2 (4), and fused multiply-adds. */
#include "cpu_simd.h"

#include "prec_double.h"
#include "ldlt_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "ldlt_impl.h"
#include "prec_end.h"
