## -*- texinfo -*-
## @deftypefn  {} {@var{U} =} bsym_pde_solve (@var{x}, @var{t}, @var{final})
## @deftypefnx {} {@var{U} =} bsym_pde_solve (@var{x}, @var{t}, @var{final}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{U}, @var{info}] =} bsym_pde_solve (@dots{})
## Solve many one-factor PDEs at once by finite differences:
## @code{du/dt + a * d2u/dx2 + b * du/dx + c * u + d = 0} for every system of
## a batch, backward in time from @code{u(t_N, :) = @var{final}} to
## @code{t_1}, by the theta-scheme on a possibly non-uniform grid, one
## tridiagonal solve per time step, the whole time loop in the C core.
##
## @var{x}: the grid, @var{m} >= 3 strictly increasing nodes.  @var{t}: the
## times, @var{N} >= 2 strictly increasing.  @var{final}: the values at
## @code{t_N}, @var{m} x @var{batch} (or a vector for one system).  @var{U}
## has the shape of @var{final}: @code{u} at @code{t_1}.
##
## Options, as name/value pairs:
##
## @table @asis
## @item @qcode{"a"}, @qcode{"b"}, @qcode{"c"}, @qcode{"d"}
## the coefficients (default 0): each a scalar, a vector of length @var{m}
## (per node), an @var{m} x @var{N} matrix (per node and time level, shared
## by all systems), or an @var{m} x 1 x @var{batch} or @var{m} x @var{N} x
## @var{batch} array (per system).
## @item @qcode{"theta"}
## the implicit weight in [0, 1] (default 0.5, Crank-Nicolson; 1 fully
## implicit).
## @item @qcode{"rannacher"}
## the number of intervals from @code{t_N} taken as two fully implicit half
## steps each (default 0).
## @item @qcode{"lower"}, @qcode{"upper"}
## the boundary at @code{x_1} and @code{x_m}: @qcode{"linear"} (default: the
## a-term dropped there, du/dx one-sided from the neighbour) or
## @qcode{"dirichlet"}.
## @item @qcode{"lower_value"}, @qcode{"upper_value"}
## for @qcode{"dirichlet"}: a scalar, a vector per time level (length
## @var{N}) or per system (length @var{batch}), or an @var{N} x @var{batch}
## matrix (default 0).
## @item @qcode{"obstacle"}
## an @var{m} x @var{batch} matrix: after every step @code{u >= obstacle}
## (American exercise).
## @item @qcode{"device"}
## @qcode{"auto"} (default), @qcode{"cpu"} or @qcode{"gpu"}.  On the GPU
## (@var{m} up to 8192 nodes) the whole time loop is one kernel; a system
## whose elimination without pivoting fails its checks there is solved
## again on the CPU, with pivoting, so both devices give the same @var{info}.
## @end table
##
## When any array is single the solve runs in single precision and @var{U}
## is single.  @var{info} (int32, one per system): 0 solved, -1 a non-finite
## input of that system, @var{j} > 0 a pivot breakdown at time level
## @var{j}; such systems are NaN, and without the @var{info} output one
## warning @code{batchsym:pde_failed} gives their count.
## @seealso{bsym_tridiag_solve}
## @end deftypefn

function [U, info] = bsym_pde_solve (x, t, final, varargin)

  if (nargin < 3)
    print_usage ();
  endif
  if (nargout < 2)
    U = __bsym__ ("pde_solve", x, t, final, varargin{:});
  else
    [U, info] = __bsym__ ("pde_solve", x, t, final, varargin{:});
  endif

endfunction

## Black-Scholes put and call prices.
%!function p = bs_price (S, K, r, s, T, is_call)
%!  d1 = (log (S ./ K) + (r + s .^ 2 / 2) * T) ./ (s * sqrt (T));
%!  d2 = d1 - s * sqrt (T);
%!  ncdf = @(z) 0.5 * erfc (-z / sqrt (2));
%!  if (is_call)
%!    p = S .* ncdf (d1) - K * exp (-r * T) * ncdf (d2);
%!  else
%!    p = K * exp (-r * T) * ncdf (-d2) - S .* ncdf (-d1);
%!  endif
%!endfunction

%!test  # European puts, three volatilities in one call, against Black-Scholes
%! K = 100; r = 0.05; T = 1;
%! S = linspace (0, 400, 401)';
%! tt = linspace (0, T, 201);
%! s = [0.1 0.2 0.35];
%! a = reshape (0.5 * (S .^ 2) * s .^ 2, 401, 1, 3);
%! P = repmat (max (K - S, 0), 1, 3);
%! [U, info] = bsym_pde_solve (S, tt, P, "a", a, "b", r * S, "c", -r, "rannacher", 2);
%! assert (info, zeros (1, 3, "int32"));
%! assert (size (U), [401 3]);
%! assert (U(S == 100, :), bs_price (100, K, r, s, T, false), 0.02);
%! C = bsym_pde_solve (S, tt, max (S - K, 0), "a", 0.5 * 0.2 ^ 2 * S .^ 2, "b", r * S, "c", -r, "rannacher", 2);
%! assert (C(S == 100), bs_price (100, K, r, 0.2, T, true), 0.02);

%!test  # the American put is above the European one; single in, single out
%! K = 100; r = 0.05; T = 1;
%! S = linspace (0, 400, 401)';
%! tt = linspace (0, T, 201);
%! P = max (K - S, 0);
%! am = bsym_pde_solve (S, tt, P, "a", 0.02 * S .^ 2, "b", r * S, "c", -r, "obstacle", P, "rannacher", 2);
%! eu = bsym_pde_solve (S, tt, P, "a", 0.02 * S .^ 2, "b", r * S, "c", -r, "rannacher", 2);
%! assert (all (am >= P - 1e-12));
%! assert (am(S == 100) > eu(S == 100) + 0.05);
%! us = bsym_pde_solve (single (S), tt, P, "a", 0.02 * S .^ 2, "b", r * S, "c", -r, "rannacher", 2);
%! assert (class (us), "single");
%! assert (double (us), eu, 5e-5 * max (abs (eu)));   # single: relative 5e-5 after 200 steps

%!test  # one bad system spoils only itself
%! S = linspace (0, 300, 61)';
%! P = repmat (max (100 - S, 0), 1, 3);
%! P(5, 2) = NaN;
%! [U, info] = bsym_pde_solve (S, linspace (0, 1, 21), P, "a", 0.02 * S .^ 2, "b", 0.05 * S, "c", -0.05);
%! assert (info, int32 ([0 -1 0]));
%! assert (all (isnan (U(:,2))));
%! assert (! any (isnan (U(:,[1 3]))(:)));

%!test  # the CPU and the GPU agree (American puts, per-system volatility; double and single)
%! if (bsym_gpu_available ())
%!   S = linspace (0, 400, 513)'; tt = linspace (0, 1, 101); s = linspace (0.1, 0.5, 20);
%!   a = reshape (0.5 * (S .^ 2) * s .^ 2, 513, 1, 20);
%!   P = repmat (max (100 - S, 0), 1, 20);
%!   for single_in = [false true]
%!     SS = S; if (single_in) SS = single (S); end
%!     [uc, ic] = bsym_pde_solve (SS, tt, P, "a", a, "b", 0.05 * S, "c", -0.05, "obstacle", P, "rannacher", 2, "device", "cpu");
%!     [ug, ig] = bsym_pde_solve (SS, tt, P, "a", a, "b", 0.05 * S, "c", -0.05, "obstacle", P, "rannacher", 2, "device", "gpu");
%!     assert (ic, ig);
%!     assert (class (ug), class (uc));
%!     assert (double (ug), double (uc), 101 * 513 * eps (class (uc)) * max (abs (double (uc(:)))));
%!   end
%! end

%!error <x.*increasing> bsym_pde_solve ([3 2 1 0], [0 1], zeros (4, 1))
%!error <theta> bsym_pde_solve (0:3, [0 1], zeros (4, 1), "theta", 2)
%!error <a must be> bsym_pde_solve (0:3, [0 1], zeros (4, 1), "a", ones (5, 5))
%!error <final> bsym_pde_solve (0:3, [0 1], zeros (5, 1))
%!error <lower_value is only used> bsym_pde_solve (0:3, [0 1], zeros (4, 1), "lower_value", 1)
%!error <lower> bsym_pde_solve (0:3, [0 1], zeros (4, 1), "lower", "neumann")
%!error <Invalid call> bsym_pde_solve ()
