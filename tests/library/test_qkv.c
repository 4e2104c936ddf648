/* test_qkv.c - Criterion tests of chapter 01's module and of the core it uses.
 * When one fails, the message says what differs and what usually causes it. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "examples/ch01-worked.h"   /* the worked example, typed once */

#define X2  ch01_x
#define WQ2 ch01_w_q
#define WK2 ch01_w_k
#define WV2 ch01_w_v

static void expect_close(const double *got, const double *exp, int n,
                         double tol, const char *what)
{
    for (int i = 0; i < n; i++)
        cr_assert(fabs(got[i] - exp[i]) <= tol,
                  "%s: element %d is %.17g, expected %.17g (tolerance %g)",
                  what, i, got[i], exp[i], tol);
}

Test(worked_example, projections_are_the_weight_matrices)
{
    double q[4], k[4], v[4];
    cr_assert_eq(qkv_project(q, k, v, X2, WQ2, WK2, WV2, 2, 2, 2, 2), MM_OK, "%s", mm_last_error());
    expect_close(q, WQ2, 4, 0, "Q (X = I, so Q must equal W_Q)");
    expect_close(k, WK2, 4, 0, "K (X = I, so K must equal W_K)");
    expect_close(v, WV2, 4, 0, "V (X = I, so V must equal W_V)");
}

Test(worked_example, weights_and_output)
{
    double q[4], k[4], v[4], w[4], out[4];
    qkv_project(q, k, v, X2, WQ2, WK2, WV2, 2, 2, 2, 2);
    cr_assert_eq(qkv_attend_unscaled(out, w, q, k, v, 2, 2, 2), MM_OK, "%s", mm_last_error());
    double e = exp(1.0);
    double w_exp[4] = { 1 / (1 + e), e / (1 + e), e / (1 + e), 1 / (1 + e) };
    expect_close(w, w_exp, 4, 1e-15,
                 "weights: softmax of the score rows (0, 1) and (1, 0); "
                 "if rows are swapped, the scores were K Q^T or a column softmax");
    double out_exp[4] = { 2 * w_exp[0], 3 * w_exp[1], 2 * w_exp[2], 3 * w_exp[3] };
    expect_close(out, out_exp, 4, 1e-14, "output = weights V");
    cr_assert(fabs(out[0] - 0.5378828427399902) < 1e-12 &&
              fabs(out[1] - 2.1931757358900147) < 1e-12,
              "output row 0 is (%.16f, %.16f), the book says (0.5379, 2.1932)", out[0], out[1]);
}

Test(worked_example, identity_values_give_the_weights_themselves)
{
    double q[4], k[4], v[4], w[4], out[4];
    qkv_project(q, k, v, X2, WQ2, WK2, ch01_identity, 2, 2, 2, 2);
    cr_assert_eq(qkv_attend_unscaled(out, w, q, k, v, 2, 2, 2), MM_OK);
    expect_close(out, w, 4, 0, "with W_V = I, output row i must equal weight row i");
    cr_assert(fabs(out[1] - 0.7310585786300049) < 1e-12, "out[0][1] = %.16f", out[1]);
}

Test(worked_example, the_direction_variant_is_not_symmetric)
{
    double q[4], k[4], v[4], w[4], out[4];
    qkv_project(q, k, v, X2, WQ2, ch01_w_k_asym, WV2, 2, 2, 2, 2);
    cr_assert_eq(qkv_attend_unscaled(out, w, q, k, v, 2, 2, 2), MM_OK);
    double e2 = exp(2.0);
    double w_exp[4] = { 1 / (1 + e2), e2 / (1 + e2), 0.5, 0.5 };
    expect_close(w, w_exp, 4, 1e-15, "weights of S = [[0, 2], [0, 0]]: the verb "
                 "looks at the pronoun, the pronoun at both equally");
}

/* random_matrix - n values of std * N(0, 1) from seed */
static void random_matrix(double *a, size_t n, double std, uint64_t seed)
{
    mm_rng r;
    mm_rng_seed(&r, seed);
    cr_assert_eq(mm_fill_normal(a, n, std, &r), MM_OK, "%s", mm_last_error());
}

enum { T8 = 8, D16 = 16 };

/* scores - S (T8, T8) = (X W_a)(X W_b)^T */
static void scores(double *s, const double *x, const double *w_a, const double *w_b)
{
    double a[T8 * D16], b[T8 * D16];
    mm_matmul(a, x, w_a, T8, D16, D16, false);
    mm_matmul(b, x, w_b, T8, D16, D16, false);
    mm_matmul(s, a, b, T8, D16, T8, true);
}

Test(arguments, separate_matrices_give_asymmetric_scores)
{
    double x[T8 * D16], w_q[D16 * D16], w_k[D16 * D16], s[T8 * T8];
    random_matrix(x, T8 * D16, 1.0, 1);
    random_matrix(w_q, D16 * D16, 0.25, 2);
    random_matrix(w_k, D16 * D16, 0.25, 3);
    scores(s, x, w_q, w_k);
    double worst = 0;
    for (int i = 0; i < T8; i++)
        for (int j = 0; j < T8; j++) worst = fmax(worst, fabs(s[i * T8 + j] - s[j * T8 + i]));
    cr_assert_gt(worst, 0.5, "separate W_Q, W_K should give S != S^T; max |S - S^T| = %g", worst);
}

Test(arguments, tied_matrices_give_exactly_symmetric_scores)
{
    double x[T8 * D16], w[D16 * D16], s[T8 * T8];
    random_matrix(x, T8 * D16, 1.0, 1);
    random_matrix(w, D16 * D16, 0.25, 2);
    scores(s, x, w, w);
    for (int i = 0; i < T8; i++)
        for (int j = 0; j < T8; j++)
            cr_assert_eq(s[i * T8 + j], s[j * T8 + i],
                         "tied W: S[%d][%d] = %.17g but S[%d][%d] = %.17g", i, j,
                         s[i * T8 + j], j, i, s[j * T8 + i]);
}

Test(arguments, tied_form_is_positive_semidefinite)
{
    double w[D16 * D16], m[D16 * D16], x[D16], xm[D16];
    random_matrix(w, D16 * D16, 1.0, 4);
    mm_matmul(m, w, w, D16, D16, D16, true);               /* M = W W^T */
    mm_rng r;
    mm_rng_seed(&r, 5);
    for (int trial = 0; trial < 1000; trial++) {
        for (int i = 0; i < D16; i++) x[i] = mm_rng_normal(&r);
        mm_matmul(xm, x, m, 1, D16, D16, false);
        double xmx = 0;
        for (int i = 0; i < D16; i++) xmx += xm[i] * x[i];
        cr_assert_geq(xmx, -1e-9, "x W W^T x^T = %g < 0 at trial %d", xmx, trial);
    }
}

Test(arguments, separate_form_is_not_semidefinite)
{
    /* the claim of Argument 4 needs a witness: some x with x M x^T < 0 */
    double w_q[D16 * D16], w_k[D16 * D16], m[D16 * D16], x[D16], xm[D16];
    random_matrix(w_q, D16 * D16, 1.0, 4);
    random_matrix(w_k, D16 * D16, 1.0, 6);
    mm_matmul(m, w_q, w_k, D16, D16, D16, true);           /* M = W_Q W_K^T */
    mm_rng r;
    mm_rng_seed(&r, 5);
    int negative = 0;
    for (int trial = 0; trial < 100; trial++) {
        for (int i = 0; i < D16; i++) x[i] = mm_rng_normal(&r);
        mm_matmul(xm, x, m, 1, D16, D16, false);
        double xmx = 0;
        for (int i = 0; i < D16; i++) xmx += xm[i] * x[i];
        negative += xmx < 0;
    }
    cr_assert_gt(negative, 0, "no x gave x W_Q W_K^T x^T < 0 in 100 trials");
}

/* sum_in_order_of_p - element (i, j) of a (n, k) times b (k, m): 0, then
 * + a[i][p] b[p][j] for p = 0, 1, ..., k - 1, each sum rounded to double */
static double sum_in_order_of_p(const double *a, const double *b, int k, int m,
                                int i, int j)
{
    double s = 0.0;
    for (int p = 0; p < k; p++) s = s + a[(size_t)i * k + p] * b[(size_t)p * m + j];
    return s;
}

/* expect_order_of_p - c (n, m) = a b against sum_in_order_of_p: bit for bit
 * with the readable loops (matrix.h's promise); with OpenBLAS, whose kernels
 * sum in their own order, within 2 k u sum_p |a_ip b_pj| */
static void expect_order_of_p(const double *c, const double *a, const double *b,
                              int n, int k, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double got = c[(size_t)i * m + j], exp = sum_in_order_of_p(a, b, k, m, i, j);
#ifdef MM_BLAS_OPENBLAS
            double abs_sum = 0.0;
            for (int p = 0; p < k; p++)
                abs_sum += fabs(a[(size_t)i * k + p] * b[(size_t)p * m + j]);
            cr_assert(fabs(got - exp) <= 2.0 * k * 0x1p-53 * abs_sum,
                      "(%d, %d, %d): c[%d][%d] is %.17g, the sum in the order of p "
                      "%.17g", n, k, m, i, j, got, exp);
#else
            cr_assert(memcmp(&got, &exp, sizeof got) == 0,
                      "(%d, %d, %d): c[%d][%d] is %a, the sum in the order of p %a; "
                      "rows below %d go four at a time, blocks of B start at every "
                      "64th p: if only the last n mod 4 rows differ, look at "
                      "add_rows_of_b; if only the others, at add_rows_of_b_to_four "
                      "and the order of its blocks", n, k, m, i, j, got, exp, n - n % 4);
#endif
        }
}

Test(matmul, every_element_is_its_products_summed_in_the_order_of_p)
{
    /* n: groups of four rows and 1 to 3 rows left over; k: one block of B
     * or several, the last one short by 1 or not a multiple of 4; m: 1 or a
     * few columns. A and B are followed by a row of 3.0 that a product
     * reading past them would add in; c by doubles it must not write. */
    static const int ns[] = { 1, 3, 4, 6, 9 }, ks[] = { 1, 5, 63, 64, 67, 131 },
                     ms[] = { 1, 7 };
    enum { GUARD = 8 };
    uint64_t seed = 100;
    for (size_t x = 0; x < sizeof ns / sizeof ns[0]; x++)
        for (size_t y = 0; y < sizeof ks / sizeof ks[0]; y++)
            for (size_t z = 0; z < sizeof ms / sizeof ms[0]; z++) {
                int n = ns[x], k = ks[y], m = ms[z];
                double *a = malloc(sizeof(double) * (n + 1) * k),
                       *b = malloc(sizeof(double) * (k + 1) * m),
                       *c = malloc(sizeof(double) * (n * m + GUARD));
                cr_assert(a != NULL && b != NULL && c != NULL);
                random_matrix(a, (size_t)n * k, 1.0, seed++);
                random_matrix(b, (size_t)k * m, 1.0, seed++);
                for (int g = n * k; g < (n + 1) * k; g++) a[g] = 3.0;
                for (int g = k * m; g < (k + 1) * m; g++) b[g] = 3.0;
                for (int g = 0; g < n * m + GUARD; g++) c[g] = 0.5;
                cr_assert_eq(mm_matmul(c, a, b, n, k, m, false), MM_OK, "%s", mm_last_error());
                expect_order_of_p(c, a, b, n, k, m);
                for (int g = n * m; g < n * m + GUARD; g++)
                    cr_assert_eq(c[g], 0.5, "(%d, %d, %d): the product wrote past c, at "
                                 "c[%d]; look at the bounds of the rows (n4, n)", n, k, m, g);
                free(a); free(b); free(c);
            }
}

Test(fused, concatenated_equals_separate_exactly)
{
    static const int shapes[][4] = { { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 5, 3, 4, 2 },
                                     { 7, 64, 16, 16 }, { 3, 64, 64, 64 }, { 4, 6, 2, 5 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int T = shapes[s][0], d = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
        int d_qkv = 2 * d_k + d_v;
        double *x = malloc(sizeof(double) * T * d), *w_q = malloc(sizeof(double) * d * d_k),
               *w_k = malloc(sizeof(double) * d * d_k), *w_v = malloc(sizeof(double) * d * d_v),
               *w_qkv = malloc(sizeof(double) * d * d_qkv), *qkv = malloc(sizeof(double) * T * d_qkv),
               *q1 = malloc(sizeof(double) * T * d_k), *k1 = malloc(sizeof(double) * T * d_k),
               *v1 = malloc(sizeof(double) * T * d_v), *q2 = malloc(sizeof(double) * T * d_k),
               *k2 = malloc(sizeof(double) * T * d_k), *v2 = malloc(sizeof(double) * T * d_v);
        random_matrix(x, (size_t)T * d, 1.0, 10 + s);
        random_matrix(w_q, (size_t)d * d_k, 0.02, 20 + s);
        random_matrix(w_k, (size_t)d * d_k, 0.02, 30 + s);
        random_matrix(w_v, (size_t)d * d_v, 0.02, 40 + s);
        cr_assert_eq(qkv_project(q1, k1, v1, x, w_q, w_k, w_v, T, d, d_k, d_v), MM_OK);
        cr_assert_eq(qkv_pack(w_qkv, w_q, w_k, w_v, d, d_k, d_v), MM_OK);
        cr_assert_eq(qkv_project_fused(q2, k2, v2, qkv, x, w_qkv, T, d, d_k, d_v), MM_OK);
        cr_assert_eq(memcmp(q1, q2, sizeof(double) * T * d_k), 0, "Q differs, shape T=%d d=%d d_k=%d d_v=%d", T, d, d_k, d_v);
        cr_assert_eq(memcmp(k1, k2, sizeof(double) * T * d_k), 0, "K differs, shape T=%d d=%d d_k=%d d_v=%d", T, d, d_k, d_v);
        cr_assert_eq(memcmp(v1, v2, sizeof(double) * T * d_v), 0, "V differs, shape T=%d d=%d d_k=%d d_v=%d", T, d, d_k, d_v);
        free(x); free(w_q); free(w_k); free(w_v); free(w_qkv); free(qkv);
        free(q1); free(k1); free(v1); free(q2); free(k2); free(v2);
    }
}

Test(fused, pack_puts_the_blocks_in_q_k_v_order)
{
    const double w_q[2] = { 1, 2 }, w_k[2] = { 3, 4 }, w_v[4] = { 5, 6, 7, 8 };
    double w_qkv[8];
    cr_assert_eq(qkv_pack(w_qkv, w_q, w_k, w_v, 2, 1, 2), MM_OK);
    const double exp[8] = { 1, 3, 5, 6, 2, 4, 7, 8 };       /* rows: q | k | v v */
    expect_close(w_qkv, exp, 8, 0, "W_QKV (2, 4) = [W_Q | W_K | W_V]");
}

/* count - attention_param_count's result, or -1 if it failed */
static long count(int d_model, int n_heads)
{
    long n = -1;
    return attention_param_count(&n, d_model, n_heads) == MM_OK ? n : -1;
}

Test(param_count, mini_gpt_layer)
{
    cr_assert_eq(count(64, 4), 16384L, "Mini-GPT: 3*64*16*4 + 64*64");
    cr_assert_eq(count(64, 1), 16384L, "the count does not depend on n_heads");
    cr_assert_eq(count(8, 2), 256L);
    cr_assert_eq(count(32768, 8), 4294967296L, "2^32: past INT_MAX, computed in long");
}

static void expect_message(const char *needle1, const char *needle2)
{
    const char *msg = mm_last_error();
    cr_assert(strstr(msg, needle1) && strstr(msg, needle2),
              "message \"%s\" should name \"%s\" and \"%s\"", msg, needle1, needle2);
}

Test(param_count, bad_arguments_leave_the_count_alone)
{
    long n = 7;
    cr_assert_eq(attention_param_count(&n, 65, 4), MM_EINVAL);
    expect_message("d_model (65)", "n_heads (4)");
    cr_assert_eq(attention_param_count(&n, 0, 4), MM_EINVAL);
    expect_message("attention_param_count: d_model", "got 0");
    cr_assert_eq(attention_param_count(&n, 64, -2), MM_EINVAL);
    expect_message("attention_param_count: n_heads", "got -2");
    cr_assert_eq(attention_param_count(NULL, 64, 4), MM_EINVAL);
    expect_message("attention_param_count: count", "is NULL");
    cr_assert_eq(n, 7, "a failed call changed *count to %ld", n);
}

Test(param_count, a_count_past_long_is_a_range_error)
{
    long n = 7;
    /* 4 d^2 > 2^63 - 1 for d >= 1518500250 (with a 64-bit long) */
    mm_status s = attention_param_count(&n, 2000000000, 1);
    if (sizeof(long) == 8) {
        cr_assert_eq(s, MM_ERANGE, "got %s", mm_status_name(s));
        expect_message("attention_param_count", "does not fit in a long");
        cr_assert_eq(count(1518500249, 1), 4L * 1518500249L * 1518500249L,
                     "the largest d_model whose count fits");
        cr_assert_eq(count(1518500250, 1), -1L, "the first d_model whose count does not fit");
    }
    cr_assert_eq(n, 7);
}

Test(errors, status_names)
{
    cr_assert_str_eq(mm_status_name(MM_OK), "MM_OK");
    cr_assert_str_eq(mm_status_name(MM_EINVAL), "MM_EINVAL");
    cr_assert_str_eq(mm_status_name(MM_ENOMEM), "MM_ENOMEM");
    cr_assert_str_eq(mm_status_name(MM_ERANGE), "MM_ERANGE");
    cr_assert_str_eq(mm_status_name((mm_status)42), "(not an mm_status)");
}

Test(generator, pinned_integers)
{
    mm_rng r;
    mm_rng_seed(&r, 0);
    /* splitmix64's published first outputs for seed 0 */
    cr_assert_eq(mm_rng_next(&r), 0xE220A8397B1DCDAFull);
    cr_assert_eq(mm_rng_next(&r), 0x6E789E6AA1B965F4ull);
    cr_assert_eq(mm_rng_next(&r), 0x06C45D188009454Full);
}

Test(generator, pinned_normals)
{
    mm_rng r;
    mm_rng_seed(&r, 42);
    const double exp[4] = { 0.49295065581737485, -0.69400566721601742,
                            -1.2810773478777024, -0.901557193497174 };
    for (int i = 0; i < 4; i++) {
        double z = mm_rng_normal(&r);
        cr_assert(fabs(z - exp[i]) <= 1e-15 * fabs(exp[i]),
                  "normal %d of seed 42 is %.17g, pinned %.17g: if only the last "
                  "digits differ, this libm's log differs; otherwise the stream changed",
                  i, z, exp[i]);
    }
}

Test(generator, initial_weights_are_pinned_and_n_0_002)
{
    enum { D = 64, N = D * D };
    static double w_q[N], w_k[N], w_v[N], w_o[N];
    cr_assert_eq(attention_init_weights(w_q, w_k, w_v, w_o, D, 42), MM_OK, "%s", mm_last_error());
    cr_assert(fabs(w_q[0] - 0.02 * 0.49295065581737485) < 1e-17, "W_Q[0][0] = %.17g", w_q[0]);
    cr_assert(fabs(w_q[1] - 0.02 * -0.69400566721601742) < 1e-17, "W_Q[0][1] = %.17g", w_q[1]);
    double *all[4] = { w_q, w_k, w_v, w_o };
    double sum = 0, sum2 = 0;
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < N; i++) { sum += all[m][i]; sum2 += all[m][i] * all[m][i]; }
    double n = 4.0 * N, mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    /* standard error of the mean: 0.02 / sqrt(16384) = 1.6e-4; allow 4 of them */
    cr_assert(fabs(mean) < 6.25e-4, "mean of %g draws is %g, expected about 0", n, mean);
    cr_assert(fabs(sd - 0.02) < 0.02 * 0.03, "standard deviation is %g, expected 0.02", sd);
    cr_assert(w_k[0] != w_q[0] && w_o[N - 1] != w_v[N - 1], "matrices must differ");
}

Test(generator, same_seed_same_weights_other_seed_other_weights)
{
    double a[16], b[16], c[16], d[16], e[16], f[16], g[16], h[16];
    attention_init_weights(a, b, c, d, 2, 7);
    attention_init_weights(e, f, g, h, 2, 7);
    cr_assert_eq(memcmp(a, e, sizeof(double) * 4), 0);
    cr_assert_eq(memcmp(d, h, sizeof(double) * 4), 0);
    attention_init_weights(e, f, g, h, 2, 8);
    cr_assert_neq(memcmp(a, e, sizeof(double) * 4), 0);
}
