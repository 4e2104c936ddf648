/* cache.h - the key/value cache of mha_decode_step in the driver, and what
 * the learner's step left in it, as the judge learns it. The call
 *     mha_decode_step(out, cache, x)
 * is requested, and shown in messages, as
 *     mha_decode_step(out, cache->k, cache->work, layer->w_qkv, layer->w_o,
 *                     x, *cache, T, T_max, d_model, n_heads)
 * cache_of makes the struct from the request: keys and values are one
 * buffer, b[1] (cache->k; cache->v = cache->k + T_max d_model, as
 * mha_cache_new lays them out), its working row b[2], its layer's weights
 * b[3] and b[4]; T n[0], T_max n[1], d_model n[2], n_heads n[3]. Around
 * the call, cache_recorded writes into b[6] ("*cache", CACHE_SEEN doubles,
 * which the learner's function never gets) what the struct holds then:
 * T and T_max, and for each pointer whether it still points where it did
 * (CACHE_SAME), is NULL or points elsewhere. Shared by the judge (check.c)
 * and the driver (calls.c). */
#ifndef LAB05_CACHE_H
#define LAB05_CACHE_H

#include <stddef.h>
#include "minimodel/attention/fast.h"

enum { CACHE_T, CACHE_T_MAX, CACHE_LAYER, CACHE_K, CACHE_V, CACHE_WORK, CACHE_SEEN };
enum { CACHE_SAME, CACHE_NULL, CACHE_ELSEWHERE };

/* driver_cache - the driver's layer and cache, and (at [1]) what they were
 * given: one of each, since the driver makes one call at a time */
static inline mha *driver_cache_layer(void)
{
    static mha layer[2];
    return layer;
}
static inline mha_cache *driver_cache(void)
{
    static mha_cache cache[2];
    return cache;
}

/* cache_of - the cache of a request, in driver_cache; NULL for a NULL b[1] */
static inline mha_cache *cache_of(void *const b[], const long n[])
{
    mha *layer = driver_cache_layer();
    mha_cache *cache = driver_cache();
    int d = (int)n[2], H = (int)n[3];
    layer[0] = layer[1] = (mha){ d, H, H > 0 ? d / H : 0, b[3], b[4] };
    double *k = b[1];
    cache[0] = cache[1] = (mha_cache){ layer, (int)n[1], (int)n[0], k,
                                       k ? k + (size_t)n[1] * d : NULL, b[2] };
    return k ? cache : NULL;
}

/* pointer_seen - CACHE_SAME, CACHE_NULL or CACHE_ELSEWHERE */
static inline double pointer_seen(const void *now, const void *was)
{
    return now == was ? CACHE_SAME : now ? CACHE_ELSEWHERE : CACHE_NULL;
}

/* cache_recorded - st, the status of a call on cache_of's struct, once
 * what the struct holds then is written into seen (CACHE_SEEN doubles), if
 * the check passed it */
static inline mm_status cache_recorded(double *seen, mm_status st)
{
    const mha_cache *now = driver_cache(), *was = now + 1;
    if (!seen) return st;
    seen[CACHE_T] = now->T;
    seen[CACHE_T_MAX] = now->T_max;
    seen[CACHE_LAYER] = pointer_seen(now->layer, was->layer);
    seen[CACHE_K] = pointer_seen(now->k, was->k);
    seen[CACHE_V] = pointer_seen(now->v, was->v);
    seen[CACHE_WORK] = pointer_seen(now->work, was->work);
    return st;
}

#endif
