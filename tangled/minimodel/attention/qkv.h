/* qkv.h - chapter 01: the Query, Key and Value projections.
 * Row vectors throughout: X is (T, d_model), Q = X W_Q, K = X W_K, V = X W_V.
 * No biases (GPT-2 convention). The caller owns every buffer. */
#ifndef MINIMODEL_ATTENTION_QKV_H
#define MINIMODEL_ATTENTION_QKV_H

#include <stdint.h>
#include "../core/error.h"

#define MM_INIT_STD 0.02   /* standard deviation of every initial weight */

/* qkv_project - the three projections, one product each.
 *   q (T, d_k), k (T, d_k), v (T, d_v)                       written
 *   x (T, d_model)                                            read
 *   w_q (d_model, d_k), w_k (d_model, d_k), w_v (d_model, d_v) read */
mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v);

/* qkv_pack - w_qkv (d_model, 2 d_k + d_v) = [W_Q | W_K | W_V], column blocks */
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v);

/* qkv_split - cut each row of qkv (T, 2 d_k + d_v) into q (T, d_k),
 * k (T, d_k) and v (T, d_v), in that order */
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v);

/* qkv_project_fused - qkv (T, 2 d_k + d_v) = X W_QKV in one product, then
 * qkv_split into q, k, v; qkv is the caller's scratch, left filled */
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v);

/* qkv_attend_unscaled - the plain mechanism of chapter 01, no 1/sqrt(d_k):
 *   weights (T, T) = row-wise softmax of Q K^T      written
 *   out (T, d_v)   = weights V                       written
 *   q (T, d_k), k (T, d_k), v (T, d_v)               read
 * MM_ERANGE if a row's exponentials overflow or all underflow to 0
 * (chapter 02 fixes that). */
mm_status qkv_attend_unscaled(double *out, double *weights, const double *q,
                              const double *k, const double *v,
                              int T, int d_k, int d_v);

/* attention_param_count - weights of one attention layer: W_Q, W_K, W_V, W_O.
 * Returns the count, or -1 (see mm_last_error) if d_model or n_heads is not
 * positive or n_heads does not divide d_model. */
long attention_param_count(int d_model, int n_heads);

/* attention_init_weights - the initial weights of MultiHeadAttention(d_model,
 * n_heads, seed), which do not depend on n_heads: W_Q, W_K, W_V, W_O, each
 * (d_model, d_model), drawn in that order, row by row, as MM_INIT_STD * N(0, 1)
 * from the stream of seed. */
mm_status attention_init_weights(double *w_q, double *w_k, double *w_v,
                                 double *w_o, int d_model, uint64_t seed);

#endif
