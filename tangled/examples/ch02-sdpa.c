/* Generated from the book: book/en/91-programs-02.nw, the example
 * programs of chapter 02 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch02-sdpa.c - every number chapter 02 states about a computation,
 * recomputed with the library and printed as key=value lines. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"
#include "examples/ch01-worked.h"

/* need - exit with the library's message if a call failed */
static void need(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "ch02-sdpa: %s: %s\n", call, mm_last_error());
    exit(EXIT_FAILURE);
}

/* worked_with_scale - chapter 01's example through sdpa */
static void worked_with_scale(void)
{
    enum { T = CH01_T, D = CH01_D };
    double q[T * D], k[T * D], v[T * D], w[T * T], out[T * D];
    need(qkv_project(q, k, v, ch01_x, ch01_w_q, ch01_w_k, ch01_w_v,
                     T, D, D, D), "qkv_project");
    need(sdpa(out, w, q, k, v, NULL, T, T, D, D), "sdpa");
    for (int i = 0; i < T * T; i++)
        printf("worked.w%d%d=%.17g\n", i / T, i % T, w[i]);
    for (int i = 0; i < T * D; i++)
        printf("worked.out%d%d=%.17g\n", i / D, i % D, out[i]);
}

/* large_row - (1000, 999): the plain softmax refuses, the stable one works */
static void large_row(void)
{
    double s[2] = { 1000.0, 999.0 }, one[2] = { 1.0, 0.0 }, w[4], out[2];
    double q[4] = { 1000, 999,  0, 0 }, k[4] = { 1, 0,  0, 1 }, v[2] = { 1, 0 };
    mm_status plain = qkv_attend_unscaled(out, w, q, k, v, 2, 2, 1); /* K = I */
    printf("large.plain_status=%s\n", mm_status_name(plain));
    need(softmax_row(s, 2), "softmax_row (1000, 999)");
    need(softmax_row(one, 2), "softmax_row (1, 0)");
    printf("large.w0=%.17g\nlarge.w1=%.17g\n", s[0], s[1]);
    printf("large.same_as_1_0=%d\n", s[0] == one[0] && s[1] == one[1]);
}

/* exp_limits - where exp overflows, and where it underflows to 0 */
static void exp_limits(void)
{
    double lo = -1000.0, hi = 0.0;              /* exp(lo) == 0 < exp(hi) */
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (exp(mid) == 0.0) lo = mid; else hi = mid;
    }
    printf("exp.overflow=%.17g\nexp.underflow_abs=%.17g\n", log(DBL_MAX), -lo);
}

/* mini_gpt_head - head 0 of MultiHeadAttention(64, 4, 1) on 8 tokens */
static void mini_gpt_head(void)
{
    enum { T = 8, D = 64, H = 4, DK = D / H };
    static double x[T * D], w_q[D * D], w_k[D * D], w_v[D * D], w_o[D * D];
    static double q[T * D], k[T * D], v[T * D];
    double qh[T * DK], kh[T * DK], vh[T * DK], w[T * T], out[T * DK];
    mm_rng r;
    mm_rng_seed(&r, 8);
    need(mm_fill_normal(x, T * D, 1.0, &r), "mm_fill_normal (X)");
    need(attention_init_weights(w_q, w_k, w_v, w_o, D, 1), "init weights");
    need(qkv_project(q, k, v, x, w_q, w_k, w_v, T, D, D, D), "qkv_project");
    for (int t = 0; t < T; t++)                 /* head 0: columns 0..DK-1 */
        for (int c = 0; c < DK; c++) {
            qh[t * DK + c] = q[t * D + c];
            kh[t * DK + c] = k[t * D + c];
            vh[t * DK + c] = v[t * D + c];
        }
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            double s = 0.0;
            for (int c = 0; c < DK; c++) s += qh[i * DK + c] * kh[j * DK + c];
            s /= sqrt(DK);
            sum += s;
            sum2 += s * s;
        }
    double mean = sum / (T * T);
    printf("mini.score_std=%.17g\n", sqrt(sum2 / (T * T) - mean * mean));
    need(sdpa(out, w, qh, kh, vh, NULL, T, T, DK, DK), "sdpa");
    double dev = 0.0;
    for (int i = 0; i < T * T; i++)
        if (fabs(w[i] - 1.0 / T) > dev) dev = fabs(w[i] - 1.0 / T);
    printf("mini.scale=%.17g\nmini.max_dev_from_uniform=%.17g\n",
           1.0 / sqrt(DK), dev);
    double q_std = MM_INIT_STD * sqrt(D);     /* the estimates of the text */
    printf("mini.q_std_estimate=%.17g\n", q_std);
    printf("mini.score_std_estimate=%.17g\n",    /* sqrt(d_k) terms, scaled */
           q_std * q_std * sqrt(DK) * (1.0 / sqrt(DK)));
}

/* exercises - the numbers of the answers to chapter 02's exercises */
static void exercises(void)
{
    double a[3] = { 3, 1, 0 }, b[3] = { 1003, 1001, 1000 };
    need(softmax_row(a, 3), "softmax_row (3, 1, 0)");
    need(softmax_row(b, 3), "softmax_row (1003, 1001, 1000)");
    for (int j = 0; j < 3; j++)
        printf("ex.shift.w%d=%.17g\nex.shift.same%d=%d\n", j, a[j], j,
               a[j] == b[j]);
    double unscaled[2] = { 0, 1 }, scaled[2] = { 0, 1 / sqrt(2.0) };
    need(softmax_row(unscaled, 2), "softmax_row (0, 1)");
    need(softmax_row(scaled, 2), "softmax_row (0, 1/sqrt 2)");
    printf("ex.jac.scaled=%.17g\nex.jac.unscaled=%.17g\n",
           scaled[0] * (1 - scaled[0]), unscaled[0] * (1 - unscaled[0]));
    enum { T = CH01_T, D = CH01_D };
    double q[T * D], k[T * D], v[T * D], w[T * T], out[T * D];
    const double hide1[T * T] = { 0, -INFINITY, 0, 0 };
    const double hide_all[T * T] = { -INFINITY, -INFINITY, 0, 0 };
    need(qkv_project(q, k, v, ch01_x, ch01_w_q, ch01_w_k, ch01_w_v, T, D, D, D),
         "qkv_project");
    need(sdpa(out, w, q, k, v, hide1, T, T, D, D), "sdpa (key 1 hidden)");
    printf("ex.hide1.w00=%.17g\nex.hide1.w01=%.17g\n", w[0], w[1]);
    printf("ex.hide1.out00=%.17g\nex.hide1.out01=%.17g\n", out[0], out[1]);
    need(sdpa(out, w, q, k, v, hide_all, T, T, D, D), "sdpa (both hidden)");
    printf("ex.hideall.w00=%.17g\nex.hideall.out00=%.17g\n", w[0], out[0]);
}

int main(void)
{
    worked_with_scale();
    large_row();
    exp_limits();
    mini_gpt_head();
    exercises();
    return 0;
}
