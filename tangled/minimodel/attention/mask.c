/* Generated from the book: book/en/04-masking.nw (the Spanish edition
 * tangles the same bytes). Edit the chapter, not this file. */
/* mask.c - chapter 04: masks as biases, and the causal layer */
#include <math.h>
#include <stdlib.h>
#include "mask.h"

/* need_mask - MM_EINVAL unless bias is a buffer of T_q x T_k doubles */
static mm_status need_mask(const char *fn, const double *bias, int T_q,
                           int T_k)
{
    MM_TRY(mm_need_buffer(fn, "bias", bias));
    MM_TRY(mm_need_positive(fn, "T_q", T_q));
    MM_TRY(mm_need_positive(fn, "T_k", T_k));
    return mm_need_size_product(fn, "T_q", T_q, "T_k", T_k);
}

/* is_mask_value - a mask's element is finite, or -inf for a hidden key */
static bool is_mask_value(double b)
{
    return !isnan(b) && b != INFINITY;
}

/* fill_causal - bias[i][j] = 0 if j <= i else -inf, no checks */
static void fill_causal(double *bias, int T)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
            bias[(size_t)i * T + j] = j <= i ? 0.0 : -INFINITY;
}

/* mask_causal - the checked causal mask */
mm_status mask_causal(double *bias, int T)
{
    MM_NEED_BUFFER(bias);  MM_NEED_POSITIVE(T);  MM_NEED_SIZE_PRODUCT(T, T);
    fill_causal(bias, T);
    return MM_OK;
}

/* mask_padding - keys j >= length hidden from every query */
mm_status mask_padding(double *bias, int T_q, int T_k, int length)
{
    MM_TRY(need_mask(__func__, bias, T_q, T_k));
    if (length < 0 || length > T_k)
        return mm_fail(MM_EINVAL, "%s: length = %d must be between 0 and "
                       "T_k = %d", __func__, length, T_k);
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++)
            bias[(size_t)i * T_k + j] = j < length ? 0.0 : -INFINITY;
    return MM_OK;
}

/* mask_from_bool - true -> 0 (visible), false -> -inf (hidden) */
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MM_TRY(need_mask(__func__, bias, T_q, T_k));
    MM_NEED_BUFFER(allowed);
    size_t n = (size_t)T_q * T_k;
    const mm_buffer bufs[] = { MM_BUFFER(bias, n), MM_BUFFER(allowed, n) };
    MM_NEED_DISJOINT(bufs, 1);
    for (size_t e = 0; e < n; e++)
        bias[e] = allowed[e] ? 0.0 : -INFINITY;
    return MM_OK;
}

/* mask_combine - bias += other, elementwise, after checking both */
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MM_TRY(need_mask(__func__, bias, T_q, T_k));
    MM_NEED_BUFFER(other);
    size_t n = (size_t)T_q * T_k;
    const mm_buffer bufs[] = { MM_BUFFER(bias, n), MM_BUFFER(other, n) };
    if (bias != other) MM_NEED_DISJOINT(bufs, 1);
    for (size_t e = 0; e < n; e++) {
        size_t i = e / (size_t)T_k, j = e % (size_t)T_k;
        double b = bias[e], o = other[e];
        if (!is_mask_value(b) || !is_mask_value(o))
            return mm_fail(MM_EINVAL, "%s: bias[%zu][%zu] = %g, other[%zu]"
                           "[%zu] = %g; a mask holds finite values or -inf",
                           __func__, i, j, b, i, j, o);
        if (isfinite(b) && isfinite(o) && isinf(b + o))
            return mm_fail(MM_ERANGE, "%s: bias[%zu][%zu] + other[%zu][%zu] "
                           "overflows", __func__, i, j, i, j);
    }
    for (size_t e = 0; e < n; e++)
        bias[e] += other[e];
    return MM_OK;
}

/* mha_forward_causal - mha_forward with the causal mask as its bias */
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);
    MM_NEED_POSITIVE(T);  MM_NEED_SIZE_PRODUCT(T, T);
    double *bias = malloc((size_t)T * T * sizeof *bias);      /* (T, T) */
    if (bias == NULL)
        return mm_fail(MM_ENOMEM, "%s: no memory for the causal mask of "
                       "%d x %d", __func__, T, T);
    fill_causal(bias, T);
    mm_status st = mha_forward(out, weights, layer, x, bias, T);
    free(bias);
    return st;
}
