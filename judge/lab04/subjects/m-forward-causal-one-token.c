/* m-forward-causal-one-token.c - mha_forward_causal takes a shortcut for
 * one token: it sees itself only, so (it thinks) a weight of 1 in every
 * head and out = x W_V W_O, with no score computed. The values are right
 * for every one-token case; one token whose score with itself overflows
 * is not refused with MM_ERANGE.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: FAIL  mha_forward_causal, case 'one token, x = [[1e160, 0]], W_Q = W_K = W_V = I: its score with itself, q . k = 1e320, overflows': returned MM_OK (0)
 * expect: hint: one token sees itself only: its weight is 1 if its score q . k / sqrt(d_k) is a number
 * expect-re: ^mha_forward_causal +0 +19 +1$
 */
#include <stdlib.h>
#include "minimodel/attention/mha.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"

/* one_token - T = 1: weights 1, out = (x W_V) W_O */
static mm_status one_token(double *out, double *weights, const mha *layer, const double *x)
{
    int d = layer->d_model;
    double *qkv = malloc(3 * (size_t)d * sizeof *qkv);
    if (!qkv) return mm_fail(MM_ENOMEM, "mha_forward_causal: no memory");
    mm_status st = mm_matmul(qkv, x, layer->w_qkv, 1, d, 3 * d, false);
    if (st == MM_OK) st = mm_matmul(out, qkv + 2 * d, layer->w_o, 1, d, d, false);
    for (int h = 0; weights && st == MM_OK && h < layer->n_heads; h++) weights[h] = 1.0;
    free(qkv);
    return st;
}

#define FC_PROLOGUE() do {                                                          \
    if (T == 1) {                                                                   \
        MM_NEED_FINITE(x, 1, layer->d_model);                                       \
        return one_token(out, weights, layer, x);                                   \
    }                                                                               \
} while (0)
#include "base.h"
