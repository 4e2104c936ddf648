/* check.c - the checks of lab 05, run by the judge. softmax_online on the
 * chapter's worked example (s = (1, 2, 4, 0) in blocks of 2), the same in
 * blocks of 1, a maximum that grows in every block, a block longer than
 * the row, a first block of hidden keys and a row of them; sdpa_causal_tiled
 * on the chapter's four tokens in tiles of 2 x 2 (and of 1 x 3), blocks of
 * keys smaller and larger than those of queries and larger than T, one
 * token, and scores that grow along the row; mha_decode_step on chapter
 * 03's worked layer and on the chapter's four tokens, token by token from
 * an empty cache, on a first token, on a cache holding five tokens and on
 * its last free slot, and eight steps in a row (7 buffers a step, and a
 * check has at most 64), each step on the cache as the learner's previous
 * step left it. Then cases drawn from the run's
 * seed (lab_random): long rows and sequences (n from 256 to 1024, T from
 * 256 to 400) with odd blocks, the same shape again with fresh values,
 * huge and tiny values. And every checked error of each function, with
 * its output and the cache as they were.
 *
 * The answers come from other chapters' code, not from chapter 05's: the
 * weights from chapter 02's softmax_row, the tiles' output from chapter
 * 02's sdpa under chapter 04's mask_causal, a step's output from chapter
 * 04's mha_forward_causal on tokens 0..t (the cache's keys and values from
 * the library's own mha_decode_step). An online sum adds in another order:
 * every comparison is within the harness's tolerance (harness.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "examples/ch03-worked.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/sdpa.h"
#include "alias.h"
#include "cache.h"
#include "lab05.h"
#include "lab05.def"

/* the salts of the cases drawn from the run's seed: each case draws its
 * shape from its salt plus 0 to 9, and its values from its salt plus 10
 * to 19, so that no two cases share a stream */
enum { SALT_SO_LONG = 5100, SALT_SO_AGAIN = 5200, SALT_SO_HUGE = 5300, SALT_SO_TINY = 5400,
       SALT_ST_LONG = 5500, SALT_ST_AGAIN = 5600, SALT_ST_LARGE = 5700, SALT_ST_TINY = 5800,
       SALT_DC_FIRST = 5900, SALT_DC_LONG = 6000, SALT_DC_AGAIN = 6100, SALT_DC_LARGE = 6200,
       SALT_DC_TINY = 6300, SALT_DC_SEQUENCE = 6400, SALT_DC_FIVE = 6500, SALT_DC_LAST = 6600 };

/* seed_text - " (seed 123456789)": the run's seed, as a random case's name ends */
static const char *seed_text(void)
{
    static char buf[48];
    snprintf(buf, sizeof buf, EN_ES(" (seed %llu)", " (semilla %llu)"),
             (unsigned long long)lab_seed());
    return buf;
}

/* odd_between - an odd whole number from lo to hi (lo odd), drawn from the run's seed */
static int odd_between(int lo, int hi, uint64_t salt)
{
    return lo + 2 * (int)lab_random_int(0, (hi - lo) / 2, salt);
}

/* ---- refused calls: nothing written ------------------------------------------------------ */

/* call_refused - call fn with b[] and n[], require the status want, and
 * (kept) every output among the first n_kept buffers as it was before the
 * call; when says which call. False if the status was not want (a write
 * before the refusal is a failure of its own, with its own hint). */
static bool call_refused(const char *fn, int n_bufs, lab_mat *const b[], int n_kept, bool kept,
                         int n_ints, const long n[], mm_status want, const char *when)
{
    lab_kept k;
    lab_keep(&k, kept ? n_kept : 0, b);
    if (!lab_expect_status(lab_call(fn, n_bufs, b, n_ints, n), want, when)) return false;
    if (!lab_unchanged(&k, fn, when, b)) check_hint(CH_CHECK_FIRST);
    return true;
}

/* ---- softmax_online: the cases --------------------------------------------------------- */

enum { SO_WORKED, SO_BLOCK_ONE, SO_GROWING, SO_BLOCK_PAST_N, SO_HIDDEN_BLOCK, SO_ALL_HIDDEN,
       SO_LONG, SO_LONG_AGAIN, SO_HUGE, SO_TINY };

static const double NI = -INFINITY;
static const double so_worked[4] = { 1, 2, 4, 0 };
static const double so_growing[7] = { -1, 0.5, 3, 2, 7, -2, 9 };
static const double so_past_n[3] = { 0.3, -1.2, 2.5 };
static const double so_hidden[6] = { -INFINITY, -INFINITY, 1, -INFINITY, 2, 0.5 };
static const double so_all_hidden[5] = { -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY };

/* online_random - the cases drawn from the run's seed: a long row (n 256
 * to 1024, an odd block 3 to 97, N(0, 3^2), about one score in ten -inf),
 * the same shape again with a growing trend, huge and tiny scores */
static void online_random(online_case *c, int which)
{
    uint64_t salt = which == SO_LONG || which == SO_LONG_AGAIN ? SALT_SO_LONG
                  : which == SO_HUGE ? SALT_SO_HUGE : SALT_SO_TINY;
    c->n = (int)lab_random_int(256, 1024, salt);
    c->block = odd_between(3, 97, salt + 1);
    double std = which == SO_HUGE ? 1e300 : which == SO_TINY ? 1e-300 : 3.0;
    uint64_t values = which == SO_LONG_AGAIN ? SALT_SO_AGAIN + 10 : salt + 10;
    double *s = lab_random((size_t)c->n, std, values);
    for (int j = 0; j < c->n && which <= SO_LONG_AGAIN; j++) {
        if (which == SO_LONG_AGAIN) s[j] += 0.02 * j;          /* the maximum keeps growing */
        if (fabs(s[j]) > 4.9 && which == SO_LONG) s[j] = NI;
    }
    if (which == SO_LONG) s[c->n / 2] = NI;
    c->s0 = s;
    const char *what = which == SO_LONG ? EN_ES("random, some -inf", "aleatorias, algunas -inf")
                     : which == SO_LONG_AGAIN
                         ? EN_ES("the same shape again, fresh values growing along the row",
                                 "la misma forma otra vez, valores nuevos que crecen en la fila")
                     : which == SO_HUGE ? EN_ES("huge scores, N(0, 1e300^2)",
                                                "puntuaciones enormes, N(0, 1e300^2)")
                     : EN_ES("tiny scores, N(0, 1e-300^2)",
                             "puntuaciones diminutas, N(0, 1e-300^2)");
    snprintf(c->name, sizeof c->name, "%s: n=%d block=%d%s", what, c->n, c->block, seed_text());
}

static void online_case_make(online_case *c, int which)
{
    static const struct { const double *s; int n, block; const char *what[2]; } fixed[] = {
        { so_worked, 4, 2, { "the chapter's worked example", "el ejemplo resuelto del capítulo" } },
        { so_worked, 4, 1, { "the worked example in blocks of one",
                             "el ejemplo resuelto en bloques de uno" } },
        { so_growing, 7, 3, { "a maximum that grows in every block, the last one short",
                              "un máximo que crece en cada bloque, el último más corto" } },
        { so_past_n, 3, 8, { "a block longer than the row", "un bloque más largo que la fila" } },
        { so_hidden, 6, 2, { "a first block of hidden keys", "un primer bloque de keys ocultas" } },
        { so_all_hidden, 5, 2, { "every key hidden: weights 0",
                                 "todas las keys ocultas: pesos 0" } },
    };
    memset(c, 0, sizeof *c);
    if (which >= SO_LONG) {
        online_random(c, which);
    } else {
        c->n = fixed[which].n, c->block = fixed[which].block, c->s0 = fixed[which].s;
        char t[160];
        lab_mat_text(t, sizeof t, c->s0, 1, c->n);
        snprintf(c->name, sizeof c->name, "%s: s = %s, block=%d", fixed[which].what[lab_es()],
                 t, c->block);
    }
    c->want = lab_fresh((size_t)c->n, c->s0);
    LAB_REF(softmax_row(c->want, c->n));
}

static void check_online(int which)
{
    online_case c;
    online_case_make(&c, which);
    lab_case("%s", c.name);
    lab_mat *s = lab_out("s", 1, c.n);
    memcpy(s->p, c.s0, (size_t)c.n * sizeof *s->p);            /* read and written */
    mm_status st = lab_call("softmax_online", LAB_BUFS(s), LAB_INTS(c.n, c.block));
    const double *want[1] = { c.want };
    lab_check_values(st, 1, &s, want, diagnose_online, &c);
}

/* ---- softmax_online: bad arguments ------------------------------------------------------ */

static void check_online_null(int unused)
{
    (void)unused;
    lab_case("s = NULL");
    char when[48];
    lab_case_when(when, sizeof when, "s = NULL");
    if (!call_refused("softmax_online", LAB_BUFS(NULL), 0, false, LAB_INTS(4, 2), MM_EINVAL,
                      when))
        lab_null_hint();
}

static void check_online_sizes(int unused)
{
    (void)unused;
    bool ok = true;
    for (int which = 0; which < 2; which++)
        for (int value = 0; value >= -1; value--) {
            lab_mat *s = lab_out("s", 1, 4);
            memcpy(s->p, so_worked, sizeof so_worked);
            char when[48];
            lab_case_when(when, sizeof when, "%s = %d", which ? "block" : "n", value);
            ok &= call_refused("softmax_online", LAB_BUFS(s), 1, true,
                               LAB_INTS(which ? 4 : value, which ? value : 2), MM_EINVAL, when);
        }
    if (!ok) lab_size_hint();
}

/* check_online_scores - a NaN, then a +inf, as the last score: s as it was */
static void check_online_scores(int unused)
{
    (void)unused;
    bool ok = true;
    for (int which = 0; which < 2; which++) {
        lab_mat *s = lab_out("s", 1, 4);
        memcpy(s->p, so_worked, sizeof so_worked);
        s->p[3] = which ? INFINITY : NAN;
        char when[48];
        lab_case_when(when, sizeof when, "s[3] = %s", which ? "+inf" : "NaN");
        ok &= call_refused("softmax_online", LAB_BUFS(s), 1, true, LAB_INTS(4, 2), MM_EINVAL,
                           when);
    }
    if (!ok) check_hint(CH_BAD_SCORE);
}

/* ---- sdpa_causal_tiled: the cases --------------------------------------------------------- */

enum { ST_WORKED, ST_WORKED_1_3, ST_3_2, ST_2_5, ST_PAST_T, ST_ONE, ST_GROWING, ST_LONG,
       ST_LONG_AGAIN, ST_LARGE, ST_TINY };

/* the chapter's four tokens: Q = K = V = X_0 of chapter 03's head 0, and (2, 0) */
static const double four_tokens[8] = { 1, 0, 0, 1, 1, 1, 2, 0 };

/* tiled_fixed - the fixed cases: their shape, blocks and values (fixed seeds) */
static void tiled_fixed(tiled_case *c, int which)
{
    static const int shape[][5] = {       /* T, d_k, d_v, block_q, block_k */
        [ST_WORKED] = { 4, 2, 2, 2, 2 }, [ST_WORKED_1_3] = { 4, 2, 2, 1, 3 },
        [ST_3_2] = { 7, 3, 5, 3, 2 }, [ST_2_5] = { 9, 4, 2, 2, 5 },
        [ST_PAST_T] = { 5, 3, 3, 8, 16 }, [ST_ONE] = { 1, 3, 2, 2, 3 },
        [ST_GROWING] = { 40, 4, 3, 8, 3 } };
    c->T = shape[which][0], c->d_k = shape[which][1], c->d_v = shape[which][2];
    c->block_q = shape[which][3], c->block_k = shape[which][4];
    int T = c->T;
    if (which <= ST_WORKED_1_3) {
        c->q = c->k = c->v = four_tokens;
        snprintf(c->name, sizeof c->name,
                 EN_ES("the chapter's four tokens, Q = K = V = [[1,0],[0,1],[1,1],[2,0]]",
                       "los cuatro tokens del capítulo, Q = K = V = [[1,0],[0,1],[1,1],[2,0]]"));
        return;
    }
    c->q = lab_normals((size_t)T * c->d_k, 1.0, 50 + which);
    double *k = lab_normals((size_t)T * c->d_k, 1.0, 60 + which);
    c->v = lab_normals((size_t)T * c->d_v, 1.0, 70 + which);
    if (which == ST_GROWING) {          /* key j's score with every query grows with j */
        double *q = lab_fresh((size_t)T * c->d_k, c->q);
        for (int i = 0; i < T; i++) q[i * c->d_k] = 2.0 + 0.1 * fabs(q[i * c->d_k]);
        for (int j = 0; j < T; j++) k[j * c->d_k] = 0.25 * j;
        c->q = q;
    }
    c->k = k;
    snprintf(c->name, sizeof c->name,
             which == ST_GROWING
                 ? EN_ES("scores that grow along each row (k[j][0] = j / 4, q[i][0] >= 2); q, k, "
                         "v N(0, 1) (seeds %d, %d, %d)",
                         "puntuaciones que crecen en cada fila (k[j][0] = j / 4, q[i][0] >= 2); "
                         "q, k, v N(0, 1) (semillas %d, %d, %d)")
                 : EN_ES("q, k, v N(0, 1) (seeds %d, %d, %d)",
                         "q, k, v N(0, 1) (semillas %d, %d, %d)"), 50 + which, 60 + which,
             70 + which);
}

/* tiled_random - the cases drawn from the run's seed: T 256 to 400, odd
 * blocks (block_k below block_q, then above it for the same shape with
 * fresh values), large values (scores in the hundreds, v 1e3) and tiny ones */
static void tiled_random(tiled_case *c, int which)
{
    bool long_case = which == ST_LONG || which == ST_LONG_AGAIN;
    uint64_t salt = long_case ? SALT_ST_LONG : which == ST_LARGE ? SALT_ST_LARGE : SALT_ST_TINY;
    c->T = long_case ? (int)lab_random_int(256, 400, salt) : (int)lab_random_int(20, 60, salt);
    c->d_k = (int)lab_random_int(3, 17, salt + 1), c->d_v = (int)lab_random_int(2, 17, salt + 2);
    int big = odd_between(17, 63, salt + 3), small = odd_between(3, 15, salt + 4);
    c->block_q = which == ST_LONG_AGAIN ? small : big;
    c->block_k = which == ST_LONG_AGAIN ? big : small;
    double qk_std = which == ST_LARGE ? 30.0 : which == ST_TINY ? 1e-150 : 1.0;
    double v_std = which == ST_LARGE ? 1e3 : which == ST_TINY ? 1e-150 : 1.0;
    uint64_t vs = which == ST_LONG_AGAIN ? SALT_ST_AGAIN + 10 : salt + 10;
    c->q = lab_random((size_t)c->T * c->d_k, qk_std, vs);
    c->k = lab_random((size_t)c->T * c->d_k, qk_std, vs + 1);
    c->v = lab_random((size_t)c->T * c->d_v, v_std, vs + 2);
    const char *what = which == ST_LONG ? EN_ES("random", "aleatorio")
                     : which == ST_LONG_AGAIN ? EN_ES("the same shape again, fresh values, the "
                                                      "blocks swapped",
                                                      "la misma forma otra vez, valores nuevos, "
                                                      "los bloques intercambiados")
                     : which == ST_LARGE ? EN_ES("large values: q, k N(0, 30^2), v N(0, 1e3^2)",
                                                 "valores grandes: q, k N(0, 30^2), v N(0, 1e3^2)")
                     : EN_ES("tiny values: q, k, v N(0, 1e-150^2)",
                             "valores diminutos: q, k, v N(0, 1e-150^2)");
    snprintf(c->name, sizeof c->name, "%s%s", what, seed_text());
}

static void tiled_case_make(tiled_case *c, int which)
{
    memset(c, 0, sizeof *c);
    if (which >= ST_LONG) tiled_random(c, which);
    else tiled_fixed(c, which);
    int T = c->T;
    size_t len = strlen(c->name);
    snprintf(c->name + len, sizeof c->name - len, ": T=%d d_k=%d d_v=%d block_q=%d block_k=%d",
             T, c->d_k, c->d_v, c->block_q, c->block_k);
    double *mask = lab_fresh((size_t)T * T, NULL);
    c->want = lab_fresh((size_t)T * c->d_v, NULL);
    LAB_REF(mask_causal(mask, T));
    LAB_REF(sdpa(c->want, NULL, c->q, c->k, c->v, mask, T, T, c->d_k, c->d_v));
}

/* tiled_bufs - b[]: out (T, d_v), q, k, v of case c */
static void tiled_bufs(lab_mat *b[4], const tiled_case *c)
{
    b[0] = lab_out("out", c->T, c->d_v);
    b[1] = lab_in("q", c->T, c->d_k, c->q);
    b[2] = lab_in("k", c->T, c->d_k, c->k);
    b[3] = lab_in("v", c->T, c->d_v, c->v);
}

static void check_tiled(int which)
{
    tiled_case c;
    tiled_case_make(&c, which);
    lab_case("%s", c.name);
    lab_mat *b[4];
    tiled_bufs(b, &c);
    mm_status st = lab_call("sdpa_causal_tiled", 4, b,
                            LAB_INTS(c.T, c.d_k, c.d_v, c.block_q, c.block_k));
    const double *want[1] = { c.want };
    if (lab_check_values(st, 1, b, want, diagnose_tiled, &c) || st == MM_OK) return;
    tiled_status_hint(&c, st);
}

/* ---- sdpa_causal_tiled: bad arguments --------------------------------------------------- */

/* tiled_rooms - the buffers of a call on T = 2, d_k = d_v = 2 (the first two of the
 * chapter's tokens): b[0] out, then q, k, v; q, k, v as given, if not NULL */
static void tiled_rooms(lab_mat *b[4], const double *q, const double *k, const double *v)
{
    b[0] = lab_out("out", 2, 2);
    b[1] = lab_in("q", 2, 2, q ? q : four_tokens);
    b[2] = lab_in("k", 2, 2, k ? k : four_tokens);
    b[3] = lab_in("v", 2, 2, v ? v : four_tokens);
}

/* tiled_refused - sdpa_causal_tiled on b[] with the sizes n[] must return want, writing
 * nothing if want is MM_EINVAL */
static bool tiled_refused(lab_mat *const b[4], const long n[5], mm_status want, const char *when)
{
    return call_refused("sdpa_causal_tiled", 4, b, 4, want == MM_EINVAL, 5, n, want, when);
}

static void check_tiled_null(int unused)
{
    (void)unused;
    static const char *const names[4] = { "out", "q", "k", "v" };
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        lab_mat *b[4];
        tiled_rooms(b, NULL, NULL, NULL);
        b[i] = NULL;
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", names[i]);
        ok &= tiled_refused(b, (const long[5]){ 2, 2, 2, 2, 2 }, MM_EINVAL, when);
    }
    if (!ok) lab_null_hint();
}

static void check_tiled_sizes(int unused)
{
    (void)unused;
    static const char *const names[5] = { "T", "d_k", "d_v", "block_q", "block_k" };
    bool ok = true;
    for (int i = 0; i < 5; i++)
        for (int value = 0; value >= -1; value--) {
            lab_mat *b[4];
            tiled_rooms(b, NULL, NULL, NULL);
            long n[5] = { 2, 2, 2, 2, 2 };
            n[i] = value;
            char when[48];
            lab_case_when(when, sizeof when, "%s = %d", names[i], value);
            ok &= tiled_refused(b, n, MM_EINVAL, when);
        }
    if (!ok) lab_size_hint();
}

static void check_tiled_too_large(int unused)
{
    (void)unused;
    lab_mat *b[4];
    tiled_rooms(b, NULL, NULL, NULL);
    lab_case("T = d_k = d_v = INT_MAX");
    lab_hint_if_lost(EN_ES("with T = d_k = d_v = INT_MAX the buffers would hold about 2^62 "
                           "doubles each: check MM_NEED_SIZE_PRODUCT(T, d_k) and (T, d_v) "
                           "before you read or write any of them",
                           "con T = d_k = d_v = INT_MAX los búferes tendrían unos 2^62 doubles "
                           "cada uno: comprueba MM_NEED_SIZE_PRODUCT(T, d_k) y (T, d_v) antes "
                           "de leer o escribir ninguno"));
    if (!tiled_refused(b, (const long[5]){ INT_MAX, INT_MAX, INT_MAX, 2, 2 }, MM_EINVAL,
                       EN_ES("for T = d_k = d_v = INT_MAX: q would hold about 2^62 doubles",
                             "con T = d_k = d_v = INT_MAX: q tendría unos 2^62 doubles")))
        check_hint(CH_TOO_LARGE);
}

/* check_tiled_not_finite - a NaN in q, a +inf in k, a NaN in v (the last element) */
static void check_tiled_not_finite(int unused)
{
    (void)unused;
    static const char *const names[3] = { "q[1][1] = NaN", "k[1][1] = +inf", "v[1][1] = NaN" };
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        double bad[4] = { 1, 0, 0, 1 };
        bad[3] = i == 1 ? INFINITY : NAN;
        lab_mat *b[4];
        tiled_rooms(b, i == 0 ? bad : NULL, i == 1 ? bad : NULL, i == 2 ? bad : NULL);
        char when[48];
        lab_case_when(when, sizeof when, "%s", names[i]);
        ok &= tiled_refused(b, (const long[5]){ 2, 2, 2, 2, 2 }, MM_EINVAL, when);
    }
    if (!ok) check_hint(CH_NOT_FINITE);
}

/* check_tiled_overlap - out the same buffer as q, then as v (alias.h) */
static void check_tiled_overlap(int unused)
{
    (void)unused;
    bool ok = true;
    for (int which = 1; which <= 3; which += 2) {
        lab_mat *b[4];
        tiled_rooms(b, NULL, NULL, NULL);
        b[0]->p[0] = ALIAS_TAG - which;
        b[0]->p[1] = ALIAS_TAG;
        b[0]->name = which == 1 ? "q" : "v";
        char when[48];
        lab_case_when(when, sizeof when, "out = %s", which == 1 ? "q" : "v");
        ok &= tiled_refused(b, (const long[5]){ 2, 2, 2, 2, 2 }, MM_EINVAL, when);
    }
    if (!ok) check_hint(CH_OVERLAP);
}

/* check_tiled_overflow - q[1] . k[0] = 1e200 x 1e200: a visible score overflows */
static void check_tiled_overflow(int unused)
{
    (void)unused;
    lab_mat *b[4];
    tiled_rooms(b, (const double[4]){ 0, 1, 1e200, 0 }, (const double[4]){ 1e200, 0, 0, 1 },
                NULL);
    char when[120];
    lab_case_when(when, sizeof when, "%s",
                  EN_ES("q[1][0] = k[0][0] = 1e200: the score of query 1 and key 0 overflows",
                        "q[1][0] = k[0][0] = 1e200: la puntuación de la query 1 y la key 0 "
                        "desborda"));
    if (!tiled_refused(b, (const long[5]){ 2, 2, 2, 2, 2 }, MM_ERANGE, when))
        check_hint(CH_TILED_RANGE);
}

/* ---- mha_decode_step: the cases ---------------------------------------------------------- */

enum { DC_WORKED, DC_FOUR, DC_FIRST, DC_FIVE, DC_LAST_SLOT, DC_SEQUENCE, DC_LONG,
       DC_LONG_AGAIN, DC_LARGE, DC_TINY };

/* the buffers of a step, in the order of the request (cache.h) */
enum { B_OUT, B_KV, B_WORK, B_WQKV, B_WO, B_X, B_SEEN, N_BUFS };

/* set_layer - the case's layer (d_model, n_heads) from its four matrices w
 * (W_Q, W_K, W_V, W_O, each d_model^2), packed as mha_new packs them */
static void set_layer(decode_case *c, int d_model, int n_heads, const double *w)
{
    size_t dd = (size_t)d_model * d_model;
    mha *layer = NULL;
    LAB_REF(mha_new(&layer, d_model, n_heads, 1));
    LAB_REF(mha_set_weights(layer, w, w + dd, w + 2 * dd, w + 3 * dd));
    c->d_model = d_model, c->n_heads = n_heads, c->d_k = d_model / n_heads;
    c->w_qkv = lab_fresh(3 * dd, layer->w_qkv);
    c->w_o = lab_fresh(dd, layer->w_o);
    mha_free(layer);
}

/* decode_fixed - the worked layers: chapter 03's (three tokens, W_Q = W_K
 * = W_V = I) and the chapter's four tokens through one head of d_k = 2
 * (W_Q = W_K = W_V = W_O = I): decoded from an empty cache */
static void decode_fixed(decode_case *c, int which)
{
    double *w;
    if (which == DC_WORKED) {
        w = lab_fresh(4 * CH03_D * CH03_D, NULL);
        for (int m = 0; m < 3; m++) memcpy(w + m * CH03_D * CH03_D, ch03_eye, sizeof ch03_eye);
        memcpy(w + 3 * CH03_D * CH03_D, ch03_w_o, sizeof ch03_w_o);
        set_layer(c, CH03_D, CH03_H, w);
        c->x = ch03_x, c->T_max = CH03_T;
        snprintf(c->name, sizeof c->name,
                 EN_ES("chapter 03's worked layer, W_Q = W_K = W_V = I, tokens "
                       "[[1,0,1,0],[0,1,0,1],[1,1,0,0]], one at a time from an empty cache",
                       "la capa resuelta del capítulo 03, W_Q = W_K = W_V = I, tokens "
                       "[[1,0,1,0],[0,1,0,1],[1,1,0,0]], uno a uno desde una caché vacía"));
        return;
    }
    w = lab_fresh(16, (const double[16]){ 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 });
    set_layer(c, 2, 1, w);
    c->x = four_tokens, c->T_max = 4;
    snprintf(c->name, sizeof c->name,
             EN_ES("the chapter's four tokens [[1,0],[0,1],[1,1],[2,0]], one head, W_Q = W_K = "
                   "W_V = W_O = I, one at a time from an empty cache",
                   "los cuatro tokens del capítulo [[1,0],[0,1],[1,1],[2,0]], una cabeza, W_Q = "
                   "W_K = W_V = W_O = I, uno a uno desde una caché vacía"));
}

/* decode_random - the cases drawn from the run's seed: their layer, x,
 * T_max and the tokens the cache holds */
static void decode_random(decode_case *c, int which)
{
    static const struct { int d, H, t, T_max; uint64_t salt; double w_std, x_std; } r[] = {
        [DC_FIRST] = { 6, 3, 0, 4, SALT_DC_FIRST, 0.5, 1.0 },
        [DC_FIVE] = { 8, 2, 5, 10, SALT_DC_FIVE, 0.5, 1.0 },
        [DC_LAST_SLOT] = { 12, 4, 6, 7, SALT_DC_LAST, 0.5, 1.0 },
        [DC_SEQUENCE] = { 8, 2, 0, 8, SALT_DC_SEQUENCE, 0.5, 1.0 },
        [DC_LONG] = { 64, 0, 0, 0, SALT_DC_LONG, 0.125, 1.0 },
        [DC_LONG_AGAIN] = { 64, 0, 0, 0, SALT_DC_AGAIN, 0.125, 1.0 },
        [DC_LARGE] = { 8, 2, 0, 0, SALT_DC_LARGE, 0.5, 20.0 },
        [DC_TINY] = { 8, 4, 0, 0, SALT_DC_TINY, 0.5, 1e-150 } };
    int d = r[which].d, H = r[which].H, t = r[which].t, T_max = r[which].T_max;
    uint64_t salt = r[which].salt;
    if (which == DC_LONG || which == DC_LONG_AGAIN) {         /* one shape, twice */
        H = 1 << lab_random_int(1, 2, SALT_DC_LONG);
        t = (int)lab_random_int(256, 320, SALT_DC_LONG + 1);
        T_max = t + (int)lab_random_int(1, 40, SALT_DC_LONG + 2);
    } else if (which == DC_LARGE || which == DC_TINY) {
        t = (int)lab_random_int(10, 30, salt);
        T_max = t + 3;
    }
    set_layer(c, d, H, lab_random(4 * (size_t)d * d, r[which].w_std, salt + 10));
    c->T_max = T_max, c->t = t;
    int n = which == DC_SEQUENCE ? T_max : t + 1;
    c->x = lab_random((size_t)n * d, r[which].x_std, salt + 11);
    const char *what = which == DC_FIRST ? EN_ES("the first token", "el primer token")
                     : which == DC_FIVE ? EN_ES("a cache holding five tokens",
                                                "una caché con cinco tokens")
                     : which == DC_LAST_SLOT ? EN_ES("the cache's last free slot",
                                                     "el último hueco libre de la caché")
                     : which == DC_SEQUENCE ? EN_ES("eight steps from an empty cache",
                                                    "ocho pasos desde una caché vacía")
                     : which == DC_LONG ? EN_ES("random", "aleatorio")
                     : which == DC_LONG_AGAIN ? EN_ES("the same shape again, fresh values",
                                                      "la misma forma otra vez, valores nuevos")
                     : which == DC_LARGE ? EN_ES("large scores: x N(0, 20^2)",
                                                 "puntuaciones grandes: x N(0, 20^2)")
                     : EN_ES("tiny values: x N(0, 1e-150^2)",
                             "valores diminutos: x N(0, 1e-150^2)");
    snprintf(c->name, sizeof c->name, EN_ES("%s, layer N(0, %g^2)%s", "%s, capa N(0, %g^2)%s"),
             what, r[which].w_std, seed_text());
}

/* cache_rows - into kv (2 n_heads T_max d_k, zeroed): the rows of the tokens
 * the library's cache holds */
static void cache_rows(double *kv, const mha_cache *cache, const decode_case *c)
{
    size_t head = (size_t)c->T_max * c->d_k, kv_n = (size_t)c->n_heads * head;
    for (int part = 0; part < 2; part++)
        for (int h = 0; h < c->n_heads; h++)
            memcpy(kv + part * kv_n + h * head, (part ? cache->v : cache->k) + h * head,
                   (size_t)cache->T * c->d_k * sizeof *kv);
}

/* decode_answer - the answers of step t of case c: the cache before and
 * after it (the library's mha_decode_step), row t of mha_forward_causal */
static void decode_answer(decode_case *c, int t)
{
    int d = c->d_model;
    size_t kv_n = 2 * (size_t)c->T_max * d;
    mha layer = { d, c->n_heads, c->d_k, (double *)c->w_qkv, (double *)c->w_o };
    mha_cache *cache = NULL;
    double *row = lab_fresh((size_t)d, NULL), *all = lab_fresh((size_t)(t + 1) * d, NULL);
    c->t = t;
    c->kv0 = lab_fresh(kv_n, NULL), c->want_kv = lab_fresh(kv_n, NULL);
    LAB_REF(mha_cache_new(&cache, &layer, c->T_max));
    for (int j = 0; j < t; j++) LAB_REF(mha_decode_step(row, cache, c->x + (size_t)j * d));
    cache_rows(c->kv0, cache, c);
    LAB_REF(mha_decode_step(row, cache, c->x + (size_t)t * d));
    cache_rows(c->want_kv, cache, c);
    mha_cache_free(cache);
    LAB_REF(mha_forward_causal(all, NULL, &layer, c->x, t + 1));
    c->want_out = lab_fresh((size_t)d, all + (size_t)t * d);
}

/* decode_bufs - the buffers of step c->t with the cache kv (its keys and values) */
static void decode_bufs(lab_mat *b[N_BUFS], const decode_case *c, const double *kv)
{
    int d = c->d_model;
    b[B_OUT] = lab_out("out", 1, d);
    b[B_KV] = lab_out("cache->k", 2 * c->n_heads * c->T_max, c->d_k);
    memcpy(b[B_KV]->p, kv, b[B_KV]->n * sizeof *kv);            /* read and written */
    b[B_WORK] = lab_out("cache->work", 1, 4 * d + c->T_max);
    b[B_WQKV] = lab_in("layer->w_qkv", d, 3 * d, c->w_qkv);
    b[B_WO] = lab_in("layer->w_o", d, d, c->w_o);
    b[B_X] = lab_in("x", 1, d, c->x + (size_t)c->t * d);
    b[B_SEEN] = lab_out("*cache", 1, CACHE_SEEN);
}

/* cache_kept - after a step on a cache that held t tokens (ok: the step
 * returned MM_OK): what its struct held then (seen, cache.h) must be T =
 * want_T and the pointers it was given (T_max: decode_step); each
 * difference is a failure that names it. True if none */
static bool cache_kept(const lab_mat *seen, int want_T, int t, bool ok)
{
    static const char *const field[] = { "T", "T_max", "layer", "k", "v", "work" };
    const double *v = seen->p;
    if (v[0] == LAB_UNWRITTEN) lab_bug("the driver did not say what the cache held");
    bool right = true;
    if (v[CACHE_T] != want_T) {
        lab_fail(ok ? EN_ES("the step returned MM_OK, but cache->T is %g after it: it was %d "
                            "before, and the token it kept makes it %d",
                            "el paso devolvió MM_OK, pero cache->T es %g después: era %d "
                            "antes, y el token que guardó lo hace %d")
                    : EN_ES("the step failed, but cache->T is %g after it: it was %d before, "
                            "and a step that fails keeps nothing (it must stay %d)",
                            "el paso falló, pero cache->T es %g después: era %d antes, y un "
                            "paso que falla no guarda nada (debe seguir en %d)"),
                 v[CACHE_T], t, want_T);
        check_hint(ok ? CH_T_NOT_ADVANCED : CH_KEPT_ON_FAILURE);
        right = false;
    }
    for (int f = CACHE_LAYER; f < CACHE_SEEN; f++) {
        if (v[f] == CACHE_SAME) continue;
        lab_fail(EN_ES("the step changed cache->%s: it %s after the call",
                       "el paso cambió cache->%s: %s después de la llamada"), field[f],
                 v[f] == CACHE_NULL ? EN_ES("is NULL", "es NULL")
                                    : EN_ES("points elsewhere", "apunta a otro sitio"));
        check_hint(CH_CACHE_POINTERS);
        right = false;
    }
    return right;
}

/* decode_step - the learner's step c->t on the cache kv; its outputs
 * compared with the answers; into kv, what the learner's step left in the
 * cache. True if right */
static bool decode_step(decode_case *c, double *kv)
{
    lab_mat *b[N_BUFS];
    decode_bufs(b, c, kv);
    mm_status st = lab_call("mha_decode_step", N_BUFS, b,
                            LAB_INTS(c->t, c->T_max, c->d_model, c->n_heads));
    memcpy(kv, b[B_KV]->p, b[B_KV]->n * sizeof *kv);
    if (b[B_SEEN]->p[CACHE_T_MAX] != c->T_max && st == MM_OK)
        lab_fail(EN_ES("the step changed cache->T_max to %g (it was %d)",
                       "el paso cambió cache->T_max a %g (era %d)"),
                 b[B_SEEN]->p[CACHE_T_MAX], c->T_max);
    lab_mat *got[2] = { b[B_OUT], b[B_KV] };
    const double *want[2] = { c->want_out, c->want_kv };
    if (!lab_check_values(st, 2, got, want, diagnose_decode, c)) return false;
    return cache_kept(b[B_SEEN], c->t + 1, c->t, true);
}

static void check_decode(int which)
{
    decode_case c;
    memset(&c, 0, sizeof c);
    bool sequence = which == DC_WORKED || which == DC_FOUR || which == DC_SEQUENCE;
    if (which <= DC_FOUR) decode_fixed(&c, which);
    else decode_random(&c, which);
    size_t len = strlen(c.name);
    snprintf(c.name + len, sizeof c.name - len, ": d_model=%d n_heads=%d T_max=%d", c.d_model,
             c.n_heads, c.T_max);
    if (!sequence) {
        decode_answer(&c, c.t);
        lab_case(EN_ES("%s, the cache holding %d tokens", "%s, la caché con %d tokens"), c.name,
                 c.t);
        decode_step(&c, c.kv0);
        return;
    }
    double *kv = lab_fresh(2 * (size_t)c.T_max * c.d_model, NULL);     /* empty */
    for (int t = 0; t < c.T_max; t++) {
        decode_answer(&c, t);
        lab_case(EN_ES("%s; step %d, on the cache as your steps left it",
                       "%s; paso %d, con la caché como la dejaron tus pasos"), c.name, t);
        if (!decode_step(&c, kv)) {
            if (t > 0) check_hint(CH_SEQUENCE);
            return;
        }
    }
}

/* ---- mha_decode_step: bad arguments ------------------------------------------------------ */

/* decode_room - a small case for the bad arguments: one head of d_model =
 * 2 (W_Q = W_K = W_V = W_O = I), T_max = 3, a cache holding t tokens of
 * [[1,0],[0,1],[1,1]] (t < 3), the next token x (or token t) */
static decode_case decode_room(int t, const double *x)
{
    decode_case c;
    memset(&c, 0, sizeof c);
    set_layer(&c, 2, 1, (const double[16]){ 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 });
    double *xs = lab_fresh(8, four_tokens);
    c.T_max = 3, c.x = xs;
    decode_answer(&c, t < 3 ? t : 2);
    c.t = t;
    if (t == 3) memcpy(c.kv0, c.want_kv, 12 * sizeof *c.kv0);      /* full */
    if (x) memcpy(xs + 2 * (t < 3 ? t : 3), x, 2 * sizeof *xs);
    return c;
}

/* decode_refused - step c.t on buffers b[] must return want: out as it
 * was (MM_EINVAL), the tokens the cache held unchanged, cache->T still
 * c.t; when says which call */
static bool decode_refused(const decode_case *c, lab_mat *const b[N_BUFS], mm_status want,
                           const char *when)
{
    long n[4] = { c->t, c->T_max, c->d_model, c->n_heads };
    if (!call_refused("mha_decode_step", N_BUFS, b, B_OUT + 1, want == MM_EINVAL, 4, n, want,
                      when))
        return false;
    if (b[B_KV]) {
        for (int r = 0; r < 2 * c->n_heads * c->T_max; r++)
            if (r % c->T_max < c->t &&
                memcmp(b[B_KV]->p + (size_t)r * c->d_k, c->kv0 + (size_t)r * c->d_k,
                       c->d_k * sizeof(double)) != 0) {
                lab_fail(EN_ES("%s refused the call %s, as it should, but changed row %d of "
                               "the cache's keys and values (a token it held): a step that "
                               "fails leaves the cache as it was",
                               "%s rechazó la llamada %s, como debe, pero cambió la fila %d de "
                               "las keys y values de la caché (un token que tenía): un paso "
                               "que falla deja la caché como estaba"),
                         "mha_decode_step", when, r);
                check_hint(CH_KEPT_ON_FAILURE);
                return true;
            }
        cache_kept(b[B_SEEN], c->t, c->t, false);
    }
    return true;
}

static void check_decode_null(int unused)
{
    (void)unused;
    static const int slot[3] = { B_OUT, B_KV, B_X };
    static const char *const names[3] = { "out", "cache", "x" };
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        decode_case c = decode_room(1, NULL);
        lab_mat *b[N_BUFS];
        decode_bufs(b, &c, c.kv0);
        b[slot[i]] = NULL;
        if (slot[i] == B_KV) b[B_SEEN] = NULL;
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", names[i]);
        ok &= decode_refused(&c, b, MM_EINVAL, when);
    }
    if (!ok) lab_null_hint();
}

static void check_decode_full(int unused)
{
    (void)unused;
    decode_case c = decode_room(3, (const double[2]){ 2, 0 });
    lab_mat *b[N_BUFS];
    decode_bufs(b, &c, c.kv0);
    char when[80];
    lab_case_when(when, sizeof when, EN_ES("a full cache: T = T_max = 3",
                                           "una caché llena: T = T_max = 3"));
    if (!decode_refused(&c, b, MM_EINVAL, when)) check_hint(CH_FULL);
}

static void check_decode_not_finite(int unused)
{
    (void)unused;
    static const char *const names[2] = { "x[1] = NaN", "x[0] = -inf" };
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        decode_case c = decode_room(1, i ? (const double[2]){ -INFINITY, 1 }
                                         : (const double[2]){ 1, NAN });
        lab_mat *b[N_BUFS];
        decode_bufs(b, &c, c.kv0);
        char when[48];
        lab_case_when(when, sizeof when, "%s", names[i]);
        ok &= decode_refused(&c, b, MM_EINVAL, when);
    }
    if (!ok) check_hint(CH_NOT_FINITE);
}

/* check_decode_overlap - out the same buffer as x, then as layer->w_o (alias.h) */
static void check_decode_overlap(int unused)
{
    (void)unused;
    static const int slot[2] = { B_X, B_WO };
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        decode_case c = decode_room(1, NULL);
        lab_mat *b[N_BUFS];
        decode_bufs(b, &c, c.kv0);
        b[B_OUT]->p[0] = ALIAS_TAG - slot[i];
        b[B_OUT]->p[1] = ALIAS_TAG;
        b[B_OUT]->name = b[slot[i]]->name;
        char when[48];
        lab_case_when(when, sizeof when, "out = %s", b[slot[i]]->name);
        ok &= decode_refused(&c, b, MM_EINVAL, when);
    }
    if (!ok) check_hint(CH_OVERLAP);
}

/* check_decode_overflow - x = (1e308, 1e308) with W_Q = I... and W_K's
 * row sums 2: x W_QKV overflows */
static void check_decode_overflow(int unused)
{
    (void)unused;
    decode_case c = decode_room(1, (const double[2]){ 1e308, 1e308 });
    double *w = lab_fresh(12, c.w_qkv);
    for (int e = 0; e < 12; e++) w[e] = 1.0;                     /* every column sums x */
    c.w_qkv = w;
    lab_mat *b[N_BUFS];
    decode_bufs(b, &c, c.kv0);
    char when[120];
    lab_case_when(when, sizeof when, "%s",
                  EN_ES("x = [1e308, 1e308], every weight of W_QKV 1: x W_QKV overflows",
                        "x = [1e308, 1e308], todos los pesos de W_QKV 1: x W_QKV desborda"));
    if (!decode_refused(&c, b, MM_ERANGE, when)) check_hint(CH_DECODE_RANGE);
}

/* ---- the tables, from the descriptor -------------------------------------------------- */

LAB_JUDGE_TABLES(LAB05);
