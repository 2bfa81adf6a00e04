/*
 * bsym_octave.c -- the one conversion file of the Octave bindings: Octave
 * type and shape checks, mxArray <-> core conversions, option parsing, the
 * process's context, and errors/warnings (see bsym_octave.h for the
 * conventions).
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsym_octave.h"
#include "quit.h" /* octave_interrupt_state: > 0 once Ctrl-C is pending */

_Static_assert(sizeof(int) == 4, "info[] is handed out as an int32 array");

/* ---- errors and warnings ----------------------------------------------- */

/* The public function being served, for messages (bsym_oct_set_caller). */
static const char *caller = "batchsym";

void bsym_oct_set_caller(const char *name)
{
    caller = name;
}

/* "<fn>: <fmt...>" where fn is the public name of the call (bsym_solve). */
static void format_message(char *buf, size_t len, const char *fmt, va_list ap)
{
    int used = snprintf(buf, len, "%s: ", caller);
    if (used < 0 || (size_t)used >= len)
        used = 0;
    vsnprintf(buf + used, len - (size_t)used, fmt, ap);
}

/* Formats "batchsym:<id>" and "<fn>: <message>", then calls Octave's error()
 * or warning() with (fullid, "%s", msg): mexErrMsgIdAndTxt and
 * mexWarnMsgIdAndTxt would prefix the MEX file's private name instead
 * ("__bsym__: ..."). error() does not come back. */
static void call_octave(const char *fn, char *fullid, size_t idlen, char *msg, size_t msglen,
                        const char *id, const char *fmt, va_list ap)
{
    snprintf(fullid, idlen, "batchsym:%s", id);
    format_message(msg, msglen, fmt, ap);
    mxArray *args[3] = {mxCreateString(fullid), mxCreateString("%s"), mxCreateString(msg)};
    mexCallMATLAB(0, NULL, 3, args, fn);
    for (int i = 0; i < 3; i++)
        mxDestroyArray(args[i]);
}

void bsym_oct_error(bsym_status status, const char *fmt, ...)
{
    char fullid[128], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    call_octave("error", fullid, sizeof fullid, msg, sizeof msg, bsym_status_id(status), fmt, ap);
    va_end(ap);
    /* Reached only if error() came back (under mexSetTrapFlag, which these
     * gateways never set): raise it the MEX way, which does not return. */
    mexErrMsgIdAndTxt(fullid, "%s", msg);
    abort();
}

void bsym_oct_warning(const char *id, const char *fmt, ...)
{
    char fullid[128], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    call_octave("warning", fullid, sizeof fullid, msg, sizeof msg, id, fmt, ap);
    va_end(ap);
}

/* ---- the context ------------------------------------------------------- */

/* The core polls this between chunks, from the calling (Octave's) thread. */
static int interrupted(void *data)
{
    (void)data;
    return octave_interrupt_state > 0;
}

/* The one context of the process (NULL until first use and after release),
 * and how many this load of the MEX file has made. `clear functions` (or
 * `clear all`, or exit) calls release_context, then unloads the file, so
 * both start again from zero on the next call. */
static bsym_ctx *process_ctx = NULL;
static int contexts_made = 0;

/* Destroys the context; mexAtExit's hook, and the end of a call whose
 * context may be broken. Set to NULL first, so that it never runs twice on
 * the same context. */
static void release_context(void)
{
    bsym_ctx *ctx = process_ctx;
    process_ctx = NULL;
    bsym_ctx_destroy(ctx);
}

/* Makes the process's context when there is none. */
static bsym_status ensure_context(void)
{
    if (process_ctx != NULL)
        return BSYM_OK;
    bsym_ctx *made = NULL;
    bsym_status st = bsym_ctx_create(&made);
    if (st != BSYM_OK)
        return st;
    bsym_ctx_set_interrupt(made, interrupted, NULL);
    process_ctx = made;
    contexts_made++;
    mexAtExit(release_context);
    return BSYM_OK;
}

/* The 'gpus' option of the call being served (bsym_oct_parse_options; count
 * 0: absent or [], every visible GPU), applied and cleared by
 * bsym_oct_context. ids holds the first BSYM_MAX_GPUS of them: a longer list
 * is refused by the core on its count alone. */
static struct {
    int ids[BSYM_MAX_GPUS];
    int count;
} call_gpus;

bsym_status bsym_oct_context(bsym_device device, bsym_ctx **ctx)
{
    *ctx = NULL;
    const int ngpus = call_gpus.count;
    call_gpus.count = 0; /* used by this call only */
    bsym_status st = ensure_context();
    if (st != BSYM_OK)
        return st;
    /* every call sets what a call may choose; nothing is left from the last
     * (no 'gpus' option: every visible GPU again) */
    st = bsym_ctx_set_threads(process_ctx, 0);
    if (st == BSYM_OK)
        st = bsym_ctx_set_device(process_ctx, device);
    if (st == BSYM_OK)
        st = bsym_ctx_set_gpus(process_ctx, ngpus > 0 ? call_gpus.ids : NULL, ngpus);
    *ctx = process_ctx;
    return st;
}

bsym_ctx *bsym_oct_rules_context(void)
{
    return ensure_context() == BSYM_OK ? process_ctx : NULL;
}

void bsym_oct_context_state(int *created, int *alive)
{
    *created = contexts_made;
    *alive = process_ctx != NULL;
}

/* Raises the error of a failing core status: identifier batchsym:<the
 * core's id of the status>, and the core's message (or the status's
 * sentence when empty). */
BSYM_OCT_NORETURN static void status_error(bsym_status status, const char *core_message)
{
    bsym_oct_error(status, "%s", core_message && core_message[0] ? core_message
                                                                 : bsym_status_string(status));
}

void bsym_oct_finish_all(bsym_status status, bsym_ctx *ctx, void *const *owned, int count)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", ctx ? bsym_ctx_message(ctx) : "");
    if (ctx != NULL && (status == BSYM_ERR_CUDA || status == BSYM_ERR_NOMEM))
        release_context(); /* a broken stream or half-made staging is not reused */
    for (int i = 0; i < count; i++)
        if (owned[i])
            mxFree(owned[i]);
    if (status != BSYM_OK)
        status_error(status, msg);
}

void bsym_oct_finish(bsym_status status, bsym_ctx *ctx, void *owned)
{
    bsym_oct_finish_all(status, ctx, &owned, 1);
}

/* ---- arrays ------------------------------------------------------------ */

void bsym_oct_check_data(const mxArray *a, const char *what, int complex_ok)
{
    if (mxIsNumeric(a) && (complex_ok || !mxIsComplex(a)) && !mxIsSparse(a) && (mxIsDouble(a) || mxIsSingle(a)))
        return;
    bsym_oct_error(BSYM_ERR_ARG, "%s must be a %s, full double or single array (got %s%s%s)", what,
                   complex_ok ? "real or complex" : "real", mxIsSparse(a) ? "sparse " : "",
                   mxIsComplex(a) ? "complex " : "", mxGetClassName(a));
}

void bsym_oct_check_real(const mxArray *a, const char *what)
{
    bsym_oct_check_data(a, what, 0);
}

void bsym_oct_square_batch(const mxArray *a, const char *what, int complex_ok, int64_t *n, int64_t *batch)
{
    bsym_oct_check_data(a, what, complex_ok);
    mwSize nd = mxGetNumberOfDimensions(a);
    const mwSize *d = mxGetDimensions(a);
    if (nd > 3)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be an n x n matrix or an n x n x batch array (got %d dimensions)",
                       what, (int)nd);
    if (d[0] != d[1])
        bsym_oct_error(BSYM_ERR_ARG, "%s must hold square matrices (got %lld x %lld)",
                       what, (long long)d[0], (long long)d[1]);
    *n = (int64_t)d[0];
    *batch = nd == 3 ? (int64_t)d[2] : 1;
}

void bsym_oct_matrix_batch(const mxArray *a, const char *what, int64_t *m, int64_t *p,
                           int64_t *batch)
{
    bsym_oct_check_real(a, what);
    mwSize nd = mxGetNumberOfDimensions(a);
    const mwSize *d = mxGetDimensions(a);
    if (nd > 3)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be an m x p matrix or an m x p x batch array (got %d dimensions)",
                       what, (int)nd);
    *m = (int64_t)d[0];
    *p = (int64_t)d[1];
    *batch = nd == 3 ? (int64_t)d[2] : 1;
}

void bsym_oct_vector_batch(const mxArray *a, const char *what, int64_t *n, int64_t *batch)
{
    bsym_oct_check_real(a, what);
    if (mxGetNumberOfDimensions(a) > 2)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be an n x batch matrix or a column vector (got %d dimensions)",
                       what, (int)mxGetNumberOfDimensions(a));
    *n = (int64_t)mxGetM(a);
    *batch = (int64_t)mxGetN(a);
}

void bsym_oct_offdiag_batch(const mxArray *a, const char *what, const char *dwhat,
                            int64_t n, int64_t batch)
{
    bsym_oct_check_real(a, what);
    int64_t rows = n > 0 ? n - 1 : 0;
    if (mxGetNumberOfDimensions(a) > 2)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be an (n-1) x batch matrix (got %d dimensions)",
                       what, (int)mxGetNumberOfDimensions(a));
    if (rows * batch == 0 ? !mxIsEmpty(a) : (int64_t)mxGetM(a) != rows || (int64_t)mxGetN(a) != batch)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be (n-1) x batch = %lld x %lld to fit %s (%lld x %lld), "
                       "got %lld x %lld", what, (long long)rows, (long long)batch, dwhat, (long long)n,
                       (long long)batch, (long long)mxGetM(a), (long long)mxGetN(a));
}

/* Right-hand sides (or responses: `word`) for a batch of `batch` rows x cols
 * systems, the rows called `r` in messages. */
static void rhs_shape(const mxArray *b, const char *what, const char *awhat, int complex_ok, int64_t rows,
                      int64_t cols, const char *r, const char *word, int64_t batch, int64_t *nrhs)
{
    bsym_oct_check_data(b, what, complex_ok);
    mwSize nd = mxGetNumberOfDimensions(b);
    const mwSize *d = mxGetDimensions(b);
    if (nd > 3)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be %s x batch, %s x k x batch, or %s x k for a single "
                       "system (got %d dimensions)", what, r, r, r, (int)nd);
    if ((int64_t)d[0] != rows)
        bsym_oct_error(BSYM_ERR_ARG, "%s has %lld row%s but the systems in %s are %lld x %lld",
                       what, (long long)d[0], d[0] == 1 ? "" : "s", awhat, (long long)rows,
                       (long long)cols);
    if (nd == 3) {                 /* rows x nrhs x batch */
        if ((int64_t)d[2] != batch)
            bsym_oct_error(BSYM_ERR_ARG, "size (%s, 3) is %lld but %s holds %lld systems",
                           what, (long long)d[2], awhat, (long long)batch);
        *nrhs = (int64_t)d[1];
    } else if (batch == 1) {       /* rows x nrhs for one system (a column: nrhs = 1) */
        *nrhs = (int64_t)d[1];
    } else {                       /* rows x batch: one right-hand side per system */
        if ((int64_t)d[1] != batch)
            bsym_oct_error(BSYM_ERR_ARG, "%s has %lld columns but %s holds %lld systems "
                           "(give %s x batch, or %s x k x batch for k %s each)",
                           what, (long long)d[1], awhat, (long long)batch, r, r, word);
        *nrhs = 1;
    }
}

void bsym_oct_rhs_batch(const mxArray *b, const char *what, const char *awhat, int complex_ok,
                        int64_t n, int64_t batch, int64_t *nrhs)
{
    rhs_shape(b, what, awhat, complex_ok, n, n, "n", "right-hand sides", batch, nrhs);
}

void bsym_oct_response_batch(const mxArray *y, const char *what, const char *xwhat,
                             int64_t m, int64_t p, int64_t batch, int64_t *nrhs)
{
    rhs_shape(y, what, xwhat, 0, m, p, "m", "responses", batch, nrhs);
}

mxClassID bsym_oct_precision(const mxArray *const *arrays, int count)
{
    for (int i = 0; i < count; i++)
        if (mxIsSingle(arrays[i]))
            return mxSINGLE_CLASS;
    return mxDOUBLE_CLASS;
}

/* Copies count values from src (class scls) to dst (class dcls), converting
 * between double and single where the classes differ. */
static void convert(const void *src, mxClassID scls, void *dst, mxClassID dcls, size_t count)
{
    if (count == 0)
        return;
    if (scls == dcls) {
        memcpy(dst, src, count * (dcls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double)));
    } else if (dcls == mxSINGLE_CLASS) {
        const double *s = src;
        float *t = dst;
        for (size_t i = 0; i < count; i++)
            t[i] = (float)s[i];
    } else {
        const float *s = src;
        double *t = dst;
        for (size_t i = 0; i < count; i++)
            t[i] = s[i];
    }
}

const void *bsym_oct_data_as(const mxArray *a, mxClassID cls, void **owned)
{
    *owned = NULL;
    if (mxGetClassID(a) == cls)
        return mxGetData(a);
    size_t count = mxGetNumberOfElements(a);
    size_t size = cls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double);
    *owned = mxMalloc(count > 0 ? count * size : 1);
    convert(mxGetData(a), mxGetClassID(a), *owned, cls, count);
    return *owned;
}

mxArray *bsym_oct_new_like(const mxArray *a, int64_t rows, mxClassID cls)
{
    mwSize nd = mxGetNumberOfDimensions(a), dims[8]; /* the batches have <= 3 */
    const mwSize *d = mxGetDimensions(a);
    for (mwSize i = 0; i < nd && i < 8; i++)
        dims[i] = d[i];
    dims[0] = (mwSize)rows;
    return mxCreateNumericArray(nd < 8 ? nd : 8, dims, cls, mxREAL);
}

/* bsym_oct_result's array, complex when `cplx`. */
static mxArray *result_of(mxClassID cls, int cplx, mwSize nd, const mwSize *dims)
{
    mxArray *args[9], *out = NULL;
    nd = nd < 8 ? nd : 8;
    args[0] = mxCreateString(cplx ? (cls == mxSINGLE_CLASS ? "complex single" : "complex double")
                                  : (cls == mxSINGLE_CLASS ? "single" : "double"));
    for (mwSize i = 0; i < nd; i++)
        args[i + 1] = mxCreateDoubleScalar((double)dims[i]);
    mxArray *err = mexCallMATLABWithTrap(1, &out, (int)nd + 1, args, "__bsym_empty__");
    for (mwSize i = 0; i <= nd; i++)
        mxDestroyArray(args[i]);
    if (err != NULL) { /* no __bsym_empty__ beside the MEX: a package built without it */
        mxDestroyArray(err);
        if (cplx)
            bsym_oct_error(BSYM_ERR_NOMEM, "__bsym_empty__ is missing beside the MEX file: no complex result "
                           "can be made (Octave's mxCreateNumericArray allocates too little for one)");
        out = mxCreateUninitNumericArray(nd, (mwSize *)dims, cls, mxREAL);
    }
    /* its pages faulted in by the OpenMP team, not inside the call */
    bsym_host_touch(mxGetData(out), mxGetNumberOfElements(out) * (cls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double)) * (cplx ? 2 : 1));
    return out;
}

mxArray *bsym_oct_result(mxClassID cls, mwSize nd, const mwSize *dims)
{
    return result_of(cls, 0, nd, dims);
}

mxArray *bsym_oct_result_complex(mxClassID cls, mwSize nd, const mwSize *dims)
{
    return result_of(cls, 1, nd, dims);
}

/* The copy is an array of Octave's own (bsym_oct_result, filled bit for bit
 * by the core's parallel bsym_host_copy; or Octave's single (a) or double (a)
 * where the class changes), not shared with any variable: the core writes it
 * in place and Octave hands it back as it is, where it copies every result
 * built on an mxMalloc'ed buffer on the way out (a second pass over the
 * solutions; see inst/bench/host_calls.m). */
mxArray *bsym_oct_copy_as(const mxArray *a, mxClassID cls)
{
    mxArray *in[1] = {(mxArray *)a}, *r = NULL; /* a is only read */
    if (mxGetClassID(a) != cls) {
        mexCallMATLAB(1, &r, 1, in, cls == mxSINGLE_CLASS ? "single" : "double");
    } else {
        r = bsym_oct_result(cls, mxGetNumberOfDimensions(a), mxGetDimensions(a));
        bsym_host_copy(mxGetData(r), mxGetData(a), mxGetNumberOfElements(a) * mxGetElementSize(a));
    }
    return r;
}

/* Copies count complex values into dst (interleaved, class dcls) from a
 * (real or complex, double or single). */
static void to_complex(const mxArray *a, void *dst, mxClassID dcls, size_t count)
{
    const int cplx = mxIsComplex(a), single = mxIsSingle(a);
    const void *src = mxGetData(a); /* complex: the interleaved {re, im} data */
    for (size_t i = 0; i < count; i++) {
        double re, im = 0;
        if (single) {
            re = ((const float *)src)[cplx ? 2 * i : i];
            if (cplx)
                im = ((const float *)src)[2 * i + 1];
        } else {
            re = ((const double *)src)[cplx ? 2 * i : i];
            if (cplx)
                im = ((const double *)src)[2 * i + 1];
        }
        if (dcls == mxSINGLE_CLASS) {
            ((float *)dst)[2 * i] = (float)re;
            ((float *)dst)[2 * i + 1] = (float)im;
        } else {
            ((double *)dst)[2 * i] = re;
            ((double *)dst)[2 * i + 1] = im;
        }
    }
}


const void *bsym_oct_complex_as(const mxArray *a, mxClassID cls, void **owned)
{
    *owned = NULL;
    /* mxGetData of a complex array: its interleaved {re, im} data (not
     * mxGetComplexSingles, which refuses Octave's own single complex arrays
     * in Octave 7.3: "mex_get_data: type mismatch") */
    if (mxIsComplex(a) && mxGetClassID(a) == cls)
        return mxGetData(a);
    const size_t count = mxGetNumberOfElements(a);
    *owned = mxMalloc(count > 0 ? 2 * count * (cls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double)) : 1);
    to_complex(a, *owned, cls, count);
    return *owned;
}

mxArray *bsym_oct_complex_copy(const mxArray *a, mxClassID cls)
{
    mxArray *r = result_of(cls, 1, mxGetNumberOfDimensions(a), mxGetDimensions(a));
    const size_t count = mxGetNumberOfElements(a);
    if (count == 0)
        return r;
    if (mxIsComplex(a) && mxGetClassID(a) == cls)
        bsym_host_copy(mxGetData(r), mxGetData(a), 2 * count * (cls == mxSINGLE_CLASS ? sizeof(float) : sizeof(double)));
    else
        to_complex(a, mxGetData(r), cls, count);
    return r;
}

/* ---- per-system info --------------------------------------------------- */

mxArray *bsym_oct_info_new(int64_t batch, int **data)
{
    mxArray *info = mxCreateNumericMatrix(1, (mwSize)batch, mxINT32_CLASS, mxREAL);
    *data = mxGetData(info);
    return info;
}

void bsym_oct_info_out(mxArray *info, int nlhs, mxArray *plhs[], int index, const char *id,
                       bsym_task task, const int *used, const char *what)
{
    if (nlhs > index) {
        plhs[index] = info;
        return;
    }
    char summary[512];
    int64_t bad = bsym_failure_summary(task, (int64_t)mxGetNumberOfElements(info), mxGetData(info),
                                       used, summary, sizeof summary);
    mxDestroyArray(info);
    if (bad > 0)
        bsym_oct_warning(id, "%s; %s", summary, what);
}

/* ---- truncated-spectrum and automatic solves ----------------------------- */

mxArray *bsym_oct_rank_new(const int *rank, const int *info, int64_t batch)
{
    mxArray *r = mxCreateDoubleMatrix(1, (mwSize)batch, mxREAL);
    double *v = mxGetPr(r);
    for (int64_t k = 0; k < batch; k++)
        v[k] = info[k] == 0 ? (double)rank[k] : NAN;
    return r;
}

mxArray *bsym_oct_methods_new(const int *used, const int *info, int64_t batch)
{
    mxArray *c = mxCreateCellMatrix(1, (mwSize)batch);
    for (int64_t k = 0; k < batch; k++) {
        const char *name = bsym_used_name(used[k], info[k]); /* NULL: failed */
        mxSetCell(c, (mwIndex)k, mxCreateString(name ? name : ""));
    }
    return c;
}

/* A plan's fields: the core's six counts (bsym_plan_field_name), then next. */
enum { PLAN_FIELDS = BSYM_PLAN_FIELDS + 1 };

mxArray *bsym_oct_plan_new(const bsym_plan *plan)
{
    const char *names[PLAN_FIELDS];
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        names[i] = bsym_plan_field_name(i);
    names[BSYM_PLAN_FIELDS] = "next";
    double counts[BSYM_PLAN_FIELDS];
    bsym_plan_to_fields(plan, counts);
    mxArray *s = mxCreateStructMatrix(1, 1, PLAN_FIELDS, names);
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        mxSetFieldByNumber(s, 0, i, mxCreateDoubleScalar(counts[i]));
    bsym_method next = bsym_plan_start(plan);
    const char *name = next != BSYM_METHOD_AUTO ? bsym_choice_name(BSYM_CHOICE_METHOD, next) : NULL;
    mxSetFieldByNumber(s, 0, BSYM_PLAN_FIELDS, mxCreateString(name ? name : ""));
    return s;
}

void bsym_oct_plan_in(const mxArray *a, const char *what, bsym_plan *plan)
{
    bsym_plan_init(plan);
    if (a == NULL || (mxIsEmpty(a) && mxIsNumeric(a)))
        return;
    if (!mxIsStruct(a))
        bsym_oct_error(BSYM_ERR_ARG, "%s must be a plan, the struct that bsym_plan () and the "
                       "plan outputs return (got %s)", what, mxGetClassName(a));
    if (mxGetNumberOfElements(a) != 1)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be one plan, a 1 x 1 struct (got a struct array "
                       "of %lld elements)", what, (long long)mxGetNumberOfElements(a));
    /* Octave's part: each count there, a real numeric scalar; the values
     * (whole, >= 0, consistent) are the core's rule */
    double counts[BSYM_PLAN_FIELDS];
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++) {
        const char *field = bsym_plan_field_name(i);
        const mxArray *f = mxGetField(a, 0, field);
        if (f == NULL)
            bsym_oct_error(BSYM_ERR_ARG, "%s lacks the field '%s' (a plan has calls, systems, "
                           "not_spd, fallback, last_systems, last_fallback: use bsym_plan ())",
                           what, field);
        if (!mxIsNumeric(f) || mxIsComplex(f) || mxIsSparse(f) || mxGetNumberOfElements(f) != 1)
            bsym_oct_error(BSYM_ERR_ARG, "%s: field '%s' must be a real numeric scalar", what,
                           field);
        counts[i] = mxGetScalar(f);
    }
    bsym_ctx *ctx = bsym_oct_rules_context();
    bsym_oct_finish(bsym_plan_from_fields(ctx, what, counts, plan), ctx, NULL);
}

void bsym_oct_solvex_options(int method, const mxArray *rcond, const mxArray *tol,
                             const mxArray *plan, bsym_oct_solvex_opts *out)
{
    /* Octave's part: real scalars; their ranges are the core's rule */
    double r = rcond ? bsym_oct_scalar_option(rcond, "rcond") : BSYM_RCOND_DEFAULT;
    double t = tol ? bsym_oct_scalar_option(tol, "tol") : 0.0;
    bsym_oct_plan_in(plan, "option 'plan'", &out->plan);
    bsym_ctx *ctx = bsym_oct_rules_context();
    bsym_oct_finish(bsym_solve_opts_make(ctx, method, r, tol ? &t : NULL, &out->plan, &out->opts),
                    ctx, NULL);
}

/* ---- name/value options ------------------------------------------------ */

/* Case-insensitive string equality. */
static int same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int bsym_oct_choice_index(const char *value, const char *const *choices)
{
    for (int c = 0; choices[c]; c++)
        if (same_word(value, choices[c]))
            return c;
    return -1;
}

/* Copies a string argument into buf (truncated to len - 1 characters; no
 * allocation, so nothing to release before an error), or raises, naming
 * what it is. */
static void string_arg(const mxArray *a, const char *what, char *buf, size_t len)
{
    if (!mxIsChar(a) || mxGetM(a) > 1)
        bsym_oct_error(BSYM_ERR_ARG, "%s must be a string (got %s)", what, mxGetClassName(a));
    mxGetString(a, buf, (mwSize)len);
}

/* "'a', 'b', 'c'" from a NULL-terminated list, for messages. */
static void list_words(char *buf, size_t len, const char *const *words)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; words[i]; i++) {
        int r = snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", words[i]);
        if (r < 0 || (size_t)r >= len - used)
            break;
        used += (size_t)r;
    }
}

int bsym_oct_choice(const mxArray *a, const char *what, const char *const *choices)
{
    char value[64], list[256];
    string_arg(a, what, value, sizeof value);
    int c = bsym_oct_choice_index(value, choices);
    if (c < 0) {
        list_words(list, sizeof list, choices);
        bsym_oct_error(BSYM_ERR_ARG, "%s must be one of %s (got '%s')", what, list, value);
    }
    return c;
}

/* The value of the 'gpus' option into call_gpus. Octave's part: a real
 * numeric vector (or []) of whole numbers that an int holds; the ids
 * themselves (>= 0, distinct, visible, how many) are the core's rule,
 * checked by bsym_ctx_set_gpus in bsym_oct_context. */
static void gpus_option(const mxArray *a)
{
    const size_t count = mxIsNumeric(a) ? mxGetNumberOfElements(a) : 0;
    int ok = mxIsNumeric(a) && !mxIsComplex(a) && !mxIsSparse(a) &&
             (count == 0 || mxGetNumberOfDimensions(a) == 2) && (count == 0 || mxGetM(a) == 1 || mxGetN(a) == 1);
    mxArray *as_double = NULL;
    if (ok && count > 0) {
        mxArray *in = (mxArray *)a; /* only read */
        mexCallMATLAB(1, &as_double, 1, &in, "double");
        const double *v = mxGetPr(as_double);
        for (size_t i = 0; ok && i < count; i++) {
            ok = isfinite(v[i]) && v[i] == floor(v[i]) && fabs(v[i]) <= INT_MAX;
            if (ok && i < BSYM_MAX_GPUS)
                call_gpus.ids[i] = (int)v[i];
        }
        mxDestroyArray(as_double);
    }
    if (!ok)
        bsym_oct_error(BSYM_ERR_ARG, "option 'gpus' must be a vector of GPU device ids, whole numbers "
                       "such as [0 1], or [] for every visible GPU (got %s%s%s with %lld element%s)",
                       mxIsSparse(a) ? "sparse " : "", mxIsComplex(a) ? "complex " : "",
                       mxGetClassName(a), (long long)mxGetNumberOfElements(a),
                       mxGetNumberOfElements(a) == 1 ? "" : "s");
    call_gpus.count = count > INT_MAX ? INT_MAX : (int)count;
}

void bsym_oct_parse_options(int nargs, const mxArray *const *args, bsym_oct_option *opts, int nopts)
{
    /* 'gpus' goes with 'device': every function that takes a device takes
     * the GPUs of a GPU call too; absent, every visible GPU */
    int device = 0;
    for (int o = 0; o < nopts; o++)
        device |= same_word(opts[o].name, "device");
    call_gpus.count = 0;
    if (nargs % 2 != 0)
        bsym_oct_error(BSYM_ERR_ARG, "options must come in name/value pairs (got %d argument%s after the "
                       "inputs)", nargs, nargs == 1 ? "" : "s");
    for (int a = 0; a < nargs; a += 2) {
        char name[64], what[96], list[256];
        string_arg(args[a], "an option name", name, sizeof name);
        if (device && same_word(name, "gpus")) {
            gpus_option(args[a + 1]);
            continue;
        }
        int o = 0;
        while (o < nopts && !same_word(name, opts[o].name))
            o++;
        if (o == nopts) {
            const char *names[17];
            int m = nopts < 15 ? nopts : 15;
            for (int i = 0; i < m; i++)
                names[i] = opts[i].name;
            if (device)
                names[m++] = "gpus";
            names[m] = NULL;
            list_words(list, sizeof list, names);
            bsym_oct_error(BSYM_ERR_ARG, "unknown option '%s' (options: %s)", name, list);
        }
        if (opts[o].choices == NULL) { /* any array: the gateway checks it */
            opts[o].array = args[a + 1];
            continue;
        }
        snprintf(what, sizeof what, "option '%s'", opts[o].name);
        opts[o].value = bsym_oct_choice(args[a + 1], what, opts[o].choices);
    }
}

double bsym_oct_scalar_option(const mxArray *a, const char *name)
{
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a) || mxGetNumberOfElements(a) != 1)
        bsym_oct_error(BSYM_ERR_ARG, "option '%s' must be a real scalar (got %s%s%s with %lld "
                       "element%s)", name, mxIsSparse(a) ? "sparse " : "",
                       mxIsComplex(a) ? "complex " : "", mxGetClassName(a),
                       (long long)mxGetNumberOfElements(a), mxGetNumberOfElements(a) == 1 ? "" : "s");
    return mxGetScalar(a);
}

/* ---- the core's name tables --------------------------------------------- */

_Static_assert(BSYM_CHOICE_METHOD == 0 && BSYM_CHOICE_DEVICE == 1 && BSYM_CHOICE_PRECISION == 2 &&
               BSYM_CHOICE_UPLO == 3 && BSYM_CHOICE_BOUNDARY == 4, "bsym_oct_choices keeps one list per bsym_choice");

const char *const *bsym_oct_choices(bsym_choice kind)
{
    enum { KINDS = 5, MOST = 15 };
    static const char *lists[KINDS][MOST + 1]; /* zeros: each list ends with NULL */
    static int filled[KINDS];
    if ((int)kind < 0 || (int)kind >= KINDS)
        bsym_oct_error(BSYM_ERR_ARG, "unknown list of choices %d", (int)kind);
    if (!filled[kind]) {
        for (int i = 0; i < MOST && (lists[kind][i] = bsym_choice_name(kind, i)) != NULL; i++)
            ;
        filled[kind] = 1;
    }
    return lists[kind];
}

/* ---- the default device ------------------------------------------------ */

bsym_device bsym_oct_default_device(void)
{
    const char *value = getenv("BSYM_OCTAVE_DEVICE");
    if (value == NULL || value[0] == '\0')
        return BSYM_DEVICE_AUTO;
    int c = bsym_oct_choice_index(value, bsym_oct_choices(BSYM_CHOICE_DEVICE));
    if (c < 0) {
        char list[64];
        list_words(list, sizeof list, bsym_oct_choices(BSYM_CHOICE_DEVICE));
        bsym_oct_error(BSYM_ERR_ARG, "the default device, environment variable "
                       "BSYM_OCTAVE_DEVICE, must be one of %s or unset (got '%.64s'); set it "
                       "with bsym_device", list, value);
    }
    return (bsym_device)c;
}
