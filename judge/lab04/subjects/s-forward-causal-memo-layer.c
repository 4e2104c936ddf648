/* s-forward-causal-memo-layer.c - mha_forward_causal remembers its last
 * out, keyed by the layer it was given (its address) and the sizes (T,
 * d_model, n_heads), and gives it back for such a call without computing.
 * The fixed cases that share a layer and sizes also share their values, so
 * they pass; the long random case (T from 256 to 320) called again with
 * the same shape and fresh values fails the second time, and passes when run alone
 * in a fresh process.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward_causal, case 'the same shape again, fresh values, weights = NULL: random T=[0-9]+, d_model=64, [24] heads \(seed [0-9]+\)': out is wrong
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 12 earlier calls in the same process
 * expect-re: ^mha_forward_causal +0 +19 +1$
 */
#define MUTANT_mha_forward_causal
#include "base.h"

enum { MEMO_CAP = 1 << 16 };
static struct {
    const mha *layer;
    int T, d_model, n_heads;
    double out[MEMO_CAP];
} memo;

mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    CAUSAL_CHECK_ARGS();
    size_t n = (size_t)T * layer->d_model;
    if (memo.layer == layer && memo.T == T && memo.d_model == layer->d_model &&
        memo.n_heads == layer->n_heads) {
        memcpy(out, memo.out, n * sizeof *out);
        return MM_OK;
    }
    double *bias = malloc((size_t)T * T * sizeof *bias);
    if (!bias) return mm_fail(MM_ENOMEM, "mha_forward_causal: no memory for the mask");
    mm_status st = mask_causal(bias, T);
    if (st == MM_OK) st = mha_forward(out, weights, layer, x, bias, T);
    free(bias);
    if (st == MM_OK && n <= MEMO_CAP) {
        memcpy(memo.out, out, n * sizeof *out);
        memo.layer = layer, memo.T = T, memo.d_model = layer->d_model;
        memo.n_heads = layer->n_heads;
    }
    return st;
}
