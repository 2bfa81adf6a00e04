/* prec_cdouble.h -- see prec_double.h: T = complex double (C99 complex, laid out as
 * bsym_cdouble: real part, then imaginary part), suffix z. The real-valued
 * macros (EPS, TMAX, TMIN, FABS, SQRT, COPYSIGN, FREXP, LDEXP, ISFINITE) are
 * those of RT, the type of T's parts, taken from the real header; CONJ, RE, IM, ABS1 (|re| + |im|, as
 * LAPACK's pivot searches), CABS (the modulus), MAKE_REAL (T with the
 * imaginary part dropped) and CFINITE (both parts finite) act on T. Only the
 * complex-capable bodies (indef_impl.h, and cpu_backend_impl.h's solves) are
 * instantiated with it. */
#include <complex.h>
#include "prec_double.h" /* RT's macros; the type-specific ones redefined below */
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
#define T double _Complex
#define SFX z
#define TIN T
#define TSFX z
#define BSYM_COMPLEX 1
#define RT double
#define CONJ(x) conj(x)
#define RE(x) creal(x)
#define IM(x) cimag(x)
#define ABS1(x) (fabs(creal(x)) + fabs(cimag(x)))
#define CABS(x) cabs(x)
#define MAKE_REAL(x) ((T)creal(x))
#define CFINITE(x) (isfinite(creal(x)) && isfinite(cimag(x)))
