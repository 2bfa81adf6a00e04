// bsym_empty.cc -- __bsym_empty__ (class, d1, d2, ...): an array of the
// given class ("double", "single", "complex double" or "complex single")
// and dimensions whose memory Octave owns
// but nobody has touched yet, for the MEX gateways to write their results
// into (through mexCallMATLAB). Built as an oct-file beside __bsym__.mex.
//
// Why: Octave (7.x, without its polymorphic-allocator build) copies every
// MEX result built on an mxMalloc'ed buffer on the way out, and every array
// made at the Octave level (zeros, ...) is filled by one thread first; for
// the 819 MB of eigenvectors of 1e5 32 x 32 matrices either costs 0.6 s on
// the H200 machine, against 0.09 s for the whole call from R
// (inst/bench/host_calls.m, RESULTS.md). Here the memory comes from operator
// new untouched, Array takes it over (and gives it back with operator
// delete), and the core's own threads touch it first when they write the
// result, as they do under R. The contents are unspecified until written:
// only the gateways call this, and they overwrite every element.
//
// The complex classes are also the only way the gateways get a complex
// result: Octave 7.3's mxCreateNumericArray (and its siblings) with mxCOMPLEX
// in the interleaved API allocates the real part only, and the first write of
// the imaginary parts corrupts the heap.
#include <memory>

#include <octave/oct.h>
#include <octave/ov-cx-mat.h>
#include <octave/ov-flt-cx-mat.h>

// n elements of T from operator new, owned by the returned Array.
template <typename T>
static Array<T> untouched (const dim_vector& dv)
{
  std::allocator<T> alloc;
  return Array<T> (alloc.allocate (dv.safe_numel ()), dv);
}

DEFUN_DLD (__bsym_empty__, args, ,
           "-*- texinfo -*-\n"
           "@deftypefn {} {@var{a} =} __bsym_empty__ (@var{class}, @var{d1}, @var{d2}, @dots{})\n"
           "Private to batchsym: an array whose contents are unspecified.\n"
           "@end deftypefn")
{
  if (args.length () < 2 || ! args(0).is_string ())
    error ("__bsym_empty__: needs a class name and the dimensions");
  const std::string cls = args(0).string_value ();
  dim_vector dv = dim_vector::alloc (args.length () - 1 > 2 ? args.length () - 1 : 2);
  dv(1) = 1;
  for (int i = 1; i < args.length (); i++)
    {
      const double d = args(i).double_value ();
      if (! (d >= 0) || d != static_cast<double> (static_cast<octave_idx_type> (d)))
        error ("__bsym_empty__: dimensions must be whole numbers >= 0");
      dv(i - 1) = static_cast<octave_idx_type> (d);
    }
  if (cls == "double")
    return octave_value (untouched<double> (dv));
  if (cls == "single")
    return octave_value (untouched<float> (dv));
  // complex: the value object made directly, not by octave_value's
  // constructor from the array, which would narrow it to a real array when
  // the (unwritten) imaginary parts happen to be zero
  if (cls == "complex double")
    return octave_value (new octave_complex_matrix (ComplexNDArray (untouched<Complex> (dv))));
  if (cls == "complex single")
    return octave_value (new octave_float_complex_matrix (FloatComplexNDArray (untouched<FloatComplex> (dv))));
  error ("__bsym_empty__: class must be \"double\", \"single\", \"complex double\" or \"complex single\"");
}
