## -*- texinfo -*-
## @deftypefn  {} {} run_octave_tests (@var{counts_file})
## @deftypefnx {} {} run_octave_tests (@var{counts_file}, @var{octdir})
## Run Octave's @code{test} on every @file{bsym_*.m} file of batchsym in
## @var{octdir} (default: the repository's @file{octave/}; the top-level
## Makefile's @code{test-octave-pkg} gives the folder of the installed
## package), print a summary, and write one line @qcode{"P F"} (tests passed,
## tests failed) to @var{counts_file}; the top-level Makefile adds those up.
##
## The functions run on their default device, @code{bsym_device ()}: the
## environment variable @env{BSYM_OCTAVE_DEVICE} (unset: @qcode{"auto"}), so
## @code{BSYM_OCTAVE_DEVICE=gpu make test-octave} runs the suite on the GPU.
##
## Counted as failures, besides failing @code{%!test}, @code{%!error},
## @code{%!warning} and @code{%!assert} blocks (regressions included): a file
## with no tests, a file whose tests could not run at all, a function that
## resolves to another file than the one in @var{octdir} (a stale path), and
## finding no @file{bsym_*.m} file.  Known failures (@code{%!xtest}) and
## skipped tests are shown, not counted.  After writing the counts it raises an
## error when anything failed, so that Octave exits with a non-zero status.
##
## Usage (from the top-level Makefile):
## @example
## octave --no-gui --no-window-system --quiet --eval "addpath('<repo>/octave'); addpath('<repo>/tests/octave'); run_octave_tests('<repo>/build/counts-octave')"
## @end example
## @end deftypefn

function run_octave_tests (counts_file, octdir)

  if (nargin < 1 || ! ischar (counts_file) || (nargin == 2 && ! ischar (octdir)))
    print_usage ();
  endif
  page_screen_output (false, "local");

  if (nargin < 2)
    here = fileparts (mfilename ("fullpath"));
    octdir = fullfile (here, "..", "..", "octave");
  endif
  octdir = canonicalize_file_name (octdir);
  files = dir (fullfile (octdir, "bsym_*.m"));
  printf ("batchsym Octave tests: %d files in %s\n", numel (files), octdir);
  ## the default device of the calls without 'device' (this raises when
  ## BSYM_OCTAVE_DEVICE holds no device name: nothing would run)
  printf ("default device: %s\n", bsym_device ());

  passed = failed = 0;
  if (isempty (files))
    printf ("!!!!! no bsym_*.m files found (counted as one failure)\n");
    failed = 1;
  endif
  summary = {};
  for i = 1:numel (files)
    file = fullfile (octdir, files(i).name);
    [~, fname] = fileparts (file);
    [p, f, note] = test_one (fname, file);
    passed += p;
    failed += f;
    summary(end+1,:) = {files(i).name, p, f, note};
  endfor

  ## The summary.
  printf ("\n%-28s %7s %7s\n", "file", "passed", "failed");
  for i = 1:rows (summary)
    printf ("%-28s %7d %7d  %s\n", summary{i,:});
  endfor
  printf ("%-28s %7d %7d  (default device: %s)\n", "total", passed, failed, bsym_device ());

  ## The counts, for the Makefile.
  dir_of = fileparts (counts_file);
  if (! isempty (dir_of) && ! isfolder (dir_of))
    mkdir (dir_of);
  endif
  [fid, msg] = fopen (counts_file, "wt");
  if (fid < 0)
    error ("run_octave_tests: cannot write %s: %s", counts_file, msg);
  endif
  fprintf (fid, "%d %d\n", passed, failed);
  fclose (fid);

  if (failed > 0)
    error ("run_octave_tests: %d test(s) failed (see the messages above)", failed);
  endif

endfunction

## Runs the tests of one file; returns the counts and a note for the summary.
function [p, f, note] = test_one (fname, file)

  p = f = 0;
  note = "";
  where = which (fname);
  if (isempty (where) || ! strcmp (canonicalize_file_name (where), file))
    printf ("!!!!! %s resolves to '%s', not %s: is octave/ first on the path?\n",
            fname, where, file);
    f = 1;
    note = "not on the path";
    return;
  endif
  try
    [n, nmax, nxfail, nbug, nskip, nrtskip] = test (file, "quiet", stdout);
  catch err
    printf ("!!!!! the tests of %s could not run: %s\n", file, err.message);
    f = 1;
    note = "tests aborted";
    return;
  end_try_catch
  if (nmax == 0)
    printf ("!!!!! %s has no tests (counted as one failure)\n", file);
    f = 1;
    note = "no tests";
    return;
  endif
  ## nmax counts the tests that ran (known failures included); regressions
  ## of fixed bugs count as failures.
  p = n;
  f = nmax - n - nxfail - nbug;
  if (nxfail + nbug > 0)
    note = sprintf ("%d known failure(s)", nxfail + nbug);
  endif
  if (nskip + nrtskip > 0)
    note = strtrim (sprintf ("%s %d skipped", note, nskip + nrtskip));
  endif

endfunction
