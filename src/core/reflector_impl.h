/*
 * reflector_impl.h -- the rescaling rule of the CPU's Householder
 * reflectors, real and complex (included by householder_impl.h,
 * hetrd_impl.h and eigen_lanes_impl.h, once per precision; RT, RE, IM,
 * FABS, FREXP, LDEXP, TMIN and EPS from the prec headers).
 *
 * Below TMIN / EPS, |alpha|^2 + sigma (sigma = |x[1:]|^2) may have lost
 * digits to underflow (graded input: |x_i|^2 below TMIN with x_i not
 * negligible beside alpha), and tau would not match v (H off orthogonality
 * by far more than eps: up to 3.5e5 n eps measured). Then alpha and sigma
 * are taken of x / 2^e, 2^e the power of two of max_i max(|re x_i|,
 * |im x_i|) (exact), and beta is scaled back (the reflector is
 * scale-invariant); unless that max is below TMIN: x is then negligible,
 * its squares 0, H = I, and 1 / 2^e would overflow. The GPU's reflectors
 * follow the same rule (cuda/householder.cuh).
 */

/* x[0], x[stride], ... x[(m - 1) stride]: the column (x[0] = alpha). With
 * *alpha = x[0] and *sigma its sigma as computed, returns 2^e, and *alpha,
 * *sigma those of x / 2^e; 1 (and both left) when no rescaling is needed. */
static RT PREC(refl_rescale_)(int64_t m, const T *x, int64_t stride, T *alpha, RT *sigma)
{
    if (!(RE(*alpha) * RE(*alpha) + IM(*alpha) * IM(*alpha) + *sigma < (RT)TMIN / EPS))
        return 1;
    RT mx = 0;
    for (int64_t i = 0; i < m; i++) {
        const RT a = FABS(RE(x[i * stride])), b = FABS(IM(x[i * stride])), c = a > b ? a : b;
        mx = c > mx ? c : mx;
    }
    if (mx < (RT)TMIN)
        return 1;
    int ex;
    FREXP(mx, &ex);
    const RT sc = LDEXP((RT)1, ex);
    RT s2 = 0;
    for (int64_t i = 1; i < m; i++) {
        const RT a = RE(x[i * stride]) / sc, b = IM(x[i * stride]) / sc;
        s2 += a * a + b * b;
    }
    *alpha = *alpha / sc;
    *sigma = s2;
    return sc;
}
