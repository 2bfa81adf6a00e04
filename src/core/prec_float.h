/* prec_float.h -- see prec_double.h. */
#include "prec.h"
#define T float
#define SFX s
#define TIN float
#define TSFX s
#define BSYM_MIXED 0
#define EPS FLT_EPSILON
#define TMAX FLT_MAX
#define TMIN FLT_MIN
#define FABS fabsf
#define SQRT sqrtf
#define COPYSIGN copysignf
#define FREXP frexpf
#define LDEXP ldexpf
#define ISFINITE isfinite
#include "prec_real.h" /* the complex-capable bodies' macros for a real T */
