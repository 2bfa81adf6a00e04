## -*- texinfo -*-
## @deftypefn  {} {@var{d} =} bsym_tridiagonalize (@var{A})
## @deftypefnx {} {[@var{d}, @var{e}] =} bsym_tridiagonalize (@var{A})
## @deftypefnx {} {[@var{d}, @var{e}, @var{Q}] =} bsym_tridiagonalize (@var{A})
## @deftypefnx {} {[@var{d}, @var{e}, @var{Q}, @var{info}] =} bsym_tridiagonalize (@var{A}, @var{name}, @var{value}, @dots{})
## Reduce a batch of small symmetric matrices to tridiagonal form by
## Householder reflections, @code{@var{A}(:,:,k) = Q_k * T_k * Q_k'} with
## @code{Q_k} orthogonal and
## @code{T_k = diag (@var{d}(:,k)) + diag (@var{e}(:,k), -1) + diag (@var{e}(:,k), 1)},
## on the GPU (CUDA kernels) or on the CPU (the same C core, OpenMP over the
## batch).
##
## @var{A} is an @var{n} x @var{n} x @var{batch} array of symmetric matrices,
## or an @var{n} x @var{n} matrix (a batch of one), real double or single, or
## complex Hermitian (then @var{d} and @var{e} are real, @var{e} >= 0, and
## @var{Q} is complex unitary); the results have @var{A}'s class.  Only the
## triangle named by @qcode{"uplo"} is read.
##
## @var{d} is @var{n} x @var{batch} (the diagonals of the @code{T_k}), @var{e}
## is (@var{n}-1) x @var{batch} (their off-diagonals) and @var{Q} has the shape
## of @var{A}: for a matrix @var{A}, @var{d} and @var{e} are column vectors and
## @var{Q} is a matrix.  @var{Q} is formed only when it is asked for, so
## @code{[d, e] = bsym_tridiagonalize (A)} costs less; the eigenvalues of
## @var{A} are those of the @code{T_k}.
##
## Options, as name/value pairs (names and values in any case):
##
## @table @asis
## @item @qcode{"device"}
## @qcode{"auto"} (default: the GPU when one is usable and the batch is large
## enough, else the CPU), @qcode{"cpu"}, or @qcode{"gpu"} (an error
## @code{batchsym:no_device} that says why when no GPU is usable, and
## @code{batchsym:size_unsupported} for @var{n} > 256).
##
## @item @qcode{"gpus"}
## The GPUs of a GPU call, device ids such as @code{[0 1]} (default
## @code{[]}: every visible GPU), as for @code{bsym_solve}.
##
## @item @qcode{"uplo"}
## @qcode{"L"} (default: read the lower triangle) or @qcode{"U"}.
## @end table
##
## @var{info} is an int32 row vector with one entry per system: 0 done, -1
## non-finite entries in the referenced triangle of @var{A}, in which case
## that system's @var{d}, @var{e} and @var{Q} are NaN; the other systems are
## reduced as usual.  Without the @var{info} output, such systems raise one
## warning @code{batchsym:nonFinite} giving their count.
##
## Errors have the identifier @code{batchsym:@var{id}}, @var{id} the core's
## id of what went wrong: @code{bad_argument} (a wrong type, shape, option or
## value), @code{no_device}, @code{size_unsupported}, @code{out_of_memory},
## @code{cuda_failure} or @code{interrupted}.
## Ctrl-C stops a long call between chunks of the batch.
##
## Example:
##
## @example
## @group
## A = [4 1 2; 1 3 0; 2 0 5];
## [d, e, Q] = bsym_tridiagonalize (A);
## T = diag (d) + diag (e, -1) + diag (e, 1);
## norm (A - Q * T * Q')              # about eps
## norm (eig (T) - eig (A))           # about eps
## @end group
## @end example
##
## @seealso{bsym_tridiag_solve, bsym_solve, hess, eig}
## @end deftypefn

function [d, e, Q, info] = bsym_tridiagonalize (A, varargin)

  if (nargin < 1)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warning (it warns only when it is not asked for info); it forms Q only
  ## when it is asked for it.
  switch (nargout)
    case {0, 1}
      d = __bsym__ ("tridiagonalize", A, varargin{:});
    case 2
      [d, e] = __bsym__ ("tridiagonalize", A, varargin{:});
    case 3
      [d, e, Q] = __bsym__ ("tridiagonalize", A, varargin{:});
    otherwise
      [d, e, Q, info] = __bsym__ ("tridiagonalize", A, varargin{:});
  endswitch

endfunction

## ---- test helpers --------------------------------------------------------

## A batch of nb random symmetric n x n matrices of class cls, exactly
## symmetric.
%!function A = symm (n, nb, cls = "double")
%!  M = randn (n, n, nb);
%!  A = cast ((M + permute (M, [2 1 3])) / 2, cls);
%!endfunction

## The tridiagonal matrix of column k of d and e.
%!function T = tri (d, e, k)
%!  T = diag (double (d(:,k))) + diag (double (e(:,k)), -1) + diag (double (e(:,k)), 1);
%!endfunction

## Checks (d, e, Q) against A (full symmetric matrices) for systems ks, in
## double: ||A - Q T Q'|| / ||A||, ||Q'Q - I|| and the eigenvalues of T
## against eig (A), each at most 10 n eps(class (d)) (times ||A|| for the
## eigenvalues).
%!function check_tridiag (A, d, e, Q, ks = [])
%!  n = rows (A);
%!  nb = size (A, 3);
%!  if (isempty (ks))
%!    ks = 1:nb;
%!  endif
%!  u = eps (class (d));
%!  tol = 10 * n * u;
%!  for k = ks
%!    Ak = double (A(:,:,k));
%!    Qk = double (Q(:,:,k));
%!    T = tri (d, e, k);
%!    nA = max (norm (Ak), realmin);
%!    r = norm (Ak - Qk * T * Qk') / nA;
%!    assert (r <= tol, "n = %d, system %d: ||A - Q T Q'|| / ||A|| = %g > %g", n, k, r, tol);
%!    o = norm (Qk' * Qk - eye (n));
%!    assert (o <= tol, "n = %d, system %d: ||Q'Q - I|| = %g > %g", n, k, o, tol);
%!    w = norm (eig (T) - eig (Ak), inf) / nA;
%!    assert (w <= tol, "n = %d, system %d: eigenvalues off by %g ||A||", n, k, w);
%!  endfor
%!endfunction

%!shared ns
%! ns = [1 2 3 5 16 31 32 33 64 65 100];

## ---- accuracy -------------------------------------------------------------

%!test  # double
%! randn ("state", 1);
%! for n = ns
%!   A = symm (n, 4);
%!   [d, e, Q, info] = bsym_tridiagonalize (A, "device", dev_for (n));
%!   assert (class (d), "double");
%!   assert (class (e), "double");
%!   assert (class (Q), "double");
%!   assert (size (d), [n 4]);
%!   assert (size (e), [n-1 4]);
%!   assert (size (Q), [n n 4]);
%!   assert (info, zeros (1, 4, "int32"));
%!   check_tridiag (A, d, e, Q);
%! endfor

%!test  # single in, single out, single accuracy
%! randn ("state", 2);
%! for n = ns
%!   A = symm (n, 3, "single");
%!   [d, e, Q, info] = bsym_tridiagonalize (A, "device", dev_for (n));
%!   assert (class (d), "single");
%!   assert (class (e), "single");
%!   assert (class (Q), "single");
%!   assert (info, zeros (1, 3, "int32"));
%!   check_tridiag (A, d, e, Q);
%! endfor

%!test  # symmetric positive definite and ill-conditioned matrices
%! randn ("state", 3);
%! for n = [5 32 64]
%!   [U, ~] = qr (randn (n));
%!   A = cat (3, U * diag (logspace (0, 12, n)) * U', hilb (n), U * diag (1:n) * U');
%!   A = (A + permute (A, [2 1 3])) / 2;
%!   [d, e, Q] = bsym_tridiagonalize (A);
%!   check_tridiag (A, d, e, Q);
%! endfor

%!test  # matrices that are already (or nearly) tridiagonal, diagonal, zero
%! for n = [1 2 3 8 33]
%!   T0 = diag (1:n) + diag (ones (n-1, 1), -1) + diag (ones (n-1, 1), 1);
%!   A = cat (3, zeros (n), eye (n), T0, diag (-(1:n)), ones (n));
%!   [d, e, Q, info] = bsym_tridiagonalize (A);
%!   assert (info, zeros (1, 5, "int32"));
%!   assert (all (isfinite ([d(:); e(:); Q(:)])));
%!   check_tridiag (A, d, e, Q);
%!   assert (d(:,1:2), [zeros(n, 1), ones(n, 1)], 10 * n * eps);
%!   assert (e(:,1:2), zeros (n-1, 2), 10 * n * eps);
%! endfor

%!test  # a matrix gives column vectors d, e and a matrix Q
%! randn ("state", 4);
%! A = symm (7, 1);
%! [d, e, Q] = bsym_tridiagonalize (A);
%! assert (size (d), [7 1]);
%! assert (size (e), [6 1]);
%! assert (size (Q), [7 7]);
%! T = diag (d) + diag (e, -1) + diag (e, 1);
%! assert (norm (A - Q * T * Q') <= 70 * eps * norm (A));
%! assert (sort (eig (T)), eig (A), 70 * eps * norm (A));
%! [d1, e1, Q1] = bsym_tridiagonalize (5);
%! assert (d1, 5);
%! assert (size (e1), [0 1]);
%! assert (abs (Q1), 1);

%!test  # without Q (not formed) d and e are those with Q
%! randn ("state", 5);
%! for n = [1 2 5 33 64 100]
%!   A = symm (n, 3);
%!   [d, e, Q] = bsym_tridiagonalize (A, "device", dev_for (n));
%!   d1 = bsym_tridiagonalize (A, "device", dev_for (n));
%!   [d2, e2] = bsym_tridiagonalize (A, "device", dev_for (n));
%!   tol = 10 * n * eps * max (abs (A(:)));
%!   assert (d1, d, tol);
%!   assert (d2, d, tol);
%!   assert (e2, e, tol);
%! endfor

%!test  # a large batch (the GPU serves it under "auto" when there is one)
%! randn ("state", 6);
%! A = symm (32, 300);
%! [d, e, Q, info] = bsym_tridiagonalize (A);
%! assert (all (info == 0));
%! check_tridiag (A, d, e, Q, [1 150 300]);

## ---- uplo: only the named triangle is read ------------------------------------

%!test
%! randn ("state", 7);
%! for n = [1 2 3 16 33 64]
%!   for cls = {"double", "single"}
%!     A = symm (n, 3, cls{1});
%!     Up = A;  Lo = A;
%!     for k = 1:3
%!       Up(:,:,k) = triu (A(:,:,k)) + tril (NaN (n, cls{1}), -1);  # lower = NaN
%!       Lo(:,:,k) = tril (A(:,:,k)) + triu (NaN (n, cls{1}), 1);   # upper = NaN
%!     endfor
%!     [dU, eU, QU, infoU] = bsym_tridiagonalize (Up, "uplo", "U");
%!     [dL, eL, QL, infoL] = bsym_tridiagonalize (Lo);            # "L" is the default
%!     assert (infoU, zeros (1, 3, "int32"));
%!     assert (infoL, zeros (1, 3, "int32"));
%!     check_tridiag (A, dU, eU, QU);
%!     check_tridiag (A, dL, eL, QL);
%!   endfor
%! endfor

%!test  # option names and values in any case
%! randn ("state", 8);
%! A = symm (6, 2);
%! Up = A;
%! Up(:,:,1) = triu (A(:,:,1)) + tril (Inf (6), -1);
%! Up(:,:,2) = triu (A(:,:,2)) + tril (Inf (6), -1);
%! [d, e, Q] = bsym_tridiagonalize (Up, "UPLO", "u", "Device", "CPU");
%! check_tridiag (A, d, e, Q);

## ---- per-system failures -----------------------------------------------------

%!test  # a non-finite system spoils only itself
%! randn ("state", 9);
%! for cls = {"double", "single"}
%!   A = symm (5, 4, cls{1});
%!   A(3,1,2) = NaN;                # referenced (lower) triangle: -1
%!   A(5,5,3) = -Inf;
%!   A(1,4,4) = NaN;                # upper triangle: not read
%!   [d, e, Q, info] = bsym_tridiagonalize (A);
%!   assert (class (info), "int32");
%!   assert (info, int32 ([0 -1 -1 0]));
%!   assert (all (isnan (d(:,2:3))(:)));
%!   assert (all (isnan (e(:,2:3))(:)));
%!   assert (all (isnan (Q(:,:,2:3))(:)));
%!   B = A;
%!   B(1,4,4) = B(4,1,4);
%!   check_tridiag (B, d, e, Q, [1 4]);
%!   warning ("off", "batchsym:nonFinite", "local");
%!   [d1, e1] = bsym_tridiagonalize (A, "uplo", "L");   # no Q: same NaN
%!   assert (all (isnan (d1(:,2:3))(:)));
%!   assert (all (isnan (e1(:,2:3))(:)));
%! endfor

%!warning id=batchsym:nonFinite bsym_tridiagonalize ([1 2; NaN 3]);

%!test  # one warning, with the count; none when info is asked for
%! A = cat (3, eye (2), NaN (2), 2 * eye (2), [1 0; Inf 1]);
%! warning ("error", "batchsym:nonFinite", "local");   # catch it as an error
%! try
%!   [d, e, Q] = bsym_tridiagonalize (A);
%!   error ("no warning");
%! catch err
%!   assert (err.identifier, "batchsym:nonFinite");
%!   assert (! isempty (strfind (err.message, "2 of 4 systems")));
%!   assert (strncmp (err.message, "bsym_tridiagonalize: ", 21));
%! end_try_catch
%! [d, e, Q, info] = bsym_tridiagonalize (A);        # no warning (error) here
%! assert (info, int32 ([0 -1 0 -1]));
%! assert (d(:,[1 3]), [1 2; 1 2], 4 * eps);
%! assert (all (isnan (d(:,[2 4]))(:)));

## ---- empty problems -------------------------------------------------------

%!test
%! [d, e, Q, info] = bsym_tridiagonalize (zeros (3, 3, 0));
%! assert (size (d), [3 0]);
%! assert (size (e), [2 0]);
%! assert (size (Q), [3 3 0]);
%! assert (class (d), "double");
%! assert (size (info), [1 0]);
%! [d, e, Q, info] = bsym_tridiagonalize (zeros (0, 0));       # n = 0
%! assert (size (d), [0 1]);
%! assert (size (e), [0 1]);
%! assert (size (Q), [0 0]);
%! assert (info, int32 (0));
%! [d, e] = bsym_tridiagonalize (single (zeros (0, 0, 4)));
%! assert (class (d), "single");
%! assert (size (d), [0 4]);
%! assert (size (e), [0 4]);

## ---- devices ----------------------------------------------------------------

%!test  # the CPU on request
%! randn ("state", 10);
%! A = symm (16, 8);
%! [d, e, Q] = bsym_tridiagonalize (A, "device", "cpu");
%! check_tridiag (A, d, e, Q);

%!test  # "gpu": reduces when a GPU is usable, else says why not
%! randn ("state", 11);
%! dev = bsym_device_info ();
%! if (bsym_gpu_available ())
%!   for n = [1 2 3 5 16 31 32 33 64 65 100 256]  # past 64: the block kernel
%!     for cls = {"double", "single"}
%!       A = symm (n, 50, cls{1});
%!       [d, e, Q, info] = bsym_tridiagonalize (A, "device", "gpu");
%!       assert (class (d), cls{1});
%!       assert (all (info == 0));
%!       check_tridiag (A, d, e, Q, [1 25 50]);
%!       [d1, e1] = bsym_tridiagonalize (A, "device", "gpu");
%!       tol = 10 * n * eps (cls{1}) * max (abs (A(:)));
%!       assert (d1, d, tol);
%!       assert (e1, e, tol);
%!     endfor
%!   endfor
%!   try
%!     bsym_tridiagonalize (eye (257), "device", "gpu");
%!     error ("no error for n = 257 on the GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:size_unsupported");
%!   end_try_catch
%! else
%!   try
%!     bsym_tridiagonalize (eye (2), "device", "gpu");
%!     error ("no error for device gpu without a GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!     assert (! isempty (strfind (err.message, dev.reason)));
%!     assert (strncmp (err.message, "bsym_tridiagonalize: ", 21));
%!   end_try_catch
%! endif

## ---- errors -------------------------------------------------------------------

%!error <Invalid call> bsym_tridiagonalize ()
%!error <called with too many outputs> [a, b, c, d, e] = bsym_tridiagonalize (eye (2))
%!error <A must be a real or complex, full double or single array \(got cell\)> bsym_tridiagonalize ({1})
%!error id=batchsym:bad_argument bsym_tridiagonalize ("ab")
%!test  # complex Hermitian A: d, e real (e >= 0), Q complex unitary, Q T Q' = A
%! randn ("state", 62);
%! for n = [1 2 5 17]
%!   M = complex (randn (n), randn (n));
%!   A = (M + M') / 2;
%!   [d, e, Q, info] = bsym_tridiagonalize (A, "device", dev_for (n));   # the GPU's too (hetrd.cu)
%!   assert (info, int32 (0));
%!   assert (isreal (d) && isreal (e));
%!   assert (all (e >= 0));
%!   T = diag (d) + diag (e, 1) + diag (e, -1);
%!   assert (norm (Q * T * Q' - A, "fro") <= 100 * n * eps * norm (A, "fro"));
%!   assert (norm (Q' * Q - eye (n), "fro") <= 100 * n * eps);
%! endfor
%!error <A .* \(got logical\)> bsym_tridiagonalize (true)
%!error <got sparse double> bsym_tridiagonalize (speye (2))
%!error id=batchsym:bad_argument bsym_tridiagonalize (int32 (eye (2)))
%!error <A must hold square matrices \(got 2 x 3\)> bsym_tridiagonalize (ones (2, 3))
%!error id=batchsym:bad_argument bsym_tridiagonalize (ones (2, 3, 4))
%!error <A must be an n x n matrix or an n x n x batch array> bsym_tridiagonalize (ones (2, 2, 2, 2))
%!error <unknown option 'method' \(options: 'device', 'uplo', 'gpus'\)> bsym_tridiagonalize (eye (2), "method", "ldlt")
%!error id=batchsym:bad_argument bsym_tridiagonalize (eye (2), "tol", "1")
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_tridiagonalize (eye (2), "device", "tpu")
%!error <option 'uplo' must be one of 'L', 'U' \(got 'X'\)> bsym_tridiagonalize (eye (2), "uplo", "X")
%!error id=batchsym:bad_argument bsym_tridiagonalize (eye (2), "uplo", "lower")
%!error <option 'uplo' must be a string \(got double\)> bsym_tridiagonalize (eye (2), "uplo", 1)
%!error <options must come in name/value pairs> bsym_tridiagonalize (eye (2), "uplo")
%!error id=batchsym:bad_argument bsym_tridiagonalize (eye (2), "uplo", "L", "device")
%!error <an option name must be a string \(got double\)> bsym_tridiagonalize (eye (2), 1, "L")

## ---- help -----------------------------------------------------------------------

%!assert (! isempty (strfind (get_help_text ("bsym_tridiagonalize"), "tridiagonal form")))

## 'gpus': parsed once for every function (bsym_oct_parse_options; its every
## error is tested in bsym_solve.m): here, that it reaches Octave's and the
## core's checks, and that on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_tridiagonalize (eye (3), "gpus", "0")
%!error <gpus names device 0 twice> bsym_tridiagonalize (eye (3), "gpus", [0 0])

%!test  # on the CPU, 'gpus' changes no result
%! A = repmat ([4 1 2; 1 3 1; 2 1 2], [1 1 4]); A(1, 1, :) = 4 + (1:4) / 7;
%! [d0, e0, Q0] = bsym_tridiagonalize (A, "device", "cpu");
%! [d, e, Q] = bsym_tridiagonalize (A, "device", "cpu", "gpus", 0);
%! assert (isequal (d, d0) && isequal (e, e0) && isequal (Q, Q0));
