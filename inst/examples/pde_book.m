## pde_book.m -- price a book of European and American puts in Octave with
## bsym_pde_solve (issue 15): one call per maturity, every strike, rate and
## style of that maturity a system of the batch.  Run from the repository:
##   octave --eval "addpath('octave'); run('inst/examples/pde_book.m')"

m = 512; N = 200;
lambda = 20;                                   # nodes packed near 100
xi = linspace (asinh (-100 / lambda), asinh (300 / lambda), m)';
S = 100 + lambda * sinh (xi);  S(1) = 0;
strikes = linspace (80, 120, 25);
rates = [0.01 0.03 0.05];
maturities = [0.25 0.5 1 2];
sigma = 0.25;

[K, R, Am] = ndgrid (strikes, rates, [false true]);
K = K(:)'; R = R(:)'; Am = Am(:)';
nb = numel (K);
final = max (K - S, 0);                        # m x nb, one column per option
obstacle = final;
obstacle(:, !Am) = -1e30;                      # European: never binds
b = reshape (S * R, m, 1, nb);                 # r S, per system
c = reshape (repmat (-R, m, 1), m, 1, nb);     # -r, per system
a = 0.5 * sigma ^ 2 * S .^ 2;                  # shared by every system

tic;
prices = zeros (numel (maturities), nb);
for j = 1:numel (maturities)
  t = linspace (0, maturities(j), N);
  [U, info] = bsym_pde_solve (S, t, final, "a", a, "b", b, "c", c,
                              "obstacle", obstacle, "rannacher", 2);
  assert (all (info == 0));
  prices(j,:) = interp1 (S, U, 100);
endfor
elapsed = toc;
printf ("%d options (%d maturities x %d per call) on a %d x %d grid in %.2f s\n",
        numel (prices), numel (maturities), nb, m, N, elapsed);

## the European puts against Black-Scholes
ncdf = @(z) 0.5 * erfc (-z / sqrt (2));
bs = @(K, r, T) K .* exp (-r * T) .* ncdf (-((log (100 ./ K) + (r + sigma ^ 2 / 2) * T) / (sigma * sqrt (T)) - sigma * sqrt (T))) ...
                - 100 * ncdf (-((log (100 ./ K) + (r + sigma ^ 2 / 2) * T) / (sigma * sqrt (T))));
err = 0;
for j = 1:numel (maturities)
  err = max (err, max (abs (prices(j, !Am) - bs (K(!Am), R(!Am), maturities(j)))));
endfor
printf ("largest error of the European puts against Black-Scholes: %.2e\n", err);
premium = prices(:, Am) - prices(:, !Am);
printf ("early-exercise premium: %.4f to %.4f\n", min (premium(:)), max (premium(:)));
