% host_calls.m -- the calls of issue 11's Octave-against-R comparison, timed
% from Octave: bsym_solve (default method) at n = 32 in double with 1e4 and
% 1e5 systems, and bsym_eigen with vectors on 1e5 matrices; and, at the size
% of issue 13's target, bsym_solve (method 'ldlt') on 1e6 systems (skipped,
% with a note, on a machine with less than 48 GB of RAM: its A alone is
% 8.2 GB); host arrays in and out, median of 5 calls after one warm-up call
% (which creates the context). host_calls.R times the same calls from R.
%
%   octave-cli --eval "addpath('octave'); addpath('inst/bench'); host_calls('gpu')"
%   BSYM_BENCH_QUICK=1 octave-cli --eval "addpath('octave'); addpath('inst/bench'); host_calls('cpu')"
%       (a smoke test: 1e3 and 1e4 systems, eigen on 1e4, ldlt on 2e4;
%        figures not to record)
% Prints one markdown row per call (notes, if any, after the table).
function host_calls (device)
  if (nargin < 1)
    device = 'gpu';
  end
  quick = strcmp (getenv ('BSYM_BENCH_QUICK'), '1');
  n = 32;
  randn ('seed', 1);
  notes = {};
  printf ('| from | call | systems | device | median s | systems/s |\n|---|---|---|---|---|---|\n');
  if (quick)
    sizes = [1e3 1e4];
  else
    sizes = [1e4 1e5];
  end
  for batch = sizes
    A = spd (n, batch);
    B = randn (n, batch);
    t = time_call (@() bsym_solve (A, B, 'device', device));
    printf ('| Octave | bsym_solve | %g | %s | %.4f | %.3g |\n', batch, device, t, batch / t);
  end
  t = time_call (@() eigen_vectors (A, device));
  printf ('| Octave | bsym_eigen | %g | %s | %.4f | %.3g |\n', size (A, 3), device, t, size (A, 3) / t);
  % issue 13's size: method 'ldlt', 1e6 systems
  clear A B
  if (quick)
    batch = 2e4;
  else
    batch = 1e6;
  end
  ram = mem_total_gb ();
  if (! quick && ! isnan (ram) && ram < 48)
    notes{end+1} = sprintf ('bsym_solve ldlt on %g systems skipped: %.0f GB of RAM, less than 48 GB', batch, ram);
  else
    A = spd_rep (n, batch);
    B = randn (n, batch);
    t = time_call (@() bsym_solve (A, B, 'method', 'ldlt', 'device', device));
    printf ('| Octave | bsym_solve ldlt | %g | %s | %.4f | %.3g |\n', batch, device, t, batch / t);
    clear A B
  end
  for i = 1:numel (notes)
    printf ('\nnote: %s', notes{i});
  end
  printf ('\n');
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

% The same kind of batch for a large size: 4096 distinct matrices from spd,
% repeated in turn to batch (one allocation of A by indexing, no temporary
% copies of the full batch).
function A = spd_rep (n, batch)
  distinct = min (4096, batch);
  pool = spd (n, distinct);
  A = pool(:, :, mod (0:batch-1, distinct) + 1);
end

% MemTotal of /proc/meminfo in GB (NaN where there is none).
function gb = mem_total_gb ()
  gb = NaN;
  try
    tok = regexp (fileread ('/proc/meminfo'), 'MemTotal:\s*(\d+)', 'tokens', 'once');
    if (! isempty (tok))
      gb = str2double (tok{1}) * 1024 / 1e9;
    end
  catch
  end
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
