/*
 * bsym_octave.h -- what every Octave MEX gateway of batchsym shares: Octave
 * type and shape checks, mxArray <-> core conversions, name/value option
 * parsing, and the one way errors and warnings reach the user.
 *
 * Conventions
 *   - a gateway is octave/bsym_<fn>.c, built as octave/private/__bsym_<fn>__.mex
 *     and called from octave/bsym_<fn>.m; messages name the public function
 *     (bsym_<fn>), which these helpers derive from mexFunctionName();
 *   - errors carry the identifier "batchsym:<id>" and never return: a gateway
 *     raises them (bsym_oct_error) only while it holds nothing but mxArrays
 *     (Octave frees those), and ends every core call with bsym_oct_finish,
 *     which releases the context and buffers before raising;
 *   - warnings go through Octave's warning(), so warning ("off", id) and
 *     warning ("error", id) work; issue them after releasing everything too.
 */
#ifndef BSYM_OCTAVE_H
#define BSYM_OCTAVE_H

#include <stdint.h>

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

/* Raises error ("batchsym:<id>", "<fn>: <message>"); never returns. */
BSYM_OCT_NORETURN void bsym_oct_error(const char *id, const char *fmt, ...) BSYM_OCT_PRINTF(2, 3);

/* Issues warning ("batchsym:<id>", "<fn>: <message>"). */
void bsym_oct_warning(const char *id, const char *fmt, ...) BSYM_OCT_PRINTF(2, 3);

/* ---- the context ------------------------------------------------------ */

/* Creates *ctx on `device`, stopping long calls on Ctrl-C. Returns the
 * status; hand it and *ctx (possibly NULL) to bsym_oct_finish. */
bsym_status bsym_oct_context(bsym_device device, bsym_ctx **ctx);

/* Ends a core call: keeps the core's message, destroys ctx (NULL is fine),
 * mxFree's owned (NULL is fine), THEN raises when status != BSYM_OK, with an
 * identifier chosen by the status (batchsym:invalidInput, :outOfMemory,
 * :noDevice, :cudaError, :sizeUnsupported, :interrupted) and the core's
 * message. Returns only when status is BSYM_OK. */
void bsym_oct_finish(bsym_status status, bsym_ctx *ctx, void *owned);

/* The same for a call that converted several inputs: mxFree's each of
 * owned[0 .. count-1] (NULL entries are fine). */
void bsym_oct_finish_all(bsym_status status, bsym_ctx *ctx, void *const *owned, int count);

/* ---- arrays ------------------------------------------------------------ */

/* Checks that a is a real, full double or single array; raises
 * batchsym:invalidInput naming `what` otherwise. */
void bsym_oct_check_real(const mxArray *a, const char *what);

/* A batch of square matrices: an n x n x batch array, or an n x n matrix (a
 * batch of one). Raises unless a is such a real double/single array. */
void bsym_oct_square_batch(const mxArray *a, const char *what, int64_t *n, int64_t *batch);

/* A batch of vectors (the diagonals of tridiagonal systems): an n x batch
 * matrix, so a column vector is one system of size n. Raises unless a is
 * such a real double/single array. */
void bsym_oct_vector_batch(const mxArray *a, const char *what, int64_t *n, int64_t *batch);

/* An off-diagonal for the batch of `batch` vectors of length n in `dwhat`:
 * a real double/single (n-1) x batch matrix; when that is empty (n <= 1 or
 * batch = 0), any empty array such as []. Raises (batchsym:invalidInput,
 * :dimensionMismatch) naming `what` and `dwhat` otherwise. */
void bsym_oct_offdiag_batch(const mxArray *a, const char *what, const char *dwhat,
                            int64_t n, int64_t batch);

/* Right-hand sides for a batch of `batch` n x n systems: n x nrhs x batch;
 * n x batch (one each); or, when batch is 1, n x nrhs. Sets *nrhs; raises
 * (naming `what` and `awhat`) when the shape does not fit. */
void bsym_oct_rhs_batch(const mxArray *b, const char *what, const char *awhat,
                        int64_t n, int64_t batch, int64_t *nrhs);

/* The working precision of a call: mxSINGLE_CLASS when any of the arrays is
 * single, mxDOUBLE_CLASS otherwise. */
mxClassID bsym_oct_precision(const mxArray *const *arrays, int count);

/* The data of a in class cls (double or single): a's own data when its class
 * is cls, otherwise a converted mxMalloc copy that the caller releases with
 * mxFree(*owned) (*owned is NULL when nothing was allocated). */
const void *bsym_oct_data_as(const mxArray *a, mxClassID cls, void **owned);

/* A new array of a's dimensions and class cls holding a's values (the
 * output of a call that overwrites its input, such as X from B). */
mxArray *bsym_oct_copy_as(const mxArray *a, mxClassID cls);

/* ---- per-system info --------------------------------------------------- */

/* A new 1 x batch int32 row vector; its data is the core's int info[]. */
mxArray *bsym_oct_info_new(int64_t batch, int **data);

/* Hands info out as plhs[index] when the caller asked for it; otherwise
 * destroys it and, when some systems failed, issues ONE warning
 * "batchsym:<id>": "<count> of <batch> systems <failed> (the first is ...);
 * <what>" (`failed` such as "could not be solved"; `what` says what their
 * results hold). The solves use id "singular". */
void bsym_oct_info_out(mxArray *info, int nlhs, mxArray *plhs[], int index, const char *id,
                       const char *failed, const char *what);

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
 * names wins). Raises batchsym:invalidInput for an odd count or a non-string
 * name (or value, for an option with choices), batchsym:unknownOption for an
 * unknown name or value. */
void bsym_oct_parse_options(int nargs, const mxArray *const *args, bsym_oct_option *opts, int nopts);

/* The 'device' option's choices, in bsym_device order (auto, cpu, gpu). */
extern const char *const bsym_oct_device_choices[];

#endif
