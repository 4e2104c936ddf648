/* check.c - the checks of lab 01: each of the learner's five functions on
 * the chapter's worked example, a non-square case, random cases, and bad
 * arguments; the result is compared with the reference library's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/core/rng.h"
#include "lab01.h"

const char lab_title[] = "Lab 01 (the Q, K, V projections)";
const char *const lab_functions[] = {
    "qkv_project", "qkv_pack", "qkv_split", "qkv_project_fused",
    "attention_param_count", NULL
};

/* ---- the cases ---------------------------------------------------------------- */

/* fresh - a harness-owned array of n doubles, copied from values if given */
static double *fresh(size_t n, const double *values)
{
    double *p = calloc(n, sizeof *p);
    cr_assert(p, "harness: out of memory");
    if (values) memcpy(p, values, n * sizeof *p);
    return p;
}

/* the worked example of chapter 01: X = I, W_Q = I, W_K swaps, W_V = diag(2, 3) */
static const double ex_x[] = { 1, 0,  0, 1 };
static const double ex_w_q[] = { 1, 0,  0, 1 };
static const double ex_w_k[] = { 0, 1,  1, 0 };
static const double ex_w_v[] = { 2, 0,  0, 3 };

/* a non-square case: T != d_model != d_k != d_v, no symmetry to hide a mistake */
static const double ns_x[] = {  1, 2, 0, -1,
                                0, 1, 3,  2,
                               -2, 0, 1,  1 };                 /* (3, 4) */
static const double ns_w_q[] = { 1, 0,  2, 1,  0, -1,  1, 3 };  /* (4, 2) */
static const double ns_w_k[] = { 0, 1,  1, 1, -1,  0,  2, 0 };  /* (4, 2) */
static const double ns_w_v[] = { 1, 0, 2,  0, 1, 0,  3, 0, -1,  0, 2, 1 }; /* (4, 3) */

static const unsigned random_seeds[] = { 7, 12, 14 };

static void set_shape(qkv_case *c, int T, int d_model, int d_k, int d_v)
{
    c->T = T;
    c->d_model = d_model;
    c->d_k = d_k;
    c->d_v = d_v;
}

void qkv_case_make(qkv_case *c, int which)
{
    if (which == 0) {
        set_shape(c, 2, 2, 2, 2);
        snprintf(c->name, sizeof c->name, "worked example of chapter 01: X = I, "
                 "W_Q = I, W_K = [[0,1],[1,0]], W_V = diag(2,3)");
        c->x = fresh(4, ex_x);
        c->w_q = fresh(4, ex_w_q);
        c->w_k = fresh(4, ex_w_k);
        c->w_v = fresh(4, ex_w_v);
    } else if (which == 1) {
        set_shape(c, 3, 4, 2, 3);
        snprintf(c->name, sizeof c->name, "non-square T=3 d_model=4 d_k=2 d_v=3");
        c->x = fresh(12, ns_x);
        c->w_q = fresh(8, ns_w_q);
        c->w_k = fresh(8, ns_w_k);
        c->w_v = fresh(12, ns_w_v);
    } else {
        unsigned seed = random_seeds[which - 2];
        mm_rng r;
        mm_rng_seed(&r, seed);
        int T = 2 + mm_rng_next(&r) % 5, d_model = 2 + mm_rng_next(&r) % 5;
        int d_k = 1 + mm_rng_next(&r) % 4, d_v = 1 + mm_rng_next(&r) % 4;
        set_shape(c, T, d_model, d_k, d_v);
        snprintf(c->name, sizeof c->name, "random T=%d d_model=%d d_k=%d d_v=%d seed=%u",
                 T, d_model, d_k, d_v, seed);
        double **m[4] = { &c->x, &c->w_q, &c->w_k, &c->w_v };
        size_t n[4] = { (size_t)T * d_model, (size_t)d_model * d_k,
                        (size_t)d_model * d_k, (size_t)d_model * d_v };
        for (int i = 0; i < 4; i++) {
            *m[i] = fresh(n[i], NULL);
            for (size_t j = 0; j < n[i]; j++) (*m[i])[j] = mm_rng_normal(&r);
        }
    }
}

/* REF - the reference must accept what the checks give it */
#define REF(call) cr_assert((call) == MM_OK, "harness: the reference failed: %s", mm_last_error())

/* ---- the checks of each function on one case ------------------------------------- */

static void check_project(int which)
{
    qkv_case c;
    qkv_case_make(&c, which);
    lab_case("%s", c.name);
    int T = c.T, d_model = c.d_model, d_k = c.d_k, d_v = c.d_v;
    double *want[3] = { fresh((size_t)T * d_k, NULL), fresh((size_t)T * d_k, NULL),
                        fresh((size_t)T * d_v, NULL) };
    REF(ref_qkv_project(want[0], want[1], want[2], c.x, c.w_q, c.w_k, c.w_v,
                        T, d_model, d_k, d_v));

    lab_mat *x = lab_in("x", T, d_model, c.x);
    lab_mat *w_q = lab_in("w_q", d_model, d_k, c.w_q);
    lab_mat *w_k = lab_in("w_k", d_model, d_k, c.w_k);
    lab_mat *w_v = lab_in("w_v", d_model, d_v, c.w_v);
    lab_mat *out[3] = { lab_out("q", T, d_k), lab_out("k", T, d_k), lab_out("v", T, d_v) };
    lab_call_begin("qkv_project", "qkv_project(q, k, v, x, w_q, w_k, w_v, %d, %d, %d, %d)",
                   T, d_model, d_k, d_v);
    mm_status s = qkv_project(out[0]->p, out[1]->p, out[2]->p, x->p, w_q->p, w_k->p,
                              w_v->p, T, d_model, d_k, d_v);
    lab_call_end();
    if (!lab_expect_status(s, MM_OK, "for valid arguments")) return;

    double scale = fmax(lab_scale(want[0], (size_t)T * d_k),
                        fmax(lab_scale(want[1], (size_t)T * d_k),
                             lab_scale(want[2], (size_t)T * d_v)));
    if (!lab_expect_mats(3, out, (const double **)want, scale)) {
        const double *got[3] = { out[0]->p, out[1]->p, out[2]->p };
        diagnose_project(&c, got, (const double **)want, scale);
    }
}

static void check_pack(int which)
{
    qkv_case c;
    qkv_case_make(&c, which);
    lab_case("%s", c.name);
    int d_model = c.d_model, d_k = c.d_k, d_v = c.d_v, d_qkv = 2 * d_k + d_v;
    double *want = fresh((size_t)d_model * d_qkv, NULL);
    REF(ref_qkv_pack(want, c.w_q, c.w_k, c.w_v, d_model, d_k, d_v));

    lab_mat *w_q = lab_in("w_q", d_model, d_k, c.w_q);
    lab_mat *w_k = lab_in("w_k", d_model, d_k, c.w_k);
    lab_mat *w_v = lab_in("w_v", d_model, d_v, c.w_v);
    lab_mat *w_qkv = lab_out("w_qkv", d_model, d_qkv);
    lab_call_begin("qkv_pack", "qkv_pack(w_qkv, w_q, w_k, w_v, %d, %d, %d)",
                   d_model, d_k, d_v);
    mm_status s = qkv_pack(w_qkv->p, w_q->p, w_k->p, w_v->p, d_model, d_k, d_v);
    lab_call_end();
    if (!lab_expect_status(s, MM_OK, "for valid arguments")) return;

    double scale = lab_scale(want, (size_t)d_model * d_qkv);
    if (!lab_expect_mat(w_qkv, want, scale)) diagnose_pack(&c, w_qkv->p, want, scale);
}

/* case_qkv - X W_QKV of a case, by the reference: what qkv_split cuts */
static double *case_qkv(const qkv_case *c, double **w_qkv_out)
{
    int d_qkv = 2 * c->d_k + c->d_v;
    double *w_qkv = fresh((size_t)c->d_model * d_qkv, NULL);
    double *qkv = fresh((size_t)c->T * d_qkv, NULL);
    double *q = fresh((size_t)c->T * c->d_k, NULL), *k = fresh((size_t)c->T * c->d_k, NULL);
    double *v = fresh((size_t)c->T * c->d_v, NULL);
    REF(ref_qkv_pack(w_qkv, c->w_q, c->w_k, c->w_v, c->d_model, c->d_k, c->d_v));
    REF(ref_qkv_project_fused(q, k, v, qkv, c->x, w_qkv, c->T, c->d_model, c->d_k, c->d_v));
    free(q);
    free(k);
    free(v);
    if (w_qkv_out) *w_qkv_out = w_qkv;
    else free(w_qkv);
    return qkv;
}

static void check_split(int which)
{
    qkv_case c;
    qkv_case_make(&c, which);
    lab_case("%s", c.name);
    int T = c.T, d_k = c.d_k, d_v = c.d_v, d_qkv = 2 * d_k + d_v;
    double *qkv_in = case_qkv(&c, NULL);
    double *want[3] = { fresh((size_t)T * d_k, NULL), fresh((size_t)T * d_k, NULL),
                        fresh((size_t)T * d_v, NULL) };
    REF(ref_qkv_split(want[0], want[1], want[2], qkv_in, T, d_k, d_v));

    lab_mat *qkv = lab_in("qkv", T, d_qkv, qkv_in);
    lab_mat *out[3] = { lab_out("q", T, d_k), lab_out("k", T, d_k), lab_out("v", T, d_v) };
    lab_call_begin("qkv_split", "qkv_split(q, k, v, qkv, %d, %d, %d)", T, d_k, d_v);
    mm_status s = qkv_split(out[0]->p, out[1]->p, out[2]->p, qkv->p, T, d_k, d_v);
    lab_call_end();
    if (!lab_expect_status(s, MM_OK, "for valid arguments")) return;

    double scale = lab_scale(qkv_in, (size_t)T * d_qkv);
    if (!lab_expect_mats(3, out, (const double **)want, scale)) {
        const double *got[3] = { out[0]->p, out[1]->p, out[2]->p };
        diagnose_split(qkv_in, T, d_k, d_v, got, (const double **)want, scale);
    }
}

static void check_fused(int which)
{
    qkv_case c;
    qkv_case_make(&c, which);
    lab_case("%s", c.name);
    int T = c.T, d_model = c.d_model, d_k = c.d_k, d_v = c.d_v, d_qkv = 2 * d_k + d_v;
    double *w_qkv_in;
    double *qkv_want = case_qkv(&c, &w_qkv_in);
    double *want[4] = { fresh((size_t)T * d_k, NULL), fresh((size_t)T * d_k, NULL),
                        fresh((size_t)T * d_v, NULL), qkv_want };
    REF(ref_qkv_split(want[0], want[1], want[2], qkv_want, T, d_k, d_v));

    lab_mat *x = lab_in("x", T, d_model, c.x);
    lab_mat *w_qkv = lab_in("w_qkv", d_model, d_qkv, w_qkv_in);
    lab_mat *out[4] = { lab_out("q", T, d_k), lab_out("k", T, d_k), lab_out("v", T, d_v),
                        lab_out("qkv", T, d_qkv) };
    lab_call_begin("qkv_project_fused", "qkv_project_fused(q, k, v, qkv, x, w_qkv, "
                   "%d, %d, %d, %d)", T, d_model, d_k, d_v);
    mm_status s = qkv_project_fused(out[0]->p, out[1]->p, out[2]->p, out[3]->p, x->p,
                                    w_qkv->p, T, d_model, d_k, d_v);
    lab_call_end();
    if (!lab_expect_status(s, MM_OK, "for valid arguments")) return;

    double scale = lab_scale(qkv_want, (size_t)T * d_qkv);
    if (!lab_expect_mats(4, out, (const double **)want, scale)) {
        const double *got[4] = { out[0]->p, out[1]->p, out[2]->p, out[3]->p };
        diagnose_fused(&c, w_qkv_in, got, (const double **)want, scale);
    }
}

/* ---- bad arguments ------------------------------------------------------------------ */

/* call_text - "fn(a, b, NULL, d, ...)": the names with argument null replaced */
static void call_text(char *buf, size_t size, const char *fn, const char *const names[],
                      int n, int null, const char *sizes)
{
    int len = snprintf(buf, size, "%s(", fn);
    for (int i = 0; i < n; i++)
        len += snprintf(buf + len, size - len, "%s, ", i == null ? "NULL" : names[i]);
    snprintf(buf + len, size - len, "%s)", sizes);
}

/* the buffers of the bad-argument checks: large enough for every size they pass */
static double *room(const char *name) { return lab_out(name, 8, 8)->p; }

static void null_hint(bool ok)
{
    if (!ok)
        lab_hint("check every pointer before using it: mm_need_buffer(fn, \"name\", p) "
                 "returns MM_EINVAL for NULL and records the message");
}

static void size_hint(bool ok)
{
    if (!ok)
        lab_hint("check every size before using it: mm_need_positive(fn, \"name\", n) "
                 "returns MM_EINVAL unless n > 0 and records the message");
}

/* size_case - one bad-size call: the sizes (T, d_model, d_k, d_v), and which one
 * is not positive */
typedef struct { const char *bad; int value, T, d_model, d_k, d_v; } size_case;
static const size_case bad_sizes[] = {
    { "T", 0,         0, 2, 2, 2 }, { "T", -1,       -1, 2, 2, 2 },
    { "d_model", 0,   2, 0, 2, 2 }, { "d_model", -2,  2, -2, 2, 2 },
    { "d_k", 0,       2, 2, 0, 2 }, { "d_k", -1,      2, 2, -1, 2 },
    { "d_v", 0,       2, 2, 2, 0 }, { "d_v", -3,      2, 2, 2, -3 },
};
#define N_BAD_SIZES (int)(sizeof bad_sizes / sizeof bad_sizes[0])

static void check_project_nulls(void)
{
    static const char *const names[] = { "q", "k", "v", "x", "w_q", "w_k", "w_v" };
    double *p[7];
    for (int i = 0; i < 7; i++) p[i] = room(names[i]);
    bool ok = true;
    for (int null = 0; null < 7; null++) {
        double *a[7];
        for (int i = 0; i < 7; i++) a[i] = i == null ? NULL : p[i];
        char call[200], when[64];
        call_text(call, sizeof call, "qkv_project", names, 7, null, "2, 2, 2, 2");
        lab_case("%s = NULL", names[null]);
        lab_call_begin("qkv_project", "%s", call);
        mm_status s = qkv_project(a[0], a[1], a[2], a[3], a[4], a[5], a[6], 2, 2, 2, 2);
        lab_call_end();
        snprintf(when, sizeof when, "for %s = NULL", names[null]);
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    null_hint(ok);
}

static void check_project_sizes(void)
{
    double *q = room("q"), *k = room("k"), *v = room("v"), *x = room("x");
    double *w_q = room("w_q"), *w_k = room("w_k"), *w_v = room("w_v");
    bool ok = true;
    for (int i = 0; i < N_BAD_SIZES; i++) {
        const size_case *b = &bad_sizes[i];
        char when[64];
        snprintf(when, sizeof when, "for %s = %d", b->bad, b->value);
        lab_case("%s = %d", b->bad, b->value);
        lab_call_begin("qkv_project", "qkv_project(q, k, v, x, w_q, w_k, w_v, %d, %d, %d, %d)",
                       b->T, b->d_model, b->d_k, b->d_v);
        mm_status s = qkv_project(q, k, v, x, w_q, w_k, w_v, b->T, b->d_model, b->d_k, b->d_v);
        lab_call_end();
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    size_hint(ok);
}

static void check_pack_nulls(void)
{
    static const char *const names[] = { "w_qkv", "w_q", "w_k", "w_v" };
    double *p[4];
    for (int i = 0; i < 4; i++) p[i] = room(names[i]);
    bool ok = true;
    for (int null = 0; null < 4; null++) {
        double *a[4];
        for (int i = 0; i < 4; i++) a[i] = i == null ? NULL : p[i];
        char call[200], when[64];
        call_text(call, sizeof call, "qkv_pack", names, 4, null, "2, 2, 2");
        lab_case("%s = NULL", names[null]);
        lab_call_begin("qkv_pack", "%s", call);
        mm_status s = qkv_pack(a[0], a[1], a[2], a[3], 2, 2, 2);
        lab_call_end();
        snprintf(when, sizeof when, "for %s = NULL", names[null]);
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    null_hint(ok);
}

static void check_pack_sizes(void)
{
    double *w_qkv = room("w_qkv"), *w_q = room("w_q"), *w_k = room("w_k"), *w_v = room("w_v");
    bool ok = true;
    for (int i = 0; i < N_BAD_SIZES; i++) {
        const size_case *b = &bad_sizes[i];
        if (strcmp(b->bad, "T") == 0) continue;        /* qkv_pack takes no T */
        char when[64];
        snprintf(when, sizeof when, "for %s = %d", b->bad, b->value);
        lab_case("%s = %d", b->bad, b->value);
        lab_call_begin("qkv_pack", "qkv_pack(w_qkv, w_q, w_k, w_v, %d, %d, %d)",
                       b->d_model, b->d_k, b->d_v);
        mm_status s = qkv_pack(w_qkv, w_q, w_k, w_v, b->d_model, b->d_k, b->d_v);
        lab_call_end();
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    size_hint(ok);
}

static void check_split_nulls(void)
{
    static const char *const names[] = { "q", "k", "v", "qkv" };
    double *p[4];
    for (int i = 0; i < 4; i++) p[i] = room(names[i]);
    bool ok = true;
    for (int null = 0; null < 4; null++) {
        double *a[4];
        for (int i = 0; i < 4; i++) a[i] = i == null ? NULL : p[i];
        char call[200], when[64];
        call_text(call, sizeof call, "qkv_split", names, 4, null, "2, 2, 2");
        lab_case("%s = NULL", names[null]);
        lab_call_begin("qkv_split", "%s", call);
        mm_status s = qkv_split(a[0], a[1], a[2], a[3], 2, 2, 2);
        lab_call_end();
        snprintf(when, sizeof when, "for %s = NULL", names[null]);
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    null_hint(ok);
}

static void check_split_sizes(void)
{
    double *q = room("q"), *k = room("k"), *v = room("v"), *qkv = room("qkv");
    bool ok = true;
    for (int i = 0; i < N_BAD_SIZES; i++) {
        const size_case *b = &bad_sizes[i];
        if (strcmp(b->bad, "d_model") == 0) continue;   /* no d_model */
        char when[64];
        snprintf(when, sizeof when, "for %s = %d", b->bad, b->value);
        lab_case("%s = %d", b->bad, b->value);
        lab_call_begin("qkv_split", "qkv_split(q, k, v, qkv, %d, %d, %d)",
                       b->T, b->d_k, b->d_v);
        mm_status s = qkv_split(q, k, v, qkv, b->T, b->d_k, b->d_v);
        lab_call_end();
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    size_hint(ok);
}

static void check_fused_nulls(void)
{
    static const char *const names[] = { "q", "k", "v", "qkv", "x", "w_qkv" };
    double *p[6];
    for (int i = 0; i < 6; i++) p[i] = room(names[i]);
    bool ok = true;
    for (int null = 0; null < 6; null++) {
        double *a[6];
        for (int i = 0; i < 6; i++) a[i] = i == null ? NULL : p[i];
        char call[200], when[64];
        call_text(call, sizeof call, "qkv_project_fused", names, 6, null, "2, 2, 2, 2");
        lab_case("%s = NULL", names[null]);
        lab_call_begin("qkv_project_fused", "%s", call);
        mm_status s = qkv_project_fused(a[0], a[1], a[2], a[3], a[4], a[5], 2, 2, 2, 2);
        lab_call_end();
        snprintf(when, sizeof when, "for %s = NULL", names[null]);
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    null_hint(ok);
}

static void check_fused_sizes(void)
{
    double *q = room("q"), *k = room("k"), *v = room("v"), *qkv = room("qkv");
    double *x = room("x"), *w_qkv = room("w_qkv");
    bool ok = true;
    for (int i = 0; i < N_BAD_SIZES; i++) {
        const size_case *b = &bad_sizes[i];
        char when[64];
        snprintf(when, sizeof when, "for %s = %d", b->bad, b->value);
        lab_case("%s = %d", b->bad, b->value);
        lab_call_begin("qkv_project_fused", "qkv_project_fused(q, k, v, qkv, x, w_qkv, "
                       "%d, %d, %d, %d)", b->T, b->d_model, b->d_k, b->d_v);
        mm_status s = qkv_project_fused(q, k, v, qkv, x, w_qkv, b->T, b->d_model,
                                        b->d_k, b->d_v);
        lab_call_end();
        ok &= lab_expect_status(s, MM_EINVAL, when);
    }
    size_hint(ok);
}

/* ---- attention_param_count ------------------------------------------------------------ */

/* check_count - one call of attention_param_count against the reference */
static bool check_count(int d_model, int n_heads)
{
    long want = ref_attention_param_count(d_model, n_heads);
    lab_case("d_model=%d n_heads=%d", d_model, n_heads);
    lab_call_begin("attention_param_count", "attention_param_count(%d, %d)", d_model, n_heads);
    long got = attention_param_count(d_model, n_heads);
    lab_call_end();
    if (got == want) return true;
    lab_fail("attention_param_count(%d, %d) returned %ld; expected %ld%s", d_model, n_heads,
             got, want, want == -1 ? " (the arguments are invalid)" : "");
    diagnose_param_count(d_model, n_heads, got, want);
    return false;
}

/* ---- the tests: one suite per function, one test per case ------------------------------- */

#define CASE_TESTS(suite, check)                                           \
    TestSuite(suite, .timeout = LAB_TIMEOUT);                              \
    Test(suite, c1_worked_example) { check(0); }                           \
    Test(suite, c2_non_square) { check(1); }                               \
    Test(suite, c3_random_a) { check(2); }                                 \
    Test(suite, c4_random_b) { check(3); }                                 \
    Test(suite, c5_random_c) { check(4); }

CASE_TESTS(qkv_project, check_project)
Test(qkv_project, e1_null_buffers) { check_project_nulls(); }
Test(qkv_project, e2_bad_sizes) { check_project_sizes(); }

CASE_TESTS(qkv_pack, check_pack)
Test(qkv_pack, e1_null_buffers) { check_pack_nulls(); }
Test(qkv_pack, e2_bad_sizes) { check_pack_sizes(); }

CASE_TESTS(qkv_split, check_split)
Test(qkv_split, e1_null_buffers) { check_split_nulls(); }
Test(qkv_split, e2_bad_sizes) { check_split_sizes(); }

CASE_TESTS(qkv_project_fused, check_fused)
Test(qkv_project_fused, e1_null_buffers) { check_fused_nulls(); }
Test(qkv_project_fused, e2_bad_sizes) { check_fused_sizes(); }

TestSuite(attention_param_count, .timeout = LAB_TIMEOUT);
Test(attention_param_count, p1_mini_gpt) { check_count(64, 4); }   /* 16384, chapter 01 */
Test(attention_param_count, p2_small)
{
    check_count(8, 2);
    check_count(12, 3);
    check_count(6, 6);
    check_count(1, 1);
}
Test(attention_param_count, p3_not_divisible)
{
    check_count(65, 4);
    check_count(64, 3);
    check_count(4, 8);
}
Test(attention_param_count, p4_not_positive)
{
    check_count(0, 4);
    check_count(64, 0);
    check_count(-64, 4);
    check_count(64, -4);
}
Test(attention_param_count, p5_large) { check_count(32768, 8); }  /* 2^32: past INT_MAX */
