// prec.cuh -- the CUDA backend's one binding layer between precisions and
// names. The CUDA code is written as templates over the element type T; the
// bodies shared with the CPU (core/*_impl.h, core/*_numerics.h) are C,
// compiled once per precision with names from core/prec.h's PREC (te_carve_d,
// te_carve_s, ...). Here, once:
//   BSYM_CUDA_FOR_EACH_TYPE(X)  X(float) X(double): every type the backend
//        is built for (complex float and complex double join this list), for
//        explicit instantiations of the templates the backend table and the
//        other .cu files use;
//   prec_tag<T>, BSYM_PREC_BIND(name)  the C-named shared functions name##s,
//        name##d as one overload set name(prec_tag<T>(), args...);
//   BSYM_PREC_BIND_TYPE(name)  the C-named types name##s, name##d as
//        name##of<T>::type;
//   prec<T>  the precision's facts (its column of a backend table, letter,
//        largest finite value).
#ifndef BSYM_PREC_CUH
#define BSYM_PREC_CUH

#include <cfloat>

#include "../core/backend.h"

#define BSYM_CUDA_FOR_EACH_TYPE(X) X(float) X(double)

template <typename T> struct prec_tag {};

template <typename T> struct prec;
template <> struct prec<float> {
    static constexpr bsym__prec id = BSYM__PREC_S;
    static constexpr char letter = 's';
    static constexpr float max = FLT_MAX;
};
template <> struct prec<double> {
    static constexpr bsym__prec id = BSYM__PREC_D;
    static constexpr char letter = 'd';
    static constexpr double max = DBL_MAX;
};

#define BSYM_PREC_BIND(name)                                                                    \
    template <typename... A>                                                                    \
    static __device__ __forceinline__ auto name(prec_tag<float>, A... a)                        \
    {                                                                                           \
        return name##s(a...);                                                                   \
    }                                                                                           \
    template <typename... A>                                                                    \
    static __device__ __forceinline__ auto name(prec_tag<double>, A... a)                       \
    {                                                                                           \
        return name##d(a...);                                                                   \
    }

#define BSYM_PREC_BIND_TYPE(name)                                                               \
    template <typename T> struct name##of;                                                      \
    template <> struct name##of<float> {                                                        \
        typedef name##s type;                                                                   \
    };                                                                                          \
    template <> struct name##of<double> {                                                       \
        typedef name##d type;                                                                   \
    };

#endif
