/* prec_real.h -- the end of prec_double.h and prec_float.h: what the
 * complex-capable bodies (indef_impl.h, cpu_backend_impl.h's solves) use,
 * for a real T:
 *   BSYM_COMPLEX 0, RT (the real type of T's parts: T itself), CONJ(x) = x,
 *   RE(x) = x, IM(x) = 0, ABS1(x) = |x| (|re| + |im|, LAPACK's pivot-search
 *   size), CABS(x) = |x| (the modulus), MAKE_REAL(x) = x (T with the
 *   imaginary part dropped), CFINITE(x) (both parts finite).
 * prec_cdouble.h and prec_cfloat.h redefine them for complex T. */
#define BSYM_COMPLEX 0
#define RT T
#define CONJ(x) (x)
#define RE(x) (x)
#define IM(x) ((T)0)
#define ABS1(x) FABS(x)
#define CABS(x) FABS(x)
#define MAKE_REAL(x) (x)
#define CFINITE(x) ISFINITE(x)
