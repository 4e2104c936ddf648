/* Generated from the book: book/en/04-masking.nw (the Spanish edition
 * tangles the same bytes). Edit the chapter, not this file. */
/* mask.h - chapter 04: masks, and the causal multi-head attention layer.
 * A mask is a bias (T_q, T_k) added to the scaled scores: 0 where query i
 * may see key j, -INFINITY where it may not; such a key's weight is 0. */
#ifndef MINIMODEL_ATTENTION_MASK_H
#define MINIMODEL_ATTENTION_MASK_H

#include <stdbool.h>
#include "../core/error.h"
#include "mha.h"

/* mask_causal - query i sees keys j <= i: the past and itself.
 *   bias (T, T)  written: 0 where j <= i, -INFINITY where j > i
 * Checked, MM_EINVAL: bias not NULL; T > 0; T x T at most MM_MAX_ELEMENTS.
 * Unchecked: bias holds T x T doubles. On failure: nothing written. */
mm_status mask_causal(double *bias, int T);

/* mask_padding - every query sees the first length keys; the rest are
 * padding (a shorter sequence in a batch of longer ones).
 *   bias (T_q, T_k)  written: 0 where j < length, -INFINITY elsewhere
 * Checked, MM_EINVAL: bias not NULL; T_q, T_k > 0; 0 <= length <= T_k;
 * T_q x T_k at most MM_MAX_ELEMENTS. With length 0 no key is visible.
 * Unchecked: bias holds T_q x T_k doubles. On failure: nothing written. */
mm_status mask_padding(double *bias, int T_q, int T_k, int length);

/* mask_from_bool - the truth table: allowed[i][j] true -> 0 (query i sees
 * key j), false -> -INFINITY (hidden). PyTorch's scaled_dot_product_attention
 * means the same by true; nn.MultiheadAttention means the opposite.
 *   bias (T_q, T_k) written;  allowed (T_q, T_k) read
 * Checked, MM_EINVAL: no NULL buffer; T_q, T_k > 0; T_q x T_k at most
 * MM_MAX_ELEMENTS; bias and allowed share no byte.
 * Unchecked: buffers of the stated sizes. On failure: nothing written. */
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k);

/* mask_combine - bias += other: a key stays visible only where both let it
 * through (-INFINITY plus anything finite is -INFINITY); finite biases add.
 *   bias (T_q, T_k) read and written;  other (T_q, T_k) read
 * Checked, MM_EINVAL: no NULL buffer; T_q, T_k > 0; T_q x T_k at most
 * MM_MAX_ELEMENTS; bias and other are the same buffer or share no byte;
 * every element of both finite or -INFINITY. MM_ERANGE: two finite
 * elements whose sum overflows.
 * Unchecked: buffers of the stated sizes.
 * On failure: bias is unchanged (everything is checked first). */
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k);

/* mha_forward_causal - the finished layer: chapter 03's mha_forward with
 * the causal mask, so that position t sees positions 0..t only.
 *   out (T, d_model), weights (n_heads, T, T) or NULL      written
 *   layer, x (T, d_model)                                   read
 * Weights above the diagonal are exactly 0. The scores of keys j > t are
 * never computed (sdpa stops at a row's last visible key).
 * Checked: out, layer, x not NULL; T > 0; T x T at most MM_MAX_ELEMENTS;
 * then everything mha_forward checks, in its name. MM_ENOMEM: no memory
 * for the (T, T) mask, or what mha_forward reports.
 * On failure: as mha_forward. */
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T);

#endif
