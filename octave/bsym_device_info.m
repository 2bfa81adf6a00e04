## -*- texinfo -*-
## @deftypefn {} {@var{d} =} bsym_device_info ()
## Describe the GPU that batchsym would use, as a scalar struct:
##
## @table @code
## @item built_with_cuda
## true when batchsym was built with its CUDA kernels.
## @item gpu_available
## true when a CUDA device that can run those kernels is present (see
## @code{bsym_gpu_available}).
## @item device_count
## the number of CUDA devices found.
## @item name
## device 0's name, @qcode{""} when there is none.
## @item total_memory
## @itemx free_memory
## device 0's memory in bytes (free: at the time of the call; 0 when unknown).
## @item compute_capability
## device 0's compute capability as a string such as @qcode{"9.0"}, @qcode{""}
## when there is no device.
## @item cuda_runtime_version
## @itemx cuda_driver_version
## as CUDA numbers them (12040 is 12.4); 0 when unknown.
## @item reason
## why no GPU is usable, @qcode{""} when one is.
## @end table
##
## @seealso{bsym_gpu_available, bsym_solve}
## @end deftypefn

function d = bsym_device_info ()

  if (nargin != 0)
    print_usage ();
  endif
  d = __bsym__ ("device_info");

endfunction

%!test
%! d = bsym_device_info ();
%! assert (isstruct (d) && isscalar (d));
%! assert (fieldnames (d), {"built_with_cuda"; "gpu_available"; "device_count";
%!                          "name"; "total_memory"; "free_memory";
%!                          "compute_capability"; "cuda_runtime_version";
%!                          "cuda_driver_version"; "reason"});
%! assert (islogical (d.built_with_cuda) && isscalar (d.built_with_cuda));
%! assert (islogical (d.gpu_available) && isscalar (d.gpu_available));
%! assert (ischar (d.name) && ischar (d.reason) && ischar (d.compute_capability));
%! assert (isnumeric (d.total_memory) && d.total_memory >= 0);
%! assert (isnumeric (d.free_memory) && d.free_memory <= d.total_memory);
%! if (d.gpu_available)
%!   assert (d.built_with_cuda);
%!   assert (d.device_count >= 1);
%!   assert (d.reason, "");
%!   assert (! isempty (d.name));
%!   assert (d.total_memory > 0);
%!   assert (! isempty (regexp (d.compute_capability, '^\d+\.\d+$', "once")));
%! else
%!   assert (! isempty (d.reason));   # says why
%! endif

%!error <called with too many inputs> bsym_device_info (1)
