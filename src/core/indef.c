/*
 * indef.c -- CPU backend of the pivoted symmetric-indefinite and complex
 * Hermitian solves (BSYM_METHOD_BUNCH_KAUFMAN, BSYM_METHOD_AASEN) and of the
 * complex LDL^H without pivoting (BSYM_METHOD_LDLT on complex input): the
 * bodies of indef_impl.h, instantiated for float, double, complex float and
 * complex double. The method is that of Bunch & Kaufman (1977), Aasen (1971)
 * and, for complex Hermitian matrices, of the MAGMA study in
 * shared/papers/004 (LDL^H without pivoting, Bunch-Kaufman, Aasen), here
 * unblocked and one system per thread at a time; Bunch-Kaufman for small n
 * interleaves several systems across SIMD lanes (indef_lanes_impl.h), that
 * code also compiled for AVX2 + FMA and for AVX-512 and chosen at run time
 * (cpu_simd.h; the package is built for the baseline ISA).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "cpu_simd.h"
#include "bk_rule.h"

#include "prec_float.h"
#include "indef_impl.h"
#include "prec_end.h"

#include "prec_double.h"
#include "indef_impl.h"
#include "prec_end.h"

#include "prec_cfloat.h"
#include "indef_impl.h"
#include "prec_end.h"

#include "prec_cdouble.h"
#include "indef_impl.h"
#include "prec_end.h"
