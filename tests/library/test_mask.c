/* test_mask.c - Criterion tests of chapter 04's module: masks as biases
 * (mask_causal, mask_padding, mask_from_bool, mask_combine) and the causal
 * layer (mha_forward_causal), and the skip of hidden keys in chapter 02's
 * sdpa. The expected values are written here from the chapter's truth
 * table and closed forms, not copied from the library's output. When a test
 * fails, its message says what differs and what usually causes it. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"
#include "examples/ch03-worked.h"   /* chapter 03's worked example */
#include "expect.h"                 /* expect_same_bits, expect_same_products, ... */

/* expect_error - status and a message naming the function and the text */
static void expect_error(mm_status got, mm_status want, const char *fn,
                         const char *text)
{
    cr_assert_eq(got, want, "%s returned %s, expected %s (%s)", fn,
                 mm_status_name(got), mm_status_name(want), mm_last_error());
    cr_assert(strstr(mm_last_error(), fn) && strstr(mm_last_error(), text),
              "the message '%s' should name %s and say '%s'", mm_last_error(),
              fn, text);
}

/* ---- the masks ------------------------------------------------------------ */

Test(mask, causal_is_the_truth_table_j_le_i)
{
    enum { T = 5 };
    double b[T * T];
    cr_assert_eq(mask_causal(b, T), MM_OK, "%s", mm_last_error());
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            double want = j <= i ? 0.0 : -INFINITY;
            cr_assert(b[i * T + j] == want && !signbit(want ? 0 : b[i * T + j]),
                      "causal[%d][%d] = %g, expected %g: query %d sees keys "
                      "0..%d (on and below the diagonal), and only those",
                      i, j, b[i * T + j], want, i, i);
        }
}

Test(mask, padding_hides_keys_from_length_on)
{
    enum { TQ = 3, TK = 6 };
    double b[TQ * TK];
    for (int length = 0; length <= TK; length++) {
        cr_assert_eq(mask_padding(b, TQ, TK, length), MM_OK, "%s",
                     mm_last_error());
        for (int e = 0; e < TQ * TK; e++)
            cr_assert(b[e] == (e % TK < length ? 0.0 : -INFINITY),
                      "padding(length %d)[%d][%d] = %g: keys j < length are "
                      "visible (0), the others hidden (-inf), in every row",
                      length, e / TK, e % TK, b[e]);
    }
}

Test(mask, padding_and_combine_write_nothing_past_their_size)
{
    double b[7];
    b[6] = 42;                                  /* just past a (2, 3) mask */
    cr_assert_eq(mask_padding(b, 2, 3, 1), MM_OK, "%s", mm_last_error());
    cr_assert(b[6] == 42, "mask_padding(2, 3) wrote b[6] = %g past its 6 elements", b[6]);
    double bias[5] = { 0, 0, 0, 0, 42 }, other[5] = { 0, 0, 0, 0, 1 };
    cr_assert_eq(mask_combine(bias, other, 2, 2), MM_OK, "%s", mm_last_error());
    cr_assert(bias[4] == 42, "mask_combine(2, 2) wrote bias[4] = %g past its 4 elements",
              bias[4]);
}

Test(mask, from_bool_true_is_visible)
{
    const bool allowed[6] = { true, false, true, false, false, true };
    double b[6];
    cr_assert_eq(mask_from_bool(b, allowed, 2, 3), MM_OK, "%s",
                 mm_last_error());
    for (int e = 0; e < 6; e++)
        cr_assert(b[e] == (allowed[e] ? 0.0 : -INFINITY),
                  "from_bool[%d] = %g for allowed = %d: true means the key "
                  "is visible (0), as in F.scaled_dot_product_attention; "
                  "nn.MultiheadAttention's convention is the opposite", e,
                  b[e], allowed[e]);
}

Test(mask, combine_is_and_for_masks_and_sum_for_biases)
{
    double causal[9], pad[9], finite[9] = { 1, -2, 0.5, 3, 0, -1, 2, 2, 2 };
    cr_assert_eq(mask_causal(causal, 3), MM_OK);
    cr_assert_eq(mask_padding(pad, 3, 3, 2), MM_OK);
    double both[9];
    memcpy(both, causal, sizeof both);
    cr_assert_eq(mask_combine(both, pad, 3, 3), MM_OK, "%s", mm_last_error());
    for (int e = 0; e < 9; e++) {
        bool visible = e % 3 <= e / 3 && e % 3 < 2;     /* causal and padding */
        cr_assert(both[e] == (visible ? 0.0 : -INFINITY),
                  "causal + padding [%d][%d] = %g: a key stays visible only "
                  "where both masks let it through", e / 3, e % 3, both[e]);
    }
    cr_assert_eq(mask_combine(finite, causal, 3, 3), MM_OK);
    const double want[9] = { 1, -INFINITY, -INFINITY, 3, 0, -INFINITY, 2, 2, 2 };
    expect_same_bits(finite, want, 9, "finite bias + causal");
    double self[4] = { 0, -INFINITY, 1.5, 0 };
    cr_assert_eq(mask_combine(self, self, 2, 2), MM_OK, "%s", mm_last_error());
    const double twice[4] = { 0, -INFINITY, 3, 0 };
    expect_same_bits(self, twice, 4, "a mask combined with itself");
}

Test(mask, combine_refuses_and_leaves_bias_unchanged)
{
    double b[4] = { 0, 1, 2, 1e308 }, keep[4];
    double nan_other[4] = { 0, 0, 0, NAN }, big[4] = { 0, 0, 0, 1e308 };
    memcpy(keep, b, sizeof b);
    expect_error(mask_combine(b, nan_other, 2, 2), MM_EINVAL, "mask_combine",
                 "other[1][1]");
    expect_same_bits(b, keep, 4, "bias after a refused NaN");
    expect_error(mask_combine(b, big, 2, 2), MM_ERANGE, "mask_combine",
                 "overflows");
    expect_same_bits(b, keep, 4, "bias after a refused overflow");
    double plus_inf[4] = { INFINITY, 0, 0, 0 };
    expect_error(mask_combine(plus_inf, b, 2, 2), MM_EINVAL, "mask_combine",
                 "finite values or -inf");
    double part[5] = { 0 };
    expect_error(mask_combine(part, part + 1, 2, 2), MM_EINVAL,
                 "mask_combine", "other");
}

Test(mask, every_checked_error_names_its_argument)
{
    double b[4];
    bool a[4] = { true, true, true, true };
    expect_error(mask_causal(NULL, 2), MM_EINVAL, "mask_causal", "bias");
    expect_error(mask_causal(b, 0), MM_EINVAL, "mask_causal", "T");
    expect_error(mask_causal(b, INT_MAX), MM_EINVAL, "mask_causal", "T");
    expect_error(mask_padding(NULL, 2, 2, 1), MM_EINVAL, "mask_padding", "bias");
    expect_error(mask_padding(b, 0, 2, 1), MM_EINVAL, "mask_padding", "T_q");
    expect_error(mask_padding(b, 2, -1, 1), MM_EINVAL, "mask_padding", "T_k");
    expect_error(mask_padding(b, 2, 2, 3), MM_EINVAL, "mask_padding",
                 "length = 3");
    expect_error(mask_padding(b, 2, 2, -1), MM_EINVAL, "mask_padding",
                 "length = -1");
    expect_error(mask_from_bool(b, NULL, 2, 2), MM_EINVAL, "mask_from_bool",
                 "allowed");
    expect_error(mask_from_bool(b, (const bool *)b, 2, 2), MM_EINVAL,
                 "mask_from_bool", "allowed");
    expect_error(mask_from_bool(b, a, INT_MAX, INT_MAX), MM_EINVAL,
                 "mask_from_bool", "T_k");
    expect_error(mask_combine(b, NULL, 2, 2), MM_EINVAL, "mask_combine", "other");
}

/* ---- the causal layer ----------------------------------------------------- */

static mha *worked_layer(void)
{
    mha *layer;
    cr_assert_eq(mha_new(&layer, CH03_D, CH03_H, 1), MM_OK);
    cr_assert_eq(mha_set_weights(layer, ch03_eye, ch03_eye, ch03_eye, ch03_w_o),
                 MM_OK, "%s", mm_last_error());
    return layer;
}

Test(causal, worked_example_by_closed_form)
{
    enum { T = CH03_T, D = CH03_D, H = CH03_H };
    double out[T * D], w[H * T * T];
    mha *layer = worked_layer();
    cr_assert_eq(mha_forward_causal(out, w, layer, ch03_x, T), MM_OK, "%s",
                 mm_last_error());
    double e = exp(1 / sqrt(2.0)), a = 1 / (1 + e), b = e / (1 + e);
    /* row 0 sees itself: (1, 0) in both heads, summed and subtracted by W_O;
     * row 1: weights (a, b) on (1, 0), (0, 1) in both heads */
    const double want[2 * D] = { 2, 0, 0, 0,  2 * a, 2 * b, 0, 0 };
    for (int c = 0; c < 2 * D; c++)
        cr_assert(fabs(out[c] - want[c]) <= 1e-15,
                  "out[%d][%d] = %.17g, expected %.17g: row 0 sees only "
                  "itself, row 1 only tokens 0 and 1 (look at the mask's "
                  "diagonal first)", c / D, c % D, out[c], want[c]);
    for (int h = 0; h < H; h++)
        cr_assert(w[h * T * T + 1] == 0 && w[h * T * T + 2] == 0
                  && w[h * T * T + 5] == 0,
                  "head %d has weight above the diagonal: a hidden key's "
                  "weight must be exactly 0", h);
    mha_free(layer);
}

Test(causal, equals_mha_forward_with_the_causal_bias_and_rows_sum_to_1)
{
    enum { T = 9, D = 12, H = 3 };
    double x[T * D], out[T * D], ref[T * D], w[H * T * T], wr[H * T * T];
    double bias[T * T];
    mha *layer;
    random_matrix(x, T * D, 1.0, 5);
    cr_assert_eq(mha_new(&layer, D, H, 5), MM_OK);
    cr_assert_eq(mask_causal(bias, T), MM_OK);
    cr_assert_eq(mha_forward_causal(out, w, layer, x, T), MM_OK, "%s",
                 mm_last_error());
    cr_assert_eq(mha_forward(ref, wr, layer, x, bias, T), MM_OK);
    expect_same_bits(out, ref, T * D, "causal layer vs mha_forward + mask");
    expect_same_bits(w, wr, H * T * T, "causal weights vs mha_forward + mask");
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++) {
            double sum = 0;
            for (int j = 0; j < T; j++) {
                double a = w[(h * T + i) * T + j];
                cr_assert(j <= i || (a == 0 && !signbit(a)),
                          "head %d, w[%d][%d] = %g above the diagonal", h, i,
                          j, a);
                sum += a;
            }
            cr_assert(fabs(sum - 1) <= 1e-14, "head %d row %d sums to %.17g",
                      h, i, sum);
        }
    mha_free(layer);
}

Test(causal, prefix_invariance_and_each_prefix_alone)
{
    enum { T = 12, D = 16, H = 4 };
    double x[T * D], out[T * D], part[T * D];
    mha *layer;
    random_matrix(x, T * D, 1.0, 4);
    cr_assert_eq(mha_new(&layer, D, H, 4), MM_OK);
    cr_assert_eq(mha_forward_causal(out, NULL, layer, x, T), MM_OK);
    for (int t = 1; t <= T; t++) {
        cr_assert_eq(mha_forward_causal(part, NULL, layer, x, t), MM_OK);
        expect_same_products(part, out, (size_t)t * D,
                         "the causal layer on a prefix vs the whole sequence "
                         "(appending tokens must not change the past)");
        cr_assert_eq(mha_forward(part, NULL, layer, x, NULL, t), MM_OK);
        expect_same_products(part + (t - 1) * D, out + (t - 1) * D, D,
                         "row t of the causal layer vs the last row of the "
                         "unmasked layer on tokens 0..t");
    }
    mha_free(layer);
}

Test(causal, padding_equals_the_unpadded_sequence_and_empty_rows_are_zero)
{
    enum { T = 10, D = 8, H = 2, L = 6 };
    double x[T * D], out[T * D], part[T * D], bias[T * T], w[H * T * T];
    mha *layer;
    random_matrix(x, T * D, 1.0, 9);
    cr_assert_eq(mha_new(&layer, D, H, 9), MM_OK);
    cr_assert_eq(mask_padding(bias, T, T, L), MM_OK);
    cr_assert_eq(mha_forward(out, NULL, layer, x, bias, T), MM_OK);
    cr_assert_eq(mha_forward(part, NULL, layer, x, NULL, L), MM_OK);
    expect_same_products(out, part, (size_t)L * D,
                     "the real tokens of a padded sequence vs the sequence "
                     "alone");
    cr_assert_eq(mask_padding(bias, T, T, 0), MM_OK);
    cr_assert_eq(mha_forward(out, w, layer, x, bias, T), MM_OK, "%s",
                 mm_last_error());
    for (int e = 0; e < T * D; e++)
        cr_assert(out[e] == 0 && !signbit(out[e]),
                  "out[%d] = %g with every key hidden: zero, not NaN", e,
                  out[e]);
    for (int e = 0; e < H * T * T; e++)
        cr_assert(w[e] == 0, "weight %d = %g with every key hidden", e, w[e]);
    mha_free(layer);
}

Test(causal, a_hidden_trailing_key_is_never_scored)
{
    /* key 1's score would overflow (1e200 * 1e200); hidden after the last
     * visible key, it is not computed, so sdpa succeeds */
    const double q[2] = { 1e200, 1 }, k[2] = { 1, 1e200 }, v[2] = { 3, 4 };
    const double bias[2] = { 0, -INFINITY };
    double out[1], w[2];
    cr_assert_eq(sdpa(out, w, q, k, v, bias, 1, 2, 1, 1), MM_OK, "%s",
                 mm_last_error());
    cr_assert(w[0] == 1 && w[1] == 0 && out[0] == 3,
              "weights (%g, %g), out %g: expected (1, 0) and v_0 = 3", w[0],
              w[1], out[0]);
}

Test(causal, checked_errors)
{
    double x[8] = { 0 }, out[8];
    mha *layer;
    cr_assert_eq(mha_new(&layer, 4, 2, 1), MM_OK);
    expect_error(mha_forward_causal(NULL, NULL, layer, x, 2), MM_EINVAL,
                 "mha_forward_causal", "out");
    expect_error(mha_forward_causal(out, NULL, NULL, x, 2), MM_EINVAL,
                 "mha_forward_causal", "layer");
    expect_error(mha_forward_causal(out, NULL, layer, NULL, 2), MM_EINVAL,
                 "mha_forward_causal", "x");
    expect_error(mha_forward_causal(out, NULL, layer, x, 0), MM_EINVAL,
                 "mha_forward_causal", "T");
    expect_error(mha_forward_causal(out, NULL, layer, x, INT_MAX), MM_EINVAL,
                 "mha_forward_causal", "T");
    expect_error(mha_forward_causal(x, NULL, layer, x, 2), MM_EINVAL,
                 "mha_forward", "out");
    mha_free(layer);
}

Test(causal, only_the_scores_a_row_sees_can_overflow)
{
    /* d_model 2, one head: q_t = (x_t0, 0), k_t = (x_t1, 0), v_t = x_t. With
     * x_0 = (1e200, 0), x_1 = (0, 1e200) every score a query sees is 0, and
     * the one above the diagonal, q_0 . k_1 = 1e400, overflows: the layer
     * without a mask refuses it (MM_ERANGE), the causal layer never computes
     * it. Row 0 sees v_0 alone; row 1 weighs v_0 and v_1 equally. */
    static const double w_q[4] = { 1, 0,  0, 0 }, w_k[4] = { 0, 0,  1, 0 };
    static const double eye[4] = { 1, 0,  0, 1 };
    const double x[4] = { 1e200, 0,  0, 1e200 };
    double out[4], w[4], ref[4], ref_w[4], bias[4];
    mha *layer;
    cr_assert_eq(mha_new(&layer, 2, 1, 1), MM_OK);
    cr_assert_eq(mha_set_weights(layer, w_q, w_k, eye, eye), MM_OK, "%s", mm_last_error());
    expect_error(mha_forward(out, w, layer, x, NULL, 2), MM_ERANGE, "sdpa",
                 "a score of query 0 overflows");
    cr_assert_eq(mha_forward_causal(out, w, layer, x, 2), MM_OK, "the causal layer "
                 "computed a hidden score (query 0, key 1): %s", mm_last_error());
    const double want[4] = { 1e200, 0,  5e199, 5e199 }, want_w[4] = { 1, 0,  0.5, 0.5 };
    expect_same_bits(out, want, 4, "the causal layer where only a hidden score overflows");
    expect_same_bits(w, want_w, 4, "its weights");
    cr_assert_eq(mask_causal(bias, 2), MM_OK);
    cr_assert_eq(mha_forward(ref, ref_w, layer, x, bias, 2), MM_OK, "mha_forward with the "
                 "causal bias computed a hidden score: %s", mm_last_error());
    expect_same_bits(ref, out, 4, "mha_forward with the causal bias");
    expect_same_bits(ref_w, w, 4, "its weights");
    mha_free(layer);
}

Test(mask, a_hidden_key_is_never_scored_in_the_middle_or_at_the_end)
{
    /* key 1's score overflows (1e200 x 1e200), but the bias hides it: in the
     * middle of the row and at its end alike, the call succeeds and key 1
     * gets weight +0 */
    const double q[1] = { 1e200 }, k[3] = { 1e-200, 1e200, 1e-200 }, v[3] = { 3, 4, 5 };
    const double mid[3] = { 0, -INFINITY, 0 }, tail[3] = { 0, -INFINITY, -INFINITY };
    double out[1], w[3] = { 7, 7, 7 };
    cr_assert_eq(sdpa(out, w, q, k, v, mid, 1, 3, 1, 1), MM_OK, "%s", mm_last_error());
    cr_assert(w[0] == 0.5 && w[1] == 0 && !signbit(w[1]) && w[2] == 0.5 && out[0] == 4,
              "weights (%g, %g, %g), out %g: expected (0.5, +0, 0.5) and 4", w[0], w[1],
              w[2], out[0]);
    cr_assert_eq(sdpa(out, w, q, k, v, tail, 1, 3, 1, 1), MM_OK, "%s", mm_last_error());
    cr_assert(w[0] == 1 && w[1] == 0 && w[2] == 0 && !signbit(w[1]) && !signbit(w[2]) &&
              out[0] == 3, "weights (%g, %g, %g), out %g: expected (1, +0, +0) and 3",
              w[0], w[1], w[2], out[0]);
}

Test(mask, an_empty_row_writes_zeros_and_the_next_row_is_unaffected)
{
    /* row 0 sees nothing (all -inf: zero weights and output, at once); row 1
     * sees key 1 only */
    const double q[2] = { 1, 2 }, k[2] = { 1, 1 }, v[2] = { 3, 4 };
    const double bias[4] = { -INFINITY, -INFINITY,  -INFINITY, 0 };
    double out[2] = { 9, 9 }, w[4] = { 9, 9, 9, 9 }, out2[2];
    cr_assert_eq(sdpa(out, w, q, k, v, bias, 2, 2, 1, 1), MM_OK, "%s", mm_last_error());
    const double want[2] = { 0, 4 }, want_w[4] = { 0, 0, 0, 1 };
    expect_same_bits(out, want, 2, "out, row 0 seeing no key");
    expect_same_bits(w, want_w, 4, "weights, row 0 seeing no key");
    cr_assert_eq(sdpa(out2, NULL, q, k, v, bias, 2, 2, 1, 1), MM_OK, "%s", mm_last_error());
    expect_same_bits(out2, want, 2, "out with weights NULL");
}
