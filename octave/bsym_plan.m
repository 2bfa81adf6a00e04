## -*- texinfo -*-
## @deftypefn  {} {@var{plan} =} bsym_plan ()
## @deftypefnx {} {@var{plan} =} bsym_plan (@var{plan})
## A plan for the automatic solves of @code{bsym_solve} and @code{bsym_lsfit}
## (@qcode{"method"} @qcode{"auto"}): what earlier calls found, so that later
## calls on similar batches start with the step that suited them.
##
## With no argument, a plan with no history.  With a @var{plan} (as returned
## by @code{bsym_plan} or by the @var{plan} output of @code{bsym_solve} and
## @code{bsym_lsfit}), the same plan, checked, with @code{next} recomputed.
## A plan is a plain value: pass it with @code{"plan", @var{plan}} and take
## the updated one back from the @var{plan} output; nothing is kept between
## calls otherwise.  Its fields:
##
## @table @code
## @item calls
## automatic calls recorded;
## @item systems
## systems seen by them;
## @item not_spd
## of which found with an eigenvalue <= 0;
## @item fallback
## of which needed the truncated spectrum (*);
## @item last_systems
## the latest call's systems @dots{}
## @item last_fallback
## @dots{} and how many of them needed it (*);
## @item next
## the step the next automatic call with this plan starts with (read only:
## it is recomputed from the counts above), the first of these rules that
## applies:
## @table @asis
## @item @qcode{"eigen"}
## more than half of the last call's systems needed the truncated spectrum
## (@code{2 * last_fallback > last_systems}): the truncated spectrum for
## every system;
## @item @qcode{"tridiag"}
## more than half of the systems seen were not positive definite
## (@code{2 * not_spd > systems}), so that LDL' would fail for most:
## Householder + PCR, with its checks, then the truncated spectrum for the
## systems that fail them;
## @item @qcode{"ldlt"}
## otherwise, no history included: LDL', certified per system (see
## @code{bsym_solve}); the systems it does not certify (indefinite,
## ill-conditioned, or near the threshold) go on to Householder + PCR and
## then, failing its checks, to the truncated spectrum.
## @end table
## @end table
##
## Every system is checked whatever the plan: the LDL' start through the
## signs of the pivots of @code{A - sigma * I}, the Householder start
## through Sturm counts on T, the truncated spectrum through the eigenvalues
## themselves; so indefinite and ill-conditioned systems are found (and
## counted) in every call, and the same systems end up solved by
## @qcode{"eigen"} after an LDL' or a Householder start.  The plan only
## chooses where a call starts, sparing the work of a step that would fail
## for most systems.  A plan with @code{not_spd} more than half of
## @code{systems} (and @code{last_fallback} at most half of
## @code{last_systems}) starts a call with Householder.
##
## (*) Started with @qcode{"ldlt"} or @qcode{"tridiag"}: solved by the
## truncated spectrum (@qcode{"eigen"}) after the checks.  Started with
## @qcode{"eigen"}: a system whose truncation dropped an eigenvalue (rank <
## @var{n}).  The counts are doubles (non-negative integers); systems with
## @var{info} @code{!=} 0 are not counted.  Calls with another method than
## @qcode{"auto"} leave the plan as it was.  To force a method for every
## system, give @qcode{"method"} instead.
##
## A @var{plan} argument or @qcode{"plan"} option that is not such a struct
## (a missing or non-integer count, or counts that contradict each other)
## raises @code{batchsym:bad_argument}, naming the plan; @code{[]} stands
## for a plan with no history.
##
## Example:
##
## @example
## @group
## plan = bsym_plan ();
## for i = 1:10
##   A = ...; B = ...;                       # a batch of similar systems
##   [X, info, plan] = bsym_solve (A, B, "plan", plan);
## endfor
## plan.next                                 # how the next call starts
## @end group
## @end example
##
## @seealso{bsym_solve, bsym_lsfit}
## @end deftypefn

function plan = bsym_plan (plan)

  if (nargin == 0)
    plan = __bsym__ ("plan");
  else
    plan = __bsym__ ("plan", plan);
  endif

endfunction

## ---- test helpers --------------------------------------------------------

## A batch of nb random SPD n x n matrices (eigenvalues in [n, about 5n]).
%!function A = spd (n, nb)
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    M = randn (n);
%!    S = M * M' + n * eye (n);
%!    A(:,:,k) = (S + S') / 2;
%!  endfor
%!endfunction

## A batch of nb symmetric n x n matrices Q diag (lambda) Q' with the given
## eigenvalues lambda (a column), Q random orthogonal for each.
%!function A = with_eigenvalues (lambda, nb)
%!  n = numel (lambda);
%!  A = zeros (n, n, nb);
%!  for k = 1:nb
%!    [Q, ~] = qr (randn (n));
%!    S = Q * diag (lambda) * Q';
%!    A(:,:,k) = (S + S') / 2;
%!  endfor
%!endfunction

## ---- the value ---------------------------------------------------------------

%!test  # a fresh plan
%! p = bsym_plan ();
%! assert (isstruct (p) && isscalar (p));
%! assert (fieldnames (p), {"calls"; "systems"; "not_spd"; "fallback";
%!                          "last_systems"; "last_fallback"; "next"});
%! for f = {"calls", "systems", "not_spd", "fallback", "last_systems", "last_fallback"}
%!   assert (p.(f{1}), 0);
%!   assert (class (p.(f{1})), "double");
%! endfor
%! assert (p.next, "ldlt");                   # no history: the certified LDL'
%! assert (bsym_plan ([]), p);                 # [] is a plan with no history
%! assert (bsym_plan (p), p);

%!test  # 'next' follows the counts (bsym_plan_start's rule)
%! p = bsym_plan ();
%! p.calls = 3; p.systems = 30; p.last_systems = 10;
%! assert (bsym_plan (p).next, "ldlt");        # all SPD, no fallback
%! p.not_spd = 1;
%! assert (bsym_plan (p).next, "ldlt");        # a few not SPD: still LDL' first
%! p.not_spd = 15;
%! assert (bsym_plan (p).next, "ldlt");        # exactly half: not more
%! p.not_spd = 16;
%! assert (bsym_plan (p).next, "tridiag");     # more than half not SPD
%! p.not_spd = 30;
%! assert (bsym_plan (p).next, "tridiag");
%! p.not_spd = 0; p.fallback = 2; p.last_fallback = 2;
%! assert (bsym_plan (p).next, "ldlt");        # a few needed the spectrum
%! p.fallback = 6; p.last_fallback = 6;
%! assert (bsym_plan (p).next, "eigen");       # more than half of the last call
%! p.not_spd = 30;
%! assert (bsym_plan (p).next, "eigen");       # the first rule wins
%! p.not_spd = 0;
%! p.last_fallback = 5;
%! assert (bsym_plan (p).next, "ldlt");        # exactly half: not more
%! p.fallback = 25; p.last_fallback = 4;       # most of all systems, not of the last call
%! assert (bsym_plan (p).next, "ldlt");
%! p.fallback = 6; p.last_fallback = 5;
%! p.next = "eigen";                           # read only: recomputed
%! assert (bsym_plan (p).next, "ldlt");
%! p.mine = "kept?";                           # extra fields are not read
%! q = bsym_plan (p);
%! assert (! isfield (q, "mine"));
%! assert (q.fallback, 6);

%!test  # other numeric classes of the counts are read as their values
%! p = bsym_plan ();
%! p.calls = int32 (2); p.systems = single (8); p.last_systems = uint8 (4);
%! q = bsym_plan (p);
%! assert ([q.calls q.systems q.last_systems], [2 8 4]);
%! assert (class (q.systems), "double");
%! assert (q.next, "ldlt");

## ---- the plan through bsym_solve ----------------------------------------------

%!test  # a fresh plan is updated by one automatic call
%! randn ("state", 1);
%! A = spd (5, 6);
%! B = randn (5, 6);
%! [X, info, p] = bsym_solve (A, B);           # no 'plan': a fresh one, updated
%! assert (info, zeros (1, 6, "int32"));
%! assert ([p.calls p.systems p.not_spd p.fallback p.last_systems p.last_fallback],
%!         [1 6 0 0 6 0]);
%! assert (p.next, "ldlt");
%! [X, info, p] = bsym_solve (A, B, "plan", p);
%! assert ([p.calls p.systems p.last_systems], [2 12 6]);

%!test  # no audit: an LDL' plan stays on LDL' whatever the number of calls
%! p = bsym_plan ();
%! p.systems = 70; p.last_systems = 10;
%! for c = [1 7 8 15 16]
%!   p.calls = c;
%!   assert (bsym_plan (p).next, "ldlt");
%! endfor

%!test  # a history of mostly indefinite systems starts with Householder, and leaves it when it changes
%! ## the certified LDL' reads the signs of the pivots of A - sigma I:
%! ## indefinite systems are found and counted in every call
%! randn ("state", 7);
%! n = 6;
%! indefinite = @(nb) with_eigenvalues (linspace (1, 0.1, n)' .* (-1) .^ (0:n-1)', nb);
%! B = @(nb) randn (n, nb);
%! p = bsym_plan ();
%! [X, info, p, r, m] = bsym_solve (indefinite (5), B (5), "plan", p);
%! assert (info, zeros (1, 5, "int32"));
%! assert (m, repmat ({"tridiag"}, 1, 5));     # LDL' certifies none of them
%! assert (r, n * ones (1, 5));
%! assert ([p.calls p.systems p.not_spd p.fallback], [1 5 5 0]);
%! assert (p.next, "tridiag");                 # more than half not SPD
%! A2 = indefinite (2);
%! B2 = B (2);
%! [X, info, p, r, m] = bsym_solve (A2, B2, "plan", p);
%! assert (m, {"tridiag", "tridiag"});         # started with Householder
%! for k = 1:2                                 # cond 10
%!   assert (norm (A2(:,:,k) * X(:,k) - B2(:,k), inf)
%!           <= 10 * n * eps * (norm (A2(:,:,k), inf) * norm (X(:,k), inf) + norm (B2(:,k), inf)));
%! endfor
%! assert ([p.systems p.not_spd], [7 7]);
%! assert (p.next, "tridiag");
%! ## SPD systems started with Householder: solved by it, and they bring
%! ## not_spd under half
%! [X, info, p, r, m] = bsym_solve (spd (n, 8), B (8), "plan", p);
%! assert (m, repmat ({"tridiag"}, 1, 8));
%! assert ([p.systems p.not_spd p.fallback], [15 7 0]);
%! assert (p.next, "ldlt");                    # 7 of 15: not more than half
%! [X, info, p, r, m] = bsym_solve (indefinite (2), B (2), "plan", p);
%! assert (m, {"tridiag", "tridiag"});         # not certified: Householder
%! assert ([p.systems p.not_spd], [17 9]);
%! assert (p.next, "tridiag");                 # 9 of 17
%! [X, info, p, r, m] = bsym_solve (spd (n, 1), B (1), "plan", p);
%! assert (m, {"tridiag"});
%! assert ([p.systems p.not_spd], [18 9]);
%! assert (p.next, "ldlt");                    # exactly half: not more
%! [X, info, p, r, m] = bsym_solve (spd (n, 3), B (3), "plan", p);
%! assert (m, repmat ({"ldlt"}, 1, 3));
%! assert ([p.calls p.systems p.not_spd p.fallback], [6 21 9 0]);

%!test  # well-conditioned SPD batches: the next call starts with LDL'
%! randn ("state", 2);
%! p = bsym_plan ();
%! for i = 1:3
%!   A = spd (8, 20);
%!   B = randn (8, 20);
%!   [X, info, p, r, m] = bsym_solve (A, B, "plan", p);
%!   assert (all (info == 0));
%!   assert (r, 8 * ones (1, 20));
%!   assert (m, repmat ({"ldlt"}, 1, 20));    # certified, history or not
%!   assert (p.next, "ldlt");
%!   for k = [1 20]
%!     assert (X(:,k), A(:,:,k) \ B(:,k), 100 * 8 * eps * cond (A(:,:,k)) * norm (X(:,k), inf));
%!   endfor
%! endfor
%! assert ([p.calls p.systems p.not_spd p.fallback], [3 60 0 0]);

%!test  # mostly ill-conditioned batches: the next call starts with the spectrum
%! randn ("state", 3);
%! n = 6;
%! p = bsym_plan ();
%! ill = [1; 2; 3; 4; 5; 1e-9];                 # cond 5e9 > 1 / rcond
%! A = cat (3, with_eigenvalues (ill, 15), spd (n, 5));
%! B = randn (n, 20);
%! [X, info, p, r, m] = bsym_solve (A, B, "plan", p);
%! assert (all (info == 0));
%! assert (m(1:15), repmat ({"eigen"}, 1, 15));
%! assert (m(16:20), repmat ({"ldlt"}, 1, 5));
%! assert (r(1:15), 5 * ones (1, 15));
%! assert (r(16:20), n * ones (1, 5));
%! assert ([p.systems p.fallback p.last_systems p.last_fallback], [20 15 20 15]);
%! assert (p.next, "eigen");
%! [X, info, p2, r, m] = bsym_solve (A, B, "plan", p);  # starts with EIGEN for all
%! assert (unique (m), {"eigen"});
%! assert (r, [5 * ones(1, 15), n * ones(1, 5)]);
%! assert ([p2.calls p2.systems p2.last_systems p2.last_fallback], [2 40 20 15]);
%! assert (p2.next, "eigen");
%! ## then a well-conditioned batch: no eigenvalue dropped, back to LDL'
%! [X, info, p3, r, m] = bsym_solve (spd (n, 10), randn (n, 10), "plan", p2);
%! assert (unique (m), {"eigen"});             # started with EIGEN ...
%! assert (r, n * ones (1, 10));              # ... at full rank: no fallback
%! assert ([p3.last_systems p3.last_fallback], [10 0]);
%! assert ([p3.systems p3.not_spd], [50 0]);  # the ill ones are positive definite
%! assert (p3.next, "ldlt");                  # back to the certified LDL'
%! [X, info, p4, r, m] = bsym_solve (spd (n, 10), randn (n, 10), "plan", p3);
%! assert (m, repmat ({"ldlt"}, 1, 10));

## The families of the equivalence test below: n x n x 6 each, of class cls.
%!function fam = equivalence_families (n, cls)
%!  fam = struct ();
%!  fam.random = spd (n, 6);
%!  fam.graded = with_eigenvalues (2 .^ -linspace (0, 15, n)', 6);      # all kept
%!  fam.graded_cut = with_eigenvalues (2 .^ -linspace (0, 20, n)', 6);  # some cut
%!  fam.clustered = with_eigenvalues ([1; 1e-5 * (1 + 1e-3 * (1:n-1)')], 6);
%!  M = randn (n, n, 6);
%!  fam.indefinite = (M + permute (M, [2 1 3])) / 2;
%!  edges = {"edge_low", "edge_high"};
%!  for sgn = [-1 1]                  # the smallest |l| at the threshold * (1 -+ 2^-10)
%!    A = zeros (n, n, 6);
%!    for k = 1:6
%!      l = 1 + rand (n, 1);
%!      if (mod (k, 2))               # odd k: indefinite
%!        l .*= repmat ([1; 1; -1], ceil (n / 3), 1)(1:n);
%!      endif
%!      l(n) = 1e-5 * max (abs (l(1:n-1))) * (1 + sgn * 2^-10);   # max|l| of the rest
%!      A(:,:,k) = with_eigenvalues (l, 1);
%!    endfor
%!    fam.(edges{(sgn + 3) / 2}) = A;
%!  endfor
%!  for f = fieldnames (fam)'
%!    fam.(f{1}) = cast (fam.(f{1}), cls);
%!  endfor
%!endfunction

%!test  # the certified LDL' start sends exactly the systems of the Householder start to "eigen"
%! randn ("state", 70);
%! rand ("state", 70);
%! house = bsym_plan ();               # a history of indefinite systems
%! house.calls = 1; house.systems = 10; house.not_spd = 10; house.last_systems = 10;
%! house = bsym_plan (house);
%! assert (house.next, "tridiag");
%! for cls = {"double", "single"}
%!   for n = [5 16 32]
%!     fam = equivalence_families (n, cls{1});
%!     for f = fieldnames (fam)'
%!       A = fam.(f{1});
%!       nb = size (A, 3);
%!       B = cast (randn (n, nb), cls{1});
%!       label = sprintf ("%s, n = %d, %s", f{1}, n, cls{1});
%!       [X1, info1, p1, r1, m1] = bsym_solve (A, B);                  # no history: LDL' first
%!       [X2, info2, p2, r2, m2] = bsym_solve (A, B, "plan", house);   # Householder first
%!       assert (all (info1 == 0) && all (info2 == 0), "%s: info", label);
%!       assert (isequal (strcmp (m1, "eigen"), strcmp (m2, "eigen")),
%!               "%s: \"eigen\" for systems %s (LDL' start), %s (Householder start)", label,
%!               mat2str (find (strcmp (m1, "eigen"))), mat2str (find (strcmp (m2, "eigen"))));
%!       assert (isequal (r1, r2), "%s: ranks %s (LDL' start), %s (Householder start)",
%!               label, mat2str (r1), mat2str (r2));
%!       assert (! any (strcmp (m2, "ldlt")), "%s: LDL' under the Householder start", label);
%!       assert (p1.fallback == p2.fallback, "%s: fallback %d, %d", label, p1.fallback, p2.fallback);
%!       if (strcmp (cls{1}, "double"))
%!         switch (f{1})
%!           case "random"
%!             assert (isequal (m1, repmat ({"ldlt"}, 1, nb)), "%s: not all certified", label);
%!           case "edge_low"          # below the threshold: dropped
%!             assert (isequal (r1, (n - 1) * ones (1, nb)), "%s: ranks %s", label, mat2str (r1));
%!           case "edge_high"         # above it: kept (by "eigen" too when flagged)
%!             assert (isequal (r1, n * ones (1, nb)), "%s: ranks %s", label, mat2str (r1));
%!         endswitch
%!       endif
%!     endfor
%!   endfor
%! endfor

%!test  # indefinite systems are counted as not positive definite
%! randn ("state", 4);
%! A = with_eigenvalues ([-2; 1; 3; 4], 7);
%! [X, info, p] = bsym_solve (A, randn (4, 7));
%! assert ([p.systems p.not_spd p.fallback], [7 7 0]);
%! assert (p.next, "tridiag");

%!test  # other methods leave the plan as it was
%! randn ("state", 5);
%! A = spd (4, 3);
%! B = randn (4, 3);
%! p0 = bsym_plan ();
%! [~, ~, p] = bsym_solve (A, B, "plan", p0);
%! for method = {"ldlt", "tridiag", "eigen"}
%!   [~, ~, q] = bsym_solve (A, B, "plan", p, "method", method{1});
%!   assert (q, p);
%!   [~, ~, q] = bsym_solve (A, B, "method", method{1});
%!   assert (q, p0);
%! endfor

%!test  # systems with info != 0 are not counted
%! randn ("state", 6);
%! A = spd (4, 5);
%! A(2,1,3) = NaN;
%! [X, info, p] = bsym_solve (A, randn (4, 5));
%! assert (info, int32 ([0 0 -1 0 0]));
%! assert ([p.calls p.systems p.last_systems], [1 4 4]);

## ---- errors -------------------------------------------------------------------

%!error <called with too many inputs> bsym_plan (1, 2)
%!error <called with too many outputs> [a, b] = bsym_plan ()
%!error <bsym_plan: plan must be a plan, the struct that bsym_plan \(\) and the plan outputs return \(got double\)> bsym_plan (1)
%!error id=batchsym:bad_argument bsym_plan ("tridiag")
%!error <plan must be one plan, a 1 x 1 struct \(got a struct array of 2 elements\)> bsym_plan (repmat (bsym_plan (), 1, 2))
%!error <plan lacks the field 'last_fallback'> bsym_plan (rmfield (bsym_plan (), "last_fallback"))
%!error <plan lacks the field 'calls'> bsym_plan (struct ("next", "ldlt"))
%!error <bsym_plan: plan: field systems must be a whole number .= 0 \(got -1\); make a new plan with bsym_plan\(\)> bsym_plan (setfield (bsym_plan (), "systems", -1))
%!error <bsym_plan: plan: field systems must be a whole number .= 0 \(got 1\.5\); make a new plan with bsym_plan\(\)> bsym_plan (setfield (bsym_plan (), "systems", 1.5))
%!error <bsym_plan: plan: field calls must be a whole number .= 0 \(got NaN\); make a new plan with bsym_plan\(\)> bsym_plan (setfield (bsym_plan (), "calls", NaN))
%!error <bsym_plan: plan: field calls must be a whole number .= 0 \(got Inf\); make a new plan with bsym_plan\(\)> bsym_plan (setfield (bsym_plan (), "calls", Inf))
%!error <bsym_plan: plan: field calls must be a whole number .= 0 \(got 1\.8014398509482e\+16\); make a new plan with bsym_plan\(\)> bsym_plan (setfield (bsym_plan (), "calls", 2^54))
%!error <bsym_plan: plan: field 'fallback' must be a real numeric scalar> bsym_plan (setfield (bsym_plan (), "fallback", [1 2]))
%!error <bsym_plan: plan: field 'fallback' must be a real numeric scalar> bsym_plan (setfield (bsym_plan (), "fallback", "1"))
%!error <bsym_plan: plan: field 'not_spd' must be a real numeric scalar> bsym_plan (setfield (bsym_plan (), "not_spd", 1i))
%!error <bsym_plan: plan: field 'not_spd' must be a real numeric scalar> bsym_plan (setfield (bsym_plan (), "not_spd", []))
%!error <plan is not a plan that batchsym wrote \(not_spd exceeds systems\)> bsym_plan (setfield (bsym_plan (), "not_spd", 1))
%!error <\(fallback exceeds systems\)> bsym_plan (setfield (bsym_plan (), "fallback", 1))
%!error <\(last_systems exceeds systems\)> bsym_plan (setfield (bsym_plan (), "last_systems", 1))
%!error <\(last_fallback exceeds last_systems\)> bsym_plan (setfield (setfield (bsym_plan (), "systems", 2), "last_fallback", 1))
%!error <bsym_solve: option 'plan' must be a plan, the struct that bsym_plan \(\) and the plan outputs return \(got cell\)> bsym_solve (eye (2), [1; 1], "plan", {})
%!error <bsym_solve: option 'plan' lacks the field 'not_spd'> bsym_solve (eye (2), [1; 1], "plan", rmfield (bsym_plan (), "not_spd"))
%!error <bsym_lsfit: option 'plan': field calls must be a whole number .= 0 \(got -1\); make a new plan with bsym_plan\(\)> bsym_lsfit (eye (2), [1; 1], "plan", setfield (bsym_plan (), "calls", -1))
%!error id=batchsym:bad_argument bsym_solve (eye (2), [1; 1], "plan", struct ())

## ---- help -----------------------------------------------------------------------

%!test  # the help text is valid Texinfo (where makeinfo is installed)
%! if (! isempty (file_in_path (getenv ("PATH"), makeinfo_program ())))
%!   [~, status] = __makeinfo__ (get_help_text ("bsym_plan"), "plain text");
%!   assert (status, 0);
%! endif
%!assert (! isempty (strfind (get_help_text ("bsym_plan"), "more than half of the last call")))
%!assert (! isempty (strfind (get_help_text ("bsym_plan"), "more than half of the systems seen were not positive definite")))
%!assert (isempty (strfind (get_help_text ("bsym_plan"), "audit")))
