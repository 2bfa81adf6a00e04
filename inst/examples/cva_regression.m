## cva_regression.m -- the CVA experiment of the R vignette "cva-regression"
## in GNU Octave: nested Monte Carlo for an American (Bermudan) put on the
## mean of 29 Black-Scholes assets (Abbas-Turki & Graillat 2017, Sect. 2),
## the Longstaff-Schwartz regressions of all outer paths at one (outer step,
## inner date) in ONE bsym_lsfit call (X: 300 x 30 x outer paths), solved
##   single ldlt   bsym_lsfit (single (X), single (Y), 'method', 'ldlt')
##   single auto   bsym_lsfit (single (X), single (Y), 'method', 'auto', 'rcond', 1e-5)
##   double auto   bsym_lsfit (X, Y, 'method', 'auto', 'rcond', 1e-5)
##   double QR     X(:,:,l) \ Y(:,l), one regression at a time (the reference)
## and prints the same summary as demo/cva-short.R.
##
## From the repository root, after `make octave`:
##   octave --eval "addpath('octave'); run('inst/examples/cva_regression.m')"
## The default is a small run (100 outer paths, 8 dates, well under a minute).
## The vignette's full size (1000 outer paths, 10 dates; a few minutes and
## about 1 GB): set cva_full = true before running the script, e.g.
##   octave --eval "addpath('octave'); cva_full = true; run('inst/examples/cva_regression.m')"
## (cva_M0 and cva_N set the outer paths and the dates directly.)
1;

function h = cva_payoff (basket, K)
  h = max (K - basket, 0);
endfunction

## One variant's batched fit: beta p x L (double), rank, method (cellstr), info.
function [beta, rk, meth, info, plan] = cva_fit (name, X, Y, rcond, plan)
  [M, p, L] = size (X);
  switch (name)
    case "single ldlt"
      [b, rk, ~, info, meth] = bsym_lsfit (single (X), single (Y), "method", "ldlt");
    case "single auto"
      [b, rk, ~, info, meth, plan] = bsym_lsfit (single (X), single (Y), "method", "auto", ...
                                                 "rcond", rcond, "plan", plan);
    case "double auto"
      [b, rk, ~, info, meth, plan] = bsym_lsfit (X, Y, "method", "auto", "rcond", rcond, ...
                                                 "plan", plan);
    case "double QR"
      b = zeros (p, L);
      for l = 1:L
        b(:, l) = X(:, :, l) \ Y(:, l);
      endfor
      rk = p * ones (1, L); info = zeros (1, L); meth = repmat ({"qr"}, 1, L);
  endswitch
  beta = double (b);
  rk = double (rk);
  info = double (info);
  if (ischar (meth))
    meth = cellstr (meth);
  endif
endfunction

## run() executes the script from its own folder, where a relative
## addpath('octave') no longer points to batchsym: find it from here.
if (! exist ("bsym_lsfit", "file"))
  cva_octdir = fullfile (fileparts (mfilename ("fullpath")), "..", "..", "octave");
  if (exist (fullfile (cva_octdir, "bsym_lsfit.m"), "file"))
    addpath (canonicalize_file_name (cva_octdir));
  else
    error ("cva_regression: bsym_lsfit not found; addpath('<batchsym>/octave') after `make octave`");
  endif
endif

## ---- parameters -------------------------------------------------------------
if (! exist ("cva_full", "var"))
  cva_full = false;
endif
P.d = 29; P.sigma = 0.1; P.r = 0.1; P.S0 = 1; P.dt = 0.1;
P.M = 300; P.K = 1.05; P.lambda = 0.03; P.R = 0.4; P.rcond = 1e-5;
if (cva_full)
  P.M0 = 1000; P.N = 10;
else
  P.M0 = 100; P.N = 8;
endif
if (exist ("cva_M0", "var"))
  P.M0 = cva_M0;
endif
if (exist ("cva_N", "var"))
  P.N = cva_N;
endif
variants = {"single ldlt", "single auto", "double auto", "double QR"};
nv = numel (variants); iref = nv;
d = P.d; M = P.M; L = P.M0; N = P.N; dt = P.dt; r = P.r; sig = P.sigma; p = d + 1;
disc = exp (-r * dt);

printf ("batchsym CVA in Octave: %d outer paths x %d inner paths, %d dates, %d assets, basis (1, S)\n",
        L, M, N, d);
if (bsym_gpu_available ())
  printf ("GPU available (device 'auto' uses it for large enough batches)\n");
else
  printf ("no GPU: bsym_lsfit runs on the CPU\n");
endif

randn ("state", 1);
t_run = tic ();

## ---- outer paths: d x L x (N+1) -------------------------------------------------
outer = zeros (d, L, N + 1);
outer(:, :, 1) = P.S0;
for k = 1:N
  outer(:, :, k + 1) = outer(:, :, k) .* exp ((r - sig^2 / 2) * dt + sig * sqrt (dt) * randn (d, L));
endfor

## ---- statistics per variant ------------------------------------------------------
st = struct ("time", 0, "calls", 0, "regressions", 0, "eigen", 0, "rank_def", 0, "failed", 0,
             "decisions", 0, "itm", 0, "exercised", 0, "differ", 0, "fit_err", []);
st = repmat (st, 1, nv);
plans = {bsym_plan(), bsym_plan(), bsym_plan(), bsym_plan()};
kappas = [];
value = zeros (N, L, nv); held = zeros (N, L, nv); alive = true (L, nv);
exercised_by_T = false (L, nv);

for k = 1:N
  Sk = outer(:, :, k + 1);
  h_outer = cva_payoff (mean (Sk, 1)', P.K);          # L x 1
  if (k < N)
    ## inner paths from every outer state, drawn backwards by a Brownian bridge
    nj = N - k; tau = (1:nj) * dt;
    base = reshape (log (Sk), 1, d, L);               # broadcast over the inner paths
    W = sqrt (tau(nj)) * randn (M, d, L);
    X = ones (M, p, L);
    X(:, 2:end, :) = exp (base + (r - sig^2 / 2) * tau(nj) + sig * W);
    h = cva_payoff (reshape (mean (X(:, 2:end, :), 2), M, L), P.K);
    V = repmat ({h}, 1, nv);
    for jj = (nj - 1):-1:1
      W = (tau(jj) / tau(jj + 1)) * W + ...
          sqrt (tau(jj) * (tau(jj + 1) - tau(jj)) / tau(jj + 1)) * randn (M, d, L);
      X(:, 2:end, :) = exp (base + (r - sig^2 / 2) * tau(jj) + sig * W);
      h = cva_payoff (reshape (mean (X(:, 2:end, :), 2), M, L), P.K);
      itm = h > 0;
      C = cell (1, nv); Ys = cell (1, nv);
      for iv = 1:nv
        Ys{iv} = V{iv} * disc;
        t0 = tic ();
        [beta, rk, meth, info, plans{iv}] = cva_fit (variants{iv}, X, Ys{iv}, P.rcond, plans{iv});
        st(iv).time += toc (t0);
        st(iv).calls += 1;
        st(iv).regressions += L;
        st(iv).eigen += sum (strcmp (meth, "eigen"));
        st(iv).rank_def += sum (rk < p);
        st(iv).failed += sum (info != 0 | any (isnan (beta), 1));
        C{iv} = reshape (sum (X .* reshape (beta, 1, p, L), 2), M, L);   # fitted continuation
        V{iv} = Ys{iv};
      endfor
      ## solver error alone: regressions whose Y is still the reference's
      nref = sqrt (sum (C{iref} .^ 2, 1));
      for iv = 1:nv-1
        same = all (Ys{iv} == Ys{iref}, 1) & nref > 0;
        st(iv).fit_err = [st(iv).fit_err, sqrt(sum ((C{iv}(:, same) - C{iref}(:, same)) .^ 2, 1)) ./ nref(same)];
      endfor
      ex = cell (1, nv);
      for iv = 1:nv
        ex{iv} = itm & h >= C{iv};
        ex{iv}(isnan (C{iv})) = false;
        V{iv}(ex{iv}) = h(ex{iv});
      endfor
      for iv = 1:nv
        st(iv).decisions += numel (h);
        st(iv).itm += sum (itm(:));
        st(iv).exercised += sum (ex{iv}(:));
        st(iv).differ += sum (ex{iv}(:) != ex{iref}(:));
      endfor
      ## condition numbers of A_hat = X'X / M in double (eig), as the paper's Fig. 2
      kap = zeros (1, L);
      for l = 1:L
        e = eig (X(:, :, l)' * X(:, :, l) / M);
        kap(l) = max (e) / min (e);
      endfor
      kappas = [kappas, kap];
    endfor
    cont = zeros (L, nv);
    for iv = 1:nv
      cont(:, iv) = mean (V{iv}, 1)' * disc;
    endfor
    v = max (h_outer, cont);
    ex_outer = h_outer > 0 & h_outer >= cont;
  else
    v = repmat (h_outer, 1, nv);
    ex_outer = repmat (h_outer > 0, 1, nv);
  endif
  value(k, :, :) = reshape (v, 1, L, nv);
  held(k, :, :) = reshape (alive .* v, 1, L, nv);
  exercised_by_T |= alive & ex_outer;
  alive &= ! ex_outer;
endfor

## ---- CVA ---------------------------------------------------------------------------
tk = (1:N)' * dt;
w = (1 - P.R) * exp (-r * tk) .* (exp (-P.lambda * (tk - dt)) - exp (-P.lambda * tk));
per_path = reshape (sum (max (value, 0) .* w, 1), L, nv);      # L x nv
cva = mean (per_path, 1);
se = std (per_path(:, iref)) / sqrt (L);
cva_held = mean (reshape (sum (max (held, 0) .* w, 1), L, nv), 1);

## ---- summary (as demo/cva-short.R) ------------------------------------------------
printf ("\n%d regressions per variant, in %d batched calls; condition numbers of A_hat (eig, double):\n",
        st(1).regressions, st(1).calls);
printf ("  median %.2g, max %.2g; above the cap 1e5: %d; above 1/eps of single (8.4e6): %d\n",
        median (kappas), max (kappas), sum (kappas > 1e5), sum (kappas > 2^23));
printf ("\nill-conditioned regressions found by each variant, and what came of them:\n");
for iv = 1:nv
  if (iv == iref)
    fe = "(reference)";
  elseif (isempty (st(iv).fit_err))
    fe = "-";
  else
    fe = sprintf ("%.1e", median (st(iv).fit_err));
  endif
  printf ("  %-12s truncated spectrum: %5d (rank < 30: %5d)  failed: %d  fitted values vs double QR: median %s\n",
          variants{iv}, st(iv).eigen, st(iv).rank_def, st(iv).failed, fe);
endfor
printf ("\ninner exercise decisions: %d, %d in the money; differing from double QR:\n",
        st(1).decisions, st(1).itm);
for iv = 1:nv
  printf ("  %-12s %7d (%.3f %% of those in the money)\n", variants{iv}, st(iv).differ,
          100 * st(iv).differ / max (st(iv).itm, 1));
endfor
printf ("\nCVA (standard error %.2g):\n", se);
for iv = 1:nv
  printf ("  %-12s %.6e  (minus double QR: %+.2e)\n", variants{iv}, cva(iv), cva(iv) - cva(iref));
endfor
printf ("(CVA if the holder exercises on the outer paths: %.6e; outer paths exercised: %.1f %%)\n",
        cva_held(iref), 100 * mean (exercised_by_T(:, iref)));
printf ("\ntime in the fits (%d calls each):\n", st(1).calls);
for iv = 1:nv
  extra = "";
  if (iv == iref)
    extra = " (a loop of mldivide)";
  endif
  printf ("  %-12s %.2f s%s\n", variants{iv}, st(iv).time, extra);
endfor
printf ("whole run: %.1f s\n", toc (t_run));
