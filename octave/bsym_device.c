/*
 * bsym_device.c -- gateway of bsym_device (bsym_device.m holds the help
 * text and the tests): the default of every function's 'device' option.
 *
 *   [dev, state] = __bsym__ ("device")        the default: 'auto', 'cpu' or 'gpu'
 *   [old, state] = __bsym__ ("device", dev)   sets it; old: the one before
 *
 * The default lives in the process's environment variable
 * BSYM_OCTAVE_DEVICE (unset or empty: 'auto'), so a shell can set it before
 * Octave starts (the test runner's way to force the GPU) and `clear all`
 * leaves it alone; bsym_oct_default_device reads it for every call that
 * has no 'device' option. state is the process's context as a struct:
 * created (contexts made since the MEX file was loaded) and alive (one is
 * held now).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>

#include "bsym_octave.h"

static const char *const env_name = "BSYM_OCTAVE_DEVICE";

/* The context's state as a struct {created, alive}. */
static mxArray *context_state(void)
{
    static const char *fields[] = {"created", "alive"};
    int created, alive;
    bsym_oct_context_state(&created, &alive);
    mxArray *s = mxCreateStructMatrix(1, 1, 2, fields);
    mxSetField(s, 0, "created", mxCreateDoubleScalar(created));
    mxSetField(s, 0, "alive", mxCreateLogicalScalar(alive != 0));
    return s;
}

void bsym_oct_device(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs > 1)
        bsym_oct_error(BSYM_ERR_ARG, "takes at most one argument, the device");
    if (nlhs > 2)
        bsym_oct_error(BSYM_ERR_ARG, "returns at most two outputs, the device and the context's state");

    if (nrhs == 0) {
        plhs[0] = mxCreateString(bsym_oct_choices(BSYM_CHOICE_DEVICE)[bsym_oct_default_device()]);
    } else {
        /* the old value by its name, or as written when it is none (so that
         * it can be put back, and the new value can mend it) */
        const char *env = getenv(env_name);
        int c = env == NULL || env[0] == '\0' ? BSYM_DEVICE_AUTO
                                              : bsym_oct_choice_index(env, bsym_oct_choices(BSYM_CHOICE_DEVICE));
        mxArray *old = mxCreateString(c >= 0 ? bsym_oct_choices(BSYM_CHOICE_DEVICE)[c] : env);
        int dev = bsym_oct_choice(prhs[0], "the device", bsym_oct_choices(BSYM_CHOICE_DEVICE));
        if (setenv(env_name, bsym_oct_choices(BSYM_CHOICE_DEVICE)[dev], 1) != 0)
            bsym_oct_error(BSYM_ERR_NOMEM, "could not set the environment variable %s", env_name);
        plhs[0] = old;
    }
    if (nlhs >= 2)
        plhs[1] = context_state();
}
