/*
 * rules.c -- the names, ids and checks that the R and Octave bindings share
 * (see the last section of batchsym.h): written once here, so that a rule
 * lives in the core and both bindings read it. Pure C; never prints.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- status ids ------------------------------------------------------------ */

const char *bsym_status_id(bsym_status status)
{
    switch (status) {
    case BSYM_OK:              return "ok";
    case BSYM_ERR_ARG:         return "bad_argument";
    case BSYM_ERR_NOMEM:       return "out_of_memory";
    case BSYM_ERR_NODEVICE:    return "no_device";
    case BSYM_ERR_CUDA:        return "cuda_failure";
    case BSYM_ERR_SIZE:        return "size_unsupported";
    case BSYM_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

/* ---- name tables ------------------------------------------------------------ */

/* Each list in code order, NULL-terminated; the asserts tie the positions to
 * the enums. */
static const char *const method_names[] = {"ldlt", "tridiag", "eigen", "auto", "bunch-kaufman", "aasen", NULL};
static const char *const device_names[] = {"auto", "cpu", "gpu", NULL};
static const char *const precision_names[] = {"double", "single", NULL};
static const char *const uplo_names[] = {"L", "U", NULL};
static const char *const boundary_names[] = {"linear", "dirichlet", NULL};
_Static_assert(BSYM_METHOD_LDLT == 0 && BSYM_METHOD_TRIDIAG == 1 && BSYM_METHOD_EIGEN == 2 &&
                   BSYM_METHOD_AUTO == 3 && BSYM_METHOD_BUNCH_KAUFMAN == 4 && BSYM_METHOD_AASEN == 5,
               "method_names follows bsym_method");
_Static_assert(BSYM_PDE_LINEAR == 0 && BSYM_PDE_DIRICHLET == 1, "boundary_names follows bsym_pde_boundary");
_Static_assert(BSYM_DEVICE_AUTO == 0 && BSYM_DEVICE_CPU == 1 && BSYM_DEVICE_GPU == 2,
               "device_names follows bsym_device");
_Static_assert(BSYM_PRECISION_DOUBLE == 0 && BSYM_PRECISION_SINGLE == 1,
               "precision_names follows bsym_precision");

static const char *const *choice_list(bsym_choice kind)
{
    switch (kind) {
    case BSYM_CHOICE_METHOD:    return method_names;
    case BSYM_CHOICE_DEVICE:    return device_names;
    case BSYM_CHOICE_PRECISION: return precision_names;
    case BSYM_CHOICE_UPLO:      return uplo_names;
    case BSYM_CHOICE_BOUNDARY:  return boundary_names;
    }
    return NULL;
}

const char *bsym_choice_name(bsym_choice kind, int code)
{
    const char *const *list = choice_list(kind);
    if (list == NULL || code < 0)
        return NULL;
    for (int i = 0; list[i] != NULL; i++)
        if (i == code)
            return list[i];
    return NULL;
}

/* Appends printf output at buf[*used], keeping it NUL-terminated and
 * truncated to len. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (len == 0 || *used >= len - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (r > 0)
        *used = *used + (size_t)r < len - 1 ? *used + (size_t)r : len - 1;
}

bsym_status bsym_choice_parse(bsym_ctx *ctx, bsym_choice kind, const char *arg, const char *value,
                              int *code)
{
    if (ctx != NULL)
        bsym__begin(ctx);
    const char *const *list = choice_list(kind);
    if (list == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "%s: unknown list of choices %d", arg, (int)kind);
    for (int i = 0; value != NULL && list[i] != NULL; i++)
        if (strcmp(value, list[i]) == 0) {
            *code = i;
            return BSYM_OK;
        }
    char names[160];
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; list[i] != NULL; i++)
        append(names, sizeof names, &used, "%s\"%s\"", i ? ", " : "", list[i]);
    if (value == NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "%s must be one of %s (got something other than a single string)", arg,
                          names);
    return bsym__fail(ctx, BSYM_ERR_ARG, "%s must be one of %s (got \"%.80s\")", arg, names, value);
}

/* x for a message: %g, with NaN, Inf and -Inf spelled as R and Octave do. */
static const char *num(char *buf, size_t len, double x)
{
    if (isnan(x))
        snprintf(buf, len, "NaN");
    else if (isinf(x))
        snprintf(buf, len, "%sInf", x < 0 ? "-" : "");
    else
        snprintf(buf, len, "%.15g", x);
    return buf;
}

/* ---- plans --------------------------------------------------------------------- */

static const char *const plan_names[BSYM_PLAN_FIELDS + 1] = {
    "calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback", NULL};

const char *bsym_plan_field_name(int i)
{
    return i >= 0 && i < BSYM_PLAN_FIELDS ? plan_names[i] : NULL;
}

/* The address of count i of plan, in plan_names' order. */
static int64_t *plan_count(bsym_plan *plan, int i)
{
    int64_t *c[BSYM_PLAN_FIELDS] = {&plan->calls,    &plan->systems,      &plan->not_spd,
                                    &plan->fallback, &plan->last_systems, &plan->last_fallback};
    return c[i];
}

void bsym_plan_to_fields(const bsym_plan *plan, double fields[BSYM_PLAN_FIELDS])
{
    bsym_plan p = *plan; /* plan_count hands out writable pointers */
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        fields[i] = (double)*plan_count(&p, i);
}

/* The consistency rule, messages naming the plan `arg`. */
static bsym_status plan_check(bsym_ctx *ctx, const char *arg, const bsym_plan *plan)
{
    bsym_plan p = *plan;
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++)
        if (*plan_count(&p, i) < 0)
            return bsym__fail(ctx, BSYM_ERR_ARG, "%s is not a plan that batchsym wrote (%s < 0)",
                              arg, plan_names[i]);
    const char *bad = p.not_spd > p.systems              ? "not_spd exceeds systems"
                      : p.fallback > p.systems           ? "fallback exceeds systems"
                      : p.last_systems > p.systems       ? "last_systems exceeds systems"
                      : p.last_fallback > p.last_systems ? "last_fallback exceeds last_systems"
                                                         : NULL;
    if (bad != NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG, "%s is not a plan that batchsym wrote (%s)", arg, bad);
    return BSYM_OK;
}

bsym_status bsym_plan_check(bsym_ctx *ctx, const bsym_plan *plan)
{
    if (plan == NULL)
        return BSYM_OK;
    return plan_check(ctx, "plan", plan);
}

bsym_status bsym_plan_from_fields(bsym_ctx *ctx, const char *arg,
                                  const double fields[BSYM_PLAN_FIELDS], bsym_plan *plan)
{
    if (ctx != NULL)
        bsym__begin(ctx);
    const double big = 9007199254740992.0; /* 2^53: every whole number up to it is exact */
    char b[32];
    bsym_plan_init(plan);
    for (int i = 0; i < BSYM_PLAN_FIELDS; i++) {
        const double v = fields[i];
        if (!(v >= 0 && v <= big && v == floor(v)))
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "%s: field %s must be a whole number >= 0 (got %s); make a new plan "
                              "with bsym_plan()",
                              arg, plan_names[i], num(b, sizeof b, v));
        *plan_count(plan, i) = (int64_t)v;
    }
    return plan_check(ctx, arg, plan);
}

/* ---- solve options ------------------------------------------------------------- */

bsym_status bsym_solve_opts_check(bsym_ctx *ctx, const bsym_solve_opts *opts)
{
    char b[32];
    if (opts == NULL)
        return BSYM_OK; /* the defaults */
    if (opts->method < BSYM_METHOD_LDLT || opts->method > BSYM_METHOD_AASEN)
        return bsym__fail(ctx, BSYM_ERR_ARG, "method: unknown method code %d", (int)opts->method);
    if (!(opts->rcond >= 0 && opts->rcond < 1))
        return bsym__fail(ctx, BSYM_ERR_ARG, "rcond must be a single number in [0, 1) (got %s)",
                          num(b, sizeof b, opts->rcond));
    if (!(opts->tol <= DBL_MAX))
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "tol must be a finite number (got %s; <= 0 selects the default)",
                          num(b, sizeof b, opts->tol));
    if (opts->method == BSYM_METHOD_AUTO)
        return bsym_plan_check(ctx, opts->plan);
    return BSYM_OK;
}

bsym_status bsym_solve_opts_make(bsym_ctx *ctx, int method, double rcond, const double *tol,
                                 bsym_plan *plan, bsym_solve_opts *out)
{
    if (ctx != NULL)
        bsym__begin(ctx);
    char b[32];
    out->method = (bsym_method)method;
    out->rcond = rcond;
    out->tol = 0.0; /* the core's default, 16 n eps */
    out->plan = plan;
    if (tol != NULL) {
        if (!(*tol > 0 && *tol <= DBL_MAX))
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "tol must be a single positive finite number, or left out for the "
                              "default 16 n eps (got %s)",
                              num(b, sizeof b, *tol));
        out->tol = *tol;
    }
    return bsym_solve_opts_check(ctx, out);
}

/* ---- eigenvalue selection ------------------------------------------------------ */

bsym_status bsym_select_check(bsym_ctx *ctx, const bsym_select *sel, int64_t n)
{
    char b0[32], b1[32];
    if (sel == NULL)
        return BSYM_OK;
    switch (sel->kind) {
    case BSYM_SELECT_ALL:
        return BSYM_OK;
    case BSYM_SELECT_INDEX:
        if (sel->il < 1 || sel->il > sel->iu || sel->iu > n)
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "index: need 1 <= il <= iu <= n (il = %lld, iu = %lld, n = %lld)",
                              (long long)sel->il, (long long)sel->iu, (long long)n);
        return BSYM_OK;
    case BSYM_SELECT_VALUE:
        if (!(sel->vl < sel->vu))
            return bsym__fail(ctx, BSYM_ERR_ARG, "interval: need vl < vu (vl = %s, vu = %s)",
                              num(b0, sizeof b0, sel->vl), num(b1, sizeof b1, sel->vu));
        return BSYM_OK;
    }
    return bsym__fail(ctx, BSYM_ERR_ARG, "sel: unknown selection kind %d", (int)sel->kind);
}

bsym_status bsym_select_make(bsym_ctx *ctx, const double *index, const double *interval,
                             int64_t n, int descending, bsym_select *sel)
{
    if (ctx != NULL)
        bsym__begin(ctx);
    char b0[32], b1[32];
    sel->kind = BSYM_SELECT_ALL;
    sel->il = sel->iu = 0;
    sel->vl = sel->vu = 0.0;
    if (index != NULL && interval != NULL)
        return bsym__fail(ctx, BSYM_ERR_ARG,
                          "index and interval cannot both be given: choose the eigenvalues by "
                          "rank or by value");
    if (index != NULL) {
        const double i = index[0], j = index[1];
        if (!(i == floor(i) && j == floor(j) && i >= 1 && i <= j && j <= (double)n))
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "index must be two integers 1 <= i <= j <= n (n = %lld, got %s, %s)",
                              (long long)n, num(b0, sizeof b0, i), num(b1, sizeof b1, j));
        sel->kind = BSYM_SELECT_INDEX;
        /* the core counts from the smallest: the i-th to j-th largest are the
         * (n - j + 1)-th to (n - i + 1)-th smallest */
        sel->il = descending ? n - (int64_t)j + 1 : (int64_t)i;
        sel->iu = descending ? n - (int64_t)i + 1 : (int64_t)j;
    } else if (interval != NULL) {
        const double lo = interval[0], hi = interval[1];
        if (!(lo < hi))
            return bsym__fail(ctx, BSYM_ERR_ARG,
                              "interval must be two numbers lo < hi, the values in (lo, hi] "
                              "being kept (got %s, %s)",
                              num(b0, sizeof b0, lo), num(b1, sizeof b1, hi));
        sel->kind = BSYM_SELECT_VALUE;
        sel->vl = lo;
        sel->vu = hi;
    }
    return bsym_select_check(ctx, sel, n);
}

int64_t bsym_select_rows(const bsym_select *sel, int64_t n, int64_t batch, const int *count)
{
    if (sel == NULL || sel->kind == BSYM_SELECT_ALL)
        return n;
    if (sel->kind == BSYM_SELECT_INDEX)
        return sel->iu - sel->il + 1;
    int64_t rows = 0;
    for (int64_t k = 0; k < batch; k++)
        if (count[k] > rows)
            rows = count[k];
    return rows < n ? rows : n;
}

#define BSYM_PACK_PARALLEL_MIN ((int64_t)1 << 20)
#include "prec_double.h"
#include "select_pack_impl.h"
#include "prec_end.h"
#include "prec_float.h"
#include "select_pack_impl.h"
#include "prec_end.h"

void bsym_dselect_pack(int64_t n, int64_t rows, int64_t batch, const int *count, const int *info,
                       int descending, double fill, const double *w, const double *V, double *ow,
                       double *ov)
{
    select_pack_d(n, rows, batch, count, info, descending, fill, w, V, ow, ov);
}

void bsym_sselect_pack(int64_t n, int64_t rows, int64_t batch, const int *count, const int *info,
                       int descending, float fill, const float *w, const float *V, float *ow,
                       float *ov)
{
    select_pack_s(n, rows, batch, count, info, descending, fill, w, V, ow, ov);
}

/* ---- failed systems ----------------------------------------------------------- */

int64_t bsym_failure_summary(bsym_task task, int64_t batch, const int *info, const int *used,
                             char *buf, size_t len)
{
    static const char *const verbs[] = {"solved", "fitted", "solved", "tridiagonalized",
                                        "diagonalized", "solved"};
    int64_t bad = 0, nonfinite = 0, breakdown = 0, unconverged = 0, first = -1;
    for (int64_t k = 0; k < batch; k++) {
        if (info[k] == 0)
            continue;
        bad++;
        if (first < 0)
            first = k;
        if (info[k] < 0)
            nonfinite++;
        else if (task == BSYM_TASK_EIGEN ||
                 ((task == BSYM_TASK_SOLVE || task == BSYM_TASK_LSFIT) && used != NULL &&
                  used[k] == BSYM_METHOD_EIGEN))
            unconverged++;
        else
            breakdown++;
    }
    size_t at = 0;
    if (len > 0)
        buf[0] = '\0';
    if (bad == 0)
        return 0;
    const int t = task >= BSYM_TASK_SOLVE && task <= BSYM_TASK_PDE ? (int)task : 0;
    append(buf, len, &at, "%lld of %lld systems could not be %s (", (long long)bad,
           (long long)batch, verbs[t]);
    const char *sep = "";
    if (nonfinite > 0) {
        append(buf, len, &at, "%lld %s", (long long)nonfinite,
               task == BSYM_TASK_LSFIT ? "non-finite data or a negative or non-finite weight"
                                       : "non-finite input");
        sep = ", ";
    }
    if (breakdown > 0) {
        append(buf, len, &at, "%s%lld pivot breakdown%s: singular or nearly so", sep,
               (long long)breakdown, breakdown > 1 ? "s" : "");
        sep = ", ";
    }
    if (unconverged > 0)
        append(buf, len, &at, "%s%lld no convergence", sep, (long long)unconverged);
    append(buf, len, &at, "; the first is system %lld, info %d)", (long long)first + 1,
           info[first]);
    return bad;
}

const char *bsym_used_name(int used, int info)
{
    if (info != 0 || used < BSYM_METHOD_LDLT || used > BSYM_METHOD_AASEN || used == BSYM_METHOD_AUTO)
        return NULL;
    return method_names[used];
}

/* ---- plans: the path the next automatic call starts with ----------------------------------------------------------------- */
void bsym_plan_init(bsym_plan *plan)
{
    if (plan != NULL)
        memset(plan, 0, sizeof *plan);
}

bsym_method bsym_plan_start(const bsym_plan *plan)
{
    if (plan != NULL && 2 * plan->last_fallback > plan->last_systems)
        return BSYM_METHOD_EIGEN;
    if (plan != NULL && 2 * plan->not_spd > plan->systems)
        return BSYM_METHOD_TRIDIAG;
    return BSYM_METHOD_LDLT;
}

const char *bsym_plan_reason(const bsym_plan *plan)
{
    switch (bsym_plan_start(plan)) {
    case BSYM_METHOD_EIGEN:
        return "more than half of the last call's systems needed the truncated spectrum";
    case BSYM_METHOD_TRIDIAG:
        return "more than half of the systems seen were not positive definite";
    default:
        return plan == NULL || plan->systems == 0 ? "no history: LDL^T, certified per system"
                                                  : "LDL^T, certified per system";
    }
}
