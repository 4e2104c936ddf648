/* try.c - your Lab 04 functions on inputs of your own. Change anything
 * here (the judge never reads this file), then
 *     make lab-try NN=04
 * builds it with your mask.c at -O0 -g and runs it; to step through your
 * code, gdb build/labs/try/lab04/try. It starts from chapter 03's worked
 * layer (3 tokens, d_model = 4, 2 heads, W_Q = W_K = W_V = I), now causal. */
#include <stdbool.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "try.h"

int main(void)
{
    enum { T = 3, D = 4, H = 2, DK = D / H };
    const double x[T * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 1, 0, 0 };
    double w_qkv[D * 3 * D] = { 0 };              /* [W_Q | W_K | W_V] = [I | I | I] */
    double w_o[D * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 0, -1, 0,   0, 1, 0, -1 };
    const bool allowed[T * T] = { true, false, false,   true, true, false,   true, true, true };
    double causal[T * T], padding[T * T], from_bool[T * T];   /* (T_q, T_k) biases */
    double out[T * D], weights[H * T * T];                    /* (T, d_model), (H, T, T) */

    for (int i = 0; i < D; i++)
        for (int p = 0; p < 3; p++)
            w_qkv[i * 3 * D + p * D + i] = 1;
    mha layer = { .d_model = D, .n_heads = H, .d_k = DK, .w_qkv = w_qkv, .w_o = w_o };

    if (TRY(mask_causal(causal, T)))
        try_print("causal", causal, T, T, 1);
    if (TRY(mask_padding(padding, T, T, 2)))
        try_print("padding, length 2", padding, T, T, 1);
    if (TRY(mask_from_bool(from_bool, allowed, T, T)))
        try_print("from the truth table", from_bool, T, T, 1);
    if (TRY(mask_combine(padding, causal, T, T)))
        try_print("padding + causal", padding, T, T, 1);
    if (TRY(mha_forward_causal(out, weights, &layer, x, T))) {
        try_print_heads("weights", weights, H, T, T);
        try_print("out", out, T, D, H);
    }
    return 0;
}
