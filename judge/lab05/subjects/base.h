/* base.h - lab 05 solved the way a learner would write it, for the harness
 * self-test: row by row, with loops of its own where the library uses
 * mm_matmul on tiles. Each subject .c file of judge/lab05/subjects/
 * includes it after defining, for the one mistake it makes, the macro of
 * the part it changes; solution.c defines none:
 *   ONLINE_SKIP(bm)          softmax_online: a block whose maximum is bm adds
 *                            nothing ((bm) == -INFINITY)
 *   ONLINE_RESCALE(l, a)     the running sum when the maximum grows ((l) * (a))
 *   TILE_MEAN                defined: sdpa_causal_tiled keeps each row's output as
 *                            a weighted mean, o / l, as the chapter's code does
 *                            (undefined: unnormalised, out = o / l at the end)
 *   TILE_RESCALE_ACC(o, a)   the accumulator when a tile raises the maximum, a the
 *                            factor: alpha, or the old output's share l alpha / l'
 *                            ((o) * (a))
 *   TILE_RESCALE_SUM(l, a)   the running sum ((l) * (a))
 *   TILE_HIDDEN(i, j)        the cells of a tile hidden from query i ((j) > (i))
 *   TILE_KEYS_FROM(i0)       the first key of query tile i0 (0)
 *   TILE_KEYS_TO(i0, nq)     the end of its keys ((i0) + (nq))
 *   ONLINE_CHECK_SCORES      defined (by default): NaN and +inf scores refused
 *   TILED_CHECK_FINITE       defined (by default): q, k, v not finite refused
 *   DECODE_ATTEND_FIRST      mha_decode_step: attend over the t cached keys,
 *                            then append the token's key and value (undefined:
 *                            append, then attend over t + 1)
 *   DECODE_KEEP_EARLY        defined: cache->T = t + 1 before x W_QKV, which
 *                            can still fail
 *   DECODE_KEEP(cache, t)    how a step that succeeded keeps token t
 *                            ((cache)->T = (t) + 1)
 * A mutant that must lose a check the solution makes defines NO_<the macro>. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

#ifndef ONLINE_SKIP
#define ONLINE_SKIP(bm) ((bm) == -INFINITY)
#endif
#ifndef ONLINE_RESCALE
#define ONLINE_RESCALE(l, a) ((l) * (a))
#endif
#ifndef TILE_RESCALE_ACC
#define TILE_RESCALE_ACC(o, a) ((o) * (a))
#endif
#ifndef TILE_RESCALE_SUM
#define TILE_RESCALE_SUM(l, a) ((l) * (a))
#endif
#ifndef TILE_HIDDEN
#define TILE_HIDDEN(i, j) ((j) > (i))
#endif
#ifndef DECODE_KEEP
#define DECODE_KEEP(cache, t) ((cache)->T = (t) + 1)
#endif
#ifndef TILE_KEYS_FROM
#define TILE_KEYS_FROM(i0) 0
#endif
#ifndef NO_ONLINE_CHECK_SCORES
#define ONLINE_CHECK_SCORES
#endif
#ifndef NO_TILED_CHECK_FINITE
#define TILED_CHECK_FINITE
#endif
#ifndef TILE_KEYS_TO
#define TILE_KEYS_TO(i0, nq) ((i0) + (nq))
#endif

#ifndef MUTANT_softmax_online
mm_status softmax_online(double *s, int n, int block)
{
    MM_NEED_BUFFER(s);  MM_NEED_POSITIVE(n);  MM_NEED_POSITIVE(block);
#ifdef ONLINE_CHECK_SCORES
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY)
            return mm_fail(MM_EINVAL, "softmax_online: s[%d] is %g", j, s[j]);
#endif
    double m = -INFINITY, l = 0.0;
    for (int j0 = 0; j0 < n; j0 += block) {
        int end = n - j0 < block ? n : j0 + block;
        double bm = -INFINITY;
        for (int j = j0; j < end; j++)
            if (s[j] > bm) bm = s[j];
        if (ONLINE_SKIP(bm)) continue;
        double m_new = bm > m ? bm : m;
        l = ONLINE_RESCALE(l, exp(m - m_new));
        m = m_new;
        for (int j = j0; j < end; j++) l += exp(s[j] - m);
    }
    for (int j = 0; j < n; j++) s[j] = m == -INFINITY ? 0.0 : exp(s[j] - m) / l;
    return MM_OK;
}
#endif

#ifndef MUTANT_sdpa_causal_tiled
/* tile_row - fold keys j0 .. j0 + nk - 1 into query i's m, l and o (d_v) */
static mm_status tile_row(double *o, double *m, double *l, double *p, const double *q,
                          const double *k, const double *v, int i, int j0, int nk, int d_k,
                          int d_v)
{
    double tile_max = -INFINITY, scale = 1.0 / sqrt(d_k);
    for (int c = 0; c < nk; c++) {
        int j = j0 + c;
        double dot = 0.0;
        for (int e = 0; e < d_k; e++) dot += q[(size_t)i * d_k + e] * k[(size_t)j * d_k + e];
        if (!TILE_HIDDEN(i, j) && !isfinite(dot))
            return mm_fail(MM_ERANGE, "sdpa_causal_tiled: score (%d, %d) overflows", i, j);
        p[c] = TILE_HIDDEN(i, j) ? -INFINITY : dot * scale;
        if (p[c] > tile_max) tile_max = p[c];
    }
    if (tile_max == -INFINITY) return MM_OK;
    double m_new = tile_max > *m ? tile_max : *m, alpha = exp(*m - m_new), sum = 0.0;
    for (int c = 0; c < nk; c++) sum += p[c] = exp(p[c] - m_new);
    double l_new = TILE_RESCALE_SUM(*l, alpha) + sum;
#ifdef TILE_MEAN
    double keep = *l * alpha / l_new, share = 1.0 / l_new;
#else
    double keep = alpha, share = 1.0;
#endif
    for (int e = 0; e < d_v; e++) o[e] = TILE_RESCALE_ACC(o[e], keep);
    for (int c = 0; c < nk; c++)
        for (int e = 0; e < d_v; e++) o[e] += p[c] * share * v[(size_t)(j0 + c) * d_v + e];
    *m = m_new, *l = l_new;
    return MM_OK;
}

/* tiles - the query tiles, each over its key tiles; scratch: p (block_k), rows (nq (d_v + 2)) */
static mm_status tiles(double *out, const double *q, const double *k, const double *v, int T,
                       int d_k, int d_v, int bq, int bk, double *p, double *rows)
{
    for (int i0 = 0; i0 < T; i0 += bq) {
        int nq = T - i0 < bq ? T - i0 : bq;
        double *m = rows, *l = m + nq, *o = l + nq;
        for (int r = 0; r < nq; r++) m[r] = -INFINITY, l[r] = 0.0;
        memset(o, 0, (size_t)nq * d_v * sizeof *o);
        for (int j0 = TILE_KEYS_FROM(i0); j0 < TILE_KEYS_TO(i0, nq); j0 += bk) {
            int nk = TILE_KEYS_TO(i0, nq) - j0 < bk ? TILE_KEYS_TO(i0, nq) - j0 : bk;
            for (int r = 0; r < nq; r++)
                MM_TRY(tile_row(o + (size_t)r * d_v, &m[r], &l[r], p, q, k, v, i0 + r, j0, nk,
                                d_k, d_v));
        }
        for (int r = 0; r < nq; r++)
            for (int e = 0; e < d_v; e++) {
#ifdef TILE_MEAN
                double x = o[(size_t)r * d_v + e];
#else
                double x = o[(size_t)r * d_v + e] / l[r];
#endif
                if (!isfinite(x))
                    return mm_fail(MM_ERANGE, "sdpa_causal_tiled: out[%d][%d] is %g", i0 + r,
                                   e, x);
                out[(size_t)(i0 + r) * d_v + e] = x;
            }
    }
    return MM_OK;
}

mm_status sdpa_causal_tiled(double *out, const double *q, const double *k,
                            const double *v, int T, int d_k, int d_v,
                            int block_q, int block_k)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);
    MM_NEED_POSITIVE(block_q);  MM_NEED_POSITIVE(block_k);
    MM_NEED_SIZE_PRODUCT(T, d_k);  MM_NEED_SIZE_PRODUCT(T, d_v);
    const mm_buffer bufs[] = { MM_BUFFER(out, (size_t)T * d_v), MM_BUFFER(q, (size_t)T * d_k),
                               MM_BUFFER(k, (size_t)T * d_k), MM_BUFFER(v, (size_t)T * d_v) };
    MM_NEED_DISJOINT(bufs, 1);
#ifdef TILED_CHECK_FINITE
    MM_NEED_FINITE(q, T, d_k);  MM_NEED_FINITE(k, T, d_k);  MM_NEED_FINITE(v, T, d_v);
#endif
    int bq = block_q < T ? block_q : T, bk = block_k < T ? block_k : T;
    double *p = malloc((size_t)bk * sizeof *p);
    double *rows = malloc((size_t)bq * (d_v + 2) * sizeof *rows);
    mm_status st = MM_OK;
    if (!p || !rows) st = mm_fail(MM_ENOMEM, "sdpa_causal_tiled: no memory");
    else st = tiles(out, q, k, v, T, d_k, d_v, bq, bk, p, rows);
    free(p);
    free(rows);
    return st;
}
#endif

#ifndef MUTANT_mha_decode_step
/* attend - o_h (d_k) = softmax(q_h K^T / sqrt(d_k)) V over the first n keys
 * k_h and values v_h (n, d_k), s (n) scratch; o_h = 0 for n = 0 */
static mm_status attend(double *o_h, double *s, const double *q_h, const double *k_h,
                        const double *v_h, int n, int d_k)
{
    for (int e = 0; e < d_k; e++) o_h[e] = 0.0;
    if (n == 0) return MM_OK;
    for (int j = 0; j < n; j++) {
        double dot = 0.0;
        for (int e = 0; e < d_k; e++) dot += q_h[e] * k_h[(size_t)j * d_k + e];
        if (!isfinite(dot)) return mm_fail(MM_ERANGE, "mha_decode_step: score %d overflows", j);
        s[j] = dot / sqrt(d_k);
    }
    MM_TRY(softmax_online(s, n, 4));
    for (int j = 0; j < n; j++)
        for (int e = 0; e < d_k; e++) o_h[e] += s[j] * v_h[(size_t)j * d_k + e];
    return MM_OK;
}

mm_status mha_decode_step(double *out, mha_cache *cache, const double *x)
{
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(cache);  MM_NEED_BUFFER(x);
    const mha *layer = cache->layer;
    int d = layer->d_model, d_k = layer->d_k, t = cache->T, T_max = cache->T_max;
    if (t >= T_max) return mm_fail(MM_EINVAL, "mha_decode_step: the cache is full (%d)", T_max);
    size_t kv = (size_t)T_max * d, dd = (size_t)d * d;
    const mm_buffer bufs[] = { MM_BUFFER(out, d), MM_BUFFER(x, d), MM_BUFFER(cache->k, 2 * kv),
                               MM_BUFFER(cache->work, 4 * (size_t)d + T_max),
                               MM_BUFFER(layer->w_qkv, 3 * dd), MM_BUFFER(layer->w_o, dd) };
    MM_NEED_DISJOINT(bufs, 2);
    MM_NEED_FINITE(x, 1, d);
    double *qkv = cache->work, *heads = qkv + 3 * d, *s = heads + d;
#ifdef DECODE_KEEP_EARLY
    cache->T = t + 1;
#endif
    MM_TRY(mm_matmul(qkv, x, layer->w_qkv, 1, d, 3 * d, false));
    for (int h = 0; h < layer->n_heads; h++) {
        double *k_h = cache->k + (size_t)h * T_max * d_k, *v_h = cache->v + (size_t)h * T_max * d_k;
#ifdef DECODE_ATTEND_FIRST
        MM_TRY(attend(heads + h * d_k, s, qkv + h * d_k, k_h, v_h, t, d_k));
#endif
        memcpy(k_h + (size_t)t * d_k, qkv + d + h * d_k, d_k * sizeof *qkv);
        memcpy(v_h + (size_t)t * d_k, qkv + 2 * d + h * d_k, d_k * sizeof *qkv);
#ifndef DECODE_ATTEND_FIRST
        MM_TRY(attend(heads + h * d_k, s, qkv + h * d_k, k_h, v_h, t + 1, d_k));
#endif
    }
    MM_TRY(mm_matmul(out, heads, layer->w_o, 1, d, d, false));
    DECODE_KEEP(cache, t);
    return MM_OK;
}
#endif
