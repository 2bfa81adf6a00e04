/*
 * bsym_mex.c -- the one MEX file of the Octave bindings, private/__bsym__.mex
 * (in an installed package, __bsym__.mex in its architecture folder):
 *
 *   [...] = __bsym__ ("<fn>", args...)
 *
 * hands args to the gateway of bsym_<fn> (octave/bsym_<fn>.c), whose
 * bsym_<fn>.m holds the help text and the tests. One command has no public
 * function: __bsym__ ("link_rate", bytes, gpu), the host link's copy rates
 * for the benchmarks (bsym_device_info.c). One file for every
 * function means one copy of the core in memory and one context per
 * process (bsym_oct_context), kept across calls.
 */
#include <stdio.h>
#include <string.h>

#include "bsym_octave.h"

/* This MEX file uses Octave's interleaved complex API (MX_HAS_INTERLEAVED_COMPLEX,
 * set in bsym_octave.h). Octave decides how to hand a MEX file its arrays by
 * looking for this marker symbol, which `mkoctfile -R2018a` defines; defined
 * here, both builds (octave/Makefile and the package's) carry it. Without it
 * Octave hands over separate real and imaginary parts and aborts at the first
 * complex array. */
const int __mx_has_interleaved_complex__ = 1;

/* The functions served: the name after "bsym_" and its gateway. */
static const struct {
    const char *name;
    bsym_oct_gateway *gateway;
} functions[] = {
    {"solve", bsym_oct_solve},
    {"lsfit", bsym_oct_lsfit},
    {"plan", bsym_oct_plan},
    {"eigen", bsym_oct_eigen},
    {"tridiag_eigen", bsym_oct_tridiag_eigen},
    {"tridiag_solve", bsym_oct_tridiag_solve},
    {"tridiagonalize", bsym_oct_tridiagonalize},
    {"device", bsym_oct_device},
    {"device_info", bsym_oct_device_info},
    {"pde_solve", bsym_oct_pde_solve},
    /* private, for the benchmarks (inst/bench): [h2d, d2h] = __bsym__
     * ("link_rate", bytes, gpu), the host link's pinned copy rates in GB/s */
    {"link_rate", bsym_oct_link_rate},
};
enum { NFUNCTIONS = sizeof functions / sizeof functions[0] };

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    static char public_name[32]; /* "bsym_<fn>": messages read it during the call */
    char name[24] = "";
    if (nrhs >= 1 && mxIsChar(prhs[0]) && mxGetM(prhs[0]) == 1)
        mxGetString(prhs[0], name, sizeof name);
    int f = 0;
    while (f < NFUNCTIONS && strcmp(name, functions[f].name) != 0)
        f++;
    if (f == NFUNCTIONS) {
        bsym_oct_set_caller("__bsym__");
        bsym_oct_error(BSYM_ERR_ARG, "the first argument must name a batchsym function, such "
                       "as 'solve' (got '%s')", name);
    }
    snprintf(public_name, sizeof public_name, "bsym_%s", functions[f].name);
    bsym_oct_set_caller(public_name);
    functions[f].gateway(nlhs, plhs, nrhs - 1, prhs + 1);
}
