/* Generated from the book: book/en/93-programs-04.nw (the Spanish edition
 * tangles the same bytes). Edit the book, not this file. */
/* ch04-masking.c - every number chapter 04 states about a computation,
 * recomputed with the library and printed as key=value lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"
#include "examples/ch03-worked.h"
#include "examples/ch03-planted.h"

/* need - exit with the library's message if a call failed */
static void need(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "ch04-masking: %s: %s\n", call, mm_last_error());
    exit(EXIT_FAILURE);
}

/* worked_causal - chapter 03's worked example through the causal layer */
static void worked_causal(void)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H };
    double w[H * T * T], out[T * D], bias[T * T];
    mha *layer;
    need(mask_causal(bias, T), "mask_causal");
    for (int e = 0; e < T * T; e++)
        printf("worked.bias%d%d=%g\n", e / T, e % T, bias[e]);
    need(mha_new(&layer, D, H, 1), "mha_new");
    need(mha_set_weights(layer, ch03_eye, ch03_eye, ch03_eye, ch03_w_o),
         "mha_set_weights");
    need(mha_forward_causal(out, w, layer, ch03_x, T), "mha_forward_causal");
    for (int e = 0; e < H * T * T; e++)
        printf("worked.w%d.%d%d=%.4f\n", e / (T * T), e / T % T, e % T, w[e]);
    for (int e = 0; e < T * D; e++)
        printf("worked.out%d%d=%.4f\n", e / D, e % D, out[e]);
    mha_free(layer);
}

/* after_softmax - head 0, row 1 of the worked example: (0, 1, 1) / sqrt 2
 * masked before the softmax, and after it, for two values of the future */
static void after_softmax(void)
{
    for (int f = 1; f <= 3; f += 2) {        /* the future score: 1, then 3 */
        double s[3] = { 0, 1 / sqrt(2.0), f / sqrt(2.0) }, before[3];
        memcpy(before, s, sizeof s);
        before[2] = -INFINITY;                       /* masked, then softmax */
        need(softmax_row(before, 3), "softmax_row (before)");
        need(softmax_row(s, 3), "softmax_row (all)");
        s[2] = 0.0;                                   /* softmax, then masked */
        printf("after.f%d.before0=%.4f\nafter.f%d.before1=%.4f\n",
               f, before[0], f, before[1]);
        printf("after.f%d.after0=%.4f\nafter.f%d.after1=%.4f\n"
               "after.f%d.sum=%.4f\n", f, s[0], f, s[1], f, s[0] + s[1]);
    }
}

/* fully_hidden - a row of 3 keys, all hidden: -inf through the plain
 * max-subtracted formula, scores replaced by -1e9, and softmax_row */
static void fully_hidden(void)
{
    double s[3] = { -INFINITY, -INFINITY, -INFINITY }, fill[3], m = -INFINITY;
    for (int j = 0; j < 3; j++) fill[j] = -1e9;       /* masked_fill(-1e9) */
    for (int j = 0; j < 3; j++) if (s[j] > m) m = s[j];
    double naive = exp(s[0] - m);                        /* -inf - (-inf) */
    printf("hidden.naive_is_nan=%d\n", isnan(naive));
    need(softmax_row(fill, 3), "softmax_row (-1e9)");
    printf("hidden.fill.w0=%.4f\n", fill[0]);
    need(softmax_row(s, 3), "softmax_row (-inf)");
    printf("hidden.lib.w0=%g\nhidden.lib.sum=%g\n", s[0], s[0] + s[1] + s[2]);
}

/* properties - prefix invariance and padding, on a seeded layer and X */
static void properties(void)
{
    enum { T = 12, D = 16, H = 4, P = 7 };        /* a prefix of P tokens */
    double x[T * D], out[T * D], part[T * D], bias[T * T];
    mha *layer;
    mm_rng r;
    mm_rng_seed(&r, 4);
    need(mm_fill_normal(x, T * D, 1.0, &r), "mm_fill_normal");
    need(mha_new(&layer, D, H, 4), "mha_new");
    need(mha_forward_causal(out, NULL, layer, x, T), "causal, T tokens");
    need(mha_forward_causal(part, NULL, layer, x, P), "causal, P tokens");
    printf("prefix.same=%d\n", memcmp(out, part, sizeof(double) * P * D) == 0);
    need(mha_forward(part, NULL, layer, x, NULL, P), "unmasked, P tokens");
    printf("prefix.last_row_same=%d\n", memcmp(out + (P - 1) * D,
           part + (P - 1) * D, sizeof(double) * D) == 0);
    need(mask_padding(bias, T, T, P), "mask_padding");
    need(mha_forward(out, NULL, layer, x, bias, T), "padded to T");
    printf("padding.same=%d\n", memcmp(out, part, sizeof(double) * P * D) == 0);
    mha_free(layer);
}

/* costs - scores computed with the causal mask, T (T + 1) / 2 of T^2 */
static void costs(void)
{
    const long T[] = { 3, 8, 64, 1024 };
    for (int i = 0; i < 4; i++) {
        printf("cost.T%ld.scores=%ld\ncost.T%ld.all=%ld\n", T[i],
               T[i] * (T[i] + 1) / 2, T[i], T[i] * T[i]);
        printf("cost.T%ld.share=%.4f\n", T[i], (T[i] + 1) / (2.0 * T[i]));
    }
}

/* eight_tokens_causal - the planted heads of chapter 03, causal */
static void eight_tokens_causal(void)
{
    static double x[P_T * P_D], out[P_T * P_D], w[P_H * P_T * P_T];
    mha *layer;
    planted_x(x);
    need(mha_new(&layer, P_D, P_H, 1), "mha_new");
    need(planted_layer(layer), "planted_layer");
    need(mha_forward_causal(out, w, layer, x, P_T), "mha_forward_causal");
    for (int e = 0; e < P_H * P_T * P_T; e++)
        printf("planted.w%d.%d.%d=%.4f\n", e / (P_T * P_T), e / P_T % P_T,
               e % P_T, w[e]);
    mha_free(layer);
}

/* exercises - a future score of 1000, masked after the softmax */
static void exercises(void)
{
    double s[3] = { 0, 1, 1000 };
    need(softmax_row(s, 3), "softmax_row (0, 1, 1000)");
    printf("ex.after.w0=%g\nex.after.w1=%g\nex.after.renorm_is_nan=%d\n",
           s[0], s[1], isnan(s[0] / (s[0] + s[1])));
}

int main(void)
{
    worked_causal();
    after_softmax();
    fully_hidden();
    properties();
    costs();
    eight_tokens_causal();
    exercises();
    return 0;
}
