## -*- texinfo -*-
## @deftypefn {} {@var{tf} =} bsym_gpu_available ()
## Return true when batchsym was built with CUDA and a CUDA device that can
## run its kernels is present, false otherwise (@code{bsym_device_info} says
## why).
## @seealso{bsym_device_info, bsym_solve}
## @end deftypefn

function tf = bsym_gpu_available ()

  if (nargin != 0)
    print_usage ();
  endif
  tf = __bsym__ ("device_info").gpu_available;

endfunction

%!test
%! tf = bsym_gpu_available ();
%! assert (islogical (tf) && isscalar (tf));
%! assert (tf, bsym_device_info ().gpu_available);

%!error <called with too many inputs> bsym_gpu_available (1)
