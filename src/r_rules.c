/*
 * r_rules.c -- .Call entries through which R reads the core's names and
 * applies its checks (the last section of core/batchsym.h): R checks only R
 * types and shapes, and every message of these rules is the core's.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

/* R's names of the core's lists, in bsym_choice order. */
static const char *const kinds[] = {"method", "device", "precision", "uplo", "boundary"};
_Static_assert(BSYM_CHOICE_METHOD == 0 && BSYM_CHOICE_DEVICE == 1 && BSYM_CHOICE_PRECISION == 2 &&
                   BSYM_CHOICE_UPLO == 3 && BSYM_CHOICE_BOUNDARY == 4, "kinds follows bsym_choice");

/* The names of list `kind`, as an R character vector. */
static SEXP choice_names(bsym_choice kind)
{
    int count = 0;
    while (bsym_choice_name(kind, count) != NULL)
        count++;
    SEXP out = PROTECT(allocVector(STRSXP, count));
    for (int i = 0; i < count; i++)
        SET_STRING_ELT(out, i, mkChar(bsym_choice_name(kind, i)));
    UNPROTECT(1);
    return out;
}

/* list(method, device, precision, uplo, plan_fields, status_ids): the
 * core's tables; status_ids is named by the status codes (0, -1, ...). */
SEXP bsym_r_rules(void)
{
    const char *names[] = {kinds[0], kinds[1], kinds[2], kinds[3], "plan_fields", "status_ids", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    for (int i = 0; i < 4; i++)
        SET_VECTOR_ELT(out, i, choice_names((bsym_choice)i));
    SEXP fields = PROTECT(allocVector(STRSXP, BSYM_PLAN_FIELDS));
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        SET_STRING_ELT(fields, i, mkChar(bsym_plan_field_name(i)));
    SET_VECTOR_ELT(out, 4, fields);
    const int nstatus = 1 - (int)BSYM_ERR_INTERRUPTED; /* BSYM_OK down to the last error */
    SEXP ids = PROTECT(allocVector(STRSXP, nstatus));
    SEXP codes = PROTECT(allocVector(STRSXP, nstatus));
    for (int i = 0; i < nstatus; i++) {
        char code[16];
        snprintf(code, sizeof code, "%d", -i);
        SET_STRING_ELT(ids, i, mkChar(bsym_status_id((bsym_status)-i)));
        SET_STRING_ELT(codes, i, mkChar(code));
    }
    setAttrib(ids, R_NamesSymbol, codes);
    SET_VECTOR_ELT(out, 5, ids);
    UNPROTECT(4);
    return out;
}

/* kind: the list's name ("method", "device", "precision", "uplo"); arg: the
 * argument's name for the message; value: what the user gave. Returns value
 * when it is one of the list's names, else raises the core's message (class
 * batchsym_bad_argument). Anything but a single non-NA string is handed to
 * the core as "not a string". */
SEXP bsym_r_choice(SEXP kind, SEXP arg, SEXP value)
{
    const char *k = CHAR(STRING_ELT(kind, 0)), *a = CHAR(STRING_ELT(arg, 0));
    int list = -1;
    for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
        if (strcmp(k, kinds[i]) == 0)
            list = i;
    const char *v = isString(value) && XLENGTH(value) == 1 && STRING_ELT(value, 0) != NA_STRING
                        ? CHAR(STRING_ELT(value, 0)) : NULL;
    int code = 0;
    bsym_ctx *ctx = bsym_r_ctx();
    if (bsym_choice_parse(ctx, (bsym_choice)list, a, v, &code) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
    return value;
}

/* Raises msg (an R-side type or shape check) as a bad_argument condition. */
SEXP bsym_r_arg_error(SEXP msg)
{
    bsym_r_raise(BSYM_ERR_ARG, CHAR(STRING_ELT(msg, 0)));
}

/* method (checked by bsym_r_choice), rcond (a number), tol (NULL: the
 * default, or a number): checked by the core (bsym_solve_opts_make).
 * Returns c(method code, rcond, tol) with tol 0 for the default. */
SEXP bsym_r_solve_opts(SEXP method, SEXP rcond, SEXP tol)
{
    bsym_ctx *ctx = bsym_r_ctx();
    const double t = isNull(tol) ? 0.0 : asReal(tol);
    bsym_solve_opts o;
    if (bsym_solve_opts_make(ctx, bsym_r_code(BSYM_CHOICE_METHOD, method), asReal(rcond),
                             isNull(tol) ? NULL : &t, NULL, &o) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
    SEXP out = allocVector(REALSXP, 3);
    REAL(out)[0] = (double)o.method;
    REAL(out)[1] = o.rcond;
    REAL(out)[2] = o.tol;
    return out;
}

/* index and interval: NULL or two doubles (R's decreasing order for the
 * index); n the order. Returns c(kind, a, b) as bsym_r_eigen reads it:
 * 0 all; 1 the a-th to b-th smallest; 2 the interval (a, b]. */
SEXP bsym_r_select(SEXP index, SEXP interval, SEXP n)
{
    bsym_ctx *ctx = bsym_r_ctx();
    bsym_select sel;
    if (bsym_select_make(ctx, isNull(index) ? NULL : REAL(index),
                         isNull(interval) ? NULL : REAL(interval), (int64_t)asReal(n), 1,
                         &sel) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_ARG, bsym_ctx_message(ctx));
    SEXP out = allocVector(REALSXP, 3);
    double *v = REAL(out);
    v[0] = (double)sel.kind;
    v[1] = sel.kind == BSYM_SELECT_INDEX ? (double)sel.il : sel.vl;
    v[2] = sel.kind == BSYM_SELECT_INDEX ? (double)sel.iu : sel.vu;
    return out;
}
