/* own.h - the causal layer with each head's attention written out (no
 * mha_forward), for the subjects of judge/lab04/subjects/ whose mistake lives
 * inside the attention: X W_QKV, the library's mha_split_heads, then for
 * each head and query i the scores q_i . k_j / sqrt(d_k),
 * OWN_SCORE(s, i, j) (the masked score; a key it hides whatever s is,
 * OWN_SCORE(0, i, j) = -inf, is not scored at all unless OWN_ALL_SCORES
 * is defined), a softmax with the row maximum subtracted (OWN_EXP(s, top):
 * exp(s - top); a row that sees nothing has top = -inf), OWN_WEIGHT(w, i,
 * j) (the weight kept), the blend with V over the keys of weight not 0,
 * mha_merge_heads and W_O (OWN_OUT(out, concat): mm_matmul). The argument
 * checks are the library's; a NaN x or an overlap is refused, a product
 * that overflows is MM_ERANGE, and so is a score that overflows unless
 * OWN_SCORE hides it. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include "minimodel/attention/mha.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"

#ifndef OWN_SCORE
#define OWN_SCORE(s, i, j) ((j) <= (i) ? (s) : -INFINITY)
#endif
#ifndef OWN_EXP
#define OWN_EXP(s, top) ((top) == -INFINITY ? 0.0 : exp((s) - (top)))
#endif
#ifndef OWN_WEIGHT
#define OWN_WEIGHT(w, i, j) (w)
#endif
#ifdef OWN_ALL_SCORES
#define OWN_ALL 1
#else
#define OWN_ALL 0
#endif
#ifndef OWN_OUT
#define OWN_OUT(out, concat) mm_matmul(out, concat, layer->w_o, T, d, d, false)
#endif

static mm_status own_causal(double *out, double *weights, const mha *layer, const double *x,
                            int T)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);
    MM_NEED_POSITIVE(T);  MM_NEED_SIZE_PRODUCT(T, T);
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t td = (size_t)T * d, hs = (size_t)T * d_k, tt = (size_t)T * T;
    const mm_buffer bufs[] = { MM_BUFFER(out, td), MM_BUFFER(weights, weights ? H * tt : 0),
                               MM_BUFFER(x, td), MM_BUFFER(layer->w_qkv, 3 * (size_t)d * d),
                               MM_BUFFER(layer->w_o, (size_t)d * d) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(x, T, d);
    double *qkv = malloc(3 * td * sizeof *qkv), *heads = malloc(3 * td * sizeof *heads);
    double *o = malloc(td * sizeof *o), *concat = malloc(td * sizeof *concat);
    double *s = malloc((size_t)T * sizeof *s);
    mm_status st = MM_OK;
    if (!qkv || !heads || !o || !concat || !s) st = mm_fail(MM_ENOMEM, "own_causal: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    double scale = 1.0 / sqrt((double)d_k);
    for (int h = 0; h < H && st == MM_OK; h++) {
        const double *q = heads + h * hs, *k = heads + (H + h) * hs, *v = heads + (2 * H + h) * hs;
        for (int i = 0; i < T; i++) {
            double top = -INFINITY, sum = 0.0;
            for (int j = 0; j < T; j++) {
                bool seen = OWN_SCORE(0.0, i, j) != -INFINITY;
                double dot = 0.0;
                for (int p = 0; (seen || OWN_ALL) && p < d_k; p++)
                    dot += q[i * d_k + p] * k[j * d_k + p];
                s[j] = OWN_SCORE(dot * scale, i, j);
                if (!isfinite(dot) && seen)
                    st = mm_fail(MM_ERANGE, "own_causal: score (%d, %d) overflows", i, j);
                if (s[j] > top) top = s[j];
            }
            if (st != MM_OK) break;
            for (int j = 0; j < T; j++) sum += s[j] = OWN_EXP(s[j], top);
            for (int j = 0; j < T; j++) {
                s[j] = OWN_WEIGHT(sum > 0 || isnan(sum) ? s[j] / sum : 0.0, i, j);
                if (weights) weights[h * tt + (size_t)i * T + j] = s[j];
            }
            for (int p = 0; p < d_k; p++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++)
                    if (s[j] != 0.0) acc += s[j] * v[j * d_k + p];
                o[h * hs + (size_t)i * d_k + p] = acc;
            }
        }
    }
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = OWN_OUT(out, concat);
    free(qkv);
    free(heads);
    free(o);
    free(concat);
    free(s);
    return st;
}

#define MUTANT_mha_forward_causal
#include "base.h"
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    return own_causal(out, weights, layer, x, T);
}
