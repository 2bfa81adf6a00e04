## -*- texinfo -*-
## @deftypefn  {} {@var{X} =} bsym_solve (@var{A}, @var{B})
## @deftypefnx {} {@var{X} =} bsym_solve (@var{A}, @var{B}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{X}, @var{info}, @var{plan}, @var{rank}, @var{method}] =} bsym_solve (@dots{})
## Solve a batch of small symmetric linear systems
## @code{@var{A}(:,:,k) * @var{X}_k = @var{B}_k}, on the GPU (CUDA kernels) or
## on the CPU (the same C core, OpenMP over the batch).  By default each
## system gets a cheap solve, checked (a certified LDL', then Householder
## for the systems LDL' does not certify), and only the systems that fail
## the checks (singular or ill-conditioned ones) are solved again through
## their truncated spectrum (a minimum-norm, pseudo-inverse solution).
##
## @var{A} is an @var{n} x @var{n} x @var{batch} array of symmetric matrices,
## or an @var{n} x @var{n} matrix (a batch of one), real double or single,
## or complex Hermitian matrices.  Only the triangle named by @qcode{"uplo"}
## is read (and of a complex diagonal only the real part, as LAPACK's
## zhetrf).  When @var{A} or @var{B} is complex, @var{X} is complex; every
## method takes complex input, on the GPU too.
##
## @var{B} holds the right-hand sides: @var{n} x @var{batch} (one per system),
## @var{n} x @var{k} x @var{batch} (@var{k} per system), or, for a batch of one,
## a column vector or an @var{n} x @var{k} matrix (as for @code{mldivide}).
## @var{X} has the shape of @var{B}.  When @var{A} or @var{B} is single the
## solve runs in single precision and @var{X} is single; otherwise double.
##
## Options, as name/value pairs (names and values in any case):
##
## @table @asis
## @item @qcode{"method"}
## @qcode{"auto"} (default): per system, each step taking only the systems
## the step before did not keep, and each checking the backward error
## @code{max_j norm (b_j - A*x_j, inf) / (norm (A, inf) * norm (x_j, inf) +
## norm (b_j, inf))}, computed in double, against @qcode{"tol"}:
## @enumerate
## @item
## LDL', certified (@qcode{"ldlt"}): the system keeps this solution when
## the LDL' factorization of @code{A - sigma * I} has only positive pivots
## (Sylvester's law of inertia: @var{A} is positive definite with every
## eigenvalue above @code{sigma >= rcond * max|lambda|}, sigma from the
## norm of @var{A} and the rounding of that factorization) and the backward
## error is at most @qcode{"tol"};
## @item
## Householder and cyclic reduction (as @qcode{"tridiag"}) for the systems
## not certified (indefinite, ill-conditioned, or near the threshold): kept
## when the backward error is at most @qcode{"tol"} and Sturm counts on T
## find no eigenvalue in @code{(-rcond * max|lambda|, rcond * max|lambda|]}
## (@code{max|lambda|} found by bisection to a relative 2^-10, so a system
## whose smallest @code{|lambda|} is within that margin of the threshold may
## be flagged: it is then solved by @qcode{"eigen"} at full rank);
## @item
## the rest, and the systems whose solve broke down, are solved again from
## the original @var{B} by @qcode{"eigen"}, and only they.
## @end enumerate
## The plan (see @code{bsym_plan}) may start at step 2 instead, when more
## than half of the systems it has seen were not positive definite, or at
## step 3 for every system, when its last call needed @qcode{"eigen"} for
## more than half of its systems.  Started at step 1 or at step 2, the same
## systems end up solved by @qcode{"eigen"}, with the same ranks: the start
## changes the cost and the label of the cheap solutions, not which systems
## are truncated.
##
## @qcode{"eigen"}: the truncated spectrum.  @code{@var{A} = V * diag
## (lambda) * V'} by divide and conquer (as @code{bsym_eigen}), then
## @code{x = V(:,keep) * ((V(:,keep)' * b) ./ lambda(keep))} over the
## eigenvalues with @code{abs (lambda) >= rcond * max (abs (lambda))} and
## @code{lambda != 0}: the minimum-norm solution of the truncated problem
## (for a singular @var{A} and @qcode{"rcond"} below its nonzero
## eigenvalues, @code{pinv (A) * b}).  @var{rank} is the number of
## eigenvalues kept.
##
## @qcode{"ldlt"}: LDL' without pivoting, for symmetric positive
## definite, well-conditioned systems.
##
## @qcode{"bunch-kaufman"}: @code{P * A * P' = L * D * L'} with D block
## diagonal (1 x 1 and 2 x 2 blocks) by LAPACK's partial-pivoting rule
## (@code{alpha = (1 + sqrt (17)) / 8}): any nonsingular symmetric or
## Hermitian system, indefinite ones included, at the cost of LDL'
## (@code{n^3 / 3} flops) plus the pivot search.
##
## @qcode{"aasen"}: @code{P * A * P' = L * T * L'} with T tridiagonal
## (Aasen's method), T solved by Gaussian elimination with partial
## pivoting: the same systems as Bunch-Kaufman, with a bounded growth of L.
##
## Which to use: @qcode{"ldlt"} for positive definite, well-conditioned
## systems (cheapest; breaks down on a small pivot); @qcode{"bunch-kaufman"}
## or @qcode{"aasen"} for indefinite nonsingular ones, real or complex
## (about the cost of @qcode{"ldlt"}); @qcode{"tridiag"} (about four times
## that) for indefinite ones (real ones on the GPU too); @qcode{"eigen"}
## (about 9 @code{n^3}) for singular and ill-conditioned ones
## (minimum-norm); @qcode{"auto"} when the conditioning is not known, real
## or complex.  Complex arithmetic costs about four times the real flops.
## On the GPU (@code{n <= 256}): @qcode{"bunch-kaufman"} and @qcode{"aasen"},
## real and complex, and @qcode{"ldlt"} on complex input (LDL^H).
## @qcode{"tridiag"}, @qcode{"eigen"} and @qcode{"auto"} on complex input
## run on the CPU: with @qcode{"device"}, @qcode{"gpu"} they are an error,
## with @qcode{"auto"} the CPU serves them.
##
## @qcode{"tridiag"}: Householder tridiagonalization
## @code{@var{A} = Q * T * Q'} (as @code{bsym_tridiagonalize}), parallel
## cyclic reduction on @code{T * z = Q' * b} (as @code{bsym_tridiag_solve}),
## then @code{x = Q * z}, with Q never formed: for nonsingular symmetric
## systems that need not be positive definite (indefinite ones included).
## A complex Hermitian @var{A} is reduced to a real T (a unitary diagonal
## scaling makes its off-diagonal real, as @code{bsym_tridiagonalize}); the
## real and imaginary parts of @code{Q' * b} are solved with it in turn.
## With complex input, @qcode{"auto"} takes the same steps with LDL'
## (conjugate transpose, D real) in step 1 and @code{x = V * diag
## (1 ./ lambda) * V' * b} over the kept eigenpairs in step 3.
## The cyclic reduction does not pivot; where its residual on @code{T} is
## not small (an indefinite @code{T} with a small pivot), that system's
## @code{T} is solved again by Gaussian elimination with partial pivoting,
## so the solutions are backward stable.
##
## @item @qcode{"rcond"}
## For @qcode{"eigen"} and @qcode{"auto"}: the relative threshold of the
## eigenvalues kept, a scalar in [0, 1), default 1e-5 (the condition cap
## 1e5 of the paper, applied to the eigenvalues of @var{A}).  0 keeps every
## nonzero eigenvalue.
##
## @item @qcode{"tol"}
## For @qcode{"auto"}: the largest backward error accepted from the cheap
## solve, a positive finite scalar; default @code{16 * n * eps} of the working
## precision (@code{eps ("double")} or @code{eps ("single")}).
##
## @item @qcode{"plan"}
## For @qcode{"auto"}: what earlier calls found (a struct from
## @code{bsym_plan} or from the @var{plan} output of an earlier call; see
## @code{bsym_plan} for its fields and rules).  Default: a plan with no
## history.
##
## @item @qcode{"device"}
## @qcode{"auto"} (default: the GPU when one is usable and the batch is large
## enough, else the CPU), @qcode{"cpu"}, or @qcode{"gpu"} (an error
## @code{batchsym:no_device} that says why when no GPU is usable, and
## @code{batchsym:size_unsupported} for @var{n} above the method's GPU
## limit: 256 for every method on real input, and for
## @qcode{"bunch-kaufman"}, @qcode{"aasen"} and @qcode{"ldlt"} on complex
## input).
##
## @item @qcode{"gpus"}
## The GPUs over which a GPU call spreads a large batch: a vector of device
## ids as CUDA numbers them after @env{CUDA_VISIBLE_DEVICES}, such as
## @code{[0 1]}.  Default @code{[]}: every visible GPU.  It applies to this
## call only, and the results are the same as on one GPU.
##
## @item @qcode{"uplo"}
## @qcode{"L"} (default: read the lower triangle) or @qcode{"U"}.
## @end table
##
## Outputs besides @var{X}:
##
## @table @var
## @item info
## an int32 row vector with one entry per system: 0 solved; -1 non-finite
## entries in the referenced triangle of @var{A} or in @var{B}; @var{j} > 0
## with @qcode{"ldlt"} a breakdown at pivot @var{j} (singular, or not safely
## factorizable without pivoting), with @qcode{"bunch-kaufman"} or
## @qcode{"aasen"} an exactly zero pivot in row @var{j} (singular), with
## @qcode{"tridiag"} a zero or
## non-finite pivot of the cyclic reduction on T in row @var{j}, with
## @qcode{"eigen"} and @qcode{"auto"} an eigensolver that did not converge
## (never seen).  The solutions of systems with @var{info} @code{!=} 0 are
## NaN and the other systems are solved as usual.  Without the @var{info}
## output, such systems raise one warning @code{batchsym:singular} giving
## their count.
##
## @item plan
## the plan updated by this call (with @qcode{"auto"}; other methods return
## it unchanged): the @qcode{"plan"} given, or a plan with no history.
##
## @item rank
## a double row vector, one entry per system: the number of eigenvalues kept
## where the system was solved by @qcode{"eigen"}, @var{n} where it was
## solved otherwise, NaN where @var{info} @code{!=} 0.
##
## @item method
## a 1 x @var{batch} cell array of strings: the method that produced each
## solution, @qcode{"ldlt"}, @qcode{"bunch-kaufman"}, @qcode{"aasen"},
## @qcode{"tridiag"} or @qcode{"eigen"}
## (@qcode{""} where @var{info} @code{!=} 0).
## @end table
##
## Errors have the identifier @code{batchsym:@var{id}}, @var{id} the core's
## id of what went wrong: @code{bad_argument} (a wrong type, shape, option or
## value), @code{no_device}, @code{size_unsupported}, @code{out_of_memory},
## @code{cuda_failure} or @code{interrupted}.
## Ctrl-C stops a long call between chunks of the batch, as it stops any
## Octave command.
##
## Example:
##
## @example
## @group
## A = zeros (3, 3, 2);
## A(:,:,1) = [5 1 0; 1 4 1; 0 1 3];
## A(:,:,2) = [1 1 0; 1 1 0; 0 0 2];           # singular
## B = ones (3, 2);
## [X, info, plan, rank, method] = bsym_solve (A, B);
## norm (X(:,1) - A(:,:,1) \ B(:,1))           # about eps
## norm (X(:,2) - pinv (A(:,:,2)) * B(:,2))    # about eps; rank(2) is 2
## @end group
## @end example
##
## @seealso{bsym_plan, bsym_lsfit, bsym_eigen, bsym_tridiagonalize,
## bsym_tridiag_solve, bsym_device_info, bsym_gpu_available, mldivide, pinv}
## @end deftypefn

function [X, varargout] = bsym_solve (A, B, varargin)

  if (nargin < 2)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warning (it warns only when it is not asked for info).
  [X, varargout{1:nargout-1}] = __bsym__ ("solve", A, B, varargin{:});

endfunction

## ---- test helpers --------------------------------------------------------

## A batch of nb random SPD n x n matrices of class cls (well conditioned:
## eigenvalues in [n, about 5n]), exactly symmetric.
%!function A = spd (n, nb, cls = "double")
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    M = randn (n);
%!    S = M * M' + n * eye (n);
%!    A(:,:,k) = (S + S') / 2;
%!  endfor
%!  A = cast (A, cls);
%!endfunction

## A batch of nb random symmetric indefinite n x n matrices of class cls:
## Q diag (lambda) Q' with Q random orthogonal, |lambda| in [1, 10] and signs
## alternating (cond <= 10; a 1 x 1 "batch" is negative), exactly symmetric.
%!function A = sym_indefinite (n, nb, cls = "double")
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    [Q, ~] = qr (randn (n));
%!    lambda = (1 + 9 * rand (n, 1)) .* (-1) .^ (1:n)';
%!    S = Q * diag (lambda) * Q';
%!    A(:,:,k) = (S + S') / 2;
%!  endfor
%!  A = cast (A, cls);
%!endfunction

## The normwise backward error ||b - A x|| / (||A|| ||x|| + ||b||) of each
## system of the batch (the worst of its columns), in double, as a row.
## A must be the full symmetric matrices (both triangles).
%!function be = backward_errors (A, X, B)
%!  n = rows (A);
%!  nb = size (A, 3);
%!  Xs = reshape (double (X), n, [], nb);
%!  Bs = reshape (double (B), n, [], nb);
%!  cn = @(V) max (abs (V), [], 1);           # inf-norm of each column
%!  be = zeros (1, nb);
%!  for k = 1:nb
%!    Ak = double (A(:,:,k));
%!    x = Xs(:,:,k);
%!    b = Bs(:,:,k);
%!    be(k) = max ([0, cn(b - Ak * x) ./ (norm (Ak, inf) * cn (x) + cn (b))]);
%!  endfor
%!endfunction

## Checks X against the batch (A, B) for systems ks: the backward error of
## every column is at most 10 n eps(class (X)), and X is within
## 10 n eps cond(A) of A \ B.
%!function check_solution (A, X, B, ks = [])
%!  n = rows (A);
%!  nb = size (A, 3);
%!  if (isempty (ks))
%!    ks = 1:nb;
%!  endif
%!  u = eps (class (X));
%!  be = backward_errors (A, X, B);
%!  Xs = reshape (double (X), n, [], nb);
%!  Bs = reshape (double (B), n, [], nb);
%!  for k = ks
%!    assert (be(k) <= 10 * n * u, "n = %d, system %d: backward error %g > %g",
%!            n, k, be(k), 10 * n * u);
%!    Ak = double (A(:,:,k));
%!    xref = Ak \ Bs(:,:,k);
%!    fe = norm (Xs(:,:,k) - xref, inf) / norm (xref, inf);
%!    assert (fe <= 10 * n * u * cond (Ak), "n = %d, system %d: forward error %g",
%!            n, k, fe);
%!  endfor
%!endfunction

## A batch of nb symmetric n x n matrices Q diag (lambda) Q' of class cls
## with the given eigenvalues lambda (n values), Q random orthogonal for
## each, exactly symmetric.
%!function A = with_eigenvalues (lambda, nb, cls = "double")
%!  n = numel (lambda);
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    [Q, ~] = qr (randn (n));
%!    S = Q * diag (lambda(:)) * Q';
%!    A(:,:,k) = (S + S') / 2;
%!  endfor
%!  A = cast (A, cls);
%!endfunction

## n eigenvalues, r of them kept by rcond = 1e-5 and n - r dropped, none
## within a factor 100 of the threshold: kept |lambda| in [1e-3, 1], dropped
## in [1e-12, 1e-7] (or exactly 0 when zero is true), signs random when
## indefinite is true.
%!function lambda = split_spectrum (n, r, indefinite = false, zero = false)
%!  kept = 10 .^ (-3 * rand (r, 1));
%!  kept(1:min (r, 1)) = 1;
%!  if (zero)
%!    dropped = zeros (n - r, 1);
%!  else
%!    dropped = 10 .^ (-7 - 5 * rand (n - r, 1));
%!  endif
%!  lambda = [kept; dropped];
%!  if (indefinite)
%!    lambda .*= sign (randn (n, 1));
%!  endif
%!  lambda = lambda(randperm (n));
%!endfunction

## Checks the truncated-spectrum solutions X (and their ranks, a row) of the
## batch (A, B) against the reference from eig: for each system, a clear
## truncation (no eigenvalue within a factor 4 of the threshold, or rcond
## 0), the rank, and
##   ||x - xref||_inf <= 10 n eps kappa (||xref||_inf + kappa ||b||_inf / ||A||_2)
## (the first term: the kept eigenvalues' relative errors; the second: the
## kept eigenvectors' angle, n eps ||A|| / min kept |lambda|, times
## ||b|| / min kept |lambda|), eps of X's class. The reference comes from
## tests/octave/truncated_solution.m (shared with bsym_lsfit's tests).
%!function check_truncated (A, X, B, rank, rcond = 1e-5)
%!  n = rows (A);
%!  nb = size (A, 3);
%!  u = eps (class (X));
%!  Xs = reshape (double (X), n, [], nb);
%!  Bs = reshape (double (B), n, [], nb);
%!  for k = 1:nb
%!    Ak = double (A(:,:,k));
%!    [xref, r, kappa, margin] = truncated_solution (Ak, Bs(:,:,k), rcond);
%!    assert (rcond == 0 || margin >= 4, "n = %d, system %d: the test's matrix has an eigenvalue near the threshold", n, k);
%!    assert (rank(k) == r, "n = %d, system %d: rank %d, expected %d", n, k, rank(k), r);
%!    err = norm (Xs(:,:,k) - xref, inf);
%!    bound = 10 * n * u * kappa * (norm (xref, inf) + kappa * norm (Bs(:,:,k), inf) / max (norm (Ak), realmin));
%!    assert (err <= bound, "n = %d, system %d (rank %d, kappa %g): error %g > %g", n, k, r, kappa, err, bound);
%!  endfor
%!endfunction

%!shared ns
%! ns = [1 2 3 5 16 31 32 33 64];

## ---- accuracy against mldivide -------------------------------------------

%!test  # double, one right-hand side per system
%! randn ("state", 1);
%! for n = ns
%!   A = spd (n, 5);
%!   B = randn (n, 5);
%!   [X, info] = bsym_solve (A, B);
%!   assert (class (X), "double");
%!   assert (size (X), [n 5]);
%!   assert (info, zeros (1, 5, "int32"));
%!   check_solution (A, X, B);
%! endfor

%!test  # single in, single out, single accuracy
%! randn ("state", 2);
%! for n = ns
%!   A = spd (n, 4, "single");
%!   B = single (randn (n, 4));
%!   X = bsym_solve (A, B);
%!   assert (class (X), "single");
%!   assert (size (X), [n 4]);
%!   check_solution (A, X, B);
%! endfor

%!test  # mixed precision: either input single means single
%! randn ("state", 3);
%! A = spd (5, 3);
%! B = randn (5, 3);
%! X1 = bsym_solve (single (A), B);
%! X2 = bsym_solve (A, single (B));
%! assert (class (X1), "single");
%! assert (class (X2), "single");
%! check_solution (single (A), X1, single (B));
%! check_solution (single (A), X2, single (B));

%!test  # several right-hand sides per system: n x k x batch
%! randn ("state", 4);
%! for n = [1 3 16 33]
%!   A = spd (n, 6);
%!   B = randn (n, 3, 6);
%!   X = bsym_solve (A, B);
%!   assert (size (X), [n 3 6]);
%!   check_solution (A, X, B);
%! endfor

%!test  # a batch of one: n x k matrix and column vector, like mldivide
%! randn ("state", 5);
%! A = spd (7, 1);
%! B = randn (7, 4);
%! X = bsym_solve (A, B);
%! assert (size (X), [7 4]);
%! check_solution (A, X, B);
%! x = bsym_solve (A, B(:,1));
%! assert (size (x), [7 1]);
%! check_solution (A, x, B(:,1));

%!test  # n x 1 x batch keeps its shape
%! randn ("state", 6);
%! A = spd (4, 3);
%! B = randn (4, 1, 3);
%! X = bsym_solve (A, B);
%! assert (size (X), [4 1 3]);
%! check_solution (A, X, B);

%!test  # a large batch (the GPU serves it under "auto" when there is one)
%! randn ("state", 7);
%! A = spd (32, 300);
%! B = randn (32, 300);
%! [X, info] = bsym_solve (A, B);
%! assert (all (info == 0));
%! check_solution (A, X, B, [1 150 300]);

## ---- uplo: only the named triangle is read -------------------------------

%!test
%! randn ("state", 8);
%! for n = ns
%!   A = spd (n, 3);
%!   B = randn (n, 3);
%!   Up = A;  Lo = A;
%!   for k = 1:3
%!     Up(:,:,k) = triu (A(:,:,k)) + tril (NaN (n), -1);  # lower = NaN
%!     Lo(:,:,k) = tril (A(:,:,k)) + triu (NaN (n), 1);   # upper = NaN
%!   endfor
%!   [XU, infoU] = bsym_solve (Up, B, "uplo", "U");
%!   [XL, infoL] = bsym_solve (Lo, B);                    # "L" is the default
%!   assert (infoU, zeros (1, 3, "int32"));
%!   assert (infoL, zeros (1, 3, "int32"));
%!   check_solution (A, XU, B);
%!   check_solution (A, XL, B);
%! endfor

%!test  # option names and values in any case, single precision
%! randn ("state", 9);
%! A = spd (6, 2, "single");
%! B = single (randn (6, 2));
%! Up = A;
%! Up(:,:,1) = triu (A(:,:,1)) + tril (single (Inf (6)), -1);
%! Up(:,:,2) = triu (A(:,:,2)) + tril (single (Inf (6)), -1);
%! X = bsym_solve (Up, B, "UPLO", "u", "Method", "LDLT", "Device", "CPU");
%! check_solution (A, X, B);

## ---- per-system failures --------------------------------------------------

%!test  # "ldlt": one bad system spoils only itself
%! randn ("state", 10);
%! for cls = {"double", "single"}
%!   A = spd (4, 6, cls{1});
%!   B = cast (randn (4, 6), cls{1});
%!   A(3,1,2) = Inf;                # referenced (lower) triangle: -1
%!   B(2,4) = NaN;                  # right-hand side: -1
%!   A(:,:,3) = 0;                  # zero pivot at 1
%!   A(:,:,5) = 1;                  # rank one: breakdown at pivot 2
%!   A(:,:,6) = [0 1 0 0; 1 0 0 0; 0 0 1 0; 0 0 0 1];  # indefinite, zero pivot
%!   [X, info, ~, rank, method] = bsym_solve (A, B, "method", "ldlt");
%!   assert (class (info), "int32");
%!   assert (info, int32 ([0 -1 1 -1 2 1]));
%!   assert (all (all (isnan (X(:,[2 3 4 5 6])))));
%!   assert (rank, [4 NaN(1, 5)]);
%!   assert (method, {"ldlt", "", "", "", "", ""});
%!   check_solution (A, X, B, 1);
%! endfor

%!test  # a non-finite entry in the unread triangle is not an error
%! A = [4 NaN; 1 3];
%! [x, info] = bsym_solve (A, [1; 2]);
%! assert (info, int32 (0));
%! check_solution ([4 1; 1 3], x, [1; 2]);

%!warning id=batchsym:singular bsym_solve (zeros (2), [1; 1], "method", "ldlt");
%!warning id=batchsym:singular bsym_solve ([1 2; 2 NaN], [1; 1]);

%!test  # one warning, with the count; none when info is asked for
%! A = cat (3, eye (2), zeros (2), 2 * eye (2), ones (2));
%! B = ones (2, 4);
%! warning ("error", "batchsym:singular", "local");   # catch it as an error
%! try
%!   X = bsym_solve (A, B, "method", "ldlt");
%!   error ("no warning");
%! catch err
%!   assert (err.identifier, "batchsym:singular");
%!   assert (! isempty (strfind (err.message, "2 of 4 systems")));
%! end_try_catch
%! [X, info] = bsym_solve (A, B, "method", "ldlt");    # no warning (error) here
%! assert (info, int32 ([0 1 0 2]));
%! assert (X(:,[1 3]), [1 0.5; 1 0.5], 4 * eps);
%! assert (all (isnan (X(:,[2 4]))(:)));

## ---- method "tridiag": Householder, then cyclic reduction on T -------------

%!test  # symmetric indefinite systems, double
%! randn ("state", 20);
%! rand ("state", 20);
%! for n = ns
%!   A = sym_indefinite (n, 5);
%!   B = randn (n, 5);
%!   [X, info] = bsym_solve (A, B, "method", "tridiag");
%!   assert (class (X), "double");
%!   assert (size (X), [n 5]);
%!   assert (info, zeros (1, 5, "int32"));
%!   check_solution (A, X, B);
%! endfor

%!test  # symmetric indefinite systems, single in, single out
%! randn ("state", 21);
%! rand ("state", 21);
%! for n = ns
%!   A = sym_indefinite (n, 4, "single");
%!   B = single (randn (n, 4));
%!   [X, info] = bsym_solve (A, B, "method", "tridiag");
%!   assert (class (X), "single");
%!   assert (info, zeros (1, 4, "int32"));
%!   check_solution (A, X, B);
%! endfor
%! X = bsym_solve (sym_indefinite (6, 2), single (randn (6, 2)), "method", "tridiag");
%! assert (class (X), "single");          # mixed precision: single

%!test  # several right-hand sides, n > 64 too
%! randn ("state", 22);
%! rand ("state", 22);
%! for n = [2 7 33 64 65 100]
%!   A = sym_indefinite (n, 4);
%!   B = randn (n, 2, 4);
%!   [X, info] = bsym_solve (A, B, "method", "tridiag", "device", dev_for (n));
%!   assert (size (X), [n 2 4]);
%!   assert (info, zeros (1, 4, "int32"));
%!   check_solution (A, X, B);
%! endfor

## Cyclic reduction on T does not pivot: without the pivoted fallback 2 to
## 6 % of these systems had a backward error above 10 n eps (n = 100: 20 n eps).
%!test  # plain random symmetric matrices (conditioning not controlled)
%! randn ("state", 22);
%! for n = [2 7 33 64 65 100]
%!   M = randn (n, n, 4);
%!   A = (M + permute (M, [2 1 3])) / 2;
%!   B = randn (n, 2, 4);
%!   [X, info] = bsym_solve (A, B, "method", "tridiag", "device", dev_for (n));
%!   assert (info, zeros (1, 4, "int32"));
%!   check_solution (A, X, B);
%! endfor

%!test  # symmetric positive definite systems too, same answers as "ldlt"
%! randn ("state", 23);
%! A = spd (16, 6);
%! B = randn (16, 3, 6);
%! X = bsym_solve (A, B, "method", "tridiag");
%! check_solution (A, X, B);
%! assert (X, bsym_solve (A, B), 1e-12);

%!test  # an indefinite matrix on which LDL' without pivoting breaks down
%! A = [2 2 1 0; 2 2 0 1; 1 0 3 1; 0 1 1 -1];   # second pivot 2 - 2*2/2 = 0
%! b = [1; 2; 3; 4];
%! [x, info] = bsym_solve (A, b, "method", "ldlt");
%! assert (info, int32 (2));
%! [x, info] = bsym_solve (A, b, "method", "tridiag");
%! assert (info, int32 (0));
%! check_solution (A, x, b);
%! [x, info, ~, rank, method] = bsym_solve (A, b);       # "auto": cond 12
%! assert (info, int32 (0));
%! assert (rank, 4);
%! assert (method, {"tridiag"});
%! check_solution (A, x, b);

%!test  # uplo with "tridiag": only the named triangle is read
%! randn ("state", 24);
%! rand ("state", 24);
%! for n = [1 2 5 33]
%!   A = sym_indefinite (n, 3);
%!   B = randn (n, 3);
%!   Up = A;  Lo = A;
%!   for k = 1:3
%!     Up(:,:,k) = triu (A(:,:,k)) + tril (NaN (n), -1);
%!     Lo(:,:,k) = tril (A(:,:,k)) + triu (NaN (n), 1);
%!   endfor
%!   [XU, infoU] = bsym_solve (Up, B, "method", "tridiag", "uplo", "U");
%!   [XL, infoL] = bsym_solve (Lo, B, "Method", "TRIDIAG");
%!   assert (infoU, zeros (1, 3, "int32"));
%!   assert (infoL, zeros (1, 3, "int32"));
%!   check_solution (A, XU, B);
%!   check_solution (A, XL, B);
%! endfor

%!test  # "tridiag": one bad system spoils only itself
%! randn ("state", 25);
%! rand ("state", 25);
%! for cls = {"double", "single"}
%!   A = sym_indefinite (5, 5, cls{1});
%!   B = cast (randn (5, 5), cls{1});
%!   A(4,2,2) = NaN;                # referenced (lower) triangle: -1
%!   B(3,3) = Inf;                  # right-hand side: -1
%!   A(:,:,4) = 0;                  # T = 0: a zero pivot, info > 0
%!   [X, info] = bsym_solve (A, B, "method", "tridiag");
%!   assert (class (info), "int32");
%!   assert (info([1 2 3 5]), int32 ([0 -1 -1 0]));
%!   assert (info(4) > 0);
%!   assert (all (all (isnan (X(:,2:4)))));
%!   check_solution (A, X, B, [1 5]);
%! endfor

%!warning id=batchsym:singular bsym_solve (zeros (3), [1; 1; 1], "method", "tridiag");

## ---- method "eigen": the truncated spectrum --------------------------------

%!test  # random SPD and indefinite systems: all kept, as A \ b
%! randn ("state", 30);
%! rand ("state", 30);
%! for cls = {"double", "single"}
%!   for n = ns
%!     A = cat (3, spd (n, 3, cls{1}), sym_indefinite (n, 3, cls{1}));
%!     B = cast (randn (n, 6), cls{1});
%!     [X, info, ~, rank, method] = bsym_solve (A, B, "method", "eigen");
%!     assert (class (X), cls{1});
%!     assert (size (X), [n 6]);
%!     assert (info, zeros (1, 6, "int32"));
%!     assert (rank, n * ones (1, 6));
%!     assert (method, repmat ({"eigen"}, 1, 6));
%!     check_truncated (A, X, B, rank);
%!     check_solution (A, X, B);       # backward stable here (kappa <= 10)
%!   endfor
%! endfor

%!test  # constructed ill-conditioned spectra: eigenvalues dropped
%! randn ("state", 31);
%! rand ("state", 31);
%! for cls = {"double", "single"}
%!   for n = [2 3 5 16 31 32 33 64]
%!     rs = unique ([1, ceil(n / 2), n - 1]);
%!     A = zeros (n, n, 2 * numel (rs), cls{1});
%!     for i = 1:numel (rs)
%!       A(:,:,2*i-1) = with_eigenvalues (split_spectrum (n, rs(i)), 1, cls{1});
%!       A(:,:,2*i) = with_eigenvalues (split_spectrum (n, rs(i), true), 1, cls{1});
%!     endfor
%!     B = cast (randn (n, 2, size (A, 3)), cls{1});
%!     [X, info, ~, rank] = bsym_solve (A, B, "method", "eigen");
%!     assert (info, zeros (1, size (A, 3), "int32"));
%!     assert (rank, kron (rs, [1 1]));
%!     check_truncated (A, X, B, rank);
%!   endfor
%! endfor

%!test  # singular systems: the minimum-norm solution, pinv (A) * b
%! randn ("state", 32);
%! rand ("state", 32);
%! for cls = {"double", "single"}
%!   for n = [1 2 5 16 33]
%!     r = max (n - 2, 0);
%!     A = cat (3, with_eigenvalues (split_spectrum (n, r, false, true), 1, cls{1}),
%!                 with_eigenvalues (split_spectrum (n, r, true, true), 1, cls{1}),
%!                 ones (n, cls{1}), zeros (n, cls{1}));
%!     B = cast (randn (n, 4), cls{1});
%!     [X, info, ~, rank] = bsym_solve (A, B, "method", "eigen");
%!     assert (info, zeros (1, 4, "int32"));
%!     assert (rank, [r r 1 0]);
%!     check_truncated (A, X, B, rank);
%!     assert (X(:,4), zeros (n, 1, cls{1}));         # nothing kept: x = 0
%!     u = eps (cls{1});
%!     for k = 1:3
%!       Ak = double (A(:,:,k));
%!       xp = pinv (Ak, 1e-5 * norm (Ak)) * double (B(:,k));
%!       assert (norm (double (X(:,k)) - xp, inf) <= 1e5 * n * u * norm (B(:,k), inf) / norm (Ak),
%!               "%s, n = %d, system %d: not pinv (A) * b", cls{1}, n, k);
%!       ## minimum norm: no component in the null space (A's dropped directions)
%!       [V, L] = eig (Ak);
%!       null = abs (diag (L)) < 1e-5 * norm (Ak);
%!       assert (norm (V(:,null)' * double (X(:,k)), inf) <= 1e5 * n * u * norm (B(:,k), inf) / norm (Ak));
%!     endfor
%!   endfor
%! endfor

%!test  # "rcond": 0 keeps every nonzero eigenvalue, larger ones keep fewer
%! randn ("state", 33);
%! n = 6;
%! lambda = [1; 2e-2; -1e-3; 5e-5; 1e-6; -1e-9];   # neighbours 20x apart or more
%! A = with_eigenvalues (lambda, 2);
%! B = randn (n, 2);
%! for c = {0, 1e-10, 3e-8, 7e-6, 2.2e-4, 4.5e-3, 0.14}
%!   [X, info, ~, rank] = bsym_solve (A, B, "method", "eigen", "rcond", c{1});
%!   assert (info, zeros (1, 2, "int32"));
%!   assert (rank, nnz (abs (lambda) >= c{1}) * [1 1]);
%!   check_truncated (A, X, B, rank, c{1});
%! endfor
%! [X, info, ~, rank] = bsym_solve (zeros (3), [1; 2; 3], "method", "eigen", "rcond", 0);
%! assert ([X; rank], [0; 0; 0; 0]);

%!test  # several right-hand sides, uplo, n > 64
%! randn ("state", 34);
%! rand ("state", 34);
%! for n = [3 65 80]
%!   A = cat (3, with_eigenvalues (split_spectrum (n, n - 1, true), 2), spd (n, 1));
%!   B = randn (n, 3, 3);
%!   Up = A;
%!   for k = 1:3
%!     Up(:,:,k) = triu (A(:,:,k)) + tril (NaN (n), -1);
%!   endfor
%!   [X, info, ~, rank] = bsym_solve (Up, B, "method", "eigen", "uplo", "U", "device", dev_for (n));
%!   assert (size (X), [n 3 3]);
%!   assert (info, zeros (1, 3, "int32"));
%!   assert (rank, [n-1 n-1 n]);
%!   check_truncated (A, X, B, rank);
%! endfor

%!test  # "eigen": one bad system spoils only itself
%! randn ("state", 35);
%! for cls = {"double", "single"}
%!   A = spd (4, 4, cls{1});
%!   B = cast (randn (4, 4), cls{1});
%!   A(4,1,2) = NaN;
%!   B(3,3) = -Inf;
%!   [X, info, ~, rank, method] = bsym_solve (A, B, "method", "eigen");
%!   assert (info, int32 ([0 -1 -1 0]));
%!   assert (all (all (isnan (X(:,2:3)))));
%!   assert (rank, [4 NaN NaN 4]);
%!   assert (method, {"eigen", "", "", "eigen"});
%!   check_truncated (A(:,:,[1 4]), X(:,[1 4]), B(:,[1 4]), rank([1 4]));
%! endfor

## ---- method "auto" (the default) --------------------------------------------

%!test  # well-conditioned systems: certified LDL' (SPD), Householder + PCR (indefinite), as A \ b
%! randn ("state", 40);
%! rand ("state", 40);
%! for cls = {"double", "single"}
%!   for n = ns
%!     A = cat (3, spd (n, 3, cls{1}), sym_indefinite (n, 3, cls{1}));
%!     B = cast (randn (n, 6), cls{1});
%!     [X, info, plan, rank, method] = bsym_solve (A, B);
%!     assert (class (X), cls{1});
%!     assert (info, zeros (1, 6, "int32"));
%!     assert (method, [repmat({"ldlt"}, 1, 3), repmat({"tridiag"}, 1, 3)]);
%!     assert ([plan.systems plan.not_spd plan.fallback], [6 3 0]);
%!     assert (rank, n * ones (1, 6));
%!     check_solution (A, X, B);
%!     [X2, ~, ~, ~, method2] = bsym_solve (A, B, "method", "auto");
%!     assert (method2, method);
%!     assert (X2, X);
%!   endfor
%! endfor

%!test  # ill-conditioned and singular systems are redone by "eigen", only they
%! randn ("state", 41);
%! rand ("state", 41);
%! for cls = {"double", "single"}
%!   for n = [2 3 5 16 32 33 64]
%!     ill = cat (3, with_eigenvalues (split_spectrum (n, n - 1), 1, cls{1}),
%!                   with_eigenvalues (split_spectrum (n, ceil (n / 2), true), 1, cls{1}),
%!                   with_eigenvalues (split_spectrum (n, 1, true, true), 1, cls{1}),
%!                   zeros (n, cls{1}));
%!     well = cat (3, spd (n, 2, cls{1}), sym_indefinite (n, 2, cls{1}));
%!     A = cat (3, well(:,:,1:2), ill(:,:,1:2), well(:,:,3), ill(:,:,3:4), well(:,:,4));
%!     B = cast (randn (n, 8), cls{1});
%!     [X, info, plan, rank, method] = bsym_solve (A, B);
%!     assert (info, zeros (1, 8, "int32"));
%!     isill = logical ([0 0 1 1 0 1 1 0]);
%!     assert (method(isill), repmat ({"eigen"}, 1, 4));
%!     assert (method(! isill), {"ldlt", "ldlt", "tridiag", "tridiag"});  # SPD, indefinite
%!     assert (rank, [n n n-1 ceil(n/2) n 1 0 n]);
%!     check_truncated (A(:,:,isill), X(:,isill), B(:,isill), rank(isill));
%!     check_solution (A, X, B, find (! isill));
%!     assert ([plan.calls plan.systems plan.fallback plan.last_fallback], [1 8 4 4]);
%!   endfor
%! endfor

%!test  # auto with several right-hand sides and n > 64
%! randn ("state", 42);
%! rand ("state", 42);
%! n = 70;
%! A = cat (3, spd (n, 1), with_eigenvalues (split_spectrum (n, 60, true), 1));
%! B = randn (n, 2, 2);
%! [X, info, ~, rank, method] = bsym_solve (A, B, "device", dev_for (n));
%! assert (info, zeros (1, 2, "int32"));
%! assert (method, {"ldlt", "eigen"});
%! assert (rank, [n 60]);
%! check_solution (A(:,:,1), X(:,:,1), B(:,:,1));
%! check_truncated (A(:,:,2), X(:,:,2), B(:,:,2), rank(2));

%!test  # one non-finite system spoils only itself
%! randn ("state", 43);
%! rand ("state", 43);
%! for cls = {"double", "single"}
%!   n = 5;
%!   A = cat (3, spd (n, 3, cls{1}), with_eigenvalues (split_spectrum (n, 3), 2, cls{1}));
%!   B = cast (randn (n, 5), cls{1});
%!   A(3,2,2) = NaN;                              # lower triangle: read
%!   A(1,5,1) = NaN;                              # upper triangle: not read
%!   B(1,4) = Inf;
%!   [X, info, plan, rank, method] = bsym_solve (A, B);
%!   assert (info, int32 ([0 -1 0 -1 0]));
%!   assert (all (isnan (X(:,[2 4]))(:)));
%!   assert (! any (isnan (X(:,[1 3 5]))(:)));
%!   assert (rank, [n NaN n NaN 3]);
%!   assert (method, {"ldlt", "", "ldlt", "", "eigen"});
%!   A(1,5,1) = A(5,1,1);
%!   check_solution (A, X, B, [1 3]);
%!   check_truncated (A(:,:,5), X(:,5), B(:,5), 3);
%!   assert ([plan.systems plan.fallback], [3 1]);  # info != 0: not counted
%! endfor

%!test  # "rcond" in auto: the conditioning test uses it
%! randn ("state", 44);
%! n = 8;
%! lambda = [1; 2; 3; 4; 5; 6; 7; 1e-7];
%! A = with_eigenvalues (lambda, 3);
%! B = randn (n, 3);
%! [X, info, ~, rank, method] = bsym_solve (A, B);          # 1e-7 < 1e-5 * 7
%! assert (method, repmat ({"eigen"}, 1, 3));  # SPD, but LDL' does not certify it
%! p = bsym_plan (setfield (setfield (bsym_plan (), "systems", 100), "last_systems", 10));
%! assert (p.next, "ldlt");                    # a history of SPD systems: the same
%! [X, info, ~, rank, method] = bsym_solve (A, B, "plan", p);
%! assert (method, repmat ({"eigen"}, 1, 3));
%! assert (rank, (n - 1) * ones (1, 3));
%! [X, info, ~, rank, method] = bsym_solve (A, B, "rcond", 1e-10);
%! assert (method, repmat ({"ldlt"}, 1, 3));   # SPD, 1e-7 > 7e-10: certified
%! assert (rank, n * ones (1, 3));
%! for k = 1:3                          # cond 7e7: forward error n eps cond
%!   assert (norm (X(:,k) - A(:,:,k) \ B(:,k), inf) <= 10 * n * eps * 7e7 * norm (X(:,k), inf));
%! endfor
%! assert (backward_errors (A, X, B) <= 10 * n * eps);

%!test  # within 2^-10 of the threshold: maybe flagged, then "eigen" at full rank
%! randn ("state", 47);
%! n = 5;
%! A = with_eigenvalues ([1; 0.5; 0.3; 0.2; 1.0003e-5], 4);
%! B = randn (n, 4);
%! [X, info, ~, rank, method] = bsym_solve (A, B);
%! assert (info, zeros (1, 4, "int32"));
%! assert (rank, n * ones (1, 4));                  # kept: above the threshold
%! assert (all (ismember (method, {"tridiag", "eigen"})));
%! for k = 1:4                                      # cond 1e5
%!   assert (norm (X(:,k) - A(:,:,k) \ B(:,k), inf) <= 10 * n * eps * 1e5 * norm (X(:,k), inf));
%! endfor
%! A = with_eigenvalues ([1; 0.5; 0.3; 0.2; 0.9997e-5], 4);   # just below: dropped
%! [X, info, ~, rank, method] = bsym_solve (A, B);
%! assert (rank, (n - 1) * ones (1, 4));
%! assert (method, repmat ({"eigen"}, 1, 4));

%!test  # "tol": a backward error above it sends the system to "eigen"
%! randn ("state", 45);
%! rand ("state", 45);
%! n = 6;
%! A = cat (3, spd (n, 2), sym_indefinite (n, 2));
%! B = randn (n, 4);
%! [X, info, ~, rank, method] = bsym_solve (A, B, "tol", 1e-300);   # none passes
%! assert (method, repmat ({"eigen"}, 1, 4));
%! assert (rank, n * ones (1, 4));                # well conditioned: all kept
%! check_truncated (A, X, B, rank);
%! [X, info, ~, rank, method] = bsym_solve (A, B, "tol", 1);        # all pass
%! assert (method, {"ldlt", "ldlt", "tridiag", "tridiag"});         # SPD, indefinite
%! [X, info, ~, ~, method] = bsym_solve (A, B, "tol", realmax);
%! assert (method, {"ldlt", "ldlt", "tridiag", "tridiag"});

%!test  # single precision: rcond applies to single's eigenvalues too
%! randn ("state", 46);
%! n = 10;
%! A = with_eigenvalues ([1:9, 1e-6]', 4, "single");
%! B = single (randn (n, 4));
%! [X, info, ~, rank, method] = bsym_solve (A, B);
%! assert (class (X), "single");
%! assert (method, repmat ({"eigen"}, 1, 4));
%! assert (rank, (n - 1) * ones (1, 4));
%! check_truncated (A, X, B, rank);

%!test  # n = 1
%! [X, info, ~, rank, method] = bsym_solve (cat (3, 2, 0, -4, NaN), [1 1 2 1]);
%! assert (info, int32 ([0 0 0 -1]));
%! assert (X, [0.5 0 -0.5 NaN]);
%! assert (rank, [1 0 1 NaN]);
%! assert (method(1:3), {"ldlt", "eigen", "tridiag"});

%!test  # the output shapes and classes
%! [X, info, plan, rank, method] = bsym_solve (eye (2), [1; 2]);
%! assert (X, [1; 2]);
%! assert (class (rank), "double");
%! assert (size (rank), [1 1]);
%! assert (iscellstr (method) && isequal (size (method), [1 1]));
%! assert (isstruct (plan) && isfield (plan, "next"));
%! [X, info, plan, rank, method] = bsym_solve (repmat (eye (2), 1, 1, 3), ones (2, 3));
%! assert (size (rank), [1 3]);
%! assert (size (method), [1 3]);
%! assert (size (info), [1 3]);

## ---- empty problems -------------------------------------------------------

%!test
%! [X, info] = bsym_solve (zeros (3, 3, 0), zeros (3, 0));
%! assert (size (X), [3 0]);
%! assert (class (X), "double");
%! assert (size (info), [1 0]);
%! X = bsym_solve (zeros (3, 3, 0), zeros (3, 2, 0));
%! assert (size (X), [3 2 0]);
%! X = bsym_solve (single (zeros (3, 3, 0)), zeros (3, 0));
%! assert (class (X), "single");
%! assert (size (X), [3 0]);
%! [X, info] = bsym_solve (zeros (0, 0), zeros (0, 1));   # n = 0
%! assert (size (X), [0 1]);
%! assert (info, int32 (0));
%! X = bsym_solve (eye (3), zeros (3, 0));                 # no right-hand side
%! assert (size (X), [3 0]);
%! [X, info] = bsym_solve (zeros (3, 3, 0), zeros (3, 0), "method", "tridiag");
%! assert (size (X), [3 0]);
%! assert (size (info), [1 0]);
%! [X, info] = bsym_solve (zeros (0, 0), zeros (0, 1), "method", "tridiag");
%! assert (size (X), [0 1]);
%! assert (info, int32 (0));
%! for method = {"eigen", "auto"}
%!   [X, info, plan, rank, used] = bsym_solve (zeros (3, 3, 0), zeros (3, 0), "method", method{1});
%!   assert (size (X), [3 0]);
%!   assert (size (info), [1 0]);
%!   assert (size (rank), [1 0]);
%!   assert (size (used), [1 0]);
%!   assert (iscell (used));
%!   assert (plan.systems, 0);
%!   [X, info, plan, rank] = bsym_solve (zeros (0, 0), zeros (0, 1), "method", method{1});
%!   assert (size (X), [0 1]);
%!   assert (info, int32 (0));
%!   assert (rank, 0);
%! endfor

## ---- devices ----------------------------------------------------------------

%!test  # the CPU on request gives the same results as "auto"
%! randn ("state", 11);
%! A = spd (16, 8);
%! B = randn (16, 8);
%! X = bsym_solve (A, B, "device", "cpu");
%! check_solution (A, X, B);

%!test  # "gpu": solves when a GPU is usable, else says why not
%! randn ("state", 12);
%! d = bsym_device_info ();
%! if (bsym_gpu_available ())
%!   for n = ns
%!     for cls = {"double", "single"}
%!       A = spd (n, 50, cls{1});
%!       B = cast (randn (n, 2, 50), cls{1});
%!       [X, info] = bsym_solve (A, B, "device", "gpu");
%!       assert (class (X), cls{1});
%!       assert (all (info == 0));
%!       check_solution (A, X, B);
%!       A = sym_indefinite (n, 50, cls{1});
%!       [X, info] = bsym_solve (A, B, "device", "gpu", "method", "tridiag");
%!       assert (class (X), cls{1});
%!       assert (all (info == 0));
%!       ## as accurate as the CPU on the same systems: among 50, one may miss
%!       ## 10 n eps on either device (cyclic reduction does not pivot; see
%!       ## the known failure above)
%!       Xc = bsym_solve (A, B, "device", "cpu", "method", "tridiag");
%!       be = backward_errors (A, X, B);
%!       bec = backward_errors (A, Xc, B);
%!       [worst, k] = max (be ./ max (10 * n * eps (cls{1}), 10 * bec));
%!       assert (worst <= 1, "n = %d, system %d: backward error %g on the GPU, %g on the CPU",
%!               n, k, be(k), bec(k));
%!       check_solution (A, X, B, find (be <= 10 * n * eps (cls{1})));
%!     endfor
%!   endfor
%!   for method = {"ldlt", "tridiag", "eigen", "auto"}  # (n = 257: above every GPU kernel's limit)
%!     try
%!       bsym_solve (eye (257), ones (257, 1), "device", "gpu", "method", method{1});
%!       error ("no error for n = 257 on the GPU");
%!     catch err
%!       assert (err.identifier, "batchsym:size_unsupported");
%!     end_try_catch
%!   endfor
%! else
%!   for method = {"ldlt", "tridiag"}
%!     try
%!       bsym_solve (eye (2), ones (2, 1), "device", "gpu", "method", method{1});
%!       error ("no error for device gpu without a GPU");
%!     catch err
%!       assert (err.identifier, "batchsym:no_device");
%!       assert (! isempty (strfind (err.message, d.reason)));
%!       assert (strncmp (err.message, "bsym_solve: ", 12));
%!     end_try_catch
%!   endfor
%! endif

## ---- errors -------------------------------------------------------------------

## ---- methods "bunch-kaufman" and "aasen"; complex Hermitian input -----------

## A batch of nb Hermitian (complex) or symmetric n x n matrices of a family:
## "random" indefinite, "hpd" positive definite, "graded", "tiny" (a11 =
## 1e-12), "swap" (zero diagonal: 2 x 2 pivots).
%!function A = herm_batch (n, nb, family, cplx, cls = "double")
%!  A = zeros (n, n, nb);
%!  if (cplx)
%!    A = complex (A);
%!  endif
%!  for k = 1:nb
%!    M = randn (n);
%!    if (cplx)
%!      M = M + i * randn (n);
%!    endif
%!    H = (M + M') / 2;
%!    switch (family)
%!      case "hpd"
%!        H = M * M' / n + eye (n);
%!      case "graded"
%!        g = 10 .^ -(3 * (0:n-1)' / max (1, n - 1));
%!        H = (H + 2 * sqrt (n) * eye (n)) .* (g * g');
%!      case "tiny"
%!        H(1,1) = 1e-12;
%!      case "swap"
%!        H(logical (eye (n))) = 0;
%!    endswitch
%!    A(:,:,k) = H;
%!  endfor
%!  A = cast (A, cls);
%!endfunction

## X (n x 4) against mldivide: the backward error within 30 n eps of the
## class, the forward error of systems 1 and 4 within the condition number.
%!function check_like_mldivide (A, X, B, cls, what)
%!  n = rows (A);
%!  be = backward_errors (A, X, B);
%!  assert (max (be) <= 30 * n * eps (cls), "%s: backward error %g", what, max (be));
%!  for k = [1 4]
%!    ref = A(:,:,k) \ B(:,k);
%!    assert (norm (double (X(:,k)) - ref, inf) / norm (ref, inf) <= 100 * n * eps (cls) * cond (A(:,:,k)));
%!  endfor
%!endfunction

%!function junk = ifelse_mask (n, uplo)
%!  if (strcmp (uplo, "L"))
%!    junk = logical (triu (ones (n), 1));
%!  else
%!    junk = logical (tril (ones (n), -1));
%!  endif
%!endfunction

%!test  # every family, method, class and uplo, real and complex, as mldivide (CPU, and GPU where it has the method)
%! randn ("state", 14);
%! for cplx = [false true]
%!   for family = {"random", "hpd", "graded", "tiny", "swap"}
%!     for n = [2 5 16 32]
%!       A = herm_batch (n, 4, family{1}, cplx);
%!       B = randn (n, 4);
%!       if (cplx)
%!         B = complex (B, randn (n, 4));
%!       endif
%!       methods = {"bunch-kaufman", "aasen"};
%!       if (strcmp (family{1}, "hpd"))
%!         methods{end+1} = "ldlt";
%!       endif
%!       for m = methods
%!         for cls = {"double", "single"}
%!           for uplo = {"L", "U"}
%!             As = cast (A, cls{1});
%!             junk = ifelse_mask (n, uplo{1});
%!             for k = 1:4                 # garbage where nothing may be read
%!               a = As(:,:,k);
%!               a(junk) = 1e30;
%!               if (cplx)
%!                 a(logical (eye (n))) = real (diag (a)) + 7i;
%!               endif
%!               As(:,:,k) = a;
%!             endfor
%!             devices = {"cpu"};   # the GPU: Bunch-Kaufman, Aasen and every complex method
%!             if (bsym_gpu_available () && (any (strcmp (m{1}, {"bunch-kaufman", "aasen"})) || cplx))
%!               devices{end+1} = "gpu";
%!             endif
%!             for dev = devices
%!               [X, info, ~, ~, used] = bsym_solve (As, cast (B, cls{1}), "method", m{1}, "uplo", uplo{1}, "device", dev{1});
%!               assert (class (X), cls{1});
%!               assert (iscomplex (X), cplx);
%!               assert (info, zeros (1, 4, "int32"));
%!               assert (used, repmat (m, 1, 4));
%!               check_like_mldivide (A, X, B, cls{1}, sprintf ("%s %s %s n=%d", dev{1}, m{1}, family{1}, n));
%!             endfor
%!           endfor
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! endfor

%!test  # LDL' without pivoting breaks down where Bunch-Kaufman and Aasen do not
%! S = [0 1; 1 0];
%! [x, info] = bsym_solve (S, [1; 2], "method", "ldlt", "device", "cpu");
%! assert (info, int32 (1));
%! for m = {"bunch-kaufman", "aasen"}
%!   [x, info] = bsym_solve (S, [1; 2], "method", m{1}, "device", "cpu");
%!   assert (info, int32 (0));
%!   assert (x, [2; 1], eps);
%! endfor

%!test  # real B with complex A and the reverse give complex X; several right-hand sides
%! randn ("state", 141);
%! A = herm_batch (6, 3, "random", true);
%! B = randn (6, 2, 3);
%! X = bsym_solve (A, B, "method", "bunch-kaufman", "device", "auto");   # (a CPU method: issue 14)
%! assert (iscomplex (X));
%! for k = 1:3
%!   assert (X(:,:,k), A(:,:,k) \ B(:,:,k), 1e-10);
%! endfor
%! S = herm_batch (6, 3, "random", false);
%! Bz = complex (randn (6, 3), randn (6, 3));
%! Z = bsym_solve (S, Bz, "method", "aasen", "device", "auto");
%! for k = 1:3
%!   assert (Z(:,k), S(:,:,k) \ Bz(:,k), 1e-10);
%! endfor
%! Zs = bsym_solve (single (S), Bz, "method", "aasen", "device", "auto");
%! assert (class (Zs), "single");
%! assert (iscomplex (Zs));

%!test  # one bad system spoils only itself, real and complex
%! randn ("state", 142);
%! for cplx = [false true]
%!   for m = {"bunch-kaufman", "aasen"}
%!     A = herm_batch (5, 4, "random", cplx);
%!     A(3,2,2) = NaN;
%!     A(:,:,3) = 0;
%!     B = randn (5, 4);
%!     [X, info] = bsym_solve (A, B, "method", m{1}, "device", "cpu");
%!     assert (info([1 4]), int32 ([0 0]));
%!     assert (info(2), int32 (-1));
%!     assert (info(3) > 0);
%!     assert (all (isnan (X(:,[2 3]))(:)));
%!     assert (X(:,4), A(:,:,4) \ B(:,4), 1e-9);
%!   endfor
%! endfor

%!test  # complex tridiag, eigen and auto (issue 14): every family, class and uplo, as mldivide
%! randn ("state", 143);
%! for family = {"random", "hpd", "graded", "tiny", "swap"}
%!   for n = [1 2 5 16 32]
%!     if (n == 1 && strcmp (family{1}, "swap"))
%!       continue;
%!     endif
%!     A = herm_batch (n, 4, family{1}, true);
%!     B = complex (randn (n, 4), randn (n, 4));
%!     for m = {"tridiag", "eigen", "auto"}
%!       for cls = {"double", "single"}
%!         for uplo = {"L", "U"}
%!           As = cast (A, cls{1});
%!           junk = ifelse_mask (n, uplo{1});
%!           for k = 1:4
%!             a = As(:,:,k);
%!             a(junk) = 1e30;
%!             a(logical (eye (n))) = real (diag (a)) + 7i;
%!             As(:,:,k) = a;
%!           endfor
%!           # rcond 0: every pair kept (the truncation has its own test)
%!           [X, info, ~, rank, used] = bsym_solve (As, cast (B, cls{1}), "method", m{1}, "uplo", uplo{1},
%!                                                  "rcond", 0, "device", "auto");
%!           assert (class (X), cls{1});
%!           assert (iscomplex (X));
%!           assert (info, zeros (1, 4, "int32"));
%!           assert (rank, n * ones (1, 4));
%!           if (strcmp (m{1}, "auto"))
%!             assert (all (ismember (used, {"ldlt", "tridiag", "eigen"})));
%!             if (strcmp (family{1}, "hpd"))
%!               assert (used, repmat ({"ldlt"}, 1, 4));
%!             endif
%!           else
%!             assert (used, repmat (m, 1, 4));
%!           endif
%!           check_like_mldivide (A, X, B, cls{1}, sprintf ("%s %s n=%d", m{1}, family{1}, n));
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! endfor

%!test  # complex "auto" and "eigen" truncate an ill-conditioned system, and only it
%! randn ("state", 144);
%! n = 6;
%! [U, ~] = qr (complex (randn (n), randn (n)));
%! lam = [0.5 1 2 3 4 8; -4 -1 0.5 1 2 6; 1e-9 0.5 1 2 3 8; -6 -1 -1e-9 1 2 3];
%! A = complex (zeros (n, n, 4));
%! for k = 1:4
%!   A(:,:,k) = U * diag (lam(k,:)) * U';
%! endfor
%! B = complex (randn (n, 4), randn (n, 4));
%! for cls = {"double", "single"}
%!   [X, info, ~, rank, used] = bsym_solve (cast (A, cls{1}), cast (B, cls{1}), "device", "auto");
%!   [E, ~, ~, erank] = bsym_solve (cast (A, cls{1}), cast (B, cls{1}), "method", "eigen", "device", "auto");
%!   assert (used, {"ldlt", "tridiag", "eigen", "eigen"});
%!   assert (rank, [n n n-1 n-1]);
%!   assert (erank, [n n n-1 n-1]);
%!   for k = 1:4
%!     keep = abs (lam(k,:)) >= 1e-5 * max (abs (lam(k,:)));
%!     ref = U(:,keep) * ((U(:,keep)' * B(:,k)) ./ lam(k,keep).');
%!     assert (norm (double (X(:,k)) - ref, inf) / norm (ref, inf) <= 100 * n * eps (cls{1}) * 16);
%!     assert (norm (double (E(:,k)) - ref, inf) / norm (ref, inf) <= 100 * n * eps (cls{1}) * 16);
%!   endfor
%! endfor

%!test  # complex tridiag, eigen and auto: one bad system spoils only itself
%! randn ("state", 145);
%! for m = {"tridiag", "eigen", "auto"}
%!   A = herm_batch (5, 4, "random", true);
%!   A(3,2,2) = NaN;
%!   A(:,:,3) = 0;
%!   B = complex (randn (5, 4), randn (5, 4));
%!   [X, info, ~, rank, used] = bsym_solve (A, B, "method", m{1}, "device", "auto");
%!   assert (info([1 4]), int32 ([0 0]));
%!   assert (info(2), int32 (-1));
%!   assert (all (isnan (X(:,2))));
%!   if (strcmp (m{1}, "tridiag"))
%!     assert (info(3) > 0);
%!     assert (all (isnan (X(:,3))));
%!   else  # the zero matrix: rank 0, the minimum-norm solution 0
%!     assert (info(3), int32 (0));
%!     assert (rank(3), 0);
%!     assert (used{3}, "eigen");
%!     assert (all (X(:,3) == 0));
%!   endif
%!   assert (X(:,[1 4]), [A(:,:,1) \ B(:,1), A(:,:,4) \ B(:,4)], 1e-9);
%! endfor

%!test  # complex input, tridiag, eigen and auto: "auto" takes the CPU for a small batch; device "gpu" solves there (issue 16), or is an error without one
%! A = complex (eye (3), 0);
%! for m = {"tridiag", "eigen", "auto"}
%!   x = bsym_solve (A, [1; 1i; 2], "method", m{1}, "device", "auto");
%!   assert (x, [1; 1i; 2], 1e-14);
%!   try
%!     xg = bsym_solve (A, [1; 1i; 2], "method", m{1}, "device", "gpu");
%!     assert (xg, [1; 1i; 2], 1e-14);
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!   end_try_catch
%! endfor
%!error <real or complex, full> bsym_solve (int8 (eye (3)), ones (3, 1))

%!error <Invalid call> bsym_solve ()
%!error <Invalid call> bsym_solve (eye (2))
%!error <returns at most five outputs> [a, b, c, d, e, f] = bsym_solve (eye (2), [1; 1])
%!error <A must be a real or complex, full double or single array \(got cell\)> bsym_solve ({1}, 1)
%!error id=batchsym:bad_argument bsym_solve ("ab", [1; 1])
%!assert (bsym_solve (complex (eye (2)), [1; 1], "device", "auto"), complex ([1; 1]), 1e-15)
%!error <A .* \(got logical\)> bsym_solve (true, 1)
%!error <got sparse double> bsym_solve (speye (2), [1; 1])
%!error id=batchsym:bad_argument bsym_solve (int32 (eye (2)), [1; 1])
%!assert (bsym_solve (eye (2), [1i; 1], "device", "auto"), [1i; 1], 1e-15)
%!error <B .* \(got logical\)> bsym_solve (eye (2), [true; false])
%!error <B .* \(got sparse double\)> bsym_solve (eye (2), sparse ([1; 1]))
%!error id=batchsym:bad_argument bsym_solve (eye (2), {1, 2})
%!error <A must hold square matrices \(got 2 x 3\)> bsym_solve (ones (2, 3), [1; 1])
%!error id=batchsym:bad_argument bsym_solve (ones (2, 3, 4), ones (2, 4))
%!error <A must be an n x n matrix or an n x n x batch array> bsym_solve (ones (2, 2, 2, 2), ones (2, 2, 2))
%!error <B has 2 rows but the systems in A are 3 x 3> bsym_solve (eye (3), [1; 1])
%!error id=batchsym:bad_argument bsym_solve (eye (3), [1 1 1])
%!error <B has 2 columns but A holds 3 systems> bsym_solve (repmat (eye (2), 1, 1, 3), ones (2, 2))
%!error <size \(B, 3\) is 2 but A holds 3 systems> bsym_solve (repmat (eye (2), 1, 1, 3), ones (2, 1, 2))
%!error id=batchsym:bad_argument bsym_solve (repmat (eye (2), 1, 1, 3), ones (2, 1, 2))
%!error <B must be n x batch> bsym_solve (eye (2), ones (2, 1, 1, 2))
%!error <option 'method' must be one of 'ldlt', 'tridiag', 'eigen', 'auto', 'bunch-kaufman', 'aasen' \(got 'chol'\)> bsym_solve (eye (2), [1; 1], "method", "chol")
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "method", "chol")
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_solve (eye (2), [1; 1], "device", "tpu")
%!error <option 'uplo' must be one of 'L', 'U' \(got 'X'\)> bsym_solve (eye (2), [1; 1], "uplo", "X")
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "uplo", "lower")
%!error <unknown option 'tolerance' \(options: 'method', 'device', 'uplo', 'rcond', 'tol', 'plan', 'gpus'\)> bsym_solve (eye (2), [1; 1], "tolerance", 1)
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "weights", 1)
%!error <option 'method' must be one of .* \(got 'svd'\)> bsym_solve (eye (2), [1; 1], "method", "svd")
%!error <bsym_solve: rcond must be a single number in \[0, 1\) \(got -0\.1\)> bsym_solve (eye (2), [1; 1], "rcond", -0.1)
%!error <bsym_solve: rcond must be a single number in \[0, 1\) \(got 1\)> bsym_solve (eye (2), [1; 1], "rcond", 1)
%!error <bsym_solve: rcond must be a single number in \[0, 1\) \(got NaN\)> bsym_solve (eye (2), [1; 1], "rcond", NaN)
%!error <bsym_solve: rcond must be a single number in \[0, 1\) \(got Inf\)> bsym_solve (eye (2), [1; 1], "rcond", Inf)
%!error <option 'rcond' must be a real scalar \(got double with 2 elements\)> bsym_solve (eye (2), [1; 1], "rcond", [0.1 0.2])
%!error <option 'rcond' must be a real scalar \(got double with 0 elements\)> bsym_solve (eye (2), [1; 1], "rcond", [])
%!error <option 'rcond' must be a real scalar \(got complex double with 1 element\)> bsym_solve (eye (2), [1; 1], "rcond", 0.1i)
%!error <option 'rcond' must be a real scalar \(got char with 4 elements\)> bsym_solve (eye (2), [1; 1], "rcond", "1e-5")
%!error <option 'rcond' must be a real scalar \(got logical with 1 element\)> bsym_solve (eye (2), [1; 1], "rcond", false)
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "RCOND", -1)
%!error <bsym_solve: tol must be a single positive finite number, or left out for the default 16 n eps \(got 0\)> bsym_solve (eye (2), [1; 1], "tol", 0)
%!error <bsym_solve: tol must be a single positive finite number, or left out for the default 16 n eps \(got -1e-10\)> bsym_solve (eye (2), [1; 1], "tol", -1e-10)
%!error <bsym_solve: tol must be a single positive finite number, or left out for the default 16 n eps \(got NaN\)> bsym_solve (eye (2), [1; 1], "tol", NaN)
%!error <bsym_solve: tol must be a single positive finite number, or left out for the default 16 n eps \(got -Inf\)> bsym_solve (eye (2), [1; 1], "tol", -Inf)
%!error <bsym_solve: tol must be a single positive finite number, or left out for the default 16 n eps \(got Inf\)> bsym_solve (eye (2), [1; 1], "tol", Inf)
%!error <option 'tol' must be a real scalar \(got cell with 1 element\)> bsym_solve (eye (2), [1; 1], "tol", {1})
%!error <option 'tol' must be a real scalar \(got sparse double with 1 element\)> bsym_solve (eye (2), [1; 1], "tol", sparse (1))
%!error <option 'plan' must be a plan> bsym_solve (eye (2), [1; 1], "plan", 1)
%!error <option 'plan' lacks the field 'fallback'> bsym_solve (eye (2), [1; 1], "plan", rmfield (bsym_plan (), "fallback"))
%!error <options must come in name/value pairs> bsym_solve (eye (2), [1; 1], "method")
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "method", "ldlt", "device")
%!error <an option name must be a string \(got double\)> bsym_solve (eye (2), [1; 1], 1, "ldlt")
%!error <option 'device' must be a string \(got double\)> bsym_solve (eye (2), [1; 1], "device", 2)

## ---- help -----------------------------------------------------------------------

%!test  # the help text is valid Texinfo (where makeinfo is installed)
%! if (! isempty (file_in_path (getenv ("PATH"), makeinfo_program ())))
%!   [~, status] = __makeinfo__ (get_help_text ("bsym_solve"), "plain text");
%!   assert (status, 0);
%! endif
%!assert (! isempty (strfind (get_help_text ("bsym_solve"), "Solve a batch")))

%!test  # the names a bad 'method' or 'device' lists are the core's tables:
%!      # each is documented in this help text and accepted (issue 11)
%! A = [4 1; 1 3]; B = [1; 2];
%! txt = get_help_text ("bsym_solve");
%! for opt = {"method", "device"}
%!   try
%!     bsym_solve (A, B, opt{1}, "no-such-name");
%!     error ("not reached");
%!   catch err
%!     assert (err.identifier, "batchsym:bad_argument");
%!     names = regexp (err.message, "'([^']+)'", "tokens");
%!   end_try_catch
%!   names = cellfun (@(c) c{1}, names, "UniformOutput", false);
%!   names = setdiff (names, {opt{1}, "no-such-name"});
%!   assert (numel (names) >= 3);
%!   for i = 1:numel (names)
%!     assert (! isempty (strfind (txt, ['@qcode{"' names{i} '"}'])), names{i});
%!     if (strcmp (opt{1}, "method"))
%!       assert (bsym_solve (A, B, "method", names{i}, "device", bsym_device ()), A \ B, 1e-12);
%!     elseif (! strcmp (names{i}, "gpu") || bsym_gpu_available ())
%!       assert (bsym_solve (A, B, "device", names{i}), A \ B, 1e-12);
%!     endif
%!   endfor
%! endfor

## 'gpus': the GPUs of a GPU call. Octave checks the type, the core the ids
## (their errors name gpus); on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_solve (eye (2), [1; 1], "gpus", "0")
%!error <option 'gpus' must be a vector of GPU device ids.*\(got double with 1 element\)> bsym_solve (eye (2), [1; 1], "gpus", 1.5)
%!error <option 'gpus' must be a vector of GPU device ids> bsym_solve (eye (2), [1; 1], "gpus", NaN)
%!error <option 'gpus' must be a vector of GPU device ids> bsym_solve (eye (2), [1; 1], "gpus", true)
%!error <gpus must be device ids .= 0 \(got -1\)> bsym_solve (eye (2), [1; 1], "gpus", -1)
%!error <gpus names device 0 twice> bsym_solve (eye (2), [1; 1], "gpus", [0 0])
%!error <gpus must list 0 to 16 device ids \(got 17\)> bsym_solve (eye (2), [1; 1], "gpus", 0:16)
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "gpus", -1)
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "gpus", {0})

%!test  # on the CPU, 'gpus' changes no result; a refused list leaves nothing behind
%! A = repmat ([4 1 0; 1 3 1; 0 1 2], [1 1 5]); A(1, 1, :) = 4 + (1:5) / 7;
%! B = reshape (1:15, 3, 5);
%! X0 = bsym_solve (A, B, "device", "cpu");
%! assert (isequal (bsym_solve (A, B, "device", "cpu", "gpus", 0), X0));
%! assert (isequal (bsym_solve (A, B, "device", "cpu", "GPUS", int32 (0)), X0));
%! assert (isequal (bsym_solve (A, B, "device", "cpu", "gpus", []), X0));
%! assert (isequal (bsym_solve (single (A), B, "device", "cpu", "gpus", 0), bsym_solve (single (A), B, "device", "cpu")));
%! try
%!   bsym_solve (A, B, "device", "cpu", "gpus", [0 0]);
%!   error ("no error for gpus [0 0]");
%! catch err
%!   assert (err.identifier, "batchsym:bad_argument");
%! end_try_catch
%! assert (isequal (bsym_solve (A, B, "device", "cpu"), X0));
%! d = bsym_device_info ();
%! assert (d.gpus, 0:numel (d.gpus) - 1);   # a call's GPUs without 'gpus': every visible one

%!test  # with GPUs: each GPU alone and all of them give the same bits
%! d = bsym_device_info ();
%! if (d.gpu_available)
%!   n = 32; batch = 8200 * numel (d.gpus) + 37;   # each GPU gets > 32 MiB of A
%!   randn ("seed", 7);
%!   M = randn (n); A = repmat (M * M' / n + eye (n), [1 1 batch]);
%!   A(1, 1, :) = A(1, 1, :) + reshape ((1:batch) / batch, 1, 1, batch);
%!   B = randn (n, batch);
%!   X = bsym_solve (A, B, "device", "gpu", "method", "ldlt");
%!   Xs = bsym_solve (single (A), single (B), "device", "gpu");
%!   for g = d.gpus
%!     assert (isequal (bsym_solve (A, B, "device", "gpu", "method", "ldlt", "gpus", g), X));
%!     assert (isequal (bsym_solve (single (A), single (B), "device", "gpu", "gpus", g), Xs));
%!   endfor
%!   assert (isequal (bsym_solve (A, B, "device", "gpu", "method", "ldlt", "gpus", fliplr (d.gpus)), X));
%! endif
