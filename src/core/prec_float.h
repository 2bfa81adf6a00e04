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
/* The complex-capable bodies (indef_impl.h) also use, for real T:
 *   BSYM_COMPLEX 0, RT (the real type of T's parts: T itself), CONJ(x) = x,
 *   RE(x) = x, IM(x) = 0, ABS1(x) = |x| (|re| + |im|, LAPACK's pivot-search
 *   size), CABS(x) = |x| (the modulus), MAKE_REAL(x) = x (T with the
 *   imaginary part dropped), CFINITE(x) (both parts finite). */
#define BSYM_COMPLEX 0
#define RT T
#define CONJ(x) (x)
#define RE(x) (x)
#define IM(x) ((T)0)
#define ABS1(x) FABS(x)
#define CABS(x) FABS(x)
#define MAKE_REAL(x) (x)
#define CFINITE(x) ISFINITE(x)
