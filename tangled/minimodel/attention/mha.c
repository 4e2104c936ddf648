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

/* copy_columns - block (T, w) = columns c0 .. c0 + w - 1 of m (T, width),
 * no checks */
static void copy_columns(double *block, const double *m, int T, size_t width,
                         size_t c0, int w)
{
    for (int t = 0; t < T; t++)
        memcpy(block + (size_t)t * w, m + t * width + c0,
               (size_t)w * sizeof *m);
}

/* place_columns - columns c0 .. c0 + w - 1 of m (T, width) = block (T, w),
 * no checks */
static void place_columns(double *m, const double *block, int T, size_t width,
                          size_t c0, int w)
{
    for (int t = 0; t < T; t++)
        memcpy(m + t * width + c0, block + (size_t)t * w,
               (size_t)w * sizeof *m);
}

/* copy_to_heads - heads[h][t][c] = m[t][h d_k + c], no checks */
static void copy_to_heads(double *heads, const double *m, int T, int n_heads,
                          int d_k)
{
    size_t width = (size_t)n_heads * d_k;             /* row length of m */
    for (int h = 0; h < n_heads; h++)                 /* head h: (T, d_k) */
        copy_columns(heads + (size_t)h * T * d_k, m, T, width,
                     (size_t)h * d_k, d_k);
}

/* copy_from_heads - m[t][h d_k + c] = heads[h][t][c], no checks */
static void copy_from_heads(double *m, const double *heads, int T,
                            int n_heads, int d_k)
{
    size_t width = (size_t)n_heads * d_k;
    for (int h = 0; h < n_heads; h++)
        place_columns(m, heads + (size_t)h * T * d_k, T, width,
                      (size_t)h * d_k, d_k);
}

/* check_heads_args - the checks of a split or a merge, named after fn */
static mm_status check_heads_args(const char *fn, const double *heads,
                                  const double *m, int T, int n_heads, int d_k)
{
    MM_TRY(mm_need_buffer(fn, "heads", heads));
    MM_TRY(mm_need_buffer(fn, "m", m));
    MM_TRY(mm_need_positive(fn, "T", T));
    MM_TRY(mm_need_positive(fn, "n_heads", n_heads));
    MM_TRY(mm_need_positive(fn, "d_k", d_k));
    if (n_heads > INT_MAX / d_k)
        return mm_fail(MM_EINVAL, "%s: n_heads = %d times d_k = %d does not "
                       "fit in an int", fn, n_heads, d_k);
    MM_TRY(mm_need_size_product(fn, "T", T, "n_heads * d_k", n_heads * d_k));
    size_t n = (size_t)T * n_heads * d_k;        /* doubles in each buffer */
    const mm_buffer bufs[] = { MM_BUFFER(heads, n), MM_BUFFER(m, n) };
    return mm_need_disjoint(fn, bufs, 1, 2);
}

/* mha_split_heads - the checked split */
mm_status mha_split_heads(double *heads, const double *m,
                          int T, int n_heads, int d_k)
{
    MM_TRY(check_heads_args(__func__, heads, m, T, n_heads, d_k));
    copy_to_heads(heads, m, T, n_heads, d_k);
    return MM_OK;
}

/* mha_merge_heads - the checked merge */
mm_status mha_merge_heads(double *m, const double *heads,
                          int T, int n_heads, int d_k)
{
    MM_TRY(check_heads_args(__func__, heads, m, T, n_heads, d_k));
    copy_from_heads(m, heads, T, n_heads, d_k);
    return MM_OK;
}

/* run_layer - the pass on checked arguments, in one work buffer of
 *   qkv (T, 3 d_model) = X W_QKV
 *   concat (T, d_model): the heads' outputs side by side
 *   q_h, k_h, v_h, o_h (T, d_k) each: one head at a time */
static mm_status run_layer(double *out, double *weights, const mha *layer,
                           const double *x, const double *bias, int T,
                           double *work)
{
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k;                    /* one head: (T, d_k) */
    double *qkv = work, *concat = qkv + (size_t)T * 3 * d;
    double *q_h = concat + (size_t)T * d, *k_h = q_h + hs, *v_h = k_h + hs,
           *o_h = v_h + hs;
    if (mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false) != MM_OK)
        return mm_fail(MM_ERANGE, "mha_forward: X W_QKV overflows; x and the "
                       "weights hold values too large to multiply");
    for (int h = 0; h < H; h++) {
        size_t c0 = (size_t)h * d_k;          /* head h's first column */
        size_t width = 3 * (size_t)d;                 /* a row of [Q | K | V] */
        copy_columns(q_h, qkv, T, width, c0, d_k);
        copy_columns(k_h, qkv, T, width, (size_t)d + c0, d_k);
        copy_columns(v_h, qkv, T, width, 2 * (size_t)d + c0, d_k);
        MM_TRY(sdpa(o_h, weights ? weights + (size_t)h * T * T : NULL,
                    q_h, k_h, v_h, bias, T, T, d_k, d_k));
        place_columns(concat, o_h, T, d, c0, d_k);    /* its output's place */
    }
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
    MM_TRY(mm_need_size_product(__func__, "T", T, "(4 d_model + 4 d_k)",
                                4L * layer->d_model + 4L * layer->d_k));
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
    size_t row = 4 * (size_t)layer->d_model + 4 * (size_t)layer->d_k;
    size_t n = (size_t)T * row;                   /* see run_layer */
    double *work = malloc(n * sizeof *work);      /* n was checked */
    if (work == NULL)
        return mm_fail(MM_ENOMEM, "%s: no memory for a work buffer of %d x "
                       "%zu", __func__, T, row);
    mm_status st = run_layer(out, weights, layer, x, bias, T, work);
    free(work);
    return st;
}
