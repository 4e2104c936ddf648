/* check.c - the checks of lab 04, run by the judge: mask_causal on the
 * chapter's T = 3 and on T = 1, 2, 6; mask_padding on queries and keys of
 * different numbers, with length 0 (no key visible: the bias values
 * themselves, then what chapter 03's mha_forward makes of a row that sees
 * nothing) and length T_k (every key visible); mask_from_bool on the causal
 * truth table, a random one, all true, all false and one cell; mask_combine
 * on the causal mask with a padding mask, finite biases, a mask combined
 * with itself (the same buffer), -inf with -inf and with finite values, and
 * sums near the largest double; mha_forward_causal on chapter 03's worked
 * example (the numbers chapter 04 states), on layers made by mha_new (the
 * initial weights, or weights set by mha_set_weights), with weights
 * asked for and not, T = 1, d_k = 1, on the chapter's eight planted tokens,
 * with every weight above the diagonal exactly 0, and prefix invariance
 * (the first 7 outputs of 12 tokens are those of the 7 alone); and every
 * checked error of each function, with the outputs untouched (mask_combine:
 * bias as it was). The learner's results (from its own process, through
 * lab_call) are compared with the library's, the reference.
 *
 * Besides those fixed cases, cases drawn from the run's seed, as in Lab 03
 * (../lab03/check.c says why, and why in this order): each function on a
 * long one (T from 256 to 512, and 1024 tokens for the causal layer) and,
 * where there are values, the same shape again with fresh values (one key
 * hidden, for the padding mask and the truth table); mask_combine with
 * pairs of +-1e308 whose sums cancel, +inf in bias and an overflowing pair
 * at a random place; the causal layer on one token and with a future key
 * whose score would overflow. The layer's cases, calls and record are
 * Lab 03's (../lab03/layer_case.h, layer_check.h, layer.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/core/rng.h"
#include "alias.h"
#include "lab04.h"
#include "../lab03/layer_check.h"
#include "lab04.def"

/* bool_text - "[[1,0],[1,1]]": a small truth table */
static void bool_text(char *buf, size_t size, const unsigned char *a, int rows, int cols)
{
    double *d = lab_fresh((size_t)rows * cols, NULL);
    for (int e = 0; e < rows * cols; e++) d[e] = a[e];
    lab_mat_text(buf, size, d, rows, cols);
}

/* the salts of the cases drawn from the run's seed (lab_random): each case
 * draws its shape and values from its salt plus 0 to 99, and x from its
 * salt plus 1000, so that no two cases share a stream */
enum { SALT_CAUSAL = 4100, SALT_PADDING = 4200, SALT_FROM_BOOL = 4300, SALT_COMBINE = 4400,
       SALT_COMBINE_AGAIN = 4500, SALT_COMBINE_INF = 4600, SALT_COMBINE_OVERFLOW = 4700,
       SALT_FC_LONG = 4800, SALT_FC_AGAIN = 4900, SALT_FC_1024 = 5000, SALT_FC_T1 = 5100,
       SALT_FC_FUTURE = 5200 };

/* random_cell - a cell (i, j) of an (n, n) matrix off its diagonal, drawn
 * from the run's seed: the place of a value a transposed read would miss */
static void random_cell(int n, uint64_t salt, int *i, int *j)
{
    *i = (int)lab_random_int(0, n - 1, salt);
    *j = (*i + (int)lab_random_int(1, n - 1, salt + 1)) % n;
}

/* random_mask - n doubles N(0, 1) drawn from the run's seed, about one in
 * eight -inf (a hidden key) */
static double *random_mask(size_t n, uint64_t salt)
{
    double *m = lab_random(n, 1.0, salt);
    for (size_t e = 0; e < n; e++)
        if (m[e] > 1.15) m[e] = -INFINITY;
    return m;
}

/* ---- refused calls: nothing written -------------------------------------------------------- */

/* refused_status - the status of call_refused's last call */
static mm_status refused_status;

/* call_refused - call fn with b[] and n[], require the status want, and
 * (for any failure) every output as it was before the call; when says
 * which call. False if the status was not want (a write before the refusal
 * is a failure of its own, with its own hint). call_refused_kept: only the
 * first n_kept buffers are the call's own (after them, the layer's record,
 * layer.h), and only they are compared, if kept (the causal layer's outputs
 * after MM_ERANGE are unspecified). */
static bool call_refused_kept(const char *fn, int n_bufs, lab_mat *const b[], int n_kept,
                              bool kept, int n_ints, const long n[], mm_status want,
                              const char *when)
{
    lab_kept k;
    lab_keep(&k, kept ? n_kept : 0, b);
    refused_status = lab_call(fn, n_bufs, b, n_ints, n);
    if (!lab_expect_status(refused_status, want, when)) return false;
    if (!lab_unchanged(&k, fn, when, b)) check_hint(CH_CHECK_FIRST);
    return true;
}

static bool call_refused(const char *fn, int n_bufs, lab_mat *const b[], int n_ints,
                         const long n[], mm_status want, const char *when)
{
    return call_refused_kept(fn, n_bufs, b, n_bufs, true, n_ints, n, want, when);
}

/* ---- the masks: the cases ---------------------------------------------------------------- */

/* the truth tables and pairs of masks of the cases */
static const double NI = -INFINITY;
static const double combine2_bias[6] = { 0.5, -INFINITY, -1.25, 0, 2, -INFINITY };
static const double combine3_bias[4] = { -INFINITY, -INFINITY, 0, 3 };
static const double combine3_other[4] = { -INFINITY, 1.5, -INFINITY, -0.5 };
static const double combine4_bias[4] = { 8e307, -1e308, -INFINITY, 2.5 };
static const double combine4_other[4] = { 8e307, 5e307, 7, -0.0 };

/* random_table - a long truth table of a random shape: random (one_hidden
 * false), or (one_hidden) the same shape all true but one cell */
static void random_table(mask_case *c, bool one_hidden)
{
    c->T_q = (int)lab_random_int(256, 400, SALT_FROM_BOOL);
    c->T_k = (int)lab_random_int(256, 400, SALT_FROM_BOOL + 1);
    size_t n = (size_t)c->T_q * c->T_k;
    unsigned char *a = lab_temp(n);
    const double *r = lab_random(n, 1.0, SALT_FROM_BOOL + 2);
    for (size_t e = 0; e < n; e++) a[e] = one_hidden || r[e] > 0;
    int i = (int)lab_random_int(0, c->T_q - 1, SALT_FROM_BOOL + 3);
    int j = (int)lab_random_int(0, c->T_k - 1, SALT_FROM_BOOL + 4);
    if (one_hidden) a[(size_t)i * c->T_k + j] = 0;
    c->allowed = a;
    if (one_hidden)
        snprintf(c->name, sizeof c->name,
                 EN_ES("the same shape again, all true but allowed[%d][%d]: T_q=%d T_k=%d%s",
                       "la misma forma otra vez, todo true salvo allowed[%d][%d]: T_q=%d "
                       "T_k=%d%s"), i, j, c->T_q, c->T_k, seed_text());
    else
        snprintf(c->name, sizeof c->name,
                 EN_ES("a random table: T_q=%d T_k=%d%s", "una tabla aleatoria: T_q=%d T_k=%d%s"),
                 c->T_q, c->T_k, seed_text());
}

/* random_combine - two long square masks of a random size: N(0, 1) with
 * hidden keys, and (which 5) pairs of +-1e308 whose sums cancel, placed so
 * that a transposed read adds two of the same sign; (which 6) the same
 * shape again with fresh values */
static void random_combine(mask_case *c, int which, double *b, double *o)
{
    int T = c->T_q;
    size_t n = (size_t)T * T;
    uint64_t salt = which == 5 ? SALT_COMBINE : SALT_COMBINE_AGAIN;
    memcpy(b, random_mask(n, salt + 1), n * sizeof *b);
    memcpy(o, random_mask(n, salt + 2), n * sizeof *o);
    for (int k = 0; which == 5 && k < 4; k++) {
        int i, j;
        random_cell(T, salt + 10 + 2 * k, &i, &j);             /* salt + 10 .. 17 */
        size_t ij = (size_t)i * T + j, ji = (size_t)j * T + i;
        b[ij] = -1e308, o[ij] = 1e308;        /* sums 0; bias[j][i] + other[i][j] = 2e308 */
        b[ji] = 1e308, o[ji] = -1e308;
    }
    snprintf(c->name, sizeof c->name,
             which == 5 ? EN_ES("random biases N(0, 1) with hidden keys, and 4 pairs of +-1e308 "
                                "whose sums cancel: T_q=T_k=%d%s",
                                "sesgos aleatorios N(0, 1) con keys ocultas, y 4 pares de "
                                "+-1e308 cuyas sumas se anulan: T_q=T_k=%d%s")
                        : EN_ES("the same shape again, fresh values: T_q=T_k=%d%s",
                                "la misma forma otra vez, valores nuevos: T_q=T_k=%d%s"),
             T, seed_text());
}

/* causal_mask_case - mask_causal's case which: T = 3, 1, 6, 2, then a long one */
static void causal_mask_case(mask_case *c, int which)
{
    static const int T[] = { 3, 1, 6, 2 };
    if (which == 4) {                               /* a long one, of random length */
        c->T_q = c->T_k = (int)lab_random_int(256, 512, SALT_CAUSAL);
        snprintf(c->name, sizeof c->name, EN_ES("random T=%d%s", "aleatoria T=%d%s"), c->T_q,
                 seed_text());
        return;
    }
    c->T_q = c->T_k = T[which];
    if (which == 0)
        snprintf(c->name, sizeof c->name, EN_ES("the chapter's causal mask: T = 3",
                                                 "la máscara causal del capítulo: T = 3"));
    else if (which == 1)
        snprintf(c->name, sizeof c->name, EN_ES("one token: T = 1", "un token: T = 1"));
    else
        snprintf(c->name, sizeof c->name, "T = %d", T[which]);
}

/* padding_case - mask_padding's case which: fixed shapes and lengths, then
 * long ones of a random shape */
static void padding_case(mask_case *c, int which)
{
    static const int shape[][3] = { { 3, 5, 2 }, { 3, 4, 4 }, { 4, 4, 0 }, { 1, 6, 3 },
                                    { 5, 2, 1 } };
    if (which >= 5) {                       /* long, of a random shape, twice */
        c->T_q = (int)lab_random_int(256, 400, SALT_PADDING);
        c->T_k = (int)lab_random_int(256, 400, SALT_PADDING + 1);
        c->length = which == 5 ? (int)lab_random_int(1, c->T_k - 2, SALT_PADDING + 2)
                               : c->T_k - 1;
        snprintf(c->name, sizeof c->name,
                 which == 5 ? EN_ES("random T_q=%d T_k=%d length=%d%s",
                                    "aleatoria T_q=%d T_k=%d length=%d%s")
                            : EN_ES("the same shape again, one key hidden: T_q=%d T_k=%d "
                                    "length=%d%s",
                                    "la misma forma otra vez, una key oculta: T_q=%d "
                                    "T_k=%d length=%d%s"),
                 c->T_q, c->T_k, c->length, seed_text());
        return;
    }
    c->T_q = shape[which][0], c->T_k = shape[which][1], c->length = shape[which][2];
    const char *what = which == 1 ? EN_ES("every key real", "todas las keys reales")
                     : which == 2 ? EN_ES("no key real: every query sees nothing",
                                          "ninguna key real: ninguna query ve nada")
                     : which == 4 ? EN_ES("more queries than keys", "más queries que keys")
                     : EN_ES("the first keys real, the rest padding",
                             "las primeras keys reales, el resto relleno");
    snprintf(c->name, sizeof c->name, "%s: T_q=%d T_k=%d length=%d", what, c->T_q, c->T_k,
             c->length);
}

/* from_bool_case - mask_from_bool's case which: small truth tables, then
 * long ones of a random shape */
static void from_bool_case(mask_case *c, int which)
{
    static const int shape[][2] = { { 4, 4 }, { 4, 5 }, { 2, 3 }, { 3, 3 }, { 1, 1 } };
    if (which >= 5) {
        random_table(c, which == 6);
        return;
    }
    c->T_q = shape[which][0], c->T_k = shape[which][1];
    size_t n = (size_t)c->T_q * c->T_k;
    unsigned char *a = lab_temp(n);
    mm_rng r;
    mm_rng_seed(&r, 41);
    for (int i = 0; i < c->T_q; i++)
        for (int j = 0; j < c->T_k; j++) {
            unsigned char v = 1;
            if (which == 0) v = j <= i;
            else if (which == 1) v = mm_rng_uniform(&r) < 0.5;
            else if (which == 3) v = 0;
            a[i * c->T_k + j] = v;
        }
    if (which == 1)                   /* a row that sees nothing, a row that sees all */
        for (int j = 0; j < c->T_k; j++) a[1 * c->T_k + j] = 0, a[2 * c->T_k + j] = 1;
    c->allowed = a;
    char t[160];
    bool_text(t, sizeof t, a, c->T_q, c->T_k);
    const char *what = which == 0 ? EN_ES("the causal truth table", "la tabla causal")
                     : which == 1 ? EN_ES("a random table (seed 41), row 1 all false and "
                                          "row 2 all true",
                                          "una tabla aleatoria (semilla 41), la fila 1 toda "
                                          "false y la 2 toda true")
                     : which == 2 ? EN_ES("all true", "todo true")
                     : which == 3 ? EN_ES("all false: no query sees anything",
                                          "todo false: ninguna query ve nada")
                     : EN_ES("one cell", "una celda");
    snprintf(c->name, sizeof c->name, "%s: allowed = %s", what, t);
}

/* combine_case - mask_combine's case which: small pairs of masks, then
 * long ones of a random size */
static void combine_case(mask_case *c, int which)
{
    static const int shape[][2] = { { 4, 4 }, { 3, 5 }, { 2, 3 }, { 2, 2 }, { 1, 4 } };
    if (which >= 5) c->T_q = c->T_k = (int)lab_random_int(256, 320, SALT_COMBINE);
    else c->T_q = shape[which][0], c->T_k = shape[which][1];
    int T_q = c->T_q, T_k = c->T_k;
    size_t n = (size_t)T_q * T_k;
    double *b = lab_fresh(n, NULL), *o = lab_fresh(n, NULL);
    c->bias0 = b, c->other = o;
    if (which >= 5) {
        random_combine(c, which, b, o);
        return;
    }
    const char *what = NULL;
    switch (which) {
    case 0:
        LAB_REF(mask_causal(b, 4));
        LAB_REF(mask_padding(o, 4, 4, 3));
        what = EN_ES("the causal mask and the padding mask of length 3: a key visible "
                     "only where both let it through",
                     "la máscara causal y la de relleno de longitud 3: una key visible solo "
                     "donde las dos la dejan pasar");
        break;
    case 1: {
        const double *r1 = lab_normals(n, 1.0, 51), *r2 = lab_normals(n, 1.0, 52);
        memcpy(b, r1, n * sizeof *b);
        for (size_t e = 0; e < n; e++) o[e] = e % 4 == 1 ? NI : r2[e];
        b[7] = NI;
        what = EN_ES("finite biases N(0, 1) (seeds 51 and 52), some keys hidden",
                     "sesgos finitos N(0, 1) (semillas 51 y 52), algunas keys ocultas");
        break;
    }
    case 2:
        memcpy(b, combine2_bias, sizeof combine2_bias);
        memcpy(o, combine2_bias, sizeof combine2_bias);
        c->same = true;
        what = EN_ES("a mask combined with itself, bias == other: bias = %s",
                     "una máscara combinada consigo misma, bias == other: bias = %s");
        break;
    case 3:
        memcpy(b, combine3_bias, sizeof combine3_bias);
        memcpy(o, combine3_other, sizeof combine3_other);
        what = EN_ES("-inf with -inf and with finite values: bias = %s, other = %s",
                     "-inf con -inf y con valores finitos: bias = %s, other = %s");
        break;
    case 4:
        memcpy(b, combine4_bias, sizeof combine4_bias);
        memcpy(o, combine4_other, sizeof combine4_other);
        what = EN_ES("sums near the largest double, none overflowing: bias = %s, other = %s",
                     "sumas cerca del mayor double, ninguna desborda: bias = %s, other = %s");
        break;
    }
    char tb[160], to[160];
    lab_mat_text(tb, sizeof tb, b, T_q, T_k);
    lab_mat_text(to, sizeof to, o, T_q, T_k);
    int size = sizeof c->name;
    int len = which >= 2 ? snprintf(c->name, size, what, tb, to)
                         : snprintf(c->name, size, "%s", what);
    if (len < size) snprintf(c->name + len, size - len, ": T_q=%d T_k=%d", T_q, T_k);
}

static void mask_case_make(mask_case *c, mask_fn fn, int which)
{
    memset(c, 0, sizeof *c);
    c->fn = fn;
    switch (fn) {
    case FN_CAUSAL: causal_mask_case(c, which); break;
    case FN_PADDING: padding_case(c, which); break;
    case FN_FROM_BOOL: from_bool_case(c, which); break;
    case FN_COMBINE: combine_case(c, which); break;
    }
    size_t n = (size_t)c->T_q * c->T_k;
    c->want = lab_fresh(n, c->bias0);
    switch (fn) {
    case FN_CAUSAL: LAB_REF(mask_causal(c->want, c->T_q)); break;
    case FN_PADDING: LAB_REF(mask_padding(c->want, c->T_q, c->T_k, c->length)); break;
    case FN_FROM_BOOL:
        LAB_REF(mask_from_bool(c->want, (const bool *)(const void *)c->allowed, c->T_q, c->T_k));
        break;
    case FN_COMBINE:
        LAB_REF(mask_combine(c->want, c->same ? c->want : c->other, c->T_q, c->T_k));
        break;
    }
}

/* mask_call - the learner's function of case c, writing bias */
static mm_status mask_call(const mask_case *c, lab_mat *bias)
{
    int T_q = c->T_q, T_k = c->T_k;
    switch (c->fn) {
    case FN_CAUSAL:
        return lab_call("mask_causal", LAB_BUFS(bias), LAB_INTS(T_q));
    case FN_PADDING:
        return lab_call("mask_padding", LAB_BUFS(bias), LAB_INTS(T_q, T_k, c->length));
    case FN_FROM_BOOL: {
        lab_mat *allowed = lab_in_bytes("allowed", T_q, T_k, c->allowed);
        return lab_call("mask_from_bool", LAB_BUFS(bias, allowed), LAB_INTS(T_q, T_k));
    }
    case FN_COMBINE: {
        memcpy(bias->p, c->bias0, bias->n * sizeof *bias->p);   /* read and written */
        lab_mat *other = lab_in("other", c->same ? 1 : T_q, c->same ? 2 : T_k, c->other);
        if (c->same) {                      /* other is bias itself (alias.h) */
            other->p[0] = MASK_ALIAS_TAG - 0;
            other->p[1] = MASK_ALIAS_TAG - 0;
            other->given = lab_fresh(2, other->p);
            other->name = "bias";
        }
        return lab_call("mask_combine", LAB_BUFS(bias, other), LAB_INTS(T_q, T_k));
    }
    }
    return MM_OK;
}

static void check_mask(int arg)
{
    mask_fn fn = (mask_fn)(arg / 16);
    mask_case c;
    mask_case_make(&c, fn, arg % 16);
    lab_case("%s", c.name);
    int T_q = c.T_q, T_k = c.T_k;
    lab_mat *bias = lab_out("bias", T_q, T_k);
    mm_status st = mask_call(&c, bias);
    const double *want[1] = { c.want };
    if (lab_check_values(st, 1, &bias, want, diagnose_mask, &c)) return;
    if (st == MM_OK) {
        if (T_q == T_k) show_hidden_rows(c.want, bias->p, T_q);
        return;
    }
    const char *why = lab_learner_error();
    if (fn == FN_COMBINE && combine_status_hint(&c, MM_OK, st))
        ;                                       /* a transposed read, said */
    else if (fn == FN_COMBINE && st == MM_EINVAL && c.same && !strstr(why, "NaN") &&
        !strstr(why, "nan") && !strstr(why, "inf"))
        check_hint(CH_SELF_NOT_OVERLAP);
    else if (fn == FN_COMBINE && st == MM_EINVAL)
        check_hint(CH_MINUS_INF_MASK);
    else if (fn == FN_COMBINE && st == MM_ERANGE)
        check_hint(CH_FINITE_SUM);
    else if (fn == FN_PADDING && st == MM_EINVAL && (c.length == 0 || c.length == c.T_k))
        check_hint(CH_LENGTH_RANGE);
}

/* ---- the masks: bad arguments ------------------------------------------------------------ */

/* mask_rooms - the buffers of a call of fn on (T_q, T_k) = (2, 2): b[0]
 * bias, b[1] allowed or other; the number of buffers */
static int mask_rooms(mask_fn fn, lab_mat *b[2])
{
    static const double other[4] = { 0, -INFINITY, 1.5, 0 };
    static const double bias0[4] = { -INFINITY, 0, 0, 2 };
    static const unsigned char allowed[4] = { 1, 0, 1, 1 };
    b[0] = lab_out("bias", 2, 2);
    b[1] = NULL;
    if (fn == FN_FROM_BOOL) b[1] = lab_in_bytes("allowed", 2, 2, allowed);
    if (fn == FN_COMBINE) {
        memcpy(b[0]->p, bias0, sizeof bias0);
        b[1] = lab_in("other", 2, 2, other);
    }
    return fn == FN_CAUSAL || fn == FN_PADDING ? 1 : 2;
}

/* mask_refused - fn called on b[] (mask_rooms') with T_q, T_k (and length 1) must be
 * refused with MM_EINVAL; when says which call */
static bool mask_refused(mask_fn fn, lab_mat *const b[2], long T_q, long T_k, const char *when)
{
    int n_bufs = fn == FN_CAUSAL || fn == FN_PADDING ? 1 : 2;
    int n_ints = fn == FN_CAUSAL ? 1 : fn == FN_PADDING ? 3 : 2;
    return call_refused(lab_functions[fn], n_bufs, b, n_ints, (const long[3]){ T_q, T_k, 1 },
                        MM_EINVAL, when);
}

static void check_mask_nulls(int arg)
{
    mask_fn fn = (mask_fn)arg;
    lab_mat *b[2];
    int n_bufs = mask_rooms(fn, b);
    bool ok = true;
    for (int i = 0; i < n_bufs; i++) {
        mask_rooms(fn, b);
        const char *name = b[i]->name;
        b[i] = NULL;
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", name);
        ok &= mask_refused(fn, b, 2, 2, when);
    }
    if (!ok) lab_null_hint();
}

static void check_mask_sizes(int arg)
{
    mask_fn fn = (mask_fn)arg;
    bool ok = true;
    int n_sizes = fn == FN_CAUSAL ? 1 : 2;
    for (int s = 0; s < n_sizes; s++)
        for (int value = 0; value >= -1; value--) {
            lab_mat *b[2];
            mask_rooms(fn, b);
            const char *size_name = fn == FN_CAUSAL ? "T" : s ? "T_k" : "T_q";
            char when[48];
            lab_case_when(when, sizeof when, "%s = %d", size_name, value);
            ok &= mask_refused(fn, b, s ? 2 : value, s ? value : 2, when);
        }
    if (!ok) lab_size_hint();
}

static void check_mask_too_large(int arg)
{
    mask_fn fn = (mask_fn)arg;
    lab_mat *b[2];
    mask_rooms(fn, b);
    const char *shown = fn == FN_CAUSAL ? "T = INT_MAX" : "T_q = T_k = INT_MAX";
    lab_case("%s", shown);
    char when[160];
    snprintf(when, sizeof when, EN_ES("for %s: the mask would hold about 2^62 doubles",
                                      "con %s: la máscara tendría unos 2^62 doubles"), shown);
    if (!mask_refused(fn, b, INT_MAX, INT_MAX, when))
        check_hint(CH_MASK_SIZE_PRODUCT);
}

/* check_padding_length - length -1 and T_k + 1 */
static void check_padding_length(int unused)
{
    (void)unused;
    bool ok = true;
    static const int lengths[] = { -1, 3, 100 };
    for (int i = 0; i < 3; i++) {
        lab_mat *bias = lab_out("bias", 2, 2);
        lab_case("T_q=2 T_k=2 length=%d", lengths[i]);
        char when[80];
        snprintf(when, sizeof when,
                 EN_ES("for length = %d with T_k = 2", "con length = %d y T_k = 2"), lengths[i]);
        ok &= call_refused("mask_padding", LAB_BUFS(bias), LAB_INTS(2, 2, lengths[i]),
                           MM_EINVAL, when);
    }
    if (!ok)
        check_hint(CH_LENGTH_REFUSED);
}

/* check_from_bool_overlap - allowed lying inside bias (alias.h) */
static void check_from_bool_overlap(int unused)
{
    (void)unused;
    lab_mat *bias = lab_out("bias", 2, 2);
    lab_mat *allowed = lab_in_bytes("allowed", 2, 2, (const unsigned char[4]){ 1, 1, 0, 1 });
    bias->p[0] = MASK_HOST_TAG - 1;              /* allowed = (bool *)bias + 8 */
    bias->p[1] = MASK_ALIAS_TAG - 8;
    allowed->name = "(bool *)bias + 8";
    lab_case("allowed = (bool *)bias + 8");
    if (!call_refused("mask_from_bool", LAB_BUFS(bias, allowed), LAB_INTS(2, 2), MM_EINVAL,
                      EN_ES("for allowed lying inside bias (its 4 bytes from byte 8 of bias)",
                            "con allowed dentro de bias (sus 4 bytes desde el byte 8 de bias)")))
        check_hint(CH_BOOL_OVERLAP);
}

/* check_combine_values - an element that is not a mask value (MM_EINVAL), or
 * two finite ones whose sum overflows (MM_ERANGE), always the last one, so
 * that a loop that writes as it goes has changed bias by then */
static void check_combine_values(int overflow)
{
    static const struct {
        const char *name[2];
        double b, o;
        mm_status want;
    } calls[] = {
        { { "bias[1][1] = NaN", "bias[1][1] = NaN" }, NAN, 0, MM_EINVAL },
        { { "other[1][1] = +inf", "other[1][1] = +inf" }, 0, INFINITY, MM_EINVAL },
        { { "other[1][1] = NaN", "other[1][1] = NaN" }, -INFINITY, NAN, MM_EINVAL },
        { { "bias[1][1] = +inf", "bias[1][1] = +inf" }, INFINITY, 0, MM_EINVAL },
        { { "bias[1][1] = 1e308, other[1][1] = 1e308: the sum overflows to +inf",
            "bias[1][1] = 1e308, other[1][1] = 1e308: la suma desborda a +inf" },
          1e308, 1e308, MM_ERANGE },
        { { "bias[1][1] = -1e308, other[1][1] = -1e308: the sum overflows to -inf",
            "bias[1][1] = -1e308, other[1][1] = -1e308: la suma desborda a -inf" },
          -1e308, -1e308, MM_ERANGE },
    };
    bool ok = true;
    for (size_t i = overflow ? 4 : 0; i < (overflow ? 6u : 4u); i++) {
        lab_mat *b[2];
        mask_rooms(FN_COMBINE, b);
        b[0]->p[3] = calls[i].b;
        double o[4];
        memcpy(o, b[1]->given, sizeof o);
        o[3] = calls[i].o;
        b[1] = lab_in("other", 2, 2, o);
        const char *name = calls[i].name[lab_es()];
        char when[160];
        lab_case_when(when, sizeof when, "%s", name);
        ok &= call_refused("mask_combine", 2, b, 2, (const long[2]){ 2, 2 }, calls[i].want, when);
    }
    if (ok) return;
    if (overflow)
        check_hint(CH_SUM_OVERFLOW);
    else
        check_hint(CH_BAD_MASK_VALUE);
}

/* check_combine_random_bad - two long square masks of a random size, N(0, 1)
 * with hidden keys, and one cell off the diagonal, drawn from the run's
 * seed, that makes the call fail: (overflow 0) bias +inf there, MM_EINVAL;
 * (overflow 1) bias and other 1e308 there, whose sum overflows, MM_ERANGE.
 * Bias must be as it was. */
static void check_combine_random_bad(int overflow)
{
    uint64_t salt = overflow ? SALT_COMBINE_OVERFLOW : SALT_COMBINE_INF;
    int T = (int)lab_random_int(256, 320, salt), i, j;
    size_t n = (size_t)T * T;
    mask_case c;
    memset(&c, 0, sizeof c);
    c.fn = FN_COMBINE;
    c.T_q = c.T_k = T;
    double *b = random_mask(n, salt + 1), *o = random_mask(n, salt + 2);
    random_cell(T, salt + 3, &i, &j);
    b[(size_t)i * T + j] = overflow ? 1e308 : INFINITY;
    if (overflow) o[(size_t)i * T + j] = 1e308;
    c.bias0 = b, c.other = o;
    if (overflow)
        lab_case(EN_ES("bias[%d][%d] = other[%d][%d] = 1e308, whose sum overflows, in random "
                       "masks: T_q=T_k=%d%s",
                       "bias[%d][%d] = other[%d][%d] = 1e308, cuya suma desborda, en máscaras "
                       "aleatorias: T_q=T_k=%d%s"), i, j, i, j, T, seed_text());
    else
        lab_case(EN_ES("bias[%d][%d] = +inf in random masks: T_q=T_k=%d%s",
                       "bias[%d][%d] = +inf en máscaras aleatorias: T_q=T_k=%d%s"),
                 i, j, T, seed_text());
    lab_mat *bias = lab_out("bias", T, T), *other = lab_in("other", T, T, o);
    memcpy(bias->p, b, n * sizeof *b);
    char when[160];
    snprintf(when, sizeof when, overflow ? EN_ES("for bias[%d][%d] + other[%d][%d] = 2e308",
                                                 "con bias[%d][%d] + other[%d][%d] = 2e308")
                                         : EN_ES("for bias[%d][%d] = +inf",
                                                 "con bias[%d][%d] = +inf"), i, j, i, j);
    mm_status want = overflow ? MM_ERANGE : MM_EINVAL;
    if (call_refused("mask_combine", LAB_BUFS(bias, other), LAB_INTS(T, T), want, when) ||
        combine_status_hint(&c, want, refused_status))
        return;
    if (overflow)
        check_hint(CH_SUM_OVERFLOW_ANYWHERE);
    else
        check_hint(CH_PLUS_INF_MASK);
}

/* check_combine_overlap - other starting 2 elements into bias, and bias
 * starting 2 elements into other (alias.h): each buffer is (3, 2), the call
 * (2, 2), so that the overlap stays inside it */
static void check_combine_overlap(int unused)
{
    (void)unused;
    static const double vals[6] = { 0, -INFINITY, 1.5, 0, -2, 0 };
    bool ok = true;
    for (int which = 0; which < 2; which++) {
        lab_mat *bias = lab_out(which ? "other + 2" : "bias", which ? 2 : 3, 2);
        lab_mat *other = which ? lab_in("other", 3, 2, vals) : lab_in("bias + 2", 2, 2, NULL);
        if (which) {
            bias->p[0] = MASK_ALIAS_TAG - 1;            /* bias = other + 2 */
            bias->p[1] = MASK_ALIAS_TAG - 16;
        } else {
            memcpy(bias->p, vals, sizeof vals);
            other->p[0] = MASK_ALIAS_TAG - 0;           /* other = bias + 2 */
            other->p[1] = MASK_ALIAS_TAG - 16;
            other->given = lab_fresh(4, other->p);
        }
        lab_case(which ? "bias = other + 2" : "other = bias + 2");
        ok &= call_refused("mask_combine", LAB_BUFS(bias, other), LAB_INTS(2, 2), MM_EINVAL,
                           which ? EN_ES("for bias starting 2 elements into other",
                                         "con bias empezando 2 elementos dentro de other")
                                 : EN_ES("for other starting 2 elements into bias",
                                         "con other empezando 2 elementos dentro de bias"));
    }
    if (!ok)
        check_hint(CH_COMBINE_OVERLAP);
}

/* ---- mha_forward_causal: the cases ------------------------------------------------------- */

enum { FC_WORKED, FC_WORKED_NO_WEIGHTS, FC_INIT, FC_SET_NO_WEIGHTS, FC_ONE_TOKEN, FC_DK_ONE,
       FC_PLANTED, FC_PLANTED_NO_WEIGHTS, FC_PREFIX, FC_PREFIX_PART, FC_1024, FC_LONG,
       FC_LONG_AGAIN, FC_T1, FC_FUTURE };

/* the fixed layers (../lab03/layer_case.h) */
static const layer_shape shapes[] = {
    [FC_INIT]           = { 5, 6, 2, 1, 0.0, 11, true },
    [FC_SET_NO_WEIGHTS] = { 7, 6, 3, 2, 0.5, 12, false },
    [FC_ONE_TOKEN]      = { 1, 6, 3, 5, 0.5, 15, true },
    [FC_DK_ONE]         = { 6, 4, 4, 4, 0.5, 14, true },
    [FC_PREFIX]         = { 12, 8, 2, 3, 0.5, 13, true },
    [FC_PREFIX_PART]    = { 7, 8, 2, 3, 0.5, 13, true },
};

/* future_layer - the case of a future key whose score would overflow:
 * (T, 8) x and a layer of 2 heads, random, but token T - 1 is 1e300 e_0,
 * and row 0 of W_Q, W_K, W_V is 0 but for W_K[0][0] = 1: its key is 1e300
 * in column 0, its query and value 0. Column 0 of W_Q is 1e12 e_1, and
 * x[i][1] >= 1 for the other tokens: their queries hold 1e12 or more in
 * column 0, so q_i . k_(T-1) is past 1e308 - a score the causal mask hides
 * from every query but T - 1's, whose query is 0 */
static mha *future_layer(causal_case *c, int T)
{
    enum { D = 8 };
    double *w = lab_random(4 * D * D, 0.35, SALT_FC_FUTURE);     /* W_Q, W_K, W_V, W_O */
    double *w_q = w, *w_k = w + D * D, *w_v = w + 2 * D * D;
    for (int col = 0; col < D; col++) w_q[col] = w_k[col] = w_v[col] = 0.0;
    w_k[0] = 1.0;
    for (int r = 0; r < D; r++) w_q[r * D] = r == 1 ? 1e12 : 0.0;
    double *x = lab_random((size_t)T * D, 1.0, SALT_FC_FUTURE + 1);
    for (int t = 0; t < T - 1; t++) x[t * D + 1] = 1.0 + fabs(x[t * D + 1]);
    for (int col = 0; col < D; col++) x[(T - 1) * D + col] = col == 0 ? 1e300 : 0.0;
    c->x = x;
    mha *layer = NULL;
    LAB_REF(mha_new(&layer, D, 2, 1));
    set_weights(layer, w);
    return layer;
}

/* random_causal - the cases of mha_forward_causal drawn from the run's
 * seed (c->name says which, with the seed); the layer. Each pair of cases
 * that shares a shape does so on purpose (fresh values for one shape); no
 * other shares one with another case. */
static mha *random_causal(causal_case *c, int which)
{
    mha *layer = NULL;
    const char *what = "";
    int T, d, H;
    c->weights = true;
    if (which == FC_1024 || which == FC_LONG || which == FC_LONG_AGAIN) {
        /* long sequences at Mini-GPT's width: 1024 tokens (2 or 4 heads: their
         * weights, 32 MB at most, fit in the harness's shared memory), then a
         * random length twice, the same shape again with fresh values and no
         * weights */
        bool again = which == FC_LONG_AGAIN;
        T = which == FC_1024 ? 1024 : (int)lab_random_int(256, 320, SALT_FC_LONG);
        d = 64, H = 1 << lab_random_int(1, 2, which == FC_1024 ? SALT_FC_1024 : SALT_FC_LONG);
        uint64_t salt = which == FC_1024 ? SALT_FC_1024 : again ? SALT_FC_AGAIN : SALT_FC_LONG;
        layer = random_layer(d, H, 0.125, salt);
        c->x = lab_random((size_t)T * d, 1.0, salt + 1000);
        c->weights = !again;
        if (again)
            what = EN_ES("the same shape again, fresh values, weights = NULL: ",
                         "la misma forma otra vez, valores nuevos, weights = NULL: ");
    } else if (which == FC_T1) {
        T = 1, H = (int)lab_random_int(1, 4, SALT_FC_T1);
        d = H * (int)lab_random_int(3, 5, SALT_FC_T1 + 1);          /* d_k >= 3: not (1, 6, 3) */
        layer = random_layer(d, H, 0.5, SALT_FC_T1);
        c->x = lab_random((size_t)d, 2.0, SALT_FC_T1 + 1000);
    } else {                                                        /* FC_FUTURE */
        T = (int)lab_random_int(13, 31, SALT_FC_FUTURE), d = 8, H = 2;
        layer = future_layer(c, T);
        what = EN_ES("a future key whose score would overflow - the last token's key holds "
                     "1e300, every earlier query 1e12 or more in that column (q . k past 1e308, "
                     "were it computed) - hidden by the causal mask: ",
                     "una key futura cuya puntuación desbordaría - la key del último token "
                     "tiene 1e300, cada query anterior 1e12 o más en esa columna (q . k más "
                     "allá de 1e308, si se calculara) - oculta por la máscara causal: ");
    }
    c->T = T, c->d_model = d, c->n_heads = H;
    random_name(c, what);
    return layer;
}

/* worked_case - chapter 03's worked example, causal, named */
static mha *worked_case(causal_case *c, int which)
{
    char x[80], wo[120];
    c->weights = which == FC_WORKED;
    mha *layer = worked_layer(c, x, wo);
    snprintf(c->name, sizeof c->name,
             EN_ES("worked example of chapter 03, causal: X = %s, W_Q = W_K = W_V = I, "
                   "W_O = %s%s",
                   "ejemplo resuelto del capítulo 03, causal: X = %s, W_Q = W_K = W_V = I, "
                   "W_O = %s%s"),
             x, wo, c->weights ? "" : ", weights = NULL");
    return layer;
}

static void causal_case_make(causal_case *c, int which)
{
    memset(c, 0, sizeof *c);
    mha *layer = NULL;
    const char *what = NULL;
    char extra[160] = "";
    if (which == FC_WORKED || which == FC_WORKED_NO_WEIGHTS) {
        layer = worked_case(c, which);
    } else if (which == FC_PLANTED || which == FC_PLANTED_NO_WEIGHTS) {
        c->weights = which == FC_PLANTED;
        layer = planted_case(c);
        what = EN_ES("chapter 03's eight tokens \"I work , you work , he ___\" through its "
                     "four planted heads, causal",
                     "los ocho tokens del capítulo 03 \"I work , you work , he ___\" por sus "
                     "cuatro cabezas plantadas, con máscara causal");
    } else if (which >= FC_1024) {
        layer = random_causal(c, which);
    } else {        /* the prefix's part: x is the first 7 tokens of the 12 (lab_normals) */
        layer = shape_layer(c, &shapes[which], extra, sizeof extra);
        what = which == FC_ONE_TOKEN ? EN_ES("one token", "un token")
             : which == FC_DK_ONE ? EN_ES("heads one column wide", "cabezas de una columna")
             : which == FC_PREFIX ? EN_ES("12 tokens", "12 tokens")
             : which == FC_PREFIX_PART ? EN_ES("the first 7 of those 12 tokens alone",
                                               "los 7 primeros de esos 12 tokens, solos")
             : "";
    }
    take_layer(c, layer);
    mm_status st = mha_forward_causal(c->want_out, c->want_w, layer, c->x, c->T);
    mha_free(layer);
    if (st != MM_OK) lab_bug("the reference failed: %s", mm_last_error());
    /* the numbers chapter 04 states for its worked example, to 4 places */
    static const double worked[12] = { 2, 0, 0, 0, 0.6605, 1.3395, 0, 0,
                                       1.0851, 1.0851, 0.4184, 0.4184 };
    for (int e = 0; which <= FC_WORKED_NO_WEIGHTS && e < 12; e++)
        if (fabs(c->want_out[e] - worked[e]) > 5e-5)
            lab_bug("the worked example gives out[%d][%d] = %.4f, not chapter 04's %.4f",
                    e / 4, e % 4, c->want_out[e], worked[e]);
    case_name(c, what, extra);
}

/* the buffers of mha_forward_causal: layer_check.h's, without a bias */
enum { N_BUFS = B_BIAS };

/* who reads the layer, in layer_kept's hint */
static const char *const causal_reads[2] = { "the causal layer", "la capa causal" };

/* causal_call - the learner's mha_forward_causal on case c: out[0] out,
 * out[1] weights (or NULL); the layer's struct read back after the call */
static mm_status causal_call(const causal_case *c, lab_mat *out[2])
{
    lab_mat *b[N_BUFS];
    case_bufs(b, N_BUFS, c);
    out[0] = b[B_OUT], out[1] = b[B_WEIGHTS];
    return layer_call("mha_forward_causal", b, N_BUFS, c->T, c->d_model, c->n_heads,
                      causal_reads);
}

/* above_diagonal_zero - every weight above the diagonal exactly 0 (the
 * values passed within the tolerance, which a weight of 1e-13 passes) */
static void above_diagonal_zero(const causal_case *c, const lab_mat *w)
{
    int T = c->T;
    for (int h = 0; h < c->n_heads; h++)
        for (int i = 0; i < T; i++)
            for (int j = i + 1; j < T; j++) {
                double v = w->p[((size_t)h * T + i) * T + j];
                if (v == 0.0) continue;
                lab_fail(EN_ES("weights of head %d, row %d, key %d (above the diagonal) is %.3g, "
                               "not exactly 0: token %d must not see token %d at all",
                               "weights de la cabeza %d, fila %d, key %d (sobre la diagonal) es "
                               "%.3g, no exactamente 0: el token %d no debe ver el token %d en "
                               "absoluto"), h, i, j, v, i, j);
                check_hint(CH_FINITE_HIDDEN);
                return;
            }
}

/* mask_differs - the first head of w (n_heads, T, T) whose keys seen (a weight above 0) are
 * not the causal ones (key j <= query i), and in it the first query and key that differ;
 * false if none */
static bool mask_differs(const causal_case *c, const double *w, int *h, int *i, int *j)
{
    int T = c->T;
    for (*h = 0; *h < c->n_heads; (*h)++)
        for (*i = 0; *i < T; (*i)++)
            for (*j = 0; *j < T; (*j)++)
                if ((*j <= *i) != (w[((size_t)*h * T + *i) * T + *j] > 0)) return true;
    return false;
}

/* mask_row - query i's keys k0 .. k0 + n - 1 in head h of w, expected (the causal mask)
 * beside seen: x a weight above 0, . a weight of 0, ? anything else (NaN, below 0), each
 * one that differs marked *; appended to text at len, its new length */
static int mask_row(char *text, size_t size, int len, const causal_case *c, const double *w,
                    int h, int i, int k0, int n)
{
    char row[2][40];
    for (int j = k0; j < k0 + n; j++) {
        double v = w[((size_t)h * c->T + i) * c->T + j];
        char want = j <= i ? 'x' : '.', got = v > 0 ? 'x' : v == 0 ? '.' : '?';
        row[0][2 * (j - k0)] = want;
        row[0][2 * (j - k0) + 1] = ' ';
        row[1][2 * (j - k0)] = got;
        row[1][2 * (j - k0) + 1] = got == want ? ' ' : '*';
    }
    row[0][2 * n] = row[1][2 * n] = '\0';
    return len + snprintf(text + len, size - len, "\n%-*s    %s", 2 * n > 8 ? 2 * n : 8,
                          row[0], row[1]);
}

/* show_mask - the keys each query sees in the first head of the learner's weights w where
 * they are not the causal ones, expected beside got, as grids of characters (8 x 8 at most,
 * around the first difference); true if shown */
static bool show_mask(const causal_case *c, const double *w)
{
    int T = c->T, h, fi, fj;
    if (!c->weights || !mask_differs(c, w, &h, &fi, &fj)) return false;
    int n = T < 8 ? T : 8;
    int r0 = fi - n / 2 < 0 ? 0 : fi - n / 2 > T - n ? T - n : fi - n / 2;
    int k0 = fj - n / 2 < 0 ? 0 : fj - n / 2 > T - n ? T - n : fj - n / 2;
    char text[2048], part[96] = "";
    if (n < T)
        snprintf(part, sizeof part, EN_ES(", queries %d .. %d and keys %d .. %d",
                                          ", queries %d .. %d y keys %d .. %d"),
                 r0, r0 + n - 1, k0, k0 + n - 1);
    int len = snprintf(text, sizeof text,
                       EN_ES("the keys each query sees in head %d%s (x: a weight above 0, "
                             ".: a weight of 0, ?: NaN or below 0), the causal mask's beside "
                             "your weights':\n%-*s    %s",
                             "las keys que ve cada query en la cabeza %d%s (x: un peso mayor "
                             "que 0, .: un peso 0, ?: NaN o menor que 0), las de la máscara "
                             "causal junto a las de tus pesos:\n%-*s    %s"),
                       h, part, 2 * n > 8 ? 2 * n : 8, EN_ES("expected", "esperado"),
                       EN_ES("got", "obtenido"));
    for (int i = r0; i < r0 + n; i++) len = mask_row(text, sizeof text, len, c, w, h, i, k0, n);
    lab_detail("%s", text);
    return true;
}

/* causal_stages - after a wrong result on case c (out[] the call's out and weights): the
 * keys the first wrong head sees, if not the causal ones; when out is wrong, each head's
 * weights (unless the keys were shown), and if neither was wrong the heads side by side
 * before W_O (the learner's mha_forward_causal again, W_O = I). Not on a long case */
static void causal_stages(const causal_case *c, lab_mat *const out[2])
{
    if (c->T > 128) return;
    size_t n = (size_t)c->T * c->d_model;
    bool mask_shown = c->weights && show_mask(c, out[1]->p);
    if (lab_close(out[0]->p, c->want_out, n, lab_scale(c->want_out, n))) return;
    if (mask_shown || show_weights(c, out[1])) return;
    double *eye = lab_fresh((size_t)c->d_model * c->d_model, NULL);
    mha layer = eye_layer(c, eye);
    double *concat = lab_fresh(n, NULL), *w = lab_fresh((size_t)c->n_heads * c->T * c->T, NULL);
    LAB_REF(mha_forward_causal(concat, w, &layer, c->x, c->T));
    show_concat(c, "mha_forward_causal", N_BUFS, concat);
}

static void check_causal(int which)
{
    causal_case c;
    causal_case_make(&c, which);
    lab_case("%s", c.name);
    lab_mat *out[2];
    mm_status st = causal_call(&c, out);
    const double *want[2] = { c.want_out, c.want_w };
    if (lab_check_values(st, c.weights ? 2 : 1, out, want, diagnose_causal, &c)) {
        if (c.weights) above_diagonal_zero(&c, out[1]);
        return;
    }
    bool nan_out = false;
    for (size_t e = 0; st == MM_OK && e < out[0]->n; e++) nan_out |= isnan(out[0]->p[e]);
    if (which == FC_FUTURE && (st != MM_OK || nan_out)) {
        check_hint(CH_FUTURE_KEY);
        return;
    }
    const char *why = lab_learner_error();
    int nan_h = -1, nan_i = -1;
    for (int h = 0; st == MM_EINVAL && c.weights && h < c.n_heads && nan_h < 0; h++)
        for (int i = 0; i < c.T && nan_h < 0; i++) {
            int j = 0;
            while (j < c.T && isnan(out[1]->p[((size_t)h * c.T + i) * c.T + j])) j++;
            if (j == c.T) nan_h = h, nan_i = i;
        }
    if (nan_h >= 0)
        nan_row_hint(nan_i, nan_h);
    else if (st == MM_EINVAL && (strstr(why, "nan") || strstr(why, "NaN")))
        check_hint(CH_INNER_NAN);
    if (st != MM_OK && strncmp(why, "mask_causal", 11) == 0)
        check_hint(CH_MASK_CALL_FAILED);
    if (st == MM_OK) causal_stages(&c, out);
}

/* prefix_kept - the first P = 7 rows of out, and of each head's weights,
 * of the 12 tokens (out12) must be those of the 7 alone (out7) */
static void prefix_kept(const causal_case *all, const causal_case *part, lab_mat *const out12[2],
                        lab_mat *const out7[2])
{
    int P = part->T, T = all->T, d = all->d_model, H = all->n_heads;
    double scale = fmax(lab_scale(out7[0]->p, out7[0]->n), 1.0);
    bool same = lab_close(out12[0]->p, out7[0]->p, (size_t)P * d, scale);
    int bad_h = -1, bad_i = -1;
    for (int h = 0; h < H && same; h++)
        for (int i = 0; i < P && same; i++)
            if (!lab_close(out12[1]->p + ((size_t)h * T + i) * T,
                           out7[1]->p + ((size_t)h * P + i) * P, (size_t)P, 1.0))
                same = false, bad_h = h, bad_i = i;
    if (same) return;
    int row = 0;
    while (bad_h < 0 && row < P &&
           lab_close(out12[0]->p + (size_t)row * d, out7[0]->p + (size_t)row * d,
                     (size_t)d, scale))
        row++;
    if (bad_h >= 0)
        lab_fail(EN_ES("the weights of token %d in head %d changed when tokens %d .. %d "
                       "were appended: what token %d sees must not depend on the tokens "
                       "after it",
                       "los pesos del token %d en la cabeza %d cambiaron al añadir los "
                       "tokens %d .. %d: lo que ve el token %d no debe depender de los "
                       "tokens que vienen después"), bad_i, bad_h, P, T - 1, bad_i);
    else
        lab_fail(EN_ES("the output of token %d changed when tokens %d .. %d were "
                       "appended (out[%d][0]: %.10g with 12 tokens, %.10g with the first "
                       "7 alone): the future leaks into the past",
                       "la salida del token %d cambió al añadir los tokens %d .. %d "
                       "(out[%d][0]: %.10g con 12 tokens, %.10g con los 7 primeros "
                       "solos): el futuro se filtra en el pasado"),
                 row, P, T - 1, row, out12[0]->p[(size_t)row * d],
                 out7[0]->p[(size_t)row * d]);
    check_hint(CH_PREFIX);
}

/* check_prefix - the learner's layer on 12 tokens and on their first 7 */
static void check_prefix(int unused)
{
    (void)unused;
    causal_case all, part;
    causal_case_make(&all, FC_PREFIX);
    causal_case_make(&part, FC_PREFIX_PART);
    lab_case(EN_ES("prefix invariance: the first 7 of 12 tokens, with and without the other 5; "
                   "%s",
                   "invariancia del prefijo: los 7 primeros de 12 tokens, con y sin los otros 5; "
                   "%s"), all.name);
    lab_mat *out12[2], *out7[2];
    mm_status st12 = causal_call(&all, out12);
    mm_status st7 = causal_call(&part, out7);
    if (st12 == MM_OK && st7 == MM_OK) prefix_kept(&all, &part, out12, out7);
    const double *want12[2] = { all.want_out, all.want_w };
    const double *want7[2] = { part.want_out, part.want_w };
    lab_case("%s", all.name);
    if (!lab_check_values(st12, 2, out12, want12, diagnose_causal, &all)) return;
    above_diagonal_zero(&all, out12[1]);
    lab_case("%s", part.name);
    if (lab_check_values(st7, 2, out7, want7, diagnose_causal, &part))
        above_diagonal_zero(&part, out7[1]);
}

/* ---- mha_forward_causal: bad arguments --------------------------------------------------- */

/* causal_refused - call_refused for mha_forward_causal on a layer (2, 1),
 * the outputs as they were after MM_EINVAL (after MM_ERANGE they are
 * unspecified), the layer's struct read back after the call */
static bool causal_refused(lab_mat *const b[N_BUFS], long T, mm_status want, const char *when)
{
    lab_mat *all[N_BUFS + 1];
    int n_bufs = with_record(all, b, N_BUFS);
    bool right = call_refused_kept("mha_forward_causal", n_bufs, all, N_BUFS, want == MM_EINVAL, 3,
                                   (const long[3]){ T, 2, 1 }, want, when);
    if (all[N_BUFS]) layer_kept(all[N_BUFS], "mha_forward_causal", causal_reads, 2, 1);
    return right;
}

static void check_causal_nulls(int unused)
{
    (void)unused;
    layer_nulls(N_BUFS, causal_refused);
}

static void check_causal_sizes(int unused)
{
    (void)unused;
    if (!layer_sizes(N_BUFS, causal_refused,
                     EN_ES("for T = INT_MAX: the (T, T) mask would hold about 2^62 doubles",
                           "con T = INT_MAX: la máscara (T, T) tendría unos 2^62 doubles")))
        check_hint(CH_CAUSAL_SIZE_PRODUCT);
}

/* check_causal_x - x not finite: mha_forward's MM_EINVAL */
static void check_causal_x(int unused)
{
    (void)unused;
    static const double xs[2][4] = { { 1, NAN, 0, 1 }, { 1, 0, INFINITY, 1 } };
    static const char *const names[2] = { "x[1] = NaN", "x[2] = +inf" };
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        lab_mat *b[N_BUFS];
        rooms_with(b, N_BUFS, NULL, NULL, xs[i], NULL);
        char when[48];
        lab_case_when(when, sizeof when, "%s", names[i]);
        ok &= causal_refused(b, 2, MM_EINVAL, when);
    }
    if (!ok)
        check_hint(CH_PASS_X_STATUS);
}

/* check_causal_aliases - out the same buffer as x; weights starting 1
 * element into out (calls.c passes the buffer twice) */
static void check_causal_aliases(int unused)
{
    (void)unused;
    bool ok = true;
    for (int which = 0; which < 2; which++) {
        lab_mat *b[N_BUFS];
        rooms_with(b, N_BUFS, NULL, NULL, NULL, NULL);
        if (which) {
            b[B_OUT] = lab_out("out", 3, 2);           /* longer: the overlap stays inside */
            b[B_WEIGHTS] = lab_out("out + 1", 2, 2);
            b[B_WEIGHTS]->p[0] = MASK_ALIAS_TAG - B_OUT;
            b[B_WEIGHTS]->p[1] = MASK_ALIAS_TAG - 8;
        } else {
            b[B_OUT] = lab_out("x", 2, 2);
            b[B_OUT]->p[0] = MASK_ALIAS_TAG - B_X;
            b[B_OUT]->p[1] = MASK_ALIAS_TAG - 0;
        }
        lab_case(which ? "weights = out + 1" : "out = x");
        ok &= causal_refused(b, 2, MM_EINVAL,
                             which ? EN_ES("for weights starting 1 element into out",
                                           "con weights empezando 1 elemento dentro de out")
                                   : EN_ES("for out and x the same buffer",
                                           "con out y x el mismo búfer"));
    }
    if (!ok)
        check_hint(CH_PASS_ALIAS_STATUS);
}

/* check_causal_overflow - finite inputs whose product overflows: MM_ERANGE */
static void check_causal_overflow(int unused)
{
    (void)unused;
    lab_mat *b[N_BUFS];
    rooms_with(b, N_BUFS, (const double[12]){ 1e200, 0, 0, 1, 2, 0, 0, 1, 1, 0, 0, 3 }, NULL,
               (const double[4]){ 1e200, 0, 0, 1 }, NULL);
    const char *name = EN_ES("x[0] = 1e200, W_Q[0][0] = 1e200: X W_QKV overflows",
                             "x[0] = 1e200, W_Q[0][0] = 1e200: X W_QKV desborda");
    char when[120];
    lab_case_when(when, sizeof when, "%s", name);
    if (!causal_refused(b, 2, MM_ERANGE, when))
        check_hint(CH_PASS_RANGE_STATUS);
}

/* check_causal_one_token_overflow - one token whose score with itself
 * overflows: MM_ERANGE (one token attends to itself: its weight is 1 only
 * if its score is a number) */
static void check_causal_one_token_overflow(int unused)
{
    (void)unused;
    lab_mat *b[N_BUFS] = { lab_out("out", 1, 2), lab_out("weights", 1, 1),
                           lab_in(buf_name[B_WQKV], 2, 6, (const double[12]){ 1, 0, 1, 0, 1, 0,
                                                                             0, 1, 0, 1, 0, 1 }),
                           lab_in(buf_name[B_WO], 2, 2, (const double[4]){ 1, 0, 0, 1 }),
                           lab_in("x", 1, 2, (const double[2]){ 1e160, 0 }) };
    const char *name = EN_ES("one token, x = [[1e160, 0]], W_Q = W_K = W_V = I: its score with "
                             "itself, q . k = 1e320, overflows",
                             "un token, x = [[1e160, 0]], W_Q = W_K = W_V = I: su puntuación "
                             "consigo mismo, q . k = 1e320, desborda");
    char when[200];
    lab_case_when(when, sizeof when, "%s", name);
    if (!causal_refused(b, 1, MM_ERANGE, when))
        check_hint(CH_ONE_TOKEN);
}

/* ---- the tables, from the descriptor -------------------------------------------------- */

/* MASK(fn, i) - check_mask's arg for case i of mask function fn */
#define MASK(fn, i) ((fn) * 16 + (i))

LAB_JUDGE_TABLES(LAB04);
