/* prec_mixed.h -- see prec_double.h: float arithmetic on double storage, as
 * LAPACK's dsgesv ("ds"). The caller's arrays (TIN) are double, the kernels
 * compute in float (T) and convert where they pack their tiles and where they
 * write their results, so that single precision costs no pass of its own
 * over the data. Functions get the suffix m; TPREC names T's own (float)
 * functions, which the mixed bodies call for their internal arrays. */
#include "prec.h"
#define T float
#define SFX m
#define TIN double
#define TSFX s
#define BSYM_MIXED 1
#define EPS FLT_EPSILON
#define TMAX FLT_MAX
#define TMIN FLT_MIN
#define FABS fabsf
#define SQRT sqrtf
#define COPYSIGN copysignf
#define FREXP frexpf
#define LDEXP ldexpf
#define ISFINITE isfinite
