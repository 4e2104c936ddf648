/* Generated from the book: book/en/905-programs-01.nw, the example
 * programs of chapter 01 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch01-worked.c - every number chapter 01 states about a computation,
 * recomputed with the library and printed as key=value lines. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "minimodel/attention/qkv.h"
#include "examples/ch01-worked.h"

/* need - exit with the library's message if a call failed */
static void need(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "ch01-worked: %s: %s\n", call, mm_last_error());
    exit(EXIT_FAILURE);
}

/* example - S, the weights and the output of the worked example */
static void example(const char *name, const double *w_k, const double *w_v,
                    double query_scale)
{
    enum { T = CH01_T, D = CH01_D };
    double q[T * D], k[T * D], v[T * D], w[T * T], out[T * D];
    need(qkv_project(q, k, v, ch01_x, ch01_w_q, w_k, w_v, T, D, D, D),
         "qkv_project");
    for (int i = 0; i < T * D; i++) q[i] *= query_scale;
    for (int i = 0; i < T; i++)                      /* s_ij = q_i k_j^T */
        for (int j = 0; j < T; j++)
            printf("%s.s%d%d=%.17g\n", name, i, j,
                   q[i * D] * k[j * D] + q[i * D + 1] * k[j * D + 1]);
    need(qkv_attend_unscaled(out, w, q, k, v, T, D, D), "qkv_attend_unscaled");
    for (int i = 0; i < T * T; i++)
        printf("%s.w%d%d=%.17g\n", name, i / T, i % T, w[i]);
    for (int i = 0; i < T * D; i++)
        printf("%s.out%d%d=%.17g\n", name, i / D, i % D, out[i]);
    double w00 = round(w[0] * 1e4) / 1e4, w01 = round(w[1] * 1e4) / 1e4;
    for (int c = 0; c < D; c++)        /* row 0 from four-decimal weights */
        printf("%s.rounded.out0%d=%.17g\n", name, c,
               w00 * v[c] + w01 * v[D + c]);
}

/* mini_gpt_counts - the parameters of one Mini-GPT attention layer */
static void mini_gpt_counts(void)
{
    int d_model = 64, n_heads = 4, d_k = d_model / n_heads;
    long total;
    need(attention_param_count(&total, d_model, n_heads),
         "attention_param_count");
    long w_o = (long)d_model * d_model;
    printf("mini.d_k=%d\nmini.per_head=%ld\n", d_k, 3L * d_model * d_k);
    printf("mini.qkv=%ld\nmini.w_o=%ld\n", total - w_o, w_o);
    printf("mini.total=%ld\n", total);
    printf("mini.biases=%d\n", 3 * d_model + d_model);    /* Q, K, V, out */
    printf("mini.with_biases=%ld\n", total + 3L * d_model + d_model);
    printf("mini.w_qkv_cols=%d\n", 3 * d_model);
    printf("gpt2.c_attn_bias=%d\n", 3 * 768);        /* GPT-2 small */
    printf("init.std=%.17g\n", MM_INIT_STD);
}

/* plain_softmax_limits - where exp overflows, and where it underflows to 0 */
static void plain_softmax_limits(void)
{
    double lo = -1000.0, hi = 0.0;              /* exp(lo) == 0 < exp(hi) */
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (exp(mid) == 0.0) lo = mid; else hi = mid;
    }
    printf("plain.overflow_score=%.17g\n", log(DBL_MAX));
    printf("plain.underflow_score_abs=%.17g\n", -lo);
}

/* normal_bound - sqrt(-2 ln s) at the smallest s of the polar method */
static void normal_bound(void)
{
    printf("core.normal_bound=%.17g\n", sqrt(-2.0 * log(0x1p-104)));
}

int main(void)
{
    example("worked", ch01_w_k, ch01_w_v, 1.0);
    example("identity", ch01_w_k, ch01_identity, 1.0);   /* W_V = I */
    example("asym", ch01_w_k_asym, ch01_w_v, 1.0);       /* s01 != s10 */
    example("vk", ch01_w_k, ch01_w_k, 1.0);               /* V = K */
    example("scaled", ch01_w_k, ch01_w_v, 1.0 / sqrt(CH01_D)); /* chapter 2 */
    mini_gpt_counts();
    plain_softmax_limits();
    normal_bound();                               /* appendix A */
    return 0;
}
