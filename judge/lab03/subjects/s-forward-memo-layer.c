/* s-forward-memo-layer.c - mha_forward remembers its last out, keyed by
 * the layer it was given (its address) and the sizes (T, d_model,
 * n_heads), and gives it back for such a call without computing. The
 * fixed cases that share a layer and sizes also share their values, so
 * they pass; the long random case and the one-token case, each called
 * again with the same shape and fresh values, fail the second time, and
 * pass when run alone in a fresh process.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'the same shape again, fresh values and a bias N\(0, 1\) that hides about a tenth of the keys, weights = NULL: random T=[0-9]+, d_model=64, [0-9]+ heads? \(seed [0-9]+\)': out is wrong
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 13 earlier calls in the same process
 * expect-re: ^mha_forward +0 +22 +2$
 */
#define MUTANT_mha_forward
#include "base.h"

enum { MEMO_CAP = 1 << 15 };
static struct {
    const mha *layer;
    int T, d_model, n_heads;
    double out[MEMO_CAP];
} memo;

/* forward - the layer on x, with work buffers of its own */
static mm_status forward(double *out, double *weights, const mha *layer, const double *x,
                         const double *bias, int T)
{
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k, n = (size_t)T * 3 * d;
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    double *o = malloc((size_t)T * d * sizeof *o), *concat = malloc((size_t)T * d * sizeof *o);
    mm_status st = MM_OK;
    if (!qkv || !heads || !o || !concat) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    for (int h = 0; h < H && st == MM_OK; h++)
        st = sdpa(o + h * hs, weights ? weights + (size_t)h * T * T : NULL, heads + h * hs,
                  heads + (H + h) * hs, heads + (2 * H + h) * hs, bias, T, T, d_k, d_k);
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(qkv);
    free(heads);
    free(o);
    free(concat);
    return st;
}

mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    size_t n = (size_t)T * layer->d_model;
    if (memo.layer == layer && memo.T == T && memo.d_model == layer->d_model &&
        memo.n_heads == layer->n_heads) {
        memcpy(out, memo.out, n * sizeof *out);
        return MM_OK;
    }
    mm_status st = forward(out, weights, layer, x, bias, T);
    if (st == MM_OK && n <= MEMO_CAP) {
        memcpy(memo.out, out, n * sizeof *out);
        memo.layer = layer, memo.T = T, memo.d_model = layer->d_model;
        memo.n_heads = layer->n_heads;
    }
    return st;
}
