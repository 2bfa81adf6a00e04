/*
 * pde.c -- CPU backend of the batched θ-scheme PDE solver (bsym_*pde_solve,
 * issue 15): Egloff, "High performance finite difference PDE solvers on
 * GPUs" (2010), sect. 2.3 (eqs. 17-22, algorithm 1), with the boundary,
 * Rannacher and obstacle conventions of batchsym.h. The bodies come from
 * pde_impl.h in double, float, and float arithmetic on double storage.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

/* The group solve is also compiled for AVX2 + FMA and for AVX-512 (x86-64)
 * and chosen at run time (cpu_simd.h). */
#include "cpu_simd.h"

#include "prec_double.h"
#include "pde_impl.h"
#include "prec_end.h"

#include "prec_float.h"
#include "pde_impl.h"
#include "prec_end.h"

#include "prec_mixed.h"
#include "pde_impl.h"
#include "prec_end.h"
