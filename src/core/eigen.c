/*
 * eigen.c -- CPU backend of the batched symmetric eigensolvers (bsym_*syev,
 * bsym_*stev): the per-system numerics of tridiag_eig_impl.h (shared with the
 * GPU) and the OpenMP driver of eigen_impl.h, once for double and once for
 * float. Implements Abbas-Turki & Graillat 2017, Sect. 5 (Algorithm 3, divide and conquer
 * for tridiagonal eigenproblems) for values and vectors, and Lessig's bisection
 * with Sturm counts (NVIDIA, "Eigenvalue Computation with CUDA") for values
 * only. Batches of n <= BSYM_CPU_EIG_LANES_MAX_N go through
 * eigen_lanes_impl.h instead (Householder and implicit QL, SIMD across
 * tiles of systems, compiled for the baseline, AVX2 and AVX-512 and chosen
 * at run time).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "cpu_simd.h"

#define TE_FN static
#define TE_SYNC() ((void)0)
#define TE_DIV(a, b) ((a) / (b))
#define TE_BISECT_W 8 /* bisection chains run together (SIMD across chains) */

#include "prec_double.h"
#include "tridiag_eig_impl.h"
#include "eigen_lanes_impl.h"
#include "eigen_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "tridiag_eig_impl.h"
#include "eigen_lanes_impl.h"
#include "eigen_impl.h"
#include "prec_end.h"
