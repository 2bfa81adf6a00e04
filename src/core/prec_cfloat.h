/* prec_cfloat.h -- see prec_double.h: T = complex float (C99 complex, laid out as
 * bsym_cfloat: real part, then imaginary part), suffix c. The real-valued
 * macros (EPS, TMAX, TMIN, FABS, SQRT, COPYSIGN, FREXP, LDEXP, ISFINITE) are
 * those of RT, the type of T's parts, taken from the real header; CONJ, RE, IM, ABS1 (|re| + |im|, as
 * LAPACK's pivot searches), CABS (the modulus), MAKE_REAL (T with the
 * imaginary part dropped) and CFINITE (both parts finite) act on T. Only the
 * complex-capable bodies (indef_impl.h, and cpu_backend_impl.h's solves) are
 * instantiated with it. */
#include <complex.h>
#include "prec_float.h" /* RT's macros; the type-specific ones redefined below */
#undef T
#undef SFX
#undef TIN
#undef TSFX
#undef BSYM_COMPLEX
#undef RT
#undef CONJ
#undef RE
#undef IM
#undef ABS1
#undef CABS
#undef MAKE_REAL
#undef CFINITE
#define T float _Complex
#define SFX c
#define TIN T
#define TSFX c
#define BSYM_COMPLEX 1
#define RT float
#define CONJ(x) conjf(x)
#define RE(x) crealf(x)
#define IM(x) cimagf(x)
#define ABS1(x) (fabsf(crealf(x)) + fabsf(cimagf(x)))
#define CABS(x) cabsf(x)
#define MAKE_REAL(x) ((T)crealf(x))
#define CFINITE(x) (isfinite(crealf(x)) && isfinite(cimagf(x)))
