/*
 * prec_double.h, prec_float.h, prec_end.h -- the precision macros of the
 * precision-generic bodies (*_impl.h): include prec_double.h (or
 * prec_float.h), then the bodies, then prec_end.h. Each body uses the subset
 * it needs:
 *   T, SFX (the function-name suffix d or s), EPS, TMAX, TMIN (the smallest
 *   normal number), FABS, SQRT, COPYSIGN, FREXP, LDEXP, ISFINITE (these
 *   on the real type RT under the complex prec_cfloat.h, prec_cdouble.h).
 */
#include "prec.h"
#define T double
#define SFX d
#define TIN double /* the caller's arrays (prec_mixed.h: double under float) */
#define TSFX d /* the suffix of T's own functions (TPREC) */
#define BSYM_MIXED 0
#define EPS DBL_EPSILON
#define TMAX DBL_MAX
#define TMIN DBL_MIN
#define FABS fabs
#define SQRT sqrt
#define COPYSIGN copysign
#define FREXP frexp
#define LDEXP ldexp
#define ISFINITE isfinite
#include "prec_real.h" /* the complex-capable bodies' macros for a real T */
