% host_calls.m -- the calls of issue 11's Octave-against-R comparison, timed
% from Octave: bsym_solve (default method) at n = 32 in double with 1e4 and
% 1e5 systems, and bsym_eigen with vectors on 1e5 matrices; host arrays in
% and out, median of 5 calls after one warm-up call (which creates the
% context). host_calls.R times the same calls from R.
%
%   octave-cli --eval "addpath('octave'); addpath('inst/bench'); host_calls('gpu')"
% Prints one markdown row per call.
function host_calls (device)
  if (nargin < 1)
    device = 'gpu';
  end
  n = 32;
  randn ('seed', 1);
  printf ('| from | call | systems | device | median s | systems/s |\n|---|---|---|---|---|---|\n');
  for batch = [1e4 1e5]
    A = spd (n, batch);
    B = randn (n, batch);
    t = time_call (@() bsym_solve (A, B, 'device', device));
    printf ('| Octave | bsym_solve | %g | %s | %.4f | %.3g |\n', batch, device, t, batch / t);
  end
  t = time_call (@() eigen_vectors (A, device));
  printf ('| Octave | bsym_eigen | %g | %s | %.4f | %.3g |\n', 1e5, device, t, 1e5 / t);
end

% values and vectors, as R's bsym_eigen (A) gives by default
function V = eigen_vectors (A, device)
  [V, D] = bsym_eigen (A, 'device', device);
end

% random symmetric, diagonally dominant (so positive definite) batches
function A = spd (n, batch)
  X = randn (n, n, batch);
  A = X + permute (X, [2 1 3]);
  d = (1:n+1:n*n)' + n * n * (0:batch-1);
  A(d) += 2 * n;
end

% The result is kept until the clock has stopped, as R's system.time keeps
% it (R frees it at a later garbage collection): freeing 819 MB of vectors
% takes a noticeable part of a call.
function t = time_call (f)
  r = f (); % warm-up
  ts = zeros (1, 5);
  for i = 1:5
    clear r
    t0 = tic ();
    r = f ();
    ts(i) = toc (t0);
  end
  t = median (ts);
end
