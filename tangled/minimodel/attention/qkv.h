/* Generated from the book: book/en/01-qkv.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* qkv.h - chapter 01: the Query, Key and Value projections.
 * Row vectors throughout: X is (T, d_model), Q = X W_Q, K = X W_K, V = X W_V.
 * No biases. The caller owns every buffer. */
#ifndef MINIMODEL_ATTENTION_QKV_H
#define MINIMODEL_ATTENTION_QKV_H

#include <stdint.h>
#include "../core/error.h"

/* qkv_project - the three projections, one product each.
 *   q (T, d_k), k (T, d_k), v (T, d_v)                         written
 *   x (T, d_model)                                             read
 *   w_q (d_model, d_k), w_k (d_model, d_k), w_v (d_model, d_v) read
 * Checked, MM_EINVAL: no NULL buffer; T, d_model, d_k, d_v > 0; every
 * buffer at most MM_MAX_ELEMENTS doubles; no output overlaps another
 * buffer; the inputs finite. MM_ERANGE: Q, K or V not finite (overflow).
 * Unchecked: buffers of the stated sizes.
 * Aliasing: the inputs may coincide (w_q == w_k ties the two projections);
 * q, k and v may touch no other buffer.
 * On failure: MM_EINVAL writes nothing; MM_ERANGE leaves q, k, v
 * unspecified. */
mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v);

/* qkv_pack - the three weight matrices side by side, as column blocks.
 *   w_qkv (d_model, 2 d_k + d_v) = [W_Q | W_K | W_V]           written
 *   w_q, w_k (d_model, d_k), w_v (d_model, d_v)                read
 * Checked, MM_EINVAL: no NULL buffer; d_model, d_k, d_v > 0; 2 d_k + d_v
 * fits in an int; w_qkv at most MM_MAX_ELEMENTS doubles; w_qkv overlaps
 * no input. The values are copied bit for bit, NaN included: no check.
 * Unchecked: buffers of the stated sizes.
 * Aliasing: the inputs may coincide; w_qkv may touch none of them.
 * On failure: w_qkv untouched. */
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v);

/* qkv_split - cut each row of qkv into its q, k and v parts, in that order.
 *   q (T, d_k), k (T, d_k), v (T, d_v)                         written
 *   qkv (T, 2 d_k + d_v)                                       read
 * Checked, MM_EINVAL: no NULL buffer; T, d_k, d_v > 0; 2 d_k + d_v fits
 * in an int; qkv at most MM_MAX_ELEMENTS doubles; no output overlaps
 * another buffer. The values are copied bit for bit: no check.
 * Unchecked: buffers of the stated sizes.
 * Aliasing: q, k, v and qkv may not touch one another.
 * On failure: outputs untouched. */
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v);

/* qkv_project_fused - qkv = X W_QKV in one product, then qkv_split.
 *   q (T, d_k), k (T, d_k), v (T, d_v)                         written
 *   qkv (T, 2 d_k + d_v)            the caller's scratch, left filled
 *   x (T, d_model), w_qkv (d_model, 2 d_k + d_v)               read
 * Checked, unchecked, aliasing: as qkv_project, with qkv a fourth output
 * and 2 d_k + d_v fitting in an int. MM_ERANGE: X W_QKV not finite.
 * On failure: MM_EINVAL writes nothing; MM_ERANGE leaves qkv unspecified
 * and q, k, v untouched. */
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v);

/* qkv_attend_unscaled - the plain mechanism of chapter 01, no 1/sqrt(d_k).
 *   out (T, d_v)   = weights V                                 written
 *   weights (T, T) = the row-wise softmax of Q K^T              written
 *   q (T, d_k), k (T, d_k), v (T, d_v)                         read
 * Checked, MM_EINVAL: no NULL buffer; T, d_k, d_v > 0; every buffer at
 * most MM_MAX_ELEMENTS doubles; out and weights overlap no other buffer;
 * q, k, v finite. MM_ERANGE: a score or an output overflows, or the
 * exponentials of a row overflow or all underflow to 0 (chapter 02's
 * softmax does not).
 * Unchecked: buffers of the stated sizes.
 * Aliasing: q, k, v may coincide; out and weights may touch no buffer.
 * On failure: MM_EINVAL writes nothing; MM_ERANGE leaves out and weights
 * unspecified. */
mm_status qkv_attend_unscaled(double *out, double *weights, const double *q,
                              const double *k, const double *v,
                              int T, int d_k, int d_v);

/* attention_param_count - weights of one attention layer: W_Q, W_K, W_V, W_O.
 *   count  written: 4 d_model^2 (it does not depend on n_heads)
 * Checked, MM_EINVAL: count not NULL; d_model, n_heads > 0; n_heads
 * divides d_model. MM_ERANGE: the count does not fit in a long.
 * Aliasing: one buffer, nothing to coincide.
 * On failure: *count is unchanged (everything is checked first). */
mm_status attention_param_count(long *count, int d_model, int n_heads);

#define MM_INIT_STD 0.02   /* standard deviation of every initial weight */

/* attention_init_weights - the initial weights of MultiHeadAttention(d_model,
 * n_heads, seed), which do not depend on n_heads: W_Q, W_K, W_V, W_O, each
 * (d_model, d_model), drawn in that order, row by row, as
 * MM_INIT_STD * N(0, 1) from the stream of seed.
 *   w_q, w_k, w_v, w_o (d_model, d_model)                      written
 * Checked, MM_EINVAL: no NULL buffer; d_model > 0; d_model^2 at most
 * MM_MAX_ELEMENTS; no two of the four buffers overlap.
 * Unchecked: buffers of the stated sizes.
 * Aliasing: none of the four may touch another (w_q == w_k is refused).
 * On failure: nothing written. */
mm_status attention_init_weights(double *w_q, double *w_k, double *w_v,
                                 double *w_o, int d_model, uint64_t seed);

#endif
