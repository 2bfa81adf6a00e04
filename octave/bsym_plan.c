/*
 * bsym_plan.c -- gateway of bsym_plan, served by the one MEX file (bsym_mex.c)
 * and called from bsym_plan.m (which holds the help text and the tests):
 *
 *   plan = __bsym__ ("plan")         a plan with no history
 *   plan = __bsym__ ("plan", plan)   the plan checked, its 'next' recomputed
 *
 * The struct and its 'next' (bsym_plan_start's rule) come from the shared
 * conversions in bsym_octave.c, as for the plan outputs of bsym_solve and
 * bsym_lsfit.
 */
#include "bsym_octave.h"

void bsym_oct_plan(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs > 1)
        bsym_oct_error(BSYM_ERR_ARG, "takes at most one argument, a plan");
    if (nlhs > 1)
        bsym_oct_error(BSYM_ERR_ARG, "returns one output, the plan");
    bsym_plan plan;
    bsym_oct_plan_in(nrhs == 1 ? prhs[0] : NULL, "plan", &plan);
    plhs[0] = bsym_oct_plan_new(&plan);
}
