/*
 * ldlt.c -- CPU backend of the batched LDL^T solve (double and float bodies
 * come from ldlt_impl.h).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

#define T double
#define SFX d
#define EPS DBL_EPSILON
#define FABS fabs
#define ISFINITE isfinite
#include "ldlt_impl.h"
#undef T
#undef SFX
#undef EPS
#undef FABS
#undef ISFINITE

#define T float
#define SFX s
#define EPS FLT_EPSILON
#define FABS fabsf
#define ISFINITE isfinite
#include "ldlt_impl.h"
#undef T
#undef SFX
#undef EPS
#undef FABS
#undef ISFINITE
