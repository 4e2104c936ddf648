/* Generated from the book: book/en/03-multi-head.nw (the Spanish edition
 * tangles the same bytes). Edit the chapter, not this file. */
/* mha.h - chapter 03: multi-head attention, the layer
 * MultiHeadAttention(d_model, n_heads, seed). Row vectors: X is (T, d_model);
 * head h works on columns h d_k .. (h+1) d_k - 1, d_k = d_model / n_heads. */
#ifndef MINIMODEL_ATTENTION_MHA_H
#define MINIMODEL_ATTENTION_MHA_H

#include <stdint.h>
#include "../core/error.h"

/* mha - one multi-head attention layer; made by mha_new, read-only after.
 * The heads are column blocks of the weights; there are no biases. */
typedef struct {
    int d_model;      /* width of the model's vectors */
    int n_heads;      /* number of heads */
    int d_k;          /* width of one head, d_model / n_heads (= d_v) */
    double *w_qkv;    /* (d_model, 3 d_model) = [W_Q | W_K | W_V] */
    double *w_o;      /* (d_model, d_model) */
} mha;

/* mha_new - MultiHeadAttention(d_model, n_heads, seed): a new layer with
 * the initial weights of chapter 01 (attention_init_weights), packed.
 *   layer  written: the new layer, for mha_free; NULL on failure
 * Checked, MM_EINVAL: layer not NULL; d_model, n_heads > 0; n_heads
 * divides d_model; 3 d_model fits in an int; d_model x 4 d_model (the
 * four matrices) at most MM_MAX_ELEMENTS. MM_ENOMEM: no memory (nothing
 * is leaked).
 * On failure: *layer is NULL (if layer is not). */
mm_status mha_new(mha **layer, int d_model, int n_heads, uint64_t seed);

/* mha_free - release a layer made by mha_new; mha_free(NULL) does nothing.
 * Unchecked: layer came from mha_new and was not released before. */
void mha_free(mha *layer);

/* mha_param_count - the layer's weights: 4 d_model^2, whatever n_heads.
 *   count  written
 * Checked, MM_EINVAL: count and layer not NULL.
 * Unchecked: layer came from mha_new. On failure: *count is unchanged. */
mm_status mha_param_count(long *count, const mha *layer);

/* mha_get_weights - copy the layer's four matrices out, unpacked.
 *   w_q, w_k, w_v, w_o (d_model, d_model)                     written
 * Checked, MM_EINVAL: no NULL argument; no two outputs overlap, and none
 * overlaps the layer's weights.
 * Unchecked: layer came from mha_new; buffers of the stated sizes.
 * On failure: nothing written. */
mm_status mha_get_weights(double *w_q, double *w_k, double *w_v, double *w_o,
                          const mha *layer);

/* mha_set_weights - replace the layer's four matrices (planted heads,
 * trained weights, another library's weights).
 *   layer  written;  w_q, w_k, w_v, w_o (d_model, d_model)  read
 * Checked, MM_EINVAL: no NULL argument; every weight finite; no input
 * overlaps the layer's weights (the inputs may coincide).
 * Unchecked: layer came from mha_new; buffers of the stated sizes.
 * On failure: the layer is unchanged. */
mm_status mha_set_weights(mha *layer, const double *w_q, const double *w_k,
                          const double *w_v, const double *w_o);

/* mha_split_heads - cut each row of m into n_heads blocks of d_k and stack
 * the blocks head by head: heads[h][t][c] = m[t][h d_k + c].
 *   heads (n_heads, T, d_k)                                    written
 *   m (T, n_heads d_k)                                         read
 * Checked, MM_EINVAL: no NULL buffer; T, n_heads, d_k > 0; n_heads d_k
 * fits in an int; T x n_heads d_k at most MM_MAX_ELEMENTS; heads and m
 * share no byte. Values are copied bit for bit: no check.
 * Unchecked: buffers of the stated sizes. On failure: nothing written. */
mm_status mha_split_heads(double *heads, const double *m,
                          int T, int n_heads, int d_k);

/* mha_merge_heads - the inverse: m[t][h d_k + c] = heads[h][t][c].
 *   m (T, n_heads d_k)                                         written
 *   heads (n_heads, T, d_k)                                    read
 * Checked, unchecked, on failure: as mha_split_heads. */
mm_status mha_merge_heads(double *m, const double *heads,
                          int T, int n_heads, int d_k);

/* mha_forward - the layer on one sequence:
 *   out (T, d_model) = concat_h softmax(Q_h K_h^T / sqrt(d_k) + bias) V_h
 *                      times W_O, with [Q | K | V] = X W_QKV      written
 *   weights (n_heads, T, T) or NULL: each head's softmax rows    written
 *   layer, x (T, d_model)                                        read
 *   bias (T, T) or NULL: added to every head's scaled scores;    read
 *        -INFINITY hides a key (chapter 04's masks)
 * Checked, MM_EINVAL: out, layer, x not NULL; T > 0; T x (4 d_model +
 * 4 d_k) (the work buffer), T x T
 * and (when weights is given) n_heads x T x T at most MM_MAX_ELEMENTS; out
 * and weights share no byte with each other, x, bias or the layer's
 * weights; x finite; bias finite or -INFINITY (sdpa checks the bias and
 * names it). MM_ERANGE: a product or a score overflows. MM_ENOMEM: no
 * memory for the work buffer (T, 4 d_model + 4 d_k), or for sdpa's row
 * of scratch when weights is NULL.
 * Unchecked: layer came from mha_new; buffers of the stated sizes.
 * On failure: MM_EINVAL and MM_ENOMEM write nothing; after MM_ERANGE out
 * and weights are unspecified. */
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T);

#endif
