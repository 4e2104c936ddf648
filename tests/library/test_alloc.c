/* test_alloc.c - allocation failure, injected at every allocation in turn.
 *
 * each_allocation_fails(case) runs a case once with no failure to count its
 * allocations, N, then N more times, failing allocation 1, 2, ..., N: each
 * run must return MM_ENOMEM with a message, and leave no block allocated
 * once the case has cleaned up after itself. Each library case also pins its
 * N: chapter 02's sdpa allocates one row of scratch when weights is NULL and
 * nothing otherwise; chapter 03's mha_new allocates three blocks (the layer,
 * its weights, the drawn W_Q, W_K, W_V before packing), and mha_forward one
 * work buffer, plus sdpa's row in each head when weights is NULL; chapter
 * 04's mha_forward_causal its (T, T) mask, then what mha_forward allocates;
 * chapter 05's sdpa_causal_tiled and mha_forward_tiled one scratch buffer
 * each, mha_cache_new three blocks (the cache, its keys and values, its
 * working row: their bytes are pinned too), mha_decode_step nothing;
 * every other function (the masks, softmax_online among them) allocates
 * nothing. The mechanism is tested on its own with a model of a
 * constructor, correct and leaky. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc_fail.h"
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

typedef struct {
    const char *name;
    mm_status (*run)(void);     /* the call, with its arguments */
    void (*cleanup)(void);      /* release what a successful run kept */
    long n_allocs;              /* the allocations it makes (library cases) */
} alloc_case;

/* each_allocation_fails - NULL if c behaves, else what went wrong */
static const char *each_allocation_fails(const alloc_case *c, long *n_allocs)
{
    static char why[256];
    alloc_fail_arm(0);
    mm_status s = c->run();
    long n = alloc_fail_attempts();
    if (c->cleanup) c->cleanup();
    long left = alloc_fail_live();
    alloc_fail_disarm();
    *n_allocs = n;
    if (s != MM_OK)
        return snprintf(why, sizeof why, "%s fails with no failure injected: %s",
                        c->name, mm_last_error()), why;
    if (left != 0)
        return snprintf(why, sizeof why, "%s leaks %ld blocks on success",
                        c->name, left), why;
    for (long i = 1; i <= n; i++) {
        mm_fail(MM_OK, "%s", "");
        alloc_fail_arm(i);
        s = c->run();
        left = alloc_fail_live();
        alloc_fail_disarm();
        if (s != MM_ENOMEM)
            return snprintf(why, sizeof why, "%s with allocation %ld of %ld failing "
                            "returns %s, not MM_ENOMEM", c->name, i, n,
                            mm_status_name(s)), why;
        if (mm_last_error()[0] == '\0')
            return snprintf(why, sizeof why, "%s with allocation %ld failing "
                            "leaves no message", c->name, i), why;
        if (left != 0)
            return snprintf(why, sizeof why, "%s with allocation %ld of %ld failing "
                            "leaks %ld blocks", c->name, i, n, left), why;
    }
    return NULL;
}

/* ---- the mechanism on its own: a model constructor of three blocks ---------- */

typedef struct { double *a, *b, *c; } model;
static model *made;
static int leaky;

/* model_new - three allocations (malloc, calloc, realloc), undone on failure */
static mm_status model_new(void)
{
    model *m = malloc(sizeof *m);
    if (!m) return mm_fail(MM_ENOMEM, "model_new: no memory for the model");
    m->a = calloc(4, sizeof(double));
    if (!m->a) { free(m); return mm_fail(MM_ENOMEM, "model_new: no memory for a"); }
    m->b = realloc(NULL, 4 * sizeof(double));
    if (!m->b) {
        if (!leaky) { free(m->a); free(m); }
        return mm_fail(MM_ENOMEM, "model_new: no memory for b");
    }
    m->c = NULL;
    made = m;
    return MM_OK;
}

static void model_free(void)
{
    if (made) { free(made->a); free(made->b); free(made); made = NULL; }
}

Test(alloc_mechanism, fails_each_allocation_in_turn_and_counts_them)
{
    alloc_case c = { "model_new", model_new, model_free, 3 };
    long n;
    const char *why = each_allocation_fails(&c, &n);
    cr_assert_null(why, "%s", why);
    cr_assert_eq(n, 3, "model_new makes 3 allocations, the wrapper counted %ld", n);
}

Test(alloc_mechanism, sees_a_leak_on_the_failure_path)
{
    leaky = 1;
    alloc_case c = { "leaky model_new", model_new, model_free, 3 };
    long n;
    const char *why = each_allocation_fails(&c, &n);
    cr_assert_not_null(why, "a constructor that leaks when its 3rd allocation "
                       "fails was not caught");
    cr_assert(strstr(why, "allocation 3 of 3 failing leaks 2 blocks"), "%s", why);
    leaky = 0;
}

Test(alloc_mechanism, passes_through_when_not_armed)
{
    void *p = malloc(16), *q = calloc(2, 8);
    cr_assert(p && q);
    q = realloc(q, 64);
    cr_assert_not_null(q);
    free(p);
    free(q);
    cr_assert_eq(alloc_fail_attempts(), 0);
}

/* ---- the library: every public function that could allocate --------------- */

static double A[64], B[64], C[64], D[64], E[64], F[64], G[64], H[64];

static mm_status run_matmul(void) { return mm_matmul(C, A, B, 2, 2, 2, false); }
static mm_status run_project(void)
{ return qkv_project(A, B, C, D, E, F, G, 2, 2, 2, 2); }
static mm_status run_pack(void) { return qkv_pack(H, E, F, G, 2, 2, 2); }
static mm_status run_split(void) { return qkv_split(A, B, C, H, 2, 2, 2); }
static mm_status run_fused(void)
{ return qkv_project_fused(A, B, C, H, D, E, 2, 2, 2, 2); }
static mm_status run_attend(void)
{ return qkv_attend_unscaled(H, G, A, B, C, 2, 2, 2); }
static mm_status run_count(void) { long n; return attention_param_count(&n, 8, 2); }
static mm_status run_init(void) { return attention_init_weights(A, B, C, D, 2, 1); }
static mm_status run_fill(void)
{ mm_rng r; mm_rng_seed(&r, 1); return mm_fill_normal(A, 8, 1.0, &r); }
static mm_status run_softmax(void) { return softmax_row(H, 8); }
/* sdpa: T_q 2, T_k 3, d_k 4, d_v 5; with and without the weights and the bias */
static mm_status run_sdpa_row(void) { return sdpa(H, NULL, A, B, C, NULL, 2, 3, 4, 5); }
static mm_status run_sdpa_row_bias(void) { return sdpa(H, NULL, A, B, C, D, 2, 3, 4, 5); }
static mm_status run_sdpa_weights(void) { return sdpa(H, G, A, B, C, D, 2, 3, 4, 5); }

/* chapter 03: a layer of d_model 4, two heads (made before the counting,
 * by layers_up), T = 3; a layer of 8 with four heads for the per-head rows */
enum { LD = 4, LH = 2, LT = 3, L4D = 8, L4H = 4 };
static mha *L, *L4, *made_layer;
static double X[L4D * LT], OUT[L4D * LT], W[L4H * LT * LT], BIAS[LT * LT];
static double WQ[LD * LD], WK[LD * LD], WV[LD * LD], WO[LD * LD];

static void layers_up(void)
{
    cr_assert_eq(mha_new(&L, LD, LH, 1), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_new(&L4, L4D, L4H, 2), MM_OK, "%s", mm_last_error());
    for (int i = 0; i < L4D * LT; i++) X[i] = 0.25 * (i % 7) - 0.5;
    for (int i = 0; i < LT * LT; i++) BIAS[i] = i % 4 == 1 ? -INFINITY : 0.5 * i;
}

static void layers_down(void) { mha_free(L); mha_free(L4); L = L4 = NULL; }

/* mha_new: three blocks; cleanup releases the layer of a successful run */
static mm_status run_new(void) { return mha_new(&made_layer, LD, LH, 1); }
static void free_made(void) { mha_free(made_layer); made_layer = NULL; }
static mm_status run_mha_count(void) { long n; return mha_param_count(&n, L); }
static mm_status run_get(void) { return mha_get_weights(WQ, WK, WV, WO, L); }
static mm_status run_set(void) { return mha_set_weights(L, WQ, WK, WV, WO); }
static mm_status run_split_heads(void) { return mha_split_heads(H, A, LT, LH, LD / LH); }
static mm_status run_merge_heads(void) { return mha_merge_heads(H, A, LT, LH, LD / LH); }
static mm_status run_free(void) { mha *m = NULL; mha_free(m); return MM_OK; }
/* mha_forward: one work buffer; with weights NULL, sdpa's row in each head */
static mm_status run_fwd_w(void) { return mha_forward(OUT, W, L, X, NULL, LT); }
static mm_status run_fwd_w_bias(void) { return mha_forward(OUT, W, L, X, BIAS, LT); }
static mm_status run_fwd_row(void) { return mha_forward(OUT, NULL, L, X, NULL, LT); }
static mm_status run_fwd_row_bias(void) { return mha_forward(OUT, NULL, L, X, BIAS, LT); }
static mm_status run_fwd4_row(void) { return mha_forward(OUT, NULL, L4, X, BIAS, LT); }
static mm_status run_fwd4_w(void) { return mha_forward(OUT, W, L4, X, NULL, LT); }

/* chapter 04: the masks allocate nothing; the causal layer its (T, T) mask,
 * then mha_forward's work buffer (and sdpa's rows, weights NULL) */
static double MB[64], MO[64];
static bool ALLOWED[64];
static mm_status run_causal_mask(void) { return mask_causal(MB, 8); }
static mm_status run_padding(void) { return mask_padding(MB, 4, 8, 3); }
static mm_status run_from_bool(void) { return mask_from_bool(MB, ALLOWED, 8, 8); }
static mm_status run_combine(void) { return mask_combine(MB, MO, 8, 8); }
static mm_status run_combine_self(void) { return mask_combine(MO, MO, 4, 4); }
static mm_status run_causal_w(void) { return mha_forward_causal(OUT, W, L, X, LT); }
static mm_status run_causal_row(void) { return mha_forward_causal(OUT, NULL, L, X, LT); }
static mm_status run_causal4_row(void) { return mha_forward_causal(OUT, NULL, L4, X, LT); }
static mm_status run_causal4_w(void) { return mha_forward_causal(OUT, W, L4, X, LT); }

/* chapter 05: the tiles' scratch, the cache; a step and the online softmax
 * allocate nothing (the cache of run_step is made before the counting) */
static mha_cache *CACHE, *made_cache;
static mm_status run_online(void) { return softmax_online(H, 8, 3); }
static mm_status run_tiled(void) { return sdpa_causal_tiled(H, A, B, C, 3, 4, 5, 2, 2); }
static mm_status run_tiled_big(void)
{ return sdpa_causal_tiled(H, A, B, C, 3, 4, 5, 64, 64); }
static mm_status run_fwd_tiled(void) { return mha_forward_tiled(OUT, L, X, LT, 2, 1); }
static mm_status run_fwd4_tiled(void) { return mha_forward_tiled(OUT, L4, X, LT, 1, 2); }
static mm_status run_cache_new(void) { return mha_cache_new(&made_cache, L4, 5); }
static void free_cache(void) { mha_cache_free(made_cache); made_cache = NULL; }
static mm_status run_cache_free(void) { mha_cache_free(NULL); return MM_OK; }
static mm_status run_step(void) { return mha_decode_step(OUT, CACHE, X); }

static const alloc_case lib_cases[] = {
    { "mm_matmul", run_matmul, NULL, 0 }, { "qkv_project", run_project, NULL, 0 },
    { "qkv_pack", run_pack, NULL, 0 }, { "qkv_split", run_split, NULL, 0 },
    { "qkv_project_fused", run_fused, NULL, 0 },
    { "qkv_attend_unscaled", run_attend, NULL, 0 },
    { "attention_param_count", run_count, NULL, 0 },
    { "attention_init_weights", run_init, NULL, 0 }, { "mm_fill_normal", run_fill, NULL, 0 },
    { "softmax_row", run_softmax, NULL, 0 },
    { "sdpa (weights NULL)", run_sdpa_row, NULL, 1 },
    { "sdpa (weights NULL, bias)", run_sdpa_row_bias, NULL, 1 },
    { "sdpa (weights given)", run_sdpa_weights, NULL, 0 },
    { "mha_new", run_new, free_made, 3 },
    { "mha_free(NULL)", run_free, NULL, 0 },
    { "mha_param_count", run_mha_count, NULL, 0 },
    { "mha_get_weights", run_get, NULL, 0 }, { "mha_set_weights", run_set, NULL, 0 },
    { "mha_split_heads", run_split_heads, NULL, 0 },
    { "mha_merge_heads", run_merge_heads, NULL, 0 },
    { "mha_forward (weights given)", run_fwd_w, NULL, 1 },
    { "mha_forward (weights given, bias)", run_fwd_w_bias, NULL, 1 },
    { "mha_forward (weights NULL: 2 heads)", run_fwd_row, NULL, 1 + LH },
    { "mha_forward (weights NULL, bias: 2 heads)", run_fwd_row_bias, NULL, 1 + LH },
    { "mha_forward (weights NULL, bias: 4 heads)", run_fwd4_row, NULL, 1 + L4H },
    { "mha_forward (weights given: 4 heads)", run_fwd4_w, NULL, 1 },
    { "mask_causal", run_causal_mask, NULL, 0 }, { "mask_padding", run_padding, NULL, 0 },
    { "mask_from_bool", run_from_bool, NULL, 0 }, { "mask_combine", run_combine, NULL, 0 },
    { "mask_combine (bias == other)", run_combine_self, NULL, 0 },
    { "mha_forward_causal (weights given)", run_causal_w, NULL, 1 + 1 },
    { "mha_forward_causal (weights NULL: 2 heads)", run_causal_row, NULL, 1 + 1 + LH },
    { "mha_forward_causal (weights NULL: 4 heads)", run_causal4_row, NULL, 1 + 1 + L4H },
    { "mha_forward_causal (weights given: 4 heads)", run_causal4_w, NULL, 1 + 1 },
    { "softmax_online", run_online, NULL, 0 },
    { "sdpa_causal_tiled", run_tiled, NULL, 1 },
    { "sdpa_causal_tiled (blocks > T)", run_tiled_big, NULL, 1 },
    { "mha_forward_tiled (2 heads)", run_fwd_tiled, NULL, 1 },
    { "mha_forward_tiled (4 heads)", run_fwd4_tiled, NULL, 1 },
    { "mha_cache_new", run_cache_new, free_cache, 3 },
    { "mha_cache_free(NULL)", run_cache_free, NULL, 0 },
    { "mha_decode_step", run_step, NULL, 0 },
};

Test(alloc_library, every_allocation_fails_in_turn)
{
    for (int i = 0; i < 64; i++) A[i] = B[i] = D[i] = E[i] = F[i] = G[i] = 0.5;
    for (int i = 0; i < 64; i++) {
        MO[i] = i % 5 == 2 ? -INFINITY : 0.25 * (i % 3);
        ALLOWED[i] = i % 3 != 1;
    }
    layers_up();
    cr_assert_eq(mha_get_weights(WQ, WK, WV, WO, L), MM_OK);
    cr_assert_eq(mha_cache_new(&CACHE, L4, 4), MM_OK, "%s", mm_last_error());
    for (size_t i = 0; i < sizeof lib_cases / sizeof lib_cases[0]; i++) {
        long n;
        const char *why = each_allocation_fails(&lib_cases[i], &n);
        cr_assert_null(why, "%s", why);
        cr_expect_eq(n, lib_cases[i].n_allocs, "%s allocates %ld blocks, this list "
                     "pins %ld: a new allocation needs its failure cases (and "
                     "this count), a lost one its documentation", lib_cases[i].name,
                     n, lib_cases[i].n_allocs);
    }
    mha_cache_free(CACHE);
    layers_down();
}

/* sdpa with weights NULL: when its one allocation fails, MM_ENOMEM with its
 * message, no block left, and nothing written: out and the inputs byte for
 * byte as before */
Test(alloc_library, sdpa_without_memory_writes_nothing)
{
    enum { TQ = 2, TK = 3, DK = 4, DV = 5 };
    double q[TQ * DK], k[TK * DK], v[TK * DV], bias[TQ * TK], out[TQ * DV];
    for (int i = 0; i < TQ * DK; i++) q[i] = 0.25 * i - 1;
    for (int i = 0; i < TK * DK; i++) k[i] = 0.5 - 0.125 * i;
    for (int i = 0; i < TK * DV; i++) v[i] = i;
    for (int i = 0; i < TQ * TK; i++) bias[i] = i % 4 == 1 ? -INFINITY : 0.5 * i;
    for (int with_bias = 0; with_bias < 2; with_bias++) {
        double q0[TQ * DK], k0[TK * DK], v0[TK * DV], bias0[TQ * TK], out0[TQ * DV];
        for (int i = 0; i < TQ * DV; i++) out[i] = 1234.5 + i;
        memcpy(q0, q, sizeof q); memcpy(k0, k, sizeof k); memcpy(v0, v, sizeof v);
        memcpy(bias0, bias, sizeof bias); memcpy(out0, out, sizeof out);
        mm_fail(MM_OK, "%s", "");
        alloc_fail_arm(1);
        mm_status s = sdpa(out, NULL, q, k, v, with_bias ? bias : NULL, TQ, TK, DK, DV);
        long attempts = alloc_fail_attempts(), left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(s, MM_ENOMEM, "sdpa with its allocation failing returned %s",
                     mm_status_name(s));
        cr_assert_str_eq(mm_last_error(), "sdpa: no memory for a row of 3 scores");
        cr_assert_eq(attempts, 1, "sdpa tried %ld allocations, the 1st failing: it "
                     "must give up at the first", attempts);
        cr_assert_eq(left, 0, "sdpa leaks %ld blocks when its allocation fails", left);
        cr_assert(memcmp(out, out0, sizeof out) == 0, "sdpa wrote out before its "
                  "allocation failed: MM_ENOMEM must write nothing");
        cr_assert(memcmp(q, q0, sizeof q) == 0 && memcmp(k, k0, sizeof k) == 0 &&
                  memcmp(v, v0, sizeof v) == 0 && memcmp(bias, bias0, sizeof bias) == 0,
                  "sdpa changed an input");
        /* and the same call with the memory it needs succeeds and frees it */
        alloc_fail_arm(0);
        s = sdpa(out, NULL, q, k, v, with_bias ? bias : NULL, TQ, TK, DK, DV);
        left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(s, MM_OK, "%s", mm_last_error());
        cr_assert_eq(left, 0, "sdpa leaks its row of scratch on success");
    }
}

/* sdpa's MM_ERANGE after its allocation: the row is freed on that path too */
Test(alloc_library, sdpa_frees_its_row_on_a_range_error)
{
    const double q[2] = { 1, 1e200 }, k[2] = { 1, 1e200 }, v[2] = { 1, 2 };
    double out[2];
    alloc_fail_arm(0);
    mm_status s = sdpa(out, NULL, q, k, v, NULL, 2, 2, 1, 1);
    long attempts = alloc_fail_attempts(), left = alloc_fail_live();
    alloc_fail_disarm();
    cr_assert_eq(s, MM_ERANGE, "query 1's score 1e400 must overflow, got %s",
                 mm_status_name(s));
    cr_assert_eq(attempts, 1);
    cr_assert_eq(left, 0, "sdpa leaks its row when a score overflows");
}

/* ---- chapter 03 --------------------------------------------------------------- */

/* mha_new: whichever of its three allocations fails, MM_ENOMEM with its
 * message, *layer NULL, no block left */
Test(alloc_library, mha_new_without_memory_leaves_layer_null)
{
    static double not_a_layer;
    for (long i = 1; i <= 3; i++) {
        mha *layer = (mha *)(void *)&not_a_layer;
        mm_fail(MM_OK, "%s", "");
        alloc_fail_arm(i);
        mm_status s = mha_new(&layer, 6, 3, 1);
        long attempts = alloc_fail_attempts(), left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(s, MM_ENOMEM, "mha_new with allocation %ld failing returned %s", i,
                     mm_status_name(s));
        cr_assert_str_eq(mm_last_error(), "mha_new: no memory for the weights of a layer "
                         "with d_model = 6");
        cr_assert_null(layer, "mha_new with allocation %ld failing left *layer %p: it "
                       "must be NULL", i, (void *)layer);
        cr_assert_eq(left, 0, "mha_new with allocation %ld of 3 failing leaks %ld blocks",
                     i, left);
        cr_assert_eq(attempts, 3, "mha_new made %ld allocations, expected its three "
                     "(made together, then checked)", attempts);
    }
}

/* mha_forward: when any allocation fails (its work buffer, or sdpa's
 * row in a head when weights is NULL), MM_ENOMEM, nothing written to out or
 * weights, the inputs and the layer unchanged, no block left */
Test(alloc_library, mha_forward_without_memory_writes_nothing)
{
    layers_up();
    double x0[L4D * LT], bias0[LT * LT], layer0[4 * L4D * L4D];
    memcpy(x0, X, sizeof x0);
    memcpy(bias0, BIAS, sizeof bias0);
    memcpy(layer0, L4->w_qkv, sizeof layer0);
    for (int with_w = 0; with_w < 2; with_w++)
        for (int with_bias = 0; with_bias < 2; with_bias++) {
            long n = with_w ? 1 : 1 + L4H;
            for (long i = 1; i <= n; i++) {
                double out0[L4D * LT], w0[L4H * LT * LT];
                for (int k = 0; k < L4D * LT; k++) OUT[k] = out0[k] = 1234.5 + k;
                for (int k = 0; k < L4H * LT * LT; k++) W[k] = w0[k] = -99.5 - k;
                mm_fail(MM_OK, "%s", "");
                alloc_fail_arm(i);
                mm_status s = mha_forward(OUT, with_w ? W : NULL, L4, X,
                                          with_bias ? BIAS : NULL, LT);
                long left = alloc_fail_live();
                alloc_fail_disarm();
                cr_assert_eq(s, MM_ENOMEM, "mha_forward (weights %s, bias %s) with allocation "
                             "%ld of %ld failing returned %s", with_w ? "given" : "NULL",
                             with_bias ? "given" : "NULL", i, n, mm_status_name(s));
                const char *msg = mm_last_error();
                if (i == 1)         /* T x (4 d_model + 4 d_k), d_model 8, d_k 2 */
                    cr_assert_str_eq(msg, "mha_forward: no memory for a work buffer of "
                                     "3 x 40");
                else       /* sdpa's row, in head i - 2: the message may be sdpa's */
                    cr_assert(strstr(msg, "no memory") && (!strncmp(msg, "sdpa: ", 6) ||
                              !strncmp(msg, "mha_forward: ", 13)), "allocation %ld (sdpa's "
                              "row in head %ld): message \"%s\"", i, i - 2, msg);
                cr_assert_eq(left, 0, "mha_forward leaks %ld blocks when allocation %ld of "
                             "%ld fails", left, i, n);
                cr_assert(memcmp(OUT, out0, sizeof out0) == 0, "mha_forward wrote out "
                          "although allocation %ld failed: MM_ENOMEM writes nothing", i);
                cr_assert(memcmp(W, w0, sizeof w0) == 0, "mha_forward wrote weights "
                          "although allocation %ld failed", i);
                cr_assert(memcmp(X, x0, sizeof x0) == 0 && memcmp(BIAS, bias0, sizeof bias0)
                          == 0 && memcmp(L4->w_qkv, layer0, sizeof layer0) == 0,
                          "mha_forward changed an input or the layer");
            }
        }
    layers_down();
}

/* mha_forward's failures after its allocations: every path frees them (and
 * sdpa its row): X W_QKV overflows, a score overflows, the product with W_O
 * overflows, a bias of NaN (refused by sdpa) */
Test(alloc_library, mha_forward_frees_its_buffers_on_every_failure)
{
    enum { D = 4, DD = D * D, T = 3 };
    static const double eye[DD] = { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 };
    double big[DD], zero[DD] = { 0 }, v[DD], x[T * D], out[T * D], bias[T * T] = { 0 };
    for (int i = 0; i < DD; i++) { big[i] = 1e200; v[i] = 1e200 * eye[i]; }
    for (int i = 0; i < T * D; i++) x[i] = 1 + i % 3;
    mha *layer;
    cr_assert_eq(mha_new(&layer, D, 2, 1), MM_OK);
    static const struct { const char *what; int weights_q, weights_o, x_big, nan_bias; } cases[] = {
        { "X W_QKV overflows", 1, 0, 1, 0 },
        { "a score overflows", 2, 0, 0, 0 },
        { "the product with W_O overflows", 3, 1, 0, 0 },
        { "a bias of NaN", 0, 0, 0, 1 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int with_w = 0; with_w < 2; with_w++) {
            double w[2 * T * T], xx[T * D];
            const double *wq = eye, *wk = eye, *wv = eye, *wo = eye;
            if (cases[c].weights_q == 1) wq = big;                   /* with x = 1e200 */
            if (cases[c].weights_q == 2) { wq = big; wk = big; }     /* scores 1e400 */
            if (cases[c].weights_q == 3) { wq = zero; wk = zero; wv = v; wo = big; }
            cr_assert_eq(mha_set_weights(layer, wq, wk, wv, wo), MM_OK, "%s", mm_last_error());
            for (int i = 0; i < T * D; i++) xx[i] = cases[c].x_big ? 1e200 : x[i];
            bias[4] = cases[c].nan_bias ? NAN : 0;
            alloc_fail_arm(0);
            mm_status s = mha_forward(out, with_w ? w : NULL, layer, xx, bias, T);
            long attempts = alloc_fail_attempts(), left = alloc_fail_live();
            alloc_fail_disarm();
            cr_assert(s == MM_ERANGE || (cases[c].nan_bias && s == MM_EINVAL), "%s: "
                      "mha_forward returned %s", cases[c].what, mm_status_name(s));
            cr_assert(attempts >= 1, "%s: %ld allocations, the work buffer expected "
                      "first", cases[c].what, attempts);
            cr_assert_eq(left, 0, "%s (weights %s): mha_forward leaks %ld blocks on this "
                         "path", cases[c].what, with_w ? "given" : "NULL", left);
        }
    mha_free(layer);
}

/* mha_forward_causal: allocation 1 is the causal mask (its own message),
 * 2 mha_forward's work buffer, then sdpa's row in each head when
 * weights is NULL; whichever fails: MM_ENOMEM, nothing written to out or
 * weights, x and the layer unchanged, no block left */
Test(alloc_library, mha_forward_causal_without_memory_writes_nothing)
{
    layers_up();
    double x0[L4D * LT], layer0[4 * L4D * L4D];
    memcpy(x0, X, sizeof x0);
    memcpy(layer0, L4->w_qkv, sizeof layer0);
    for (int with_w = 0; with_w < 2; with_w++) {
        long n = with_w ? 2 : 2 + L4H;
        for (long i = 1; i <= n; i++) {
            double out0[L4D * LT], w0[L4H * LT * LT];
            for (int k = 0; k < L4D * LT; k++) OUT[k] = out0[k] = 1234.5 + k;
            for (int k = 0; k < L4H * LT * LT; k++) W[k] = w0[k] = -99.5 - k;
            mm_fail(MM_OK, "%s", "");
            alloc_fail_arm(i);
            mm_status s = mha_forward_causal(OUT, with_w ? W : NULL, L4, X, LT);
            long attempts = alloc_fail_attempts(), left = alloc_fail_live();
            alloc_fail_disarm();
            cr_assert_eq(s, MM_ENOMEM, "mha_forward_causal (weights %s) with allocation "
                         "%ld of %ld failing returned %s", with_w ? "given" : "NULL", i, n,
                         mm_status_name(s));
            const char *msg = mm_last_error();
            if (i == 1) {
                cr_assert_str_eq(msg, "mha_forward_causal: no memory for the causal mask "
                                 "of 3 x 3");
                cr_assert_eq(attempts, 1, "the mask failed, yet %ld allocations were "
                             "attempted: nothing is tried after a failure", attempts);
            } else if (i == 2)
                cr_assert_str_eq(msg, "mha_forward: no memory for a work buffer of "
                                 "3 x 40");
            else
                cr_assert(strstr(msg, "no memory") && (!strncmp(msg, "sdpa: ", 6) ||
                          !strncmp(msg, "mha_forward", 11)), "allocation %ld (sdpa's "
                          "row in head %ld): message \"%s\"", i, i - 3, msg);
            cr_assert_eq(left, 0, "mha_forward_causal leaks %ld blocks when allocation "
                         "%ld of %ld fails (the mask must be freed on every path)", left,
                         i, n);
            cr_assert(memcmp(OUT, out0, sizeof out0) == 0, "mha_forward_causal wrote out "
                      "although allocation %ld failed: MM_ENOMEM writes nothing", i);
            cr_assert(memcmp(W, w0, sizeof w0) == 0, "mha_forward_causal wrote weights "
                      "although allocation %ld failed", i);
            cr_assert(memcmp(X, x0, sizeof x0) == 0 &&
                      memcmp(L4->w_qkv, layer0, sizeof layer0) == 0,
                      "mha_forward_causal changed x or the layer");
        }
    }
    layers_down();
}

/* mha_forward_causal's failures after its mask is allocated: mha_forward's
 * refusals (out overlapping x, x not finite) and its three overflows; the
 * mask is freed on each path; and its own refusals allocate nothing */
Test(alloc_library, mha_forward_causal_frees_its_mask_on_every_failure)
{
    enum { D = 4, DD = D * D, T = 3 };
    static const double eye[DD] = { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 };
    double big[DD], zero[DD] = { 0 }, v[DD], x[T * D], out[T * D], w[2 * T * T];
    for (int i = 0; i < DD; i++) { big[i] = 1e200; v[i] = 1e200 * eye[i]; }
    for (int i = 0; i < T * D; i++) x[i] = 1 + i % 3;
    mha *layer;
    cr_assert_eq(mha_new(&layer, D, 2, 1), MM_OK);
    static const struct {
        const char *what; int weights_q, x_big, x_nan, out_is_x; mm_status want;
    } cases[] = {
        { "X W_QKV overflows", 1, 1, 0, 0, MM_ERANGE },
        { "a score overflows", 2, 0, 0, 0, MM_ERANGE },
        { "the product with W_O overflows", 3, 0, 0, 0, MM_ERANGE },
        { "x holds a NaN", 0, 0, 1, 0, MM_EINVAL },
        { "out is x", 0, 0, 0, 1, MM_EINVAL } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int with_w = 0; with_w < 2; with_w++) {
            double xx[T * D];
            const double *wq = eye, *wk = eye, *wv = eye, *wo = eye;
            if (cases[c].weights_q == 1) wq = big;
            if (cases[c].weights_q == 2) { wq = big; wk = big; }
            if (cases[c].weights_q == 3) { wq = zero; wk = zero; wv = v; wo = big; }
            cr_assert_eq(mha_set_weights(layer, wq, wk, wv, wo), MM_OK, "%s", mm_last_error());
            for (int i = 0; i < T * D; i++) xx[i] = cases[c].x_big ? 1e200 : x[i];
            if (cases[c].x_nan) xx[5] = NAN;
            alloc_fail_arm(0);
            mm_status s = mha_forward_causal(cases[c].out_is_x ? xx : out, with_w ? w : NULL,
                                             layer, xx, T);
            long attempts = alloc_fail_attempts(), left = alloc_fail_live();
            alloc_fail_disarm();
            cr_assert_eq(s, cases[c].want, "%s: mha_forward_causal returned %s (%s)",
                         cases[c].what, mm_status_name(s), mm_last_error());
            cr_assert(attempts >= 1, "%s: %ld allocations, the mask expected first",
                      cases[c].what, attempts);
            cr_assert_eq(left, 0, "%s (weights %s): mha_forward_causal leaks %ld blocks on "
                         "this path", cases[c].what, with_w ? "given" : "NULL", left);
        }
    /* its own checks come before the mask: nothing allocated */
    alloc_fail_arm(0);
    cr_assert_eq(mha_forward_causal(NULL, NULL, layer, x, T), MM_EINVAL);
    cr_assert_eq(mha_forward_causal(out, NULL, layer, x, 0), MM_EINVAL);
    cr_assert_eq(mha_forward_causal(out, NULL, layer, x, 1073741824), MM_EINVAL);
    long attempts = alloc_fail_attempts();
    alloc_fail_disarm();
    cr_assert_eq(attempts, 0, "mha_forward_causal allocated %ld blocks before refusing "
                 "its own arguments", attempts);
    mha_free(layer);
}

/* ---- chapter 05 --------------------------------------------------------------- */

/* sdpa_causal_tiled: when its scratch cannot be had, MM_ENOMEM naming the
 * tiles (blocks beyond T are cut to T), nothing written, no block left */
Test(alloc_library, sdpa_causal_tiled_without_memory_writes_nothing)
{
    enum { T = 3, DK = 4, DV = 5 };
    double q[T * DK], k[T * DK], v[T * DV], out[T * DV], out0[T * DV];
    for (int i = 0; i < T * DK; i++) { q[i] = 0.25 * i - 1; k[i] = 0.5 - 0.125 * i; }
    for (int i = 0; i < T * DV; i++) { v[i] = i; out[i] = out0[i] = 1234.5 + i; }
    static const struct { int bq, bk; const char *msg; } cases[] = {
        { 2, 1, "sdpa_causal_tiled: no memory for tiles of 2 x 1" },
        { 64, 64, "sdpa_causal_tiled: no memory for tiles of 3 x 3" } };
    for (size_t c = 0; c < 2; c++) {
        mm_fail(MM_OK, "%s", "");
        alloc_fail_arm(1);
        mm_status s = sdpa_causal_tiled(out, q, k, v, T, DK, DV, cases[c].bq, cases[c].bk);
        long attempts = alloc_fail_attempts(), left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(s, MM_ENOMEM, "sdpa_causal_tiled with its allocation failing "
                     "returned %s", mm_status_name(s));
        cr_assert_str_eq(mm_last_error(), cases[c].msg);
        cr_assert_eq(attempts, 1, "%ld allocations tried after the first failed", attempts);
        cr_assert_eq(left, 0, "sdpa_causal_tiled leaks %ld blocks", left);
        cr_assert(memcmp(out, out0, sizeof out) == 0, "sdpa_causal_tiled wrote out "
                  "although its allocation failed: MM_ENOMEM writes nothing");
    }
}

/* the scratch is freed on the range errors too: a score, an output */
Test(alloc_library, the_tiles_free_their_scratch_on_a_range_error)
{
    const double big[2] = { 1, 1e200 };
    double zero[11] = { 0 }, dmax[11], out[11];   /* row 10 of 11: a mean past DBL_MAX */
    for (int e = 0; e < 11; e++) dmax[e] = DBL_MAX;
    static const double eye[4] = { 1, 0, 0, 1 }, huge[4] = { 1e200, 1e200, 1e200, 1e200 };
    static const double zero4[4] = { 0 };
    mha *layer;
    cr_assert_eq(mha_new(&layer, 2, 1, 1), MM_OK);
    for (int c = 0; c < 5; c++) {
        if (c >= 2)          /* the layer: X W_QKV, a score, the product with W_O */
            cr_assert_eq(mha_set_weights(layer, c == 3 ? huge : c == 4 ? zero4 : eye,
                                         c == 3 ? huge : c == 4 ? zero4 : eye,
                                         c == 2 ? huge : eye, c == 4 ? huge : eye), MM_OK);
        alloc_fail_arm(0);
        mm_status s = c == 0 ? sdpa_causal_tiled(out, big, big, zero, 2, 1, 1, 1, 1)
                    : c == 1 ? sdpa_causal_tiled(out, zero, zero, dmax, 11, 1, 1, 11, 11)
                    : mha_forward_tiled(out, layer, c == 3 ? eye : huge, 1, 1, 1);
        long attempts = alloc_fail_attempts(), left = alloc_fail_live();
        alloc_fail_disarm();
        bool rounded = false;   /* case 1 overflows only by rounding, which an
                                 * OpenBLAS kernel's order may not reach */
#ifdef MM_BLAS_OPENBLAS
        rounded = c == 1 && s == MM_OK;
#endif
        cr_assert(s == MM_ERANGE || rounded, "case %d: %s (%s)", c, mm_status_name(s),
                  mm_last_error());
        cr_assert_eq(attempts, 1, "case %d: %ld allocations, expected the scratch", c,
                     attempts);
        cr_assert_eq(left, 0, "case %d (%s): the scratch is not freed", c, mm_last_error());
    }
    mha_free(layer);
}

/* mha_forward_tiled: its one work buffer, 3 d_model d_k + (6 + g) T d_k +
 * block_q d_model + the tiles' (block_q block_k + 2 block_q d_k + d_k block_k
 * + 2 block_q) doubles, g = min(n_heads, max(1, 256 / d_k)) heads per product
 * by W_O; without it MM_ENOMEM, nothing written, no block left */
Test(alloc_library, mha_forward_tiled_without_memory_writes_nothing)
{
    layers_up();
    double x0[L4D * LT], layer0[4 * L4D * L4D], out0[L4D * LT];
    memcpy(x0, X, sizeof x0);
    memcpy(layer0, L4->w_qkv, sizeof layer0);
    for (int k = 0; k < L4D * LT; k++) OUT[k] = out0[k] = 1234.5 + k;
    mm_fail(MM_OK, "%s", "");
    alloc_fail_arm(1);
    mm_status s = mha_forward_tiled(OUT, L4, X, LT, 2, 1);     /* d 8, d_k 2, T 3 */
    long attempts = alloc_fail_attempts(), left = alloc_fail_live();
    alloc_fail_disarm();
    cr_assert_eq(s, MM_ENOMEM, "returned %s", mm_status_name(s));
    /* g = min(4, 256 / 2) = 4 heads:
     * 3*8*2 + (6+4)*3*2 + 2*8 + (2*1 + 2*2*2 + 2*1 + 2*2) = 48 + 60 + 16 + 16 */
    cr_assert_str_eq(mm_last_error(), "mha_forward_tiled: no memory for a work buffer of "
                     "140 doubles");
    cr_assert_eq(attempts, 1);
    cr_assert_eq(left, 0, "mha_forward_tiled leaks %ld blocks", left);
    cr_assert(memcmp(OUT, out0, sizeof out0) == 0, "mha_forward_tiled wrote out although "
              "its allocation failed: MM_ENOMEM writes nothing");
    cr_assert(memcmp(X, x0, sizeof x0) == 0 && memcmp(L4->w_qkv, layer0, sizeof layer0) == 0,
              "mha_forward_tiled changed x or the layer");
    alloc_fail_arm(0);
    cr_assert_eq(mha_forward_tiled(OUT, L4, X, LT, 2, 1), MM_OK, "%s", mm_last_error());
    size_t bytes = alloc_fail_bytes();
    left = alloc_fail_live();
    alloc_fail_disarm();
    cr_assert_eq(bytes, 140 * sizeof(double), "mha_forward_tiled allocated %zu bytes, "
                 "its contract's work buffer is 140 doubles", bytes);
    cr_assert_eq(left, 0, "mha_forward_tiled leaks its work buffer on success");
    layers_down();
}

/* mha_forward_tiled: a group of heads shares the product by W_O, as many
 * as fit in 256 columns; with d_k 64 that is 4 of 5 heads (4 + 1), and the
 * work buffer holds the group's outputs, (6 + 4) T d_k of it. One group of
 * all 5, or of 256 d_k heads, would be 192 doubles more */
Test(alloc_library, mha_forward_tiled_work_buffer_holds_one_group_of_heads)
{
    enum { D = 320, H = 5, T = 3 };
    static double x[T * D], out[T * D];
    mha *layer;
    cr_assert_eq(mha_new(&layer, D, H, 9), MM_OK, "%s", mm_last_error());
    for (int i = 0; i < T * D; i++) x[i] = 0.01 * (i % 13) - 0.06;
    alloc_fail_arm(0);
    mm_status s = mha_forward_tiled(out, layer, x, T, 2, 1);
    size_t bytes = alloc_fail_bytes();
    long left = alloc_fail_live();
    alloc_fail_disarm();
    cr_assert_eq(s, MM_OK, "%s", mm_last_error());
    /* 3*320*64 + (6+4)*3*64 + 2*320 + (2*1 + 2*2*64 + 64*1 + 2*2) */
    cr_assert_eq(bytes, 64326 * sizeof(double), "mha_forward_tiled allocated %zu bytes, "
                 "its contract's work buffer is 64326 doubles (groups of 4 heads)", bytes);
    cr_assert_eq(left, 0, "mha_forward_tiled leaks its work buffer on success");
    mha_free(layer);
}

/* mha_cache_new: whichever of its three allocations fails, MM_ENOMEM with
 * its message, *cache NULL, no block left; on success exactly the bytes of
 * its contract: the struct, 2 T_max d_model doubles of keys and values, and
 * a working row of 4 d_model + T_max */
Test(alloc_library, mha_cache_new_without_memory_leaves_cache_null)
{
    static double not_a_cache;
    layers_up();
    for (long i = 1; i <= 3; i++) {
        mha_cache *cache = (mha_cache *)(void *)&not_a_cache;
        mm_fail(MM_OK, "%s", "");
        alloc_fail_arm(i);
        mm_status s = mha_cache_new(&cache, L4, 5);
        long attempts = alloc_fail_attempts(), left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(s, MM_ENOMEM, "mha_cache_new with allocation %ld failing returned %s",
                     i, mm_status_name(s));
        cr_assert_str_eq(mm_last_error(), "mha_cache_new: no memory for a cache of 5 "
                         "tokens of width 8");
        cr_assert_null(cache, "allocation %ld failing left *cache %p, not NULL", i,
                       (void *)cache);
        cr_assert_eq(left, 0, "mha_cache_new with allocation %ld of 3 failing leaks %ld "
                     "blocks", i, left);
        cr_assert_eq(attempts, 3, "mha_cache_new made %ld allocations, expected 3", attempts);
    }
    static const int T_maxes[] = { 1, 5, 64 };
    for (int t = 0; t < 3; t++) {
        mha_cache *cache;
        int T_max = T_maxes[t];
        alloc_fail_arm(0);
        cr_assert_eq(mha_cache_new(&cache, L4, T_max), MM_OK, "%s", mm_last_error());
        size_t bytes = alloc_fail_bytes(), want = 2 * (size_t)T_max * L4D * sizeof(double)
                     + (4 * (size_t)L4D + T_max) * sizeof(double) + sizeof(mha_cache);
        mha_cache_free(cache);
        long left = alloc_fail_live();
        alloc_fail_disarm();
        cr_assert_eq(bytes, want, "a cache of T_max %d, d_model %d: %zu bytes allocated, "
                     "the contract's 2 T_max d_model + 4 d_model + T_max doubles and the "
                     "struct are %zu", T_max, L4D, bytes, want);
        cr_assert_eq(left, 0, "mha_cache_free leaves %ld blocks of the cache", left);
    }
    layers_down();
}
