/* test_alloc.c - allocation failure, injected at every allocation in turn.
 *
 * each_allocation_fails(case) runs a case once with no failure to count its
 * allocations, N, then N more times, failing allocation 1, 2, ..., N: each
 * run must return MM_ENOMEM with a message, and leave no block allocated
 * once the case has cleaned up after itself. The library does not allocate
 * yet (chapter 03's mha_new and forward pass will); the cases below pin that
 * (N = 0), and the mechanism is tested on its own with a model of a
 * constructor, correct and leaky. Chapter 03 adds rows to lib_cases. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc_fail.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

typedef struct {
    const char *name;
    mm_status (*run)(void);     /* the call, with its arguments */
    void (*cleanup)(void);      /* release what a successful run kept */
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
    alloc_case c = { "model_new", model_new, model_free };
    long n;
    const char *why = each_allocation_fails(&c, &n);
    cr_assert_null(why, "%s", why);
    cr_assert_eq(n, 3, "model_new makes 3 allocations, the wrapper counted %ld", n);
}

Test(alloc_mechanism, sees_a_leak_on_the_failure_path)
{
    leaky = 1;
    alloc_case c = { "leaky model_new", model_new, model_free };
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

/* lib_cases - chapter 03 adds mha_new and the forward pass here */
static const alloc_case lib_cases[] = {
    { "mm_matmul", run_matmul, NULL }, { "qkv_project", run_project, NULL },
    { "qkv_pack", run_pack, NULL }, { "qkv_split", run_split, NULL },
    { "qkv_project_fused", run_fused, NULL },
    { "qkv_attend_unscaled", run_attend, NULL },
    { "attention_param_count", run_count, NULL },
    { "attention_init_weights", run_init, NULL }, { "mm_fill_normal", run_fill, NULL },
};

Test(alloc_library, every_allocation_fails_in_turn)
{
    for (int i = 0; i < 64; i++) A[i] = B[i] = D[i] = E[i] = F[i] = G[i] = 0.5;
    for (size_t i = 0; i < sizeof lib_cases / sizeof lib_cases[0]; i++) {
        long n;
        const char *why = each_allocation_fails(&lib_cases[i], &n);
        cr_assert_null(why, "%s", why);
        cr_expect_eq(n, 0, "%s allocates %ld blocks: give it allocation-failure "
                     "cases (this list pins that chapters 01 and A allocate "
                     "nothing)", lib_cases[i].name, n);
    }
}
