/*
 * bk_rule.h -- LAPACK's Bunch-Kaufman pivot rule (alpha = (1 + sqrt 17) / 8),
 * the one place it is written: the CPU's solves (indef_impl.h,
 * indef_lanes_impl.h) and the GPU's (cuda/indef.cu) call it, so that both
 * backends choose their pivots by the same rule. For column k of the
 * trailing matrix, with absakk = |a_kk| and colmax the largest |a_ik|, i > k
 * (LAPACK's cabs1, |re| + |im|, for complex), at row imax:
 *   bsym__bk_row_[sd]   1 when the row maximum is needed (|a_kk| < alpha
 *                       colmax);
 *   bsym__bk_pick_[sd]  then, from the largest off-diagonal |entry| of row
 *                       imax (rowmax) and |a_imax,imax| (absimax), the row
 *                       *kp to bring to k (a 1x1 pivot) or to k + 1 (a 2x2
 *                       pivot); returns the step, 1 or 2.
 * Plain C, also compiled by nvcc for the device (BSYM_BK_FN).
 */
#ifndef BSYM_BK_RULE_H
#define BSYM_BK_RULE_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define BSYM_BK_FN static inline __host__ __device__
#else
#define BSYM_BK_FN static inline
#endif

#define BSYM_BK_RULE(RT, S, SQRT_)                                                                  \
    BSYM_BK_FN int bsym__bk_row_##S(RT absakk, RT colmax)                                          \
    {                                                                                              \
        const RT alpha = ((RT)1 + SQRT_((RT)17)) / (RT)8;                                          \
        return absakk < alpha * colmax;                                                            \
    }                                                                                              \
    BSYM_BK_FN int bsym__bk_pick_##S(RT absakk, RT colmax, RT rowmax, RT absimax, int64_t k,       \
                                     int64_t imax, int64_t *kp)                                    \
    {                                                                                              \
        const RT alpha = ((RT)1 + SQRT_((RT)17)) / (RT)8;                                          \
        if (absakk >= alpha * colmax * (colmax / rowmax)) {                                        \
            *kp = k;                                                                               \
            return 1;                                                                              \
        }                                                                                          \
        *kp = imax;                                                                                \
        return absimax >= alpha * rowmax ? 1 : 2;                                                  \
    }
BSYM_BK_RULE(float, s, sqrtf)
BSYM_BK_RULE(double, d, sqrt)
#undef BSYM_BK_RULE

#endif
