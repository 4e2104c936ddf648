/* Generated from the book: book/en/94-programs-05.nw (the Spanish edition
 * tangles the same bytes). Edit the book, not this file. */
/* ch05-speed.c - every number chapter 05 states about a computation,
 * recomputed with the library and printed as key=value lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"

/* need - exit with the library's message if a call failed */
static void need(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "ch05-speed: %s: %s\n", call, mm_last_error());
    exit(EXIT_FAILURE);
}

/* layer_flop - 8 T d^2 + 2 T (T + 1) d: one causal forward pass */
static long long layer_flop(long long T, long long d)
{
    return 8 * T * d * d + 2 * T * (T + 1) * d;
}

/* flops - the FLOP of one causal forward pass at two shapes */
static void flops(void)
{
    printf("flop.gpt2=%lld\nflop.mini=%lld\n", layer_flop(1024, 768),
           layer_flop(64, 64));
    printf("flop.gpt2.projection_share=%.2f\n",
           8.0 * 1024 * 768 * 768 / (double)layer_flop(1024, 768));
}

/* online - s = (1, 2, 4, 0) in blocks of two, by hand and by the library */
static void online(void)
{
    double s[4] = { 1, 2, 4, 0 }, w[4], ref[4], diff = 0;
    double m1 = fmax(s[0], s[1]), l1 = exp(s[0] - m1) + exp(s[1] - m1);
    double m2 = fmax(m1, fmax(s[2], s[3])), alpha = exp(m1 - m2);
    double l2 = l1 * alpha + exp(s[2] - m2) + exp(s[3] - m2);
    printf("online.m1=%.4f\nonline.l1=%.4f\nonline.alpha=%.4f\n", m1, l1,
           alpha);
    printf("online.m2=%.4f\nonline.l2=%.4f\n", m2, l2);
    memcpy(w, s, sizeof s);
    memcpy(ref, s, sizeof s);
    need(softmax_online(w, 4, 2), "softmax_online");
    need(softmax_row(ref, 4), "softmax_row");
    for (int j = 0; j < 4; j++) {
        printf("online.w%d=%.4f\n", j, w[j]);
        diff = fmax(diff, fabs(w[j] - ref[j]) / 0x1p-53);
    }
    printf("online.within_8u=%d\n", diff <= 8);
}

/* four_tokens - chapter 03's head 0 and a token (2, 0), in 2 x 2 tiles */
static void four_tokens(void)
{
    enum { T = 4, D = 2 };
    const double x[T * D] = { 1, 0, 0, 1, 1, 1, 2, 0 };
    double out[T * D], ref[T * D], bias[T * T], diff = 0;
    double r = 1 / sqrt(2.0), s30 = 2 * r, s31 = 0, s32 = 2 * r, s33 = 4 * r;
    double m1 = fmax(s30, s31), l1 = exp(s30 - m1) + exp(s31 - m1);
    double m2 = fmax(m1, fmax(s32, s33)), alpha = exp(m1 - m2);
    double l2 = l1 * alpha + exp(s32 - m2) + exp(s33 - m2), w[T * T];
    double acc[D], p[4] = { exp(s30 - m1), exp(s31 - m1), exp(s32 - m2),
                            exp(s33 - m2) };             /* each key's P */
    printf("tiles.row3.m1=%.4f\ntiles.row3.l1=%.4f\n", m1, l1);
    printf("tiles.row3.alpha=%.4f\ntiles.row3.l2=%.4f\n", alpha, l2);
    printf("tiles.row3.s33=%.4f\ntiles.row3.p1=%.4f\n", s33, p[1]);
    for (int c = 0; c < D; c++)
        acc[c] = (p[0] * x[c] + p[1] * x[2 + c]) * alpha
                 + p[2] * x[4 + c] + p[3] * x[6 + c];
    printf("tiles.row3.acc0=%.4f\ntiles.row3.acc1=%.4f\n", acc[0], acc[1]);
    need(sdpa_causal_tiled(out, x, x, x, T, D, D, 2, 2), "sdpa_causal_tiled");
    need(mask_causal(bias, T), "mask_causal");
    need(sdpa(ref, w, x, x, x, bias, T, T, D, D), "sdpa");
    printf("tiles.w10=%.4f\ntiles.w11=%.4f\n", w[4], w[5]);
    printf("tiles.w20=%.4f\ntiles.w22=%.4f\n", w[8], w[10]);
    for (int e = 0; e < T * D; e++)
        diff = fmax(diff, fabs(out[e] - ref[e]) / 0x1p-53);
    printf("tiles.out30=%.4f\ntiles.out31=%.4f\ntiles.out20=%.4f\n",
           out[6], out[7], out[4]);
    printf("tiles.within_16u=%d\n", diff <= 16);
}

/* tile_counts - the causal mask in square tiles of B, T = n B */
static void tile_counts(void)
{
    const long T[] = { 8, 1024 }, B[] = { 2, 64 };
    for (int i = 0; i < 2; i++) {
        long n = T[i] / B[i], computed = n * (n + 1) / 2;
        printf("tilecount.T%ld.all=%ld\ntilecount.T%ld.computed=%ld\n", T[i],
               n * n, T[i], computed);
        printf("tilecount.T%ld.skipped=%ld\ntilecount.T%ld.diagonal=%ld\n",
               T[i], n * n - computed, T[i], n);
        printf("tilecount.T%ld.below=%ld\n", T[i], computed - n);
        printf("tilecount.T%ld.scores=%ld\ntilecount.T%ld.used=%ld\n", T[i],
               computed * B[i] * B[i], T[i], T[i] * (T[i] + 1) / 2);
        printf("tilecount.T%ld.thrown=%ld\n", T[i], n * B[i] * (B[i] - 1) / 2);
    }
}

/* buffer_sizes - the buffers of the two layers at (1024, 768, 12) */
static void buffer_sizes(void)
{
    const double kib = 1024.0, mib = kib * kib, b = sizeof(double);
    const double T = 1024, d = 768, d_k = 64, B = 64;
    double tiles = B * B + 2 * B * d_k + d_k * B + 2 * B, g = 256 / d_k;
    printf("size.tile_step_kib=%g\n", 7 * B * B * b / kib);
    printf("size.w_qkv_mib=%.1f\n", d * 3 * d * b / mib);
    printf("size.ch03_mib=%g\n", T * 3 * d * b / mib + T * d * b / mib);
    printf("size.ch04_extra_mib=%.0f\n",
           (T * (4 * d + 4 * d_k) + T * T) * b / mib);
    printf("size.w_h_mib=%.1f\n", d * 3 * d_k * b / mib);
    printf("size.w_o_group_mib=%.1f\n", g * d_k * d * b / mib);
    printf("size.tiled_work_mib=%.1f\n",
           (3 * d * d_k + (6 + g) * T * d_k + B * d + tiles) * b / mib);
}

/* decode_costs - FLOP of generating T = 1024 tokens at d = 64 */
static void decode_costs(void)
{
    const long long T = 1024, d = 64;
    long long recompute = 0, cached = 0;
    for (long long t = 0; t < T; t++) {
        recompute += layer_flop(t + 1, d);
        cached += 8 * d * d + 4 * (t + 1) * d;
    }
    printf("decode.T1024.recompute_flop=%lld\n", recompute);
    printf("decode.T1024.cached_flop=%lld\n", cached);
    printf("decode.T1024.ratio=%.1f\n", (double)recompute / cached);
}

/* cache_memory - bytes of keys and values: Mini-GPT, GPT-2 small */
static void cache_memory(void)
{
    const double mib = 1024.0 * 1024.0;
    long long mini = 2LL * 64 * 64 * (long long)sizeof(double);
    long long gpt2 = 2LL * 1024 * 768 * (long long)sizeof(double);
    printf("cache.mini.bytes=%lld\n", mini);
    printf("cache.gpt2.layer_mib=%g\ncache.gpt2.model_mib=%g\n", gpt2 / mib,
           12 * gpt2 / mib);
    printf("cache.gpt2.gqa4_mib=%g\ncache.gpt2.mqa_mib=%g\n",
           gpt2 / mib * 4 / 12, gpt2 / mib / 12);
}

/* rel_diff - max |a - b| over max |b| */
static double rel_diff(const double *a, const double *b, int n)
{
    double diff = 0, big = 0;
    for (int e = 0; e < n; e++) {
        diff = fmax(diff, fabs(a[e] - b[e]));
        big = fmax(big, fabs(b[e]));
    }
    return diff / big;
}

/* mini - the tiled layer and the cache against the causal layer */
static void mini(void)
{
    enum { T = 64, D = 64, H = 4 };
    static double x[T * D], ref[T * D], out[T * D];
    mha *layer;
    mha_cache *cache;
    mm_rng r;
    mm_rng_seed(&r, 5);
    need(mm_fill_normal(x, T * D, 1.0, &r), "mm_fill_normal");
    need(mha_new(&layer, D, H, 5), "mha_new");
    need(mha_forward_causal(ref, NULL, layer, x, T), "mha_forward_causal");
    need(mha_forward_tiled(out, layer, x, T, MHA_BLOCK_Q, MHA_BLOCK_K),
         "mha_forward_tiled");
    printf("mini.tiled_rel_diff_below_1e-14=%d\n",
           rel_diff(out, ref, T * D) < 1e-14);
    need(mha_cache_new(&cache, layer, T), "mha_cache_new");
    for (int t = 0; t < T; t++)
        need(mha_decode_step(out + t * D, cache, x + t * D), "mha_decode_step");
    printf("mini.decode_rel_diff_below_1e-14=%d\n",
           rel_diff(out, ref, T * D) < 1e-14);
    mha_cache_free(cache);
    mha_free(layer);
}

/* exercises - blocks of one; Mini-GPT's cache with one key/value head */
static void exercises(void)
{
    const double s[4] = { 1, 2, 4, 0 };
    double m = -INFINITY, l = 0;
    int grew = 0;
    for (int j = 0; j < 4; j++) {
        double m_new = fmax(m, s[j]);
        grew += m_new > m && j > 0;
        l = l * exp(m - m_new) + exp(s[j] - m_new);
        m = m_new;
        printf("ex.blocks1.l%d=%.4f\n", j, l);
    }
    printf("ex.blocks1.grew=%d\n", grew);
    printf("ex.cache.bytes=%d\n", 2 * 64 * 64 * (int)sizeof(double));
    printf("ex.cache.mqa_bytes=%d\n", 2 * 64 * 16 * (int)sizeof(double));
}

int main(void)
{
    flops();
    online();
    four_tokens();
    tile_counts();
    buffer_sizes();
    decode_costs();
    cache_memory();
    mini();
    exercises();
    return 0;
}
