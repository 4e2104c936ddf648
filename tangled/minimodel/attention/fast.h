/* Generated from the book: book/en/05-attention-at-speed.nw (the Spanish
 * edition tangles the same bytes). Edit the chapter, not this file. */
/* fast.h - chapter 05: attention at speed. The online softmax, causal
 * attention in tiles (one head, and the layer), and the key/value cache
 * that generates one token at a time. Each computes what chapters 02-04
 * compute, within rounding; none stores the attention weights. */
#ifndef MINIMODEL_ATTENTION_FAST_H
#define MINIMODEL_ATTENTION_FAST_H

#include "../core/error.h"
#include "mha.h"

/* The default blocks: their working set fits a 2 MiB second-level
 * cache (section "Choosing the blocks"; make bench times others). */
#define MHA_BLOCK_Q 64
#define MHA_BLOCK_K 64

/* softmax_online - chapter 02's softmax_row, in one pass over blocks of
 * `block` scores for the maximum and the sum, and one to write.
 *   s (n)  read: scores, finite or -INFINITY; written: their weights
 * Checked, MM_EINVAL: s not NULL; n, block > 0; no score NaN or
 * +INFINITY (named). A row of -INFINITY gets zero weights.
 * Unchecked: s holds n doubles. On failure: s unchanged.
 * Bits: within the bound of the chapter of softmax_row's, not equal. */
mm_status softmax_online(double *s, int n, int block);

/* sdpa_causal_tiled - sdpa(out, NULL, q, k, v, causal mask, T, T, d_k,
 * d_v) in tiles of block_q queries by block_k keys: tiles above the
 * diagonal are never computed, tiles on it are masked.
 *   out (T, d_v)                                        written
 *   q (T, d_k), k (T, d_k), v (T, d_v)                  read
 * Checked, MM_EINVAL: no NULL buffer; T, d_k, d_v, block_q, block_k > 0;
 * T x d_k, T x d_v and the tiles' scratch at most MM_MAX_ELEMENTS; out
 * shares no byte with q, k or v; q, k, v finite. MM_ERANGE: a visible
 * score or an output overflows. MM_ENOMEM: no memory for the scratch.
 * Unchecked: buffers of the stated sizes.
 * On failure: MM_EINVAL and MM_ENOMEM write nothing; after MM_ERANGE out
 * is unspecified. */
mm_status sdpa_causal_tiled(double *out, const double *q, const double *k,
                            const double *v, int T, int d_k, int d_v,
                            int block_q, int block_k);

/* mha_forward_tiled - mha_forward_causal(out, NULL, layer, x, T), head by
 * head in tiles: no (T, T) buffer, no (T, 3 d_model) buffer.
 *   out (T, d_model)                                    written
 *   layer, x (T, d_model)                               read
 * Checked, MM_EINVAL: out, layer, x not NULL; T, block_q, block_k > 0;
 * the work buffer (3 d_model d_k + (6 + g) T d_k + block_q d_model + the
 * tiles, g = min(n_heads, max(1, 256 / d_k)) heads per product by W_O)
 * at most MM_MAX_ELEMENTS; out shares no byte with x or the layer's
 * weights; x finite. MM_ERANGE: a product, a score or out
 * overflows. MM_ENOMEM: no memory for the work buffer.
 * Unchecked: layer came from mha_new; buffers of the stated sizes.
 * On failure: MM_EINVAL and MM_ENOMEM write nothing; after MM_ERANGE out
 * is unspecified. */
mm_status mha_forward_tiled(double *out, const mha *layer, const double *x,
                            int T, int block_q, int block_k);

/* mha_cache - the keys and values of the tokens decoded so far, for one
 * layer and one sequence: made by mha_cache_new, grown by
 * mha_decode_step, released by mha_cache_free. Read-only to callers. */
typedef struct {
    const mha *layer;  /* the layer whose keys and values these are */
    int T_max;         /* the most tokens it holds */
    int T;             /* the tokens it holds: 0 .. T - 1 */
    double *k, *v;     /* (n_heads, T_max, d_k) each: head h's keys, values */
    double *work;      /* (4 d_model + T_max): a step's q|k|v, heads, scores */
} mha_cache;

/* mha_cache_new - an empty cache for up to T_max tokens of layer: keys
 * and values of 2 T_max d_model doubles, and a working row of
 * 4 d_model + T_max.
 *   cache  written: the new cache, for mha_cache_free; NULL on failure
 * Checked, MM_EINVAL: cache, layer not NULL; T_max > 0; 2 T_max x
 * d_model and T_max + 4 d_model at most MM_MAX_ELEMENTS. MM_ENOMEM: no
 * memory (nothing is leaked).
 * Unchecked: layer came from mha_new, and outlives the cache.
 * On failure: *cache is NULL (if cache is not). */
mm_status mha_cache_new(mha_cache **cache, const mha *layer, int T_max);

/* mha_cache_free - release a cache; mha_cache_free(NULL) does nothing.
 * Unchecked: cache came from mha_cache_new and was not released before. */
void mha_cache_free(mha_cache *cache);

/* mha_decode_step - the causal layer's output for the next token: with
 * t = cache->T tokens held, out is row t of mha_forward_causal on the
 * tokens 0..t, and the token's key and value join the cache.
 *   out (d_model)                                       written
 *   cache                                               read and written
 *   x (d_model): token t's vector                       read
 * Checked, MM_EINVAL: no NULL argument; the cache not full (T < T_max);
 * out and x share no byte with each other, the cache or the layer's
 * weights; x finite. MM_ERANGE: x W_QKV, a score or out overflows.
 * Unchecked: cache came from mha_cache_new; its layer's weights have
 * not changed since its first token (the cached keys would be stale).
 * On failure: the cache is unchanged (the token is not kept); MM_EINVAL
 * writes nothing to out; after MM_ERANGE out is unspecified. */
mm_status mha_decode_step(double *out, mha_cache *cache, const double *x);

#endif
