/*
 * bsym_octave.h -- what every Octave gateway of batchsym shares: Octave
 * type and shape checks, mxArray <-> core conversions, name/value option
 * parsing, the one context of the process, and the one way errors and
 * warnings reach the user.
 *
 * Conventions
 *   - ONE MEX file, private/__bsym__.mex (bsym_mex.c), serves every function:
 *     bsym_<fn>.m calls __bsym__ ("<fn>", args...), and the dispatcher hands
 *     args to the gateway bsym_oct_<fn> (octave/bsym_<fn>.c) after naming
 *     the caller (bsym_oct_set_caller), so that messages name the public
 *     function (bsym_<fn>);
 *   - one core context per Octave process (bsym_oct_context): made on first
 *     use, kept across calls (its CUDA streams and pinned staging too), and
 *     released by mexAtExit when the MEX file is cleared (clear functions,
 *     clear all, exit); the next call after that makes a new one;
 *   - errors carry the identifier "batchsym:<id>", <id> the core's id of a
 *     status (bsym_status_id: bad_argument, no_device, ...; Octave's own
 *     type and shape checks raise bad_argument too), and never return: a gateway
 *     raises them (bsym_oct_error) only while it holds nothing but mxArrays
 *     (Octave frees those), and ends every core call with bsym_oct_finish,
 *     which releases the call's own buffers (never the process's context)
 *     before raising;
 *   - warnings go through Octave's warning(), so warning ("off", id) and
 *     warning ("error", id) work; issue them after releasing everything too.
 */
#ifndef BSYM_OCTAVE_H
#define BSYM_OCTAVE_H

#include <stdint.h>

/* Octave's interleaved complex API (mxGetComplexDoubles: the {re, im} pairs
 * Octave stores, which are the core's bsym_cdouble), in every gateway. */
#define MX_HAS_INTERLEAVED_COMPLEX 1
#include "mex.h"
#include "batchsym.h"

#if defined(__GNUC__)
#define BSYM_OCT_NORETURN __attribute__((noreturn))
#define BSYM_OCT_PRINTF(i, j) __attribute__((format(printf, i, j)))
#else
#define BSYM_OCT_NORETURN
#define BSYM_OCT_PRINTF(i, j)
#endif

/* ---- errors and warnings ----------------------------------------------- */

/* Raises error ("batchsym:<id>", "<fn>: <message>"), <id> the core's id of
 * status (bsym_status_id); never returns. */
BSYM_OCT_NORETURN void bsym_oct_error(bsym_status status, const char *fmt, ...) BSYM_OCT_PRINTF(2, 3);

/* Issues warning ("batchsym:<id>", "<fn>: <message>"). */
void bsym_oct_warning(const char *id, const char *fmt, ...) BSYM_OCT_PRINTF(2, 3);

/* ---- the caller --------------------------------------------------------- */

/* Names the public function being served (such as "bsym_solve"), for
 * messages; the dispatcher sets it before each call. */
void bsym_oct_set_caller(const char *name);

/* ---- the context ------------------------------------------------------ */

/* The process's context, made on first use (then released by mexAtExit),
 * set for this call: `device`, the OpenMP default thread count, the GPUs of
 * the call's 'gpus' option (bsym_oct_parse_options; absent: every visible
 * GPU, so that no call's choice outlives it), and the interrupt hook that
 * stops a long call between chunks on Ctrl-C. Returns the status (a bad
 * 'gpus' list: the core's error, naming gpus); hand it and *ctx (NULL when
 * none could be made) to bsym_oct_finish. */
bsym_status bsym_oct_context(bsym_device device, bsym_ctx **ctx);

/* Ends a core call: keeps the core's message, mxFree's owned (NULL is
 * fine), THEN raises when status != BSYM_OK, with the identifier
 * batchsym:<bsym_status_id (status)> and the core's message. ctx is the
 * process's context (or NULL) and stays, except after a CUDA failure or
 * out of memory: then it is released, so that the next call starts with new
 * streams and staging. Returns only when status is BSYM_OK. */
void bsym_oct_finish(bsym_status status, bsym_ctx *ctx, void *owned);

/* The same for a call that converted several inputs: mxFree's each of
 * owned[0 .. count-1] (NULL entries are fine). */
void bsym_oct_finish_all(bsym_status status, bsym_ctx *ctx, void *const *owned, int count);

/* The process's context for the core's rule checks (bsym_plan_from_fields,
 * bsym_select_make, ...), which leave their message on it: hand their status
 * and it to bsym_oct_finish. NULL when none could be made (the checks then
 * run without a message). */
bsym_ctx *bsym_oct_rules_context(void);

/* How many contexts this load of the MEX file has made, and whether one is
 * held now (bsym_device's second output). */
void bsym_oct_context_state(int *created, int *alive);

/* ---- arrays ------------------------------------------------------------ */

/* Checks that a is a real, full double or single array; raises
 * batchsym:bad_argument naming `what` otherwise. */
void bsym_oct_check_real(const mxArray *a, const char *what);

/* The same, complex arrays accepted too when complex_ok. */
void bsym_oct_check_data(const mxArray *a, const char *what, int complex_ok);

/* A batch of square matrices: an n x n x batch array, or an n x n matrix (a
 * batch of one). Raises unless a is such a real double/single array (or a
 * complex one, when complex_ok). */
void bsym_oct_square_batch(const mxArray *a, const char *what, int complex_ok, int64_t *n, int64_t *batch);

/* A batch of general matrices: an m x p x batch array, or an m x p matrix (a
 * batch of one). Raises unless a is such a real double/single array. */
void bsym_oct_matrix_batch(const mxArray *a, const char *what, int64_t *m, int64_t *p,
                           int64_t *batch);

/* A batch of vectors (the diagonals of tridiagonal systems): an n x batch
 * matrix, so a column vector is one system of size n. Raises unless a is
 * such a real double/single array. */
void bsym_oct_vector_batch(const mxArray *a, const char *what, int64_t *n, int64_t *batch);

/* An off-diagonal for the batch of `batch` vectors of length n in `dwhat`:
 * a real double/single (n-1) x batch matrix; when that is empty (n <= 1 or
 * batch = 0), any empty array such as []. Raises batchsym:bad_argument
 * naming `what` and `dwhat` otherwise. */
void bsym_oct_offdiag_batch(const mxArray *a, const char *what, const char *dwhat,
                            int64_t n, int64_t batch);

/* Right-hand sides for a batch of `batch` n x n systems: n x nrhs x batch;
 * n x batch (one each); or, when batch is 1, n x nrhs. Sets *nrhs; raises
 * (naming `what` and `awhat`) when the shape does not fit. */
void bsym_oct_rhs_batch(const mxArray *b, const char *what, const char *awhat, int complex_ok,
                        int64_t n, int64_t batch, int64_t *nrhs);

/* The same for the responses of a batch of m x p design matrices (the
 * messages speak of m rows and m x p systems). */
void bsym_oct_response_batch(const mxArray *y, const char *what, const char *xwhat,
                             int64_t m, int64_t p, int64_t batch, int64_t *nrhs);

/* The working precision of a call: mxSINGLE_CLASS when any of the arrays is
 * single, mxDOUBLE_CLASS otherwise. */
mxClassID bsym_oct_precision(const mxArray *const *arrays, int count);

/* The data of a in class cls (double or single): a's own data when its class
 * is cls, otherwise a converted mxMalloc copy that the caller releases with
 * mxFree(*owned) (*owned is NULL when nothing was allocated). */
const void *bsym_oct_data_as(const mxArray *a, mxClassID cls, void **owned);

/* A new array of class cls (zeros) with a's dimensions, except that
 * the first is `rows` (the output of a call that maps a's columns to columns
 * of another length, such as beta from Y). */
mxArray *bsym_oct_new_like(const mxArray *a, int64_t rows, mxClassID cls);

/* An array of class cls and dimensions dims[0..nd-1] (nd <= 8) for a result
 * that the core writes in full: memory of Octave's own that nobody has
 * touched (the oct-file __bsym_empty__ beside the MEX, bsym_empty.cc), which
 * Octave hands back as it is, where it copies every array built on an
 * mxMalloc'ed buffer on the way out and fills every array it makes itself in
 * one thread (each 0.6 s for 819 MB on the H200 machine); an
 * mxCreateUninitNumericArray when the oct-file cannot be called. */
mxArray *bsym_oct_result(mxClassID cls, mwSize nd, const mwSize *dims);
/* The same, complex (interleaved {re, im}; see bsym_empty.cc for why not
 * mxCreateNumericArray). */
mxArray *bsym_oct_result_complex(mxClassID cls, mwSize nd, const mwSize *dims);

/* A new array of a's dimensions and class cls holding a's values (the
 * output of a call that overwrites its input, such as X from B). */
mxArray *bsym_oct_copy_as(const mxArray *a, mxClassID cls);

/* Complex data of class cls (double or single), interleaved {re, im}: a's
 * own when a is complex of class cls, else a converted copy (a real a gets
 * zero imaginary parts) that *owned holds for bsym_oct_finish to free. */
const void *bsym_oct_complex_as(const mxArray *a, mxClassID cls, void **owned);

/* A new complex array of class cls with a's shape and values (the complex
 * counterpart of bsym_oct_copy_as). */
mxArray *bsym_oct_complex_copy(const mxArray *a, mxClassID cls);

/* ---- per-system info --------------------------------------------------- */

/* A new 1 x batch int32 row vector; its data is the core's int info[]. */
mxArray *bsym_oct_info_new(int64_t batch, int **data);

/* Hands info out as plhs[index] when the caller asked for it; otherwise
 * destroys it and, when some systems failed, issues ONE warning
 * "batchsym:<id>": "<the core's sentence about them>; <what>"
 * (bsym_failure_summary of `task`, with bsym_*solvex's used[] or NULL;
 * `what` says what their results hold). */
void bsym_oct_info_out(mxArray *info, int nlhs, mxArray *plhs[], int index, const char *id,
                       bsym_task task, const int *used, const char *what);

/* ---- truncated-spectrum and automatic solves ----------------------------- */

/* A new 1 x batch double row of the core's rank[] (NaN where info != 0). */
mxArray *bsym_oct_rank_new(const int *rank, const int *info, int64_t batch);

/* A new 1 x batch cell array of the names of the core's used[] codes
 * ('ldlt', 'tridiag', 'eigen'; '' where info != 0). */
mxArray *bsym_oct_methods_new(const int *used, const int *info, int64_t batch);

/* A plan as an Octave value: a scalar struct with the double fields calls,
 * systems, not_spd, fallback, last_systems, last_fallback (bsym_plan's
 * counts) and next ('tridiag', 'ldlt' or 'eigen': bsym_plan_start's path). */
mxArray *bsym_oct_plan_new(const bsym_plan *plan);

/* Reads such a struct into *plan; `what` names it in messages ("option
 * 'plan'"). NULL or an empty array ([]) is a plan with no history; 'next' and
 * any other extra fields are not read. Raises batchsym:bad_argument unless a
 * is a scalar struct whose six counts are real numeric scalars that the
 * core's bsym_plan_from_fields accepts. */
void bsym_oct_plan_in(const mxArray *a, const char *what, bsym_plan *plan);

/* The options shared by bsym_solve and bsym_lsfit: the method (a
 * bsym_method code) and the values of 'rcond' (NULL: BSYM_RCOND_DEFAULT),
 * 'tol' (NULL: the core's default) and 'plan' (NULL: no history), each a
 * real scalar here, then checked by the core (bsym_solve_opts_make). opts.plan
 * points at plan, so use the struct where it was filled (do not copy it). */
typedef struct {
    bsym_solve_opts opts;
    bsym_plan plan;
} bsym_oct_solvex_opts;

void bsym_oct_solvex_options(int method, const mxArray *rcond, const mxArray *tol,
                             const mxArray *plan, bsym_oct_solvex_opts *out);

/* ---- name/value options ------------------------------------------------ */

typedef struct {
    const char *name;           /* option name, matched case-insensitively      */
    const char *const *choices; /* accepted values, NULL-terminated, any case;
                                   NULL: the value is any array (see array)     */
    int value;                  /* in: index of the default; out: of the choice */
    const mxArray *array;       /* out, when choices is NULL: the value given,
                                   NULL when the option was not given; the
                                   gateway checks it                             */
} bsym_oct_option;

/* Parses name/value pairs args[0..nargs-1] into opts (the last of repeated
 * names wins). Raises batchsym:bad_argument for an odd count, a non-string
 * name (or value, for an option with choices), an unknown name or value.
 * Where opts has a 'device' option, the option 'gpus' is taken too, the
 * same for every such function: a vector of GPU device ids ([]: every
 * visible GPU), checked here for its type (whole numbers) and kept for the
 * call's bsym_oct_context, which hands it to the core. */
void bsym_oct_parse_options(int nargs, const mxArray *const *args, bsym_oct_option *opts, int nopts);

/* The index of value among the NULL-terminated choices (any case), or -1. */
int bsym_oct_choice_index(const char *value, const char *const *choices);

/* The index among the NULL-terminated choices of the string a (any case);
 * raises batchsym:bad_argument unless a is a string that is one of them
 * ("<what> must be one of ..."). */
int bsym_oct_choice(const mxArray *a, const char *what, const char *const *choices);

/* The core's names of `kind` (bsym_choice_name: methods, devices,
 * precisions, uplo), in code order and NULL-terminated, for the options'
 * choices: an option's value is then the core's code. */
const char *const *bsym_oct_choices(bsym_choice kind);

/* The default of the 'device' option: the environment variable
 * BSYM_OCTAVE_DEVICE of this process (set by bsym_device), "auto" when it
 * is unset or empty. Raises batchsym:bad_argument when it holds another
 * word than the choices. */
bsym_device bsym_oct_default_device(void);

/* The value of a numeric option given as a real scalar (any numeric class),
 * as a double; raises batchsym:bad_argument naming option `name` otherwise.
 * The gateway checks its range. */
double bsym_oct_scalar_option(const mxArray *a, const char *name);

/* ---- the gateways (octave/bsym_<fn>.c), served by bsym_mex.c ------------- */

/* Each takes the arguments after the function's name, as a mexFunction. */
typedef void bsym_oct_gateway(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

bsym_oct_gateway bsym_oct_solve, bsym_oct_lsfit, bsym_oct_plan, bsym_oct_device_info,
    bsym_oct_device, bsym_oct_tridiag_solve, bsym_oct_tridiagonalize, bsym_oct_eigen,
    bsym_oct_tridiag_eigen, bsym_oct_link_rate, bsym_oct_pde_solve;

#endif
