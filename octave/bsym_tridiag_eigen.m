## -*- texinfo -*-
## @deftypefn  {} {@var{D} =} bsym_tridiag_eigen (@var{d}, @var{e})
## @deftypefnx {} {@var{D} =} bsym_tridiag_eigen (@var{d}, @var{e}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{V}, @var{D}] =} bsym_tridiag_eigen (@dots{})
## @deftypefnx {} {[@var{V}, @var{D}, @var{info}, @var{count}] =} bsym_tridiag_eigen (@dots{})
## Eigenvalues and eigenvectors of a batch of symmetric tridiagonal matrices
## @code{T_k = diag (@var{d}(:,k)) + diag (@var{e}(:,k), -1) + diag (@var{e}(:,k), 1)},
## @code{T_k * @var{V}(:,:,k) = @var{V}(:,:,k) * diag (@var{D}(:,k))}, on the
## GPU (CUDA kernels) or on the CPU (the same C core, OpenMP over the batch).
##
## @var{d} is @var{n} x @var{batch} (the diagonals, one column per system)
## and @var{e} is (@var{n}-1) x @var{batch} (the off-diagonals,
## @code{T_k(i+1,i) = T_k(i,i+1) = @var{e}(i,k)}; any empty array, such as
## @code{[]}, when @var{n} is 1).  For one system @var{d} and @var{e} may be
## any two vectors of @var{n} and @var{n}-1 elements, rows or columns.  Real
## double or single; when either is single the computation runs in single
## precision and the results are single, otherwise double.
##
## The outputs are those of @code{bsym_eigen}: @strong{@var{D} is the
## @var{m} x @var{batch} matrix of eigenvalues, not a diagonal matrix} as the
## second output of @code{[V, D] = eig (T)} is: column @var{k} holds the
## values of system @var{k} in @emph{ascending} order, as @code{eig} sorts
## them (a column vector for one system).  @var{V} is
## @var{n} x @var{m} x @var{batch} (@var{n} x @var{m} for one system), with
## the orthonormal eigenvectors of @code{T_k} in its columns.  @var{m} is
## @var{n}, or fewer with @qcode{"index"} or @qcode{"interval"}.  With one
## output only the values are computed (bisection with Sturm counts); with
## @var{V} they come from divide and conquer (on the GPU, both from the
## implicit QL iteration).
##
## Options, as name/value pairs (names and string values in any case):
##
## @table @asis
## @item @qcode{"index"}
## @code{[@var{i} @var{j}]}, integers with 1 <= @var{i} <= @var{j} <= @var{n}:
## the @var{i}-th to @var{j}-th smallest eigenvalues (@code{[1 3]}: the three
## smallest).  @var{D} has @var{j}-@var{i}+1 rows and @var{V} as many columns.
##
## @item @qcode{"interval"}
## @code{[@var{lo} @var{hi}]} with @var{lo} < @var{hi} (either may be
## infinite): the eigenvalues in (@var{lo}, @var{hi}].  @var{D} has as many
## rows as the largest @var{count}, with NaN below each system's count, and
## the columns of @var{V}(:,:,k) past @var{count}(k) are NaN.
##
## Give at most one of @qcode{"index"} and @qcode{"interval"}; an empty value
## means all eigenvalues.
##
## @item @qcode{"device"}
## @qcode{"auto"} (default), @qcode{"cpu"}, or @qcode{"gpu"} (an error
## @code{batchsym:no_device} that says why when no GPU is usable, and
## @code{batchsym:size_unsupported} for @var{n} > 256).
##
## @item @qcode{"gpus"}
## The GPUs of a GPU call, device ids such as @code{[0 1]} (default
## @code{[]}: every visible GPU), as for @code{bsym_solve}.
## @end table
##
## @var{info} and @var{count} are int32 row vectors with one entry per
## system.  @var{info}: 0 done, -1 non-finite entries in @var{d} or @var{e},
## @var{j} > 0 no convergence (at the @var{j}-th eigenvalue); the values and
## vectors of such a system are NaN and the other systems are computed as
## usual.  @var{count}: the number of eigenvalues selected in each system (0
## for a system with @var{info} @code{!=} 0).  Without the @var{info}
## output, such systems raise one warning, @code{batchsym:nonFinite} when
## some input is not finite, else @code{batchsym:noConvergence}, giving
## their counts.
##
## Errors have the identifier @code{batchsym:@var{id}}, @var{id} the core's
## id of what went wrong: @code{bad_argument} (a wrong type, shape, option or
## value), @code{no_device}, @code{size_unsupported}, @code{out_of_memory},
## @code{cuda_failure} or @code{interrupted}.
##
## Example: the second-difference matrix, values 2 - 2 cos (k pi / (n+1))
##
## @example
## @group
## n = 5;
## d = [2 * ones(n, 1), 4 * ones(n, 1)];   # two systems
## e = -ones (n - 1, 2);
## D = bsym_tridiag_eigen (d, e);
## norm (D(:,1) - (2 - 2 * cos ((1:n)' * pi / (n + 1))))   # about eps
## [V, D] = bsym_tridiag_eigen (d(:,1), e(:,1), "index", [1 1]);   # the smallest
## @end group
## @end example
##
## @seealso{bsym_eigen, bsym_tridiagonalize, bsym_tridiag_solve, eig}
## @end deftypefn

function [V, D, info, count] = bsym_tridiag_eigen (d, e, varargin)

  if (nargin < 2)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warnings (it warns only when it is not asked for info); with one output
  ## it computes the values only and returns them first.
  switch (nargout)
    case {0, 1}
      V = __bsym__ ("tridiag_eigen", d, e, varargin{:});
    case 2
      [V, D] = __bsym__ ("tridiag_eigen", d, e, varargin{:});
    case 3
      [V, D, info] = __bsym__ ("tridiag_eigen", d, e, varargin{:});
    otherwise
      [V, D, info, count] = __bsym__ ("tridiag_eigen", d, e, varargin{:});
  endswitch

endfunction

## ---- test helpers --------------------------------------------------------

## The full matrices of the systems (d, e): n x n x nb, in double.
%!function A = full_of (d, e)
%!  [n, nb] = size (d);
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    A(:,:,k) = diag (double (d(:,k)));
%!    if (n > 1)
%!      A(:,:,k) += diag (double (e(:,k)), -1) + diag (double (e(:,k)), 1);
%!    endif
%!  endfor
%!endfunction

## eig of every system of A (full): n x nb.
%!function W = eigs_of (A)
%!  W = zeros (rows (A), size (A, 3));
%!  for k = 1:size (A, 3)
%!    W(:,k) = eig (A(:,:,k));
%!  endfor
%!endfunction

## As in bsym_eigen.m: values D against references R (a cell per system or a
## matrix), and (V, D) when V is given, for the full matrices A; tolerances
## 10 n eps(class (D)) (times ||A|| for values and residuals).
%!function check_eig (A, V, D, R, ks = [])
%!  n = rows (A);
%!  nb = size (A, 3);
%!  if (isempty (ks))
%!    ks = 1:nb;
%!  endif
%!  tol = 10 * max (n, 1) * eps (class (D));
%!  for k = ks
%!    if (iscell (R))
%!      r = R{k};
%!    else
%!      r = R(:,k);
%!    endif
%!    c = numel (r);
%!    assert (! any (isnan (D(1:c,k))), "n = %d, system %d: NaN among its %d values", n, k, c);
%!    assert (all (isnan (D(c+1:end,k))), "n = %d, system %d: not NaN past its %d values", n, k, c);
%!    Ak = A(:,:,k);
%!    nA = max (norm (Ak), realmin);
%!    w = double (D(1:c,k));
%!    assert (issorted (w), "n = %d, system %d: values not ascending", n, k);
%!    err = max ([0; abs(w - r(:))]) / nA;
%!    assert (err <= tol, "n = %d, system %d: values off by %g ||T|| > %g", n, k, err, tol);
%!    if (! isempty (V))
%!      Vk = double (V(:,1:c,k));
%!      res = norm (Ak * Vk - Vk * diag (w)) / nA;
%!      assert (res <= tol, "n = %d, system %d: ||T V - V diag(w)|| / ||T|| = %g > %g",
%!              n, k, res, tol);
%!      o = norm (Vk' * Vk - eye (c));
%!      assert (o <= tol, "n = %d, system %d: ||V'V - I|| = %g > %g", n, k, o, tol);
%!      assert (all (isnan (V(:,c+1:end,k))(:)), "n = %d, system %d: V not NaN past the count", n, k);
%!    endif
%!  endfor
%!endfunction

%!function R = in_interval (W, lo, hi)
%!  R = cell (1, columns (W));
%!  for k = 1:columns (W)
%!    R{k} = W(W(:,k) > lo & W(:,k) <= hi, k);
%!  endfor
%!endfunction

%!shared ns
%! ns = [1 2 3 5 16 31 32 33 64 65 100];

## ---- accuracy against eig -------------------------------------------------

%!test  # double
%! randn ("state", 1);
%! for n = ns
%!   d = randn (n, 4);
%!   e = randn (n - 1, 4);
%!   A = full_of (d, e);
%!   W = eigs_of (A);
%!   D = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (class (D), "double");
%!   assert (size (D), [n 4]);
%!   check_eig (A, [], D, W);
%!   [V, D, info, count] = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (size (V), [n n 4]);
%!   assert (info, zeros (1, 4, "int32"));
%!   assert (count, int32 (n * ones (1, 4)));
%!   check_eig (A, V, D, W);
%! endfor

%!test  # single in, single out; either input single means single
%! randn ("state", 2);
%! for n = ns
%!   d = single (randn (n, 3));
%!   e = single (randn (n - 1, 3));
%!   A = full_of (d, e);
%!   W = eigs_of (A);
%!   D = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (class (D), "single");
%!   check_eig (A, [], D, W);
%!   [V, D, info, count] = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (class (V), "single");
%!   assert (class (info), "int32");
%!   assert (class (count), "int32");
%!   check_eig (A, V, D, W);
%!   assert (class (bsym_tridiag_eigen (double (d), e, "device", dev_for (n))), "single");
%!   [V, D] = bsym_tridiag_eigen (d, double (e), "device", dev_for (n));
%!   assert (class (V), "single");
%!   check_eig (A, V, D, W);
%! endfor

%!test  # the same values as bsym_eigen on the full matrices
%! randn ("state", 3);
%! for n = [2 7 33 64]
%!   d = randn (n, 5);
%!   e = randn (n - 1, 5);
%!   A = full_of (d, e);
%!   tol = 10 * n * eps * max (abs (d(:)) + 2 * max (abs (e(:))));
%!   assert (bsym_tridiag_eigen (d, e), bsym_eigen (A), tol);
%!   [~, D] = bsym_tridiag_eigen (d, e);
%!   assert (D, bsym_eigen (A), tol);
%! endfor

%!test  # Wilkinson's W21+ and larger ones
%! for n = [21 33 64 65]
%!   d = abs (-(n-1)/2:(n-1)/2)';
%!   e = ones (n - 1, 1);
%!   A = full_of (d, e);
%!   R = eig (A);
%!   [V, D, info] = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (info, int32 (0));
%!   check_eig (A, V, D, R);
%!   check_eig (A, [], bsym_tridiag_eigen (d, e, "device", dev_for (n)), R);
%!   [V, D] = bsym_tridiag_eigen (single (d), single (e), "device", dev_for (n));
%!   check_eig (A, V, D, R);
%! endfor

%!test  # second differences (known values), tiny and graded off-diagonals
%! for n = [2 5 32 33 64 100]
%!   k = (1:n)';
%!   d = [2 * ones(n, 1), ones(n, 1), 1 + k / n, 10 .^ (-k / 4)];
%!   e = [-ones(n - 1, 1), 1e-10 * ones(n - 1, 1), 1e-300 * ones(n - 1, 1), 10 .^ (-k(1:n-1) / 4)];
%!   A = full_of (d, e);
%!   W = eigs_of (A);
%!   W(:,1) = 2 - 2 * cos (k * pi / (n + 1));
%!   [V, D, info] = bsym_tridiag_eigen (d, e, "device", dev_for (n));
%!   assert (info, zeros (1, 4, "int32"));
%!   check_eig (A, V, D, W);
%!   check_eig (A, [], bsym_tridiag_eigen (d, e, "device", dev_for (n)), W);
%! endfor

%!test  # diagonal (e = 0) with repeated values, zero, 1 x 1
%! for n = [1 2 5 33 64]
%!   d = [mod((1:n)', 3), -ones(n, 1), zeros(n, 1)];
%!   e = zeros (n - 1, 3);
%!   A = full_of (d, e);
%!   R = sort (d, 1);
%!   D = bsym_tridiag_eigen (d, e);
%!   check_eig (A, [], D, R, 1:2);
%!   ## T = 0: bisection stops on an interval of about realmin around 0
%!   assert (max (abs (D(:,3))) <= 4 * realmin);
%!   [V, D, info] = bsym_tridiag_eigen (d, e);
%!   assert (info, zeros (1, 3, "int32"));
%!   check_eig (A, V, D, R);
%!   assert (D(:,3), zeros (n, 1));
%! endfor
%! assert (bsym_tridiag_eigen (4, []), 4);
%! [V, D] = bsym_tridiag_eigen (-2, zeros (0, 1));
%! assert (abs (V), 1);
%! assert (D, -2);
%! [V, D] = bsym_tridiag_eigen ([1 -2 3], zeros (0, 3));  # three 1 x 1 systems
%! assert (D, [1 -2 3]);
%! assert (size (V), [1 1 3]);

%!test  # one system as any two vectors; n x batch otherwise
%! d = [1 2 3 4];
%! e = [1 -1 0.5];
%! R = eig (full_of (d', e'));
%! tol = 40 * eps;
%! assert (bsym_tridiag_eigen (d', e'), R, tol);
%! assert (bsym_tridiag_eigen (d, e), R, tol);       # rows
%! assert (bsym_tridiag_eigen (d', e), R, tol);      # column and row
%! assert (bsym_tridiag_eigen (d, e'), R, tol);
%! [V, D] = bsym_tridiag_eigen (d, e);
%! assert (size (V), [4 4]);
%! assert (size (D), [4 1]);
%! assert (bsym_tridiag_eigen ([1 2], 5), eig ([1 5; 5 2]), tol);
%! assert (bsym_tridiag_eigen ([1 2], []), [1 2]);   # two 1 x 1 systems

%!test  # a large batch (the GPU serves it under "auto" when there is one)
%! randn ("state", 4);
%! d = randn (32, 500);
%! e = randn (31, 500);
%! [V, D, info] = bsym_tridiag_eigen (d, e);
%! assert (all (info == 0));
%! A = full_of (d(:,[1 250 500]), e(:,[1 250 500]));
%! check_eig (A, V(:,:,[1 250 500]), D(:,[1 250 500]), eigs_of (A));

## ---- index and interval -------------------------------------------------------

%!test  # index
%! randn ("state", 5);
%! for n = [1 2 3 16 33 64 65]
%!   for cls = {"double", "single"}
%!     d = cast (randn (n, 3), cls{1});
%!     e = cast (randn (n - 1, 3), cls{1});
%!     A = full_of (d, e);
%!     W = eigs_of (A);
%!     for ij = [1 1; 1 min(3, n); n n; 1 n; ceil(n/2) n]'
%!       m = ij(2) - ij(1) + 1;
%!       D = bsym_tridiag_eigen (d, e, "index", ij, "device", dev_for (n));
%!       assert (size (D), [m 3]);
%!       check_eig (A, [], D, W(ij(1):ij(2),:));
%!       [V, D, info, count] = bsym_tridiag_eigen (d, e, "Index", ij', "device", dev_for (n));
%!       assert (size (V), [n m 3]);
%!       assert (count, int32 (m * ones (1, 3)));
%!       check_eig (A, V, D, W(ij(1):ij(2),:));
%!     endfor
%!   endfor
%! endfor

%!test  # interval
%! randn ("state", 6);
%! for n = [2 3 16 33 64 65]                  # n = 1: see the known failures
%!   for cls = {"double", "single"}
%!     d = cast (randn (n, 5), cls{1});
%!     e = cast (randn (n - 1, 5), cls{1});
%!     d(:,5) += 10;                           # nothing in the bounded intervals
%!     A = full_of (d, e);
%!     W = eigs_of (A);
%!     for lohi = [-1 1; -Inf 0; 0 Inf; -0.5 0.25]'
%!       R = in_interval (W, lohi(1), lohi(2));
%!       c = cellfun (@numel, R);
%!       D = bsym_tridiag_eigen (d, e, "interval", lohi, "device", dev_for (n));
%!       assert (size (D), [max(c) 5]);
%!       check_eig (A, [], D, R);
%!       [V, D, info, count] = bsym_tridiag_eigen (d, e, "interval", lohi, "device", dev_for (n));
%!       assert (size (V), [n max(c) 5]);
%!       assert (count, int32 (c));
%!       check_eig (A, V, D, R);
%!     endfor
%!   endfor
%! endfor

%!test  # n = 1 with vectors
%! [V, D, info, count] = bsym_tridiag_eigen ([0.5 -2 3], [], "interval", [0 1]);
%! assert (D, [0.5 NaN NaN]);
%! assert (V, reshape ([1 NaN NaN], 1, 1, 3));
%! assert (count, int32 ([1 0 0]));

## Known failures of the core (see bsym_eigen.m): values only with
## "interval" misses the smallest eigenvalues when bisection's Gerschgorin
## interval has (nearly) zero width (n = 1, e = 0 with equal d).
%!test
%! assert (bsym_tridiag_eigen (0.5, [], "interval", [0 1]), 0.5);
%!test
%! assert (bsym_tridiag_eigen ([0.7; 0.7], 0, "interval", [0 1]), [0.7; 0.7], eps);

## ---- per-system failures -----------------------------------------------------

%!test  # a non-finite system spoils only itself
%! randn ("state", 7);
%! for cls = {"double", "single"}
%!   d = cast (randn (5, 4), cls{1});
%!   e = cast (randn (4, 4), cls{1});
%!   d(3,2) = NaN;
%!   e(4,3) = -Inf;
%!   A = full_of (d, e);
%!   W = eigs_of (A(:,:,[1 1 1 4]));
%!   [V, D, info, count] = bsym_tridiag_eigen (d, e);
%!   assert (info, int32 ([0 -1 -1 0]));
%!   assert (count, int32 ([5 0 0 5]));
%!   assert (all (isnan (D(:,2:3))(:)));
%!   assert (all (isnan (V(:,:,2:3))(:)));
%!   check_eig (A, V, D, W, [1 4]);
%!   warning ("off", "batchsym:nonFinite", "local");
%!   D = bsym_tridiag_eigen (d, e, "index", [2 3]);
%!   assert (all (isnan (D(:,2:3))(:)));
%!   check_eig (A, [], D, W(2:3,:), [1 4]);
%! endfor

%!warning id=batchsym:nonFinite bsym_tridiag_eigen ([1; NaN], 1);

%!test  # one warning, with the count, naming bsym_tridiag_eigen
%! warning ("error", "batchsym:nonFinite", "local");
%! try
%!   [V, D] = bsym_tridiag_eigen ([1 1 1; 2 2 2], [0 Inf NaN]);
%!   error ("no warning");
%! catch err
%!   assert (err.identifier, "batchsym:nonFinite");
%!   assert (! isempty (strfind (err.message, "2 of 3 systems")));
%!   assert (strncmp (err.message, "bsym_tridiag_eigen: ", 20));
%! end_try_catch
%! [V, D, info] = bsym_tridiag_eigen ([1 1 1; 2 2 2], [0 Inf NaN]);
%! assert (info, int32 ([0 -1 -1]));

## ---- empty problems -------------------------------------------------------

%!test
%! [V, D, info, count] = bsym_tridiag_eigen (zeros (3, 0), zeros (2, 0));
%! assert (size (V), [3 3 0]);
%! assert (size (D), [3 0]);
%! assert (size (info), [1 0]);
%! assert (size (count), [1 0]);
%! [V, D, info] = bsym_tridiag_eigen (zeros (0, 1), []);   # n = 0
%! assert (size (V), [0 0]);
%! assert (size (D), [0 1]);
%! assert (info, int32 (0));
%! D = bsym_tridiag_eigen (single (zeros (0, 3)), []);
%! assert (class (D), "single");
%! assert (size (D), [0 3]);

## ---- devices ----------------------------------------------------------------

%!test  # the CPU on request
%! randn ("state", 8);
%! d = randn (16, 8);
%! e = randn (15, 8);
%! A = full_of (d, e);
%! [V, D] = bsym_tridiag_eigen (d, e, "device", "cpu");
%! check_eig (A, V, D, eigs_of (A));

%!test  # "gpu": computes when a GPU is usable, else says why not
%! randn ("state", 9);
%! dev = bsym_device_info ();
%! if (bsym_gpu_available ())
%!   for n = [1 2 3 5 16 31 32 33 64 65 128 256]
%!     for cls = {"double", "single"}
%!       d = cast (randn (n, 50), cls{1});
%!       e = cast (randn (n - 1, 50), cls{1});
%!       A = full_of (d, e);
%!       W = eigs_of (A);
%!       [V, D, info] = bsym_tridiag_eigen (d, e, "device", "gpu");
%!       assert (class (D), cls{1});
%!       assert (all (info == 0));
%!       check_eig (A, V, D, W, [1 25 50]);
%!       check_eig (A, [], bsym_tridiag_eigen (d, e, "device", "gpu"), W, [1 25 50]);
%!     endfor
%!   endfor
%!   try
%!     bsym_tridiag_eigen (ones (257, 1), ones (256, 1), "device", "gpu");
%!     error ("no error for n = 257 on the GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:size_unsupported");
%!   end_try_catch
%! else
%!   try
%!     bsym_tridiag_eigen ([1; 2], 1, "device", "gpu");
%!     error ("no error for device gpu without a GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!     assert (! isempty (strfind (err.message, dev.reason)));
%!     assert (strncmp (err.message, "bsym_tridiag_eigen: ", 20));
%!   end_try_catch
%! endif

## ---- errors -------------------------------------------------------------------

%!error <Invalid call> bsym_tridiag_eigen ()
%!error <Invalid call> bsym_tridiag_eigen ([1; 2])
%!error <called with too many outputs> [a, b, c, d, e] = bsym_tridiag_eigen ([1; 2], 1)
%!error <d must be a real, full double or single array \(got cell\)> bsym_tridiag_eigen ({1}, [])
%!error <d .* \(got complex double\)> bsym_tridiag_eigen ([1; 2i], 1)
%!error <d .* \(got sparse double\)> bsym_tridiag_eigen (sparse ([1; 2]), 1)
%!error <d .* \(got logical\)> bsym_tridiag_eigen (true, [])
%!error id=batchsym:bad_argument bsym_tridiag_eigen (int32 ([1; 2]), 1)
%!error <e must be a real, full double or single array \(got cell\)> bsym_tridiag_eigen ([1; 2], {1})
%!error <e .* \(got complex double\)> bsym_tridiag_eigen ([1; 2], 1i)
%!error <e .* \(got char\)> bsym_tridiag_eigen ([1; 2], "a")
%!error <d must be an n x batch matrix or a column vector \(got 3 dimensions\)> bsym_tridiag_eigen (ones (2, 2, 2), ones (1, 2))
%!error <e must be an \(n-1\) x batch matrix \(got 3 dimensions\)> bsym_tridiag_eigen (ones (2, 2), ones (1, 1, 2))
%!error <e must be \(n-1\) x batch = 2 x 1 to fit d \(3 x 1\), got 3 x 1> bsym_tridiag_eigen ([1; 2; 3], [1; 1; 1])
%!error id=batchsym:bad_argument bsym_tridiag_eigen ([1; 2; 3], 1)
%!error <e must be \(n-1\) x batch = 2 x 3 to fit d \(3 x 3\), got 2 x 2> bsym_tridiag_eigen (ones (3, 3), ones (2, 2))
%!error <e must be \(n-1\) x batch = 0 x 2 to fit d \(1 x 2\), got 2 x 1> bsym_tridiag_eigen ([1 2], [1; 1])
%!error <bsym_tridiag_eigen: index must be two integers 1 <= i <= j <= n \(n = 2, got 1, 3\)> bsym_tridiag_eigen ([1; 2], 1, "index", [1 3])
%!error <bsym_tridiag_eigen: index must be two integers 1 <= i <= j <= n \(n = 2, got 2, 1\)> bsym_tridiag_eigen ([1; 2], 1, "index", [2 1])
%!error <option 'index' must be a real vector \[i j\] of two numbers> bsym_tridiag_eigen ([1; 2], 1, "index", 1)
%!error <bsym_tridiag_eigen: interval must be two numbers lo < hi, the values in \(lo, hi\] being kept \(got 2, -Inf\)> bsym_tridiag_eigen ([1; 2], 1, "interval", [2 -Inf])
%!error <option 'interval' must be a real vector> bsym_tridiag_eigen ([1; 2], 1, "interval", {0, 1})
%!error <bsym_tridiag_eigen: index and interval cannot both be given: choose the eigenvalues by rank or by value> bsym_tridiag_eigen ([1; 2], 1, "index", [1 1], "interval", [0 1])
%!error <unknown option 'uplo' \(options: 'device', 'index', 'interval', 'gpus'\)> bsym_tridiag_eigen ([1; 2], 1, "uplo", "L")
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_tridiag_eigen ([1; 2], 1, "device", "tpu")
%!error <options must come in name/value pairs> bsym_tridiag_eigen ([1; 2], 1, "index")
%!error <an option name must be a string \(got double\)> bsym_tridiag_eigen ([1; 2], 1, 1, 2)

## ---- help -----------------------------------------------------------------------

%!assert (! isempty (strfind (get_help_text ("bsym_tridiag_eigen"), "not a diagonal matrix")))

## 'gpus': parsed once for every function (bsym_oct_parse_options; its every
## error is tested in bsym_solve.m): here, that it reaches Octave's and the
## core's checks, and that on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_tridiag_eigen ([1; 2], 1, "gpus", "0")
%!error <gpus names device 0 twice> bsym_tridiag_eigen ([1; 2], 1, "gpus", [0 0])

%!test  # on the CPU, 'gpus' changes no result
%! d = [4 5; 3 5; 2 5]; e = [1 2; 1 -2];
%! [V0, D0] = bsym_tridiag_eigen (d, e, "device", "cpu");
%! [V, D] = bsym_tridiag_eigen (d, e, "device", "cpu", "gpus", 0);
%! assert (isequal (V, V0) && isequal (D, D0));
