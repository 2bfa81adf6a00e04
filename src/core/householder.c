/*
 * householder.c -- CPU backend of the batched Householder tridiagonalization
 * (bsym_*tridiagonalize) and of the BSYM_METHOD_TRIDIAG solve, whose
 * tridiagonal systems go to the per-system PCR of pcr_impl.h (with a
 * pivoted fallback where PCR's residual is not small). The double and
 * float bodies come from householder_impl.h. Implements Abbas-Turki & Graillat 2017,
 * Sect. 4 (Householder and parallel cyclic reductions, Algorithm 2).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#include "cpu_simd.h"

#include "prec_double.h"
#include "pcr_impl.h"
#include "householder_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "pcr_impl.h"
#include "householder_impl.h"
#include "prec_end.h"
