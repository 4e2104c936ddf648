/* test_threads.c - the library from several threads at once.
 * mm_last_error is one message per thread: threads that fail differently at
 * the same time each read their own message. The projections, chapter 01's
 * attention and chapter 02's sdpa (with and without its weights buffer, so
 * with its own row of scratch; with a causal bias that hides keys; with
 * T_q != T_k) on shared, read-only inputs give, in every thread, the same
 * bits as in one thread. Chapter 03's forward pass runs on one shared,
 * read-only layer, each thread on inputs of its own (its own work buffers,
 * and sdpa's rows when weights is NULL), and gives the bits one thread
 * computed for those inputs. Chapter 04's causal layer (its own (T, T) mask
 * per call) and the masks do the same, and its refusals are per thread.
 * Chapter 05's online softmax, tiled attention (its own scratch per call)
 * and tiled layer, and a key/value cache of each thread's own on the shared
 * layer, do the same; their refusals (a size, a full cache) are per thread. */
#define _POSIX_C_SOURCE 200809L     /* pthread_barrier_t */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

enum { THREADS = 8, ROUNDS = 2000 };
static pthread_barrier_t start;
static mha *layer;                  /* chapter 03's shared layer, read-only */

/* failing - thread i fails with its own size, over and over, and checks the
 * message it reads back is its own */
static void *failing(void *arg)
{
    long id = (long)arg;
    double a[4] = { 1, 2, 3, 4 }, c[4];
    char want[128];
    pthread_barrier_wait(&start);
    for (int r = 0; r < ROUNDS; r++) {
        int bad = -(int)(id * ROUNDS + r) - 1;             /* unique to this call */
        mm_status s = id % 3 == 1 ? mm_matmul(c, a, a, 2, bad, 2, false)
                    : id % 3 == 2 ? mha_forward(c, NULL, layer, a, NULL, bad)
                                  : qkv_split(c, c + 1, c + 2, a, bad, 1, 1);
        snprintf(want, sizeof want, id % 3 == 1 ? "mm_matmul: k must be positive, got %d"
                 : id % 3 == 2 ? "mha_forward: T must be positive, got %d"
                               : "qkv_split: T must be positive, got %d", bad);
        if (s != MM_EINVAL || strcmp(mm_last_error(), want) != 0) return (void *)1;
    }
    return NULL;
}

Test(threads, each_thread_reads_its_own_last_error)
{
    cr_assert_eq(mha_new(&layer, 4, 2, 1), MM_OK, "%s", mm_last_error());
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, failing, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        cr_expect_null(bad, "thread %d read another thread's message from mm_last_error", i);
    }
    pthread_barrier_destroy(&start);
    mha_free(layer);
}

/* ---- the same bits from every thread ----------------------------------------------- */

enum { T = 16, D = 64, DK = 16, DV = 16, DQKV = 2 * DK + DV, TQ = 5 };
static double x[T * D], w_q[D * DK], w_k[D * DK], w_v[D * DV], w_qkv[D * DQKV];
static double bias[T * T];                      /* causal: -inf above the diagonal */
static double sq[T * DK], sk[T * DK], sv[T * DV];   /* sdpa's shared inputs */

typedef struct { double q[T * DK], k[T * DK], v[T * DV], qkv[T * DQKV], f[3][T * DK],
                        w[T * T], out[T * DV], sw[T * T], sout[T * DV], sout_null[T * DV],
                        cw[T * T], cout[T * DV], rout[TQ * DV]; mm_status s; } result;

static void compute(result *r)
{
    r->s = qkv_project(r->q, r->k, r->v, x, w_q, w_k, w_v, T, D, DK, DV);
    if (r->s == MM_OK)
        r->s = qkv_project_fused(r->f[0], r->f[1], r->f[2], r->qkv, x, w_qkv, T, D, DK, DV);
    if (r->s == MM_OK) r->s = qkv_attend_unscaled(r->out, r->w, r->q, r->k, r->v, T, DK, DV);
    if (r->s == MM_OK) r->s = sdpa(r->sout, r->sw, sq, sk, sv, NULL, T, T, DK, DV);
    if (r->s == MM_OK) r->s = sdpa(r->sout_null, NULL, sq, sk, sv, NULL, T, T, DK, DV);
    if (r->s == MM_OK) r->s = sdpa(r->cout, r->cw, sq, sk, sv, bias, T, T, DK, DV);
    if (r->s == MM_OK)                          /* the last TQ queries, all T keys */
        r->s = sdpa(r->rout, NULL, sq + (T - TQ) * DK, sk, sv, bias + (T - TQ) * T, TQ, T,
                    DK, DV);
}

static result one, many[THREADS];

static void *computing(void *arg)
{
    pthread_barrier_wait(&start);
    for (int r = 0; r < 50; r++) compute((result *)arg);
    return NULL;
}

Test(threads, shared_read_only_inputs_give_the_same_bits)
{
    mm_rng r;
    mm_rng_seed(&r, 3);
    cr_assert_eq(mm_fill_normal(x, T * D, 1.0, &r), MM_OK);
    cr_assert_eq(mm_fill_normal(w_q, D * DK, 0.25, &r), MM_OK);
    cr_assert_eq(mm_fill_normal(w_k, D * DK, 0.25, &r), MM_OK);
    cr_assert_eq(mm_fill_normal(w_v, D * DV, 0.25, &r), MM_OK);
    cr_assert_eq(qkv_pack(w_qkv, w_q, w_k, w_v, D, DK, DV), MM_OK);
    cr_assert_eq(qkv_project(sq, sk, sv, x, w_q, w_k, w_v, T, D, DK, DV), MM_OK);
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[i * T + j] = j > i ? -INFINITY : 0.0;
    compute(&one);
    cr_assert_eq(one.s, MM_OK, "%s", mm_last_error());
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, computing, &many[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++)
        cr_expect(memcmp(&one, &many[i], sizeof one) == 0,
                  "thread %d computed different bits from one thread: something in "
                  "the library is shared and written (a static buffer?)", i);
}

/* ---- chapter 03: the forward pass, one shared layer, inputs of each thread's own ---- */

enum { MD = 64, MH = 4, MT = 16 };
typedef struct {
    double x[MT * MD];                          /* this thread's input */
    double w[MH * MT * MT], out[MT * MD], out_null[MT * MD], cw[MH * MT * MT],
           cout[MT * MD], cout_null[MT * MD];
    mm_status s;
} mha_result;
static mha_result alone[THREADS], together[THREADS];

/* mha_compute - the forward pass on r's x: with weights, without, causal */
static void mha_compute(mha_result *r)
{
    r->s = mha_forward(r->out, r->w, layer, r->x, NULL, MT);
    if (r->s == MM_OK) r->s = mha_forward(r->out_null, NULL, layer, r->x, NULL, MT);
    if (r->s == MM_OK) r->s = mha_forward(r->cout, r->cw, layer, r->x, bias, MT);
    if (r->s == MM_OK) r->s = mha_forward(r->cout_null, NULL, layer, r->x, bias, MT);
}

static void *mha_computing(void *arg)
{
    pthread_barrier_wait(&start);
    for (int r = 0; r < 25; r++) mha_compute((mha_result *)arg);
    return NULL;
}

Test(threads, mha_forward_on_inputs_of_its_own_gives_the_single_thread_bits)
{
    static double w_all[4 * MD * MD];
    mm_rng r;
    mm_rng_seed(&r, 8);
    cr_assert_eq(mha_new(&layer, MD, MH, 1), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mm_fill_normal(w_all, 4 * MD * MD, 0.2, &r), MM_OK);
    cr_assert_eq(mha_set_weights(layer, w_all, w_all + MD * MD, w_all + 2 * MD * MD,
                                 w_all + 3 * MD * MD), MM_OK, "%s", mm_last_error());
    for (int i = 0; i < T; i++)                  /* T = MT: the causal bias above */
        for (int j = 0; j < T; j++) bias[i * T + j] = j > i ? -INFINITY : 0.0;
    for (int i = 0; i < THREADS; i++) {          /* each thread its own x */
        cr_assert_eq(mm_fill_normal(alone[i].x, MT * MD, 1.0 + i, &r), MM_OK);
        memcpy(together[i].x, alone[i].x, sizeof alone[i].x);
        mha_compute(&alone[i]);
        cr_assert_eq(alone[i].s, MM_OK, "%s", mm_last_error());
    }
    cr_assert(memcmp(alone[0].out, alone[1].out, sizeof alone[0].out) != 0,
              "two inputs gave the same out: the threads would prove nothing");
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, mha_computing, &together[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++)
        cr_expect(memcmp(&alone[i], &together[i], sizeof alone[i]) == 0,
                  "thread %d: mha_forward computed different bits than one thread did on "
                  "the same input: something is shared and written (a static work "
                  "buffer? the layer?)", i);
    mha_free(layer);
}

/* ---- chapter 04: the causal layer and the masks, eight threads at once ---------- */

typedef struct {
    double x[MT * MD];                          /* this thread's input */
    double w[MH * MT * MT], out[MT * MD], out_null[MT * MD], ref[MT * MD];
    double causal[MT * MT], pad[MT * MT], both[MT * MT], from_bool[MT * MT];
    bool allowed[MT * MT];
    mm_status s;
    int bad_message;                            /* a refusal read another's text */
} causal_result;
static causal_result c_alone[THREADS], c_together[THREADS];

/* causal_compute - the causal layer with and without weights, the masks of
 * this thread (a padding length of its own), and a refusal of its own size */
static void causal_compute(causal_result *r, int id)
{
    r->s = mha_forward_causal(r->out, r->w, layer, r->x, MT);
    if (r->s == MM_OK) r->s = mha_forward_causal(r->out_null, NULL, layer, r->x, MT);
    if (r->s == MM_OK) r->s = mask_causal(r->causal, MT);
    if (r->s == MM_OK) r->s = mask_padding(r->pad, MT, MT, 1 + id);
    if (r->s == MM_OK) r->s = mask_from_bool(r->from_bool, r->allowed, MT, MT);
    if (r->s == MM_OK) memcpy(r->both, r->causal, sizeof r->both);
    if (r->s == MM_OK) r->s = mask_combine(r->both, r->pad, MT, MT);
    if (r->s == MM_OK) r->s = mask_combine(r->both, r->from_bool, MT, MT);
    if (r->s == MM_OK) r->s = mha_forward(r->ref, NULL, layer, r->x, r->both, MT);
    char want[96];
    int bad = -1 - id;
    snprintf(want, sizeof want, "mha_forward_causal: T must be positive, got %d", bad);
    if (mha_forward_causal(r->out, NULL, layer, r->x, bad) != MM_EINVAL ||
        strcmp(mm_last_error(), want) != 0)
        r->bad_message = 1;
}

/* layer_drawn - the shared layer, MultiHeadAttention(MD, MH, 1) with its
 * weights drawn from N(0, 0.2^2) by a generator seeded seed; *r goes on
 * from there for the test's inputs */
static void layer_drawn(mm_rng *r, uint64_t seed)
{
    static double w_all[4 * MD * MD];
    mm_rng_seed(r, seed);
    cr_assert_eq(mha_new(&layer, MD, MH, 1), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mm_fill_normal(w_all, 4 * MD * MD, 0.2, r), MM_OK);
    cr_assert_eq(mha_set_weights(layer, w_all, w_all + MD * MD, w_all + 2 * MD * MD,
                                 w_all + 3 * MD * MD), MM_OK, "%s", mm_last_error());
}

static void *causal_computing(void *arg)
{
    causal_result *r = arg;
    int id = (int)(r - c_together);
    pthread_barrier_wait(&start);
    for (int k = 0; k < 25; k++) causal_compute(r, id);
    return NULL;
}

Test(threads, the_causal_layer_and_the_masks_give_the_single_thread_bits)
{
    mm_rng r;
    layer_drawn(&r, 11);
    for (int i = 0; i < THREADS; i++) {          /* each thread its own x, allowed */
        cr_assert_eq(mm_fill_normal(c_alone[i].x, MT * MD, 1.0 + i, &r), MM_OK);
        for (int e = 0; e < MT * MT; e++)
            c_alone[i].allowed[e] = e % MT == 0 || (e * 7 + i) % 5 != 0;
        memcpy(c_together[i].x, c_alone[i].x, sizeof c_alone[i].x);
        memcpy(c_together[i].allowed, c_alone[i].allowed, sizeof c_alone[i].allowed);
        causal_compute(&c_alone[i], i);
        cr_assert_eq(c_alone[i].s, MM_OK, "%s", mm_last_error());
        cr_assert_eq(c_alone[i].bad_message, 0, "one thread: the refusal's message");
    }
    cr_assert(memcmp(c_alone[0].out, c_alone[1].out, sizeof c_alone[0].out) != 0,
              "two inputs gave the same out: the threads would prove nothing");
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, causal_computing, &c_together[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++) {
        cr_expect_eq(c_together[i].bad_message, 0, "thread %d read another thread's "
                     "message after mha_forward_causal refused its T", i);
        cr_expect(memcmp(&c_alone[i], &c_together[i], sizeof c_alone[i]) == 0,
                  "thread %d: mha_forward_causal or a mask computed different bits than "
                  "one thread did on the same input: something is shared and written", i);
    }
    mha_free(layer);
}

/* ---- chapter 05: the online softmax, the tiles, a cache of each thread's own ---- */

enum { FT_MAX = 4 };                /* the cache of fast_compute: one token short */
typedef struct {
    double x[MT * MD];                          /* this thread's input */
    double online[MT * MT], sout[MT * DV], out[MT * MD], out_sq[MT * MD];
    double steps[FT_MAX * MD];
    mm_status s;
    int bad_message;                            /* a refusal read another's text */
} fast_result;
static fast_result f_alone[THREADS], f_together[THREADS];

/* fast_refusals - a refused size of this thread's own, and a full cache:
 * each message read back must be this thread's */
static void fast_refusals(fast_result *r, mha_cache *cache, int id)
{
    char want[96];
    int bad = -1 - id;
    snprintf(want, sizeof want, "sdpa_causal_tiled: block_k must be positive, got %d", bad);
    if (sdpa_causal_tiled(r->sout, sq, sk, sv, T, DK, DV, 4, bad) != MM_EINVAL ||
        strcmp(mm_last_error(), want) != 0)
        r->bad_message = 1;
    snprintf(want, sizeof want, "mha_decode_step: the cache is full: it holds T_max = %d "
             "tokens", FT_MAX);
    if (mha_decode_step(r->steps, cache, r->x) != MM_EINVAL ||
        strcmp(mm_last_error(), want) != 0)
        r->bad_message = 1;
}

/* fast_compute - chapter 05 on r's x: the online softmax of rows of x,
 * sdpa_causal_tiled on the shared q, k, v, the tiled layer in two block
 * shapes, FT_MAX decoding steps in a cache of its own, then the refusals */
static void fast_compute(fast_result *r, int id)
{
    memcpy(r->online, r->x, sizeof r->online);
    r->s = MM_OK;
    for (int i = 0; i < MT && r->s == MM_OK; i++)
        r->s = softmax_online(r->online + i * MT, MT, 1 + (i + id) % 5);
    if (r->s == MM_OK) r->s = sdpa_causal_tiled(r->sout, sq, sk, sv, T, DK, DV, 3, 5);
    if (r->s == MM_OK) r->s = mha_forward_tiled(r->out, layer, r->x, MT, 5, 3);
    if (r->s == MM_OK) r->s = mha_forward_tiled(r->out_sq, layer, r->x, MT, MHA_BLOCK_Q,
                                                MHA_BLOCK_K);
    mha_cache *cache = NULL;
    if (r->s == MM_OK) r->s = mha_cache_new(&cache, layer, FT_MAX);
    for (int t = 0; t < FT_MAX && r->s == MM_OK; t++)
        r->s = mha_decode_step(r->steps + t * MD, cache, r->x + t * MD);
    if (r->s == MM_OK) fast_refusals(r, cache, id);
    mha_cache_free(cache);
}

static void *fast_computing(void *arg)
{
    fast_result *r = arg;
    int id = (int)(r - f_together);
    pthread_barrier_wait(&start);
    for (int k = 0; k < 25; k++) fast_compute(r, id);
    return NULL;
}

Test(threads, chapter_05_gives_the_single_thread_bits_and_its_own_messages)
{
    mm_rng r;
    layer_drawn(&r, 12);
    cr_assert_eq(mm_fill_normal(sq, T * DK, 1.0, &r), MM_OK);
    cr_assert_eq(mm_fill_normal(sk, T * DK, 1.0, &r), MM_OK);
    cr_assert_eq(mm_fill_normal(sv, T * DV, 1.0, &r), MM_OK);
    for (int i = 0; i < THREADS; i++) {          /* each thread its own x */
        cr_assert_eq(mm_fill_normal(f_alone[i].x, MT * MD, 1.0 + i, &r), MM_OK);
        memcpy(f_together[i].x, f_alone[i].x, sizeof f_alone[i].x);
        fast_compute(&f_alone[i], i);
        cr_assert_eq(f_alone[i].s, MM_OK, "%s", mm_last_error());
        cr_assert_eq(f_alone[i].bad_message, 0, "one thread: a refusal's message");
    }
    cr_assert(memcmp(f_alone[0].out, f_alone[1].out, sizeof f_alone[0].out) != 0 &&
              memcmp(f_alone[0].steps, f_alone[1].steps, sizeof f_alone[0].steps) != 0,
              "two inputs gave the same out: the threads would prove nothing");
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, fast_computing, &f_together[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++) {
        cr_expect_eq(f_together[i].bad_message, 0, "thread %d read another thread's "
                     "message after a refusal of chapter 05", i);
        cr_expect(memcmp(&f_alone[i], &f_together[i], sizeof f_alone[i]) == 0,
                  "thread %d: chapter 05 computed different bits than one thread did on "
                  "the same input: something is shared and written (a static scratch? "
                  "the cache?)", i);
    }
    mha_free(layer);
}
