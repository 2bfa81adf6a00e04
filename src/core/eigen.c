/*
 * eigen.c -- CPU backend of the batched symmetric eigensolvers (bsym_*syev,
 * bsym_*stev): the per-system numerics of tridiag_eig_impl.h (shared with the
 * GPU) and the OpenMP driver of eigen_impl.h, once for double and once for
 * float.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define TE_FN static
#define TE_SYNC() ((void)0)
#define TE_DIV(a, b) ((a) / (b))
#define TE_BISECT_W 8 /* bisection chains run together (SIMD across chains) */

#define T double
#define SFX d
#define FABS fabs
#define SQRT sqrt
#define COPYSIGN copysign
#define FREXP frexp
#define LDEXP ldexp
#define TMAX DBL_MAX
#define TMIN DBL_MIN
#define EPS DBL_EPSILON
#include "tridiag_eig_impl.h"
#include "eigen_impl.h"
#undef T
#undef SFX
#undef FABS
#undef SQRT
#undef COPYSIGN
#undef FREXP
#undef LDEXP
#undef TMAX
#undef TMIN
#undef EPS

#define T float
#define SFX s
#define FABS fabsf
#define SQRT sqrtf
#define COPYSIGN copysignf
#define FREXP frexpf
#define LDEXP ldexpf
#define TMAX FLT_MAX
#define TMIN FLT_MIN
#define EPS FLT_EPSILON
#include "tridiag_eig_impl.h"
#include "eigen_impl.h"
#undef T
#undef SFX
#undef FABS
#undef SQRT
#undef COPYSIGN
#undef FREXP
#undef LDEXP
#undef TMAX
#undef TMIN
#undef EPS
