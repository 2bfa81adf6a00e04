## -*- texinfo -*-
## @deftypefn  {} {@var{beta} =} bsym_lsfit (@var{X}, @var{Y})
## @deftypefnx {} {@var{beta} =} bsym_lsfit (@var{X}, @var{Y}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{beta}, @var{rank}, @var{rss}, @var{info}, @var{method}, @var{plan}] =} bsym_lsfit (@dots{})
## Fit a batch of small (weighted) least-squares problems
## @code{@var{Y}_k ~ @var{X}(:,:,k) * @var{beta}_k}: for each system k,
## the coefficients that minimize @code{sum_i w_i * (y_i - x_i' * beta)^2}
## for each column y of @var{Y}_k, on the GPU or on the CPU.
##
## The fit goes through the normal equations
## @code{G = X' * W * X}, @code{C = X' * W * Y} (W = diag (weights)),
## formed by batchsym's own kernel on the device that solves them, and
## solved as @code{bsym_solve (G, C, @dots{})} with the same options: by
## default LDL', certified per system (G is positive semidefinite: a
## full-rank, well-conditioned fit keeps it), Householder for the systems
## it does not certify, and the truncated spectrum of G for the systems
## that fail the checks.  A rank-deficient @var{X} (a duplicated
## column, fewer rows than columns, or singular values below the
## threshold) thus gets the minimum-norm coefficients of the truncated
## problem, @code{pinv (sqrt (w) .* X) * (sqrt (w) .* y)} where the
## truncation matches pinv's.  The normal equations square the condition
## number: the coefficients of a full-rank fit are accurate to about
## @code{p * eps * cond (X)^2} relative (compare @code{X \ y}, by QR, at
## @code{eps * cond (X)} for small residuals).
##
## @var{X} is an @var{m} x @var{p} x @var{batch} array of design matrices,
## or an @var{m} x @var{p} matrix (a batch of one), real double or single,
## with @var{p} >= 1 columns (@var{m} = 0 rows gives zero coefficients).
##
## @var{Y} holds the responses: @var{m} x @var{batch} (one per system),
## @var{m} x @var{k} x @var{batch} (@var{k} per system, fitted on the same
## design), or, for a batch of one, a column vector or an @var{m} x @var{k}
## matrix (as for @code{mldivide}).  @var{beta} has the shape of @var{Y}
## with @var{p} rows: @var{p} x @var{batch}, @var{p} x @var{k} x
## @var{batch}, or @var{p} x @var{k}.  When @var{X}, @var{Y} or the weights
## are single the fit runs in single precision and the outputs are single;
## otherwise double.
##
## Options, as name/value pairs (names and values in any case):
##
## @table @asis
## @item @qcode{"weights"}
## @var{m} x @var{batch} (one column per system), or an @var{m} x 1 column
## shared by every system; non-negative (a negative, NaN or Inf weight
## makes its system's @var{info} -1, as in R).  A zero weight drops its
## row.  Default (or @code{[]}): all ones.
##
## @item @qcode{"method"}
## @qcode{"auto"} (default), @qcode{"eigen"}, @qcode{"tridiag"} or
## @qcode{"ldlt"}: how the normal equations @code{G * beta = C} are solved,
## as for @code{bsym_solve} (see its help).  @qcode{"ldlt"} and
## @qcode{"tridiag"} give @var{info} > 0 for a rank-deficient @var{X}.
##
## @item @qcode{"rcond"}
## For @qcode{"eigen"} and @qcode{"auto"}: the relative threshold on the
## eigenvalues of @code{G = X' * W * X}, a scalar in [0, 1), default 1e-5
## (the paper's condition cap 1e5).  Those eigenvalues are the squared
## singular values of @code{sqrt (W) * X}: 1e-5 drops the singular values
## below @code{sqrt (1e-5) * max}, i.e. caps @code{cond (sqrt (W) * X)}
## near 316.  The threshold is not scale invariant: columns of @var{X} in
## very different units (an intercept beside a covariate in the thousands)
## make G look ill-conditioned and lose the small column's coefficient;
## scale the columns, or lower @qcode{"rcond"}.
##
## @item @qcode{"tol"}
## For @qcode{"auto"}: the largest backward error accepted from the cheap
## solve of the normal equations, a positive finite scalar; default
## @code{16 * p * eps} of the working precision.
##
## @item @qcode{"plan"}
## For @qcode{"auto"}: a plan from @code{bsym_plan} or from an earlier
## call's @var{plan} output (see @code{bsym_plan}).  Default: a plan with no
## history.
##
## @item @qcode{"device"}
## @qcode{"auto"} (default), @qcode{"cpu"} or @qcode{"gpu"}, as for
## @code{bsym_solve}.
##
## @item @qcode{"gpus"}
## The GPUs of a GPU call, device ids such as @code{[0 1]} (default
## @code{[]}: every visible GPU), as for @code{bsym_solve}.
## @end table
##
## Outputs besides @var{beta}:
##
## @table @var
## @item rank
## a double row vector, one entry per system: the number of eigenvalues of
## G kept (the numerical rank of @code{sqrt (W) * X}) where G was solved by
## @qcode{"eigen"}, @var{p} where it was solved otherwise, NaN where
## @var{info} @code{!=} 0.
##
## @item rss
## the weighted residual sums of squares, @code{sum_i w_i * (y_i - x_i' *
## beta)^2}, @var{k} x @var{batch} (one row per response column; 1 x
## @var{batch} for @var{m} x @var{batch} responses, and a column for a
## batch of one); NaN where @var{info} @code{!=} 0.
##
## @item info
## an int32 row vector, one entry per system: 0 fitted; -1 non-finite
## entries in @var{X}, in @var{Y} or in the weights; @var{j} > 0 as for
## @code{bsym_solve} on G.  The coefficients of systems with @var{info}
## @code{!=} 0 are NaN.  Without the @var{info} output, such systems raise
## one warning @code{batchsym:fitFailed} giving their count.
##
## @item method
## a 1 x @var{batch} cell array of strings: the method that solved each
## system's normal equations, @qcode{"ldlt"}, @qcode{"tridiag"} or
## @qcode{"eigen"} (@qcode{""} where @var{info} @code{!=} 0).
##
## @item plan
## the plan updated by this call (with @qcode{"auto"}; other methods return
## it unchanged).
## @end table
##
## Errors have the identifier @code{batchsym:@var{id}}, @var{id} the core's
## id of what went wrong: @code{bad_argument} (a wrong type, shape, option or
## value), @code{no_device}, @code{size_unsupported}, @code{out_of_memory},
## @code{cuda_failure} or @code{interrupted}.
##
## Example:
##
## @example
## @group
## m = 50; batch = 1000;
## t = linspace (0, 1, m)';
## X = repmat ([ones(m, 1), t, t.^2], 1, 1, batch);   # quadratic fits
## Y = 1 + 2 * t + 0.1 * randn (m, batch);
## [beta, rank, rss] = bsym_lsfit (X, Y);             # beta is 3 x batch
## @end group
## @end example
##
## @seealso{bsym_solve, bsym_plan, mldivide, pinv, lscov}
## @end deftypefn

function [beta, varargout] = bsym_lsfit (X, Y, varargin)

  if (nargin < 2)
    print_usage ();
  endif
  ## The gateway checks types, shapes and options, raises the errors and the
  ## warning (it warns only when it is not asked for info).
  [beta, varargout{1:nargout-1}] = __bsym__ ("lsfit", X, Y, varargin{:});

endfunction

## ---- test helpers --------------------------------------------------------

## Checks the fit (beta, rank, rss) of the batch (X, Y, w) (w m x batch,
## or [] for ones) against the truncated spectrum of the normal equations
## G = Xw' * Xw, C = Xw' * yw (Xw = sqrt (w) .* X), formed in double:
## the ranks, and per system
##   ||beta - ref||_inf <= 10 m eps kappa (||ref|| + kappa ||C|| / ||G||)
## (kappa: G's kept condition, see truncated_solution), and the rss against
## sum (w .* (y - X * beta).^2) recomputed in double from the returned beta.
## Returns the references, p x k x batch.
%!function ref = check_fit (X, Y, w, beta, rank, rss, rcond = 1e-5)
%!  [m, p, nb] = size (X);
%!  Ys = reshape (double (Y), m, [], nb);
%!  k = columns (Ys);
%!  bs = reshape (double (beta), p, k, nb);
%!  assert (size (rss), [k nb]);
%!  u = eps (class (beta));
%!  ref = zeros (p, k, nb);
%!  for s = 1:nb
%!    ws = ones (m, 1);
%!    if (! isempty (w))
%!      ws = double (w(:,s));
%!    endif
%!    Xw = sqrt (ws) .* double (X(:,:,s));
%!    yw = sqrt (ws) .* Ys(:,:,s);
%!    G = Xw' * Xw;
%!    C = Xw' * yw;
%!    [ref(:,:,s), r, kappa, margin] = truncated_solution (G, C, rcond);
%!    assert (margin >= 4, "system %d: the test's G has an eigenvalue near the threshold", s);
%!    assert (rank(s) == r, "system %d: rank %d, expected %d", s, rank(s), r);
%!    err = norm (bs(:,:,s) - ref(:,:,s), inf);
%!    bound = 10 * max (m, p) * u * kappa * (norm (ref(:,:,s), inf) + kappa * norm (C, inf) / max (norm (G), realmin));
%!    assert (err <= bound, "m = %d, p = %d, system %d: error %g > %g", m, p, s, err, bound);
%!    R = yw - Xw * bs(:,:,s);
%!    rs = sum (R .^ 2, 1)';
%!    scale = max (abs (yw), [], 1)' + norm (Xw, inf) * max (abs (bs(:,:,s)), [], 1)';
%!    rbound = 10 * m * u * scale .* (2 * sqrt (rs) + 10 * m * u * scale) * sqrt (m);
%!    assert (all (abs (double (rss(:,s)) - rs) <= rbound), "system %d: rss off", s);
%!  endfor
%!endfunction

## A batch of nb random m x p design matrices of class cls with singular
## values in [1, 10] (cond <= 10), m >= p.
%!function X = design (m, p, nb, cls = "double")
%!  X = zeros (m, p, nb);
%!  for s = 1:nb
%!    [U, ~] = qr (randn (m, p), 0);
%!    [V, ~] = qr (randn (p));
%!    X(:,:,s) = U * diag (1 + 9 * rand (p, 1)) * V';
%!  endfor
%!  X = cast (X, cls);
%!endfunction

%!shared sizes
%! sizes = [1 1; 3 1; 5 2; 10 3; 40 8; 100 16; 70 33; 200 64; 300 100];   # [m p]

## ---- full rank: as X \ y --------------------------------------------------------

%!test  # double and single, one response per system
%! randn ("state", 1);
%! rand ("state", 1);
%! for cls = {"double", "single"}
%!   for i = 1:rows (sizes)
%!     m = sizes(i,1); p = sizes(i,2);
%!     X = design (m, p, 4, cls{1});
%!     Y = cast (randn (m, 4), cls{1});
%!     [beta, rank, rss, info, method, plan] = bsym_lsfit (X, Y);
%!     assert (class (beta), cls{1});
%!     assert (class (rss), cls{1});
%!     assert (size (beta), [p 4]);
%!     assert (info, zeros (1, 4, "int32"));
%!     assert (rank, p * ones (1, 4));
%!     assert (method, repmat ({"ldlt"}, 1, 4));   # G positive definite: certified
%!     assert (plan.systems, 4);
%!     check_fit (X, Y, [], beta, rank, rss);
%!     u = eps (cls{1});
%!     for s = 1:4
%!       Xs = double (X(:,:,s));
%!       ref = Xs \ double (Y(:,s));
%!       assert (norm (double (beta(:,s)) - ref) <= 10 * m * u * cond (Xs)^2 * norm (ref),
%!               "%s, m = %d, p = %d, system %d: not X \\ y", cls{1}, m, p, s);
%!       assert (abs (double (rss(s)) - norm (double (Y(:,s)) - Xs * ref)^2)
%!               <= 100 * m * u * cond (Xs)^2 * norm (double (Y(:,s)))^2);
%!     endfor
%!   endfor
%! endfor

%!test  # conditioned near the threshold's square root: still full rank
%! randn ("state", 2);
%! m = 30; p = 5;
%! [U, ~] = qr (randn (m, p), 0);
%! [V, ~] = qr (randn (p));
%! X = U * diag ([1 0.5 0.1 0.05 0.01]) * V';      # cond 100: G's cond 1e4
%! y = randn (m, 1);
%! [beta, rank, rss, info, method] = bsym_lsfit (X, y);
%! assert (rank, p);
%! assert (info, int32 (0));
%! ref = X \ y;
%! assert (norm (beta - ref) <= 10 * m * eps * 1e4 * norm (ref));

%!test  # a matrix X is a batch of one, an m x k Y k responses
%! randn ("state", 3);
%! rand ("state", 3);
%! X = design (12, 4, 1);
%! Y = randn (12, 3);
%! [beta, rank, rss, info] = bsym_lsfit (X, Y);
%! assert (size (beta), [4 3]);
%! assert (size (rss), [3 1]);
%! assert (rank, 4);
%! assert (info, int32 (0));
%! check_fit (X, Y, [], beta, rank, rss);
%! assert (beta, X \ Y, 1e-12);
%! [b1, r1, rss1] = bsym_lsfit (X, Y(:,2));
%! assert (size (b1), [4 1]);
%! assert (size (rss1), [1 1]);
%! assert (b1, beta(:,2), 1e-13);

%!test  # several responses per system: m x k x batch
%! randn ("state", 4);
%! rand ("state", 4);
%! for cls = {"double", "single"}
%!   X = design (20, 5, 6, cls{1});
%!   Y = cast (randn (20, 3, 6), cls{1});
%!   [beta, rank, rss, info] = bsym_lsfit (X, Y);
%!   assert (size (beta), [5 3 6]);
%!   assert (size (rss), [3 6]);
%!   assert (class (rss), cls{1});
%!   check_fit (X, Y, [], beta, rank, rss);
%!   ## the same as fitting the columns one by one
%!   b2 = bsym_lsfit (X, reshape (Y(:,2,:), 20, 6));
%!   assert (reshape (beta(:,2,:), 5, 6), b2, 10 * 20 * eps (cls{1}) * 100 * max (abs (b2(:))));
%! endfor

%!test  # mixed precision: any single input means single
%! randn ("state", 5);
%! rand ("state", 5);
%! X = design (8, 3, 2);
%! Y = randn (8, 2);
%! assert (class (bsym_lsfit (single (X), Y)), "single");
%! assert (class (bsym_lsfit (X, single (Y))), "single");
%! assert (class (bsym_lsfit (X, Y, "weights", single (ones (8, 1)))), "single");
%! [b, r, rss] = bsym_lsfit (X, Y, "weights", single (ones (8, 2)));
%! assert (class (rss), "single");
%! check_fit (single (X), single (Y), [], b, r, rss);

## ---- weights ---------------------------------------------------------------------

%!test  # weighted: the weighted normal solution, sqrt (w) scaling
%! randn ("state", 10);
%! rand ("state", 10);
%! for cls = {"double", "single"}
%!   for i = 2:rows (sizes)
%!     m = sizes(i,1); p = sizes(i,2);
%!     X = design (m, p, 3, cls{1});
%!     Y = cast (randn (m, 3), cls{1});
%!     w = cast (0.5 + rand (m, 3), cls{1});              # in [0.5, 1.5]
%!     [beta, rank, rss, info] = bsym_lsfit (X, Y, "weights", w);
%!     assert (info, zeros (1, 3, "int32"));
%!     assert (rank, p * ones (1, 3));
%!     check_fit (X, Y, w, beta, rank, rss);
%!     u = eps (cls{1});
%!     for s = 1:3
%!       sw = sqrt (double (w(:,s)));
%!       Xw = sw .* double (X(:,:,s));
%!       ref = Xw \ (sw .* double (Y(:,s)));
%!       assert (norm (double (beta(:,s)) - ref) <= 10 * m * u * cond (Xw)^2 * norm (ref));
%!     endfor
%!   endfor
%! endfor

%!test  # one m x 1 column of weights for every system; scaling; zero weights
%! randn ("state", 11);
%! rand ("state", 11);
%! m = 15; p = 4;
%! X = design (m, p, 5);
%! Y = randn (m, 5);
%! w = rand (m, 1) + 0.1;
%! [b1, r1, rss1] = bsym_lsfit (X, Y, "weights", w);
%! [b2, r2, rss2] = bsym_lsfit (X, Y, "weights", repmat (w, 1, 5));
%! assert (b1, b2);
%! assert (rss1, rss2);
%! check_fit (X, Y, repmat (w, 1, 5), b1, r1, rss1);
%! [b3, r3, rss3] = bsym_lsfit (X, Y, "weights", 3 * w);   # beta unchanged, rss x 3
%! assert (b3, b1, 1e-12 * max (abs (b1(:))));
%! assert (rss3, 3 * rss1, 1e-12 * max (rss1));
%! [b4, ~, rss4] = bsym_lsfit (X, Y, "weights", ones (m, 1));
%! [b5, ~, rss5] = bsym_lsfit (X, Y, "weights", []);       # [] = no weights
%! [b6, ~, rss6] = bsym_lsfit (X, Y);
%! assert (b4, b6, 1e-14 * max (abs (b6(:))));
%! assert (b5, b6);
%! assert (rss5, rss6);
%! w0 = ones (m, 1);                                      # zero weight: row dropped
%! w0([2 7 11]) = 0;
%! [b7, r7, rss7] = bsym_lsfit (X, Y, "weights", w0);
%! keep = w0 > 0;
%! [b8, r8, rss8] = bsym_lsfit (X(keep,:,:), Y(keep,:));
%! assert (b7, b8, 1e-12 * max (abs (b8(:))));
%! assert (rss7, rss8, 1e-12 * max (rss8));

## ---- rank-deficient: the minimum-norm coefficients, pinv (X) * y ------------------

%!test  # a duplicated column
%! randn ("state", 20);
%! rand ("state", 20);
%! for cls = {"double", "single"}
%!   for p = [2 3 6 16]
%!     m = 3 * p;
%!     X = design (m, p, 4, cls{1});
%!     X(:,p,:) = X(:,1,:);                              # column p = column 1
%!     Y = cast (randn (m, 4), cls{1});
%!     [beta, rank, rss, info, method] = bsym_lsfit (X, Y);
%!     assert (info, zeros (1, 4, "int32"));
%!     assert (rank, (p - 1) * ones (1, 4));
%!     assert (method, repmat ({"eigen"}, 1, 4));
%!     check_fit (X, Y, [], beta, rank, rss);
%!     u = eps (cls{1});
%!     for s = 1:4
%!       Xs = double (X(:,:,s));
%!       ref = pinv (Xs) * double (Y(:,s));
%!       assert (norm (double (beta(:,s)) - ref) <= 1e4 * m * u * norm (ref),
%!               "%s, p = %d, system %d: not pinv (X) * y", cls{1}, p, s);
%!       assert (beta(1,s), beta(p,s), 1e4 * m * u * norm (ref));   # minimum norm: split evenly
%!       assert (abs (double (rss(s)) - norm (double (Y(:,s)) - Xs * ref)^2)
%!               <= 1e4 * m * u * norm (double (Y(:,s)))^2);
%!     endfor
%!   endfor
%! endfor

%!test  # fewer observations than coefficients (m < p), weighted too
%! randn ("state", 21);
%! rand ("state", 21);
%! for cls = {"double", "single"}
%!   for mp = [1 2; 3 5; 4 10; 10 30]'
%!     m = mp(1); p = mp(2);
%!     X = permute (design (p, m, 3, cls{1}), [2 1 3]);   # m x p, singular values in [1, 10]
%!     Y = cast (randn (m, 2, 3), cls{1});
%!     w = cast (0.5 + rand (m, 3), cls{1});
%!     [beta, rank, rss, info] = bsym_lsfit (X, Y, "weights", w);
%!     assert (size (beta), [p 2 3]);
%!     assert (info, zeros (1, 3, "int32"));
%!     assert (rank, m * ones (1, 3));
%!     check_fit (X, Y, w, beta, rank, rss);
%!     u = eps (cls{1});
%!     for s = 1:3
%!       sw = sqrt (double (w(:,s)));
%!       Xw = sw .* double (X(:,:,s));
%!       ref = pinv (Xw) * (sw .* double (Y(:,:,s)));
%!       assert (norm (double (beta(:,:,s)) - ref, inf) <= 1e4 * p * u * norm (ref, inf));
%!       assert (double (rss(:,s)), zeros (2, 1), 1e4 * p * u * norm (double (Y(:,:,s)), inf)^2);  # interpolates
%!     endfor
%!   endfor
%! endfor

%!test  # "rcond" caps cond (X) near 1 / sqrt (rcond)
%! randn ("state", 22);
%! m = 40; p = 4;
%! [U, ~] = qr (randn (m, p), 0);
%! [V, ~] = qr (randn (p));
%! X = U * diag ([1 0.1 1e-2 1e-4]) * V';           # G: 1, 1e-2, 1e-4, 1e-8
%! y = randn (m, 1);
%! [beta, rank] = bsym_lsfit (X, y);                 # 1e-8 < 1e-5: dropped
%! assert (rank, 3);
%! assert (norm (beta - pinv (X, 1e-3) * y) <= 1e-8 * norm (beta));
%! [beta, rank] = bsym_lsfit (X, y, "rcond", 1e-3);  # 1e-4 dropped too
%! assert (rank, 2);
%! assert (norm (beta - pinv (X, 3e-2) * y) <= 1e-10 * norm (beta));
%! [beta, rank] = bsym_lsfit (X, y, "rcond", 1e-10, "method", "eigen");
%! assert (rank, 4);
%! assert (norm (beta - X \ y) <= 1e-6 * norm (beta));   # cond (G) 1e8

%!test  # the threshold is not scale invariant: columns in different units
%! randn ("state", 24);
%! X = [ones(50, 1), 1e4 * randn(50, 1)];           # cond (X) about 1e4
%! y = 2 + 3e-4 * X(:,2) + 0.1 * randn (50, 1);
%! [beta, rank] = bsym_lsfit (X, y);                 # G's cond about 1e8 > 1e5
%! assert (rank, 1);
%! [beta, rank] = bsym_lsfit (X, y, "rcond", 1e-12);
%! assert (rank, 2);
%! assert (norm (beta - X \ y) <= 1e-6 * norm (beta));
%! s = [1, 1e-4];                                    # or scale the columns
%! [beta, rank] = bsym_lsfit (X .* s, y);
%! assert (rank, 2);
%! assert (norm (beta .* s' - X \ y) <= 1e-10 * norm (beta .* s'));

%!test  # methods: "eigen" always; "ldlt"/"tridiag" break down on a rank-deficient X
%! randn ("state", 23);
%! rand ("state", 23);
%! X = design (10, 3, 2);
%! Y = randn (10, 2);
%! for method = {"eigen", "tridiag", "ldlt"}
%!   [beta, rank, rss, info, used] = bsym_lsfit (X, Y, "method", method{1});
%!   assert (used, repmat (method, 1, 2));
%!   assert (rank, [3 3]);
%!   check_fit (X, Y, [], beta, rank, rss);
%! endfor
%! X(:,3,2) = 0;                                     # system 2: rank 2
%! [beta, rank, rss, info] = bsym_lsfit (X, Y, "method", "ldlt");
%! assert (info(1), int32 (0));
%! assert (info(2) > 0);
%! assert (all (isnan (beta(:,2))));
%! assert (isnan (rss(2)) && isnan (rank(2)));
%! [beta, rank, rss, info, used] = bsym_lsfit (X, Y);
%! assert (info, int32 ([0 0]));
%! assert (rank, [3 2]);
%! assert (used, {"ldlt", "eigen"});
%! assert (abs (beta(3,2)) <= 1e-12 * norm (beta(:,2)));   # no weight on the zero column
%! check_fit (X, Y, [], beta, rank, rss);

## ---- the plan and tol ----------------------------------------------------------------

%!test  # the plan round trip; "tol"
%! randn ("state", 30);
%! rand ("state", 30);
%! X = design (30, 4, 10);
%! Y = randn (30, 10);
%! [~, ~, ~, ~, used, plan] = bsym_lsfit (X, Y);
%! assert (used, repmat ({"ldlt"}, 1, 10));     # certified LDL', no history needed
%! assert ([plan.calls plan.systems plan.not_spd plan.fallback], [1 10 0 0]);
%! assert (plan.next, "ldlt");
%! [beta, rank, rss, ~, used, plan] = bsym_lsfit (X, Y, "plan", plan);
%! assert (used, repmat ({"ldlt"}, 1, 10));
%! assert (plan.systems, 20);
%! check_fit (X, Y, [], beta, rank, rss);
%! house = bsym_plan (setfield (setfield (setfield (bsym_plan (), "systems", 10), "not_spd", 10), "last_systems", 10));
%! assert (house.next, "tridiag");              # a history of indefinite systems
%! [beta2, rank2, rss2, ~, used, plan2] = bsym_lsfit (X, Y, "plan", house);
%! assert (used, repmat ({"tridiag"}, 1, 10));  # started with Householder
%! assert (rank2, rank);
%! assert ([plan2.systems plan2.not_spd plan2.fallback], [20 10 0]);
%! assert (plan2.next, "ldlt");                 # 10 of 20: not more than half
%! check_fit (X, Y, [], beta2, rank2, rss2);
%! [beta, rank, rss, ~, used] = bsym_lsfit (X, Y, "tol", 1e-300);   # every check fails
%! assert (unique (used), {"eigen"});
%! assert (rank, 4 * ones (1, 10));
%! check_fit (X, Y, [], beta, rank, rss);
%! X(:,4,:) = X(:,1,:);                   # all rank-deficient, with no history:
%! [~, rank, ~, ~, used, plan] = bsym_lsfit (X, Y);     # not certified, found by Sturm counts
%! assert (unique (used), {"eigen"});
%! assert (rank, 3 * ones (1, 10));
%! assert (plan.next, "eigen");
%! [beta, rank, rss, ~, used, plan] = bsym_lsfit (X, Y, "plan", plan);
%! assert (unique (used), {"eigen"});
%! check_fit (X, Y, [], beta, rank, rss);

## ---- per-system failures ---------------------------------------------------------------

%!test  # one bad system spoils only itself
%! randn ("state", 40);
%! rand ("state", 40);
%! for cls = {"double", "single"}
%!   X = design (8, 3, 6, cls{1});
%!   Y = cast (randn (8, 6), cls{1});
%!   w = ones (8, 6, cls{1});
%!   X(2,3,2) = NaN;
%!   Y(5,3) = Inf;
%!   w(4,4) = NaN;
%!   w(1,5) = Inf;
%!   [beta, rank, rss, info, used, plan] = bsym_lsfit (X, Y, "weights", w);
%!   assert (info, int32 ([0 -1 -1 -1 -1 0]));
%!   assert (all (isnan (beta(:,2:5))(:)));
%!   assert (all (isnan (rss(2:5))));
%!   assert (rank, [3 NaN NaN NaN NaN 3]);
%!   assert (used, {"ldlt", "", "", "", "", "ldlt"});
%!   assert (plan.systems, 2);
%!   check_fit (X(:,:,[1 6]), Y(:,[1 6]), w(:,[1 6]), beta(:,[1 6]), rank([1 6]), rss([1 6]));
%! endfor

%!warning id=batchsym:fitFailed bsym_lsfit ([1; NaN], [1; 2]);
%!warning <1 of 2 systems could not be fitted> [b, r, rss] = bsym_lsfit (cat (3, [1; 2], [1; NaN]), [1 1; 2 2]);

%!test  # no warning with the info output
%! warning ("error", "batchsym:fitFailed", "local");
%! [b, r, rss, info] = bsym_lsfit ([1; NaN], [1; 2]);
%! assert (info, int32 (-1));
%! assert (isnan (b));

## ---- empty problems ------------------------------------------------------------------

%!test
%! [beta, rank, rss, info, used] = bsym_lsfit (zeros (5, 3, 0), zeros (5, 0));
%! assert (size (beta), [3 0]);
%! assert (size (rank), [1 0]);
%! assert (size (rss), [1 0]);
%! assert (size (info), [1 0]);
%! assert (size (used), [1 0]);
%! [beta, rank, rss] = bsym_lsfit (zeros (5, 3, 0), zeros (5, 2, 0));
%! assert (size (beta), [3 2 0]);
%! assert (size (rss), [2 0]);
%! [beta, rank, rss, info] = bsym_lsfit (zeros (0, 2), zeros (0, 1));  # m = 0: G = 0
%! assert (beta, [0; 0]);
%! assert (info, int32 (0));
%! assert (rank, 0);
%! assert (rss, 0);

## ---- devices ----------------------------------------------------------------------------

%!test  # the CPU on request; "gpu" solves when a GPU is usable, else says why not
%! randn ("state", 50);
%! rand ("state", 50);
%! X = design (20, 5, 40);
%! X(:,5,1:10) = X(:,2,1:10);
%! Y = randn (20, 40);
%! [beta, rank, rss] = bsym_lsfit (X, Y, "device", "cpu");
%! check_fit (X, Y, [], beta, rank, rss);
%! if (bsym_gpu_available ())
%!   for cls = {"double", "single"}
%!     [beta, rank, rss, info] = bsym_lsfit (cast (X, cls{1}), Y, "device", "gpu");
%!     assert (class (beta), cls{1});
%!     assert (info, zeros (1, 40, "int32"));
%!     check_fit (cast (X, cls{1}), cast (Y, cls{1}), [], beta, rank, rss);
%!   endfor
%! else
%!   try
%!     bsym_lsfit (X, Y, "device", "gpu");
%!     error ("no error for device gpu without a GPU");
%!   catch err
%!     assert (err.identifier, "batchsym:no_device");
%!     assert (strncmp (err.message, "bsym_lsfit: ", 12));
%!   end_try_catch
%! endif

## ---- errors -----------------------------------------------------------------------------

%!error <Invalid call> bsym_lsfit ()
%!error <Invalid call> bsym_lsfit (ones (3, 2))
%!error <returns at most six outputs> [a, b, c, d, e, f, g] = bsym_lsfit (ones (3, 2), ones (3, 1))
%!error <bsym_lsfit: X must be a real, full double or single array \(got cell\)> bsym_lsfit ({1}, 1)
%!error <X must be a real.* \(got complex double\)> bsym_lsfit (complex (ones (3, 2)), ones (3, 1))
%!error <X must be a real.* \(got sparse double\)> bsym_lsfit (sparse (ones (3, 2)), ones (3, 1))
%!error <X must be a real.* \(got int32\)> bsym_lsfit (int32 (ones (3, 2)), ones (3, 1))
%!error <X must be a real.* \(got logical\)> bsym_lsfit (true (3, 2), ones (3, 1))
%!error <X must have at least one column \(got 4 x 0\)> bsym_lsfit (zeros (4, 0), ones (4, 1))
%!error id=batchsym:bad_argument bsym_lsfit (zeros (4, 0, 0), ones (4, 0))
%!error <X must be an m x p matrix or an m x p x batch array \(got 4 dimensions\)> bsym_lsfit (ones (3, 2, 2, 2), ones (3, 2, 2))
%!error <Y must be a real, full double or single array \(got char\)> bsym_lsfit (ones (3, 2), "abc")
%!error <Y must be a real.* \(got complex double\)> bsym_lsfit (ones (3, 2), [1; 2; 3i])
%!error <Y has 2 rows but the systems in X are 3 x 2> bsym_lsfit (ones (3, 2), [1; 2])
%!error id=batchsym:bad_argument bsym_lsfit (ones (3, 2), [1 2 3])
%!error <Y has 2 columns but X holds 4 systems \(give m x batch, or m x k x batch for k responses each\)> bsym_lsfit (ones (3, 2, 4), ones (3, 2))
%!error <size \(Y, 3\) is 3 but X holds 4 systems> bsym_lsfit (ones (3, 2, 4), ones (3, 1, 3))
%!error <Y must be m x batch, m x k x batch, or m x k for a single system \(got 4 dimensions\)> bsym_lsfit (ones (3, 2), ones (3, 1, 1, 2))
## A negative weight fails its system (info -1, NaN), as a NaN weight does;
## the others are fitted; the same with one weight column shared by all.
%!test
%! X = repmat ([1 0; 0 1; 1 1], [1 1 3]);
%! Y = X(:,:,1) * [1 2 3; 4 5 6];
%! W = ones (3, 3);
%! W(2, 2) = -1;
%! [beta, rank, rss, info] = bsym_lsfit (X, Y, "weights", W);
%! assert (info, int32 ([0 -1 0]));
%! assert (beta(:, [1 3]), [1 3; 4 6], 1e-12);
%! assert (all (isnan (beta(:, 2))));
%! [~, ~, ~, info] = bsym_lsfit (X, Y, "weights", single ([1; -0.5; 1]));
%! assert (info, int32 ([-1 -1 -1]));
%! [~, ~, ~, info] = bsym_lsfit (X, Y, "weights", [1; 1; -eps]);
%! assert (info, int32 ([-1 -1 -1]));
%!warning <bsym_lsfit: 1 of 3 systems could not be fitted> bsym_lsfit (repmat ([1 0; 0 1; 1 1], [1 1 3]), ones (3, 3), "weights", [1 1 1; 1 -Inf 1; 1 1 1]);
%!error <option 'weights' must be m x batch = 3 x 2, or m x 1 for the same weights in every system \(got 2 x 2\)> bsym_lsfit (ones (3, 2, 2), ones (3, 2), "weights", ones (2, 2))
%!error <option 'weights' must be m x batch = 3 x 2.* \(got 1 x 3\)> bsym_lsfit (ones (3, 2, 2), ones (3, 2), "weights", ones (1, 3))
%!error <option 'weights' must be m x batch = 3 x 2.* \(got 3 x 3\)> bsym_lsfit (ones (3, 2, 2), ones (3, 2), "weights", ones (3, 3))
%!error <option 'weights' must be m x batch = 3 x 1.* \(got an array of more than two dimensions, 3 x 2\)> bsym_lsfit (ones (3, 2), ones (3, 1), "weights", ones (3, 1, 2))
%!error id=batchsym:bad_argument bsym_lsfit (ones (3, 2), ones (3, 1), "weights", ones (1, 3))
%!error <option 'weights' must be a real, full double or single array \(got complex double\)> bsym_lsfit (ones (3, 2), ones (3, 1), "weights", [1; 1; 1i])
%!error <option 'weights' must be a real, full double or single array \(got cell\)> bsym_lsfit (ones (3, 2), ones (3, 1), "weights", {1})
%!error <option 'weights' must be a real, full double or single array \(got char\)> bsym_lsfit (ones (3, 2), ones (3, 1), "weights", "abc")
%!error <option 'weights' must be a real, full double or single array \(got logical\)> bsym_lsfit (ones (3, 2), ones (3, 1), "weights", true (3, 1))
%!error <"bunch-kaufman" is not for least squares> bsym_lsfit (ones (3, 2), ones (3, 1), "method", "bunch-kaufman")
%!error <option 'method' must be one of 'ldlt', 'tridiag', 'eigen', 'auto', 'bunch-kaufman', 'aasen' \(got 'qr'\)> bsym_lsfit (ones (3, 2), ones (3, 1), "method", "qr")
%!error <bsym_lsfit: rcond must be a single number in \[0, 1\) \(got 2\)> bsym_lsfit (ones (3, 2), ones (3, 1), "rcond", 2)
%!error <option 'rcond' must be a real scalar> bsym_lsfit (ones (3, 2), ones (3, 1), "rcond", "small")
%!error <bsym_lsfit: tol must be a single positive finite number, or left out for the default 16 n eps \(got 0\)> bsym_lsfit (ones (3, 2), ones (3, 1), "tol", 0)
%!error <option 'tol' must be a real scalar> bsym_lsfit (ones (3, 2), ones (3, 1), "tol", [1 2])
%!error <option 'plan' must be a plan> bsym_lsfit (ones (3, 2), ones (3, 1), "plan", "ldlt")
%!error <option 'plan' lacks the field 'systems'> bsym_lsfit (ones (3, 2), ones (3, 1), "plan", rmfield (bsym_plan (), "systems"))
%!error <option 'device' must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_lsfit (ones (3, 2), ones (3, 1), "device", "tpu")
%!error <unknown option 'uplo' \(options: 'method', 'device', 'weights', 'rcond', 'tol', 'plan', 'gpus'\)> bsym_lsfit (ones (3, 2), ones (3, 1), "uplo", "L")
%!error id=batchsym:bad_argument bsym_lsfit (ones (3, 2), ones (3, 1), "weight", ones (3, 1))
%!error <options must come in name/value pairs> bsym_lsfit (ones (3, 2), ones (3, 1), "weights")
%!error <an option name must be a string \(got double\)> bsym_lsfit (ones (3, 2), ones (3, 1), 1, 2)

## ---- help -------------------------------------------------------------------------------

%!test  # the help text is valid Texinfo (where makeinfo is installed)
%! if (! isempty (file_in_path (getenv ("PATH"), makeinfo_program ())))
%!   [~, status] = __makeinfo__ (get_help_text ("bsym_lsfit"), "plain text");
%!   assert (status, 0);
%! endif
%!assert (! isempty (strfind (get_help_text ("bsym_lsfit"), "least-squares")))

## 'gpus': parsed once for every function (bsym_oct_parse_options; its every
## error is tested in bsym_solve.m): here, that it reaches Octave's and the
## core's checks, and that on the CPU it changes nothing.
%!error <option 'gpus' must be a vector of GPU device ids, whole numbers such as \[0 1\], or \[\] for every visible GPU \(got char> bsym_lsfit (ones (3, 2) + eye (3, 2), ones (3, 1), "gpus", "0")
%!error <gpus names device 0 twice> bsym_lsfit (ones (3, 2) + eye (3, 2), ones (3, 1), "gpus", [0 0])

%!test  # on the CPU, 'gpus' changes no result
%! X = repmat ([1 0; 1 1; 1 2; 1 4], [1 1 3]); Y = [1 2 3; 2 2 2; 3 1 4; 5 0 1];
%! [b0, r0, s0] = bsym_lsfit (X, Y, "device", "cpu");
%! [b, r, s] = bsym_lsfit (X, Y, "device", "cpu", "gpus", 0);
%! assert (isequal (b, b0) && isequal (r, r0) && isequal (s, s0));
