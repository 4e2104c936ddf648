/* test_mha.c - Criterion tests of chapter 03's module: the multi-head layer
 * (mha_new, mha_free, mha_param_count, mha_get_weights, mha_set_weights),
 * the head split and merge, and the forward pass mha_forward. When one
 * fails, the message says what differs and what usually causes it.
 *
 * The worked example's expected numbers are closed forms written here from
 * the chapter's algebra (exp and sqrt), not the library's output; the other
 * references are chapter 01's and chapter 02's functions (qkv_project, sdpa,
 * mm_matmul), which have their own tests, used the way the chapter defines
 * the layer. The pinned weights are the only recorded values.
 *
 * Some messages of mha_forward name sdpa, not mha_forward: a bias holding
 * NaN or +inf (mha.h: sdpa checks the bias, for head 0, before anything is
 * written), a score that overflows in one head, a head's output that
 * overflows, and sdpa's row of scratch that cannot be allocated. The tests
 * accept either name for those (see expect_forward_message); everything
 * else must name the function called. */
#include <criterion/criterion.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "examples/ch03-worked.h"   /* the worked example, typed once */
#include "expect.h"                 /* expect_close, expect_same_bits, ... */

/* ---- helpers ------------------------------------------------------------------ */

/* new_layer - mha_new that must succeed */
static mha *new_layer(int d_model, int n_heads, uint64_t seed)
{
    mha *layer = NULL;
    cr_assert_eq(mha_new(&layer, d_model, n_heads, seed), MM_OK, "mha_new(%d, %d, %llu): %s",
                 d_model, n_heads, (unsigned long long)seed, mm_last_error());
    cr_assert_not_null(layer, "mha_new returned MM_OK but left *layer NULL");
    return layer;
}

/* random_layer - a layer whose four matrices are std * N(0, 1) from seed,
 * set with mha_set_weights (the drawn N(0, 0.02^2) weights give nearly
 * uniform attention, which hides mistakes) */
static mha *random_layer(int d_model, int n_heads, double std, uint64_t seed)
{
    mha *layer = new_layer(d_model, n_heads, seed);
    size_t dd = (size_t)d_model * d_model;
    double *w = malloc(4 * dd * sizeof *w);
    cr_assert_not_null(w);
    random_matrix(w, 4 * dd, std, seed + 1000);
    cr_assert_eq(mha_set_weights(layer, w, w + dd, w + 2 * dd, w + 3 * dd), MM_OK, "%s",
                 mm_last_error());
    free(w);
    return layer;
}

/* the worked layer: d_model 4, two heads, W_Q = W_K = W_V = I, chapter's W_O */
static mha *worked_layer(void)
{
    mha *layer = new_layer(CH03_D, CH03_H, 1);
    cr_assert_eq(mha_set_weights(layer, ch03_eye, ch03_eye, ch03_eye, ch03_w_o), MM_OK,
                 "%s", mm_last_error());
    return layer;
}

/* expect_status - the status, and a message containing text */
#define EXPECT_STATUS(call, status, text)                                           \
    do {                                                                            \
        mm_status s_ = (call);                                                      \
        cr_assert_eq(s_, status, "%s returned %s, expected %s (message: %s)", #call, \
                     mm_status_name(s_), mm_status_name(status), mm_last_error());   \
        cr_assert(strstr(mm_last_error(), text) != NULL, "%s: the message \"%s\" "  \
                  "lacks \"%s\"; it must name the function, the argument and its "  \
                  "value", #call, mm_last_error(), text);                           \
    } while (0)

/* expect_forward_message - a message of mha_forward that may come from
 * sdpa, which it calls per head (the bias check and a score's overflow):
 * "mha_forward: ...tail" or "sdpa: ...tail" */
static void expect_forward_message(const char *tail, const char *what)
{
    const char *msg = mm_last_error();
    cr_assert(strncmp(msg, "mha_forward: ", 13) == 0 || strncmp(msg, "sdpa: ", 6) == 0,
              "%s: the message \"%s\" names neither mha_forward nor sdpa", what, msg);
    cr_assert(strstr(msg, tail) != NULL, "%s: the message \"%s\" lacks \"%s\"", what, msg,
              tail);
}

/* ---- the worked example, by hand ------------------------------------------------- */

/* the chapter's closed forms: a = e^{1/sqrt 2} (scores 1/sqrt 2), b = e^{sqrt 2}
 * (score 2/sqrt 2); weights[h][t][j] and out[t][j] */
static void worked_expected(double w[2 * 3 * 3], double concat[3 * 4], double out[3 * 4])
{
    double a = exp(1 / sqrt(2.0)), b = exp(sqrt(2.0));
    double za = 2 * a + 1, zb = 2 * a + b, zc = a + 2;
    const double ww[18] = {
        /* head 0: X_0 = (1 0; 0 1; 1 1), scores X_0 X_0^T / sqrt 2 */
        a / za, 1 / za, a / za,          /* (1, 0, 1) / sqrt 2 */
        1 / za, a / za, a / za,          /* (0, 1, 1) / sqrt 2 */
        a / zb, a / zb, b / zb,          /* (1, 1, 2) / sqrt 2 */
        /* head 1: X_1 = (1 0; 0 1; 0 0) */
        a / zc, 1 / zc, 1 / zc,          /* (1, 0, 0) / sqrt 2 */
        1 / zc, a / zc, 1 / zc,          /* (0, 1, 0) / sqrt 2 */
        1.0 / 3, 1.0 / 3, 1.0 / 3 };     /* token 2 is 0 in head 1: uniform */
    memcpy(w, ww, sizeof ww);
    /* each head's output: its weights times V_h = X_h */
    const double o[2][6] = {
        { 2 * a / za, (1 + a) / za,  (1 + a) / za, 2 * a / za,  (a + b) / zb, (a + b) / zb },
        { a / zc, 1 / zc,  1 / zc, a / zc,  1.0 / 3, 1.0 / 3 } };
    for (int t = 0; t < 3; t++) {
        double c0 = o[0][2 * t], c1 = o[0][2 * t + 1], c2 = o[1][2 * t], c3 = o[1][2 * t + 1];
        double row[4] = { c0, c1, c2, c3 };
        memcpy(concat + 4 * t, row, sizeof row);
        /* W_O adds the heads in columns 0-1, subtracts them in columns 2-3 */
        double mixed[4] = { c0 + c2, c1 + c3, c0 - c2, c1 - c3 };
        memcpy(out + 4 * t, mixed, sizeof mixed);
    }
}

Test(worked_example, weights_and_output_by_hand)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H };
    double w[H * T * T], out[T * D], w_exp[H * T * T], concat_exp[T * D], out_exp[T * D];
    mha *layer = worked_layer();
    cr_assert_eq(mha_forward(out, w, layer, ch03_x, NULL, T), MM_OK, "%s", mm_last_error());
    worked_expected(w_exp, concat_exp, out_exp);
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++)
            for (int j = 0; j < T; j++) {
                int e = (h * T + t) * T + j;
                cr_assert(fabs(w[e] - w_exp[e]) <= 1e-15, "head %d, query %d, key %d: "
                          "weight %.17g, expected %.17g. Look first at the split: head h "
                          "reads columns h d_k .. h d_k + d_k - 1 of Q and K (head 1's row "
                          "2 must be uniform, 1/3); then at the scale 1/sqrt(d_k) with "
                          "d_k = 2, not d_model = 4", h, t, j, w[e], w_exp[e]);
            }
    for (int e = 0; e < T * D; e++)
        cr_assert(fabs(out[e] - out_exp[e]) <= 1e-15, "out[%d][%d] is %.17g, expected "
                  "%.17g: the weights are right, so look at the merge (head h's output "
                  "goes to columns h d_k ..) and at the product with W_O (columns 0-1 "
                  "add the heads, 2-3 subtract them; a sign swapped means W_O^T)",
                  e / D, e % D, out[e], out_exp[e]);
    /* the numbers the chapter prints, to its four decimals */
    const double book_out[2][4] = { { 1.3057, 0.8471, 0.2987, 0.3506 },
                                    { 1.0851, 1.0851, 0.4184, 0.4184 } };
    for (int c = 0; c < D; c++) {
        cr_assert(fabs(out[c] - book_out[0][c]) < 5e-5, "out_0[%d] is %.6f, the book "
                  "says %.4f", c, out[c], book_out[0][c]);
        cr_assert(fabs(out[2 * D + c] - book_out[1][c]) < 5e-5, "out_2[%d] is %.6f, the "
                  "book says %.4f", c, out[2 * D + c], book_out[1][c]);
    }
    cr_assert(fabs(w[0] - 0.4011) < 5e-5 && fabs(w[1] - 0.1978) < 5e-5,
              "head 0, row 0: (%.6f, %.6f, ...), the book says (0.4011, 0.1978, 0.4011)",
              w[0], w[1]);
    mha_free(layer);
}

Test(worked_example, each_head_then_the_merge_by_hand)
{
    /* the pieces of the forward pass with the chapter's functions: split X
     * (Q = K = V = X here), sdpa per head, merge, times W_O */
    enum { T = CH03_T, D = CH03_D, H = CH03_H, DK = D / H };
    double heads[H * T * DK], o[H * T * DK], concat[T * D], out[T * D];
    double w_exp[H * T * T], concat_exp[T * D], out_exp[T * D];
    worked_expected(w_exp, concat_exp, out_exp);
    cr_assert_eq(mha_split_heads(heads, ch03_x, T, H, DK), MM_OK, "%s", mm_last_error());
    for (int h = 0; h < H; h++) {
        const double *x_h = heads + h * T * DK;
        cr_assert_eq(sdpa(o + h * T * DK, NULL, x_h, x_h, x_h, NULL, T, T, DK, DK), MM_OK,
                     "%s", mm_last_error());
    }
    cr_assert_eq(mha_merge_heads(concat, o, T, H, DK), MM_OK, "%s", mm_last_error());
    expect_close(concat, concat_exp, T * D, 1e-15, "the concatenation of the heads' "
                 "outputs (row 0 is (0.8022, 0.5989 | 0.5035, 0.2483))");
    cr_assert_eq(mm_matmul(out, concat, ch03_w_o, T, D, D, false), MM_OK);
    double got[T * D];
    mha *layer = worked_layer();
    cr_assert_eq(mha_forward(got, NULL, layer, ch03_x, NULL, T), MM_OK, "%s", mm_last_error());
    expect_same_bits(got, out, T * D, "mha_forward against split, sdpa per head, merge, "
                     "W_O on the worked example");
    mha_free(layer);
}

/* ---- the split and the merge ------------------------------------------------------ */

Test(split, the_worked_x_head_by_head)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H, DK = D / H };
    double heads[H * T * DK];
    cr_assert_eq(mha_split_heads(heads, ch03_x, T, H, DK), MM_OK, "%s", mm_last_error());
    const double want[H * T * DK] = { 1, 0,  0, 1,  1, 1,     /* X_0: columns 0-1 */
                                      1, 0,  0, 1,  0, 0 };   /* X_1: columns 2-3 */
    for (int e = 0; e < H * T * DK; e++)
        cr_assert(heads[e] == want[e], "head %d, token %d, column %d is %g, expected %g%s",
                  e / (T * DK), e / DK % T, e % DK, heads[e], want[e],
                  heads[0] == 1 && heads[2] == 1 && heads[4] == 0 ? ": head 0 reads "
                  "(1, 0), (1, 0), (0, 1), the reshape to (n_heads, T, d_k) without the "
                  "transpose" : "");
}

Test(split, layout_and_round_trip_are_exact)
{
    static const int shapes[][3] = { { 5, 3, 4 }, { 1, 4, 2 }, { 7, 1, 6 }, { 4, 8, 1 },
                                     { 2, 2, 16 } };        /* T, n_heads, d_k */
    enum { M = 256 };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int T = shapes[s][0], H = shapes[s][1], DK = shapes[s][2], W = H * DK;
        double m[M], heads[M], back[M], heads2[M];
        random_matrix(m, (size_t)T * W, 1.0, 60 + s);
        cr_assert_eq(mha_split_heads(heads, m, T, H, DK), MM_OK, "%s", mm_last_error());
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < DK; c++)
                    cr_assert(heads[(h * T + t) * DK + c] == m[t * W + h * DK + c],
                              "T %d, n_heads %d, d_k %d: heads[%d][%d][%d] is not "
                              "m[%d][%d * %d + %d]; split's layout is heads[h][t][c] = "
                              "m[t][h d_k + c]", T, H, DK, h, t, c, t, h, DK, c);
        for (int i = 0; i < T * W; i++) back[i] = -1;
        cr_assert_eq(mha_merge_heads(back, heads, T, H, DK), MM_OK, "%s", mm_last_error());
        expect_same_bits(back, m, T * W, "merge(split(m)): the merge must undo the split");
        cr_assert_eq(mha_split_heads(heads2, back, T, H, DK), MM_OK);
        expect_same_bits(heads2, heads, T * W, "split(merge(heads))");
    }
}

Test(split, values_are_copied_bit_for_bit)
{
    /* NaN, infinities, -0 and subnormals are copied, not checked */
    enum { T = 2, H = 2, DK = 3, W = H * DK };
    double m[T * W] = { NAN, -0.0, INFINITY, -INFINITY, 0x1p-1074, -DBL_MAX,
                        1, -NAN, DBL_MIN / 3, 0.0, 2.5, -7 };
    double heads[T * W], back[T * W];
    cr_assert_eq(mha_split_heads(heads, m, T, H, DK), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_merge_heads(back, heads, T, H, DK), MM_OK, "%s", mm_last_error());
    expect_same_bits(back, m, T * W, "special values through split and merge");
    cr_assert(memcmp(&heads[DK], &m[W], sizeof(double)) == 0 && signbit(heads[1]),
              "heads[0][1][0] must be m[1][0] (1) and heads[0][0][1] the -0 of m[0][1]");
}

Test(split, one_head_is_a_copy)
{
    enum { T = 4, D = 6 };
    double m[T * D], heads[T * D];
    random_matrix(m, T * D, 1.0, 77);
    cr_assert_eq(mha_split_heads(heads, m, T, 1, D), MM_OK, "%s", mm_last_error());
    expect_same_bits(heads, m, T * D, "with one head, the split is the identity");
}

/* ---- the forward pass against its definition ------------------------------------- */

/* by_definition - out = concat_h sdpa(Q_h, K_h, V_h, bias) W_O with chapter 01's
 * full-width projection, the split, chapter 02's sdpa per head, the merge and one
 * product; w (n_heads, T, T) */
static void by_definition(double *out, double *w, const mha *layer, const double *x,
                          const double *bias, int T)
{
    int d = layer->d_model, H = layer->n_heads, dk = d / H;
    size_t td = (size_t)T * d, dd = (size_t)d * d;
    double *buf = malloc((9 * td + 4 * dd) * sizeof *buf);
    cr_assert_not_null(buf);
    double *q = buf, *k = q + td, *v = k + td, *qh = v + td, *kh = qh + td, *vh = kh + td;
    double *o = vh + td, *concat = o + td, *wq = concat + td, *wk = wq + dd, *wv = wk + dd;
    double *wo = wv + dd;
    cr_assert_eq(mha_get_weights(wq, wk, wv, wo, layer), MM_OK, "%s", mm_last_error());
    cr_assert_eq(qkv_project(q, k, v, x, wq, wk, wv, T, d, d, d), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_split_heads(qh, q, T, H, dk), MM_OK);
    cr_assert_eq(mha_split_heads(kh, k, T, H, dk), MM_OK);
    cr_assert_eq(mha_split_heads(vh, v, T, H, dk), MM_OK);
    for (int h = 0; h < H; h++) {
        size_t at = (size_t)h * T * dk;
        cr_assert_eq(sdpa(o + at, w + (size_t)h * T * T, qh + at, kh + at, vh + at, bias,
                          T, T, dk, dk), MM_OK, "%s", mm_last_error());
    }
    cr_assert_eq(mha_merge_heads(concat, o, T, H, dk), MM_OK);
    cr_assert_eq(mm_matmul(out, concat, wo, T, d, d, false), MM_OK, "%s", mm_last_error());
    free(buf);
}

Test(definition, one_head_is_chapter_02s_sdpa_with_full_width_projections)
{
    /* n_heads = 1: out = sdpa(X W_Q, X W_K, X W_V) W_O, d_k = d_model */
    static const int dims[] = { 8, 64, 3 };
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        enum { T = 6, MAXD = 64 };
        int d = dims[i];
        static double x[T * MAXD], q[T * MAXD], k[T * MAXD], v[T * MAXD], o[T * MAXD];
        static double wq[MAXD * MAXD], wk[MAXD * MAXD], wv[MAXD * MAXD], wo[MAXD * MAXD];
        double w[T * T], w_ref[T * T], out[T * MAXD], out_ref[T * MAXD];
        mha *layer = d == 64 ? new_layer(d, 1, 11) : random_layer(d, 1, 0.7, 11 + i);
        random_matrix(x, (size_t)T * d, 1.0, 90 + i);
        cr_assert_eq(mha_get_weights(wq, wk, wv, wo, layer), MM_OK, "%s", mm_last_error());
        cr_assert_eq(qkv_project(q, k, v, x, wq, wk, wv, T, d, d, d), MM_OK);
        cr_assert_eq(sdpa(o, w_ref, q, k, v, NULL, T, T, d, d), MM_OK, "%s", mm_last_error());
        cr_assert_eq(mm_matmul(out_ref, o, wo, T, d, d, false), MM_OK);
        cr_assert_eq(mha_forward(out, w, layer, x, NULL, T), MM_OK, "%s", mm_last_error());
        char what[160];
        snprintf(what, sizeof what, "d_model %d, one head: weights against sdpa(X W_Q, X W_K, "
                 "X W_V) (the scale must be 1/sqrt(d_model) here)", d);
        expect_same_bits(w, w_ref, T * T, what);
        snprintf(what, sizeof what, "d_model %d, one head: out against sdpa(...) W_O", d);
        expect_same_bits(out, out_ref, T * d, what);
        mha_free(layer);
    }
}

Test(definition, many_heads_are_split_sdpa_merge_and_w_o)
{
    static const int shapes[][3] = { { 64, 4, 8 }, { 12, 3, 5 }, { 6, 6, 4 }, { 10, 2, 1 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int d = shapes[s][0], H = shapes[s][1], T = shapes[s][2];
        static double x[8 * 64], out[8 * 64], out_ref[8 * 64], w[64 * 8], w_ref[64 * 8];
        static double bias[8 * 8];
        mha *layer = random_layer(d, H, 0.3, 20 + s);
        random_matrix(x, (size_t)T * d, 1.0, 30 + s);
        random_matrix(bias, (size_t)T * T, 1.0, 40 + s);
        for (int i = 0; i < T; i++)                 /* causal: hide the future */
            for (int j = i + 1; j < T; j++) bias[i * T + j] = -INFINITY;
        for (int with_bias = 0; with_bias < 2; with_bias++) {
            const double *b = with_bias ? bias : NULL;
            cr_assert_eq(mha_forward(out, w, layer, x, b, T), MM_OK, "%s", mm_last_error());
            by_definition(out_ref, w_ref, layer, x, b, T);
            char what[160];
            snprintf(what, sizeof what, "d_model %d, %d heads, T %d%s: the weights (n_heads, "
                     "T, T) against sdpa on each head's columns", d, H, T,
                     with_bias ? ", causal bias" : "");
            expect_same_bits(w, w_ref, H * T * T, what);
            snprintf(what, sizeof what, "d_model %d, %d heads, T %d%s: out against merge "
                     "and W_O", d, H, T, with_bias ? ", causal bias" : "");
            expect_same_bits(out, out_ref, T * d, what);
        }
        mha_free(layer);
    }
}

Test(definition, changing_one_head_leaves_the_others_bit_identical)
{
    enum { D = 64, H = 4, DK = D / H, T = 8, DD = D * D, CHANGED = 2 };
    static double x[T * D], out1[T * D], out2[T * D], w1[H * T * T], w2[H * T * T];
    static double wq[DD], wk[DD], wv[DD], wo[DD], noise[3 * DD];
    mha *layer = new_layer(D, H, 5);
    random_matrix(x, T * D, 1.0, 6);
    cr_assert_eq(mha_forward(out1, w1, layer, x, NULL, T), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_get_weights(wq, wk, wv, wo, layer), MM_OK);
    random_matrix(noise, 3 * DD, 0.5, 7);
    for (int r = 0; r < D; r++)                 /* head 2's columns: 32 .. 47 */
        for (int c = CHANGED * DK; c < (CHANGED + 1) * DK; c++) {
            wq[r * D + c] += noise[r * D + c];
            wk[r * D + c] += noise[DD + r * D + c];
            wv[r * D + c] += noise[2 * DD + r * D + c];
        }
    cr_assert_eq(mha_set_weights(layer, wq, wk, wv, wo), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_forward(out2, w2, layer, x, NULL, T), MM_OK, "%s", mm_last_error());
    for (int h = 0; h < H; h++) {
        const double *a = w1 + h * T * T, *b = w2 + h * T * T;
        int differ = memcmp(a, b, sizeof(double) * T * T) != 0;
        if (h == CHANGED)
            cr_assert(differ, "head 2's columns of W_Q, W_K, W_V changed but head 2's "
                      "weights did not: the heads do not read their own columns");
        else
            cr_assert(!differ, "head %d's weights changed when only head 2's columns of "
                      "W_Q, W_K, W_V did: a head reads columns outside h d_k .. h d_k + "
                      "d_k - 1 (a split with the wrong stride, or the reshape bug)", h);
    }
    cr_assert(memcmp(out1, out2, sizeof out1) != 0, "out did not change with head 2");
    mha_free(layer);
}

/* ---- counts, seeds and the weights ------------------------------------------------- */

Test(params, four_d_model_squared_whatever_n_heads)
{
    mha *layer = new_layer(64, 4, 1);
    long n = -1;
    cr_assert_eq(mha_param_count(&n, layer), MM_OK, "%s", mm_last_error());
    cr_assert_eq(n, 16384, "MultiHeadAttention(64, 4) has %ld weights, the chapter says "
                 "16,384 = 4 x 64^2 (W_Q, W_K, W_V, W_O; no biases)", n);
    mha_free(layer);
    static const int cases[][2] = { { 12, 1 }, { 12, 2 }, { 12, 3 }, { 12, 4 }, { 12, 6 },
                                    { 12, 12 }, { 1, 1 }, { 7, 7 }, { 30, 5 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int d = cases[i][0], h = cases[i][1];
        layer = new_layer(d, h, 3);
        n = -1;
        cr_assert_eq(mha_param_count(&n, layer), MM_OK, "%s", mm_last_error());
        cr_assert_eq(n, 4L * d * d, "d_model %d, %d heads: %ld weights, expected 4 d^2 = "
                     "%ld (the count must not depend on n_heads)", d, h, n, 4L * d * d);
        cr_assert(layer->d_model == d && layer->n_heads == h && layer->d_k == d / h,
                  "mha_new(%d, %d) made a layer of d_model %d, n_heads %d, d_k %d", d, h,
                  layer->d_model, layer->n_heads, layer->d_k);
        mha_free(layer);
    }
}

Test(seeds, the_weights_are_attention_init_weights_of_the_seed)
{
    static const struct { int d, h; uint64_t seed; } cases[] = {
        { 64, 4, 1 }, { 64, 1, 1 }, { 5, 5, 0 }, { 12, 3, UINT64_MAX } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int d = cases[i].d;
        size_t dd = (size_t)d * d;
        static double got[4][4096], want[4][4096];
        mha *layer = new_layer(d, cases[i].h, cases[i].seed);
        cr_assert_eq(mha_get_weights(got[0], got[1], got[2], got[3], layer), MM_OK, "%s",
                     mm_last_error());
        cr_assert_eq(attention_init_weights(want[0], want[1], want[2], want[3], d,
                                            cases[i].seed), MM_OK);
        static const char *const names[4] = { "W_Q", "W_K", "W_V", "W_O" };
        for (int m = 0; m < 4; m++) {
            char what[256];
            snprintf(what, sizeof what, "mha_new(%d, %d, seed %llu): %s against "
                     "attention_init_weights of the same seed (a matrix equal to the "
                     "next one's means W_QKV was packed or cut with the wrong width)",
                     d, cases[i].h, (unsigned long long)cases[i].seed, names[m]);
            expect_same_bits(got[m], want[m], (int)dd, what);
        }
        /* the packed form: row r of W_QKV is [W_Q row r | W_K row r | W_V row r] */
        for (int r = 0; r < d; r++)
            for (int c = 0; c < 3 * d; c++) {
                double e = want[c / d][r * d + c % d];
                cr_assert(memcmp(&layer->w_qkv[r * 3 * d + c], &e, sizeof e) == 0,
                          "layer->w_qkv[%d][%d] is %.17g, expected %s[%d][%d] = %.17g",
                          r, c, layer->w_qkv[r * 3 * d + c], names[c / d], r, c % d, e);
            }
        expect_same_bits(layer->w_o, want[3], (int)dd, "layer->w_o against W_O");
        mha_free(layer);
    }
}

Test(seeds, pinned_weights_of_multiheadattention_64_4_1)
{
    enum { D = 64, DD = D * D };
    static double w[4][DD];
    mha *layer = new_layer(D, 4, 1);
    cr_assert_eq(mha_get_weights(w[0], w[1], w[2], w[3], layer), MM_OK, "%s", mm_last_error());
    /* recorded once, and equal to an independent splitmix64 + polar method */
    static const struct { int m, r, c; double value; const char *name; } pins[] = {
        { 0, 0, 0, 0.0085890441076801379, "W_Q[0][0]" },
        { 0, 0, 1, 0.031715450671479857, "W_Q[0][1]" },
        { 0, 63, 63, 0.016202894242697517, "W_Q[63][63]" },
        { 1, 0, 0, 0.027201431154721793, "W_K[0][0]" },
        { 2, 63, 63, 0.018322090248837703, "W_V[63][63]" },
        { 3, 0, 0, 0.0021276853071575553, "W_O[0][0]" },
        { 3, 63, 63, 0.025338281361849284, "W_O[63][63]" } };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        double got = w[pins[i].m][pins[i].r * D + pins[i].c];
        cr_assert(fabs(got - pins[i].value) <= 1e-15 * fabs(pins[i].value),
                  "MultiHeadAttention(64, 4, seed 1): %s is %.17g, pinned %.17g. If only "
                  "the last digits differ, this libm's log differs; if W_Q[0][0] is right "
                  "and later ones are not, the draw order changed (W_Q, W_K, W_V, W_O, each "
                  "row by row); if all differ, the generator or MM_INIT_STD changed",
                  pins[i].name, got, pins[i].value);
    }
    mha_free(layer);
    /* n_heads does not change the weights; another seed does */
    static double v[4][DD];
    layer = new_layer(D, 16, 1);
    cr_assert_eq(mha_get_weights(v[0], v[1], v[2], v[3], layer), MM_OK);
    cr_assert(memcmp(v, w, sizeof v) == 0, "mha_new(64, 16, 1) and mha_new(64, 4, 1) have "
              "different weights: the draw must not depend on n_heads");
    mha_free(layer);
    layer = new_layer(D, 4, 2);
    cr_assert_eq(mha_get_weights(v[0], v[1], v[2], v[3], layer), MM_OK);
    cr_assert(memcmp(v[0], w[0], sizeof v[0]) != 0, "seeds 1 and 2 give the same W_Q");
    mha_free(layer);
}

Test(layer_weights, set_then_get_round_trips)
{
    enum { D = 6, H = 3, DD = D * D };
    double all[4 * DD], out[4][DD];
    const double *in[4] = { all, all + DD, all + 2 * DD, all + 3 * DD };
    mha *layer = new_layer(D, H, 9);
    random_matrix(all, 4 * DD, 3.0, 10);
    all[DD + 7] = -0.0;                           /* W_K[1][1] */
    all[2 * DD] = DBL_MAX;                        /* W_V[0][0] */
    all[4 * DD - 1] = 0x1p-1074;                  /* W_O[5][5] */
    cr_assert_eq(mha_set_weights(layer, in[0], in[1], in[2], in[3]), MM_OK, "%s",
                 mm_last_error());
    cr_assert_eq(mha_get_weights(out[0], out[1], out[2], out[3], layer), MM_OK, "%s",
                 mm_last_error());
    static const char *const names[4] = { "W_Q", "W_K", "W_V", "W_O" };
    for (int m = 0; m < 4; m++) {
        char what[96];
        snprintf(what, sizeof what, "%s after mha_set_weights then mha_get_weights", names[m]);
        expect_same_bits(out[m], in[m], DD, what);
    }
    /* the inputs may coincide: one matrix as W_Q, W_K, W_V and W_O */
    cr_assert_eq(mha_set_weights(layer, in[0], in[0], in[0], in[0]), MM_OK, "tied weights "
                 "refused: %s", mm_last_error());
    cr_assert_eq(mha_get_weights(out[0], out[1], out[2], out[3], layer), MM_OK);
    for (int m = 0; m < 4; m++)
        expect_same_bits(out[m], in[0], DD, "W_Q = W_K = W_V = W_O set from one buffer");
    mha_free(layer);
}

/* ---- the bias: -inf hides a key in every head ------------------------------------ */

enum { BD = 16, BH = 4, BT = 6 };

Test(bias, minus_infinity_hides_a_key_in_every_head)
{
    static const int hidden[BT] = { 0, 1, 0, 1, 0, 0 };     /* keys 1 and 3 */
    enum { KEPT = 4 };
    double x[BT * BD], bias[BT * BT] = { 0 }, w[BH * BT * BT], out[BT * BD];
    double xk[KEPT * BD], wk[BH * KEPT * KEPT], outk[KEPT * BD];
    mha *layer = random_layer(BD, BH, 0.5, 50);
    random_matrix(x, BT * BD, 1.0, 51);
    for (int i = 0; i < BT; i++)
        for (int j = 0; j < BT; j++) if (hidden[j]) bias[i * BT + j] = -INFINITY;
    cr_assert_eq(mha_forward(out, w, layer, x, bias, BT), MM_OK, "%s", mm_last_error());
    /* the same layer on the visible tokens alone, without a bias */
    int kept[KEPT], n = 0;
    for (int t = 0; t < BT; t++)
        if (!hidden[t]) { kept[n] = t; memcpy(xk + n * BD, x + t * BD, sizeof(double) * BD); n++; }
    cr_assert_eq(mha_forward(outk, wk, layer, xk, NULL, KEPT), MM_OK, "%s", mm_last_error());
    for (int h = 0; h < BH; h++)
        for (int i = 0; i < BT; i++)
            for (int j = 0; j < BT; j++)
                if (hidden[j])
                    cr_assert(w[(h * BT + i) * BT + j] == 0, "head %d: hidden key %d has "
                              "weight %g from query %d, expected exactly 0: the bias must be "
                              "added in every head, not only head 0", h, j,
                              w[(h * BT + i) * BT + j], i);
    for (int h = 0; h < BH; h++)
        for (int a = 0; a < KEPT; a++)
            for (int b = 0; b < KEPT; b++) {
                double got = w[(h * BT + kept[a]) * BT + kept[b]];
                double want = wk[(h * KEPT + a) * KEPT + b];
                char what[128];
                snprintf(what, sizeof what, "head %d, query %d, key %d against the run "
                         "without the hidden tokens (a hidden key must add nothing)",
                         h, kept[a], kept[b]);
                expect_same_products(&got, &want, 1, what);
            }
    for (int a = 0; a < KEPT; a++) {
        char what[96];
        snprintf(what, sizeof what, "out row %d with keys 1, 3 hidden against the run "
                 "without tokens 1, 3", kept[a]);
        expect_same_products(out + kept[a] * BD, outk + a * BD, BD, what);
    }
    mha_free(layer);
}

Test(bias, a_fully_hidden_row_gives_zero_weights_and_zero_output)
{
    double x[BT * BD], bias[BT * BT] = { 0 }, w[BH * BT * BT], out[BT * BD];
    double w0[BH * BT * BT], out0[BT * BD];
    mha *layer = random_layer(BD, BH, 0.5, 52);
    random_matrix(x, BT * BD, 1.0, 53);
    for (int j = 0; j < BT; j++) bias[2 * BT + j] = -INFINITY;     /* query 2 sees nothing */
    cr_assert_eq(mha_forward(out, w, layer, x, bias, BT), MM_OK, "%s", mm_last_error());
    cr_assert_eq(mha_forward(out0, w0, layer, x, NULL, BT), MM_OK, "%s", mm_last_error());
    for (int h = 0; h < BH; h++)
        for (int j = 0; j < BT; j++) {
            double got = w[(h * BT + 2) * BT + j];
            cr_assert(got == 0, "head %d: query 2 sees no key, but its weight %d is %g "
                      "(NaN: -inf - max was computed with max = -inf)", h, j, got);
        }
    for (int c = 0; c < BD; c++)
        cr_assert(out[2 * BD + c] == 0, "query 2 sees no key in any head, but out[2][%d] "
                  "is %g; 0 expected (zero heads' outputs times W_O)", c, out[2 * BD + c]);
    for (int i = 0; i < BT; i++) {                   /* a bias of 0 is exact */
        if (i == 2) continue;
        char what[64];
        snprintf(what, sizeof what, "out row %d (its bias row is 0)", i);
        expect_same_bits(out + i * BD, out0 + i * BD, BD, what);
        for (int h = 0; h < BH; h++)
            expect_same_bits(w + (h * BT + i) * BT, w0 + (h * BT + i) * BT, BT,
                             "a weight row whose bias row is 0");
    }
    mha_free(layer);
}

Test(weights, null_weights_give_the_same_output)
{
    double x[BT * BD], bias[BT * BT], w[BH * BT * BT], out1[BT * BD], out2[BT * BD];
    mha *layer = random_layer(BD, BH, 0.5, 54);
    random_matrix(x, BT * BD, 1.0, 55);
    random_matrix(bias, BT * BT, 1.0, 56);
    bias[3] = bias[BT + 5] = -INFINITY;
    for (int j = 0; j < BT; j++) bias[4 * BT + j] = -INFINITY;
    for (int b = 0; b < 2; b++) {
        const double *bb = b ? bias : NULL;
        for (int i = 0; i < BT * BD; i++) out2[i] = -1;
        cr_assert_eq(mha_forward(out1, w, layer, x, bb, BT), MM_OK, "%s", mm_last_error());
        cr_assert_eq(mha_forward(out2, NULL, layer, x, bb, BT), MM_OK, "%s", mm_last_error());
        expect_same_bits(out2, out1, BT * BD, b ? "out with weights NULL (bias given)"
                         : "out with weights NULL (no bias)");
    }
    mha_free(layer);
}

/* ---- errors: status, message, and nothing written -------------------------------- */

/* a pointer that is not NULL and not a layer: *layer must become NULL */
#define NOT_A_LAYER ((mha *)(void *)&sentinel)
static double sentinel;

Test(errors, mha_new)
{
    mha *layer = NOT_A_LAYER;
    static const struct { int d, h; const char *text; } bad[] = {
        { 0, 1, "mha_new: d_model must be positive, got 0" },
        { -4, 2, "mha_new: d_model must be positive, got -4" },
        { INT_MIN, 1, "mha_new: d_model must be positive, got -2147483648" },
        { 4, 0, "mha_new: n_heads must be positive, got 0" },
        { 4, -2, "mha_new: n_heads must be positive, got -2" },
        { 6, 4, "mha_new: n_heads = 4 does not divide d_model = 6; each head needs "
                "d_model / n_heads columns" },
        { 4, 8, "mha_new: n_heads = 8 does not divide d_model = 4" },
        { 65, 4, "n_heads = 4 does not divide d_model = 65" },
        { INT_MAX, 1, "mha_new: d_model = 2147483647 is too large: 3 d_model, the width "
                      "of W_QKV, does not fit in an int" },
        { INT_MAX / 3 + 1, 1, "mha_new: d_model = 715827883 is too large" },
        { INT_MAX / 3, 1, "mha_new: d_model * 4 d_model = 715827882 * "
                          "2863311528 doubles do not fit in one buffer" },
        { 536870912, 2, "= 536870912 * 2147483648 doubles do not fit" },  /* 2^60 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        layer = NOT_A_LAYER;
        mm_status s = mha_new(&layer, bad[i].d, bad[i].h, 1);
        cr_assert_eq(s, MM_EINVAL, "mha_new(%d, %d) returned %s (message: %s)", bad[i].d,
                     bad[i].h, mm_status_name(s), mm_last_error());
        cr_assert(strstr(mm_last_error(), bad[i].text), "mha_new(%d, %d): the message "
                  "\"%s\" lacks \"%s\"", bad[i].d, bad[i].h, mm_last_error(), bad[i].text);
        cr_assert_null(layer, "mha_new(%d, %d) failed but left *layer as it was: it must "
                       "be NULL after a failure", bad[i].d, bad[i].h);
    }
    EXPECT_STATUS(mha_new(NULL, 4, 2, 1), MM_EINVAL, "mha_new: layer is NULL");
    mha_free(layer);                      /* NULL after a failure: does nothing */
    cr_assert_null(layer);
}

Test(errors, mha_param_count)
{
    mha *layer = new_layer(8, 2, 1);
    long n = 777;
    EXPECT_STATUS(mha_param_count(NULL, layer), MM_EINVAL, "mha_param_count: count is NULL");
    EXPECT_STATUS(mha_param_count(&n, NULL), MM_EINVAL, "mha_param_count: layer is NULL");
    cr_assert_eq(n, 777, "a refused mha_param_count changed *count to %ld", n);
    mha_free(layer);
}

/* layer_unchanged - the layer's weights against a copy taken before */
static void layer_unchanged(const mha *layer, const double *copy, const char *call)
{
    size_t dd = (size_t)layer->d_model * layer->d_model;
    cr_assert(memcmp(layer->w_qkv, copy, 3 * dd * sizeof *copy) == 0 &&
              memcmp(layer->w_o, copy + 3 * dd, dd * sizeof *copy) == 0,
              "%s failed but changed the layer's weights", call);
}

Test(errors, mha_get_weights)
{
    enum { D = 4, DD = D * D };
    mha *layer = new_layer(D, 2, 1);
    double a[DD], b[DD], c[DD], d[DD], big[2 * DD], copy[4 * DD], marks[4 * DD];
    memcpy(copy, layer->w_qkv, 3 * DD * sizeof(double));
    memcpy(copy + 3 * DD, layer->w_o, DD * sizeof(double));
    for (int i = 0; i < 4 * DD; i++) marks[i] = 1234.5 + i;
    memcpy(a, marks, sizeof a); memcpy(b, marks + DD, sizeof b);
    memcpy(c, marks + 2 * DD, sizeof c); memcpy(d, marks + 3 * DD, sizeof d);
    memcpy(big, marks, sizeof big);
    EXPECT_STATUS(mha_get_weights(NULL, b, c, d, layer), MM_EINVAL, "mha_get_weights: w_q is NULL");
    EXPECT_STATUS(mha_get_weights(a, NULL, c, d, layer), MM_EINVAL, "mha_get_weights: w_k is NULL");
    EXPECT_STATUS(mha_get_weights(a, b, NULL, d, layer), MM_EINVAL, "mha_get_weights: w_v is NULL");
    EXPECT_STATUS(mha_get_weights(a, b, c, NULL, layer), MM_EINVAL, "mha_get_weights: w_o is NULL");
    EXPECT_STATUS(mha_get_weights(a, b, c, d, NULL), MM_EINVAL, "mha_get_weights: layer is NULL");
    EXPECT_STATUS(mha_get_weights(a, a, c, d, layer), MM_EINVAL,
                  "mha_get_weights: w_q must not be the same buffer as w_k");
    EXPECT_STATUS(mha_get_weights(a, b, big, big + DD - 1, layer), MM_EINVAL,
                  "mha_get_weights: w_v must not overlap w_o");
    EXPECT_STATUS(mha_get_weights(layer->w_qkv, b, c, d, layer), MM_EINVAL,
                  "mha_get_weights: w_q must not be the same buffer as layer->w_qkv");
    EXPECT_STATUS(mha_get_weights(a, b, c, layer->w_o, layer), MM_EINVAL,
                  "mha_get_weights: w_o must not be the same buffer as layer->w_o");
    EXPECT_STATUS(mha_get_weights(a, b, c, layer->w_o + DD - 1, layer), MM_EINVAL,
                  "mha_get_weights: w_o must not overlap layer->w_o");
    EXPECT_STATUS(mha_get_weights(a, b, c, layer->w_o - 1, layer), MM_EINVAL,
                  "mha_get_weights: w_o must not overlap layer->w_qkv");  /* both: the first */
    EXPECT_STATUS(mha_get_weights(a, layer->w_o - DD, c, d, layer), MM_EINVAL,
                  "mha_get_weights: w_k must not overlap layer->w_qkv");  /* W_V's rows */
    cr_assert(memcmp(a, marks, sizeof a) == 0 && memcmp(b, marks + DD, sizeof b) == 0 &&
              memcmp(c, marks + 2 * DD, sizeof c) == 0 &&
              memcmp(d, marks + 3 * DD, sizeof d) == 0 && memcmp(big, marks, sizeof big) == 0,
              "a refused mha_get_weights wrote into an output: MM_EINVAL writes nothing");
    layer_unchanged(layer, copy, "mha_get_weights");
    mha_free(layer);
}

Test(errors, mha_set_weights)
{
    enum { D = 4, DD = D * D };
    mha *layer = new_layer(D, 2, 1);
    double all[4 * DD], copy[4 * DD];
    double *w[4] = { all, all + DD, all + 2 * DD, all + 3 * DD };
    random_matrix(all, 4 * DD, 1.0, 3);
    memcpy(copy, layer->w_qkv, 3 * DD * sizeof(double));
    memcpy(copy + 3 * DD, layer->w_o, DD * sizeof(double));
    EXPECT_STATUS(mha_set_weights(NULL, w[0], w[1], w[2], w[3]), MM_EINVAL,
                  "mha_set_weights: layer is NULL");
    EXPECT_STATUS(mha_set_weights(layer, NULL, w[1], w[2], w[3]), MM_EINVAL,
                  "mha_set_weights: w_q is NULL");
    EXPECT_STATUS(mha_set_weights(layer, w[0], NULL, w[2], w[3]), MM_EINVAL,
                  "mha_set_weights: w_k is NULL");
    EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], NULL, w[3]), MM_EINVAL,
                  "mha_set_weights: w_v is NULL");
    EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], w[2], NULL), MM_EINVAL,
                  "mha_set_weights: w_o is NULL");
    EXPECT_STATUS(mha_set_weights(layer, layer->w_qkv, w[1], w[2], w[3]), MM_EINVAL,
                  "mha_set_weights: layer->w_qkv must not be the same buffer as w_q");
    EXPECT_STATUS(mha_set_weights(layer, w[0], layer->w_qkv + 1, w[2], w[3]), MM_EINVAL,
                  "mha_set_weights: layer->w_qkv must not overlap w_k");
    EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], w[2], layer->w_o), MM_EINVAL,
                  "mha_set_weights: layer->w_o must not be the same buffer as w_o");
    EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], layer->w_o + 1, w[3]), MM_EINVAL,
                  "mha_set_weights: layer->w_o must not overlap w_v");
    EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], w[2], layer->w_o - 1), MM_EINVAL,
                  "mha_set_weights: layer->w_qkv must not overlap w_o");  /* both: the first */
    layer_unchanged(layer, copy, "mha_set_weights with an input in the layer");
    static const struct { int m, i; double v; const char *text; } bad[] = {
        { 0, 0, NAN, "mha_set_weights: w_q[0][0] is nan; inputs must be finite" },
        { 1, 6, INFINITY, "mha_set_weights: w_k[1][2] is inf; inputs must be finite" },
        { 2, 15, -INFINITY, "mha_set_weights: w_v[3][3] is -inf; inputs must be finite" },
        { 3, 9, NAN, "mha_set_weights: w_o[2][1] is nan; inputs must be finite" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        double keep = w[bad[k].m][bad[k].i];
        w[bad[k].m][bad[k].i] = bad[k].v;
        EXPECT_STATUS(mha_set_weights(layer, w[0], w[1], w[2], w[3]), MM_EINVAL, bad[k].text);
        layer_unchanged(layer, copy, bad[k].text);
        w[bad[k].m][bad[k].i] = keep;
    }
    cr_assert_eq(mha_set_weights(layer, w[0], w[1], w[2], w[3]), MM_OK, "%s", mm_last_error());
    mha_free(layer);
}

Test(errors, split_and_merge)
{
    double a[64], b[64], marks[64];
    for (int i = 0; i < 64; i++) marks[i] = a[i] = b[i] = 1234.5 + i;
    /* mha_split_heads(heads, m, T, n_heads, d_k) */
    EXPECT_STATUS(mha_split_heads(NULL, b, 3, 2, 2), MM_EINVAL, "mha_split_heads: heads is NULL");
    EXPECT_STATUS(mha_split_heads(a, NULL, 3, 2, 2), MM_EINVAL, "mha_split_heads: m is NULL");
    EXPECT_STATUS(mha_split_heads(a, b, 0, 2, 2), MM_EINVAL,
                  "mha_split_heads: T must be positive, got 0");
    EXPECT_STATUS(mha_split_heads(a, b, 3, -1, 2), MM_EINVAL,
                  "mha_split_heads: n_heads must be positive, got -1");
    EXPECT_STATUS(mha_split_heads(a, b, 3, 2, INT_MIN), MM_EINVAL,
                  "mha_split_heads: d_k must be positive, got -2147483648");
    EXPECT_STATUS(mha_split_heads(a, b, 3, 65536, 32768), MM_EINVAL,
                  "mha_split_heads: n_heads = 65536 times d_k = 32768 does not fit in an int");
    EXPECT_STATUS(mha_split_heads(a, b, 3, INT_MAX, 2), MM_EINVAL,
                  "n_heads = 2147483647 times d_k = 2 does not fit");
    EXPECT_STATUS(mha_split_heads(a, b, INT_MAX, 32768, 65535), MM_EINVAL,
                  "mha_split_heads: T * n_heads * d_k = 2147483647 * 2147450880 doubles "
                  "do not fit in one buffer");
    EXPECT_STATUS(mha_split_heads(a, a, 3, 2, 2), MM_EINVAL,
                  "mha_split_heads: heads must not be the same buffer as m");
    EXPECT_STATUS(mha_split_heads(a, a + 11, 3, 2, 2), MM_EINVAL,
                  "mha_split_heads: heads must not overlap m");
    /* mha_merge_heads(m, heads, T, n_heads, d_k) */
    EXPECT_STATUS(mha_merge_heads(NULL, b, 3, 2, 2), MM_EINVAL, "mha_merge_heads: m is NULL");
    EXPECT_STATUS(mha_merge_heads(a, NULL, 3, 2, 2), MM_EINVAL, "mha_merge_heads: heads is NULL");
    EXPECT_STATUS(mha_merge_heads(a, b, -3, 2, 2), MM_EINVAL,
                  "mha_merge_heads: T must be positive, got -3");
    EXPECT_STATUS(mha_merge_heads(a, b, 3, 0, 2), MM_EINVAL,
                  "mha_merge_heads: n_heads must be positive, got 0");
    EXPECT_STATUS(mha_merge_heads(a, b, 3, 2, 0), MM_EINVAL,
                  "mha_merge_heads: d_k must be positive, got 0");
    EXPECT_STATUS(mha_merge_heads(a, b, 3, 2, INT_MAX), MM_EINVAL,
                  "mha_merge_heads: n_heads = 2 times d_k = 2147483647 does not fit in an int");
    EXPECT_STATUS(mha_merge_heads(a, b, 536870913, 1, INT_MAX), MM_EINVAL,
                  "mha_merge_heads: T * n_heads * d_k = 536870913 * 2147483647 doubles");
    /* the two buffers named either way round: both are named */
    EXPECT_STATUS(mha_merge_heads(a, a, 3, 2, 2), MM_EINVAL, "must not be the same buffer as");
    cr_assert(strstr(mm_last_error(), "heads") && strstr(mm_last_error(), " m"),
              "the overlap message \"%s\" must name m and heads", mm_last_error());
    EXPECT_STATUS(mha_merge_heads(a + 11, a, 3, 2, 2), MM_EINVAL, "must not overlap");
    cr_assert(memcmp(a, marks, sizeof a) == 0 && memcmp(b, marks, sizeof b) == 0,
              "a refused split or merge wrote into a buffer: MM_EINVAL writes nothing");
}

/* forward_refused - mha_forward refused with status, the message holding text,
 * out and weights untouched */
enum { FT = CH03_T, FD = CH03_D, FH = CH03_H };
static double f_out[FT * FD], f_w[FH * FT * FT], f_x[FT * FD], f_bias[FT * FT];
static double f_mark_out[FT * FD], f_mark_w[FH * FT * FT];

static void forward_marks(void)
{
    for (int i = 0; i < FT * FD; i++) f_out[i] = f_mark_out[i] = 1234.5 + i;
    for (int i = 0; i < FH * FT * FT; i++) f_w[i] = f_mark_w[i] = -777.25 - i;
    memcpy(f_x, ch03_x, sizeof f_x);
    for (int i = 0; i < FT * FT; i++) f_bias[i] = i % 4 == 1 ? -INFINITY : 0.25 * i;
}

#define FORWARD_REFUSED(call, text)                                                  \
    do {                                                                             \
        forward_marks();                                                             \
        EXPECT_STATUS(call, MM_EINVAL, text);                                        \
        cr_assert(memcmp(f_out, f_mark_out, sizeof f_out) == 0 &&                    \
                  memcmp(f_w, f_mark_w, sizeof f_w) == 0, "%s was refused but wrote " \
                  "into out or weights: MM_EINVAL writes nothing", #call);           \
    } while (0)

Test(errors, mha_forward_arguments)
{
    mha *layer = worked_layer();
    double copy[4 * FD * FD];
    memcpy(copy, layer->w_qkv, 4 * FD * FD * sizeof(double));   /* W_O follows W_QKV */
    FORWARD_REFUSED(mha_forward(NULL, f_w, layer, f_x, NULL, FT), "mha_forward: out is NULL");
    FORWARD_REFUSED(mha_forward(f_out, f_w, NULL, f_x, NULL, FT), "mha_forward: layer is NULL");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, NULL, NULL, FT), "mha_forward: x is NULL");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, NULL, 0),
                    "mha_forward: T must be positive, got 0");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, f_bias, -2),
                    "mha_forward: T must be positive, got -2");
    FORWARD_REFUSED(mha_forward(f_out, NULL, layer, f_x, NULL, INT_MIN),
                    "mha_forward: T must be positive, got -2147483648");
    /* huge T: the sizes are refused before any buffer is read */
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, NULL, INT_MAX),
                    "mha_forward: T * T = 2147483647 * 2147483647 doubles do not fit");
    FORWARD_REFUSED(mha_forward(f_out, NULL, layer, f_x, NULL, 1073741824),
                    "mha_forward: T * T = 1073741824 * 1073741824 doubles do not fit");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, NULL, 1073741823),
                    "mha_forward: weights would hold n_heads = 2 times T x T = 1073741823 x "
                    "1073741823 doubles, more than one buffer may");
    /* without weights that T passes the size checks: here out = x stops it */
    FORWARD_REFUSED(mha_forward(f_x, NULL, layer, f_x, NULL, 1073741823),
                    "mha_forward: out must not be the same buffer as x");
    /* overlaps: out and weights with each other, the inputs and the layer */
    FORWARD_REFUSED(mha_forward(f_out, f_out, layer, f_x, NULL, FT),
                    "mha_forward: out must not be the same buffer as weights");
    FORWARD_REFUSED(mha_forward(f_x, f_w, layer, f_x, NULL, FT),
                    "mha_forward: out must not be the same buffer as x");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_out + 1, NULL, FT),
                    "mha_forward: out must not overlap x");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, f_out + FT * FD - 1, FT),
                    "mha_forward: out must not overlap bias");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_x, f_w, FT),
                    "mha_forward: weights must not be the same buffer as bias");
    FORWARD_REFUSED(mha_forward(f_out, f_w, layer, f_w + 8, NULL, FT),
                    "mha_forward: weights must not overlap x");
    FORWARD_REFUSED(mha_forward(layer->w_qkv, f_w, layer, f_x, NULL, FT),
                    "mha_forward: out must not be the same buffer as layer->w_qkv");
    FORWARD_REFUSED(mha_forward(layer->w_o - 1, NULL, layer, f_x, NULL, FT),
                    "mha_forward: out must not overlap layer->w_qkv");
    FORWARD_REFUSED(mha_forward(layer->w_o + 1, NULL, layer, f_x, NULL, FT),
                    "mha_forward: out must not overlap layer->w_o");
    FORWARD_REFUSED(mha_forward(f_out, layer->w_o, layer, f_x, NULL, FT),
                    "mha_forward: weights must not be the same buffer as layer->w_o");
    FORWARD_REFUSED(mha_forward(f_out, layer->w_qkv + 3, layer, f_x, NULL, FT),
                    "mha_forward: weights must not overlap layer->w_qkv");
    /* non-finite x */
    static const struct { int i; double v; const char *text; } bad_x[] = {
        { 6, NAN, "mha_forward: x[1][2] is nan; inputs must be finite" },
        { 0, INFINITY, "mha_forward: x[0][0] is inf; inputs must be finite" },
        { 11, -INFINITY, "mha_forward: x[2][3] is -inf; inputs must be finite" } };
    for (size_t k = 0; k < sizeof bad_x / sizeof bad_x[0]; k++) {
        double x[FT * FD];
        memcpy(x, ch03_x, sizeof x);
        x[bad_x[k].i] = bad_x[k].v;
        FORWARD_REFUSED(mha_forward(f_out, f_w, layer, x, NULL, FT), bad_x[k].text);
    }
    layer_unchanged(layer, copy, "mha_forward");
    mha_free(layer);
}

Test(errors, mha_forward_bias_nan_or_plus_infinity)
{
    /* -inf hides a key; NaN and +inf are refused, naming the element. The
     * check is sdpa's (made for head 0), so the message may name sdpa. */
    mha *layer = worked_layer();
    static const struct { int i; double v; const char *tail; } bad[] = {
        { 4, NAN, "bias[1][1] is nan; a bias must be finite, or -inf to hide a key" },
        { 6, INFINITY, "bias[2][0] is inf; a bias must be finite, or -inf to hide a key" } };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (int with_w = 0; with_w < 2; with_w++) {
            forward_marks();
            f_bias[bad[k].i] = bad[k].v;
            mm_status s = mha_forward(f_out, with_w ? f_w : NULL, layer, f_x, f_bias, FT);
            cr_assert_eq(s, MM_EINVAL, "bias %g refused with %s, expected MM_EINVAL",
                         bad[k].v, mm_status_name(s));
            expect_forward_message(bad[k].tail, "a bias of NaN or +inf");
            cr_assert(memcmp(f_out, f_mark_out, sizeof f_out) == 0 &&
                      memcmp(f_w, f_mark_w, sizeof f_w) == 0, "a refused bias (%g) let "
                      "mha_forward write into out or weights", bad[k].v);
        }
    forward_marks();
    for (int i = 0; i < FT * FT; i++) f_bias[i] = -INFINITY;
    cr_assert_eq(mha_forward(f_out, f_w, layer, f_x, f_bias, FT), MM_OK, "a bias of -inf "
                 "everywhere is allowed (nothing seen: zero output): %s", mm_last_error());
    for (int i = 0; i < FT * FD; i++)
        cr_assert(f_out[i] == 0, "every key hidden: out[%d] is %g, expected 0", i, f_out[i]);
    mha_free(layer);
}

Test(errors, a_hand_made_layer_too_wide_for_t)
{
    /* T x (4 d_model + 4 d_k), the work buffer, only passes MM_MAX_ELEMENTS
     * for layers of over 10^16 doubles that mha_new cannot allocate; the
     * check reads only d_model and d_k, so a struct made by hand reaches it */
    double dummy[4] = { 0 }, x[4] = { 0 }, out[4] = { 5, 5, 5, 5 };
    mha wide = { 600000000, 1, 600000000, dummy, dummy };
    EXPECT_STATUS(mha_forward(out, NULL, &wide, x, NULL, INT_MAX), MM_EINVAL,
                  "mha_forward: T * (4 d_model + 4 d_k) = 2147483647 * 4800000000 "
                  "doubles do not fit in one buffer");
    cr_assert(out[0] == 5 && out[3] == 5, "a refused call wrote into out");
}

/* ---- overflow: MM_ERANGE at each of the three products ---------------------------- */

/* overflow_layer - the worked layer with its weights replaced */
static mha *overflow_layer(const double *w_q, const double *w_k, const double *w_v,
                           const double *w_o)
{
    mha *layer = new_layer(FD, FH, 1);
    cr_assert_eq(mha_set_weights(layer, w_q, w_k, w_v, w_o), MM_OK, "%s", mm_last_error());
    return layer;
}

Test(range, x_times_w_qkv_overflows)
{
    double big[FD * FD], x[FT * FD], out[FT * FD], w[FH * FT * FT];
    for (int i = 0; i < FD * FD; i++) big[i] = 1e200;
    for (int i = 0; i < FT * FD; i++) x[i] = 1e200;
    mha *layer = overflow_layer(big, ch03_eye, ch03_eye, ch03_eye);
    for (int with_w = 0; with_w < 2; with_w++) {
        EXPECT_STATUS(mha_forward(out, with_w ? w : NULL, layer, x, NULL, FT), MM_ERANGE,
                      "mha_forward: X W_QKV overflows; x and the weights hold values too "
                      "large to multiply");
    }
    mha_free(layer);
}

Test(range, a_score_overflows_in_one_head)
{
    /* head 1's columns of W_Q and W_K are 1e160: Q_1 K_1^T holds 1e320 */
    double wqk[FD * FD], out[FT * FD], w[FH * FT * FT];
    memcpy(wqk, ch03_eye, sizeof wqk);
    wqk[2 * FD + 2] = wqk[3 * FD + 3] = 1e160;
    mha *layer = overflow_layer(wqk, wqk, ch03_eye, ch03_w_o);
    for (int with_w = 0; with_w < 2; with_w++) {
        mm_status st = mha_forward(out, with_w ? w : NULL, layer, ch03_x, NULL, FT);
        cr_assert_eq(st, MM_ERANGE, "a score of 1e320 / sqrt 2 gave %s, expected MM_ERANGE",
                     mm_status_name(st));
        expect_forward_message("a score of query 0 overflows", "a score's overflow");
    }
    mha_free(layer);
    /* head 0's scores of 1e308 / sqrt 2 are finite, but not once a bias of
     * DBL_MAX is added to query 0, key 0 */
    memcpy(wqk, ch03_eye, sizeof wqk);
    wqk[0] = 1e154;                            /* column 0 of head 0 */
    layer = overflow_layer(wqk, wqk, ch03_eye, ch03_w_o);
    double bias[FT * FT] = { 0 };
    cr_assert_eq(mha_forward(out, w, layer, ch03_x, bias, FT), MM_OK, "scores of 7e307 "
                 "are finite: %s", mm_last_error());
    bias[0] = DBL_MAX;
    mm_status s = mha_forward(out, w, layer, ch03_x, bias, FT);
    cr_assert_eq(s, MM_ERANGE, "a score of 7e307 plus a bias of DBL_MAX gave %s",
                 mm_status_name(s));
    expect_forward_message("query 0, key 0: the score overflows once the bias is added",
                           "a score that overflows with its bias");
    mha_free(layer);
}

Test(range, the_product_with_w_o_overflows)
{
    /* W_Q = W_K = 0 (uniform weights), V = 1e200 X, W_O = 1e200 */
    double zero[FD * FD] = { 0 }, v[FD * FD], o[FD * FD], out[FT * FD], w[FH * FT * FT];
    for (int i = 0; i < FD * FD; i++) { v[i] = 1e200 * ch03_eye[i]; o[i] = 1e200; }
    mha *layer = overflow_layer(zero, zero, v, o);
    for (int with_w = 0; with_w < 2; with_w++)
        EXPECT_STATUS(mha_forward(out, with_w ? w : NULL, layer, ch03_x, NULL, FT), MM_ERANGE,
                      "mha_forward: the heads' outputs times W_O overflow; the values or "
                      "W_O hold values too large");
    mha_free(layer);
}

Test(range, a_head_output_overflows_in_sdpa)
{
    /* 45 tokens of DBL_MAX, uniform weights 1/45: the blend rounds past DBL_MAX
     * (test_sdpa.c says why 45) */
    enum { T = 45, D = 2 };
    double zero[D * D] = { 0 }, eye[D * D] = { 1, 0, 0, 1 }, x[T * D], out[T * D];
    for (int i = 0; i < T * D; i++) x[i] = DBL_MAX;
    mha *layer = new_layer(D, 1, 1);
    cr_assert_eq(mha_set_weights(layer, zero, zero, eye, eye), MM_OK);
    mm_status s = mha_forward(out, NULL, layer, x, NULL, T);
    if (!rounds_below_overflow(s, out, T * D)) {
        cr_assert_eq(s, MM_ERANGE, "got %s", mm_status_name(s));
        expect_forward_message("row 0 of out overflows", "a head's output that overflows");
    }
    mha_free(layer);
}
