/* m-forward-causal-edits-layer.c - mha_forward_causal clears the layer
 * after its work, as if it were done with it (casting const away):
 * layer->w_qkv = NULL and layer->n_heads = 0. Its values are right; the
 * struct after every call that got that far is not the layer it was given.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: mha_forward_causal changed the layer it was given: layer->n_heads was 2 before the call and is 0 after it
 * expect: mha_forward_causal changed the layer it was given: layer->w_qkv pointed at the layer's weights before the call, and after it is NULL
 * expect: hint: the layer is a const mha *: the causal layer reads it and leaves it as it was
 * expect-re: ^mha_forward_causal +0 +2 +18$
 */
#define MUTANT_mha_forward_causal
#include "base.h"
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    CAUSAL_CHECK_ARGS();
    double *bias = malloc((size_t)T * T * sizeof *bias);
    if (!bias) return mm_fail(MM_ENOMEM, "mha_forward_causal: no memory for the mask");
    mm_status st = mask_causal(bias, T);
    if (st == MM_OK) st = mha_forward(out, weights, layer, x, bias, T);
    free(bias);
    mha *done = (mha *)layer;
    done->w_qkv = NULL;
    done->n_heads = 0;
    return st;
}
