## -*- texinfo -*-
## @deftypefn {} {@var{dev} =} dev_for (@var{n})
## Test helper of batchsym's Octave tests (not part of the package): the
## device for a test call on systems of size @var{n}.
##
## @qcode{"auto"} when @var{n} > 256 (the GPU kernels of the methods that
## use it, Householder, eigen and the truncated-spectrum and automatic
## solves, stop at n = 256, so a suite forced onto the GPU with
## @code{BSYM_OCTAVE_DEVICE=gpu} would get @code{batchsym:size_unsupported}
## there; "auto" lets the CPU serve them), else the default device,
## @code{bsym_device ()}.  The same rule as @code{dev_for} in the R suite,
## @file{tests/testthat/test-solve.R}.  Tests pass @code{"device", dev_for
## (n)} in loops whose @var{n} may exceed 256; tests of the device errors
## name their device themselves.
## @end deftypefn

function dev = dev_for (n)

  if (n > 256)
    dev = "auto";
  else
    dev = bsym_device ();
  endif

endfunction
