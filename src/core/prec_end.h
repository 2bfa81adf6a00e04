/* prec_end.h -- see prec_double.h. */
#undef T
#undef SFX
#undef TIN
#undef TSFX
#undef BSYM_MIXED
#undef EPS
#undef TMAX
#undef TMIN
#undef FABS
#undef SQRT
#undef COPYSIGN
#undef FREXP
#undef LDEXP
#undef ISFINITE
