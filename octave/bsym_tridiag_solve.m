## -*- texinfo -*-
## @deftypefn  {} {@var{X} =} bsym_tridiag_solve (@var{lower}, @var{diag}, @var{upper}, @var{rhs})
## @deftypefnx {} {@var{X} =} bsym_tridiag_solve (@dots{}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{X}, @var{info}] =} bsym_tridiag_solve (@dots{})
## Solve a batch of tridiagonal linear systems @code{T_k * @var{X}_k = @var{B}_k}
## by parallel cyclic reduction, on the GPU (CUDA kernels) or on the CPU (the
## same C core, OpenMP over the batch).
##
## The arguments come in LAPACK's order (as for @code{gtsv}): column @var{k}
## of each array describes system @var{k},
##
## @table @var
## @item diag
## @var{n} x @var{batch}: the diagonals, @code{T_k(i,i) = @var{diag}(i,k)}; a
## column vector is one system;
## @item lower
## (@var{n}-1) x @var{batch}: the sub-diagonals,
## @code{T_k(i+1,i) = @var{lower}(i,k)} (any empty array, such as @code{[]},
## when @var{n} is 1);
## @item upper
## (@var{n}-1) x @var{batch}: the super-diagonals,
## @code{T_k(i,i+1) = @var{upper}(i,k)}; or @code{[]} (any empty array) for
## symmetric systems, @var{upper} = @var{lower};
## @item rhs
## the right-hand sides: @var{n} x @var{batch} (one per system),
## @var{n} x @var{k} x @var{batch} (@var{k} per system), or, for one system, a
## column vector or an @var{n} x @var{k} matrix.
## @end table
##
## That is, system @var{k} is
## @code{full (spdiags ([[@var{lower}(:,k); 0], @var{diag}(:,k), [0; @var{upper}(:,k)]], -1:1, n, n))}.
## @var{X} has the shape of @var{rhs}.  When any of the given arrays is single
## (an omitted @var{upper} does not count) the solve runs in single precision
## and @var{X} is single; otherwise double.
##
## The reduction does not pivot: it is safe for diagonally dominant and for
## symmetric positive definite systems; for others check the residual.
##
## Options, as name/value pairs (names and values in any case):
##
## @table @asis
## @item @qcode{"device"}
## @qcode{"auto"} (default: the GPU when one is usable and the batch is large
## enough, else the CPU), @qcode{"cpu"}, or @qcode{"gpu"} (an error
## @code{batchsym:no_device} that says why when no GPU is usable, and
## @code{batchsym:size_unsupported} for @var{n} > 16384).
##
## @item @qcode{"gpus"}
## The GPUs of a GPU call, device ids such as @code{[0 1]} (default
## @code{[]}: every visible GPU), as for @code{bsym_solve}.
## @end table
##
## @var{info} is an int32 row vector with one entry per system: 0 solved,
## @var{j} > 0 when the reduction met a zero or non-finite pivot, or the
## solution a non-finite value, in row @var{j} (singular or nearly singular,
## or not safely reducible without pivoting; which row depends on the device),
## -1 non-finite entries in @var{lower}, @var{diag}, @var{upper} or
## @var{rhs}.  The solutions of systems with @var{info} @code{!=} 0 are NaN
## and the other systems are solved as usual.  Without the @var{info} output,
## such systems raise one warning @code{batchsym:singular} giving their count.
##
## Errors have the identifier @code{batchsym:@var{id}}, @var{id} the core's
## id of what went wrong: @code{bad_argument} (a wrong type, shape, option or
## value), @code{no_device}, @code{size_unsupported}, @code{out_of_memory},
## @code{cuda_failure} or @code{interrupted}.
## Ctrl-C stops a long call between chunks of the batch.
##
## Example: two symmetric systems of size 4
##
## @example
## @group
## d = [4 4 4 4; 2 2 2 2]';
## e = [1 1 1; -1 -1 -1]';
## x = bsym_tridiag_solve (e, d, [], ones (4, 2));
## T2 = full (spdiags ([[e(:,2); 0], d(:,2), [0; e(:,2)]], -1:1, 4, 4));
## norm (x(:,2) - T2 \ ones (4, 1))   # about eps
## @end group
## @end example
##
## @seealso{bsym_solve, bsym_tridiagonalize, spdiags, mldivide}
## @end deftypefn

function [X, info] = bsym_tridiag_solve (lower, diag, upper, rhs, varargin)

  if (nargin < 4)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warning (it warns only when it is not asked for info).
  if (nargout < 2)
    X = __bsym__ ("tridiag_solve", lower, diag, upper, rhs, varargin{:});
  else
    [X, info] = __bsym__ ("tridiag_solve", lower, diag, upper, rhs, varargin{:});
  endif

endfunction

## ---- test helpers --------------------------------------------------------

## The full matrix of one tridiagonal system (upper = [] means symmetric).
%!function T = tri (l, d, u)
%!  if (isempty (u))
%!    u = l;
%!  endif
%!  n = numel (d);
%!  T = full (spdiags ([[double(l(:)); 0], double(d(:)), [0; double(u(:))]], -1:1, n, n));
%!endfunction

## A batch of nb general tridiagonal systems of size n, strictly diagonally
## dominant by rows, the diagonal of either sign; class cls.
%!function [l, d, u] = dominant (n, nb, cls = "double")
%!  l = randn (n-1, nb);
%!  u = randn (n-1, nb);
%!  off = [zeros(1, nb); abs(l)] + [abs(u); zeros(1, nb)];
%!  d = (off + 0.5 + rand (n, nb)) .* sign (randn (n, nb));
%!  l = cast (l, cls);  d = cast (d, cls);  u = cast (u, cls);
%!endfunction

## A batch of nb symmetric positive definite tridiagonal systems of size n
## that are not diagonally dominant: off-diagonal in [-2, 2], the diagonal
## random in [-1, 1] then shifted so that the smallest eigenvalue is 0.5
## (cond about 20).
%!function [l, d] = spd_tri (n, nb, cls = "double")
%!  l = 4 * rand (n-1, nb) - 2;
%!  d = 2 * rand (n, nb) - 1;
%!  for k = 1:nb
%!    d(:,k) += 0.5 - min (eig (tri (l(:,k), d(:,k), [])));
%!  endfor
%!  l = cast (l, cls);  d = cast (d, cls);
%!endfunction

## Checks X against the systems (l, d, u) and the right-hand sides B for
## systems ks: per column, the normwise backward error
## ||b - T x|| / (||T|| ||x|| + ||b||) in double is at most 10 n eps(class (X)),
## and X is within 10 n eps cond(T) of T \ b (Octave's backslash).
%!function check_tri (l, d, u, X, B, ks = [])
%!  [n, nb] = size (d);
%!  if (isempty (ks))
%!    ks = 1:nb;
%!  endif
%!  uu = eps (class (X));
%!  Xs = reshape (double (X), n, [], nb);
%!  Bs = reshape (double (B), n, [], nb);
%!  cn = @(V) max (abs (V), [], 1);           # inf-norm of each column
%!  for k = ks
%!    if (isempty (u))
%!      T = tri (l(:,k), d(:,k), []);
%!    else
%!      T = tri (l(:,k), d(:,k), u(:,k));
%!    endif
%!    x = Xs(:,:,k);
%!    b = Bs(:,:,k);
%!    be = max (cn (b - T * x) ./ (norm (T, inf) * cn (x) + cn (b)));
%!    assert (be <= 10 * n * uu, "n = %d, system %d: backward error %g > %g",
%!            n, k, be, 10 * n * uu);
%!    xref = T \ b;
%!    fe = norm (x - xref, inf) / norm (xref, inf);
%!    assert (fe <= 10 * n * uu * cond (T), "n = %d, system %d: forward error %g",
%!            n, k, fe);
%!  endfor
%!endfunction

%!shared ns
%! ns = [1 2 7 32 33 100 1000];

## ---- accuracy against Octave's backslash -----------------------------------

%!test  # general, diagonally dominant, double, one right-hand side each
%! randn ("state", 1);
%! rand ("state", 1);
%! for n = ns
%!   [l, d, u] = dominant (n, 4);
%!   B = randn (n, 4);
%!   [X, info] = bsym_tridiag_solve (l, d, u, B);
%!   assert (class (X), "double");
%!   assert (size (X), [n 4]);
%!   assert (info, zeros (1, 4, "int32"));
%!   check_tri (l, d, u, X, B);
%! endfor

%!test  # symmetric (upper = []), diagonally dominant
%! randn ("state", 2);
%! rand ("state", 2);
%! for n = ns
%!   [l, d] = dominant (n, 3);
%!   B = randn (n, 3);
%!   [X, info] = bsym_tridiag_solve (l, d, [], B);
%!   assert (info, zeros (1, 3, "int32"));
%!   check_tri (l, d, [], X, B);
%!   assert (X, bsym_tridiag_solve (l, d, l, B), 1e-12 * norm (X(:), inf));
%! endfor

%!test  # symmetric positive definite, not diagonally dominant
%! randn ("state", 3);
%! rand ("state", 3);
%! for n = ns
%!   [l, d] = spd_tri (n, 3);
%!   if (n >= 7)   # the test means something: some rows are not dominant
%!     off = [zeros(1, 3); abs(l)] + [abs(l); zeros(1, 3)];
%!     assert (any (abs (d(:)) < off(:)));
%!   endif
%!   B = randn (n, 3);
%!   [X, info] = bsym_tridiag_solve (l, d, [], B);
%!   assert (info, zeros (1, 3, "int32"));
%!   check_tri (l, d, [], X, B);
%! endfor

%!test  # several right-hand sides per system: n x k x batch
%! randn ("state", 4);
%! rand ("state", 4);
%! for n = [1 2 7 33 100]
%!   [l, d, u] = dominant (n, 5);
%!   B = randn (n, 3, 5);
%!   X = bsym_tridiag_solve (l, d, u, B);
%!   assert (size (X), [n 3 5]);
%!   check_tri (l, d, u, X, B);
%!   [l, d] = spd_tri (n, 5);
%!   X = bsym_tridiag_solve (l, d, [], B);
%!   check_tri (l, d, [], X, B);
%! endfor

%!test  # one system: column vectors, an n x k matrix of right-hand sides
%! randn ("state", 5);
%! rand ("state", 5);
%! [l, d, u] = dominant (9, 1);
%! B = randn (9, 4);
%! X = bsym_tridiag_solve (l, d, u, B);
%! assert (size (X), [9 4]);
%! check_tri (l, d, u, X, B);
%! x = bsym_tridiag_solve (l, d, u, B(:,1));
%! assert (size (x), [9 1]);
%! check_tri (l, d, u, x, B(:,1));

%!test  # n x 1 x batch keeps its shape
%! randn ("state", 6);
%! rand ("state", 6);
%! [l, d, u] = dominant (5, 3);
%! B = randn (5, 1, 3);
%! X = bsym_tridiag_solve (l, d, u, B);
%! assert (size (X), [5 1 3]);
%! check_tri (l, d, u, X, B);

%!test  # n = 1: lower and upper empty, [] or 0 x batch
%! d = [2 -4 0.5];
%! B = [1 2 3];
%! X = bsym_tridiag_solve ([], d, [], B);
%! assert (X, [0.5 -0.5 6], eps);
%! X = bsym_tridiag_solve (zeros (0, 3), d, zeros (0, 3), B);
%! assert (X, [0.5 -0.5 6], eps);
%! assert (bsym_tridiag_solve ([], 4, [], 2), 0.5);

%!test  # single in, single out, single accuracy
%! randn ("state", 7);
%! rand ("state", 7);
%! for n = ns
%!   [l, d, u] = dominant (n, 3, "single");
%!   B = single (randn (n, 2, 3));
%!   [X, info] = bsym_tridiag_solve (l, d, u, B);
%!   assert (class (X), "single");
%!   assert (info, zeros (1, 3, "int32"));
%!   check_tri (l, d, u, X, B);
%!   [l, d] = spd_tri (n, 3, "single");
%!   X = bsym_tridiag_solve (l, d, [], B);
%!   assert (class (X), "single");
%!   check_tri (l, d, [], X, B);
%! endfor

%!test  # mixed precision: any given array single means single
%! randn ("state", 8);
%! rand ("state", 8);
%! [l, d, u] = dominant (6, 2);
%! B = randn (6, 2);
%! assert (class (bsym_tridiag_solve (single (l), d, u, B)), "single");
%! assert (class (bsym_tridiag_solve (l, single (d), u, B)), "single");
%! assert (class (bsym_tridiag_solve (l, d, single (u), B)), "single");
%! X = bsym_tridiag_solve (l, d, u, single (B));
%! assert (class (X), "single");
%! check_tri (single (l), single (d), single (u), X, single (B));
%! ## an omitted upper does not count: its class is not the caller's choice
%! assert (class (bsym_tridiag_solve (l, d, single ([]), B)), "double");
%! assert (class (bsym_tridiag_solve (single (l), single (d), [], single (B))), "single");

%!test  # a large batch (the GPU serves it under "auto" when there is one)
%! randn ("state", 9);
%! rand ("state", 9);
%! [l, d, u] = dominant (64, 5000);
%! B = randn (64, 5000);
%! [X, info] = bsym_tridiag_solve (l, d, u, B);
%! assert (all (info == 0));
%! check_tri (l, d, u, X, B, [1 2500 5000]);

## ---- per-system failures -----------------------------------------------------

%!test  # singular and non-finite systems spoil only themselves
%! randn ("state", 10);
%! rand ("state", 10);
%! for cls = {"double", "single"}
%!   for n = [2 7 33]
%!     [l, d, u] = dominant (n, 7, cls{1});
%!     B = cast (randn (n, 7), cls{1});
%!     l(:,2) = 0;  d(:,2) = 0;  u(:,2) = 0;      # T = 0: singular
%!     l(1,3) = 1;  d(1:2,3) = 1;  u(1,3) = 1;    # rows 1 and 2 equal: singular
%!     l(:,3) = [1; zeros(n-2, 1)];  u(:,3) = l(:,3);
%!     d(1,4) = NaN;                              # non-finite input: -1
%!     l(end,5) = Inf;
%!     u(1,6) = -Inf;
%!     B(n,7) = NaN;
%!     [X, info] = bsym_tridiag_solve (l, d, u, B);
%!     assert (class (info), "int32");
%!     assert (info([1 4 5 6 7]), int32 ([0 -1 -1 -1 -1]));
%!     assert (all (info(2:3) > 0));
%!     assert (all (all (isnan (X(:,2:7)))));
%!     check_tri (l, d, u, X, B, 1);
%!   endfor
%! endfor

%!test  # symmetric: a NaN in lower is a NaN in upper as well
%! [X, info] = bsym_tridiag_solve ([1 1; NaN 1], [4 4 4; 4 4 4]', [], ones (3, 2));
%! assert (info, int32 ([-1 0]));
%! assert (all (isnan (X(:,1))));
%! assert (X(:,2), tri ([1; 1], [4; 4; 4], []) \ ones (3, 1), 4 * eps);

%!warning id=batchsym:singular bsym_tridiag_solve (0, [0; 0], [], [1; 1]);

%!test  # one warning, with the count; none when info is asked for
%! d = [1 0 2 NaN; 1 0 2 1];
%! l = [0 0 0 0];
%! B = ones (2, 4);
%! warning ("error", "batchsym:singular", "local");   # catch it as an error
%! try
%!   X = bsym_tridiag_solve (l, d, [], B);
%!   error ("no warning");
%! catch err
%!   assert (err.identifier, "batchsym:singular");
%!   assert (! isempty (strfind (err.message, "2 of 4 systems")));
%!   assert (strncmp (err.message, "bsym_tridiag_solve: ", 20));
%! end_try_catch
%! [X, info] = bsym_tridiag_solve (l, d, [], B);      # no warning (error) here
%! assert (info([1 3 4]), int32 ([0 0 -1]));
%! assert (info(2) > 0);
%! assert (X(:,[1 3]), [1 0.5; 1 0.5], 4 * eps);
%! assert (all (isnan (X(:,[2 4]))(:)));

## ---- empty problems ----------------------------------------------------------

%!test
%! [X, info] = bsym_tridiag_solve (zeros (2, 0), zeros (3, 0), [], zeros (3, 0));
%! assert (size (X), [3 0]);
%! assert (class (X), "double");
%! assert (size (info), [1 0]);
%! X = bsym_tridiag_solve ([], zeros (3, 0), [], zeros (3, 2, 0));
%! assert (size (X), [3 2 0]);
%! X = bsym_tridiag_solve ([], single (zeros (3, 0)), [], zeros (3, 0));
%! assert (class (X), "single");
%! [X, info] = bsym_tridiag_solve ([], zeros (0, 1), [], zeros (0, 1));   # n = 0
%! assert (size (X), [0 1]);
%! assert (info, int32 (0));
%! X = bsym_tridiag_solve ([1; 1], [3; 3; 3], [], zeros (3, 0));    # no right-hand side
%! assert (size (X), [3 0]);

## ---- devices -------------------------------------------------------------------

%!test  # the CPU on request
%! randn ("state", 11);
%! rand ("state", 11);
%! [l, d, u] = dominant (33, 8);
%! B = randn (33, 8);
%! X = bsym_tridiag_solve (l, d, u, B, "device", "cpu");
%! check_tri (l, d, u, X, B);
%! X = bsym_tridiag_solve (l, d, [], B, "DEVICE", "Cpu");
%! check_tri (l, d, [], X, B);

%!test  # "gpu": solves when a GPU is usable, else says why not
%! randn ("state", 12);
%! rand ("state", 12);
%! dev = bsym_device_info ();
%! if (bsym_gpu_available ())
%!   for n = ns
%!     for cls = {"double", "single"}
%!       [l, d, u] = dominant (n, 50, cls{1});
%!       B = cast (randn (n, 2, 50), cls{1});
%!       [X, info] = bsym_tridiag_solve (l, d, u, B, "device", "gpu");
%!       assert (class (X), cls{1});
%!       assert (all (info == 0));
%!       check_tri (l, d, u, X, B, [1 25 50]);
%!       [l, d] = spd_tri (n, 3, cls{1});
%!       [X, info] = bsym_tridiag_solve (l, d, [], B(:,:,1:3), "device", "gpu");
%!       assert (all (info == 0));
%!       check_tri (l, d, [], X, B(:,:,1:3));
%!     endfor
%!   endfor
%!   try
%!     bsym_tridiag_solve (zeros (16384, 1), ones (16385, 1), [], ones (16385, 1), "device", "gpu");
%!     error ("no error for n = 16385 on the GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:size_unsupported");
%!   end_try_catch
%! else
%!   try
%!     bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device", "gpu");
%!     error ("no error for device gpu without a GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!     assert (! isempty (strfind (err.message, dev.reason)));
%!     assert (strncmp (err.message, "bsym_tridiag_solve: ", 20));
%!   end_try_catch
%! endif

## ---- errors -------------------------------------------------------------------

%!error <Invalid call> bsym_tridiag_solve ()
%!error <Invalid call> bsym_tridiag_solve (1, [2; 2], [])
%!error <called with too many outputs> [a, b, c] = bsym_tridiag_solve (1, [2; 2], [], [1; 1])
## types, every argument
%!error <lower must be a real, full double or single array \(got cell\)> bsym_tridiag_solve ({1}, [2; 2], [], [1; 1])
%!error <lower .* \(got complex double\)> bsym_tridiag_solve (1i, [2; 2], [], [1; 1])
%!error <lower .* \(got sparse double\)> bsym_tridiag_solve (sparse (1), [2; 2], [], [1; 1])
%!error <lower .* \(got logical\)> bsym_tridiag_solve (true, [2; 2], [], [1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve (int32 (1), [2; 2], [], [1; 1])
%!error <diag must be a real, full double or single array \(got char\)> bsym_tridiag_solve (1, "ab", [], [1; 1])
%!error <diag .* \(got complex double\)> bsym_tridiag_solve (1, [2; 2i], [], [1; 1])
%!error <diag .* \(got sparse double\)> bsym_tridiag_solve (1, sparse ([2; 2]), [], [1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve (1, int8 ([2; 2]), [], [1; 1])
%!error <upper must be a real, full double or single array \(got cell\)> bsym_tridiag_solve (1, [2; 2], {}, [1; 1])
%!error <upper .* \(got complex double\)> bsym_tridiag_solve (1, [2; 2], 1i, [1; 1])
%!error <upper .* \(got sparse double\)> bsym_tridiag_solve (1, [2; 2], sparse (1), [1; 1])
%!error <upper .* \(got char\)> bsym_tridiag_solve (1, [2; 2], "", [1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve (1, [2; 2], uint16 (1), [1; 1])
%!error <rhs must be a real, full double or single array \(got cell\)> bsym_tridiag_solve (1, [2; 2], [], {1, 1})
%!error <rhs .* \(got complex double\)> bsym_tridiag_solve (1, [2; 2], [], [1; 1i])
%!error <rhs .* \(got logical\)> bsym_tridiag_solve (1, [2; 2], [], [true; true])
%!error <rhs .* \(got sparse double\)> bsym_tridiag_solve (1, [2; 2], [], sparse ([1; 1]))
## shapes
%!error <diag must be an n x batch matrix or a column vector \(got 3 dimensions\)> bsym_tridiag_solve (ones (1, 2, 2), ones (2, 2, 2), [], ones (2, 2))
%!error id=batchsym:bad_argument bsym_tridiag_solve (ones (1, 2, 2), ones (2, 2), [], ones (2, 2))
%!error <lower must be an \(n-1\) x batch matrix \(got 3 dimensions\)> bsym_tridiag_solve (ones (1, 2, 2), ones (2, 2), [], ones (2, 2))
%!error <upper must be an \(n-1\) x batch matrix \(got 3 dimensions\)> bsym_tridiag_solve (ones (1, 2), ones (2, 2), ones (1, 1, 2), ones (2, 2))
%!error <lower must be \(n-1\) x batch = 2 x 1 to fit diag \(3 x 1\), got 3 x 1> bsym_tridiag_solve ([1; 1; 1], [2; 2; 2], [], [1; 1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve ([1; 1; 1], [2; 2; 2], [], [1; 1; 1])
%!error <lower must be .* got 1 x 2> bsym_tridiag_solve ([1 1], [2; 2; 2], [], [1; 1; 1])
%!error <lower must be \(n-1\) x batch = 2 x 3 to fit diag \(3 x 3\), got 2 x 2> bsym_tridiag_solve (ones (2, 2), ones (3, 3), [], ones (3, 3))
%!error <lower must be \(n-1\) x batch = 0 x 2 to fit diag \(1 x 2\), got 1 x 2> bsym_tridiag_solve ([1 1], [2 2], [], [1 1])
%!error <lower must be .* got 0 x 0> bsym_tridiag_solve ([], [2; 2], [], [1; 1])
%!error <upper must be \(n-1\) x batch = 2 x 1 to fit diag \(3 x 1\), got 1 x 1> bsym_tridiag_solve ([1; 1], [2; 2; 2], 1, [1; 1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve ([1; 1], [2; 2; 2], [1 1], [1; 1; 1])
%!error <rhs has 2 rows but the systems in diag are 3 x 3> bsym_tridiag_solve ([1; 1], [2; 2; 2], [], [1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_solve ([1; 1], [2; 2; 2], [], [1 1 1])
%!error <rhs has 2 columns but diag holds 3 systems> bsym_tridiag_solve (ones (1, 3), ones (2, 3), [], ones (2, 2))
%!error <size \(rhs, 3\) is 2 but diag holds 3 systems> bsym_tridiag_solve (ones (1, 3), ones (2, 3), [], ones (2, 1, 2))
%!error <rhs must be n x batch> bsym_tridiag_solve (ones (1, 3), ones (2, 3), [], ones (2, 1, 1, 3))
## options
%!error <unknown option 'method' \(options: 'device', 'gpus'\)> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "method", "ldlt")
%!error <unknown option 'uplo'> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "uplo", "L")
%!error id=batchsym:bad_argument bsym_tridiag_solve (1, [2; 2], [], [1; 1], "tol", "1")
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device", "tpu")
%!error id=batchsym:bad_argument bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device", "tpu")
%!error <option 'device' must be a string \(got double\)> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device", 1)
%!error <options must come in name/value pairs> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device")
%!error id=batchsym:bad_argument bsym_tridiag_solve (1, [2; 2], [], [1; 1], "device", "cpu", "device")
%!error <an option name must be a string \(got double\)> bsym_tridiag_solve (1, [2; 2], [], [1; 1], 1, "cpu")

## ---- help -----------------------------------------------------------------------

%!assert (! isempty (strfind (get_help_text ("bsym_tridiag_solve"), "tridiagonal linear systems")))

## 'gpus': parsed once for every function (bsym_oct_parse_options; its every
## error is tested in bsym_solve.m): here, that it reaches Octave's and the
## core's checks, and that on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "gpus", "0")
%!error <gpus names device 0 twice> bsym_tridiag_solve (1, [2; 2], [], [1; 1], "gpus", [0 0])

%!test  # on the CPU, 'gpus' changes no result
%! d = [4 5; 4 5; 4 5]; e = [1 2; 1 2]; b = [1 2; 3 4; 5 6];
%! assert (isequal (bsym_tridiag_solve (e, d, [], b, "device", "cpu", "gpus", 0),
%!                  bsym_tridiag_solve (e, d, [], b, "device", "cpu")));
