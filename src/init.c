/*
 * init.c -- registers the package's .Call routines with their exact
 * argument counts and frees the core context when the DLL unloads.
 */
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include "r_glue.h"

static const R_CallMethodDef call_methods[] = {
    {"bsym_r_solve", (DL_FUNC)&bsym_r_solve, 9},
    {"bsym_r_plan_start", (DL_FUNC)&bsym_r_plan_start, 1},
    {"bsym_r_cpu_info", (DL_FUNC)&bsym_r_cpu_info, 0},
    {"bsym_r_set_progress", (DL_FUNC)&bsym_r_set_progress, 1},
    {"bsym_r_note_interrupt", (DL_FUNC)&bsym_r_note_interrupt, 0},
    {"bsym_r_lsfit", (DL_FUNC)&bsym_r_lsfit, 9},
    {"bsym_r_tridiag_solve", (DL_FUNC)&bsym_r_tridiag_solve, 8},
    {"bsym_r_tridiagonalize", (DL_FUNC)&bsym_r_tridiagonalize, 8},
    {"bsym_r_eigen", (DL_FUNC)&bsym_r_eigen, 11},
    {"bsym_r_device_info", (DL_FUNC)&bsym_r_device_info, 0},
    {"bsym_r_set_gpus", (DL_FUNC)&bsym_r_set_gpus, 1},
    {"bsym_r_link_rate", (DL_FUNC)&bsym_r_link_rate, 2},
    {"bsym_r_rules", (DL_FUNC)&bsym_r_rules, 0},
    {"bsym_r_choice", (DL_FUNC)&bsym_r_choice, 3},
    {"bsym_r_arg_error", (DL_FUNC)&bsym_r_arg_error, 1},
    {"bsym_r_solve_opts", (DL_FUNC)&bsym_r_solve_opts, 3},
    {"bsym_r_select", (DL_FUNC)&bsym_r_select, 3},
    {"bsym_r_pde_solve", (DL_FUNC)&bsym_r_pde_solve, 11},
    {NULL, NULL, 0}};

void R_init_batchsym(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}

void R_unload_batchsym(DllInfo *dll)
{
    (void)dll;
    bsym_r_context_free();
}
