## -*- texinfo -*-
## @deftypefn  {} {@var{D} =} bsym_eigen (@var{A})
## @deftypefnx {} {@var{D} =} bsym_eigen (@var{A}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{V}, @var{D}] =} bsym_eigen (@dots{})
## @deftypefnx {} {[@var{V}, @var{D}, @var{info}, @var{count}] =} bsym_eigen (@dots{})
## Eigenvalues and eigenvectors of a batch of small symmetric matrices,
## @code{@var{A}(:,:,k) * @var{V}(:,:,k) = @var{V}(:,:,k) * diag (@var{D}(:,k))},
## on the GPU (CUDA kernels) or on the CPU (the same C core, OpenMP over the
## batch).
##
## @var{A} is an @var{n} x @var{n} x @var{batch} array of symmetric matrices,
## or an @var{n} x @var{n} matrix (a batch of one), real double or single, or
## complex Hermitian (real values, complex vectors; with @qcode{"index"} or
## @qcode{"interval"} values only, for now).
## Only the triangle named by @qcode{"uplo"} is read.  When @var{A} is single
## the computation runs in single precision and the results are single;
## otherwise double.
##
## @strong{@var{D} is the @var{m} x @var{batch} matrix of eigenvalues,
## not a diagonal matrix} as the second output of @code{[V, D] = eig (A)}
## is: column @var{k} holds the values of system @var{k}, in
## @emph{ascending} order as @code{eig} sorts them, so that
## @code{diag (@var{D}(:,k))} is the @var{D} that @code{eig} would return.  For a matrix
## @var{A}, @var{D} is a column vector, like @code{eig (@var{A})}.  @var{m} is
## @var{n}, or fewer with the @qcode{"index"} and @qcode{"interval"} options.
##
## @var{V} is @var{n} x @var{m} x @var{batch} (@var{n} x @var{m} for a
## matrix): column @var{j} of @var{V}(:,:,k) is the unit eigenvector of
## @var{D}(j,k), and the columns of each @var{V}(:,:,k) are orthonormal.
## With one output only the values are computed (by bisection with Sturm
## counts, which costs much less); with @var{V} they come from divide and
## conquer on the Householder tridiagonal form.  On the GPU both come from
## the implicit QL iteration, its rotations applied to the Householder
## vectors.
##
## Options, as name/value pairs (names and string values in any case):
##
## @table @asis
## @item @qcode{"index"}
## @code{[@var{i} @var{j}]}, integers with 1 <= @var{i} <= @var{j} <= @var{n}:
## only the @var{i}-th to @var{j}-th smallest eigenvalues (ascending indices,
## as @code{eig} orders them: @code{[1 3]} are the three smallest,
## @code{[n n]} the largest).  @var{D} has @var{j}-@var{i}+1 rows and
## @var{V} as many columns.
##
## @item @qcode{"interval"}
## @code{[@var{lo} @var{hi}]} with @var{lo} < @var{hi} (either may be
## infinite): only the eigenvalues in the half-open interval
## (@var{lo}, @var{hi}].  Each system has its own number of them,
## @var{count}(k); @var{D} has as many rows as the largest count, with NaN
## below each system's count, and the columns of @var{V}(:,:,k) past
## @var{count}(k) are NaN.
##
## Give at most one of @qcode{"index"} and @qcode{"interval"}; an empty value
## (@code{[]}) means all eigenvalues.
##
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
## @var{info} and @var{count} are int32 row vectors with one entry per system.
## @var{info}: 0 done; -1 non-finite entries in the referenced triangle of
## @var{A}; @var{j} > 0 the iteration did not converge (at the @var{j}-th
## eigenvalue).  The values and vectors of a system with @var{info}
## @code{!=} 0 are NaN and the other systems are computed as usual.
## @var{count}: the number of eigenvalues selected in each system (@var{n},
## @var{j}-@var{i}+1 with @qcode{"index"}, and 0 for a system with
## @var{info} @code{!=} 0).  Without the @var{info} output, the failed
## systems raise one warning, @code{batchsym:nonFinite} when some input is
## not finite, else @code{batchsym:noConvergence}, giving their counts.  Asking for
## @var{info} computes @var{V} too: use @code{[~, D, info] = bsym_eigen (A)}.
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
## A = cat (3, [2 1; 1 2], [4 0; 0 -1]);
## D = bsym_eigen (A)                  # [1 -1; 3 4]: column k = eig (A(:,:,k))
## [V, D] = bsym_eigen (A);
## norm (A(:,:,1) * V(:,:,1) - V(:,:,1) * diag (D(:,1)))   # about eps
## D1 = bsym_eigen (A, "index", [1 1])                     # the smallest: [1 -1]
## [V, D, info, count] = bsym_eigen (A, "interval", [0 3.5]);
## ## D = [1 NaN; 3 NaN], count = [2 0]
## @end group
## @end example
##
## @seealso{bsym_tridiag_eigen, bsym_tridiagonalize, bsym_solve, eig}
## @end deftypefn

function [V, D, info, count] = bsym_eigen (A, varargin)

  if (nargin < 1)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warnings (it warns only when it is not asked for info); with one output
  ## it computes the values only and returns them first.
  switch (nargout)
    case {0, 1}
      V = __bsym__ ("eigen", A, varargin{:});
    case 2
      [V, D] = __bsym__ ("eigen", A, varargin{:});
    case 3
      [V, D, info] = __bsym__ ("eigen", A, varargin{:});
    otherwise
      [V, D, info, count] = __bsym__ ("eigen", A, varargin{:});
  endswitch

endfunction

## ---- test helpers --------------------------------------------------------

## A batch of nb random symmetric n x n matrices of class cls, exactly
## symmetric.
%!function A = symm (n, nb, cls = "double")
%!  M = randn (n, n, nb);
%!  A = cast ((M + permute (M, [2 1 3])) / 2, cls);
%!endfunction

## eig of every system of A (full symmetric matrices), in double: n x nb.
%!function W = eigs_of (A)
%!  n = rows (A);
%!  nb = size (A, 3);
%!  W = zeros (n, nb);
%!  for k = 1:nb
%!    W(:,k) = eig (double (A(:,:,k)));
%!  endfor
%!endfunction

## Checks values D (m x nb) against the reference values R (a cell per
## system, or an m x nb matrix) of the full symmetric matrices A, and, when
## V is not empty, the pairs (V, D): for each system k with c values (the
## non-NaN rows of D(:,k), which come first; the rest NaN and, in V, NaN
## columns), |D - R| <= tol ||A||, ||A V - V diag (D)|| / ||A|| <= tol and
## ||V'V - I|| <= tol, tol = c0 n eps(class (D)) with c0 = 10.
%!function check_eig (A, V, D, R, ks = [], c0 = 10)
%!  n = rows (A);
%!  nb = size (A, 3);
%!  if (isempty (ks))
%!    ks = 1:nb;
%!  endif
%!  tol = c0 * max (n, 1) * eps (class (D));
%!  for k = ks
%!    if (iscell (R))
%!      r = R{k};
%!    else
%!      r = R(:,k);
%!    endif
%!    c = numel (r);
%!    assert (! any (isnan (D(1:c,k))), "n = %d, system %d: NaN among its %d values", n, k, c);
%!    assert (all (isnan (D(c+1:end,k))), "n = %d, system %d: not NaN past its %d values", n, k, c);
%!    Ak = double (A(:,:,k));
%!    nA = max (norm (Ak), realmin);
%!    w = double (D(1:c,k));
%!    assert (issorted (w), "n = %d, system %d: values not ascending", n, k);
%!    err = max ([0; abs(w - r(:))]) / nA;
%!    assert (err <= tol, "n = %d, system %d: values off by %g ||A|| > %g", n, k, err, tol);
%!    if (! isempty (V))
%!      Vk = double (V(:,1:c,k));
%!      res = norm (Ak * Vk - Vk * diag (w)) / nA;
%!      assert (res <= tol, "n = %d, system %d: ||A V - V diag(w)|| / ||A|| = %g > %g",
%!              n, k, res, tol);
%!      o = norm (Vk' * Vk - eye (c));
%!      assert (o <= tol, "n = %d, system %d: ||V'V - I|| = %g > %g", n, k, o, tol);
%!      assert (all (isnan (V(:,c+1:end,k))(:)), "n = %d, system %d: V not NaN past the count", n, k);
%!    endif
%!  endfor
%!endfunction

## The reference values of A in (lo, hi], one cell per system.
%!function R = in_interval (W, lo, hi)
%!  R = cell (1, columns (W));
%!  for k = 1:columns (W)
%!    R{k} = W(W(:,k) > lo & W(:,k) <= hi, k);
%!  endfor
%!endfunction

%!shared ns
%! ns = [1 2 3 5 16 31 32 33 64 65 100];

## ---- accuracy against eig -------------------------------------------------

%!test  # graded A_ij 2^-g(i+j): the vectors stay orthogonal (Householder
%!       # reflectors from the column scaled where its squares underflow)
%! randn ("state", 61);
%! for c = {[7 8 40], [16 8 20], [70 1 6]}
%!   n = c{1}(1); g = c{1}(2); nb = c{1}(3);
%!   A = symm (n, nb) .* 2 .^ (-g * ((0:n-1)' + (0:n-1)));
%!   for cls = {"double", "single"}
%!     Ac = cast (A, cls{1});
%!     [V, D, info] = bsym_eigen (Ac, "device", dev_for (n));
%!     assert (all (info == 0));
%!     check_eig (Ac, V, D, eigs_of (Ac));
%!   endfor
%! endfor

%!test  # double: values only, and values with vectors
%! randn ("state", 1);
%! for n = ns
%!   A = symm (n, 4);
%!   W = eigs_of (A);
%!   D = bsym_eigen (A, "device", dev_for (n));
%!   assert (class (D), "double");
%!   assert (size (D), [n 4]);
%!   check_eig (A, [], D, W);
%!   [V, D, info, count] = bsym_eigen (A, "device", dev_for (n));
%!   assert (class (V), "double");
%!   assert (size (V), [n n 4]);
%!   assert (size (D), [n 4]);
%!   assert (info, zeros (1, 4, "int32"));
%!   assert (count, int32 (n * ones (1, 4)));
%!   check_eig (A, V, D, W);
%! endfor

%!test  # single in, single out, single accuracy
%! randn ("state", 2);
%! for n = ns
%!   A = symm (n, 3, "single");
%!   W = eigs_of (A);
%!   D = bsym_eigen (A, "device", dev_for (n));
%!   assert (class (D), "single");
%!   check_eig (A, [], D, W);
%!   [V, D, info, count] = bsym_eigen (A, "device", dev_for (n));
%!   assert (class (V), "single");
%!   assert (class (D), "single");
%!   assert (class (info), "int32");
%!   assert (class (count), "int32");
%!   assert (info, zeros (1, 3, "int32"));
%!   check_eig (A, V, D, W);
%! endfor

%!test  # bisection (values only) and divide and conquer agree
%! randn ("state", 3);
%! for n = [2 7 33 64 100]
%!   for cls = {"double", "single"}
%!     A = symm (n, 5, cls{1});
%!     D1 = bsym_eigen (A, "device", dev_for (n));
%!     [~, D2] = bsym_eigen (A, "device", dev_for (n));
%!     tol = 10 * n * eps (cls{1}) * max (abs (D1(:)));
%!     assert (D1, D2, tol);
%!   endfor
%! endfor

%!test  # Xi_rho = (1 - rho) I + rho ones: n-1 equal values 1 - rho, one 1 + (n-1) rho
%! for n = [2 3 8 32 33 64 100]
%!   rhos = [0 0.1 0.5 0.9 0.999 -0.5/(n-1)];
%!   A = zeros (n, n, numel (rhos));
%!   R = zeros (n, numel (rhos));
%!   for k = 1:numel (rhos)
%!     rho = rhos(k);
%!     A(:,:,k) = (1 - rho) * eye (n) + rho * ones (n);
%!     R(:,k) = sort ([(1 - rho) * ones(n-1, 1); 1 + (n - 1) * rho]);
%!   endfor
%!   [V, D, info] = bsym_eigen (A, "device", dev_for (n));
%!   assert (info, zeros (1, numel (rhos), "int32"));
%!   check_eig (A, V, D, R);
%!   check_eig (A, [], bsym_eigen (A, "device", dev_for (n)), R);
%!   [V, D] = bsym_eigen (single (A), "device", dev_for (n));
%!   check_eig (single (A), V, D, R);
%! endfor

%!test  # diagonal matrices with repeated values
%! for n = [1 2 5 16 33 64]
%!   d1 = mod ((1:n)', 3);                     # 0, 1, 2 repeated
%!   d2 = -ones (n, 1);                        # one value n times
%!   d3 = [zeros(floor (n/2), 1); 5 * ones(ceil (n/2), 1)];
%!   A = cat (3, diag (d1), diag (d2), diag (flipud (d3)));
%!   R = [sort(d1), d2, sort(d3)];
%!   check_eig (A, [], bsym_eigen (A), R);     # bisection: within a few ulps
%!   [V, D] = bsym_eigen (A);
%!   check_eig (A, V, D, R);
%!   [V, D] = bsym_eigen (single (A));
%!   check_eig (single (A), V, D, R);
%!   for k = 1:3                               # V: a signed permutation
%!     assert (sort (abs (V(:,:,k))(:)), single ([zeros(n*n - n, 1); ones(n, 1)]));
%!   endfor
%! endfor

%!test  # Wilkinson's W21+ (pairs of values equal to many digits), and larger ones
%! for n = [21 33 64 65]
%!   A = wilkinson (n);
%!   R = eig (A);
%!   [V, D, info] = bsym_eigen (A, "device", dev_for (n));
%!   assert (info, int32 (0));
%!   check_eig (A, V, D, R);
%!   check_eig (A, [], bsym_eigen (A, "device", dev_for (n)), R);
%!   [V, D] = bsym_eigen (single (A), "device", dev_for (n));
%!   check_eig (single (A), V, D, R);
%! endfor

%!test  # symmetric positive definite, ill-conditioned, graded, Hilbert
%! randn ("state", 4);
%! for n = [5 32 64]
%!   [U, ~] = qr (randn (n));
%!   A = cat (3, U * diag (logspace (0, 12, n)) * U', hilb (n), U * diag (1:n) * U',
%!            U * diag (logspace (-8, 8, n) .* (-1) .^ (1:n)) * U');
%!   A = (A + permute (A, [2 1 3])) / 2;
%!   W = eigs_of (A);
%!   [V, D] = bsym_eigen (A);
%!   check_eig (A, V, D, W);
%!   check_eig (A, [], bsym_eigen (A), W);
%! endfor

%!test  # 1 x 1 and zero matrices
%! assert (bsym_eigen (5), 5);
%! [V, D, info, count] = bsym_eigen (-3);
%! assert (abs (V), 1);
%! assert (D, -3);
%! assert (info, int32 (0));
%! assert (count, int32 (1));
%! D = bsym_eigen (reshape ([1 -2 3], 1, 1, 3));
%! assert (D, [1 -2 3]);
%! [V, D] = bsym_eigen (single (reshape ([1 -2 3], 1, 1, 3)));
%! assert (class (V), "single");
%! assert (size (V), [1 1 3]);
%! assert (abs (V(:)'), single ([1 1 1]));
%! assert (D, single ([1 -2 3]));
%! for n = [1 2 3 16 33 64 65]
%!   A = zeros (n, n, 2);
%!   D = bsym_eigen (A, "device", dev_for (n));
%!   assert (size (D), [n 2]);
%!   ## bisection stops on an interval of about realmin around 0
%!   assert (max (abs (D(:))) <= 4 * realmin);
%!   [V, D, info] = bsym_eigen (A, "device", dev_for (n));
%!   assert (info, zeros (1, 2, "int32"));
%!   assert (D, zeros (n, 2));
%!   check_eig (A, V, D, zeros (n, 2));
%! endfor

%!test  # a matrix gives a column D and a matrix V, like eig
%! randn ("state", 5);
%! A = symm (7, 1);
%! D = bsym_eigen (A);
%! assert (size (D), [7 1]);
%! assert (D, eig (A), 70 * eps * norm (A));
%! [V, D] = bsym_eigen (A);
%! assert (size (V), [7 7]);
%! assert (size (D), [7 1]);
%! assert (norm (A * V - V * diag (D)) <= 70 * eps * norm (A));
%! [V2, D2] = eig (A);
%! assert (D, diag (D2), 70 * eps * norm (A));
%! assert (abs (V' * V2), eye (7), 1e-10);   # the same vectors up to sign

%!test  # a large batch (the GPU serves it under "auto" when there is one)
%! randn ("state", 6);
%! A = symm (32, 300);
%! [V, D, info] = bsym_eigen (A);
%! assert (all (info == 0));
%! check_eig (A, V, D, eigs_of (A), [1 150 300]);

## ---- index: the i-th to j-th smallest -----------------------------------------

%!test
%! randn ("state", 7);
%! for n = [1 2 3 16 33 64 65]
%!   for cls = {"double", "single"}
%!     A = symm (n, 3, cls{1});
%!     W = eigs_of (A);
%!     for ij = unique ([1 1; 1 min(3, n); n n; 1 n; ceil(n/2) n; 2 min(n, 4)], "rows")'
%!       if (ij(1) > ij(2) || ij(2) > n)
%!         continue;
%!       endif
%!       m = ij(2) - ij(1) + 1;
%!       D = bsym_eigen (A, "index", ij', "device", dev_for (n));
%!       assert (size (D), [m 3]);
%!       check_eig (A, [], D, W(ij(1):ij(2),:));
%!       [V, D, info, count] = bsym_eigen (A, "index", ij, "device", dev_for (n));
%!       assert (size (V), [n m 3]);
%!       assert (size (D), [m 3]);
%!       assert (info, zeros (1, 3, "int32"));
%!       assert (count, int32 (m * ones (1, 3)));
%!       check_eig (A, V, D, W(ij(1):ij(2),:));
%!     endfor
%!   endfor
%! endfor

%!test  # [1 3] are the three smallest, [n n] the largest; any numeric class
%! A = diag ([5 -1 3 0 2]);
%! tol = 50 * eps;
%! assert (bsym_eigen (A, "index", [1 3]), [-1; 0; 2], tol);
%! assert (bsym_eigen (A, "index", [5 5]), 5, tol);
%! assert (bsym_eigen (A, "index", int32 ([2 3])), [0; 2], tol);
%! assert (bsym_eigen (A, "index", single ([4; 5])), [3; 5], tol);
%! [V, D] = bsym_eigen (A, "index", [1 1]);
%! assert (D, -1, tol);
%! assert (abs (V), [0; 1; 0; 0; 0]);
%! assert (bsym_eigen (A, "index", []), [-1; 0; 2; 3; 5], tol);   # [] = all

## ---- interval: the values in (lo, hi] -------------------------------------------

%!test
%! randn ("state", 8);
%! for n = [2 3 16 33 64 65]                  # n = 1: see the known failures below
%!   A = symm (n, 6);
%!   A(:,:,6) = 10 * eye (n) + symm (n, 1) / 2;   # nothing in the bounded intervals
%!   W = eigs_of (A);
%!   for lohi = [-1 1; -Inf 0; 0 Inf; -Inf Inf; -0.5 0.25]'
%!     lo = lohi(1);  hi = lohi(2);
%!     R = in_interval (W, lo, hi);
%!     c = cellfun (@numel, R);
%!     D = bsym_eigen (A, "interval", [lo hi], "device", dev_for (n));
%!     assert (size (D), [max(c) 6]);
%!     check_eig (A, [], D, R);
%!     [V, D, info, count] = bsym_eigen (A, "interval", [lo hi], "device", dev_for (n));
%!     assert (size (V), [n max(c) 6]);
%!     assert (size (D), [max(c) 6]);
%!     assert (info, zeros (1, 6, "int32"));
%!     assert (count, int32 (c));
%!     check_eig (A, V, D, R);
%!   endfor
%! endfor

%!test  # single precision
%! randn ("state", 9);
%! for n = [3 16 33 64]
%!   A = symm (n, 4, "single");
%!   R = in_interval (eigs_of (A), -1, 2);
%!   [V, D, info, count] = bsym_eigen (A, "interval", [-1 2]);
%!   assert (class (D), "single");
%!   assert (count, int32 (cellfun (@numel, R)));
%!   check_eig (A, V, D, R);
%!   check_eig (A, [], bsym_eigen (A, "interval", [-1 2]), R);
%! endfor

%!test  # the interval is half open, (lo, hi]; none inside: 0 rows
%! A = cat (3, diag ([1 2 3]), diag ([3 3 1]), diag ([4 5 6]));
%! [V, D, info, count] = bsym_eigen (A, "interval", [1 3]);
%! assert (count, int32 ([2 2 0]));
%! assert (D, [2 3 NaN; 3 3 NaN], 10 * eps);
%! assert (size (V), [3 2 3]);
%! assert (all (isnan (V(:,:,3))(:)));
%! D = bsym_eigen (A, "interval", [1 3]);
%! assert (D, [2 3 NaN; 3 3 NaN], 10 * eps);
%! [V, D, info, count] = bsym_eigen (A, "interval", [10 20]);
%! assert (size (V), [3 0 3]);
%! assert (size (D), [0 3]);
%! assert (count, zeros (1, 3, "int32"));
%! assert (size (bsym_eigen (eye (3), "interval", [1 2])), [0 1]);

%!test  # n = 1 with vectors (divide and conquer)
%! [V, D, info, count] = bsym_eigen (reshape ([0.5 -2 3], 1, 1, 3), "interval", [0 1]);
%! assert (D, [0.5 NaN NaN]);
%! assert (V, reshape ([1 NaN NaN], 1, 1, 3));
%! assert (count, int32 ([1 0 0]));

## Known failures of the core (src/core/tridiag_eig_impl.h, te_gersh_):
## bisection's Gerschgorin bounds are widened by a multiple of their width,
## not of their magnitude, so when the width is 0 or tiny (n = 1, a multiple
## of I, a diagonal with its smallest entry repeated) the lower bound is an
## eigenvalue itself; te_select_range_ clamps lo to it and then counts that
## eigenvalue as <= lo. Values only ("interval" without V) then misses the
## smallest eigenvalues; divide and conquer (with V) is right.
%!test
%! assert (bsym_eigen (0.5, "interval", [0 1]), 0.5);
%!test
%! assert (bsym_eigen (0.7 * eye (3), "interval", [0 1]), 0.7 * ones (3, 1), eps);
%!test
%! assert (bsym_eigen (diag ([0.7, 0.7 + 1e-12, 0.7]), "interval", [0.6 0.7]), [0.7; 0.7], eps);

## ---- uplo: only the named triangle is read ------------------------------------

%!test
%! randn ("state", 10);
%! for n = [1 2 3 16 33 64]
%!   for cls = {"double", "single"}
%!     A = symm (n, 3, cls{1});
%!     W = eigs_of (A);
%!     Up = A;  Lo = A;
%!     for k = 1:3
%!       G = cast (randn (n), cls{1});
%!       G(1:2:end) = NaN;
%!       Up(:,:,k) = triu (A(:,:,k)) + tril (G, -1);    # garbage below
%!       Lo(:,:,k) = tril (A(:,:,k)) + triu (G, 1);     # garbage above
%!     endfor
%!     [VU, DU, infoU] = bsym_eigen (Up, "uplo", "U");
%!     [VL, DL, infoL] = bsym_eigen (Lo);              # "L" is the default
%!     assert (infoU, zeros (1, 3, "int32"));
%!     assert (infoL, zeros (1, 3, "int32"));
%!     check_eig (A, VU, DU, W);
%!     check_eig (A, VL, DL, W);
%!     check_eig (A, [], bsym_eigen (Up, "uplo", "u", "index", [1 1]), W(1,:));
%!     if (n > 1)                                  # n = 1: see the known failures
%!       check_eig (A, [], bsym_eigen (Lo, "uplo", "L", "interval", [-1 1]), in_interval (W, -1, 1));
%!     endif
%!     [VI, DI] = bsym_eigen (Lo, "uplo", "L", "interval", [-1 1]);
%!     check_eig (A, VI, DI, in_interval (W, -1, 1));
%!   endfor
%! endfor

%!test  # option names and values in any case
%! randn ("state", 11);
%! A = symm (6, 2);
%! Up = A;
%! Up(:,:,1) = triu (A(:,:,1)) + tril (Inf (6), -1);
%! Up(:,:,2) = triu (A(:,:,2)) + tril (Inf (6), -1);
%! [V, D] = bsym_eigen (Up, "UPLO", "u", "Device", "CPU", "Index", [2 4]);
%! check_eig (A, V, D, eigs_of (A)(2:4,:));

## ---- per-system failures -----------------------------------------------------

%!test  # a non-finite system spoils only itself
%! randn ("state", 12);
%! for cls = {"double", "single"}
%!   A = symm (5, 4, cls{1});
%!   A(3,1,2) = NaN;                # referenced (lower) triangle: -1
%!   A(5,5,3) = -Inf;
%!   A(1,4,4) = NaN;                # upper triangle: not read
%!   B = A;
%!   B(1,4,4) = B(4,1,4);
%!   W = eigs_of (B(:,:,[1 1 1 4]));
%!   [V, D, info, count] = bsym_eigen (A);
%!   assert (info, int32 ([0 -1 -1 0]));
%!   assert (count, int32 ([5 0 0 5]));
%!   assert (all (isnan (D(:,2:3))(:)));
%!   assert (all (isnan (V(:,:,2:3))(:)));
%!   check_eig (B, V, D, W, [1 4]);
%!   for opts = {{}, {"index", [2 3]}, {"interval", [-1 1]}}
%!     [V, D, info, count] = bsym_eigen (A, opts{1}{:});
%!     assert (info, int32 ([0 -1 -1 0]));
%!     assert (count([2 3]), int32 ([0 0]));
%!     assert (all (isnan (D(:,2:3))(:)));
%!     assert (all (isnan (V(:,:,2:3))(:)));
%!     warning ("off", "batchsym:nonFinite", "local");
%!     D1 = bsym_eigen (A, opts{1}{:});            # values only: the same NaN
%!     assert (all (isnan (D1(:,2:3))(:)));
%!     assert (D1(:,[1 4]), D(:,[1 4]), 100 * eps (cls{1}) * max (abs (D(:,1))));
%!   endfor
%! endfor

%!warning id=batchsym:nonFinite bsym_eigen ([1 2; NaN 3]);
%!warning id=batchsym:nonFinite [V, D] = bsym_eigen (cat (3, eye (2), [1 2; Inf 3]));

%!test  # one warning, with the count; none when info is asked for
%! A = cat (3, eye (2), NaN (2), 2 * eye (2), [1 0; Inf 1]);
%! warning ("error", "batchsym:nonFinite", "local");   # catch it as an error
%! try
%!   D = bsym_eigen (A);
%!   error ("no warning");
%! catch err
%!   assert (err.identifier, "batchsym:nonFinite");
%!   assert (! isempty (strfind (err.message, "2 of 4 systems")));
%!   assert (! isempty (strfind (err.message, "the first is system 2")));
%!   assert (strncmp (err.message, "bsym_eigen: ", 12));
%! end_try_catch
%! [V, D, info] = bsym_eigen (A);        # no warning (error) here
%! assert (info, int32 ([0 -1 0 -1]));
%! assert (D(:,[1 3]), [1 2; 1 2]);
%! assert (all (isnan (D(:,[2 4]))(:)));

## ---- empty problems -------------------------------------------------------

%!test
%! [V, D, info, count] = bsym_eigen (zeros (3, 3, 0));
%! assert (size (V), [3 3 0]);
%! assert (size (D), [3 0]);
%! assert (class (D), "double");
%! assert (size (info), [1 0]);
%! assert (size (count), [1 0]);
%! assert (size (bsym_eigen (zeros (3, 3, 0))), [3 0]);
%! assert (size (bsym_eigen (zeros (3, 3, 0), "index", [2 3])), [2 0]);
%! assert (size (bsym_eigen (zeros (3, 3, 0), "interval", [0 1])), [0 0]);
%! [V, D, info, count] = bsym_eigen (zeros (0, 0));       # n = 0
%! assert (size (V), [0 0]);
%! assert (size (D), [0 1]);
%! assert (info, int32 (0));
%! assert (count, int32 (0));
%! D = bsym_eigen (single (zeros (0, 0, 4)));
%! assert (class (D), "single");
%! assert (size (D), [0 4]);

## ---- devices ----------------------------------------------------------------

%!test  # the CPU on request
%! randn ("state", 13);
%! A = symm (16, 8);
%! [V, D] = bsym_eigen (A, "device", "cpu");
%! check_eig (A, V, D, eigs_of (A));

%!test  # "gpu": computes when a GPU is usable, else says why not
%! randn ("state", 14);
%! dev = bsym_device_info ();
%! if (bsym_gpu_available ())
%!   for n = [1 2 3 5 16 31 32 33 64 65 100 128 129 200 256]
%!     for cls = {"double", "single"}
%!       A = symm (n, 50, cls{1});
%!       W = eigs_of (A);
%!       [V, D, info] = bsym_eigen (A, "device", "gpu");
%!       assert (class (D), cls{1});
%!       assert (all (info == 0));
%!       check_eig (A, V, D, W, [1 25 50]);
%!       check_eig (A, [], bsym_eigen (A, "device", "gpu"), W, [1 25 50]);
%!       [V, D, info, count] = bsym_eigen (A, "device", "gpu", "interval", [-1 1]);
%!       assert (count, int32 (cellfun (@numel, in_interval (W, -1, 1))));
%!       check_eig (A, V, D, in_interval (W, -1, 1), [1 25 50]);
%!     endfor
%!   endfor
%!   try
%!     bsym_eigen (eye (257), "device", "gpu");
%!     error ("no error for n = 257 on the GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:size_unsupported");
%!   end_try_catch
%! else
%!   try
%!     bsym_eigen (eye (2), "device", "gpu");
%!     error ("no error for device gpu without a GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!     assert (! isempty (strfind (err.message, dev.reason)));
%!     assert (strncmp (err.message, "bsym_eigen: ", 12));
%!   end_try_catch
%! endif

## ---- errors -------------------------------------------------------------------

%!error <Invalid call> bsym_eigen ()
%!error <called with too many outputs> [a, b, c, d, e] = bsym_eigen (eye (2))
%!error <A must be a real or complex, full double or single array \(got cell\)> bsym_eigen ({1})
%!error id=batchsym:bad_argument bsym_eigen ("ab")
%!test  # complex Hermitian A: real values (ascending, like eig), complex vectors
%! randn ("state", 61);
%! for cls = {"double", "single"}
%!   for n = [1 2 5 16 32]
%!     M = complex (randn (n, n, 3), randn (n, n, 3));
%!     A = zeros (n, n, 3);
%!     for k = 1:3
%!       A(:,:,k) = (M(:,:,k) + M(:,:,k)') / 2;
%!     endfor
%!     A = cast (A, cls{1});
%!     [V, D, info] = bsym_eigen (A, "device", dev_for (n));   # the GPU's too (hetrd.cu)
%!     assert (class (D), cls{1});
%!     assert (isreal (D));
%!     assert (info, zeros (1, 3, "int32"));
%!     u = eps (cls{1});
%!     for k = 1:3
%!       a = double (A(:,:,k));
%!       assert (double (D(:,k)), sort (real (eig (a))), 100 * n * u * max (1, norm (a)));
%!       v = double (V(:,:,k));
%!       assert (norm (a * v - v * diag (double (D(:,k))), "fro") <= 100 * n * u * norm (a, "fro"));
%!       assert (norm (v' * v - eye (n), "fro") <= 100 * n * u);
%!     endfor
%!     assert (bsym_eigen (A, "device", dev_for (n)), D, 4 * n * u * max (1, max (abs (D(:)))));  # values only
%!   endfor
%! endfor
%!error <with complex A give values only> [V, D] = bsym_eigen (complex (eye (3)), "index", [1 2])
%!error <A .* \(got logical\)> bsym_eigen (true)
%!error <got sparse double> bsym_eigen (speye (2))
%!error id=batchsym:bad_argument bsym_eigen (int32 (eye (2)))
%!error <A must hold square matrices \(got 2 x 3\)> bsym_eigen (ones (2, 3))
%!error id=batchsym:bad_argument bsym_eigen (ones (2, 3, 4))
%!error <A must be an n x n matrix or an n x n x batch array> bsym_eigen (ones (2, 2, 2, 2))
## index
%!error <bsym_eigen: index must be two integers 1 <= i <= j <= n \(n = 3, got 0, 2\)> bsym_eigen (eye (3), "index", [0 2])
%!error <bsym_eigen: index must be two integers 1 <= i <= j <= n \(n = 3, got 3, 2\)> bsym_eigen (eye (3), "index", [3 2])
%!error <bsym_eigen: index must be two integers 1 <= i <= j <= n \(n = 3, got 1, 4\)> bsym_eigen (eye (3), "index", [1 4])
%!error <bsym_eigen: index must be two integers 1 <= i <= j <= n \(n = 3, got 1\.5, 2\)> bsym_eigen (eye (3), "index", [1.5 2])
%!error id=batchsym:bad_argument bsym_eigen (eye (3), "index", [NaN 2])
%!error id=batchsym:bad_argument bsym_eigen (eye (3), "index", [1 Inf])
%!error id=batchsym:bad_argument bsym_eigen (zeros (0, 0, 2), "index", [1 1])
%!error <option 'index' must be a real vector \[i j\] of two numbers \(got double with 1 element\)> bsym_eigen (eye (3), "index", 2)
%!error <option 'index' must be a real vector .* \(got double with 3 elements\)> bsym_eigen (eye (3), "index", [1 2 3])
%!error <option 'index' must be a real vector .* \(got complex double with 2 elements\)> bsym_eigen (eye (3), "index", [1i 2])
%!error <option 'index' must be a real vector .* \(got char with 2 elements\)> bsym_eigen (eye (3), "index", "12")
%!error <option 'index' must be a real vector .* \(got logical> bsym_eigen (eye (3), "index", [true true])
%!error <option 'index' must be a real vector .* \(got cell> bsym_eigen (eye (3), "index", {1, 2})
%!error id=batchsym:bad_argument bsym_eigen (eye (3), "index", ones (1, 1, 2))
## interval
%!error <bsym_eigen: interval must be two numbers lo < hi, the values in \(lo, hi\] being kept \(got 1, 0\)> bsym_eigen (eye (3), "interval", [1 0])
%!error <bsym_eigen: interval must be two numbers lo < hi, the values in \(lo, hi\] being kept \(got 1, 1\)> bsym_eigen (eye (3), "interval", [1 1])
%!error <bsym_eigen: interval must be two numbers lo < hi, the values in \(lo, hi\] being kept \(got NaN, 1\)> bsym_eigen (eye (3), "interval", [NaN 1])
%!error id=batchsym:bad_argument bsym_eigen (eye (3), "interval", [Inf Inf])
%!error <option 'interval' must be a real vector \[lo hi\] of two numbers \(got double with 1 element\)> bsym_eigen (eye (3), "interval", 1)
%!error <option 'interval' must be a real vector .* \(got complex double> bsym_eigen (eye (3), "interval", [0 1i])
%!error <option 'interval' must be a real vector .* \(got char> bsym_eigen (eye (3), "interval", "ab")
## both
%!error <bsym_eigen: index and interval cannot both be given: choose the eigenvalues by rank or by value> bsym_eigen (eye (3), "index", [1 2], "interval", [0 1])
%!error id=batchsym:bad_argument bsym_eigen (eye (3), "interval", [0 1], "INDEX", [1 1])
## other options
%!error <unknown option 'method' \(options: 'device', 'index', 'interval', 'uplo', 'gpus'\)> bsym_eigen (eye (2), "method", "dc")
%!error id=batchsym:bad_argument bsym_eigen (eye (2), "tol", 1)
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_eigen (eye (2), "device", "tpu")
%!error <option 'uplo' must be one of 'L', 'U' \(got 'X'\)> bsym_eigen (eye (2), "uplo", "X")
%!error id=batchsym:bad_argument bsym_eigen (eye (2), "uplo", "lower")
%!error <option 'uplo' must be a string \(got double\)> bsym_eigen (eye (2), "uplo", 1)
%!error <options must come in name/value pairs> bsym_eigen (eye (2), "index")
%!error id=batchsym:bad_argument bsym_eigen (eye (2), "uplo", "L", "device")
%!error <an option name must be a string \(got double\)> bsym_eigen (eye (2), 1, "L")

## ---- help -----------------------------------------------------------------------

%!assert (! isempty (strfind (get_help_text ("bsym_eigen"), "matrix of eigenvalues")))
%!assert (! isempty (strfind (get_help_text ("bsym_eigen"), "not a diagonal matrix")))

## 'gpus': parsed once for every function (bsym_oct_parse_options; its every
## error is tested in bsym_solve.m): here, that it reaches Octave's and the
## core's checks, and that on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_eigen (eye (2), "gpus", "0")
%!error <gpus names device 0 twice> bsym_eigen (eye (2), "gpus", [0 0])

%!test  # on the CPU, 'gpus' changes no result
%! A = repmat ([4 1 0; 1 3 1; 0 1 2], [1 1 5]); A(1, 1, :) = 4 + (1:5) / 7;
%! [V0, D0] = bsym_eigen (A, "device", "cpu");
%! [V, D] = bsym_eigen (A, "device", "cpu", "gpus", 0);
%! assert (isequal (V, V0) && isequal (D, D0));

%!test  # with GPUs: each GPU alone and all of them give the same bits
%! d = bsym_device_info ();
%! if (d.gpu_available)
%!   n = 32; batch = 8200 * numel (d.gpus) + 37;   # each GPU gets > 32 MiB of A
%!   randn ("seed", 8);
%!   M = randn (n); A = repmat ((M + M') / 2, [1 1 batch]);
%!   A(1, 1, :) = A(1, 1, :) + reshape ((1:batch) / batch, 1, 1, batch);
%!   D = bsym_eigen (A, "device", "gpu");
%!   for g = d.gpus
%!     assert (isequal (bsym_eigen (A, "device", "gpu", "gpus", g), D));
%!   endfor
%! endif
