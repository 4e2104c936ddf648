/* check.c - the checks of lab 02, run by the judge: softmax_row on rows of
 * scores (chapter 01's worked example scaled, random rows, scores of ±1000,
 * hidden keys, bad arguments), and sdpa on chapter 01's worked example
 * (tangled/examples/ch01-worked.h, scaled: the numbers chapter 02 states),
 * non-square shapes in both directions, random shapes, large scores, a
 * bias, hidden keys, weights passed or NULL, and bad arguments. The
 * learner's results (from its own process, through lab_call) are compared
 * with the library's, the reference. The checks of one function run in
 * this order against one learner process, on cases of different shapes, so
 * that state kept between calls shows. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "examples/ch01-worked.h"
#include "minimodel/attention/qkv.h"
#include "alias.h"
#include "lab02.h"
#include "lab02.def"

const char *row_text(const double *s, int n)
{
    enum { SIZE = 160 };          /* nine numbers of at most 13 characters fit */
    char *text = lab_temp(SIZE);
    int len = snprintf(text, SIZE, "(");
    for (int j = 0; j < n && len < SIZE; j++) {
        if (j == 8 && n > 9) {
            len += snprintf(text + len, SIZE - len, ", ...");
            j = n - 2;
            continue;
        }
        len += snprintf(text + len, SIZE - len, "%s%.6g", j ? ", " : "", s[j]);
    }
    if (len < SIZE) snprintf(text + len, SIZE - len, ")");
    return text;
}

/* ---- softmax_row ------------------------------------------------------------------ */

#define SQRT1_2 0.70710678118654752440      /* 1 / sqrt 2 */

enum { SM_WORKED, SM_THREE, SM_ONE_HIDDEN, SM_LARGE, SM_LARGE_NEG, SM_HIDDEN, SM_ALL_HIDDEN,
       /* drawn from the run's seed */
       SM_RANDOM, SM_RANDOM_SAME_N, SM_ONE, SM_ABOVE_FLT_MAX, SM_BELOW_HALF_DBL_MAX, SM_LONG };

/* the rows, by check: a fixed row's n, scores and name; for a row drawn
 * from the run's seed (n = 0), what its name says first */
static const struct {
    int n;
    double s[6];
    const char *name[2];
} softmax_rows[] = {
    [SM_WORKED] = { 2, { 0, SQRT1_2 },
      { "row 0 of chapter 01's worked example, scaled: s = (0, 1/sqrt 2)",
        "fila 0 del ejemplo resuelto del capítulo 01, escalada: s = (0, 1/sqrt 2)" } },
    [SM_THREE] = { 3, { 3, 1, 0 }, { "s = (3, 1, 0)", "s = (3, 1, 0)" } },
    [SM_ONE_HIDDEN] = { 1, { -INFINITY }, { "one score, hidden: s = (-inf)",
                                            "una sola puntuación, oculta: s = (-inf)" } },
    [SM_LARGE] = { 3, { 1003, 1001, 1000 },
      { "large scores: s = (1003, 1001, 1000), the weights of (3, 1, 0)",
        "puntuaciones grandes: s = (1003, 1001, 1000), los pesos de (3, 1, 0)" } },
    [SM_LARGE_NEG] = { 3, { -1000, -1001, -1010 },
      { "large negative scores: s = (-1000, -1001, -1010)",
        "puntuaciones negativas grandes: s = (-1000, -1001, -1010)" } },
    [SM_HIDDEN] = { 4, { -INFINITY, 2, -INFINITY, 0.5 },
      { "hidden keys: s = (-inf, 2, -inf, 0.5)", "keys ocultas: s = (-inf, 2, -inf, 0.5)" } },
    [SM_ALL_HIDDEN] = { 3, { -INFINITY, -INFINITY, -INFINITY },
      { "every key hidden: s = (-inf, -inf, -inf)",
        "todas las keys ocultas: s = (-inf, -inf, -inf)" } },
    [SM_RANDOM] = { 0, { 0 }, { "random", "aleatoria" } },
    [SM_RANDOM_SAME_N] = { 0, { 0 },
      { "random, the same n again with fresh scores:",
        "aleatoria, la misma n otra vez con puntuaciones nuevas:" } },
    [SM_ONE] = { 0, { 0 }, { "one score", "una sola puntuación" } },
    [SM_ABOVE_FLT_MAX] = { 0, { 0 }, { "scores above FLT_MAX",
                                       "puntuaciones por encima de FLT_MAX" } },
    [SM_BELOW_HALF_DBL_MAX] = { 0, { 0 }, { "scores below -DBL_MAX/2",
                                            "puntuaciones por debajo de -DBL_MAX/2" } },
};

/* the salts of the rows drawn from the seed: each row has its own, and
 * SM_RANDOM_SAME_N takes SM_RANDOM's n */
enum { SALT_SM_N = 10, SALT_SM_SCORES = 20, SALT_SM_PICK = 1000 };

/* uniform - a number from 0 to 1, from an N(0, 1) draw z (the normal's
 * distribution function) */
static double uniform(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

/* above_flt_max - (1 + |z| / 13) 2^e, e from 130: at least 1.36e39, far
 * above FLT_MAX (3.4e38, where a float overflows); below 2^1021 for e up
 * to 1020 (|z| is at most 12.01) */
static double above_flt_max(double z, long e) { return ldexp(1.0 + fabs(z) / 13, (int)e); }

/* extreme_row - n scores (3 to 8) at the far ends of a double: the top
 * value at 1 to 3 places, the others below it. Above FLT_MAX (up): the top
 * from 1.4e39 to 1.8e308, the others its negative, N(0, 2^2) scores or
 * -inf. Below -DBL_MAX/2 (not up): the top from -0.9 DBL_MAX to -0.5
 * DBL_MAX, the others -DBL_MAX, 1.001 times the top, or -inf. The weights
 * are 1/k at each of the k tops, 0 elsewhere - unless the scores go
 * through a float (3.4e38 at most) or a maximum that starts at some
 * "small enough" value */
static double *extreme_row(int *n_out, bool up, uint64_t salt)
{
    int n = (int)lab_random_int(3, 8, salt);
    const double *z = lab_random(n + 1, 1.0, salt + 1);
    double top = up ? above_flt_max(z[n], lab_random_int(130, 1020, salt + 2))
                    : -DBL_MAX * (0.5 + 0.4 * uniform(z[n]));
    double *s = lab_fresh((size_t)n, NULL);
    int k = (int)lab_random_int(1, 3, salt + 3);
    for (int j = 0; j < n; j++) {
        long pick = lab_random_int(0, 2, salt + SALT_SM_PICK + (uint64_t)j);
        s[j] = pick == 2 ? -INFINITY
             : up ? (pick == 0 ? -top : 2.0 * z[j]) : (pick == 0 ? -DBL_MAX : 1.001 * top);
    }
    for (int i = 0; i < k; i++)                  /* the tops, at k places (some may repeat) */
        s[lab_random_int(0, n - 1, salt + 4 + (uint64_t)i)] = top;
    *n_out = n;
    return s;
}

/* seeded_row - the row of check which (SM_RANDOM ...), drawn from the
 * run's seed, and its name */
static double *seeded_row(softmax_case *c, int which)
{
    const uint64_t salt = SALT_SM_SCORES + 10 * (uint64_t)(which - SM_RANDOM);
    double *s;
    if (which == SM_LONG) {
        c->n = (int)lab_random_int(256, 400, salt);
        s = lab_random((size_t)c->n, 2.0, salt + 1);
        int hidden = (int)lab_random_int(0, c->n - 1, salt + 2);
        s[hidden] = -INFINITY;
        snprintf(c->name, sizeof c->name,
                 EN_ES("long row: n=%d, N(0, 2^2) scores, key %d hidden (seed %llu)",
                       "fila larga: n=%d, puntuaciones N(0, 2^2), key %d oculta (semilla %llu)"),
                 c->n, hidden, (unsigned long long)lab_seed());
        return s;
    }
    if (which == SM_ABOVE_FLT_MAX || which == SM_BELOW_HALF_DBL_MAX) {
        s = extreme_row(&c->n, which == SM_ABOVE_FLT_MAX, salt);
    } else {
        c->n = which == SM_ONE ? 1 : (int)lab_random_int(2, 12, SALT_SM_N);
        s = lab_random((size_t)c->n, which == SM_ONE ? 3.0 : 2.0, salt);
    }
    snprintf(c->name, sizeof c->name, EN_ES("%s n=%d: s = %s (seed %llu)",
                                            "%s n=%d: s = %s (semilla %llu)"),
             softmax_rows[which].name[lab_es()], c->n, row_text(s, c->n),
             (unsigned long long)lab_seed());
    return s;
}

/* softmax_case_make - the row of check which: fixed, or drawn from the seed */
static void softmax_case_make(softmax_case *c, int which)
{
    if (which >= SM_RANDOM) {
        c->s = seeded_row(c, which);
    } else {
        c->n = softmax_rows[which].n;
        c->s = lab_fresh(c->n, softmax_rows[which].s);
        snprintf(c->name, sizeof c->name, "%s", softmax_rows[which].name[lab_es()]);
    }
    double *want = lab_fresh(c->n, c->s);
    LAB_REF(softmax_row(want, c->n));
    c->want = want;
}

/* softmax_in_place - the learner's row buffer s: an output (the learner
 * writes it) that arrives holding the scores */
static lab_mat *softmax_in_place(const double *s, int n)
{
    lab_mat *m = lab_out("s", 1, n);
    memcpy(m->p, s, (size_t)n * sizeof *m->p);
    return m;
}

static bool has_minus_inf(const double *s, int n)
{
    for (int j = 0; j < n; j++)
        if (s[j] == -INFINITY) return true;
    return false;
}

static void check_softmax(int which)
{
    softmax_case c;
    softmax_case_make(&c, which);
    lab_case("%s", c.name);
    lab_mat *s = softmax_in_place(c.s, c.n);
    mm_status st = lab_call("softmax_row", LAB_BUFS(s), LAB_INTS(c.n));
    const double *want[1] = { c.want };
    lab_check_values(st, 1, &s, want, diagnose_softmax, &c);
    if (st == MM_EINVAL && has_minus_inf(c.s, c.n))
        contract_hint(CH_MINUS_INF_SCORE);
}

/* unchanged - after a call that failed as it should, s must hold what it
 * was given; when says which call */
static bool unchanged(const lab_mat *s, const double *given, const char *when)
{
    for (size_t j = 0; j < s->n; j++) {
        if (memcmp(&s->p[j], &given[j], sizeof given[j]) == 0) continue;
        lab_fail(EN_ES("softmax_row failed %s, as it should, but changed s: element %zu was "
                       "%g, is now %g; a failed call leaves s as it was",
                       "softmax_row falló %s, como debe, pero cambió s: el elemento %zu era "
                       "%g y ahora es %g; una llamada fallida deja s como estaba"),
                 when, j, given[j], s->p[j]);
        contract_hint(CH_SOFTMAX_CHECK_FIRST);
        return false;
    }
    return true;
}

static void check_softmax_null(int unused)
{
    (void)unused;
    lab_case("s = NULL");
    mm_status st = lab_call("softmax_row", LAB_BUFS(NULL), LAB_INTS(3));
    if (!lab_expect_status(st, MM_EINVAL, EN_ES("for s = NULL", "con s = NULL")))
        lab_null_hint();
}

static void check_softmax_sizes(int unused)
{
    (void)unused;
    static const double row[3] = { 1, 2, 3 };
    static const int bad[] = { 0, -1 };
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        char when[48];
        lab_case_when(when, sizeof when, "n = %d", bad[i]);
        lab_mat *s = softmax_in_place(row, 3);
        mm_status st = lab_call("softmax_row", LAB_BUFS(s), LAB_INTS(bad[i]));
        if (lab_expect_status(st, MM_EINVAL, when)) ok &= unchanged(s, row, when);
        else ok = false;
    }
    if (!ok) lab_size_hint();
}

/* the rows a check refuses: each holds one NaN or +inf, after finite
 * scores, or alone */
static const struct { const char *name; int n; double s[4]; } bad_rows[] = {
    { "s = (0.5, 1, -inf, NaN)", 4, { 0.5, 1, -INFINITY, NAN } },
    { "s = (2, +inf, 1)", 3, { 2, INFINITY, 1 } },
    { "s = (NaN)", 1, { NAN } },
};

static void check_softmax_bad(int which)
{
    const double *row = bad_rows[which].s;
    int n = bad_rows[which].n;
    char when[80];
    lab_case_when(when, sizeof when, "%s", bad_rows[which].name);
    lab_mat *s = softmax_in_place(row, n);
    mm_status st = lab_call("softmax_row", LAB_BUFS(s), LAB_INTS(n));
    if (!lab_expect_status(st, MM_EINVAL, when)) {
        contract_hint(CH_SOFTMAX_BAD_SCORE);
        return;
    }
    unchanged(s, row, when);
}

/* ---- sdpa: the cases ------------------------------------------------------------ */

/* the fixed non-square cases: no symmetry to hide a mistake */
static const double fq_q[] = { 1, 0, 2,   0, -1, 1 };                          /* (2, 3) */
static const double fq_k[] = { 1, 1, 0,   0, 2, 1,   -1, 0, 1,   2, 0, -1 };   /* (4, 3) */
static const double fq_v[] = { 1, 0,   0, 1,   2, -1,   -1, 3 };               /* (4, 2) */

static const double mq_q[] = { 1, 0,   0, 1,   1, 1,   -1, 2 };                /* (4, 2) */
static const double mq_k[] = { 2, 0,   0, 1,   1, -1 };                        /* (3, 2) */
static const double mq_v[] = { 1, 0, 2,   0, 3, 0,   -1, 1, 1 };               /* (3, 3) */

/* large scores: query 0 scores (1000, 999, 990), query 1 (-1000, -999, -990);
 * row 1 is 1990 below row 0's maximum */
static const double big_q[] = { 2000, 0, 0, 0,   -2000, 0, 0, 0 };             /* (2, 4) */
static const double big_k[] = { 1, 0, 0, 0,   0.999, 0, 0, 1,   0.99, 1, 0, 0 }; /* (3, 4) */
static const double big_v[] = { 1, 2,   3, -1,   0, 1 };                       /* (3, 2) */

static const double bias_q[] = { 1, 2,   -1, 0.5 };                            /* (2, 2) */
static const double bias_k[] = { 0.5, 1,   1, -1,   2, 0 };                    /* (3, 2) */
static const double bias_v[] = { 1, 0,   0, 2,   -1, 1 };                      /* (3, 2) */
static const double bias_b[] = { 0.5, -1, 2,   1, 0, -0.5 };                   /* (2, 3) */

static const double hid_q[] = { 1, 0,   0, 1,   1, -1 };                       /* (3, 2) */
static const double hid_k[] = { 1, 1,   -1, 0,   0, 2,   2, -1 };              /* (4, 2) */
static const double hid_v[] = { 1, 0, 2,   0, 1, -1,   3, 1, 0,   -2, 0, 1 };  /* (4, 3) */
static const double hid_b[] = { 0, -INFINITY, 0, -INFINITY,                    /* (3, 4) */
                                -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                0, 0, 0, -INFINITY };

enum { SD_WORKED, SD_FEWER_QUERIES, SD_MORE_QUERIES, SD_LARGE, SD_BIAS, SD_HIDDEN,
       SD_HIDDEN_NO_WEIGHTS,
       /* drawn from the run's seed */
       SD_NO_WEIGHTS, SD_RANDOM, SD_RANDOM_SAME_SHAPE, SD_RANDOM_BIAS, SD_ONE_KEY,
       SD_ONE_HIDDEN_KEY, SD_EXTREME, SD_LONG };

/* the cases, by check: the shape (T_q, T_k, d_k, d_v), each size lo or
 * drawn from lo to hi; whether weights is passed; a fixed case's inputs q,
 * k, v and bias (q NULL: drawn from the run's seed); what the name says first */
static const struct {
    int lo[4], hi[4];
    bool weights;
    const double *in[4];
    const char *what[2];
} sdpa_cases[] = {
    [SD_WORKED] = { { CH01_T, CH01_T, CH01_D, CH01_D }, { 0 }, true, { NULL }, { NULL } },
    [SD_FEWER_QUERIES] = { { 2, 4, 3, 2 }, { 0 }, true, { fq_q, fq_k, fq_v, NULL },
                           { "fewer queries than keys", "menos queries que keys" } },
    [SD_MORE_QUERIES] = { { 4, 3, 2, 3 }, { 0 }, true, { mq_q, mq_k, mq_v, NULL },
                          { "more queries than keys", "más queries que keys" } },
    [SD_LARGE] = { { 2, 3, 4, 2 }, { 0 }, true, { big_q, big_k, big_v, NULL },
                   { "large scores: row 0 (1000, 999, 990), row 1 (-1000, -999, -990)",
                     "puntuaciones grandes: fila 0 (1000, 999, 990), fila 1 (-1000, -999, "
                     "-990)" } },
    [SD_BIAS] = { { 2, 3, 2, 2 }, { 0 }, true, { bias_q, bias_k, bias_v, bias_b },
                  { "a bias [[0.5,-1,2],[1,0,-0.5]]", "un sesgo [[0.5,-1,2],[1,0,-0.5]]" } },
    [SD_HIDDEN] = { { 3, 4, 2, 3 }, { 0 }, true, { hid_q, hid_k, hid_v, hid_b },
                    { "hidden keys: bias [[0,-inf,0,-inf],[-inf,-inf,-inf,-inf],[0,0,0,-inf]] "
                      "(row 1 sees no key)",
                      "keys ocultas: sesgo [[0,-inf,0,-inf],[-inf,-inf,-inf,-inf],[0,0,0,-inf]] "
                      "(la fila 1 no ve ninguna key)" } },
    [SD_NO_WEIGHTS] = { { 3, 5, 4, 2 }, { 0 }, false, { NULL }, { "random", "aleatorio" } },
    [SD_RANDOM] = { { 2, 2, 2, 2 }, { 8, 8, 8, 6 }, true, { NULL }, { "random", "aleatorio" } },
    [SD_RANDOM_SAME_SHAPE] = { { 2, 2, 2, 2 }, { 8, 8, 8, 6 }, true, { NULL },
                               { "random, the same shape again with fresh values",
                                 "aleatorio, la misma forma otra vez con valores nuevos" } },
    [SD_RANDOM_BIAS] = { { 2, 2, 2, 2 }, { 8, 8, 8, 6 }, false, { NULL },
                         { "random, a bias N(0, 1) with one key hidden",
                           "aleatorio, un sesgo N(0, 1) con una key oculta" } },
    [SD_ONE_KEY] = { { 1, 1, 1, 1 }, { 1, 1, 6, 6 }, true, { NULL },
                     { "one query, one key", "una query, una key" } },
    [SD_ONE_HIDDEN_KEY] = { { 1, 1, 1, 1 }, { 1, 1, 6, 6 }, true, { NULL },
                            { "one query, one key, hidden: bias [[-inf]]",
                              "una query, una key, oculta: sesgo [[-inf]]" } },
    [SD_EXTREME] = { { 3, 3, 2, 2 }, { 6, 8, 6, 6 }, true, { NULL },
                     { "extreme scores (biases above FLT_MAX or below -DBL_MAX/2, queries "
                       "times 1e40)",
                       "puntuaciones extremas (sesgos por encima de FLT_MAX o por debajo de "
                       "-DBL_MAX/2, queries por 1e40)" } },
    [SD_LONG] = { { 256, 256, 2, 2 }, { 320, 320, 8, 8 }, false, { NULL },
                  { "long sequences", "secuencias largas" } },
};

/* the salts: each case its own, SD_RANDOM_SAME_SHAPE takes SD_RANDOM's shape */
enum { SALT_SD_SHAPE = 3000, SALT_SD_VALUES = 4000, SALT_SD_PICK = 100000 };

/* worked_example - chapter 01's example through the projections (the
 * reference's qkv_project), then scaled: Q = I, K = W_K, V = W_V */
static void worked_example(sdpa_case *c)
{
    enum { T = CH01_T, D = CH01_D };
    double *q = lab_fresh(T * D, NULL), *k = lab_fresh(T * D, NULL), *v = lab_fresh(T * D, NULL);
    LAB_REF(qkv_project(q, k, v, ch01_x, ch01_w_q, ch01_w_k, ch01_w_v, T, D, D, D));
    c->q = q;
    c->k = k;
    c->v = v;
    const double *m[3] = { q, k, v };
    char text[3][80];
    for (int i = 0; i < 3; i++) lab_mat_text(text[i], sizeof text[i], m[i], T, D);
    snprintf(c->name, sizeof c->name,
             EN_ES("worked example of chapter 01, scaled: Q = %s, K = %s, V = %s",
                   "ejemplo resuelto del capítulo 01, escalado: Q = %s, K = %s, V = %s"),
             text[0], text[1], text[2]);
}

/* extreme_bias_row - row i of the extreme case's bias (T_k), by kind:
 * 0 ties at a value from 1.4e39 to 2e301, far above FLT_MAX (3.4e38, where
 * a float overflows), among N(0, 1) biases, its negative and -inf; 1 ties
 * at a value from -0.9 DBL_MAX to -0.5 DBL_MAX among -DBL_MAX and -inf;
 * 2 zeros and one -inf (that row's query is scaled instead). Each score is
 * then its bias, the small q . k / sqrt(d_k) lost in the rounding, so the
 * weights are 1/k on the k ties of rows 0 and 1. */
static void extreme_bias_row(double *row, int T_k, int kind, uint64_t salt)
{
    const double *z = lab_random((size_t)T_k + 1, 1.0, salt);
    double top = kind == 0 ? above_flt_max(z[T_k], lab_random_int(130, 1000, salt + 1))
                           : -DBL_MAX * (0.5 + 0.4 * uniform(z[T_k]));
    for (int j = 0; j < T_k; j++) {
        long pick = lab_random_int(0, 3, salt + SALT_SD_PICK + (uint64_t)j);
        if (kind == 2) row[j] = 0.0;
        else if (pick == 0 || (kind == 1 && pick == 3)) row[j] = top;
        else if (pick == 1) row[j] = kind == 0 ? z[j] : -DBL_MAX;
        else if (pick == 2) row[j] = -INFINITY;
        else row[j] = -top;
    }
    if (kind == 2) row[lab_random_int(0, T_k - 1, salt + 2)] = -INFINITY;
    else row[lab_random_int(0, T_k - 1, salt + 2)] = top;       /* one tie at least */
}

/* seeded_values - q, k, v N(0, 1.5^2) from the run's seed and salt, and
 * the case's bias: none, N(0, 1) with one key of one query hidden, [[-inf]],
 * or the extreme case's: row i of kind i % 3 (extreme_bias_row), and the
 * queries of kind 2 scaled by 1e40 or -1e40 - scores far above FLT_MAX
 * from the dot products themselves, one key taking all the weight */
static void seeded_values(sdpa_case *c, int which, uint64_t salt)
{
    int T_q = c->T_q, T_k = c->T_k, d_k = c->d_k;
    double *q = lab_random((size_t)T_q * d_k, 1.5, salt), *bias = NULL;
    c->k = lab_random((size_t)T_k * d_k, 1.5, salt + 1);
    c->v = lab_random((size_t)T_k * c->d_v, 1.5, salt + 2);
    if (which == SD_RANDOM_BIAS) {
        bias = lab_random((size_t)T_q * T_k, 1.0, salt + 10);
        bias[lab_random_int(0, (long)T_q * T_k - 1, salt + 11)] = -INFINITY;
    } else if (which == SD_ONE_HIDDEN_KEY) {
        bias = lab_fresh(1, (const double[]){ -INFINITY });
    } else if (which == SD_EXTREME) {
        bias = lab_fresh((size_t)T_q * T_k, NULL);
        const double *sign = lab_random((size_t)T_q, 1.0, salt + 3);
        for (int i = 0; i < T_q; i++) {
            extreme_bias_row(bias + (size_t)i * T_k, T_k, i % 3, salt + 10 * (uint64_t)(i + 1));
            if (i % 3 == 2)
                for (int p = 0; p < d_k; p++) q[(size_t)i * d_k + p] *= copysign(1e40, sign[i]);
        }
    }
    c->q = q;
    c->bias = bias;
}

/* sdpa_case_make - case which: its shape, inputs and name, and the
 * reference's answer */
static void sdpa_case_make(sdpa_case *c, int which)
{
    const int row = which == SD_HIDDEN_NO_WEIGHTS ? SD_HIDDEN : which;     /* weights NULL */
    memset(c, 0, sizeof *c);
    const uint64_t shape = SALT_SD_SHAPE + 10 * (uint64_t)(which == SD_RANDOM_SAME_SHAPE
                                                          ? SD_RANDOM : which);
    int *size[4] = { &c->T_q, &c->T_k, &c->d_k, &c->d_v };
    for (int i = 0; i < 4; i++)
        *size[i] = (int)lab_random_int(sdpa_cases[row].lo[i], sdpa_cases[row].hi[i], shape + i);
    c->weights = sdpa_cases[row].weights && which != SD_HIDDEN_NO_WEIGHTS;
    const double *const *in = sdpa_cases[row].in;
    if (which == SD_WORKED) {
        worked_example(c);
    } else if (in[0]) {
        c->q = lab_fresh((size_t)c->T_q * c->d_k, in[0]);
        c->k = lab_fresh((size_t)c->T_k * c->d_k, in[1]);
        c->v = lab_fresh((size_t)c->T_k * c->d_v, in[2]);
        c->bias = in[3] ? lab_fresh((size_t)c->T_q * c->T_k, in[3]) : NULL;
    } else {
        seeded_values(c, which, SALT_SD_VALUES + 100 * (uint64_t)which);
    }
    if (which != SD_WORKED) {
        int len = snprintf(c->name, sizeof c->name, "%s: T_q=%d T_k=%d d_k=%d d_v=%d%s",
                           sdpa_cases[row].what[lab_es()], c->T_q, c->T_k, c->d_k, c->d_v,
                           c->weights ? "" : ", weights = NULL");
        if (!in[0] && len < (int)sizeof c->name)
            snprintf(c->name + len, sizeof c->name - len, EN_ES(" (seed %llu)", " (semilla %llu)"),
                     (unsigned long long)lab_seed());
    }
    c->want_out = lab_fresh((size_t)c->T_q * c->d_v, NULL);
    c->want_w = lab_fresh((size_t)c->T_q * c->T_k, NULL);
    LAB_REF(sdpa(c->want_out, c->want_w, c->q, c->k, c->v, c->bias,
                 c->T_q, c->T_k, c->d_k, c->d_v));
    /* the numbers chapter 02 states for its worked example, to 4 places */
    if (which == SD_WORKED &&
        (fabs(c->want_w[0] - 0.3302) > 5e-5 || fabs(c->want_w[1] - 0.6698) > 5e-5 ||
         fabs(c->want_out[0] - 0.6605) > 5e-5 || fabs(c->want_out[1] - 2.0093) > 5e-5))
        lab_bug("the worked example gives weights (%.4f, %.4f) and out row 0 (%.4f, %.4f), "
                "not chapter 02's (0.3302, 0.6698) and (0.6605, 2.0093)", c->want_w[0],
                c->want_w[1], c->want_out[0], c->want_out[1]);
}

/* ---- sdpa: the scores a wrong weights implies ------------------------------------- */

/* shifted_scores - case c's scores q k^T / sqrt(d_k) + bias (T_q, T_k), each row minus its
 * largest; -inf where the weight is 0 (a hidden key, or one too far below the top) */
static double *shifted_scores(const sdpa_case *c)
{
    int T_q = c->T_q, T_k = c->T_k, d_k = c->d_k;
    double *s = lab_fresh((size_t)T_q * T_k, NULL);
    for (int i = 0; i < T_q; i++) {
        double *row = s + (size_t)i * T_k, top = -INFINITY;
        for (int j = 0; j < T_k; j++) {
            const double *q_i = c->q + (size_t)i * d_k, *k_j = c->k + (size_t)j * d_k;
            double dot = 0.0;
            for (int p = 0; p < d_k; p++) dot += q_i[p] * k_j[p];
            row[j] = dot / sqrt((double)d_k) + (c->bias ? c->bias[(size_t)i * T_k + j] : 0.0);
            top = fmax(top, row[j]);
        }
        for (int j = 0; j < T_k; j++)
            row[j] = top == -INFINITY || exp(row[j] - top) == 0.0 ? -INFINITY : row[j] - top;
    }
    return s;
}

/* implied_scores - the scores weights w (T_q, T_k) imply, each row minus its largest: log w
 * minus the row's largest; -inf where w is 0, NaN where it is below 0 or NaN */
static double *implied_scores(const double *w, int T_q, int T_k)
{
    double *s = lab_fresh((size_t)T_q * T_k, NULL);
    for (int i = 0; i < T_q; i++) {
        const double *w_i = w + (size_t)i * T_k;
        double top = -INFINITY;
        for (int j = 0; j < T_k; j++)
            if (w_i[j] > 0) top = fmax(top, log(w_i[j]));
        for (int j = 0; j < T_k; j++)
            s[(size_t)i * T_k + j] = w_i[j] > 0 ? log(w_i[j]) - top : w_i[j] == 0 ? -INFINITY
                                                                                   : NAN;
    }
    return s;
}

/* score_ratio - got / want, the same for every pair of finite scores (want's not near 0) and
 * both -inf alike elsewhere; NaN if there is no such ratio */
static double score_ratio(const double *got, const double *want, size_t n)
{
    double r = NAN;
    for (size_t e = 0; e < n; e++) {
        if (!isfinite(got[e]) || !isfinite(want[e])) {
            if (got[e] != want[e]) return NAN;
            continue;
        }
        if (fabs(want[e]) < 1e-6) continue;
        double q = got[e] / want[e];
        if (isnan(r)) r = q;
        else if (fabs(q - r) > 1e-6 * fabs(r)) return NAN;
    }
    return r;
}

/* scale_slip - the line that names the scale slip r (got / want, the scores) on case c, if
 * it is one: no division by sqrt(d_k), one by d_k, or by sqrt(d_v) */
static void scale_slip(const sdpa_case *c, double r)
{
    double sk = sqrt((double)c->d_k), sv = sqrt((double)c->d_v);
    if (isnan(r) || fabs(r - 1) < 1e-6) return;
    if (fabs(r - sk) < 1e-6 * sk)
        lab_detail(EN_ES("your scores are sqrt(d_k) = %.6g times the expected ones: they "
                         "were not divided by sqrt(d_k)",
                         "tus puntuaciones son sqrt(d_k) = %.6g veces las esperadas: no se "
                         "dividieron por sqrt(d_k)"), sk);
    else if (fabs(r - 1 / sk) < 1e-6 / sk)
        lab_detail(EN_ES("your scores are 1/sqrt(d_k) = 1/%.6g times the expected ones: "
                         "they were divided by d_k (or by sqrt(d_k) twice), not by sqrt(d_k)",
                         "tus puntuaciones son 1/sqrt(d_k) = 1/%.6g veces las esperadas: se "
                         "dividieron por d_k (o dos veces por sqrt(d_k)), no por sqrt(d_k)"),
                   sk);
    else if (c->d_v != c->d_k && fabs(r - sk / sv) < 1e-6 * sk / sv)
        lab_detail(EN_ES("your scores are sqrt(d_k / d_v) times the expected ones: they "
                         "were divided by sqrt(d_v) = %.6g, not by sqrt(d_k) = %.6g",
                         "tus puntuaciones son sqrt(d_k / d_v) veces las esperadas: se "
                         "dividieron por sqrt(d_v) = %.6g, no por sqrt(d_k) = %.6g"), sv, sk);
}

/* show_scores - after a wrong weights on case c: the expected scores before the softmax
 * beside those the learner's weights imply (each row minus its largest), and a scale slip
 * if that is what they differ by */
static void show_scores(const sdpa_case *c, const lab_mat *weights)
{
    int T_q = c->T_q, T_k = c->T_k;
    const double *want = shifted_scores(c);
    lab_mat got = { .name = "scores", .rows = T_q, .cols = T_k, .n = (size_t)T_q * T_k,
                    .p = implied_scores(weights->p, T_q, T_k) };
    if (!lab_show_values(EN_ES("the scores before the softmax, each row minus its largest "
                               "(-inf: a weight of 0): q k^T / sqrt(d_k) + bias expected, "
                               "got those your weights imply (log w):",
                               "las puntuaciones antes del softmax, cada fila menos su máximo "
                               "(-inf: un peso 0): q k^T / sqrt(d_k) + bias esperadas, "
                               "obtenidas las que implican tus pesos (log w):"),
                         &got, want, 4)) {
        lab_detail("%s", EN_ES("the scores your weights imply are right, row by row: the "
                               "mistake is in the normalisation (each row of weights sums "
                               "to 1)",
                               "las puntuaciones que implican tus pesos están bien, fila a "
                               "fila: el error está en la normalización (cada fila de pesos "
                               "suma 1)"));
        return;
    }
    scale_slip(c, score_ratio(got.p, want, got.n));
}

static void check_sdpa(int which)
{
    sdpa_case c;
    sdpa_case_make(&c, which);
    lab_case("%s", c.name);
    int T_q = c.T_q, T_k = c.T_k, d_k = c.d_k, d_v = c.d_v;
    lab_mat *q = lab_in("q", T_q, d_k, c.q);
    lab_mat *k = lab_in("k", T_k, d_k, c.k);
    lab_mat *v = lab_in("v", T_k, d_v, c.v);
    lab_mat *bias = c.bias ? lab_in("bias", T_q, T_k, c.bias) : NULL;
    lab_mat *out[2] = { lab_out("out", T_q, d_v), c.weights ? lab_out("weights", T_q, T_k) : NULL };
    mm_status st = lab_call("sdpa", LAB_BUFS(out[0], out[1], q, k, v, bias),
                            LAB_INTS(T_q, T_k, d_k, d_v));
    const double *want[2] = { c.want_out, c.want_w };
    bool ok = lab_check_values(st, c.weights ? 2 : 1, out, want, diagnose_sdpa, &c);
    double scale = fmax(lab_scale(c.want_out, (size_t)T_q * d_v), 1.0);
    if (!ok && st == MM_OK && c.weights &&
        !lab_close(out[1]->p, c.want_w, (size_t)T_q * T_k, scale))
        show_scores(&c, out[1]);
    if (st != MM_OK) diagnose_sdpa_refusal(&c, out[1]);
    if (st == MM_EINVAL && c.bias && has_minus_inf(c.bias, T_q * T_k) &&
        strstr(lab_learner_error(), "bias"))
        contract_hint(CH_MINUS_INF_BIAS);
}

/* ---- sdpa: bad arguments ---------------------------------------------------------- */

/* the buffers of sdpa, in order */
enum { B_OUT, B_WEIGHTS, B_Q, B_K, B_V, B_BIAS, N_BUFS };
static const char *const buf_name[N_BUFS] = { "out", "weights", "q", "k", "v", "bias" };

/* rooms - every buffer of a call on (2, 2, 2, 2): the outputs, and the
 * inputs holding in[] (chapter 01's Q, K, V and a bias of 0) unless given */
static const double room_in[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 1, 0 }, { 2, 0, 0, 3 },
                                      { 0, 0, 0, 0 } };
static void rooms_with(lab_mat *b[N_BUFS], const double *const in[4])
{
    b[B_OUT] = lab_out("out", 2, 2);
    b[B_WEIGHTS] = lab_out("weights", 2, 2);
    for (int i = 0; i < 4; i++)
        b[B_Q + i] = lab_in(buf_name[B_Q + i], 2, 2, in ? in[i] : room_in[i]);
}
static void rooms(lab_mat *b[N_BUFS]) { rooms_with(b, NULL); }

/* untouched - after a call refused with MM_EINVAL, the outputs out and
 * weights (those that are outputs here) must hold what they held: a
 * refused call writes nothing */
static bool untouched(lab_mat *const b[N_BUFS], const char *when)
{
    for (int o = B_OUT; o <= B_WEIGHTS; o++) {
        const lab_mat *m = b[o];
        if (!m || m->input) continue;
        if (m->n >= 2 && m->p[0] <= SDPA_ALIAS_TAG && m->p[1] <= SDPA_ALIAS_TAG)
            continue;                            /* a tag: the call got another buffer */
        for (size_t e = 0; e < m->n; e++)
            if (m->p[e] != LAB_UNWRITTEN) {
                lab_fail(EN_ES("sdpa refused the call %s, as it should, but wrote %s first "
                               "(element (%zu, %zu) is %g): a call refused with MM_EINVAL "
                               "writes nothing",
                               "sdpa rechazó la llamada %s, como debe, pero antes escribió "
                               "%s (el elemento (%zu, %zu) es %g): una llamada rechazada con "
                               "MM_EINVAL no escribe nada"),
                         when, m->name, e / m->cols, e % m->cols, m->p[e]);
                contract_hint(CH_SDPA_CHECK_FIRST);
                return false;
            }
    }
    return true;
}

/* refused - call sdpa with b[] and sizes n[], require want (MM_EINVAL: and
 * nothing written); when says which call */
static bool refused(lab_mat *const b[N_BUFS], const long n[4], mm_status want, const char *when)
{
    mm_status st = lab_call("sdpa", N_BUFS, b, 4, n);
    if (!lab_expect_status(st, want, when)) return false;
    return want != MM_EINVAL || untouched(b, when);
}

static void check_sdpa_nulls(int unused)
{
    (void)unused;
    static const int must[] = { B_OUT, B_Q, B_K, B_V };
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        lab_mat *b[N_BUFS];
        rooms(b);
        b[must[i]] = NULL;
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", buf_name[must[i]]);
        ok &= refused(b, (const long[4]){ 2, 2, 2, 2 }, MM_EINVAL, when);
    }
    if (!ok) lab_null_hint();
}

static void check_sdpa_sizes(int unused)
{
    (void)unused;
    static const char *const size_name[4] = { "T_q", "T_k", "d_k", "d_v" };
    bool ok = true;
    for (int s = 0; s < 4; s++)
        for (int value = 0; value >= -1; value--) {
            lab_mat *b[N_BUFS];
            rooms(b);
            long n[4] = { 2, 2, 2, 2 };
            n[s] = value;
            char when[48];
            lab_case_when(when, sizeof when, "%s = %d", size_name[s], value);
            ok &= refused(b, n, MM_EINVAL, when);
        }
    if (!ok) lab_size_hint();
    /* sizes whose product no buffer can hold: (T_q, d_k) of 2^60 doubles */
    lab_mat *b[N_BUFS];
    rooms(b);
    lab_case("T_q = d_k = 2^30");
    const char *when = EN_ES("for T_q = d_k = 2^30: q would hold 2^60 doubles",
                             "con T_q = d_k = 2^30: q tendría 2^60 doubles");
    lab_hint_if_lost(contract_hint_text(CH_SIZE_PRODUCT));   /* it read or wrote 2^60 */
    if (!refused(b, (const long[4]){ 1L << 30, 2, 1L << 30, 2 }, MM_EINVAL, when))
        contract_hint(CH_SIZE_PRODUCT);
}

/* check_sdpa_aliases - which 0: out, then weights, the same buffer as
 * each input, and weights the same as out; which 1: two partial overlaps
 * (calls.c passes the buffer twice) */
static void check_sdpa_aliases(int which)
{
    static const struct { int output, other, off; } pairs[] = {
        { B_OUT, B_Q, 0 }, { B_OUT, B_K, 0 }, { B_OUT, B_V, 0 }, { B_OUT, B_BIAS, 0 },
        { B_WEIGHTS, B_Q, 0 }, { B_WEIGHTS, B_K, 0 }, { B_WEIGHTS, B_V, 0 },
        { B_WEIGHTS, B_BIAS, 0 }, { B_WEIGHTS, B_OUT, 0 },
        { B_OUT, B_Q, 2 }, { B_WEIGHTS, B_OUT, 1 },
    };
    bool ok = true, overlap = false;
    size_t from = which ? 9 : 0, to = which ? 11 : 9;     /* at most 64 buffers a check */
    for (size_t i = from; i < to; i++) {
        int o = pairs[i].output, other = pairs[i].other, off = pairs[i].off;
        lab_mat *b[N_BUFS];
        rooms(b);
        if (off) {           /* the other buffer is longer, so the overlap stays inside it */
            static const double longer[6] = { 1, 0, 0, 1, 1, 1 };
            b[other] = other == B_OUT ? lab_out("out", 3, 2)
                                      : lab_in(buf_name[other], 3, 2, longer);
        }
        /* the output's place holds the other buffer: shown by its name */
        const char *shown = lab_alias_name(buf_name[other], off);
        b[o] = lab_out(shown, 2, 2);
        b[o]->p[0] = SDPA_ALIAS_TAG - other;
        b[o]->p[1] = SDPA_ALIAS_TAG - off;
        lab_case("%s = %s", buf_name[o], shown);
        char when[96];
        lab_alias_when(when, sizeof when, buf_name[o], buf_name[other], off);
        bool right = refused(b, (const long[4]){ 2, 2, 2, 2 }, MM_EINVAL, when);
        ok &= right;
        overlap |= !right && off;
    }
    if (!ok)
        contract_hint(CH_SAME_BUFFER);
    if (overlap)
        contract_hint(CH_OVERLAP);
}

/* the calls of check_sdpa_values: one element of q, k, v or bias changed
 * from rooms()'s, or two; the scores are q_i . k_j / sqrt 2 */
typedef struct {
    const char *name[2];
    int buf, at;             /* which input (B_Q ...), and which element */
    double value;
    int buf2, at2;           /* a second change, or buf2 = 0 */
    double value2;
} bad_value;

static bool bad_value_call(const bad_value *c, mm_status want)
{
    double in[4][4];
    memcpy(in, room_in, sizeof in);
    in[c->buf - B_Q][c->at] = c->value;
    if (c->buf2) in[c->buf2 - B_Q][c->at2] = c->value2;
    lab_mat *b[N_BUFS];
    rooms_with(b, (const double *const[4]){ in[0], in[1], in[2], in[3] });
    char when[160];
    lab_case_when(when, sizeof when, "%s", c->name[lab_es()]);
    return refused(b, (const long[4]){ 2, 2, 2, 2 }, want, when);
}

/* check_sdpa_values - which 0: inputs that are not finite (q, k, v must be
 * finite, a bias finite or -inf: MM_EINVAL, nothing written); which 1:
 * finite inputs whose score overflows (MM_ERANGE) */
static void check_sdpa_values(int which)
{
    static const bad_value calls[] = {
        { { "q[3] = NaN", "q[3] = NaN" }, B_Q, 3, NAN, 0, 0, 0 },
        { { "k[0] = +inf", "k[0] = +inf" }, B_K, 0, INFINITY, 0, 0, 0 },
        { { "v[2] = -inf", "v[2] = -inf" }, B_V, 2, -INFINITY, 0, 0, 0 },
        { { "bias[1] = NaN", "bias[1] = NaN" }, B_BIAS, 1, NAN, 0, 0, 0 },
        { { "bias[2] = +inf", "bias[2] = +inf" }, B_BIAS, 2, INFINITY, 0, 0, 0 },
        /* which 1 */
        { { "q[0] = 1e200, k[2] = 1e200: q_0 . k_1 = 1e400 overflows",
            "q[0] = 1e200, k[2] = 1e200: q_0 . k_1 = 1e400 desborda" },
          B_Q, 0, 1e200, B_K, 2, 1e200 },
        { { "q[0] = 1e308, bias[1] = 1.5e308: the score 7.1e307 plus the bias overflows",
            "q[0] = 1e308, bias[1] = 1.5e308: la puntuación 7.1e307 más el sesgo desborda" },
          B_Q, 0, 1e308, B_BIAS, 1, 1.5e308 },
    };
    bool ok = true;
    for (int i = which ? 5 : 0; i < (which ? 7 : 5); i++)
        ok &= bad_value_call(&calls[i], which ? MM_ERANGE : MM_EINVAL);
    if (!ok) contract_hint(which ? CH_OVERFLOW : CH_NOT_FINITE);
}

/* ---- the tables, from the descriptor -------------------------------------------------- */

LAB_JUDGE_TABLES(LAB02);
