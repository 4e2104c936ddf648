/* Generated from the book: book/en/92-programs-03.nw, the example
 * programs of chapter 03 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch03-mha.c - every number chapter 03 states about a computation,
 * recomputed with the library and printed as key=value lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "examples/ch03-worked.h"
#include "examples/ch03-planted.h"

/* need - exit with the library's message if a call failed */
static void need(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "ch03-mha: %s: %s\n", call, mm_last_error());
    exit(EXIT_FAILURE);
}

/* heads_alone - each head through sdpa on the split X (Q = K = V = X) */
static void heads_alone(void)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H, DK = D / H };
    double heads[H * T * DK], o[H * T * DK], concat[T * D];
    need(mha_split_heads(heads, ch03_x, T, H, DK), "mha_split_heads");
    for (int h = 0; h < H; h++) {
        const double *x_h = heads + h * T * DK;        /* (T, d_k) */
        need(sdpa(o + h * T * DK, NULL, x_h, x_h, x_h, NULL, T, T, DK, DK),
             "sdpa");
    }
    need(mha_merge_heads(concat, o, T, H, DK), "mha_merge_heads");
    for (int e = 0; e < T * D; e++)
        printf("worked.concat%d%d=%.17g\n", e / D, e % D, concat[e]);
}

/* worked - the worked example through a layer with its weights set */
static void worked(void)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H };
    double w[H * T * T], out[T * D];
    mha *layer;
    need(mha_new(&layer, D, H, 1), "mha_new");
    need(mha_set_weights(layer, ch03_eye, ch03_eye, ch03_eye, ch03_w_o),
         "mha_set_weights");
    need(mha_forward(out, w, layer, ch03_x, NULL, T), "mha_forward");
    for (int e = 0; e < H * T * T; e++)
        printf("worked.w%d.%d%d=%.17g\n", e / (T * T), e / T % T, e % T, w[e]);
    for (int e = 0; e < T * D; e++)
        printf("worked.out%d%d=%.17g\n", e / D, e % D, out[e]);
    double e = exp(1 / sqrt(2.0));              /* e^(1/sqrt 2): row 0's */
    printf("worked.e=%.17g\nworked.row0_sum=%.17g\n", e, 2 * e + 1);
    heads_alone();
    mha_free(layer);
}

/* reshape_bug - X read as (n_heads, T, d_k) without the transpose */
static void reshape_bug(void)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H, DK = D / H };
    const double *wrong = ch03_x;          /* "head h" = the next T rows */
    for (int h = 0; h < H; h++)
        for (int e = 0; e < T * DK; e++)
            printf("reshape.head%d.%d%d=%.17g\n", h, e / DK, e % DK,
                   wrong[h * T * DK + e]);
}

/* counts - parameters, widths and caches at Mini-GPT and GPT-2 scale */
static void counts(void)
{
    enum { D = 64, H = 4, DK = D / H, D2 = 768, H2 = 12, T2 = 1024 };
    mha *layer;
    long n;
    need(mha_new(&layer, D, H, 1), "mha_new");
    need(mha_param_count(&n, layer), "mha_param_count");
    printf("count.layer=%ld\ncount.per_head_qkv=%d\n", n, 3 * D * DK);
    printf("count.heads_qkv=%d\ncount.one_wide_qkv=%d\n", H * 3 * D * DK,
           3 * D * D);
    for (int g = 1; g <= H; g *= 2)      /* K, V shared by groups of heads */
        printf("count.gqa%d=%d\ncount.cache%d=%d\n", g,
               2 * D * D + 2 * D * (g * DK), g, 2 * g * DK);
    printf("count.gpt2.d_k=%d\ncount.gpt2.weights=%ld\n", D2 / H2,
           4L * D2 * D2);
    printf("count.gpt2.c_attn=%d\n", 3 * D2);       /* Q, K, V biases */
    printf("count.gpt2.biases=%d\ncount.gpt2.total=%ld\n", 4 * D2,
           4L * D2 * D2 + 4 * D2);          /* c_attn 3 d, c_proj d */
    printf("count.gpt2.work_mib=%g\ncount.gpt2.split_mib=%g\n",  /* T = 1024 */
           T2 * (4.0 * D2 + 4.0 * (D2 / H2)) * 8 / (1 << 20),
           2 * (T2 * 3.0 * D2) * 8 / (1 << 20));  /* two (T, 3 d) buffers */
    mha_free(layer);
}

/* eight_tokens - the weights of the 8 tokens, drawn and planted */
static void eight_tokens(void)
{
    static double x[P_T * P_D], out[P_T * P_D], w[P_H * P_T * P_T];
    mha *layer;
    planted_x(x);
    need(mha_new(&layer, P_D, P_H, 1), "mha_new");
    need(mha_forward(out, w, layer, x, NULL, P_T), "mha_forward (drawn)");
    double dev = 0.0;
    for (int e = 0; e < P_H * P_T * P_T; e++)
        if (fabs(w[e] - 1.0 / P_T) > dev) dev = fabs(w[e] - 1.0 / P_T);
    printf("drawn.max_dev_from_uniform=%.17g\n", dev);
    need(planted_layer(layer), "planted_layer");
    need(mha_forward(out, w, layer, x, NULL, P_T), "mha_forward (planted)");
    for (int e = 0; e < P_H * P_T * P_T; e++)
        printf("planted.w%d.%d.%d=%.17g\n", e / (P_T * P_T), e / P_T % P_T,
               e % P_T, w[e]);
    mha_free(layer);
}

int main(void)
{
    worked();
    reshape_bug();
    counts();
    eight_tokens();
    return 0;
}
