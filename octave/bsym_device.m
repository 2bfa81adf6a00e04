## -*- texinfo -*-
## @deftypefn  {} {@var{dev} =} bsym_device ()
## @deftypefnx {} {@var{old} =} bsym_device (@var{dev})
## @deftypefnx {} {[@var{dev}, @var{state}] =} bsym_device (@dots{})
## Query or set the default device of batchsym: the device that
## @code{bsym_solve}, @code{bsym_lsfit}, @code{bsym_eigen},
## @code{bsym_tridiag_eigen}, @code{bsym_tridiag_solve} and
## @code{bsym_tridiagonalize} use when they are given no @qcode{"device"}
## option (as R's @code{options (batchsym.device = @dots{})}).
##
## @var{dev} is @qcode{"auto"} (GPU when one is usable and the batch is big
## enough, else CPU), @qcode{"cpu"} or @qcode{"gpu"} (in any case; the
## error @code{batchsym:no_device} when no GPU is usable).  With an argument,
## it becomes the default and the one before is returned, so that
##
## @example
## @group
## old = bsym_device ("gpu");
## @dots{}
## bsym_device (old);
## @end group
## @end example
##
## @noindent
## runs a block of code on the GPU and puts the default back.
##
## The default lives in the environment variable @env{BSYM_OCTAVE_DEVICE} of
## the Octave process (unset or empty: @qcode{"auto"}): set it in the shell
## to choose the device before Octave starts (the test suite is forced onto
## the GPU with @code{BSYM_OCTAVE_DEVICE=gpu make test-octave}); @code{clear
## all} leaves it as it is.  When it holds another word, every call without
## a @qcode{"device"} option raises @code{batchsym:bad_argument} until
## @code{bsym_device} sets it again.
##
## @var{state} describes the one batchsym context of this Octave process
## (its device streams and pinned staging buffers, kept from call to call):
## a struct with @code{created}, the number of contexts made since the
## batchsym MEX file was loaded (1 after any number of calls), and
## @code{alive}, true while one is held.  @code{clear functions} (or @code{clear
## all}) releases it; the next call makes a new one.  (Octave 7 keeps the MEX
## file loaded through @code{clear functions}, so @code{created} counts on.)
## @seealso{bsym_device_info, bsym_gpu_available, bsym_solve}
## @end deftypefn

function [dev, state] = bsym_device (dev)

  if (nargin == 0)
    [dev, state] = __bsym__ ("device");
  else
    [dev, state] = __bsym__ ("device", dev);
  endif

endfunction

## Each test puts the default back as it found it (the suite may run with
## BSYM_OCTAVE_DEVICE=gpu).

%!test
%! old = bsym_device ();
%! assert (any (strcmp (old, {"auto", "cpu", "gpu"})));
%! unwind_protect
%!   assert (bsym_device ("CPU"), old);
%!   assert (bsym_device (), "cpu");
%!   assert (getenv ("BSYM_OCTAVE_DEVICE"), "cpu");
%!   assert (bsym_device ("auto"), "cpu");
%!   assert (bsym_device (), "auto");
%! unwind_protect_cleanup
%!   bsym_device (old);
%! end_unwind_protect
%! assert (bsym_device (), old);

## The default is what a call without 'device' uses: 'gpu' without a GPU
## fails as 'device', 'gpu' does; 'cpu' always serves.
%!test
%! old = bsym_device ("cpu");
%! unwind_protect
%!   A = repmat (4 * eye (3), [1 1 5]);
%!   assert (bsym_solve (A, ones (3, 5)), ones (3, 5) / 4, 1e-15);
%!   bsym_device ("gpu");
%!   if (bsym_gpu_available ())
%!     assert (bsym_solve (A, ones (3, 5)), ones (3, 5) / 4, 1e-15);
%!   else
%!     try
%!       bsym_solve (A, ones (3, 5));
%!       error ("no error for the default device gpu without a GPU");
%!     catch err
%!       assert (err.identifier, "batchsym:no_device");
%!     end_try_catch
%!     ## an explicit 'device' wins over the default
%!     assert (bsym_solve (A, ones (3, 5), "device", "cpu"), ones (3, 5) / 4, 1e-15);
%!   endif
%! unwind_protect_cleanup
%!   bsym_device (old);
%! end_unwind_protect

## A default that is not a device: every call without 'device' says so, and
## bsym_device mends it (returning it as it was written).
%!test
%! old = bsym_device ();
%! unwind_protect
%!   setenv ("BSYM_OCTAVE_DEVICE", "tpu");
%!   try
%!     bsym_eigen (eye (2));
%!     error ("no error for BSYM_OCTAVE_DEVICE=tpu");
%!   catch err
%!     assert (err.identifier, "batchsym:bad_argument");
%!     assert (err.message, "bsym_eigen: the default device, environment variable BSYM_OCTAVE_DEVICE, must be one of 'auto', 'cpu', 'gpu' or unset (got 'tpu'); set it with bsym_device");
%!   end_try_catch
%!   assert (bsym_device ("auto"), "tpu");
%!   assert (bsym_eigen (eye (2)), [1; 1], 4 * eps);
%!   setenv ("BSYM_OCTAVE_DEVICE", "");
%!   assert (bsym_device (), "auto");
%! unwind_protect_cleanup
%!   bsym_device (old);
%! end_unwind_protect

## One context per process, kept across calls; clear functions releases it and the
## next call makes a new one.
%!test
%! A = repmat ([2 1; 1 2], [1 1 3]);
%! bsym_solve (A, ones (2, 3));
%! [~, s1] = bsym_device ();
%! assert (s1.alive);
%! assert (s1.created >= 1);
%! for i = 1:3
%!   bsym_solve (A, ones (2, 3));
%!   bsym_eigen (A);
%! endfor
%! [~, s2] = bsym_device ();
%! assert (s2, s1);
%! clear functions
%! [~, s3] = bsym_device ();
%! assert (s3.alive, false);
%! ## created: 0 when Octave unloaded the MEX file; Octave 7 keeps a MEX file
%! ## that uses the interleaved complex API loaded (its count goes on)
%! assert (any (s3.created == [0, s1.created]));
%! assert (bsym_solve (A, ones (2, 3)), ones (2, 3) / 3, 1e-15);
%! [~, s4] = bsym_device ();
%! assert (s4, struct ("created", s3.created + 1, "alive", true));

## An error of the core (n = 257 on the GPU: size_unsupported with a GPU,
## no_device without) keeps the context.
%!test
%! bsym_eigen (eye (2));
%! [~, s1] = bsym_device ();
%! try
%!   bsym_eigen (eye (257), "device", "gpu");
%!   error ("no error for n = 257 on the GPU");
%! catch err
%!   assert (any (strcmp (err.identifier, {"batchsym:size_unsupported", "batchsym:no_device"})));
%! end_try_catch
%! assert (bsym_eigen (eye (2)), [1; 1], 4 * eps);
%! [~, s2] = bsym_device ();
%! assert (s2, s1);

%!error <called with too many inputs> bsym_device ("cpu", 1)
%!error id=batchsym:bad_argument bsym_device (2)
%!error <bsym_device: the device must be one of 'auto', 'cpu', 'gpu' \(got 'tpu'\)> bsym_device ("tpu")
%!error id=batchsym:bad_argument bsym_device ("tpu")
