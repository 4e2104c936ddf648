/* check.c - the checks of lab 01, run by the judge: each of the learner's
 * five functions on the chapter's worked example (tangled/examples/
 * ch01-worked.h, the numbers the chapter states), a non-square case, random
 * cases, and bad arguments; the learner's results (from its own process,
 * through lab_call) are compared with the library's, the reference. The
 * checks of one function run in the order lab01.def lists them against one
 * learner process, on cases of different shapes, so that state kept
 * between calls shows. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "examples/ch01-worked.h"
#include "minimodel/core/rng.h"
#include "lab01.h"
#include "lab01.def"

/* ---- the cases ---------------------------------------------------------------- */

/* a non-square case: T != d_model != d_k != d_v, no symmetry to hide a mistake */
static const double ns_x[] = {  1, 2, 0, -1,
                                0, 1, 3,  2,
                               -2, 0, 1,  1 };                 /* (3, 4) */
static const double ns_w_q[] = { 1, 0,  2, 1,  0, -1,  1, 3 };  /* (4, 2) */
static const double ns_w_k[] = { 0, 1,  1, 1, -1,  0,  2, 0 };  /* (4, 2) */
static const double ns_w_v[] = { 1, 0, 2,  0, 1, 0,  3, 0, -1,  0, 2, 1 }; /* (4, 3) */

static void set_shape(qkv_case *c, int T, int d_model, int d_k, int d_v)
{
    c->T = T;
    c->d_model = d_model;
    c->d_k = d_k;
    c->d_v = d_v;
}

/* worked_example - case 0: the chapter's worked example, from its header */
static void worked_example(qkv_case *c)
{
    const int n = CH01_T * CH01_D;
    set_shape(c, CH01_T, CH01_D, CH01_D, CH01_D);
    const double *m[4] = { ch01_x, ch01_w_q, ch01_w_k, ch01_w_v };
    const char *names[4] = { "X", "W_Q", "W_K", "W_V" };
    size_t len = snprintf(c->name, sizeof c->name, "%s",
                          EN_ES("worked example of chapter 01: ",
                                "ejemplo resuelto del capítulo 01: "));
    for (int i = 0; i < 4 && len < sizeof c->name; i++) {
        len += snprintf(c->name + len, sizeof c->name - len, "%s%s = ", i ? ", " : "", names[i]);
        if (len < sizeof c->name)
            len += lab_mat_text(c->name + len, sizeof c->name - len, m[i], CH01_D, CH01_D);
    }
    c->x = lab_fresh(n, ch01_x);
    c->w_q = lab_fresh(n, ch01_w_q);
    c->w_k = lab_fresh(n, ch01_w_k);
    c->w_v = lab_fresh(n, ch01_w_v);
}

/* The cases drawn from the run's seed (lab_random): the learner's code
 * cannot know them before the run. Each case has salts of its own; cases
 * 2 and 3 share their shape (the same shape twice, fresh values). */
enum { SALT_SHAPE_RANDOM = 10, SALT_SHAPE_ONE_ROW = 20, SALT_SHAPE_EXTREME = 30,
       SALT_SHAPE_LONG = 40, SALT_VALUES = 100 };

/* random_shape - T, d_model, d_k and d_v from the seed, each within
 * lo[i] .. hi[i], with salt */
static void random_shape(qkv_case *c, const int lo[4], const int hi[4], uint64_t salt)
{
    int n[4];
    for (int i = 0; i < 4; i++) n[i] = (int)lab_random_int(lo[i], hi[i], salt + i);
    set_shape(c, n[0], n[1], n[2], n[3]);
}

/* random_values - X and the three matrices N(0, 1) from the seed and salt */
static void random_values(qkv_case *c, uint64_t salt)
{
    c->x = lab_random((size_t)c->T * c->d_model, 1.0, salt);
    c->w_q = lab_random((size_t)c->d_model * c->d_k, 1.0, salt + 1);
    c->w_k = lab_random((size_t)c->d_model * c->d_k, 1.0, salt + 2);
    c->w_v = lab_random((size_t)c->d_model * c->d_v, 1.0, salt + 3);
}

/* large - a double of magnitude DBL_MAX / 16 to DBL_MAX / 2, far above
 * FLT_MAX (3.4e38, where a float overflows) and as far as two of them can
 * be apart and still differ by a finite amount, from two N(0, 1) draws: z
 * sets the magnitude (through the normal's distribution function), sign_z
 * the sign */
static double large(double z, double sign_z)
{
    double u = 0.5 * erfc(-z / sqrt(2.0));
    return copysign(DBL_MAX / 16 * (1.0 + 7.0 * u), sign_z);
}

/* extreme_values - X of one-hot rows (+1 or -1 at a column drawn from the
 * seed): each of Q, K, V then copies a row of its matrix, exactly and
 * without overflow, so the weights can be as large as a double allows:
 * they are large(), both signs */
static void extreme_values(qkv_case *c, uint64_t salt)
{
    c->x = lab_fresh((size_t)c->T * c->d_model, NULL);
    const double *sign = lab_random((size_t)c->T, 1.0, salt);
    for (int t = 0; t < c->T; t++) {
        int at = (int)lab_random_int(0, c->d_model - 1, salt + 1 + (uint64_t)t);
        c->x[(size_t)t * c->d_model + at] = sign[t] < 0 ? -1.0 : 1.0;
    }
    double **w[3] = { &c->w_q, &c->w_k, &c->w_v };
    size_t n[3] = { (size_t)c->d_model * c->d_k, (size_t)c->d_model * c->d_k,
                    (size_t)c->d_model * c->d_v };
    for (int i = 0; i < 3; i++) {
        const double *z = lab_random(n[i], 1.0, salt + 1000 + 2 * (uint64_t)i);
        const double *s = lab_random(n[i], 1.0, salt + 1001 + 2 * (uint64_t)i);
        *w[i] = lab_fresh(n[i], NULL);
        for (size_t j = 0; j < n[i]; j++) (*w[i])[j] = large(z[j], s[j]);
    }
}

/* seeded_case - cases 2 to 6, named by their shape and the run's seed */
static void seeded_case(qkv_case *c, int which)
{
    static const int lo[][4] = { { 2, 2, 3, 2 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 },
                                 { 256, 256, 2, 2 } };
    static const int hi[][4] = { { 9, 8, 6, 6 }, { 1, 1, 6, 6 }, { 6, 4, 4, 4 },
                                 { 320, 320, 6, 6 } };
    static const uint64_t shape_salt[] = { SALT_SHAPE_RANDOM, SALT_SHAPE_ONE_ROW,
                                           SALT_SHAPE_EXTREME, SALT_SHAPE_LONG };
    static const char *const what[][2] = {
        { "random", "aleatorio" },
        { "random, the same shape again with fresh values:",
          "aleatorio, la misma forma otra vez con valores nuevos:" },
        { "one row", "una fila" },
        { "extreme values (X with a single +-1 in each row, weights from +-1.1e307 to +-9e307)",
          "valores extremos (X con un solo +-1 en cada fila, pesos de +-1.1e307 a +-9e307)" },
        { "long sequence", "secuencia larga" },
    };
    int kind = which == 2 ? 0 : which - 3;            /* cases 2 and 3: one shape */
    random_shape(c, lo[kind], hi[kind], shape_salt[kind]);
    uint64_t salt = SALT_VALUES + 100 * (uint64_t)which;
    if (which == 5) extreme_values(c, salt);
    else random_values(c, salt);
    snprintf(c->name, sizeof c->name, EN_ES("%s T=%d d_model=%d d_k=%d d_v=%d (seed %llu)",
                                            "%s T=%d d_model=%d d_k=%d d_v=%d (semilla %llu)"),
             what[which - 2][lab_es()], c->T, c->d_model, c->d_k, c->d_v,
             (unsigned long long)lab_seed());
}

void qkv_case_make(qkv_case *c, int which)
{
    if (which == 0) {
        worked_example(c);
    } else if (which == 1) {
        set_shape(c, 3, 4, 2, 3);
        snprintf(c->name, sizeof c->name, "%s", EN_ES("non-square T=3 d_model=4 d_k=2 d_v=3",
                                                      "no cuadrado T=3 d_model=4 d_k=2 d_v=3"));
        c->x = lab_fresh(12, ns_x);
        c->w_q = lab_fresh(8, ns_w_q);
        c->w_k = lab_fresh(8, ns_w_k);
        c->w_v = lab_fresh(12, ns_w_v);
    } else {
        seeded_case(c, which);
    }
    /* the fused path, by the reference: W_QKV and X W_QKV */
    int d_qkv = 2 * c->d_k + c->d_v;
    double *scratch[3] = { lab_fresh((size_t)c->T * c->d_k, NULL),
                           lab_fresh((size_t)c->T * c->d_k, NULL),
                           lab_fresh((size_t)c->T * c->d_v, NULL) };
    c->w_qkv = lab_fresh((size_t)c->d_model * d_qkv, NULL);
    c->qkv = lab_fresh((size_t)c->T * d_qkv, NULL);
    LAB_REF(qkv_pack(c->w_qkv, c->w_q, c->w_k, c->w_v, c->d_model, c->d_k, c->d_v));
    LAB_REF(qkv_project_fused(scratch[0], scratch[1], scratch[2], c->qkv, c->x, c->w_qkv,
                              c->T, c->d_model, c->d_k, c->d_v));
}

/* begin_case - case number which, named as the running check's case */
static void begin_case(qkv_case *c, int which)
{
    qkv_case_make(c, which);
    lab_case("%s", c->name);
}

/* fresh_qkv - harness-owned q (T, d_k), k (T, d_k), v (T, d_v): what the
 * reference writes */
static void fresh_qkv(double *m[3], const qkv_case *c)
{
    m[0] = lab_fresh((size_t)c->T * c->d_k, NULL);
    m[1] = lab_fresh((size_t)c->T * c->d_k, NULL);
    m[2] = lab_fresh((size_t)c->T * c->d_v, NULL);
}

/* out_qkv - the guarded outputs q (T, d_k), k (T, d_k), v (T, d_v): what the
 * learner writes */
static void out_qkv(lab_mat *out[3], const qkv_case *c)
{
    out[0] = lab_out("q", c->T, c->d_k);
    out[1] = lab_out("k", c->T, c->d_k);
    out[2] = lab_out("v", c->T, c->d_v);
}

/* ---- the checks of each function on one case ------------------------------------- */
/* Each computes the reference's outputs, calls the learner's function on
 * guarded copies of the inputs, and ends with lab_check_values. */

static void check_project(int which)
{
    qkv_case c;
    begin_case(&c, which);
    int T = c.T, d_model = c.d_model, d_k = c.d_k, d_v = c.d_v;
    double *want[3];
    fresh_qkv(want, &c);
    LAB_REF(qkv_project(want[0], want[1], want[2], c.x, c.w_q, c.w_k, c.w_v,
                        T, d_model, d_k, d_v));

    lab_mat *x = lab_in("x", T, d_model, c.x);
    lab_mat *w_q = lab_in("w_q", d_model, d_k, c.w_q);
    lab_mat *w_k = lab_in("w_k", d_model, d_k, c.w_k);
    lab_mat *w_v = lab_in("w_v", d_model, d_v, c.w_v);
    lab_mat *out[3];
    out_qkv(out, &c);
    mm_status s = lab_call("qkv_project", LAB_BUFS(out[0], out[1], out[2], x, w_q, w_k, w_v),
                           LAB_INTS(T, d_model, d_k, d_v));
    lab_check_values(s, 3, out, (const double **)want, diagnose_project, &c);
}

static void check_pack(int which)
{
    qkv_case c;
    begin_case(&c, which);
    int d_model = c.d_model, d_k = c.d_k, d_v = c.d_v;
    lab_mat *w_q = lab_in("w_q", d_model, d_k, c.w_q);
    lab_mat *w_k = lab_in("w_k", d_model, d_k, c.w_k);
    lab_mat *w_v = lab_in("w_v", d_model, d_v, c.w_v);
    lab_mat *w_qkv = lab_out("w_qkv", d_model, 2 * d_k + d_v);
    mm_status s = lab_call("qkv_pack", LAB_BUFS(w_qkv, w_q, w_k, w_v),
                           LAB_INTS(d_model, d_k, d_v));
    const double *want[1] = { c.w_qkv };
    lab_check_values(s, 1, &w_qkv, want, diagnose_pack, &c);
}

static void check_split(int which)
{
    qkv_case c;
    begin_case(&c, which);
    int T = c.T, d_k = c.d_k, d_v = c.d_v;
    double *want[3];
    fresh_qkv(want, &c);
    LAB_REF(qkv_split(want[0], want[1], want[2], c.qkv, T, d_k, d_v));

    lab_mat *qkv = lab_in("qkv", T, 2 * d_k + d_v, c.qkv);
    lab_mat *out[3];
    out_qkv(out, &c);
    mm_status s = lab_call("qkv_split", LAB_BUFS(out[0], out[1], out[2], qkv),
                           LAB_INTS(T, d_k, d_v));
    lab_check_values(s, 3, out, (const double **)want, diagnose_split, &c);
}

static void check_fused(int which)
{
    qkv_case c;
    begin_case(&c, which);
    int T = c.T, d_model = c.d_model, d_k = c.d_k, d_v = c.d_v, d_qkv = 2 * d_k + d_v;
    double *want[4];
    fresh_qkv(want, &c);
    want[3] = c.qkv;
    LAB_REF(qkv_split(want[0], want[1], want[2], c.qkv, T, d_k, d_v));

    lab_mat *x = lab_in("x", T, d_model, c.x);
    lab_mat *w_qkv = lab_in("w_qkv", d_model, d_qkv, c.w_qkv);
    lab_mat *out[4];
    out_qkv(out, &c);
    out[3] = lab_out("qkv", T, d_qkv);
    mm_status s = lab_call("qkv_project_fused",
                           LAB_BUFS(out[0], out[1], out[2], out[3], x, w_qkv),
                           LAB_INTS(T, d_model, d_k, d_v));
    lab_check_values(s, 4, out, (const double **)want, diagnose_fused, &c);
}

/* ---- bad arguments ------------------------------------------------------------------ */

/* The NULL and size checks are the same for the four functions that take
 * buffers: each is described by an arg_fn (its pointer arguments and the
 * sizes it takes), and check_nulls / check_sizes make the bad calls. */

/* the size arguments, in the order the functions take them */
enum { S_T, S_D_MODEL, S_D_K, S_D_V, N_SIZES };
static const char *const size_name[N_SIZES] = { "T", "d_model", "d_k", "d_v" };
#define ALL_SIZES ((1u << N_SIZES) - 1)

/* the valid sizes of the NULL checks, and the bad ones of the size checks:
 * one size not positive, the others valid */
static const int good_sizes[N_SIZES] = { 2, 2, 2, 2 };
static const struct { int bad, value; } bad_sizes[] = {
    { S_T, 0 },       { S_T, -1 },       { S_D_MODEL, 0 }, { S_D_MODEL, -2 },
    { S_D_K, 0 },     { S_D_K, -1 },     { S_D_V, 0 },     { S_D_V, -3 },
};
#define N_BAD_SIZES (int)(sizeof bad_sizes / sizeof bad_sizes[0])

#define MAX_BUFFERS 8
/* arg_fn - one learner function, as the bad-argument checks call it */
typedef struct {
    const char *name;                        /* "qkv_split" */
    const char *buffer[MAX_BUFFERS];         /* its pointer arguments, in order, NULL-ended */
    unsigned sizes;                          /* the sizes it takes: bit S_T, S_D_MODEL, ... */
} arg_fn;

static const arg_fn arg_fns[] = {
    { "qkv_project", { "q", "k", "v", "x", "w_q", "w_k", "w_v" }, ALL_SIZES },
    { "qkv_pack", { "w_qkv", "w_q", "w_k", "w_v" }, ALL_SIZES & ~(1u << S_T) },
    { "qkv_split", { "q", "k", "v", "qkv" }, ALL_SIZES & ~(1u << S_D_MODEL) },
    { "qkv_project_fused", { "q", "k", "v", "qkv", "x", "w_qkv" }, ALL_SIZES },
};
enum { ARGS_PROJECT, ARGS_PACK, ARGS_SPLIT, ARGS_FUSED };

/* rooms - one buffer per pointer argument of f, large enough for every size
 * the bad-argument checks pass; returns how many */
static int rooms(const arg_fn *f, lab_mat *room[MAX_BUFFERS])
{
    int n = 0;
    for (; n < MAX_BUFFERS && f->buffer[n]; n++) room[n] = lab_out(f->buffer[n], 8, 8);
    return n;
}

/* expect_einval - call f with buf[] (NULL where a NULL is passed) and the
 * sizes n[] it takes, and require MM_EINVAL; when says which argument is bad */
static bool expect_einval(const arg_fn *f, lab_mat *const buf[], int n_buffers,
                          const int n[N_SIZES], const char *when)
{
    long sizes[N_SIZES];
    int n_sizes = 0;
    for (int s = 0; s < N_SIZES; s++)
        if (f->sizes & 1u << s) sizes[n_sizes++] = n[s];
    mm_status s = lab_call(f->name, n_buffers, buf, n_sizes, sizes);
    return lab_expect_status(s, MM_EINVAL, when);
}

/* check_nulls - each pointer argument of arg_fns[which] NULL in turn, the sizes valid */
static void check_nulls(int which)
{
    const arg_fn *f = &arg_fns[which];
    lab_mat *room[MAX_BUFFERS];
    int n_buffers = rooms(f, room);
    bool ok = true;
    for (int null = 0; null < n_buffers; null++) {
        lab_mat *buf[MAX_BUFFERS];
        for (int i = 0; i < n_buffers; i++) buf[i] = i == null ? NULL : room[i];
        char when[64];
        lab_case_when(when, sizeof when, "%s = NULL", f->buffer[null]);
        ok &= expect_einval(f, buf, n_buffers, good_sizes, when);
    }
    if (!ok) lab_null_hint();
}

/* check_sizes - each size arg_fns[which] takes not positive in turn (0, then negative) */
static void check_sizes(int which)
{
    const arg_fn *f = &arg_fns[which];
    lab_mat *room[MAX_BUFFERS];
    int n_buffers = rooms(f, room);
    bool ok = true;
    for (int i = 0; i < N_BAD_SIZES; i++) {
        int bad = bad_sizes[i].bad, value = bad_sizes[i].value;
        if (!(f->sizes & 1u << bad)) continue;          /* f takes no such size */
        int n[N_SIZES];
        memcpy(n, good_sizes, sizeof n);
        n[bad] = value;
        char when[64];
        lab_case_when(when, sizeof when, "%s = %d", size_name[bad], value);
        ok &= expect_einval(f, room, n_buffers, n, when);
    }
    if (!ok) lab_size_hint();
}

/* ---- attention_param_count ------------------------------------------------------------ */

#define COUNT_UNTOUCHED 7654321L     /* *count before every call: a failure keeps it */

/* check_count - one call of attention_param_count(&count, d_model, n_heads)
 * against the reference: the same status, the same count on success, and
 * the count untouched on failure; seeded: the sizes came from the run's seed
 * (the case's name says it) */
static bool check_count(int d_model, int n_heads, bool seeded)
{
    long want = COUNT_UNTOUCHED;
    mm_status want_status = attention_param_count(&want, d_model, n_heads);
    if (seeded)
        lab_case(EN_ES("random d_model=%d n_heads=%d (seed %llu)",
                       "aleatorio d_model=%d n_heads=%d (semilla %llu)"),
                 d_model, n_heads, (unsigned long long)lab_seed());
    else
        lab_case("d_model=%d n_heads=%d", d_model, n_heads);
    lab_mat *count = lab_out_long("count", COUNT_UNTOUCHED);
    mm_status s = lab_call("attention_param_count", LAB_BUFS(count), LAB_INTS(d_model, n_heads));
    long got = lab_long(count);
    char when[96];
    snprintf(when, sizeof when, EN_ES("for d_model = %d, n_heads = %d",
                                      "con d_model = %d, n_heads = %d"), d_model, n_heads);
    bool ok = lab_expect_status(s, want_status, when);
    if (ok && s == MM_OK && got != want) {
        lab_fail(EN_ES("attention_param_count(&count, %d, %d) set count = %ld; expected %ld",
                       "attention_param_count(&count, %d, %d) dejó count = %ld; se esperaba %ld"),
                 d_model, n_heads, got, want);
        ok = false;
    } else if (s != MM_OK && got != COUNT_UNTOUCHED) {
        lab_fail(EN_ES("attention_param_count(&count, %d, %d) failed with %s but changed "
                       "count from %ld to %ld: a failed call leaves *count as it was",
                       "attention_param_count(&count, %d, %d) falló con %s pero cambió "
                       "count de %ld a %ld: una llamada fallida deja *count como estaba"),
                 d_model, n_heads, mm_status_name(s), COUNT_UNTOUCHED, got);
        ok = false;
    }
    if (!ok) diagnose_param_count(d_model, n_heads, s, got, want_status, want);
    return ok;
}

/* the cases of attention_param_count, by check: n calls of (d_model, n_heads) */
static const struct { int n, arg[4][2]; } count_cases[] = {
    { 1, { { 64, 4 } } },                                    /* Mini-GPT: 16384, chapter 01 */
    { 4, { { 8, 2 }, { 12, 3 }, { 6, 6 }, { 1, 1 } } },      /* small: each mistake differs */
    { 1, { { 32768, 8 } } },                                 /* 2^32: past INT_MAX */
    { 1, { { 65536, 4 } } },                                 /* d_model^2 itself past INT_MAX */
    { 3, { { 65, 4 }, { 64, 3 }, { 4, 8 } } },               /* not divisible */
    { 4, { { 0, 4 }, { 64, 0 }, { -64, 4 }, { 64, -4 } } }, /* not positive */
    /* 4 d_model^2 must fit in a long: the largest d_model that fits, the
     * next, and the largest even int (which is divisible by 2) */
    { 3, { { 1518500249, 1 }, { 1518500250, 1 }, { INT_MAX - 1, 2 } } },
};

static void check_counts(int which)
{
    for (int i = 0; i < count_cases[which].n; i++)
        check_count(count_cases[which].arg[i][0], count_cases[which].arg[i][1], false);
}

/* check_counts_random - layers drawn from the run's seed: three whose
 * n_heads (1 to 16) divides d_model (d_k from 17 to 128), then one whose
 * does not (d_model = n_heads d_k + r, 0 < r < n_heads) */
static void check_counts_random(int unused)
{
    (void)unused;
    enum { SALT_COUNT = 500 };
    for (uint64_t i = 0; i < 4; i++) {
        int n_heads = (int)lab_random_int(i < 3 ? 1 : 2, 16, SALT_COUNT + 3 * i);
        int d_k = (int)lab_random_int(17, 128, SALT_COUNT + 3 * i + 1);
        int r = i < 3 ? 0 : (int)lab_random_int(1, n_heads - 1, SALT_COUNT + 3 * i + 2);
        check_count(n_heads * d_k + r, n_heads, true);
    }
}

/* check_null_count - count = NULL, the sizes valid */
static void check_null_count(int unused)
{
    (void)unused;
    lab_case("count = NULL");
    mm_status s = lab_call("attention_param_count", LAB_BUFS(NULL), LAB_INTS(64, 4));
    if (!lab_expect_status(s, MM_EINVAL, EN_ES("for count = NULL", "con count = NULL")))
        lab_null_hint();
}

/* ---- the tables, from the descriptor -------------------------------------------------- */

LAB_JUDGE_TABLES(LAB01);
