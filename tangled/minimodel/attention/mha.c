/* Generated from the book: book/en/03-multi-head.nw (the Spanish edition
 * tangles the same bytes). Edit the chapter, not this file. */
/* mha.c - chapter 03: multi-head attention */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "mha.h"
#include "qkv.h"
#include "sdpa.h"
#include "../core/matrix.h"

/* mha_new - allocate the layer, draw its weights, pack W_QKV */
mm_status mha_new(mha **layer, int d_model, int n_heads, uint64_t seed)
{
    MM_NEED_BUFFER(layer);
    *layer = NULL;
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(n_heads);
    if (d_model % n_heads != 0)
        return mm_fail(MM_EINVAL, "%s: n_heads = %d does not divide d_model "
                       "= %d; each head needs d_model / n_heads columns",
                       __func__, n_heads, d_model);
    if (d_model > INT_MAX / 3)
        return mm_fail(MM_EINVAL, "%s: d_model = %d is too large: 3 d_model, "
                       "the width of W_QKV, does not fit in an int", __func__,
                       d_model);
    MM_TRY(mm_need_size_product(__func__, "d_model", d_model, "4 d_model",
                                4L * d_model));
    size_t dd = (size_t)d_model * d_model;        /* one (d_model, d_model) */
    mha *m = malloc(sizeof *m);
    double *w = malloc(4 * dd * sizeof *w);           /* W_QKV, then W_O */
    double *drawn = malloc(3 * dd * sizeof *drawn);   /* W_Q, W_K, W_V apart */
    if (m == NULL || w == NULL || drawn == NULL) {
        free(m);  free(w);  free(drawn);
        return mm_fail(MM_ENOMEM, "%s: no memory for the weights of a layer "
                       "with d_model = %d", __func__, d_model);
    }
    *m = (mha){ d_model, n_heads, d_model / n_heads, w, w + 3 * dd };
    double *w_q = drawn, *w_k = drawn + dd, *w_v = drawn + 2 * dd;
    (void)attention_init_weights(w_q, w_k, w_v, m->w_o, d_model, seed);
    (void)qkv_pack(m->w_qkv, w_q, w_k, w_v, d_model, d_model, d_model);
    free(drawn);
    *layer = m;
    return MM_OK;
}

/* mha_free - release the layer and its weights */
void mha_free(mha *layer)
{
    if (layer == NULL) return;
    free(layer->w_qkv);                 /* W_O lives in the same block */
    free(layer);
}

/* mha_get_weights - W_Q, W_K, W_V cut out of W_QKV; W_O copied */
mm_status mha_get_weights(double *w_q, double *w_k, double *w_v, double *w_o,
                          const mha *layer)
{
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);
    MM_NEED_BUFFER(w_o);  MM_NEED_BUFFER(layer);
    size_t dd = (size_t)layer->d_model * layer->d_model;
    const mm_buffer bufs[] = {                           /* outputs first */
        MM_BUFFER(w_q, dd), MM_BUFFER(w_k, dd), MM_BUFFER(w_v, dd),
        MM_BUFFER(w_o, dd), MM_BUFFER(layer->w_qkv, 3 * dd),
        MM_BUFFER(layer->w_o, dd) };
    MM_NEED_DISJOINT(bufs, 4);
    memcpy(w_o, layer->w_o, dd * sizeof *w_o);
    return qkv_split(w_q, w_k, w_v, layer->w_qkv, layer->d_model,
                     layer->d_model, layer->d_model);  /* rows of W_QKV */
}

/* mha_set_weights - W_QKV packed from W_Q, W_K, W_V; W_O copied */
mm_status mha_set_weights(mha *layer, const double *w_q, const double *w_k,
                          const double *w_v, const double *w_o)
{
    MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);  MM_NEED_BUFFER(w_o);
    int d = layer->d_model;
    size_t dd = (size_t)d * d;
    const mm_buffer bufs[] = { MM_BUFFER(layer->w_qkv, 3 * dd),
        MM_BUFFER(layer->w_o, dd), MM_BUFFER(w_q, dd), MM_BUFFER(w_k, dd),
        MM_BUFFER(w_v, dd), MM_BUFFER(w_o, dd) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(w_q, d, d);  MM_NEED_FINITE(w_k, d, d);
    MM_NEED_FINITE(w_v, d, d);  MM_NEED_FINITE(w_o, d, d);
    memcpy(layer->w_o, w_o, dd * sizeof *w_o);
    return qkv_pack(layer->w_qkv, w_q, w_k, w_v, d, d, d);
}

/* mha_param_count - 4 d_model^2, as chapter 01 counts it */
mm_status mha_param_count(long *count, const mha *layer)
{
    MM_NEED_BUFFER(count);  MM_NEED_BUFFER(layer);
    return attention_param_count(count, layer->d_model, layer->n_heads);
}

/* copy_to_heads - heads[h][t][c] = m[t][h d_k + c], no checks */
static void copy_to_heads(double *heads, const double *m, int T, int n_heads,
                          int d_k)
{
    size_t width = (size_t)n_heads * d_k;             /* row stride of m */
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            memcpy(heads + ((size_t)h * T + t) * d_k,      /* row t of head h */
                   m + t * width + (size_t)h * d_k,        /* its block in m */
                   (size_t)d_k * sizeof *m);
}

/* copy_from_heads - m[t][h d_k + c] = heads[h][t][c], no checks */
static void copy_from_heads(double *m, const double *heads, int T,
                            int n_heads, int d_k)
{
    size_t width = (size_t)n_heads * d_k;
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            memcpy(m + t * width + (size_t)h * d_k,
                   heads + ((size_t)h * T + t) * d_k, (size_t)d_k * sizeof *m);
}

/* mha_split_heads - the checked split */
mm_status mha_split_heads(double *heads, const double *m,
                          int T, int n_heads, int d_k)
{
    MM_NEED_BUFFER(heads);  MM_NEED_BUFFER(m);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(n_heads);  MM_NEED_POSITIVE(d_k);
    if (n_heads > INT_MAX / d_k)
        return mm_fail(MM_EINVAL, "%s: n_heads = %d times d_k = %d does not "
                       "fit in an int", __func__, n_heads, d_k);
    MM_NEED_SIZE_PRODUCT(T, n_heads * d_k);
    const mm_buffer bufs[] = { MM_BUFFER(heads, (size_t)T * n_heads * d_k),
                               MM_BUFFER(m, (size_t)T * n_heads * d_k) };
    MM_NEED_DISJOINT(bufs, 1);
    copy_to_heads(heads, m, T, n_heads, d_k);
    return MM_OK;
}

/* mha_merge_heads - the checked merge */
mm_status mha_merge_heads(double *m, const double *heads,
                          int T, int n_heads, int d_k)
{
    MM_NEED_BUFFER(heads);  MM_NEED_BUFFER(m);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(n_heads);  MM_NEED_POSITIVE(d_k);
    if (n_heads > INT_MAX / d_k)
        return mm_fail(MM_EINVAL, "%s: n_heads = %d times d_k = %d does not "
                       "fit in an int", __func__, n_heads, d_k);
    MM_NEED_SIZE_PRODUCT(T, n_heads * d_k);
    const mm_buffer bufs[] = { MM_BUFFER(heads, (size_t)T * n_heads * d_k),
                               MM_BUFFER(m, (size_t)T * n_heads * d_k) };
    MM_NEED_DISJOINT(bufs, 1);
    copy_from_heads(m, heads, T, n_heads, d_k);
    return MM_OK;
}

/* run_layer - the pass on checked arguments, in two work buffers:
 *   heads (3 n_heads, T, d_k): Q's heads, then K's, then V's
 *   qkv (T, 3 d_model) = X W_QKV; once split, free again: it then holds
 *       the heads' outputs (n_heads, T, d_k) and their concatenation
 *       (T, d_model), one after the other */
static mm_status run_layer(double *out, double *weights, const mha *layer,
                           const double *x, const double *bias, int T,
                           double *qkv, double *heads)
{
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k;                    /* one head: (T, d_k) */
    if (mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false) != MM_OK)
        return mm_fail(MM_ERANGE, "mha_forward: X W_QKV overflows; x and the "
                       "weights hold values too large to multiply");
    copy_to_heads(heads, qkv, T, 3 * H, d_k);  /* Q_0..Q_H-1, K_0.., V_0.. */
    double *o = qkv;                           /* (n_heads, T, d_k) outputs */
    for (int h = 0; h < H; h++) {
        const double *q_h = heads + h * hs, *k_h = heads + (H + h) * hs,
                     *v_h = heads + (2 * H + h) * hs;
        MM_TRY(sdpa(o + h * hs, weights ? weights + (size_t)h * T * T : NULL,
                    q_h, k_h, v_h, bias, T, T, d_k, d_k));
    }
    double *concat = qkv + (size_t)H * hs;     /* (T, d_model), after o */
    copy_from_heads(concat, o, T, H, d_k);
    if (mm_matmul(out, concat, layer->w_o, T, d, d, false) != MM_OK)
        return mm_fail(MM_ERANGE, "mha_forward: the heads' outputs times W_O "
                       "overflow; the values or W_O hold values too large");
    return MM_OK;
}

/* mha_forward - out = concat_h sdpa(Q_h, K_h, V_h, bias) W_O */
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);
    MM_NEED_POSITIVE(T);
    MM_TRY(mm_need_size_product(__func__, "T", T, "3 d_model",
                                3L * layer->d_model));
    MM_NEED_SIZE_PRODUCT(T, T);
    if (weights != NULL && (size_t)T * T > MM_MAX_ELEMENTS / layer->n_heads)
        return mm_fail(MM_EINVAL, "%s: weights would hold n_heads = %d times "
                       "T x T = %d x %d doubles, more than one buffer may",
                       __func__, layer->n_heads, T, T);
    size_t td = (size_t)T * layer->d_model;
    size_t dd = (size_t)layer->d_model * layer->d_model;
    size_t n_w = weights ? (size_t)layer->n_heads * T * T : 0;  /* absent: */
    size_t n_b = bias ? (size_t)T * T : 0;                      /* no bytes */
    const mm_buffer bufs[] = {                               /* outputs first */
        MM_BUFFER(out, td), MM_BUFFER(weights, n_w), MM_BUFFER(x, td),
        MM_BUFFER(bias, n_b), MM_BUFFER(layer->w_qkv, 3 * dd),
        MM_BUFFER(layer->w_o, dd) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(x, T, layer->d_model);
    int d = layer->d_model;
    size_t n = (size_t)T * 3 * d;                 /* one (T, 3 d_model) */
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    mm_status st = MM_OK;
    if (qkv == NULL || heads == NULL)
        st = mm_fail(MM_ENOMEM, "%s: no memory for two work buffers of %d x "
                     "%d", __func__, T, 3 * d);
    if (st == MM_OK)
        st = run_layer(out, weights, layer, x, bias, T, qkv, heads);
    free(qkv);  free(heads);
    return st;
}
