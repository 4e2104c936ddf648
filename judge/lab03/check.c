/* check.c - the checks of lab 03, run by the judge: mha_split_heads and
 * mha_merge_heads on chapter 03's worked example, on patterned and random
 * matrices of several shapes (one row, one head, heads one column wide,
 * the 3 n_heads heads of a packed [Q | K | V]), on values that must be
 * copied bit for bit, a round trip through both, and bad arguments; and
 * mha_forward on the worked example (tangled/examples/ch03-worked.h), on
 * layers made by mha_new (the initial weights of chapter 01, several
 * seeds) or given weights by mha_set_weights, with n_heads = 1, d_k = 1,
 * T = 1 and widths that are not powers of two, with and without weights
 * asked for, with a bias (finite, hiding keys, hiding a whole row, causal),
 * on the chapter's eight tokens through its planted heads, and on bad
 * arguments. The learner's results (from its own process, through
 * lab_call) are compared with the library's, the reference.
 *
 * Besides those fixed cases, cases drawn from the run's seed (lab_random:
 * a fresh seed each run, printed; LAB_SEED=N replays it), which the
 * learner's code cannot know in advance: for each function a long one
 * (T from 256 to 400) and then the same shape again with fresh values (a
 * static buffer for a few rows fails, and so does a result remembered by
 * shape or by pointer); for mha_forward also one token seen and one token
 * hidden, biases of +-1e300, and x of about 1e100. Each such case's name
 * gives its shape and the seed. After each call of mha_forward on a layer,
 * the layer's struct is compared with what it was (layer.h): a forward
 * pass that changes its sizes or pointers fails, by the field's name.
 *
 * The checks of one function run in this order against one learner
 * process, on cases of different shapes, so that state kept between calls
 * shows. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alias.h"
#include "lab03.h"
#include "layer_check.h"
#include "lab03.def"

/* ---- mha_split_heads and mha_merge_heads: the cases ------------------------------------- */

enum { HC_WORKED, HC_PATTERN, HC_ONE_ROW, HC_ONE_HEAD, HC_DK_ONE, HC_RANDOM, HC_PACKED,
       HC_BITS, HC_ROUND_TRIP, HC_LONG, HC_LONG_AGAIN };

/* the salts of the cases drawn from the run's seed (lab_random): a shape
 * (its salt plus 0, 100, 200) and the values of each (a layer's from its
 * salt, x from its salt plus 1000, a bias plus 2000); no two share a stream */
enum { SALT_HEADS_SHAPE = 301, SALT_HEADS_M, SALT_HEADS_M_AGAIN = 303,
       SALT_FW_LONG_SHAPE = 311, SALT_FW_LONG = 312, SALT_FW_AGAIN = 313,
       SALT_FW_T1_SHAPE = 321, SALT_FW_T1 = 322, SALT_FW_T1_HIDDEN = 323,
       SALT_FW_EXTREME = 331, SALT_FW_LARGE_X = 341 };

/* a matrix of values that must be copied as they are: NaN, infinities, -0,
 * a subnormal */
static const double bits_m[] = { NAN, 1.5, INFINITY, -0.0,
                                  -INFINITY, 4.9406564584124654e-324, 0.25, -2 };

/* the fixed cases of the split and the merge but the worked example: the
 * shape, m (seed > 0: N(0, 1) from that seed; 0: m[t][j] = 10 (t + 1) + j;
 * -1: bits_m) and what the case is (EN, ES) */
static const struct {
    int T, n_heads, d_k, seed;
    const char *what[2];
} heads_cases[] = {
    [HC_PATTERN] = { 5, 3, 2, 0, { "m[t][j] = 10 (t + 1) + j", "m[t][j] = 10 (t + 1) + j" } },
    [HC_ONE_ROW] = { 1, 4, 2, 31, { "one row, random (seed 31)",
                                    "una fila, aleatoria (semilla 31)" } },
    [HC_ONE_HEAD] = { 4, 1, 3, 32, { "one head, random (seed 32)",
                                     "una cabeza, aleatoria (semilla 32)" } },
    [HC_DK_ONE] = { 3, 5, 1, 0, { "heads one column wide, m[t][j] = 10 (t + 1) + j",
                                  "cabezas de una columna, m[t][j] = 10 (t + 1) + j" } },
    [HC_RANDOM] = { 7, 2, 5, 33, { "random (seed 33)", "aleatoria (semilla 33)" } },
    [HC_PACKED] = { 4, 6, 3, 34, { "a packed [Q | K | V] of 2 heads, as 6 heads (random, seed 34)",
                                   "un [Q | K | V] empaquetado de 2 cabezas, como 6 cabezas "
                                   "(aleatorio, semilla 34)" } },
    [HC_BITS] = { 2, 2, 2, -1, { "values copied bit for bit: m = [[NaN,1.5,inf,-0],[-inf,4.9e-324,"
                                 "0.25,-2]]",
                                 "valores copiados bit a bit: m = [[NaN,1.5,inf,-0],[-inf,4.9e-324,"
                                 "0.25,-2]]" } },
    [HC_ROUND_TRIP] = { 6, 3, 4, 35, { "round trip: your mha_merge_heads on what your "
                                       "mha_split_heads gives (random m, seed 35)",
                                       "ida y vuelta: tu mha_merge_heads con lo que da tu "
                                       "mha_split_heads (m aleatoria, semilla 35)" } },
};

/* worked_heads - m of chapter 03's worked example, into 2 heads; named */
static double *worked_heads(heads_case *c)
{
    c->T = CH03_T, c->n_heads = CH03_H, c->d_k = CH03_D / CH03_H;
    char x[80];
    lab_mat_text(x, sizeof x, ch03_x, CH03_T, CH03_D);
    snprintf(c->name, sizeof c->name,
             c->merge ? EN_ES("the heads of chapter 03's worked example, X = %s, merged back",
                              "las cabezas del ejemplo resuelto del capítulo 03, X = %s, "
                              "unidas de nuevo")
                      : EN_ES("worked example of chapter 03: X = %s into 2 heads",
                              "ejemplo resuelto del capítulo 03: X = %s en 2 cabezas"), x);
    return lab_fresh(CH03_T * CH03_D, ch03_x);
}

/* long_heads - a long m of a shape drawn from the run's seed, twice: the
 * second time (again) the same shape with fresh values; named */
static double *long_heads(heads_case *c, bool again)
{
    c->T = (int)lab_random_int(256, 400, SALT_HEADS_SHAPE);
    c->n_heads = (int)lab_random_int(2, 8, SALT_HEADS_SHAPE + 100);
    c->d_k = (int)lab_random_int(1, 16, SALT_HEADS_SHAPE + 200);
    snprintf(c->name, sizeof c->name,
             again ? EN_ES("the same shape again, fresh values: random T=%d, n_heads=%d, d_k=%d%s",
                           "la misma forma otra vez, valores nuevos: aleatoria T=%d, n_heads=%d, "
                           "d_k=%d%s")
                   : EN_ES("random T=%d, n_heads=%d, d_k=%d%s",
                           "aleatoria T=%d, n_heads=%d, d_k=%d%s"),
             c->T, c->n_heads, c->d_k, seed_text());
    return lab_random((size_t)c->T * c->n_heads * c->d_k, 1.0,
                      again ? SALT_HEADS_M_AGAIN : SALT_HEADS_M);
}

static void heads_case_make(heads_case *c, int which, bool merge)
{
    memset(c, 0, sizeof *c);
    c->merge = merge;
    double *m;
    if (which == HC_WORKED) {
        m = worked_heads(c);
    } else if (which == HC_LONG || which == HC_LONG_AGAIN) {
        m = long_heads(c, which == HC_LONG_AGAIN);
    } else {
        if (which < HC_PATTERN || which > HC_ROUND_TRIP)
            lab_bug("no case %d of the split or the merge", which);
        int T = c->T = heads_cases[which].T, seed = heads_cases[which].seed;
        int width = (c->n_heads = heads_cases[which].n_heads) * (c->d_k = heads_cases[which].d_k);
        m = seed > 0 ? lab_normals((size_t)T * width, 1.0, seed)
                     : lab_fresh((size_t)T * width, seed < 0 ? bits_m : NULL);
        for (int e = 0; seed == 0 && e < T * width; e++) m[e] = 10 * (e / width + 1) + e % width;
        snprintf(c->name, sizeof c->name, "%s: T=%d n_heads=%d d_k=%d",
                 heads_cases[which].what[lab_es()], c->T, c->n_heads, c->d_k);
    }
    c->m = m;
    double *heads = lab_fresh((size_t)c->T * c->n_heads * c->d_k, NULL);
    LAB_REF(mha_split_heads(heads, m, c->T, c->n_heads, c->d_k));
    c->heads = heads;
}

static const char *heads_fn(bool merge) { return merge ? "mha_merge_heads" : "mha_split_heads"; }

/* check_heads - the split (merge false) or the merge on its case which; the
 * round trip gives the merge what the learner's own split gives */
static void check_heads(int which, bool merge)
{
    heads_case c;
    heads_case_make(&c, which, merge);
    lab_case("%s", c.name);
    int T = c.T, H = c.n_heads, d_k = c.d_k;
    const double *given = merge ? c.heads : c.m;
    if (which == HC_ROUND_TRIP) {                 /* the learner's own split first */
        lab_mat *h0 = lab_out("heads", H * T, d_k);
        lab_mat *m0 = lab_in("m", T, H * d_k, c.m);
        mm_status st = lab_call("mha_split_heads", LAB_BUFS(h0, m0), LAB_INTS(T, H, d_k));
        if (!lab_expect_status(st, MM_OK, EN_ES("from mha_split_heads, for valid arguments",
                                                "en mha_split_heads, con argumentos válidos")))
            return;
        given = lab_fresh(h0->n, h0->p);
    }
    lab_mat *out = merge ? lab_out("m", T, H * d_k) : lab_out("heads", H * T, d_k);
    if (!merge) out->block_rows = T;                       /* shown head by head */
    lab_mat *in = merge ? lab_in("heads", H * T, d_k, given) : lab_in("m", T, H * d_k, given);
    mm_status st = lab_call(heads_fn(merge), LAB_BUFS(out, in), LAB_INTS(T, H, d_k));
    const double *want[1] = { merge ? c.m : c.heads };
    if (which == HC_ROUND_TRIP) {
        if (!lab_check_values(st, 1, &out, want, NULL, &c)) diagnose_round_trip(&c, given, out->p);
        return;
    }
    bool ok = lab_check_values(st, 1, &out, want, diagnose_heads, &c);
    if (!ok && st == MM_EINVAL && which == HC_BITS)
        check_hint(merge ? CH_MERGE_COPIES : CH_SPLIT_COPIES);
}

static void check_split(int which) { check_heads(which, false); }
static void check_merge(int which) { check_heads(which, true); }

/* ---- mha_split_heads and mha_merge_heads: bad arguments --------------------------------- */

/* heads_rooms - the two buffers of a split or a merge of (T, H, d_k) = (2, 2, 1):
 * b[0] the output, b[1] the input */
static void heads_rooms(lab_mat *b[2], bool merge)
{
    static const double m[4] = { 1, 2, 3, 4 }, heads[4] = { 1, 3, 2, 4 };
    if (merge) {
        b[0] = lab_out("m", 2, 2);
        b[1] = lab_in("heads", 4, 1, heads);
    } else {
        b[0] = lab_out("heads", 4, 1);
        b[1] = lab_in("m", 2, 2, m);
    }
}

/* heads_refused - the call with b[] and sizes n[] must be refused with
 * MM_EINVAL, and write nothing; when says which call. False if the status
 * was not MM_EINVAL (a write before the refusal is a failure of its own,
 * with its own hint) */
static bool heads_refused(bool merge, lab_mat *const b[2], const long n[3], const char *when)
{
    const char *fn = heads_fn(merge);
    mm_status st = lab_call(fn, 2, b, 3, n);
    if (!lab_expect_status(st, MM_EINVAL, when)) return false;
    const lab_mat *o = b[0];
    if (!o || o->input) return true;
    if (o->n >= 2 && o->p[0] <= MHA_ALIAS_TAG && o->p[1] <= MHA_ALIAS_TAG) return true;
    for (size_t e = 0; e < o->n; e++)
        if (o->p[e] != LAB_UNWRITTEN) {
            lab_fail(EN_ES("%s refused the call %s, as it should, but wrote %s first (element "
                           "%zu is %g): a call refused with MM_EINVAL writes nothing",
                           "%s rechazó la llamada %s, como debe, pero antes escribió %s (el "
                           "elemento %zu es %g): una llamada rechazada con MM_EINVAL no "
                           "escribe nada"),
                     fn, when, o->name, e, o->p[e]);
            check_hint(CH_HEADS_CHECK_FIRST);
            break;
        }
    return true;
}

static void check_heads_nulls(int merge)
{
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        lab_mat *b[2];
        heads_rooms(b, merge);
        const char *name = b[i]->name;
        b[i] = NULL;
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", name);
        ok &= heads_refused(merge, b, (const long[3]){ 2, 2, 1 }, when);
    }
    if (!ok) lab_null_hint();
}

static void check_heads_sizes(int merge)
{
    static const char *const size_name[3] = { "T", "n_heads", "d_k" };
    bool ok = true;
    for (int s = 0; s < 3; s++)
        for (int value = 0; value >= -1; value--) {
            lab_mat *b[2];
            heads_rooms(b, merge);
            long n[3] = { 2, 2, 1 };
            n[s] = value;
            char when[48];
            lab_case_when(when, sizeof when, "%s = %d", size_name[s], value);
            ok &= heads_refused(merge, b, n, when);
        }
    if (!ok) lab_size_hint();
    /* n_heads d_k past an int, then T x n_heads d_k past any buffer */
    lab_mat *b[2];
    heads_rooms(b, merge);
    lab_case("n_heads = d_k = 2^16");
    if (!heads_refused(merge, b, (const long[3]){ 2, 1L << 16, 1L << 16 },
                       EN_ES("for n_heads = d_k = 2^16: n_heads d_k = 2^32 is not an int",
                             "con n_heads = d_k = 2^16: n_heads d_k = 2^32 no es un int")))
        check_hint(CH_WIDTH_IN_INT);
    heads_rooms(b, merge);
    lab_case("T = 2^30, n_heads = d_k = 2^15");
    if (!heads_refused(merge, b, (const long[3]){ 1L << 30, 1L << 15, 1L << 15 },
                       EN_ES("for T = 2^30, n_heads = d_k = 2^15: m would hold 2^60 doubles",
                             "con T = 2^30, n_heads = d_k = 2^15: m tendría 2^60 doubles")))
        check_hint(CH_HEADS_SIZE_PRODUCT);
}

/* check_heads_alias - which 0: the output the same buffer as the input;
 * which 1: the output starting one element into it */
static void check_heads_alias(int arg)
{
    bool merge = arg & 1;
    int off = arg >> 1;
    lab_mat *b[2];
    heads_rooms(b, merge);
    if (off)                  /* the input is longer, so the overlap stays inside it */
        b[1] = merge ? lab_in("heads", 5, 1, (const double[5]){ 1, 3, 2, 4, 5 })
                     : lab_in("m", 5, 1, (const double[5]){ 1, 2, 3, 4, 5 });
    const char *out_name = b[0]->name, *in_name = b[1]->name;
    const char *shown = lab_alias_name(in_name, off);
    b[0] = lab_out(shown, b[0]->rows, b[0]->cols);
    b[0]->p[0] = MHA_ALIAS_TAG - 1;
    b[0]->p[1] = MHA_ALIAS_TAG - off;
    lab_case("%s = %s", out_name, shown);
    char when[96];
    lab_alias_when(when, sizeof when, out_name, in_name, off);
    if (heads_refused(merge, b, (const long[3]){ 2, 2, 1 }, when)) return;
    heads_alias_hint(out_name, in_name);
}

/* ---- mha_forward: the cases ---------------------------------------------------------------- */

enum { FW_WORKED, FW_INIT, FW_SET, FW_ONE_HEAD, FW_DK_ONE, FW_ONE_TOKEN, FW_NO_WEIGHTS,
       FW_BIAS, FW_HIDDEN, FW_HIDDEN_NO_WEIGHTS, FW_CAUSAL, FW_PLANTED, FW_LONG, FW_LONG_AGAIN,
       FW_T1, FW_T1_HIDDEN, FW_EXTREME_BIAS, FW_LARGE_X };

/* a bias of 0 and -inf on 5 tokens: row 2 sees no key */
static const double hidden_bias[25] = {
    0, -INFINITY, 0, 0, -INFINITY,
    -INFINITY, 0, 0, -INFINITY, 0,
    -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
    0, 0, -INFINITY, 0, 0,
    -INFINITY, -INFINITY, -INFINITY, -INFINITY, 0 };

/* the fixed layers (layer_case.h), and what each case is besides (EN, ES) */
static const layer_shape shapes[] = {
    [FW_INIT]              = { 5, 6, 2, 1, 0.0, 11, true },
    [FW_SET]               = { 7, 6, 3, 2, 0.5, 12, true },
    [FW_ONE_HEAD]          = { 4, 5, 1, 3, 0.5, 13, true },
    [FW_DK_ONE]            = { 6, 4, 4, 4, 0.5, 14, true },
    [FW_ONE_TOKEN]         = { 1, 6, 3, 5, 0.5, 15, true },
    [FW_NO_WEIGHTS]        = { 9, 10, 5, 7, 0.0, 16, false },
    [FW_BIAS]              = { 4, 6, 2, 8, 0.5, 17, true },
    [FW_HIDDEN]            = { 5, 6, 3, 9, 0.5, 18, true },
    [FW_HIDDEN_NO_WEIGHTS] = { 5, 6, 3, 9, 0.5, 18, false },
    [FW_CAUSAL]            = { 6, 8, 2, 10, 0.5, 19, true },
};
static const char *const shape_what[][2] = {
    [FW_INIT] = { "", "" }, [FW_SET] = { "", "" }, [FW_NO_WEIGHTS] = { "", "" },
    [FW_ONE_HEAD] = { "one head", "una cabeza" },
    [FW_DK_ONE] = { "heads one column wide", "cabezas de una columna" },
    [FW_ONE_TOKEN] = { "one token", "un token" },
    [FW_BIAS] = { "a bias N(0, 1) (seed 20)", "un sesgo N(0, 1) (semilla 20)" },
    [FW_HIDDEN] = { "hidden keys: a bias of 0 and -inf, row 2 sees no key",
                    "keys ocultas: un sesgo de 0 y -inf, la fila 2 no ve ninguna key" },
    [FW_HIDDEN_NO_WEIGHTS] = { "hidden keys: a bias of 0 and -inf, row 2 sees no key",
                               "keys ocultas: un sesgo de 0 y -inf, la fila 2 no ve ninguna key" },
    [FW_CAUSAL] = { "a causal bias: token t sees tokens 0 .. t",
                    "un sesgo causal: el token t ve los tokens 0 .. t" },
};

/* shape_bias - the bias of a fixed layer's case, or NULL */
static const double *shape_bias(int which)
{
    if (which == FW_BIAS) return lab_normals(16, 1.0, 20);
    if (which == FW_HIDDEN || which == FW_HIDDEN_NO_WEIGHTS) return lab_fresh(25, hidden_bias);
    if (which != FW_CAUSAL) return NULL;
    double *b = lab_fresh(36, NULL);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) b[i * 6 + j] = j <= i ? 0.0 : -INFINITY;
    return b;
}

/* extreme_bias - a (T, T) bias of very large and very negative finite
 * values: row 0 all -1e300 (every key as far down: uniform weights), the
 * other rows +1e300, -1e300, -inf or N(0, 1), drawn from the run's seed */
static double *extreme_bias(int T, uint64_t salt)
{
    double *b = lab_random((size_t)T * T, 1.0, salt);
    for (size_t e = 0; e < (size_t)T * T; e++) {
        double u = b[e];
        b[e] = e < (size_t)T || fabs(u) < 0.3 ? -1e300 : u > 1.0 ? 1e300
             : u < -1.0 ? -INFINITY : u;
    }
    return b;
}

/* long_case - a long sequence at Mini-GPT's width, twice: the same shape
 * again with fresh values, a bias that hides keys and no weights; what the
 * case is, before its shape */
static mha *long_case(mha_case *c, bool again, const char **what)
{
    c->T = (int)lab_random_int(256, 320, SALT_FW_LONG_SHAPE);
    c->d_model = 64, c->n_heads = 1 << lab_random_int(0, 4, SALT_FW_LONG_SHAPE + 100);
    uint64_t salt = again ? SALT_FW_AGAIN : SALT_FW_LONG;
    mha *layer = random_layer(c->d_model, c->n_heads, 0.125, salt);
    c->x = lab_random((size_t)c->T * c->d_model, 1.0, salt + 1000);
    if (!again) return layer;
    double *b = lab_random((size_t)c->T * c->T, 1.0, salt + 2000);
    for (size_t e = 0; e < (size_t)c->T * c->T; e++)
        if (b[e] > 1.2) b[e] = -INFINITY;
    c->bias = b;
    c->weights = false;
    *what = EN_ES("the same shape again, fresh values and a bias N(0, 1) that hides about a "
                  "tenth of the keys, weights = NULL: ",
                  "la misma forma otra vez, valores nuevos y un sesgo N(0, 1) que oculta una "
                  "décima parte de las keys, weights = NULL: ");
    return layer;
}

/* random_case - the cases of mha_forward drawn from the run's seed: shapes,
 * values and weights (c->name says which, with the seed); the layer for
 * mha_forward. Each pair of cases that shares a shape does so on purpose
 * (fresh values for one shape); no other shares one with another case. */
static mha *random_case(mha_case *c, int which)
{
    mha *layer = NULL;
    const char *what = "";
    c->weights = true;
    if (which == FW_LONG || which == FW_LONG_AGAIN) {
        layer = long_case(c, which == FW_LONG_AGAIN, &what);
    } else if (which == FW_T1 || which == FW_T1_HIDDEN) {
        /* one token: its one key seen (weight 1), or hidden (weight 0, out 0) */
        bool hidden = which == FW_T1_HIDDEN;
        int H = (int)lab_random_int(1, 4, SALT_FW_T1_SHAPE);
        int d = H * (int)lab_random_int(3, 5, SALT_FW_T1_SHAPE + 100);  /* not (1, 6, 3) */
        uint64_t salt = hidden ? SALT_FW_T1_HIDDEN : SALT_FW_T1;
        c->T = 1, c->d_model = d, c->n_heads = H;
        layer = random_layer(d, H, 0.5, salt);
        c->x = lab_random((size_t)d, 2.0, salt + 1000);
        if (hidden) {
            c->bias = lab_fresh(1, (const double[1]){ -INFINITY });
            what = EN_ES("one token whose only key is hidden, bias = [[-inf]] (weights 0, "
                         "out 0): ",
                         "un token cuya única key está oculta, sesgo = [[-inf]] (pesos 0, "
                         "out 0): ");
        }
    } else if (which == FW_EXTREME_BIAS) {
        c->T = (int)lab_random_int(13, 24, SALT_FW_EXTREME), c->d_model = 8, c->n_heads = 2;
        layer = random_layer(8, 2, 0.5, SALT_FW_EXTREME);
        c->x = lab_random((size_t)c->T * 8, 2.0, SALT_FW_EXTREME + 1000);
        c->bias = extreme_bias(c->T, SALT_FW_EXTREME + 2000);
        what = EN_ES("very large and very negative finite biases, +1e300 and -1e300 among "
                     "-inf and N(0, 1), row 0 all -1e300: ",
                     "sesgos finitos muy grandes y muy negativos, +1e300 y -1e300 entre -inf "
                     "y N(0, 1), la fila 0 toda -1e300: ");
    } else {             /* FW_LARGE_X */
        c->T = (int)lab_random_int(4, 12, SALT_FW_LARGE_X), c->d_model = 12, c->n_heads = 3;
        layer = random_layer(12, 3, 0.35, SALT_FW_LARGE_X);
        c->x = lab_random((size_t)c->T * 12, 1e100, SALT_FW_LARGE_X + 1000);
        c->weights = false;       /* one tolerance for both outputs, out's: about 1e90 */
        what = EN_ES("very large x, N(0, (1e100)^2), so that each query's scores, about "
                     "1e200, pick one key, weights = NULL: ",
                     "x muy grande, N(0, (1e100)^2), así que las puntuaciones de cada "
                     "query, unas 1e200, eligen una key, weights = NULL: ");
    }
    random_name(c, what);
    return layer;
}

/* worked_case - chapter 03's worked example, named */
static mha *worked_case(mha_case *c)
{
    char x[80], wo[120];
    c->weights = true;
    mha *layer = worked_layer(c, x, wo);
    snprintf(c->name, sizeof c->name,
             EN_ES("worked example of chapter 03: X = %s, W_Q = W_K = W_V = I, W_O = %s",
                   "ejemplo resuelto del capítulo 03: X = %s, W_Q = W_K = W_V = I, W_O = %s"),
             x, wo);
    return layer;
}

static void mha_case_make(mha_case *c, int which)
{
    memset(c, 0, sizeof *c);
    mha *layer = NULL;
    const char *what = NULL;
    char extra[160] = "";
    if (which == FW_WORKED) {
        layer = worked_case(c);
    } else if (which == FW_PLANTED) {
        c->weights = true;
        layer = planted_case(c);
        what = EN_ES("chapter 03's eight tokens \"I work , you work , he ___\" through its "
                     "four planted heads",
                     "los ocho tokens del capítulo 03 \"I work , you work , he ___\" por sus "
                     "cuatro cabezas plantadas");
    } else if (which >= FW_LONG && which <= FW_LARGE_X) {
        layer = random_case(c, which);
    } else {
        if (which < FW_INIT || which > FW_CAUSAL) lab_bug("no case %d of mha_forward", which);
        layer = shape_layer(c, &shapes[which], extra, sizeof extra);
        c->bias = shape_bias(which);
        what = shape_what[which][lab_es()];
    }
    take_layer(c, layer);
    mm_status st = mha_forward(c->want_out, c->want_w, layer, c->x, c->bias, c->T);
    mha_free(layer);
    if (st != MM_OK) lab_bug("the reference failed: %s", mm_last_error());
    /* the numbers chapter 03 states for its worked example, to 4 places */
    static const double out0[4] = { 1.3057, 0.8471, 0.2987, 0.3506 };
    for (int j = 0; which == FW_WORKED && j < 4; j++)
        if (fabs(c->want_out[j] - out0[j]) > 5e-5)
            lab_bug("the worked example gives out row 0 (%.4f, %.4f, %.4f, %.4f), not chapter "
                    "03's (1.3057, 0.8471, 0.2987, 0.3506)", c->want_out[0], c->want_out[1],
                    c->want_out[2], c->want_out[3]);
    case_name(c, what, extra);
}

/* the buffers of mha_forward: layer_check.h's, with a bias */
enum { N_BUFS = B_BIAS + 1 };

/* who reads the layer, in layer_kept's hint */
static const char *const forward_reads[2] = { "a forward pass", "una pasada hacia delante" };

/* forward_call - the learner's mha_forward with b[] (NULL layer->w_qkv:
 * layer = NULL), T and the layer's sizes; the layer's struct, when there
 * is one, read back after the call (layer_kept) */
static mm_status forward_call(lab_mat *const b[N_BUFS], long T, int d_model, int n_heads)
{
    return layer_call("mha_forward", b, N_BUFS, T, d_model, n_heads, forward_reads);
}

/* forward_stages - after out was wrong on case c (b[] the call's buffers): each head's
 * weights if they are wrong (then the mistake is before W_O: nothing more to show), else
 * the heads side by side before W_O (the learner's mha_forward again, W_O = I) */
static void forward_stages(const mha_case *c, lab_mat *const b[N_BUFS])
{
    size_t n = (size_t)c->T * c->d_model;
    if (lab_close(b[B_OUT]->p, c->want_out, n, lab_scale(c->want_out, n))) return;
    if (show_weights(c, b[B_WEIGHTS])) return;
    double *eye = lab_fresh((size_t)c->d_model * c->d_model, NULL);
    mha layer = eye_layer(c, eye);
    double *concat = lab_fresh(n, NULL), *w = lab_fresh((size_t)c->n_heads * c->T * c->T, NULL);
    LAB_REF(mha_forward(concat, w, &layer, c->x, c->bias, c->T));
    show_concat(c, "mha_forward", N_BUFS, concat);
}

static void check_forward(int which)
{
    mha_case c;
    mha_case_make(&c, which);
    lab_case("%s", c.name);
    lab_mat *b[N_BUFS];
    case_bufs(b, N_BUFS, &c);
    mm_status st = forward_call(b, c.T, c.d_model, c.n_heads);
    const double *want[2] = { c.want_out, c.want_w };
    if (lab_check_values(st, c.weights ? 2 : 1, b, want, diagnose_forward, &c)) return;
    if (st == MM_OK) {
        forward_stages(&c, b);
        return;
    }
    const char *why = lab_learner_error();
    if (strncmp(why, "mha_split_heads", 15) == 0 || strncmp(why, "mha_merge_heads", 15) == 0)
        forward_callee_hint(why);
    else if (which == FW_EXTREME_BIAS && st == MM_EINVAL)
        check_hint(CH_LARGE_BIAS);
    else if (which == FW_LARGE_X && st == MM_ERANGE)
        check_hint(CH_LARGE_SCORES);
    else if (st == MM_EINVAL && c.bias && strstr(why, "bias"))
        check_hint(CH_MINUS_INF_BIAS);
    else if (st == MM_EINVAL && strncmp(why, "sdpa", 4) == 0)
        check_hint(CH_SDPA_REFUSED);
}

/* ---- mha_forward: bad arguments ------------------------------------------------------------ */

/* untouched - after a call refused with MM_EINVAL, out and weights must
 * hold what they held */
static bool untouched(lab_mat *const b[N_BUFS], const char *when)
{
    for (int o = B_OUT; o <= B_WEIGHTS; o++) {
        const lab_mat *m = b[o];
        if (!m || m->input) continue;
        if (m->n >= 2 && m->p[0] <= MHA_ALIAS_TAG && m->p[1] <= MHA_ALIAS_TAG) continue;
        for (size_t e = 0; e < m->n; e++)
            if (m->p[e] != LAB_UNWRITTEN) {
                lab_fail(EN_ES("mha_forward refused the call %s, as it should, but wrote %s "
                               "first (element (%zu, %zu) is %g): a call refused with "
                               "MM_EINVAL writes nothing",
                               "mha_forward rechazó la llamada %s, como debe, pero antes "
                               "escribió %s (el elemento (%zu, %zu) es %g): una llamada "
                               "rechazada con MM_EINVAL no escribe nada"),
                         when, m->name, e / m->cols, e % m->cols, m->p[e]);
                check_hint(CH_FORWARD_CHECK_FIRST);
                return false;
            }
    }
    return true;
}

/* refused - call mha_forward with b[] and T, require want (MM_EINVAL: and
 * nothing written); when says which call. False if the status was not
 * want (a write before the refusal is a failure of its own, with its own
 * hint) */
static bool refused(lab_mat *const b[N_BUFS], long T, mm_status want, const char *when)
{
    mm_status st = forward_call(b, T, 2, 1);
    if (!lab_expect_status(st, want, when)) return false;
    if (want == MM_EINVAL) untouched(b, when);
    return true;
}

static void check_forward_nulls(int unused)
{
    (void)unused;
    layer_nulls(N_BUFS, refused);
}

static void check_forward_sizes(int unused)
{
    (void)unused;
    if (!layer_sizes(N_BUFS, refused,
                     EN_ES("for T = INT_MAX: a (T, T) matrix of scores would hold about 2^62 "
                           "doubles",
                           "con T = INT_MAX: una matriz (T, T) de puntuaciones tendría unos 2^62 "
                           "doubles")))
        check_hint(CH_LAYER_SIZE_PRODUCT);
}

/* check_forward_aliases - which 0: out, then weights, the same buffer as
 * another argument; which 1: two partial overlaps (calls.c passes the
 * buffer twice) */
static void check_forward_aliases(int which)
{
    static const struct { int output, other, off; } pairs[] = {
        { B_OUT, B_X, 0 }, { B_OUT, B_BIAS, 0 }, { B_OUT, B_WQKV, 0 }, { B_OUT, B_WO, 0 },
        { B_WEIGHTS, B_X, 0 }, { B_WEIGHTS, B_BIAS, 0 }, { B_WEIGHTS, B_OUT, 0 },
        { B_WEIGHTS, B_WQKV, 0 },
        { B_OUT, B_X, 2 }, { B_WEIGHTS, B_OUT, 1 },
    };
    bool ok = true, overlap = false;
    size_t from = which ? 8 : 0, to = which ? 10 : 8;      /* at most 64 buffers a check */
    for (size_t i = from; i < to; i++) {
        int o = pairs[i].output, other = pairs[i].other, off = pairs[i].off;
        lab_mat *b[N_BUFS];
        rooms_with(b, N_BUFS, NULL, NULL, NULL, NULL);
        if (off)          /* the other buffer is longer, so the overlap stays inside it */
            b[other] = other == B_OUT ? lab_out("out", 3, 2)
                                      : lab_in(buf_name[other], 3, 2,
                                               (const double[6]){ 1, 0, 0, 1, 1, 1 });
        const char *shown = lab_alias_name(buf_name[other], off);
        b[o]->name = shown;                       /* an output of rooms, (2, 2) */
        b[o]->p[0] = MHA_ALIAS_TAG - other;
        b[o]->p[1] = MHA_ALIAS_TAG - off;
        lab_case("%s = %s", buf_name[o], shown);
        char when[96];
        lab_alias_when(when, sizeof when, buf_name[o], buf_name[other], off);
        bool right = refused(b, 2, MM_EINVAL, when);
        ok &= right;
        overlap |= !right && off;
    }
    if (!ok)
        check_hint(CH_SAME_BUFFER);
    if (overlap)
        check_hint(CH_OVERLAP);
}

/* bad_call_run - mha_forward on the rooms but x, bias, W_QKV and W_O (NULL: the rooms'
 * own) must return want; name says which call */
static bool bad_call_run(const char *name, const double *x, const double *bias,
                         const double *wqkv, const double *wo, mm_status want)
{
    lab_mat *b[N_BUFS];
    rooms_with(b, N_BUFS, wqkv, wo, x, bias);
    char when[200];
    lab_case_when(when, sizeof when, "%s", name);
    return refused(b, 2, want, when);
}

/* check_forward_values - x not finite, a bias NaN or +inf: MM_EINVAL, nothing written */
static void check_forward_values(int unused)
{
    (void)unused;
    static const struct {
        const char *name;
        double x[4], bias[4];
    } calls[] = {
        { "x[1] = NaN", { 1, NAN, 0, 1 }, { 0 } },
        { "x[2] = +inf", { 1, 0, INFINITY, 1 }, { 0 } },
        { "x[3] = -inf", { 1, 0, 0, -INFINITY }, { 0 } },
        { "bias[1] = NaN", { 1, 0, 0, 1 }, { 0, NAN, 0, 0 } },
        { "bias[2] = +inf", { 1, 0, 0, 1 }, { 0, 0, INFINITY, 0 } },
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        ok &= bad_call_run(calls[i].name, calls[i].x, calls[i].bias, NULL, NULL, MM_EINVAL);
    if (!ok)
        check_hint(CH_NOT_FINITE);
}

/* check_forward_overflow - finite inputs whose products overflow: MM_ERANGE */
static void check_forward_overflow(int unused)
{
    (void)unused;
    static const struct {
        const char *name[2];
        double x[4], wqkv[12], wo[4];
    } calls[] = {
        { { "x[0] = 1e200, W_Q[0][0] = 1e200: X W_QKV overflows",
            "x[0] = 1e200, W_Q[0][0] = 1e200: X W_QKV desborda" },
          { 1e200, 0, 0, 1 }, { 1e200, 0, 0, 1, 2, 0, 0, 1, 1, 0, 0, 3 }, { 1, 0, 0, 1 } },
        { { "x[0] = 1e160, W_Q = W_K = W_V = I: the score q_0 . k_0 = 1e320 overflows",
            "x[0] = 1e160, W_Q = W_K = W_V = I: la puntuación q_0 . k_0 = 1e320 desborda" },
          { 1e160, 0, 0, 1 }, { 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1 }, { 1, 0, 0, 1 } },
        { { "x[0] = 1e300, W_V = 10 I, W_O = 1e10 I: the heads' outputs times W_O overflow",
            "x[0] = 1e300, W_V = 10 I, W_O = 1e10 I: las salidas de las cabezas por W_O "
            "desbordan" },
          { 1e300, 0, 0, 1 }, { 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 10 }, { 1e10, 0, 0, 1e10 } },
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        ok &= bad_call_run(calls[i].name[lab_es()], calls[i].x, NULL, calls[i].wqkv, calls[i].wo,
                           MM_ERANGE);
    if (!ok)
        check_hint(CH_OVERFLOW);
}

/* ---- the tables, from the descriptor -------------------------------------------------- */

LAB_JUDGE_TABLES(LAB03);
