/* fast-cache.c - data of the figure "fast-cache": chapter 05's key/value
 * cache of one layer at GPT-2 small's width (d_model = 768, 12 heads of
 * 64, doubles) against the context length T = 16, 32, ..., 4096.
 *   full heads  the library's: mha_new(768, 12, seed 1), then for each T
 *               mha_cache_new(T): its keys and values, (n_heads, T_max,
 *               d_k) each, are 2 T_max d_model doubles; the allocator is
 *               asked how many bytes stand behind k and v
 *               (malloc_usable_size), which must hold them, the two apart,
 *               with less than a page to spare
 *   g of 12 key/value heads (grouped-query attention, g = 4; multi-query,
 *               g = 1): g/12 of the full heads' bytes
 * Output (stdout), one line per T: T, then the MiB per layer of the full
 * heads, of 4 key/value heads and of 1.
 * With --facts: the sizes, every point, what the allocator holds for each
 * cache, and the three values at T = 1024 the caption states. */
#include <malloc.h>
#include "figdata.h"
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mha.h"

enum { D_MODEL = 768, N_HEADS = 12, T_FIRST = 16, T_LAST = 4096, PAGE = 4096 };
#define SEED 1u
#define MIB (1024.0 * 1024.0)
static const int KV_HEADS[3] = { N_HEADS, 4, 1 };   /* full, GQA, MQA */

/* one cache made by the library, and what stands behind it */
typedef struct {
    int T;                 /* its T_max */
    size_t doubles;        /* keys and values, from its fields */
    size_t usable;         /* bytes the allocator holds behind k and v */
    int fits;              /* 1: k, v apart, usable >= the doubles' bytes,
                              with less than a page to spare per block */
} cache_size;

/* held - the bytes the allocator holds behind k and v, and whether they
 * fit the doubles the fields promise: one block (v right after k) or two */
static void held(cache_size *s, const mha_cache *c)
{
    size_t half = (size_t)c->T_max * c->layer->d_model;      /* k, or v */
    size_t need = s->doubles * sizeof(double);
    if (c->v == c->k + half) {                                /* one block */
        s->usable = malloc_usable_size(c->k);
        s->fits = s->usable >= need && s->usable < need + PAGE;
        return;
    }
    size_t uk = malloc_usable_size(c->k), uv = malloc_usable_size(c->v);
    int apart = c->v >= c->k + half || c->k >= c->v + half;
    s->usable = uk + uv;
    s->fits = apart && uk >= need / 2 && uv >= need / 2
              && uk < need / 2 + PAGE && uv < need / 2 + PAGE;
}

/* measure - a cache of T tokens from mha_cache_new, measured, released */
static cache_size measure(const mha *layer, int T)
{
    mha_cache *c;
    need_ok(mha_cache_new(&c, layer, T), "mha_cache_new");
    if (c->T_max != T || c->T != 0 || c->layer != layer) {
        fprintf(stderr, "mha_cache_new(%d): T_max %d, T %d, layer %s\n", T,
                c->T_max, c->T, c->layer == layer ? "ours" : "another");
        exit(EXIT_FAILURE);
    }
    cache_size s = { T, 2 * (size_t)c->T_max * c->layer->d_model, 0, 0 };
    held(&s, c);
    mha_cache_free(c);
    return s;
}

/* mib - MiB of the cache of s's T with g key/value heads of N_HEADS */
static double mib(const cache_size *s, int g)
{
    return (double)s->doubles * sizeof(double) / MIB * g / N_HEADS;
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    enum { POINTS = 9 };                 /* 16, 32, ..., 4096 */
    cache_size s[POINTS];
    mha *layer;
    need_ok(mha_new(&layer, D_MODEL, N_HEADS, SEED), "mha_new");
    for (int p = 0; p < POINTS; p++) s[p] = measure(layer, T_FIRST << p);
    mha_free(layer);

    if (!facts) {
        printf("# fast-cache: MiB of keys and values per layer, d_model = %d, "
               "%d heads, doubles\n# T, full heads, 4 key/value heads, 1\n",
               D_MODEL, N_HEADS);
        for (int p = 0; p < POINTS; p++)
            printf("%d %.10g %.10g %.10g\n", s[p].T, mib(&s[p], KV_HEADS[0]),
                   mib(&s[p], KV_HEADS[1]), mib(&s[p], KV_HEADS[2]));
        return 0;
    }
    printf("d_model=%d\nn_heads=%d\nd_k=%d\nbytes_per_number=%zu\nseed=%u\n",
           D_MODEL, N_HEADS, D_MODEL / N_HEADS, sizeof(double), SEED);
    printf("T_first=%d\nT_last=%d\npoints=%d\nkv_heads=%d %d %d\n", T_FIRST,
           s[POINTS - 1].T, POINTS, KV_HEADS[0], KV_HEADS[1], KV_HEADS[2]);
    int fits = 1;
    for (int p = 0; p < POINTS; p++) {
        printf("cache.T%d.doubles=%zu\ncache.T%d.usable_bytes=%zu\ncache.T%d.fits=%d\n",
               s[p].T, s[p].doubles, s[p].T, s[p].usable, s[p].T, s[p].fits);
        printf("mib.full.T%d=%.17g\nmib.gqa4.T%d=%.17g\nmib.mqa.T%d=%.17g\n",
               s[p].T, mib(&s[p], KV_HEADS[0]), s[p].T, mib(&s[p], KV_HEADS[1]),
               s[p].T, mib(&s[p], KV_HEADS[2]));
        fits &= s[p].fits;
    }
    printf("cache.all_fit=%d\n", fits);
    printf("mib.model12.T1024=%.17g\n", 12 * mib(&s[6], KV_HEADS[0]));
    return 0;
}
