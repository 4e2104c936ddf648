/* Generated from the book: book/en/05-attention-at-speed.nw (the Spanish
 * edition tangles the same bytes). Edit the chapter, not this file. */
/* fast.c - chapter 05: the online softmax, tiles, the key/value cache */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fast.h"
#include "qkv.h"
#include "sdpa.h"
#include "../core/matrix.h"

/* row_max - the largest of s[0..n-1]; -INFINITY if all are */
static double row_max(const double *s, int n)
{
    double m = -INFINITY;
    #pragma omp simd reduction(max:m)       /* partial maxima in lanes */
    for (int j = 0; j < n; j++)
        m = s[j] > m ? s[j] : m;
    return m;
}

/* raise_max - *m = max(*m, block_max), block_max finite; returns
 * alpha = exp(old m - new m), the factor for what was summed so far */
static double raise_max(double *m, double block_max)
{
    double m_new = block_max > *m ? block_max : *m;
    double alpha = exp(*m - m_new);       /* 0 at first, 1 if unchanged */
    *m = m_new;
    return alpha;
}

/* softmax_online - the weights of s, folded a block at a time */
mm_status softmax_online(double *s, int n, int block)
{
    MM_NEED_BUFFER(s);  MM_NEED_POSITIVE(n);  MM_NEED_POSITIVE(block);
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY)
            return mm_fail(MM_EINVAL, "%s: s[%d] is %g; a score must be "
                           "finite, or -inf for a hidden key", __func__, j,
                           s[j]);
    double m = -INFINITY, l = 0.0;          /* running maximum and sum */
    for (int j0 = 0; j0 < n; j0 += block) {
        int nb = n - j0 < block ? n - j0 : block;      /* this block: s[j0..] */
        double block_max = row_max(s + j0, nb);
        if (block_max == -INFINITY) continue;          /* nothing visible */
        l *= raise_max(&m, block_max);
        for (int j = j0; j < j0 + nb; j++) l += exp(s[j] - m);
    }
    for (int j = 0; j < n; j++)
        s[j] = m == -INFINITY ? 0.0 : exp(s[j] - m) / l;
    return MM_OK;
}

/* all_finite - true if no element of a[0..n-1] is NaN or infinite */
static bool all_finite(const double *a, size_t n)
{
    size_t bad = 0;                 /* counted, not searched: no early exit */
    for (size_t e = 0; e < n; e++)
        bad += !isfinite(a[e]);
    return bad == 0;
}

/* tiles - the scratch of one tile step, parts of one buffer */
typedef struct {
    double *s;      /* (block_q, block_k): scores, then exp(s - m) */
    double *pv;     /* (block_q, d_v): P V_J */
    double *acc;    /* (block_q, d_v): each row's output so far */
    double *kt;     /* (d_k, block_k): the tile's keys, transposed */
    double *m, *l;  /* (block_q) each: running maximum and sum */
} tiles;

/* tiles_size - the doubles of the scratch (checked by the callers) */
static size_t tiles_size(int bq, int bk, int d_k, int d_v)
{
    return (size_t)bq * bk + 2 * (size_t)bq * d_v + (size_t)d_k * bk
           + 2 * (size_t)bq;
}

/* tiles_at - the parts of the scratch in work, in the order above */
static tiles tiles_at(double *work, int bq, int bk, int d_k, int d_v)
{
    tiles t;
    t.s = work;
    t.pv = t.s + (size_t)bq * bk;
    t.acc = t.pv + (size_t)bq * d_v;
    t.kt = t.acc + (size_t)bq * d_v;
    t.m = t.kt + (size_t)d_k * bk;
    t.l = t.m + bq;
    return t;
}

/* score_tile - s = q_I k_J^T * scale for queries i0.. (nq) and keys
 * j0.. (nk); hidden cells -inf; MM_ERANGE, in who's name, if a visible
 * one overflows */
static mm_status score_tile(tiles *t, const double *q, const double *k,
                            int i0, int nq, int j0, int nk, int d_k,
                            double scale, const char *who)
{
    for (int p = 0; p < d_k; p++)                     /* K_J^T: (d_k, nk) */
        for (int c = 0; c < nk; c++)                  /* its row p, in order */
            t->kt[(size_t)p * nk + c] = k[(size_t)(j0 + c) * d_k + p];
    mm_matmul_unchecked(t->s, q + (size_t)i0 * d_k, t->kt, nq, d_k, nk,
                        false);
    for (int r = 0; r < nq; r++) {
        double *s_r = t->s + (size_t)r * nk;          /* query i0 + r */
        int seen = i0 + r - j0 + 1;              /* it sees keys j0..i0 + r */
        int vis = seen < 0 ? 0 : seen < nk ? seen : nk;   /* cells 0..vis-1 */
        for (int c = vis; c < nk; c++) s_r[c] = -INFINITY;   /* keys after it */
        if (!all_finite(s_r, (size_t)vis)) {          /* q . k passed DBL_MAX */
            int c = 0;
            while (isfinite(s_r[c])) c++;             /* the first that did */
            return mm_fail(MM_ERANGE, "%s: the score of query %d and key "
                           "%d overflows; q and k hold values too large "
                           "to multiply", who, i0 + r, j0 + c);
        }
        for (int c = 0; c < vis; c++) s_r[c] *= scale;
    }
    return MM_OK;
}

/* fold_tile - the online update of each row of the tile, then acc +=
 * P V_J with V_J the values j0.. (nk) */
static void fold_tile(tiles *t, const double *v, int nq, int j0, int nk,
                      int d_v)
{
    for (int r = 0; r < nq; r++) {
        double *s_r = t->s + (size_t)r * nk;
        double *acc_r = t->acc + (size_t)r * d_v;
        double tile_max = row_max(s_r, nk);
        if (tile_max == -INFINITY) {
            for (int c = 0; c < nk; c++) s_r[c] = 0.0;
            continue;
        }
        double alpha = raise_max(&t->m[r], tile_max), m = t->m[r], sum = 0.0;
        for (int c = 0; c < nk; c++) {
            s_r[c] = s_r[c] == -INFINITY ? 0.0 : exp(s_r[c] - m);
            sum += s_r[c];
        }
        double l_new = t->l[r] * alpha + sum;              /* l' = l a + sum */
        double keep = t->l[r] * alpha / l_new;    /* the old output's share */
        for (int c = 0; c < nk; c++) s_r[c] /= l_new;      /* P / l' */
        for (int c = 0; c < d_v; c++) acc_r[c] *= keep;
        t->l[r] = l_new;
    }
    mm_matmul_unchecked(t->pv, t->s, v + (size_t)j0 * d_v, nq, nk, d_v,
                        false);                            /* P V_J */
    for (size_t e = 0; e < (size_t)nq * d_v; e++) t->acc[e] += t->pv[e];
}

/* attend_tiles - out (rows ld apart) = causal softmax(q k^T/sqrt(d_k)) v in
 * (bq, bk) tiles, work: tiles_size(bq, bk, d_k, d_v); who: for messages */
static mm_status attend_tiles(double *out, const double *q, const double *k,
                              const double *v, int T, int d_k, int d_v,
                              int ld, int bq, int bk, double *work,
                              const char *who)
{
    tiles t = tiles_at(work, bq, bk, d_k, d_v);
    double scale = 1.0 / sqrt((double)d_k);
    for (int i0 = 0; i0 < T; i0 += bq) {
        int nq = T - i0 < bq ? T - i0 : bq;        /* queries i0.. */
        for (int r = 0; r < nq; r++) {
            t.m[r] = -INFINITY;
            t.l[r] = 0.0;
        }
        memset(t.acc, 0, (size_t)nq * d_v * sizeof *t.acc);
        for (int j0 = 0; j0 < i0 + nq; j0 += bk) {
            int nk = i0 + nq - j0 < bk ? i0 + nq - j0 : bk;     /* keys j0.. */
            MM_TRY(score_tile(&t, q, k, i0, nq, j0, nk, d_k, scale, who));
            fold_tile(&t, v, nq, j0, nk, d_v);
        }
        for (int r = 0; r < nq; r++)
            for (int c = 0; c < d_v; c++) {
                double o = t.acc[(size_t)r * d_v + c];
                if (!isfinite(o))
                    return mm_fail(MM_ERANGE, "%s: row %d of out overflows; v "
                                   "holds values within a rounding of the "
                                   "largest double", who, i0 + r);
                out[(size_t)(i0 + r) * ld + c] = o;
            }
    }
    return MM_OK;
}

/* need_tiles - MM_EINVAL unless tiles_size(bq, bk, d_k, d_v) fits in
 * one buffer; bq, bk at most T, with T d_k and T d_v checked; fn names
 * the caller */
static mm_status need_tiles(const char *fn, int bq, int bk, int d_k,
                            int d_v)
{
    if (tiles_size(bq, bk, d_k, d_v) > MM_MAX_ELEMENTS)
        return mm_fail(MM_EINVAL, "%s: tiles of block_q = %d by block_k = "
                       "%d (d_k = %d, d_v = %d) need more doubles than one "
                       "buffer may hold", fn, bq, bk, d_k, d_v);
    return MM_OK;
}

/* sdpa_causal_tiled - the checked tiled attention of one head */
mm_status sdpa_causal_tiled(double *out, const double *q, const double *k,
                            const double *v, int T, int d_k, int d_v,
                            int block_q, int block_k)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);
    MM_NEED_BUFFER(v);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_NEED_POSITIVE(block_q);  MM_NEED_POSITIVE(block_k);
    MM_NEED_SIZE_PRODUCT(T, d_k);  MM_NEED_SIZE_PRODUCT(T, d_v);
    int bq = block_q < T ? block_q : T, bk = block_k < T ? block_k : T;
    MM_TRY(need_tiles(__func__, bq, bk, d_k, d_v));
    const mm_buffer bufs[] = {                             /* output first */
        MM_BUFFER(out, (size_t)T * d_v), MM_BUFFER(q, (size_t)T * d_k),
        MM_BUFFER(k, (size_t)T * d_k), MM_BUFFER(v, (size_t)T * d_v) };
    MM_NEED_DISJOINT(bufs, 1);
    MM_NEED_FINITE(q, T, d_k);  MM_NEED_FINITE(k, T, d_k);
    MM_NEED_FINITE(v, T, d_v);
    double *work = malloc(tiles_size(bq, bk, d_k, d_v) * sizeof *work);
    if (work == NULL)
        return mm_fail(MM_ENOMEM, "%s: no memory for tiles of %d x %d",
                       __func__, bq, bk);
    mm_status st = attend_tiles(out, q, k, v, T, d_k, d_v, d_v, bq, bk,
                                work, __func__);
    free(work);
    return st;
}

/* project_head - q, k, v (T, d_k) = X [W_Q,h | W_K,h | W_V,h], through
 * w_h (d, 3 d_k) and qkv_h (T, 3 d_k) */
static mm_status project_head(double *q, double *k, double *v,
                              double *qkv_h, double *w_h, const mha *layer,
                              const double *x, int T, int h)
{
    int d = layer->d_model, d_k = layer->d_k;
    size_t width = 3 * (size_t)d, c0 = (size_t)h * d_k;
    for (int r = 0; r < d; r++)                     /* row r of W_h */
        for (int part = 0; part < 3; part++)        /* its Q, K, V columns */
            memcpy(w_h + (size_t)r * 3 * d_k + (size_t)part * d_k,
                   layer->w_qkv + r * width + (size_t)part * d + c0,
                   (size_t)d_k * sizeof *w_h);
    mm_matmul_unchecked(qkv_h, x, w_h, T, d, 3 * d_k, false);
    if (!all_finite(qkv_h, (size_t)T * 3 * d_k))
        return mm_fail(MM_ERANGE, "mha_forward_tiled: X W_QKV overflows; x "
                       "and the weights hold values too large to multiply");
    return qkv_split(q, k, v, qkv_h, T, d_k, d_k);
}

/* heads_per_group - how many heads share one product by W_O: as many
 * as fit in 256 columns of the heads' outputs, at least 1, at most all */
static int heads_per_group(int n_heads, int d_k)
{
    int g = d_k < 256 ? 256 / d_k : 1;
    return g < n_heads ? g : n_heads;
}

/* work_size - the doubles of the layer's work buffer (run_tiled's parts) */
static size_t work_size(const mha *layer, int T, int bq, int bk)
{
    int d = layer->d_model, d_k = layer->d_k;
    size_t g = (size_t)heads_per_group(layer->n_heads, d_k);
    return 3 * (size_t)d * d_k + (6 + g) * T * d_k + (size_t)bq * d
           + tiles_size(bq, bk, d_k, d_k);
}

/* run_tiled - the layer on checked arguments, in work (see the contract
 * of mha_forward_tiled for its size) */
static mm_status run_tiled(double *out, const mha *layer, const double *x,
                           int T, int bq, int bk, double *work)
{
    int d = layer->d_model, d_k = layer->d_k, n_heads = layer->n_heads;
    int g = heads_per_group(n_heads, d_k);            /* heads in a group */
    size_t hs = (size_t)T * d_k;                      /* one (T, d_k) */
    double *w_h = work, *qkv_h = w_h + (size_t)d * 3 * d_k;
    double *q = qkv_h + 3 * hs, *k = q + hs, *v = k + hs;
    double *o_g = v + hs;                             /* (T, g d_k) */
    double *part = o_g + hs * g, *tw = part + (size_t)bq * d;   /* (bq, d) */
    memset(out, 0, (size_t)T * d * sizeof *out);
    for (int h0 = 0; h0 < n_heads; h0 += g) {
        int ng = n_heads - h0 < g ? n_heads - h0 : g;      /* heads h0.. */
        for (int h = h0; h < h0 + ng; h++) {
            MM_TRY(project_head(q, k, v, qkv_h, w_h, layer, x, T, h));
            char who[48];                    /* "mha_forward_tiled: head h" */
            snprintf(who, sizeof who, "mha_forward_tiled: head %d", h);
            double *o_h = o_g + (size_t)(h - h0) * d_k;          /* in O_g */
            MM_TRY(attend_tiles(o_h, q, k, v, T, d_k, d_k, ng * d_k, bq, bk,
                                tw, who));
        }
        int width = ng * d_k;          /* O_g's rows; W_O^(g) is (width, d) */
        const double *w_o_g = layer->w_o + (size_t)h0 * d_k * d;
        for (int i0 = 0; i0 < T; i0 += bq) {
            int nq = T - i0 < bq ? T - i0 : bq;
            mm_matmul_unchecked(part, o_g + (size_t)i0 * width, w_o_g, nq,
                                width, d, false);
            double *out_i = out + (size_t)i0 * d;      /* rows i0.. of out */
            for (size_t e = 0; e < (size_t)nq * d; e++) out_i[e] += part[e];
        }
    }
    if (!all_finite(out, (size_t)T * d))
        return mm_fail(MM_ERANGE, "mha_forward_tiled: the heads' outputs "
                       "times W_O overflow; the values or W_O hold values "
                       "too large");
    return MM_OK;
}

/* mha_forward_tiled - the checked layer in tiles */
mm_status mha_forward_tiled(double *out, const mha *layer, const double *x,
                            int T, int block_q, int block_k)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(block_q);  MM_NEED_POSITIVE(block_k);
    int d = layer->d_model, d_k = layer->d_k;
    MM_TRY(mm_need_size_product(__func__, "T", T, "8 d_model", 8L * d));
    int bq = block_q < T ? block_q : T, bk = block_k < T ? block_k : T;
    MM_TRY(need_tiles(__func__, bq, bk, d_k, d_k));
    size_t td = (size_t)T * d, dd = (size_t)d * d;
    const mm_buffer bufs[] = {                             /* output first */
        MM_BUFFER(out, td), MM_BUFFER(x, td),
        MM_BUFFER(layer->w_qkv, 3 * dd), MM_BUFFER(layer->w_o, dd) };
    MM_NEED_DISJOINT(bufs, 1);
    MM_NEED_FINITE(x, T, d);
    size_t n = work_size(layer, T, bq, bk);
    double *work = malloc(n * sizeof *work);
    if (work == NULL)
        return mm_fail(MM_ENOMEM, "%s: no memory for a work buffer of %zu "
                       "doubles", __func__, n);
    mm_status st = run_tiled(out, layer, x, T, bq, bk, work);
    free(work);
    return st;
}

/* mha_cache_new - an empty cache of T_max tokens for layer */
mm_status mha_cache_new(mha_cache **cache, const mha *layer, int T_max)
{
    MM_NEED_BUFFER(cache);
    *cache = NULL;
    MM_NEED_BUFFER(layer);  MM_NEED_POSITIVE(T_max);
    int d = layer->d_model;
    MM_TRY(mm_need_size_product(__func__, "2 T_max", 2L * T_max, "d_model",
                                d));
    size_t kv = (size_t)T_max * d;              /* keys, or values */
    mha_cache *c = malloc(sizeof *c);
    double *keys = malloc(2 * kv * sizeof *keys);     /* keys, then values */
    double *work = malloc((4 * (size_t)d + T_max) * sizeof *work);
    if (c == NULL || keys == NULL || work == NULL) {
        free(c);  free(keys);  free(work);
        return mm_fail(MM_ENOMEM, "%s: no memory for a cache of %d tokens "
                       "of width %d", __func__, T_max, d);
    }
    *c = (mha_cache){ layer, T_max, 0, keys, keys + kv, work };
    *cache = c;
    return MM_OK;
}

/* mha_cache_free - release the cache: its keys and values, its row */
void mha_cache_free(mha_cache *cache)
{
    if (cache == NULL) return;
    free(cache->k);                     /* the values live in the block */
    free(cache->work);
    free(cache);
}

/* attend_cached - o_h (d_k) = softmax(q_h K_h^T / sqrt(d_k)) V_h over the
 * first n cached keys k_h, values v_h (n, d_k), with s (n) as scratch */
static mm_status attend_cached(double *o_h, double *s, const double *q_h,
                               const double *k_h, const double *v_h, int n,
                               int d_k)
{
    mm_matmul_unchecked(s, q_h, k_h, 1, d_k, n, true);     /* q_h K_h^T */
    double scale = 1.0 / sqrt((double)d_k);
    for (int j = 0; j < n; j++) {
        if (!isfinite(s[j]))
            return mm_fail(MM_ERANGE, "mha_decode_step: the score of token "
                           "%d and key %d overflows", n - 1, j);
        s[j] *= scale;
    }
    (void)softmax_row(s, n);          /* finite scores: cannot fail */
    mm_matmul_unchecked(o_h, s, v_h, 1, n, d_k, false);    /* w V_h */
    return MM_OK;
}

/* mha_decode_step - token t = cache->T through the layer, with the cache */
mm_status mha_decode_step(double *out, mha_cache *cache, const double *x)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(cache);  MM_NEED_BUFFER(x);
    const mha *layer = cache->layer;
    int d = layer->d_model, d_k = layer->d_k, t = cache->T;
    if (t >= cache->T_max)
        return mm_fail(MM_EINVAL, "%s: the cache is full: it holds T_max = %d "
                       "tokens", __func__, cache->T_max);
    size_t kv = (size_t)cache->T_max * d, dd = (size_t)d * d;
    const mm_buffer bufs[] = {                             /* outputs first */
        MM_BUFFER(out, d), MM_BUFFER(x, d), MM_BUFFER(cache->k, 2 * kv),
        MM_BUFFER(cache->work, 4 * (size_t)d + cache->T_max),
        MM_BUFFER(layer->w_qkv, 3 * dd), MM_BUFFER(layer->w_o, dd) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(x, 1, d);
    double *qkv = cache->work, *heads = qkv + 3 * (size_t)d;
    double *s = heads + d;                          /* (t + 1) scores */
    mm_matmul_unchecked(qkv, x, layer->w_qkv, 1, d, 3 * d, false);
    if (!all_finite(qkv, 3 * (size_t)d))
        return mm_fail(MM_ERANGE, "%s: x W_QKV overflows; x and the weights "
                       "hold values too large to multiply", __func__);
    for (int h = 0; h < layer->n_heads; h++) {
        size_t c0 = (size_t)h * d_k, head = (size_t)h * cache->T_max * d_k;
        double *k_h = cache->k + head, *v_h = cache->v + head;
        memcpy(k_h + (size_t)t * d_k, qkv + d + c0,          /* its key */
               (size_t)d_k * sizeof *qkv);
        memcpy(v_h + (size_t)t * d_k, qkv + 2 * d + c0,      /* its value */
               (size_t)d_k * sizeof *qkv);
        MM_TRY(attend_cached(heads + c0, s, qkv + c0, k_h, v_h, t + 1, d_k));
    }
    mm_matmul_unchecked(out, heads, layer->w_o, 1, d, d, false);
    if (!all_finite(out, (size_t)d))
        return mm_fail(MM_ERANGE, "%s: out overflows; the values or W_O "
                       "hold values too large", __func__);
    cache->T = t + 1;                               /* the token is kept */
    return MM_OK;
}
