## -*- texinfo -*-
## @deftypefn {} {[@var{x}, @var{r}, @var{kappa}, @var{margin}] =} truncated_solution (@var{A}, @var{b}, @var{rcond})
## Test helper of batchsym's Octave tests (not part of the package): the
## truncated-spectrum solution of one symmetric system, in double, from
## Octave's @code{eig}.
##
## With the eigenpairs (lambda, v) of @var{A} (symmetrized) kept where
## @code{abs (lambda) >= rcond * max (abs (lambda))} and @code{lambda != 0}:
## @code{x = V(:,keep) * ((V(:,keep)' * b) ./ lambda(keep))} (@var{b} may
## have several columns); @var{r} the number kept; @var{kappa}
## @code{max (abs (lambda)) / min (abs (lambda(keep)))} (1 when nothing is
## kept); @var{margin} how far, as a factor >= 1, the nonzero eigenvalue
## nearest the threshold lies from it (Inf when there is none).
## @end deftypefn

function [x, r, kappa, margin] = truncated_solution (A, b, rcond)

  A = double (A);
  [V, L] = eig ((A + A') / 2);
  l = diag (L);
  t = rcond * max (abs (l));
  keep = abs (l) >= t & l != 0;
  x = V(:,keep) * ((V(:,keep)' * double (b)) ./ l(keep));
  r = nnz (keep);
  kappa = 1;
  if (r > 0)
    kappa = max (abs (l)) / min (abs (l(keep)));
  endif
  q = abs (l(l != 0)) / t;
  margin = min ([Inf; max(q, 1 ./ q)]);

endfunction
