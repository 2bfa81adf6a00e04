/*
 * prec.h -- the one naming macro of the precision-generic bodies (*_impl.h,
 * *_numerics.h), included by prec_double.h and prec_float.h (and, with the
 * complex types, prec_cfloat.h and prec_cdouble.h):
 *   PREC(name)   name followed by the LAPACK letter of the precision in force,
 *                SFX: PREC(solve_one_) is solve_one_d under prec_double.h,
 *                solve_one_s under prec_float.h (c and z for complex float
 *                and complex double).
 * Every function or type a body defines once per precision is named through
 * PREC; the CUDA backend binds those names to templates in one place
 * (cuda/prec.cuh).
 */
#ifndef BSYM_PREC_H
#define BSYM_PREC_H
#define BSYM_PREC_PASTE2(a, b) a##b
#define BSYM_PREC_PASTE(a, b) BSYM_PREC_PASTE2(a, b)
#define PREC(name) BSYM_PREC_PASTE(name, SFX)
/* name followed by the letter of T itself (TSFX): differs from PREC only
 * under prec_mixed.h, whose bodies call the float functions by TPREC. */
#define TPREC(name) BSYM_PREC_PASTE(name, TSFX)
#endif
