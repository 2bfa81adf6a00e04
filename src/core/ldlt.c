/*
 * ldlt.c -- CPU backend of the batched LDL^T solve (double and float bodies
 * come from ldlt_impl.h).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* The interleaved small-n code is also compiled for x86-64 with AVX2 and FMA
 * and picked at run time where the CPU has them (GCC's function
 * multi-versioning): 4 lanes per instruction instead of SSE2's 2, and fused
 * multiply-adds. Elsewhere the default build serves. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BSYM_TARGET_CLONES __attribute__((target_clones("arch=haswell", "default")))
#else
#define BSYM_TARGET_CLONES
#endif

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
