/* Generated from the book: book/en/02-scaled-dot-product.nw (the Spanish
 * edition tangles the same bytes). Edit the chapter, not this file. */
/* sdpa.c - chapter 02: the stable softmax and scaled dot-product attention */
#include <math.h>
#include <stdlib.h>
#include "sdpa.h"
#include "../core/matrix.h"

/* stable_softmax - w_j = exp(s_j - m) / sum_j' exp(s_j' - m) in place,
 * m = max_j s_j; s holds no NaN and no +inf */
static void stable_softmax(double *s, int n)
{
    double m = -INFINITY;                           /* the row maximum */
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    if (m == -INFINITY) {                      /* every score is -inf */
        for (int j = 0; j < n; j++) s[j] = 0.0;
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        s[j] = exp(s[j] - m);                       /* <= 1: no overflow */
        sum += s[j];
    }
    for (int j = 0; j < n; j++) s[j] /= sum;        /* sum >= 1 */
}

/* softmax_row - the checked softmax of one row */
mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY)
            return mm_fail(MM_EINVAL, "%s: s[%d] is %g; a score must be "
                           "finite, or -inf for a hidden key", __func__, j,
                           s[j]);
    stable_softmax(s, n);
    return MM_OK;
}

/* attend - out_i = softmax(q_i K^T * scale + bias_i) V, with a_i (T_k) as
 * the row of scores, then of weights */
static mm_status attend(double *out_i, double *a_i, const double *q_i,
                        const double *k, const double *v, const double *bias_i,
                        double scale, int i, int T_k, int d_k, int d_v)
{
    int n = T_k;              /* keys 0..n-1: up to the last visible one */
    while (n > 0 && bias_i != NULL && bias_i[n - 1] == -INFINITY)
        a_i[--n] = 0.0;                          /* weight 0, never scored */
    if (n == 0) {                                /* every key hidden */
        for (int c = 0; c < d_v; c++) out_i[c] = 0.0;
        return MM_OK;
    }
    mm_matmul_unchecked(a_i, q_i, k, 1, d_k, n, true);      /* q_i K^T */
    for (int j = 0; j < n; j++) {
        if (bias_i != NULL && bias_i[j] == -INFINITY) {
            a_i[j] = -INFINITY;         /* hidden: its score is not used */
            continue;
        }
        if (!isfinite(a_i[j]))                  /* q_i . k_j passed DBL_MAX */
            return mm_fail(MM_ERANGE, "sdpa: a score of query %d overflows; q "
                           "and k hold values too large to multiply (q . k is "
                           "checked before the 1/sqrt(d_k) scale)", i);
        a_i[j] *= scale;                                /* / sqrt(d_k) */
        if (bias_i != NULL) {                 /* finite here: 0, -1e9, ... */
            a_i[j] += bias_i[j];
            if (isinf(a_i[j]))              /* past DBL_MAX, up or down */
                return mm_fail(MM_ERANGE, "sdpa: query %d, key %d: the score "
                               "overflows once the bias is added", i, j);
        }
    }
    stable_softmax(a_i, n);
    mm_matmul_unchecked(out_i, a_i, v, 1, n, d_v, false);   /* a_i V */
    for (int c = 0; c < d_v; c++)
        if (!isfinite(out_i[c]))
            return mm_fail(MM_ERANGE, "sdpa: row %d of out overflows; v "
                           "holds values within a rounding of the largest "
                           "double", i);
    return MM_OK;
}

/* sdpa - out = softmax(Q K^T / sqrt(d_k) + bias) V, one query at a time */
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias,
               int T_q, int T_k, int d_k, int d_v)
{
    MM_NEED_BUFFER(out);
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_POSITIVE(T_q);  MM_NEED_POSITIVE(T_k);
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_NEED_SIZE_PRODUCT(T_q, d_k);  MM_NEED_SIZE_PRODUCT(T_k, d_k);
    MM_NEED_SIZE_PRODUCT(T_k, d_v);  MM_NEED_SIZE_PRODUCT(T_q, d_v);
    MM_NEED_SIZE_PRODUCT(T_q, T_k);
    size_t n_w = weights ? (size_t)T_q * T_k : 0;     /* an absent buffer */
    size_t n_b = bias ? (size_t)T_q * T_k : 0;         /* has no bytes */
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(out, (size_t)T_q * d_v), MM_BUFFER(weights, n_w),
        MM_BUFFER(q, (size_t)T_q * d_k), MM_BUFFER(k, (size_t)T_k * d_k),
        MM_BUFFER(v, (size_t)T_k * d_v), MM_BUFFER(bias, n_b) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(q, T_q, d_k);  MM_NEED_FINITE(k, T_k, d_k);
    MM_NEED_FINITE(v, T_k, d_v);
    for (size_t e = 0; bias != NULL && e < (size_t)T_q * T_k; e++)
        if (isnan(bias[e]) || bias[e] == INFINITY)
            return mm_fail(MM_EINVAL, "%s: bias[%zu][%zu] is %g; a bias "
                           "must be finite, or -inf to hide a key", __func__,
                           e / (size_t)T_k, e % (size_t)T_k, bias[e]);
    double *row = weights;              /* one row of T_k, or the caller's */
    if (weights == NULL && (row = malloc((size_t)T_k * sizeof *row)) == NULL)
        return mm_fail(MM_ENOMEM, "%s: no memory for a row of %d scores",
                       __func__, T_k);
    double scale = 1.0 / sqrt((double)d_k);
    mm_status st = MM_OK;
    for (int i = 0; i < T_q && st == MM_OK; i++)
        st = attend(out + (size_t)i * d_v,
                    weights ? weights + (size_t)i * T_k : row,
                    q + (size_t)i * d_k, k, v,
                    bias ? bias + (size_t)i * T_k : NULL,
                    scale, i, T_k, d_k, d_v);
    if (weights == NULL) free(row);
    return st;
}
