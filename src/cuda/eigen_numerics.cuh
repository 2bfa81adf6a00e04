// eigen_numerics.cuh -- included by eigen.cu once per row-update cap
// (TE_ROWS_CAP 32 or 64, each inside its own namespace): the shared numerics
// of core/tridiag_eig_impl.h for both precisions, their precision-generic
// names (te<T>), and the GPU row update. Kernels for n <= 32 use the cap-32
// copy, whose row update never holds 64 accumulators, so that the register
// allocation (and the code) of the common sizes stays small.

#include "../core/prec_double.h"
#include "../core/tridiag_eig_impl.h"
#include "../core/prec_end.h"

#include "../core/prec_float.h"
#include "../core/tridiag_eig_impl.h"
#include "../core/prec_end.h"

// The precision-generic names of the included functions (prec.cuh), and the
// numerics of this copy as one type, so that a kernel picks its copy by cap.
BSYM_PREC_BIND_TYPE(te_ws_)
BSYM_PREC_BIND(te_carve_)
BSYM_PREC_BIND(te_scale_)
BSYM_PREC_BIND(te_select_range_)
BSYM_PREC_BIND(te_dc_)
BSYM_PREC_BIND(te_dc_select_)
BSYM_PREC_BIND(te_dc_output_)
template <typename T> struct te {
    typedef typename te_ws_of<T>::type ws;
    static __device__ void carve(ws *w, int n, T *wt, int *wi) { te_carve_(prec_tag<T>(), w, n, wt, wi); }
    static __device__ void scale(ws *w, int n) { te_scale_(prec_tag<T>(), w, n); }
    // The selected range before the solve: all of it for a value interval,
    // which dc_select then cuts from the computed eigenvalues (the GPU
    // computes every eigenvalue, by QL or divide and conquer).
    static __device__ void select(ws *w, int n, const bsym_select &s)
    {
        te_select_range_(prec_tag<T>(), w, n, s.kind == BSYM_SELECT_VALUE ? BSYM_SELECT_ALL : s.kind, s.il, s.iu,
                         s.vl, s.vu);
    }
    static __device__ void dc(ws *w, int n, int lane, int step) { te_dc_(prec_tag<T>(), w, n, lane, step); }
    static __device__ void dc_select(ws *w, int n, const bsym_select &s)
    {
        te_dc_select_(prec_tag<T>(), w, n, s.kind, s.vl, s.vu);
    }
    static __device__ void output(const ws *w, int n, T *ow, T *ov, int lane, int step)
    {
        te_dc_output_(prec_tag<T>(), w, n, ow, ov, lane, step);
    }
};

// The row update of one level (see te_rows_ in tridiag_eig_impl.h) for one
// row r: the block's new row segment is accumulated in M registers (M the
// smallest class >= m), reading the old entries through src, then written
// back in place.
template <int M, typename T, typename WS>
__device__ void rows_block(const WS *w, int n, int lo, int m, int r)
{
    T acc[M];
#pragma unroll
    for (int f = 0; f < M; f++)
        acc[f] = 0;
    for (int p = 0; p < m; p++) {
        const T x = TE_W(w, n, r, w->src[lo + p]);
        const T *u = w->U + lo + p + (size_t)lo * TE_LDU(n);
#pragma unroll
        for (int f = 0; f < M; f++)
            if (f < m)
                acc[f] += x * u[(size_t)f * TE_LDU(n)];
    }
#pragma unroll
    for (int f = 0; f < M; f++)
        if (f < m)
            TE_W(w, n, r, lo + f) = acc[f];
}

template <typename T, typename WS>
__device__ void rows_level(const WS *w, int n, int s, int r)
{
    for (int lo = 0, b = 0; lo < n; lo += s, b++) {
        if (w->kcnt[b] < 0)
            continue;
        const int m = (lo + s < n ? lo + s : n) - lo;
        if (m <= 8)
            rows_block<8, T>(w, n, lo, m, r);
        else if (m <= 16)
            rows_block<16, T>(w, n, lo, m, r);
#if TE_ROWS_CAP > 32
        else if (m <= 32)
            rows_block<32, T>(w, n, lo, m, r);
        else
            rows_block<64, T>(w, n, lo, m, r);
#else
        else
            rows_block<32, T>(w, n, lo, m, r);
#endif
    }
}

__device__ void te_rows_d(const te_ws_d *w, int n, int s, int r) { rows_level<double>(w, n, s, r); }
__device__ void te_rows_s(const te_ws_s *w, int n, int s, int r) { rows_level<float>(w, n, s, r); }

