/* try.c - your Lab 03 functions on inputs of your own. Change anything
 * here (the judge never reads this file), then
 *     make lab-try NN=03
 * builds it with your mha.c at -O0 -g and runs it; to step through your
 * code, gdb build/labs/try/lab03/try. It starts from chapter 03's worked
 * example: 3 tokens, d_model = 4, 2 heads, W_Q = W_K = W_V = I and the W_O
 * of the chapter. The layer is filled in by hand here (the judge hands
 * your mha_forward layers the same way). */
#include "minimodel/attention/mha.h"
#include "try.h"

int main(void)
{
    enum { T = 3, D = 4, H = 2, DK = D / H };
    const double x[T * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 1, 0, 0 };
    double w_qkv[D * 3 * D] = { 0 };              /* [W_Q | W_K | W_V] = [I | I | I] */
    double w_o[D * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 0, -1, 0,   0, 1, 0, -1 };
    double heads[H * T * DK], merged[T * D];      /* (H, T, d_k), (T, d_model) */
    double out[T * D], weights[H * T * T];        /* (T, d_model), (H, T, T) */

    for (int i = 0; i < D; i++)
        for (int p = 0; p < 3; p++)
            w_qkv[i * 3 * D + p * D + i] = 1;
    mha layer = { .d_model = D, .n_heads = H, .d_k = DK, .w_qkv = w_qkv, .w_o = w_o };

    if (TRY(mha_split_heads(heads, x, T, H, DK)))
        try_print_heads("X split", heads, H, T, DK);
    if (TRY(mha_merge_heads(merged, heads, T, H, DK)))
        try_print("merged back (should be X)", merged, T, D, H);
    if (TRY(mha_forward(out, weights, &layer, x, NULL, T))) {
        try_print_heads("weights", weights, H, T, T);
        try_print("out", out, T, D, H);
    }
    return 0;
}
