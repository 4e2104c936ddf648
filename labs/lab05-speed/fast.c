/* fast.c - lab 05: attention at speed. The online softmax, causal
 * attention in tiles, and one decoding step with the key/value cache.
 *
 * Write the three functions below, in this order. Each one starts as
 * LAB_TODO(), which shows its checks as pending; delete that line when you
 * start on the function. Check your work with
 *
 *     make lab NN=05          (make lab NN=05 LAB_LANG=es: the report in Spanish)
 *
 * The judge compares what you compute with chapter 04's layer and chapter
 * 02's softmax within a stated tolerance, never bit for bit: an online
 * sum adds in another order. Conventions (book, front matter and chapters
 * 01-05): matrices are row-major arrays, element (i, j) of an (n, m)
 * matrix is a[i * m + j]; the caller owns every buffer; bad arguments get
 * a status, never a crash, through the library's one-line checks
 * (core/error.h): MM_NEED_BUFFER(p), MM_NEED_POSITIVE(n),
 * MM_NEED_SIZE_PRODUCT(r, c), MM_NEED_FINITE(a, r, c), MM_NEED_DISJOINT(bufs,
 * n_out) with MM_BUFFER(p, n), MM_TRY(call), and mm_fail(status, "...").
 * You may call the library up to chapter 04 - softmax_row and sdpa
 * (attention/sdpa.h), mha_forward_causal (attention/mask.h),
 * mm_matmul and mm_matmul_unchecked (core/matrix.h), ... - and, of
 * chapter 05, mha_cache_new, mha_cache_free and mha_forward_tiled; and the
 * C functions of judge/harness/allowed.txt (memcpy, malloc, free, exp,
 * sqrt, isfinite, ...). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

/* softmax_online - chapter 02's softmax_row, with the maximum and the sum
 * folded in one pass over blocks of `block` scores, then one pass to write.
 *   s (n)   read: scores, finite or -INFINITY; written: their weights
 * MM_EINVAL, and s unchanged: s NULL; n or block not positive; a score
 * that is NaN or +INFINITY. A row of -INFINITY gets weights 0 (no NaN).
 * Book: chapter 05, "The online softmax" and "A worked example: four
 * scores, four tokens" (the checks' first case: s = (1, 2, 4, 0), block 2).
 *
 * Before you write it, work these out:
 *   - After the first block of the worked example, m = 2 and l = 1.3679.
 *     The second block's maximum is 4: what must happen to l before the
 *     block's exponentials are added to it? (alpha = e^(m - m').)
 *   - A block of -INFINITY only: what is its maximum, and what would
 *     exp(-inf - (-inf)) give? What must the fold do with such a block?
 *   - What are the weights when every score is -INFINITY? */
mm_status softmax_online(double *s, int n, int block)
{
    LAB_TODO();
}

/* sdpa_causal_tiled - causal attention of one head, in tiles of block_q
 * queries by block_k keys, with no (T, T) buffer: chapter 02's
 * sdpa(out, NULL, q, k, v, causal mask, ...) within rounding.
 *   out (T, d_v)                          written
 *   q (T, d_k), k (T, d_k), v (T, d_v)    read
 * Tiles above the diagonal are never computed; on a tile the diagonal
 * crosses, query i still sees only keys j <= i. Each query row keeps a
 * running maximum m, sum l and unnormalised output o; out = o / l.
 * MM_EINVAL, and nothing written: a buffer NULL; T, d_k, d_v, block_q or
 * block_k not positive; T x d_k or T x d_v too large for a buffer; out
 * sharing a byte with q, k or v; q, k or v not finite. MM_ERANGE: a score
 * of a visible key, or an output, overflows (out then unspecified).
 * MM_ENOMEM: no memory for your scratch. A block larger than T is fine.
 * Book: chapter 05, "Tiles" and "A worked example: four scores, four
 * tokens" (the checks' second case: four tokens in tiles of 2 x 2).
 *
 *   - Which tiles does query tile i0 .. i0 + nq - 1 need? Where does the
 *     key loop stop, and why not at i0?
 *   - When a tile's maximum raises m, which two running quantities are
 *     multiplied by alpha = e^(m - m')?
 *   - block_q = 3 and block_k = 2: which tiles does the diagonal cross, and
 *     which of their cells are hidden? */
mm_status sdpa_causal_tiled(double *out, const double *q, const double *k,
                            const double *v, int T, int d_k, int d_v,
                            int block_q, int block_k)
{
    LAB_TODO();
}

/* mha_decode_step - the causal layer's output for the next token, with
 * the key/value cache: with t = cache->T tokens held, out is row t of
 * mha_forward_causal on tokens 0..t, and token t's key and value join the
 * cache (cache->T becomes t + 1).
 *   out (d_model)                      written
 *   cache                              read and written: cache->layer,
 *       cache->T_max, cache->T; cache->k and cache->v, each (n_heads,
 *       T_max, d_k): head h's key of token j is cache->k + (h T_max + j)
 *       d_k; cache->work, 4 d_model + T_max doubles for you to use
 *   x (d_model): token t's vector      read
 * MM_EINVAL, and nothing written, the cache unchanged: out, cache or x
 * NULL; the cache full (T == T_max); out or x sharing a byte with each
 * other, the cache's buffers or the layer's weights; x not finite.
 * MM_ERANGE: x W_QKV, a score or out overflows; the cache is unchanged
 * (cache->T stays t), out unspecified.
 * Book: chapter 05, "The key/value cache" (the order of a step).
 *
 *   - Step 2 of a decoding step appends the key and value; step 3 attends.
 *     What does token 0 see if you attend first? And token t?
 *   - Head h's query is columns h d_k .. (h + 1) d_k - 1 of x W_Q: where
 *     are its key and value in x W_QKV (layer->w_qkv is (d_model,
 *     3 d_model): W_Q | W_K | W_V)?
 *   - When may cache->T change, if the step can still fail? */
mm_status mha_decode_step(double *out, mha_cache *cache, const double *x)
{
    LAB_TODO();
}
