/*
 * householder.c -- CPU backend of the batched Householder tridiagonalization
 * (bsym_*tridiagonalize) and of the BSYM_METHOD_TRIDIAG solve, whose
 * tridiagonal systems go to the per-system PCR of pcr_impl.h (with a
 * pivoted fallback where PCR's residual is not small). The double and
 * float bodies come from householder_impl.h.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define BSYM_INLINE __attribute__((always_inline)) inline

#define T double
#define SFX d
#define FABS fabs
#define SQRT sqrt
#define COPYSIGN copysign
#define FREXP frexp
#define LDEXP ldexp
#define TMAX DBL_MAX
#define EPS DBL_EPSILON
#include "pcr_impl.h"
#include "householder_impl.h"
#undef T
#undef SFX
#undef FABS
#undef SQRT
#undef COPYSIGN
#undef FREXP
#undef LDEXP
#undef TMAX
#undef EPS

#define T float
#define SFX s
#define FABS fabsf
#define SQRT sqrtf
#define COPYSIGN copysignf
#define FREXP frexpf
#define LDEXP ldexpf
#define TMAX FLT_MAX
#define EPS FLT_EPSILON
#include "pcr_impl.h"
#include "householder_impl.h"
#undef T
#undef SFX
#undef FABS
#undef SQRT
#undef COPYSIGN
#undef FREXP
#undef LDEXP
#undef TMAX
#undef EPS
