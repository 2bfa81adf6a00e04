/*
 * hetrd.c -- CPU backend of the complex Hermitian tridiagonalization
 * (bsym_ztridiagonalize, bsym_ctridiagonalize: A = Q T Q^H, T real) and of
 * the complex Hermitian eigensolvers (bsym_zsyev, bsym_csyev), which solve T
 * with the real eigensolver of eigen.c, and of the complex TRIDIAG solve,
 * which solves T with the real TRIDIAG method's tridiagonal solver
 * (householder.c). The bodies come from hetrd_impl.h,
 * once for complex double and once for complex float.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define RPREC_PASTE2(a, b) a##b
#define RPREC_PASTE(a, b) RPREC_PASTE2(a, b)

#include "prec_cdouble.h"
#define RPREC(name) RPREC_PASTE(name, d)
#include "hetrd_impl.h"
#undef RPREC
#include "prec_end.h"

#include "prec_cfloat.h"
#define RPREC(name) RPREC_PASTE(name, s)
#include "hetrd_impl.h"
#undef RPREC
#include "prec_end.h"
