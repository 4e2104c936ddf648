/* use-layer.c - the finished layer from C: MultiHeadAttention(64, 4, 1)
 * on 8 tokens, causal; prints the output's shape and head 0's weights.
 * Generated from book/en/93-programs-04.nw; shown in README.md. */
#include <stdio.h>
#include "minimodel/attention/mask.h"
#include "minimodel/core/rng.h"

int main(void)
{
    enum { T = 8, D = 64, H = 4 };
    static double x[T * D], out[T * D], weights[H * T * T];
    mha *layer = NULL;
    mm_rng r;
    mm_rng_seed(&r, 8);                          /* X: N(0, 1), seed 8 */
    mm_status st = mm_fill_normal(x, T * D, 1.0, &r);
    if (st == MM_OK) st = mha_new(&layer, D, H, 1);
    if (st == MM_OK) st = mha_forward_causal(out, weights, layer, x, T);
    mha_free(layer);
    if (st != MM_OK) {
        fprintf(stderr, "use-layer: %s\n", mm_last_error());
        return 1;
    }
    printf("out: (%d, %d)\nweights of head 0:\n", T, D);
    for (int i = 0; i < T; i++) {
        for (int j = 0; j < T; j++) printf(" %.3f", weights[i * T + j]);
        printf("\n");
    }
    return 0;
}
