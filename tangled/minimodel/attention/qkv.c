/* Generated from the book: book/en/01-qkv.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* qkv.c - chapter 01: the Query, Key and Value projections */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include "qkv.h"
#include "../core/matrix.h"
#include "../core/rng.h"

/* product_status - the status s of a product into c (n, m) made for fn; an
 * MM_ERANGE is reported again as fn's, naming c and what overflowed */
static mm_status product_status(mm_status s, const char *fn, const char *c_name,
                                const double *c, int n, int m, const char *what)
{
    if (s != MM_ERANGE) return s;
    return mm_need_finite(MM_ERANGE, fn, c_name, c, n, m, what);
}

/* PRODUCT(c, a, b, n, k, m, bt, what) - c = a b (or a b^T when bt) in a
 * function whose checks have passed; return on failure */
#define PRODUCT(c, a, b, n, k, m, bt, what) MM_TRY(product_status( \
        mm_matmul(c, a, b, n, k, m, bt), __func__, #c, c, n, m, what))

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
    MM_NEED_SIZE_PRODUCT(T, d_model);  MM_NEED_SIZE_PRODUCT(T, d_k);
    MM_NEED_SIZE_PRODUCT(T, d_v);  MM_NEED_SIZE_PRODUCT(d_model, d_k);
    MM_NEED_SIZE_PRODUCT(d_model, d_v);
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(q, (size_t)T * d_k), MM_BUFFER(k, (size_t)T * d_k),
        MM_BUFFER(v, (size_t)T * d_v), MM_BUFFER(x, (size_t)T * d_model),
        MM_BUFFER(w_q, (size_t)d_model * d_k),
        MM_BUFFER(w_k, (size_t)d_model * d_k),
        MM_BUFFER(w_v, (size_t)d_model * d_v) };
    MM_NEED_DISJOINT(bufs, 3);
    MM_NEED_FINITE(x, T, d_model);
    MM_NEED_FINITE(w_q, d_model, d_k);  MM_NEED_FINITE(w_k, d_model, d_k);
    MM_NEED_FINITE(w_v, d_model, d_v);
    PRODUCT(q, x, w_q, T, d_model, d_k, false, "Q = X W_Q overflows");
    PRODUCT(k, x, w_k, T, d_model, d_k, false, "K = X W_K overflows");
    PRODUCT(v, x, w_v, T, d_model, d_v, false, "V = X W_V overflows");
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

/* check_qkv_width - MM_EINVAL, named after fn, unless 2 d_k + d_v fits in
 * an int; d_k, d_v > 0 */
static mm_status check_qkv_width(const char *fn, int d_k, int d_v)
{
    if (d_k <= (INT_MAX - d_v) / 2) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: the width 2 d_k + d_v = 2 * %d + %d does "
                   "not fit in an int", fn, d_k, d_v);
}

/* qkv_pack - W_QKV = [W_Q | W_K | W_V] */
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_TRY(check_qkv_width(__func__, d_k, d_v));
    int d_qkv = 2 * d_k + d_v;                           /* width of W_QKV */
    MM_NEED_SIZE_PRODUCT(d_model, d_qkv);
    const mm_buffer bufs[] = { MM_BUFFER(w_qkv, (size_t)d_model * d_qkv),
        MM_BUFFER(w_q, (size_t)d_model * d_k),
        MM_BUFFER(w_k, (size_t)d_model * d_k),
        MM_BUFFER(w_v, (size_t)d_model * d_v) };
    MM_NEED_DISJOINT(bufs, 1);
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
    MM_TRY(check_qkv_width(__func__, d_k, d_v));
    int d_qkv = 2 * d_k + d_v;                         /* row stride of qkv */
    MM_NEED_SIZE_PRODUCT(T, d_qkv);
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(q, (size_t)T * d_k), MM_BUFFER(k, (size_t)T * d_k),
        MM_BUFFER(v, (size_t)T * d_v), MM_BUFFER(qkv, (size_t)T * d_qkv) };
    MM_NEED_DISJOINT(bufs, 3);
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
    MM_TRY(check_qkv_width(__func__, d_k, d_v));
    int d_qkv = 2 * d_k + d_v;                           /* width of W_QKV */
    MM_NEED_SIZE_PRODUCT(T, d_model);  MM_NEED_SIZE_PRODUCT(T, d_qkv);
    MM_NEED_SIZE_PRODUCT(d_model, d_qkv);
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(q, (size_t)T * d_k), MM_BUFFER(k, (size_t)T * d_k),
        MM_BUFFER(v, (size_t)T * d_v), MM_BUFFER(qkv, (size_t)T * d_qkv),
        MM_BUFFER(x, (size_t)T * d_model),
        MM_BUFFER(w_qkv, (size_t)d_model * d_qkv) };
    MM_NEED_DISJOINT(bufs, 4);
    MM_NEED_FINITE(x, T, d_model);  MM_NEED_FINITE(w_qkv, d_model, d_qkv);
    PRODUCT(qkv, x, w_qkv, T, d_model, d_qkv, false, "X W_QKV overflows");
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}

/* softmax_row_plain - w[j] = exp(s[j]) / sum_j' exp(s[j']), in place, for
 * finite scores; MM_ERANGE, worded by its cause, when the sum is inf or 0 */
static mm_status softmax_row_plain(double *w, int n, int row)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        w[j] = exp(w[j]);
        sum += w[j];
    }
    if (isinf(sum))
        return mm_fail(MM_ERANGE, "qkv_attend_unscaled: overflow: the "
                       "exponentials of score row %d sum to inf (exp "
                       "overflows past about 709);"
                       " chapter 02's softmax subtracts the row maximum", row);
    if (sum == 0.0)
        return mm_fail(MM_ERANGE, "qkv_attend_unscaled: underflow: the "
                       "exponentials of score row %d sum to 0 (every score "
                       "is below about -745);"
                       " chapter 02's softmax subtracts the row maximum", row);
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
    MM_NEED_SIZE_PRODUCT(T, T);  MM_NEED_SIZE_PRODUCT(T, d_k);
    MM_NEED_SIZE_PRODUCT(T, d_v);
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(out, (size_t)T * d_v), MM_BUFFER(weights, (size_t)T * T),
        MM_BUFFER(q, (size_t)T * d_k), MM_BUFFER(k, (size_t)T * d_k),
        MM_BUFFER(v, (size_t)T * d_v) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(q, T, d_k);  MM_NEED_FINITE(k, T, d_k);
    MM_NEED_FINITE(v, T, d_v);
    PRODUCT(weights, q, k, T, d_k, T, true, "the scores Q K^T overflow");
    for (int i = 0; i < T; i++)
        MM_TRY(softmax_row_plain(weights + (size_t)i * T, T, i));
    PRODUCT(out, weights, v, T, T, d_v, false, "weights V overflows");
    return MM_OK;
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
    MM_NEED_POSITIVE(d_model);  MM_NEED_SIZE_PRODUCT(d_model, d_model);
    size_t n = (size_t)d_model * d_model;              /* doubles per matrix */
    const mm_buffer bufs[] = { MM_BUFFER(w_q, n), MM_BUFFER(w_k, n),
                               MM_BUFFER(w_v, n), MM_BUFFER(w_o, n) };
    MM_NEED_DISJOINT(bufs, 4);
    mm_rng r;
    mm_rng_seed(&r, seed);
    double *w[4] = { w_q, w_k, w_v, w_o };
    for (int m = 0; m < 4; m++)                 /* row by row, one stream */
        for (size_t i = 0; i < n; i++)
            w[m][i] = MM_INIT_STD * mm_rng_normal(&r);
    return MM_OK;
}
