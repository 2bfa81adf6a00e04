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

void bsym__pde_weights(const bsym_pde *p, int x_float, double *w, double *bl, double *bu)
{
    const int64_t m = p->m;
#define X_(i) (x_float ? (double)((const float *)p->x)[i] : ((const double *)p->x)[i])
    for (int e = 0; e < 6; e++)
        w[e * m] = w[e * m + m - 1] = 0;
    for (int64_t i = 1; i + 1 < m; i++) {
        const double hm = X_(i) - X_(i - 1), hp = X_(i + 1) - X_(i), hs = hm + hp;
        w[i] = -hp / (hm * hs); /* eq. 17 */
        w[m + i] = 1 / hm - 1 / hp;
        w[2 * m + i] = hm / (hp * hs);
        w[3 * m + i] = 2 / (hm * hs); /* eq. 18 */
        w[4 * m + i] = -2 / (hm * hp);
        w[5 * m + i] = 2 / (hp * hs);
    }
    *bl = 1 / (X_(1) - X_(0));
    *bu = 1 / (X_(m - 1) - X_(m - 2));
#undef X_
}

