/* prec_mixed.h -- see prec_double.h: float arithmetic on double storage, as
 * LAPACK's dsgesv ("ds"). The caller's arrays (TIN) are double, the kernels
 * compute in float (T) and convert where they pack their tiles and where they
 * write their results, so that single precision costs no pass of its own
 * over the data. Functions get the suffix m; TPREC names T's own (float)
 * functions (TSFX s), which the mixed bodies call for their internal arrays.
 * Everything else is prec_float.h's. */
#include "prec_float.h"
#undef SFX
#undef TIN
#undef BSYM_MIXED
#define SFX m
#define TIN double
#define BSYM_MIXED 1
