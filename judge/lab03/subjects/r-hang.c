/* r-hang.c - mha_forward walks the heads with a step of 2 (two heads at a
 * time, around the heads again after the last pair) and stops at h ==
 * n_heads, so it never stops when n_heads is odd:
 * the first such case (3 heads) hangs. The harness stops the call at its
 * deadline and names the call in flight; the function's later checks are
 * not run (each would wait as long) and count as failed.
 * run-only: mha_forward
 * expect-exit: nonzero
 * expect: HANG  mha_forward, case 'weights set N(0, 0.5^2) (seed 102), x random (seed 12): T=7 d_model=6 n_heads=3 d_k=2': did not return within
 * expect: call in flight: mha_forward(out, weights, layer->w_qkv, layer->w_o, x, NULL, *layer, 7, 6, 3)
 * expect-re: ^mha_forward +0 +2 +22$
 */
#define MUTANT_mha_forward
#include "base.h"
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k, n = (size_t)T * 3 * d;
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    double *o = malloc((size_t)T * d * sizeof *o), *concat = malloc((size_t)T * d * sizeof *o);
    mm_status st = MM_OK;
    if (!qkv || !heads || !o || !concat) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    for (int h = 0; h != H && st == MM_OK; h = (h + 2) % (2 * H)) {  /* two at a time */
        int pair = h + 1 < H ? h + 1 : h;
        for (int g = h; g <= pair && st == MM_OK && g < H; g++)
            st = sdpa(o + g * hs, weights ? weights + (size_t)g * T * T : NULL, heads + g * hs,
                      heads + (H + g) * hs, heads + (2 * H + g) * hs, bias, T, T, d_k, d_k);
    }
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(qkv);
    free(heads);
    free(o);
    free(concat);
    return st;
}
