/* try.c - your Lab 05 functions on inputs of your own. Change anything
 * here (the judge never reads this file), then
 *     make lab-try NN=05
 * builds it with your fast.c at -O0 -g and runs it; to step through your
 * code, gdb build/labs/try/lab05/try. It starts from chapter 05's worked
 * examples: the scores (1, 2, 4, 0) in blocks of 2, the four tokens in
 * tiles of 2 x 2, and chapter 03's worked layer decoded token by token
 * (each step's out is that row of mha_forward_causal). */
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "try.h"

int main(void)
{
    double s[4] = { 1, 2, 4, 0 };
    if (TRY(softmax_online(s, 4, 2)))
        try_print("weights (0.0414, 0.1125, 0.8310, 0.0152 in the book)", s, 1, 4, 1);

    enum { T = 4, DK = 2 };
    const double x4[T * DK] = { 1, 0,   0, 1,   1, 1,   2, 0 };    /* Q = K = V */
    double tiled[T * DK];
    if (TRY(sdpa_causal_tiled(tiled, x4, x4, x4, T, DK, DK, 2, 2)))
        try_print("out (row 3: 1.6089, 0.1956 in the book)", tiled, T, DK, 1);

    enum { N = 3, D = 4, H = 2 };                 /* chapter 03's worked layer */
    const double x[N * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 1, 0, 0 };
    double w_qkv[D * 3 * D] = { 0 };              /* [W_Q | W_K | W_V] = [I | I | I] */
    double w_o[D * D] = { 1, 0, 1, 0,   0, 1, 0, 1,   1, 0, -1, 0,   0, 1, 0, -1 };
    for (int i = 0; i < D; i++)
        for (int p = 0; p < 3; p++)
            w_qkv[i * 3 * D + p * D + i] = 1;
    mha layer = { .d_model = D, .n_heads = H, .d_k = D / H, .w_qkv = w_qkv, .w_o = w_o };
    double want[N * D], step[D];
    if (TRY(mha_forward_causal(want, NULL, &layer, x, N)))
        try_print("mha_forward_causal, every row", want, N, D, H);
    mha_cache *cache = NULL;
    if (!TRY(mha_cache_new(&cache, &layer, N))) return 0;
    for (int t = 0; t < N; t++)
        if (TRY(mha_decode_step(step, cache, x + t * D)))
            try_print("this step's out", step, 1, D, H);
    mha_cache_free(cache);
    return 0;
}
