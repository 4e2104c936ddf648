/* Generated from the book: book/en/01-qkv.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* qkv.c - chapter 01: the Query, Key and Value projections */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include "qkv.h"
#include "../core/matrix.h"
#include "../core/rng.h"

/* qkv_project - Q = X W_Q, K = X W_K, V = X W_V */
mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(x);
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));   /* Q = X W_Q */
    MM_TRY(mm_matmul(k, x, w_k, T, d_model, d_k, false));   /* K = X W_K */
    MM_TRY(mm_matmul(v, x, w_v, T, d_model, d_v, false));   /* V = X W_V */
    return MM_OK;
}

/* copy_block - dst[r][c] = src[r][c] for a (rows, cols) block; the row
 * strides dst_stride and src_stride are the widths of the whole matrices */
static void copy_block(double *dst, int dst_stride, const double *src,
                       int src_stride, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            dst[(size_t)r * dst_stride + c] = src[(size_t)r * src_stride + c];
}

/* qkv_pack - W_QKV = [W_Q | W_K | W_V] */
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    int d_qkv = 2 * d_k + d_v;                       /* width of W_QKV */
    copy_block(w_qkv, d_qkv, w_q, d_k, d_model, d_k);
    copy_block(w_qkv + d_k, d_qkv, w_k, d_k, d_model, d_k);
    copy_block(w_qkv + 2 * d_k, d_qkv, w_v, d_v, d_model, d_v);
    return MM_OK;
}

/* qkv_split - rows of qkv cut into q | k | v */
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(qkv);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    int d_qkv = 2 * d_k + d_v;                       /* row stride of qkv */
    copy_block(q, d_k, qkv, d_qkv, T, d_k);
    copy_block(k, d_k, qkv + d_k, d_qkv, T, d_k);
    copy_block(v, d_v, qkv + 2 * d_k, d_qkv, T, d_v);
    return MM_OK;
}

/* qkv_project_fused - qkv = X W_QKV, then split */
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(qkv);  MM_NEED_BUFFER(x);  MM_NEED_BUFFER(w_qkv);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_TRY(mm_matmul(qkv, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}

/* softmax_row_plain - w[j] = exp(s[j]) / sum_j' exp(s[j']), in place;
 * MM_ERANGE when the sum overflows to inf or underflows to 0 */
static mm_status softmax_row_plain(double *w, int n, int row)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        w[j] = exp(w[j]);
        sum += w[j];
    }
    if (!isfinite(sum) || sum == 0.0)
        return mm_fail(MM_ERANGE, "qkv_attend_unscaled: the exponentials "
                       "of score row %d sum to %g; chapter 02's softmax "
                       "subtracts the row maximum to avoid this", row, sum);
    for (int j = 0; j < n; j++) w[j] /= sum;
    return MM_OK;
}

/* qkv_attend_unscaled - weights = softmax(Q K^T) by rows, out = weights V */
mm_status qkv_attend_unscaled(double *out, double *weights, const double *q,
                              const double *k, const double *v,
                              int T, int d_k, int d_v)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(weights);
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_TRY(mm_matmul(weights, q, k, T, d_k, T, true));      /* scores Q K^T */
    for (int i = 0; i < T; i++)
        MM_TRY(softmax_row_plain(weights + (size_t)i * T, T, i));
    return mm_matmul(out, weights, v, T, T, d_v, false);     /* weights V */
}

/* attention_param_count - *count = the weights of W_Q, W_K, W_V and W_O */
mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(n_heads);
    if (d_model % n_heads != 0)
        return mm_fail(MM_EINVAL, "%s: d_model (%d) is not divisible by "
                       "n_heads (%d)", __func__, d_model, n_heads);
    if ((long)d_model > LONG_MAX / 4 / d_model)        /* the total is 4 d^2 */
        return mm_fail(MM_ERANGE, "%s: the count for d_model %d does not fit "
                       "in a long", __func__, d_model);
    long d = d_model, d_k = d_model / n_heads, d_v = d_k;
    long per_head = d * d_k + d * d_k + d * d_v;   /* W_Q, W_K, W_V of one */
    long w_o = d * d;                              /* the output projection */
    *count = n_heads * per_head + w_o;
    return MM_OK;
}

/* attention_init_weights - W_Q, W_K, W_V, W_O from one seeded stream */
mm_status attention_init_weights(double *w_q, double *w_k, double *w_v,
                                 double *w_o, int d_model, uint64_t seed)
{
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);
    MM_NEED_BUFFER(w_o);
    MM_NEED_POSITIVE(d_model);
    size_t n = (size_t)d_model * d_model;
    mm_rng r;
    mm_rng_seed(&r, seed);
    double *w[4] = { w_q, w_k, w_v, w_o };
    for (int m = 0; m < 4; m++)
        MM_TRY(mm_fill_normal(w[m], n, MM_INIT_STD, &r));
    return MM_OK;
}
