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
## @item gpus
## the ids of the GPUs over which a GPU call spreads a large batch when it
## has no @qcode{"gpus"} option: every visible GPU (a row vector, empty when
## no GPU is usable).  Each function's @qcode{"gpus"} option chooses others
## for one call (see @code{bsym_solve}).
## @end table
##
## For the benchmarks, the private command
## @code{[h2d, d2h] = __bsym__ ("link_rate", bytes, gpu)} of the batchsym
## MEX file gives the rates in GB/s of pinned copies of @var{bytes} to GPU
## @var{gpu} and back (each the best of three), the bound of any transfer of
## those bytes; it is not a public function.
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
%!                          "cuda_driver_version"; "reason"; "gpus"});
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
%! ## the GPUs of a call without 'gpus': every visible one, 0 .. count - 1
%! assert (isrow (d.gpus) || isempty (d.gpus));
%! if (d.gpu_available)
%!   assert (d.gpus, 0:min (d.device_count, 16) - 1);
%! else
%!   assert (isempty (d.gpus));
%! endif

## The private command for the benchmarks: the host link's copy rates, or
## batchsym:no_device without a GPU. __bsym__ is private to octave/ (in the
## installed package it is on the path): called from its folder.
%!test
%! here = fileparts (which ("bsym_device_info"));
%! old = pwd ();
%! if (isfolder (fullfile (here, "private")))
%!   cd (fullfile (here, "private"));
%! endif
%! unwind_protect
%!   if (bsym_gpu_available ())
%!     [h2d, d2h] = __bsym__ ("link_rate", 2^24, 0);
%!     assert (isscalar (h2d) && isscalar (d2h) && h2d > 0 && d2h > 0 && isfinite (h2d + d2h));
%!   else
%!     try
%!       __bsym__ ("link_rate", 2^20, 0);
%!       error ("no error for link_rate without a GPU");
%!     catch err
%!       assert (err.identifier, "batchsym:no_device");
%!     end_try_catch
%!   endif
%!   for bad = {{-1, 0}, {2^20, 0.5}, {"a", 0}, {2^20}}
%!     try
%!       __bsym__ ("link_rate", bad{1}{:});
%!       error ("no error for a bad link_rate call");
%!     catch err
%!       assert (err.identifier, "batchsym:bad_argument");
%!       assert (strncmp (err.message, "__bsym__ ('link_rate'): ", 24));
%!     end_try_catch
%!   endfor
%! unwind_protect_cleanup
%!   cd (old);
%! end_unwind_protect

%!error <called with too many inputs> bsym_device_info (1)
