/*
 * r_glue.c -- what the R glue files share (r_glue.h): the package's one
 * context, R's interrupt hook, core statuses raised as classed R conditions,
 * choices read through the core's name tables, the failed-systems warning.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include "r_glue.h"

static bsym_ctx *g_ctx = NULL;

SEXP bsym_r_alloc_real(R_xlen_t len)
{
    SEXP x = allocVector(REALSXP, len);
    bsym_host_touch(REAL(x), (size_t)len * sizeof(double));
    return x;
}

SEXP bsym_r_alloc_complex(R_xlen_t len)
{
    SEXP x = allocVector(CPLXSXP, len);
    bsym_host_touch(COMPLEX(x), (size_t)len * sizeof(Rcomplex));
    return x;
}

void bsym_r_shape_like(SEXP x, SEXP like)
{
    setAttrib(x, R_DimSymbol, getAttrib(like, R_DimSymbol));
    setAttrib(x, R_DimNamesSymbol, getAttrib(like, R_DimNamesSymbol));
    setAttrib(x, R_NamesSymbol, getAttrib(like, R_NamesSymbol));
}

void bsym_r_batch_shape(SEXP x, const int *per, int nper, SEXP shape)
{
    if (isNull(x))
        return;
    const int one = asLogical(VECTOR_ELT(shape, 0)) == TRUE;
    SEXP names = VECTOR_ELT(shape, 1);
    if (one) {
        if (nper > 1) {
            SEXP dim = PROTECT(allocVector(INTSXP, nper));
            memcpy(INTEGER(dim), per, (size_t)nper * sizeof(int));
            setAttrib(x, R_DimSymbol, dim);
            UNPROTECT(1);
        }
        return;
    }
    SEXP dim = PROTECT(allocVector(INTSXP, nper + 1));
    memcpy(INTEGER(dim), per, (size_t)nper * sizeof(int));
    INTEGER(dim)[nper] = asInteger(VECTOR_ELT(shape, 2));
    setAttrib(x, R_DimSymbol, dim);
    if (!isNull(names)) {
        SEXP dn = PROTECT(allocVector(VECSXP, nper + 1));
        SET_VECTOR_ELT(dn, nper, names);
        setAttrib(x, R_DimNamesSymbol, dn);
        UNPROTECT(1);
    }
    UNPROTECT(1);
}

static void check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* An interrupt the progress function caught (R/progress.R): the next check
 * reports it, so that a Ctrl-C during a progress report stops the call too. */
static int g_interrupt_seen = 0;

SEXP bsym_r_note_interrupt(void)
{
    g_interrupt_seen = 1;
    return R_NilValue;
}

/* The core's interrupt hook: non-zero when the user pressed Ctrl-C. Called
 * between chunks from the main thread only; R_ToplevelExec keeps the
 * longjmp out of the core, which then stops and releases its buffers. */
static int interrupt_hook(void *unused)
{
    (void)unused;
    const int seen = g_interrupt_seen;
    g_interrupt_seen = 0;
    return seen || !R_ToplevelExec(check_interrupt, NULL);
}

/* The R function told of each chunk's progress (R/progress.R), or R's NULL:
 * set around one .Call by bsym_r_set_progress, kept from the collector. */
static SEXP g_progress = NULL;

/* The core's progress hook: g_progress(done, total). A plain eval, so that
 * the caller's condition handlers (progressr's) see what it signals; the R
 * function catches every error and interrupt itself (R/progress.R), so
 * nothing unwinds the core's stack. */
static void progress_hook(void *unused, int64_t done, int64_t total)
{
    (void)unused;
    if (g_progress == NULL)
        return;
    SEXP call = PROTECT(lang3(g_progress, ScalarReal((double)done), ScalarReal((double)total)));
    eval(call, R_GlobalEnv);
    UNPROTECT(1);
}

SEXP bsym_r_set_progress(SEXP fn)
{
    if (g_progress != NULL)
        R_ReleaseObject(g_progress);
    g_progress = isNull(fn) ? NULL : fn;
    if (g_progress != NULL)
        R_PreserveObject(g_progress);
    return R_NilValue;
}

bsym_ctx *bsym_r_ctx(void)
{
    if (g_ctx == NULL && bsym_ctx_create(&g_ctx) != BSYM_OK)
        bsym_r_raise(BSYM_ERR_NOMEM, "batchsym: cannot create a context (out of memory)");
    return g_ctx;
}

bsym_ctx *bsym_r_context(const char *device, int threads)
{
    bsym_ctx *ctx = bsym_r_ctx();
    int d = BSYM_DEVICE_AUTO;
    bsym_status st = bsym_choice_parse(ctx, BSYM_CHOICE_DEVICE, "device", device, &d);
    if (st == BSYM_OK)
        st = bsym_ctx_set_device(ctx, (bsym_device)d);
    if (st == BSYM_OK)
        st = bsym_ctx_set_threads(ctx, threads);
    if (st != BSYM_OK)
        bsym_r_stop("batchsym", st);
    bsym_ctx_set_interrupt(ctx, interrupt_hook, NULL);
    bsym_ctx_set_progress(ctx, g_progress != NULL ? progress_hook : NULL, NULL);
    return ctx;
}

void bsym_r_context_free(void)
{
    bsym_ctx_destroy(g_ctx);
    g_ctx = NULL;
}

void bsym_r_raise(bsym_status status, const char *msg)
{
    char cls[64];
    snprintf(cls, sizeof cls, "batchsym_%s", bsym_status_id(status));
    const char *names[] = {"message", "call", ""};
    SEXP cond = PROTECT(mkNamed(VECSXP, names));
    SET_VECTOR_ELT(cond, 0, mkString(msg));
    SEXP klass = PROTECT(allocVector(STRSXP, 3));
    SET_STRING_ELT(klass, 0, mkChar(cls));
    SET_STRING_ELT(klass, 1, mkChar("error"));
    SET_STRING_ELT(klass, 2, mkChar("condition"));
    setAttrib(cond, R_ClassSymbol, klass);
    /* base::stop(cond) signals it (tryCatch(..., batchsym_<id> = ) sees it),
     * then stops with its message; it does not come back */
    SEXP call = PROTECT(lang2(install("stop"), cond));
    eval(call, R_BaseEnv);
    UNPROTECT(3);
    error("%s", msg); /* not reached */
}

void bsym_r_stop(const char *fun, bsym_status status)
{
    char msg[1024];
    const char *core = g_ctx ? bsym_ctx_message(g_ctx) : "";
    snprintf(msg, sizeof msg, "%s: %s%s%s", fun, bsym_status_string(status), *core ? ": " : "",
             core);
    bsym_r_raise(status, msg);
}

int bsym_r_code(bsym_choice kind, SEXP name)
{
    int code = 0;
    if (bsym_choice_parse(bsym_r_ctx(), kind, "choice", CHAR(STRING_ELT(name, 0)), &code) != BSYM_OK)
        bsym_r_stop("batchsym", BSYM_ERR_ARG); /* R has checked it: not reached */
    return code;
}

SEXP bsym_r_failed(bsym_task task, int64_t batch, const int *info, const int *used)
{
    char text[512];
    bsym_failure_summary(task, batch, info, used, text, sizeof text);
    return mkString(text);
}
