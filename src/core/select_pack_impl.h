/*
 * select_pack_impl.h -- precision-generic packing of the eigensolvers' output
 * for the bindings (bsym_dselect_pack, bsym_sselect_pack in rules.c, which
 * includes this once per precision).
 *
 * A system's values and vector columns are first reversed where they are
 * (in place) or copied reversed (out of place), then moved to its packed
 * place. In place with rows < n, system k's packed place overlaps the
 * unpacked places of the systems before it, so the systems go in order;
 * otherwise each is independent and the OpenMP team shares them.
 */

static void PREC(pack_one_)(int64_t k, int64_t n, int64_t rows, int64_t c, int descending,
                            T fill, const T *w, const T *V, T *ow, T *ov)
{
    const int in_place = w == ow;
    T *dw = ow + k * rows;
    if (in_place) {
        T *sw = ow + k * n; /* reverse where the values are, then move */
        for (int64_t i = 0; descending && i < c / 2; i++) {
            const T t = sw[i];
            sw[i] = sw[c - 1 - i];
            sw[c - 1 - i] = t;
        }
        if (dw != sw && c > 0)
            memmove(dw, sw, (size_t)c * sizeof(T));
    } else {
        const T *sw = w + k * n;
        for (int64_t i = 0; i < c; i++)
            dw[i] = sw[descending ? c - 1 - i : i];
    }
    for (int64_t i = c; i < rows; i++)
        dw[i] = fill;
    if (V == NULL)
        return;
    T *dv = ov + k * n * rows;
    if (in_place) {
        T *sv = ov + k * n * n;
        for (int64_t j = 0; descending && j < c / 2; j++) {
            T *a = sv + j * n, *b = sv + (c - 1 - j) * n;
            for (int64_t i = 0; i < n; i++) {
                const T t = a[i];
                a[i] = b[i];
                b[i] = t;
            }
        }
        if (dv != sv && c > 0)
            memmove(dv, sv, (size_t)(c * n) * sizeof(T));
    } else {
        const T *sv = V + k * n * n;
        for (int64_t j = 0; j < c; j++)
            memcpy(dv + j * n, sv + (descending ? c - 1 - j : j) * n, (size_t)n * sizeof(T));
    }
    for (int64_t i = c * n; i < rows * n; i++)
        dv[i] = fill;
}
static void PREC(select_pack_)(int64_t n, int64_t rows, int64_t batch, const int *count,
                               const int *info, int descending, T fill, const T *w, const T *V,
                               T *ow, T *ov)
{
    const int in_order = w == ow && rows < n;
    const int par = !in_order && batch * (n + 1) * rows > BSYM_PACK_PARALLEL_MIN;
#pragma omp parallel for schedule(static) if (par)
    for (int64_t k = 0; k < batch; k++) {
        int64_t c = info[k] != 0 ? 0 : count != NULL ? count[k] : rows;
        c = c < 0 ? 0 : c > rows ? rows : c;
        PREC(pack_one_)(k, n, rows, c, descending, fill, w, V, ow, ov);
    }
}
