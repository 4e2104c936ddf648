/* Generated from the book: book/en/02-scaled-dot-product.nw (the Spanish
 * edition tangles the same bytes). Edit the chapter, not this file. */
/* sdpa.h - chapter 02: the stable softmax and scaled dot-product attention
 * for one head. Row vectors: out = softmax(Q K^T / sqrt(d_k) + bias) V. */
#ifndef MINIMODEL_ATTENTION_SDPA_H
#define MINIMODEL_ATTENTION_SDPA_H

#include "../core/error.h"

/* softmax_row - the softmax of one row of scores, in place, computed with
 * the row maximum subtracted so that nothing overflows.
 *   s (n)  read: scores; written: weights, which sum to 1
 * A score of -INFINITY hides its key: its weight is exactly 0. A row whose
 * scores are all -INFINITY sees no key: its weights are all 0.
 * Checked: s not NULL; n > 0; no score is NaN or +INFINITY.
 * Unchecked: s holds n doubles. On failure: s is unchanged. */
mm_status softmax_row(double *s, int n);

/* sdpa - scaled dot-product attention for one head, query by query:
 *   out (T_q, d_v) = softmax(Q K^T / sqrt(d_k) + bias) V        written
 *   weights (T_q, T_k) or NULL: the softmax rows                written
 *   q (T_q, d_k), k (T_k, d_k), v (T_k, d_v)                    read
 *   bias (T_q, T_k) or NULL: added to the scaled scores;        read
 *        -INFINITY hides a key (chapter 04's masks): its score is never
 *        looked at, and keys after a row's last visible key are not even
 *        computed
 * Checked, MM_EINVAL: out, q, k, v not NULL; T_q, T_k, d_k, d_v > 0 and
 * every buffer's size at most MM_MAX_ELEMENTS; out and weights share no
 * byte with each other or with an input; q, k, v finite; bias finite or
 * -INFINITY. MM_ERANGE: the dot product q_i . k_j of a visible key
 * overflows (it is checked before the 1/sqrt(d_k) scale, so 2e308 is
 * refused even where the scaled score would be finite), a score overflows
 * once the bias is added, or a row of out overflows. MM_ENOMEM: no memory
 * for the row of scratch needed when weights is NULL.
 * Unchecked: buffers of the stated sizes.
 * On failure: MM_EINVAL and MM_ENOMEM write nothing; after MM_ERANGE out
 * and weights are unspecified. */
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias,
               int T_q, int T_k, int d_k, int d_v);

#endif
