/* m-forward-one-token-shortcut.c - mha_forward takes a shortcut for one
 * token: one key, so (it thinks) a weight of 1 in every head and out =
 * x W_V W_O - whatever the bias says. The fixed case of one token has no
 * bias and passes; one token whose only key is hidden (weights 0, out 0)
 * fails.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'one token whose only key is hidden, bias = \[\[-inf\]\] \(weights 0, out 0\): random T=1, d_model=[0-9]+, [0-9]+ heads? \(seed [0-9]+\)': out is wrong
 * expect-re: ^mha_forward +0 +23 +1$
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
    if (!qkv) return mm_fail(MM_ENOMEM, "mha_forward: no memory");
    mm_status st = mm_matmul(qkv, x, layer->w_qkv, 1, d, 3 * d, false);
    if (st == MM_OK) st = mm_matmul(out, qkv + 2 * d, layer->w_o, 1, d, d, false);
    for (int h = 0; weights && st == MM_OK && h < layer->n_heads; h++) weights[h] = 1.0;
    free(qkv);
    return st;
}
#define FW_PROLOGUE() do {                                                          \
    if (T == 1) {                                                                   \
        FORWARD_CHECK_ARGS();                                                       \
        return one_token(out, weights, layer, x);                                   \
    }                                                                               \
} while (0)
#include "base.h"
