/* s-static-32-rows.c - mha_forward keeps its work in static buffers sized
 * for 32 tokens of width 64 at most, and refuses a longer sequence with
 * MM_EINVAL: every fixed case (9 tokens at most) passes; the two long
 * random cases (T >= 256) fail.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'random T=[0-9]+, d_model=64, [0-9]+ heads? \(seed [0-9]+\)': returned MM_EINVAL \(1\) for valid arguments; expected MM_OK
 * expect-re: ^mha_forward +0 +22 +2$
 */
#define MUTANT_mha_forward
#include "base.h"

enum { ROWS = 32, WIDTH = 64 };
static double qkv[ROWS * 3 * WIDTH], heads[ROWS * 3 * WIDTH];
static double o[ROWS * WIDTH], concat[ROWS * WIDTH];

mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    if (T > ROWS || d > WIDTH)
        return mm_fail(MM_EINVAL, "mha_forward: at most %d tokens of width %d", ROWS, WIDTH);
    size_t hs = (size_t)T * d_k;
    mm_status st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    for (int h = 0; h < H && st == MM_OK; h++)
        st = sdpa(o + h * hs, weights ? weights + (size_t)h * T * T : NULL, heads + h * hs,
                  heads + (H + h) * hs, heads + (2 * H + h) * hs, bias, T, T, d_k, d_k);
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    return st;
}
