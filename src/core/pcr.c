/*
 * pcr.c -- CPU backend of the batched tridiagonal solve by parallel cyclic
 * reduction (bsym_*tridiag_solve); the double and float bodies come from
 * pcr_impl.h, whose per-system solve householder.c shares. Implements
 * Abbas-Turki & Graillat 2017, Sect. 4.1-4.2 (PCR for any n through
 * permutations) and Egloff, "High performance tridiagonal solvers on GPUs
 * for PDEs" (general tridiagonal systems).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#include "cpu_simd.h"
#define BSYM_PCR_DRIVER 1

#include "prec_double.h"
#include "pcr_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "pcr_impl.h"
#include "prec_end.h"
