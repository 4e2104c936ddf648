/* test_sdpa.c - Criterion tests of chapter 02's module: the stable softmax
 * (softmax_row) and scaled dot-product attention (sdpa). When one fails, the
 * message says what differs and what usually causes it. The reference of the
 * rectangular cases is a long-double computation written here, independently
 * of the library. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"
#include "examples/ch01-worked.h"   /* the worked example, typed once */
#include "expect.h"                 /* expect_close, expect_same_bits, ... */

/* worked - Q, K, V of chapter 01's worked example (X = I) */
static void worked(double *q, double *k, double *v)
{
    cr_assert_eq(qkv_project(q, k, v, ch01_x, ch01_w_q, ch01_w_k, ch01_w_v,
                             CH01_T, CH01_D, CH01_D, CH01_D), MM_OK, "%s", mm_last_error());
}

/* ---- chapter 01's worked example, now with the scale -------------------------- */

Test(worked_example, weights_and_output_with_the_scale)
{
    double q[4], k[4], v[4], w[4], out[4];
    worked(q, k, v);
    cr_assert_eq(sdpa(out, w, q, k, v, NULL, 2, 2, 2, 2), MM_OK, "%s", mm_last_error());
    double a = exp(1 / sqrt(2.0));                       /* e^{1/sqrt 2} */
    double w_exp[4] = { 1 / (1 + a), a / (1 + a), a / (1 + a), 1 / (1 + a) };
    expect_close(w, w_exp, 4, 1e-15,
                 "weights: softmax of the scaled score rows (0, 1/sqrt 2) and "
                 "(1/sqrt 2, 0); (0.2689, 0.7311) means the scale 1/sqrt(d_k) is "
                 "missing, swapped rows mean the scores were K Q^T");
    double out_exp[4] = { 2 * w_exp[0], 3 * w_exp[1], 2 * w_exp[2], 3 * w_exp[3] };
    expect_close(out, out_exp, 4, 1e-14, "output = weights V, V = diag(2, 3)");
    cr_assert(fabs(w[0] - 0.3302) < 5e-5 && fabs(w[1] - 0.6698) < 5e-5,
              "weights row 0 is (%.6f, %.6f), the book says (0.3302, 0.6698)", w[0], w[1]);
    cr_assert(fabs(out[0] - 0.6605) < 5e-5 && fabs(out[1] - 2.0093) < 5e-5,
              "output row 0 is (%.6f, %.6f), the book says (0.6605, 2.0093)", out[0], out[1]);
}

Test(worked_example, the_scale_is_one_over_sqrt_d_k)
{
    /* d_k = 1: the scale is 1 and sdpa is chapter 01's softmax(S) V */
    const double q[2] = { 0, 1 }, k[2] = { 1, 0 }, v[2] = { 2, 3 };
    double w[4], out[2];
    cr_assert_eq(sdpa(out, w, q, k, v, NULL, 2, 2, 1, 1), MM_OK, "%s", mm_last_error());
    double e = exp(1.0);
    double w_exp[4] = { 0.5, 0.5, e / (1 + e), 1 / (1 + e) };   /* S = [[0, 0], [1, 0]] */
    expect_close(w, w_exp, 4, 1e-15, "d_k = 1 must not scale the scores");
}

/* ---- the stable softmax ----------------------------------------------------------- */

Test(softmax, rows_sum_to_one)
{
    mm_rng r;
    mm_rng_seed(&r, 11);
    double s[8];
    for (int trial = 0; trial < 2000; trial++) {
        int n = 1 + trial % 8;
        double spread = trial % 3 == 0 ? 1.0 : trial % 3 == 1 ? 10.0 : 300.0;
        cr_assert_eq(mm_fill_normal(s, (size_t)n, spread, &r), MM_OK);
        cr_assert_eq(softmax_row(s, n), MM_OK, "%s", mm_last_error());
        long double sum = 0;
        for (int j = 0; j < n; j++) {
            cr_assert(s[j] >= 0 && s[j] <= 1, "trial %d: weight %d is %g, outside [0, 1]",
                      trial, j, s[j]);
            sum += s[j];
        }
        cr_assert(fabsl(sum - 1) <= 1e-15L, "trial %d (n %d, spread %g): the weights "
                  "sum to 1 %+.3Lg; a division by the wrong sum, or a sum taken before "
                  "the last exponential, is the usual cause", trial, n, spread, sum - 1);
    }
}

Test(softmax, the_weights_are_exp_of_s_minus_the_max_over_their_sum)
{
    /* bit for bit the formula: the maximum is 0.75 (not 0, not 1 + 0.75);
     * volatile so that exp runs at run time, as in the library */
    volatile double s0 = 0, s1 = 0.75;
    double s[2] = { s0, s1 };
    cr_assert_eq(softmax_row(s, 2), MM_OK, "%s", mm_last_error());
    double e0 = exp(s0 - s1), e1 = exp(s1 - s1), sum = e0 + e1;
    double want[2] = { e0 / sum, e1 / sum };
    expect_same_bits(s, want, 2, "softmax(0, 0.75)");
}

Test(softmax, shift_invariance_is_exact)
{
    /* s + c is exact for these c (dyadic scores, |c| <= 2^40), so each
     * s_j - max is the same double, and so is every weight */
    const double base[5] = { 3, 1, 0, -2.5, 0.125 };
    const double shifts[] = { 1000, -1000, 1e6, 0x1p40, -0x1p40, 745.5, -745.5 };
    double w0[5];
    memcpy(w0, base, sizeof w0);
    cr_assert_eq(softmax_row(w0, 5), MM_OK);
    for (size_t c = 0; c < sizeof shifts / sizeof shifts[0]; c++) {
        double w[5];
        for (int j = 0; j < 5; j++) w[j] = base[j] + shifts[c];
        cr_assert_eq(softmax_row(w, 5), MM_OK, "%s", mm_last_error());
        for (int j = 0; j < 5; j++)
            cr_assert(w[j] == w0[j], "softmax(s + %g)[%d] = %.17g but softmax(s)[%d] = "
                      "%.17g: the row maximum is not subtracted (or not exactly)",
                      shifts[c], j, w[j], j, w0[j]);
    }
}

Test(softmax, the_worked_rows_of_the_book)
{
    double a[3] = { 3, 1, 0 }, b[3] = { 1003, 1001, 1000 };
    cr_assert_eq(softmax_row(a, 3), MM_OK);
    cr_assert_eq(softmax_row(b, 3), MM_OK, "(1003, 1001, 1000) refused: %s", mm_last_error());
    double z = 1 + exp(-2.0) + exp(-3.0);
    double w_exp[3] = { 1 / z, exp(-2.0) / z, exp(-3.0) / z };
    expect_close(a, w_exp, 3, 4e-16, "softmax(3, 1, 0)");
    expect_same_bits(b, a, 3, "softmax(1003, 1001, 1000) against softmax(3, 1, 0)");
}

Test(softmax, large_scores_give_finite_correct_weights)
{
    double e1 = exp(-1.0);
    struct { double s[3]; int n; double w[3]; const char *what; } rows[] = {
        { { 1000, 999 }, 2, { 1 / (1 + e1), e1 / (1 + e1) }, "(1000, 999)" },
        { { -1000, -1001 }, 2, { 1 / (1 + e1), e1 / (1 + e1) }, "(-1000, -1001)" },
        { { 1000, -1000 }, 2, { 1, 0 }, "(1000, -1000)" },
        { { -1000, 1000, 1000 }, 3, { 0, 0.5, 0.5 }, "(-1000, 1000, 1000)" },
        { { -1000, -1000 }, 2, { 0.5, 0.5 }, "(-1000, -1000)" },
        { { DBL_MAX, -DBL_MAX }, 2, { 1, 0 }, "(DBL_MAX, -DBL_MAX): s - max is -inf" },
        { { DBL_MAX, DBL_MAX }, 2, { 0.5, 0.5 }, "(DBL_MAX, DBL_MAX)" },
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        cr_assert_eq(softmax_row(rows[r].s, rows[r].n), MM_OK, "%s refused: %s",
                     rows[r].what, mm_last_error());
        for (int j = 0; j < rows[r].n; j++) {
            cr_assert(isfinite(rows[r].s[j]), "softmax%s[%d] is %g: exp overflowed, "
                      "the maximum was not subtracted", rows[r].what, j, rows[r].s[j]);
            cr_assert(fabs(rows[r].s[j] - rows[r].w[j]) <= 1e-16, "softmax%s[%d] is "
                      "%.17g, expected %.17g", rows[r].what, j, rows[r].s[j], rows[r].w[j]);
        }
    }
}

Test(softmax, minus_infinity_hides_and_all_hidden_is_zero)
{
    double s[4] = { 0, -INFINITY, log(3.0), -INFINITY };
    cr_assert_eq(softmax_row(s, 4), MM_OK, "-inf refused: %s", mm_last_error());
    cr_assert(s[1] == 0 && s[3] == 0, "hidden keys got weights %g, %g: exactly 0 expected",
              s[1], s[3]);
    cr_assert(fabs(s[0] - 0.25) <= 1e-16 && fabs(s[2] - 0.75) <= 1e-16,
              "visible weights (%.17g, %.17g), expected (1/4, 3/4): the -inf keys must "
              "not count in the sum", s[0], s[2]);
    double all[3] = { -INFINITY, -INFINITY, -INFINITY };
    cr_assert_eq(softmax_row(all, 3), MM_OK, "%s", mm_last_error());
    for (int j = 0; j < 3; j++)
        cr_assert(all[j] == 0 && !signbit(all[j]), "an all-hidden row gave weight %g at %d "
                  "(NaN means -inf - (-inf) was computed)", all[j], j);
}

Test(softmax, refusals_leave_the_row_unchanged)
{
    double s[3] = { 1, NAN, 2 };
    cr_assert_eq(softmax_row(s, 3), MM_EINVAL);
    cr_assert_str_eq(mm_last_error(), "softmax_row: s[1] is nan; a score must be finite, "
                     "or -inf for a hidden key");
    cr_assert(s[0] == 1 && isnan(s[1]) && s[2] == 2, "a refused row was changed");
    double t[3] = { 1, 2, INFINITY };
    cr_assert_eq(softmax_row(t, 3), MM_EINVAL);
    cr_assert(strstr(mm_last_error(), "softmax_row: s[2] is inf"), "%s", mm_last_error());
    cr_assert(t[0] == 1 && t[1] == 2, "a refused row was changed");
    cr_assert_eq(softmax_row(NULL, 3), MM_EINVAL);
    cr_assert_str_eq(mm_last_error(), "softmax_row: s is NULL");
    cr_assert_eq(softmax_row(t, 0), MM_EINVAL);
    cr_assert_str_eq(mm_last_error(), "softmax_row: n must be positive, got 0");
}

/* ---- sdpa against an independent long-double reference ------------------------- */

/* reference - out and weights of softmax(Q K^T / sqrt(d_k) + bias) V, in long
 * double, written from the formula (no row maximum: the values are small) */
static void reference(long double *out, long double *w, const double *q, const double *k,
                      const double *v, const double *bias, int T_q, int T_k, int d_k,
                      int d_v)
{
    for (int i = 0; i < T_q; i++) {
        long double sum = 0;
        for (int j = 0; j < T_k; j++) {
            long double s = 0;
            for (int p = 0; p < d_k; p++) s += (long double)q[i * d_k + p] * k[j * d_k + p];
            s = s / sqrtl(d_k) + (bias ? bias[i * T_k + j] : 0);
            w[i * T_k + j] = expl(s);
            sum += w[i * T_k + j];
        }
        for (int j = 0; j < T_k; j++) w[i * T_k + j] /= sum;
        for (int c = 0; c < d_v; c++) {
            long double o = 0;
            for (int j = 0; j < T_k; j++) o += w[i * T_k + j] * v[j * d_v + c];
            out[i * d_v + c] = o;
        }
    }
}

Test(rectangular, t_q_t_k_d_k_d_v_all_different)
{
    static const int shapes[][4] = {         /* T_q, T_k, d_k, d_v */
        { 3, 7, 5, 2 }, { 7, 3, 2, 5 }, { 1, 9, 4, 3 }, { 9, 1, 3, 4 }, { 5, 5, 8, 1 },
        { 2, 6, 1, 7 }, { 6, 2, 16, 4 }, { 4, 11, 9, 9 } };
    enum { M = 16 * 16 };
    double q[M], k[M], v[M], bias[M], w[M], out[M];
    long double w_ref[M], out_ref[M];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int with_bias = 0; with_bias < 2; with_bias++) {
            int T_q = shapes[s][0], T_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
            random_matrix(q, (size_t)T_q * d_k, 1.0, 100 + s);
            random_matrix(k, (size_t)T_k * d_k, 1.0, 200 + s);
            random_matrix(v, (size_t)T_k * d_v, 1.0, 300 + s);
            random_matrix(bias, (size_t)T_q * T_k, 2.0, 400 + s);
            const double *b = with_bias ? bias : NULL;
            cr_assert_eq(sdpa(out, w, q, k, v, b, T_q, T_k, d_k, d_v), MM_OK,
                         "%s", mm_last_error());
            reference(out_ref, w_ref, q, k, v, b, T_q, T_k, d_k, d_v);
            for (int i = 0; i < T_q * T_k; i++)
                cr_assert(fabsl(w[i] - w_ref[i]) <= 1e-14L, "T_q %d, T_k %d, d_k %d, d_v %d%s: "
                          "weight [%d][%d] is %.17g, reference %.17Lg; a T_q/T_k or d_k/d_v "
                          "mix-up shows only on shapes like this one", T_q, T_k, d_k, d_v,
                          with_bias ? ", bias" : "", i / T_k, i % T_k, w[i], w_ref[i]);
            for (int i = 0; i < T_q * d_v; i++)
                cr_assert(fabsl(out[i] - out_ref[i]) <= 1e-14L, "T_q %d, T_k %d, d_k %d, "
                          "d_v %d%s: out[%d][%d] is %.17g, reference %.17Lg", T_q, T_k, d_k,
                          d_v, with_bias ? ", bias" : "", i / d_v, i % d_v, out[i], out_ref[i]);
        }
}

Test(rectangular, equal_scores_give_uniform_weights)
{
    /* q = 0: every score is 0, every weight exactly 1/T_k, out the mean of V */
    enum { TQ = 3, TK = 7, DK = 4, DV = 5 };
    double q[TQ * DK] = { 0 }, k[TK * DK], v[TK * DV], w[TQ * TK], out[TQ * DV];
    random_matrix(k, TK * DK, 1.0, 1);
    random_matrix(v, TK * DV, 1.0, 2);
    cr_assert_eq(sdpa(out, w, q, k, v, NULL, TQ, TK, DK, DV), MM_OK, "%s", mm_last_error());
    for (int i = 0; i < TQ * TK; i++)
        cr_assert(w[i] == 1.0 / TK, "weight [%d][%d] is %.17g, expected exactly 1/%d",
                  i / TK, i % TK, w[i], TK);
    for (int i = 0; i < TQ; i++)
        for (int c = 0; c < DV; c++) {
            long double mean = 0;
            for (int j = 0; j < TK; j++) mean += v[j * DV + c];
            mean /= TK;
            cr_assert(fabsl(out[i * DV + c] - mean) <= 1e-15L, "out[%d][%d] is %.17g, the "
                      "mean of V's column is %.17Lg", i, c, out[i * DV + c], mean);
        }
    /* identical keys and any query: the same */
    double k1[TK * DK];
    random_matrix(q, TQ * DK, 1.0, 3);
    for (int j = 0; j < TK; j++) memcpy(k1 + j * DK, k, DK * sizeof(double));
    cr_assert_eq(sdpa(out, w, q, k1, v, NULL, TQ, TK, DK, DV), MM_OK);
    for (int i = 0; i < TQ * TK; i++)
        cr_assert(w[i] == 1.0 / TK, "identical keys: weight [%d][%d] is %.17g, not 1/%d",
                  i / TK, i % TK, w[i], TK);
}

/* ---- agreement with chapter 01's plain mechanism --------------------------------- */

/* against_unscaled - sdpa(q_scaled, ...) against qkv_attend_unscaled(q, ...) */
static void against_unscaled(const double *q_scaled, const double *q, const double *k,
                             const double *v, int T, int d_k, int d_v, double tol,
                             const char *what)
{
    double w1[64], out1[64], w2[64], out2[64];
    cr_assert_eq(qkv_attend_unscaled(out1, w1, q, k, v, T, d_k, d_v), MM_OK, "%s",
                 mm_last_error());
    cr_assert_eq(sdpa(out2, w2, q_scaled, k, v, NULL, T, T, d_k, d_v), MM_OK, "%s",
                 mm_last_error());
    for (int i = 0; i < T * T; i++)
        cr_assert(fabs(w1[i] - w2[i]) <= tol * fmax(w1[i], DBL_MIN),
                  "%s: weight %d is %.17g in sdpa, %.17g in qkv_attend_unscaled "
                  "(relative tolerance %g)", what, i, w2[i], w1[i], tol);
    for (int i = 0; i < T * d_v; i++)
        cr_assert(fabs(out1[i] - out2[i]) <= tol * 8, "%s: out %d is %.17g in sdpa, %.17g "
                  "in qkv_attend_unscaled", what, i, out2[i], out1[i]);
}

Test(agreement, with_d_k_1_sdpa_is_the_plain_attention)
{
    enum { T = 6, DV = 3 };
    double q[T], k[T], v[T * DV];
    random_matrix(q, T, 2.0, 5);
    random_matrix(k, T, 2.0, 6);
    random_matrix(v, T * DV, 1.0, 7);
    against_unscaled(q, q, k, v, T, 1, DV, 1e-14, "d_k = 1 (scale 1)");
}

Test(agreement, with_q_pre_scaled_by_sqrt_d_k)
{
    enum { T = 5, DV = 2 };
    static const int dks[] = { 4, 16, 3, 7 };
    for (size_t t = 0; t < sizeof dks / sizeof dks[0]; t++) {
        int d_k = dks[t];
        double q[T * 16], qs[T * 16], k[T * 16], v[T * DV];
        random_matrix(q, (size_t)T * d_k, 0.7, 10 + t);
        random_matrix(k, (size_t)T * d_k, 0.7, 20 + t);
        random_matrix(v, T * DV, 1.0, 30 + t);
        for (int i = 0; i < T * d_k; i++) qs[i] = q[i] * sqrt((double)d_k);
        char what[64];
        snprintf(what, sizeof what, "q times sqrt(%d)", d_k);
        /* d_k = 4, 16: sqrt is a power of 2, the scores are the same doubles */
        against_unscaled(qs, q, k, v, T, d_k, DV, d_k == 4 || d_k == 16 ? 1e-14 : 1e-13, what);
    }
}

Test(agreement, where_the_plain_softmax_overflows_sdpa_does_not)
{
    /* d_k = 1: scores 1024, -1024 and 1023; exp(1024) overflows in chapter 01 */
    const double q[1] = { 32 }, k[3] = { 32, -32, 1023.0 / 32 }, v[3] = { 1, 2, 3 };
    double w[3], out[1], w3[9], out3[3], q3[3] = { 32, 0, 0 };
    double e1 = exp(-1.0);
    cr_assert_eq(sdpa(out, w, q, k, v, NULL, 1, 3, 1, 1), MM_OK, "%s", mm_last_error());
    double w_exp[3] = { 1 / (1 + e1), 0, e1 / (1 + e1) };
    expect_close(w, w_exp, 3, 1e-16, "scores (1024, -1024, 1023)");
    cr_assert(fabs(out[0] - (w_exp[0] + 3 * w_exp[2])) <= 1e-15, "out is %.17g", out[0]);
    cr_assert_eq(qkv_attend_unscaled(out3, w3, q3, k, v, 3, 1, 1), MM_ERANGE,
                 "chapter 01's plain softmax should refuse these scores");
}

/* ---- the bias: -inf hides a key ------------------------------------------------ */

enum { HQ = 3, HK = 5, HD = 4, HV = 3 };

static void hide_inputs(double *q, double *k, double *v)
{
    random_matrix(q, HQ * HD, 1.0, 41);
    random_matrix(k, HK * HD, 1.0, 42);
    random_matrix(v, HK * HV, 1.0, 43);
}

Test(bias, minus_infinity_hides_a_key_and_the_rest_renormalise)
{
    double q[HQ * HD], k[HK * HD], v[HK * HV], w[HQ * HK], out[HQ * HV];
    hide_inputs(q, k, v);
    double bias[HQ * HK] = { 0 };
    const int hidden[HK] = { 0, 1, 0, 1, 0 };             /* keys 1 and 3 hidden */
    for (int i = 0; i < HQ; i++)
        for (int j = 0; j < HK; j++) if (hidden[j]) bias[i * HK + j] = -INFINITY;
    cr_assert_eq(sdpa(out, w, q, k, v, bias, HQ, HK, HD, HV), MM_OK, "%s", mm_last_error());
    /* the same call on the visible keys only: keys 0, 2, 4 */
    double kv[3 * HD], vv[3 * HV], wv[HQ * 3], outv[HQ * HV];
    for (int j = 0, n = 0; j < HK; j++)
        if (!hidden[j]) {
            memcpy(kv + n * HD, k + j * HD, HD * sizeof(double));
            memcpy(vv + n * HV, v + j * HV, HV * sizeof(double));
            n++;
        }
    cr_assert_eq(sdpa(outv, wv, q, kv, vv, NULL, HQ, 3, HD, HV), MM_OK);
    for (int i = 0; i < HQ; i++)
        for (int j = 0, n = 0; j < HK; j++) {
            double got = w[i * HK + j];
            if (hidden[j]) {
                cr_assert(got == 0, "hidden key %d has weight %g in row %d: exactly 0 "
                          "expected (exp(-inf) is 0)", j, got, i);
            } else {
                char what[128];
                snprintf(what, sizeof what, "row %d, visible key %d, against the call "
                         "without the hidden keys (they must add nothing to the sum)", i, j);
                expect_same_products(&got, &wv[i * 3 + n], 1, what);
                n++;
            }
        }
    expect_same_products(out, outv, HQ * HV, "out with keys 1, 3 hidden against out of "
                         "keys 0, 2, 4 alone");
}

Test(bias, an_all_hidden_row_gives_zero_weights_and_output)
{
    double q[HQ * HD], k[HK * HD], v[HK * HV], w[HQ * HK], out[HQ * HV];
    double w0[HQ * HK], out0[HQ * HV], bias[HQ * HK] = { 0 };
    hide_inputs(q, k, v);
    for (int j = 0; j < HK; j++) bias[1 * HK + j] = -INFINITY;    /* row 1 sees nothing */
    cr_assert_eq(sdpa(out, w, q, k, v, bias, HQ, HK, HD, HV), MM_OK, "%s", mm_last_error());
    cr_assert_eq(sdpa(out0, w0, q, k, v, NULL, HQ, HK, HD, HV), MM_OK);
    for (int j = 0; j < HK; j++)
        cr_assert(w[HK + j] == 0 && !isnan(w[HK + j]), "all-hidden row 1: weight %d is %g, "
                  "expected 0 (NaN: -inf - max computed with max = -inf)", j, w[HK + j]);
    for (int c = 0; c < HV; c++)
        cr_assert(out[HV + c] == 0, "all-hidden row 1: out[1][%d] is %g, expected 0", c,
                  out[HV + c]);
    /* rows 0 and 2 are what they are without a bias (a bias of 0 is exact) */
    expect_same_bits(w, w0, HK, "row 0 of the weights");
    expect_same_bits(w + 2 * HK, w0 + 2 * HK, HK, "row 2 of the weights");
    expect_same_bits(out, out0, HV, "row 0 of out");
    expect_same_bits(out + 2 * HV, out0 + 2 * HV, HV, "row 2 of out");
}

Test(bias, a_finite_bias_is_added_to_the_scaled_scores)
{
    /* worked example, bias (0, ln 2; 0, 0): row 0's scores (0, 1/sqrt 2 + ln 2) */
    double q[4], k[4], v[4], w[4], out[4];
    worked(q, k, v);
    const double bias[4] = { 0, log(2.0), 0, 0 };
    cr_assert_eq(sdpa(out, w, q, k, v, bias, 2, 2, 2, 2), MM_OK, "%s", mm_last_error());
    double a = 2 * exp(1 / sqrt(2.0));
    cr_assert(fabs(w[0] - 1 / (1 + a)) <= 1e-15 && fabs(w[1] - a / (1 + a)) <= 1e-15,
              "row 0 weights (%.17g, %.17g), expected (%.17g, %.17g): the bias must be "
              "added after the scale, not scaled with the scores", w[0], w[1],
              1 / (1 + a), a / (1 + a));
}

/* ---- the weights buffer is optional ------------------------------------------- */

Test(weights, null_weights_give_the_same_output)
{
    enum { TQ = 4, TK = 6, DK = 3, DV = 5 };
    double q[TQ * DK], k[TK * DK], v[TK * DV], bias[TQ * TK], w[TQ * TK];
    double out1[TQ * DV], out2[TQ * DV];
    random_matrix(q, TQ * DK, 1.0, 51);
    random_matrix(k, TK * DK, 1.0, 52);
    random_matrix(v, TK * DV, 1.0, 53);
    random_matrix(bias, TQ * TK, 1.0, 54);
    bias[2] = bias[TK + 4] = -INFINITY;
    for (int j = 0; j < TK; j++) bias[3 * TK + j] = -INFINITY;
    for (int b = 0; b < 2; b++) {
        const double *bb = b ? bias : NULL;
        for (int i = 0; i < TQ * DV; i++) out2[i] = -1;
        cr_assert_eq(sdpa(out1, w, q, k, v, bb, TQ, TK, DK, DV), MM_OK, "%s", mm_last_error());
        cr_assert_eq(sdpa(out2, NULL, q, k, v, bb, TQ, TK, DK, DV), MM_OK, "%s",
                     mm_last_error());
        expect_same_bits(out2, out1, TQ * DV, b ? "out with weights NULL (bias given)"
                         : "out with weights NULL (no bias)");
    }
}

/* ---- overflow: MM_ERANGE, named after sdpa ------------------------------------ */

Test(range, a_score_that_overflows)
{
    const double q[2] = { 1e200, 1 }, k[2] = { 1e200, 1 }, v[2] = { 1, 2 };
    double w[4], out[2];
    cr_assert_eq(sdpa(out, w, q, k, v, NULL, 2, 2, 1, 1), MM_ERANGE);
    cr_assert_str_eq(mm_last_error(), "sdpa: a score of query 0 overflows; q and k hold "
                     "values too large to multiply (q . k is checked before the "
                     "1/sqrt(d_k) scale)");
    cr_assert_eq(sdpa(out, NULL, q, k, v, NULL, 2, 2, 1, 1), MM_ERANGE, "weights NULL");
}

Test(range, the_dot_product_is_checked_before_the_scale)
{
    /* d_k = 4: q . k = 4 x 1e154 x 4.4e153 = 1.76e308 < DBL_MAX passes and is
     * scaled to 8.8e307; 4 x 1e154 x 5e153 = 2e308 overflows before the
     * scale, and is refused although the scaled score, 1e308, would fit */
    const double q[4] = { 1e154, 1e154, 1e154, 1e154 }, v[1] = { 7 };
    const double k_fits[4] = { 4.4e153, 4.4e153, 4.4e153, 4.4e153 };
    const double k_over[4] = { 5e153, 5e153, 5e153, 5e153 };
    double w[1], out[1];
    cr_assert_eq(sdpa(out, w, q, k_fits, v, NULL, 1, 1, 4, 1), MM_OK, "%s", mm_last_error());
    cr_assert(w[0] == 1 && out[0] == 7, "one key: weight %g, out %g; expected 1 and 7",
              w[0], out[0]);
    cr_assert_eq(sdpa(out, w, q, k_over, v, NULL, 1, 1, 4, 1), MM_ERANGE);
    cr_assert_str_eq(mm_last_error(), "sdpa: a score of query 0 overflows; q and k hold "
                     "values too large to multiply (q . k is checked before the "
                     "1/sqrt(d_k) scale)");
}

Test(range, a_hidden_key_is_never_scored_wherever_it_sits)
{
    /* key h's q . k overflows (1e200 x 1e200) but the bias hides it: at the
     * start, in the middle and at the end of the row the call succeeds and
     * gives what the two visible keys alone give */
    const double q[1] = { 1e200 }, v[3] = { 1, 2, 3 };
    for (int h = 0; h < 3; h++) {
        double k[3] = { 1e-200, 2e-200, 3e-200 }, bias[3] = { 0, 0, 0 };
        double kv[2], vv[2], w[3], out[1], wv[2], outv[1];
        k[h] = 1e200;
        bias[h] = -INFINITY;
        for (int j = 0, n = 0; j < 3; j++)
            if (j != h) { kv[n] = k[j]; vv[n] = v[j]; n++; }
        mm_status s = sdpa(out, w, q, k, v, bias, 1, 3, 1, 1);
        cr_assert_eq(s, MM_OK, "hidden key %d of 3 whose score overflows: got %s (%s); "
                     "a hidden key's score must never be looked at", h, mm_status_name(s),
                     mm_last_error());
        cr_assert_eq(sdpa(outv, wv, q, kv, vv, NULL, 1, 2, 1, 1), MM_OK);
        cr_assert(w[h] == 0, "hidden key %d has weight %g", h, w[h]);
        for (int j = 0, n = 0; j < 3; j++)
            if (j != h) { expect_same_products(&w[j], &wv[n], 1, "a visible weight"); n++; }
        expect_same_products(out, outv, 1, "out against the visible keys alone");
    }
}

Test(range, a_score_that_overflows_once_the_bias_is_added)
{
    const double q[2] = { 1, 1e154 }, k[2] = { 1, 1e154 }, v[2] = { 1, 2 };
    const double bias[4] = { 0, 0, 0, DBL_MAX };   /* query 1, key 1: 1e308 + DBL_MAX */
    double w[4], out[2];
    cr_assert_eq(sdpa(out, w, q, k, v, bias, 2, 2, 1, 1), MM_ERANGE);
    cr_assert_str_eq(mm_last_error(), "sdpa: query 1, key 1: the score overflows once the "
                     "bias is added");
    cr_assert_eq(sdpa(out, NULL, q, k, v, bias, 2, 2, 1, 1), MM_ERANGE, "weights NULL");
}

Test(range, a_score_that_overflows_downwards_once_the_bias_is_added)
{
    /* -1e308 + -1e308 is -inf, but not a hidden key: silently hiding it would
     * give this row zero weights and a zero output instead of (1/2, 1/2) */
    const double q[1] = { -1e154 }, k[2] = { 1e154, 1e154 }, v[2] = { 1, 3 };
    const double bias[2] = { -1e308, -1e308 };
    double w[2], out[1];
    mm_status s = sdpa(out, w, q, k, v, bias, 1, 2, 1, 1);
    cr_assert_eq(s, MM_ERANGE, "sdpa returned %s with weights (%g, %g) and out %g: a "
                 "score that overflows to -inf must not pass for a hidden key",
                 mm_status_name(s), w[0], w[1], out[0]);
    cr_assert_str_eq(mm_last_error(), "sdpa: query 0, key 0: the score overflows once the "
                     "bias is added");
}

/* ---- an output that overflows ------------------------------------------------------ */

/* The blend a_i V can round past DBL_MAX (45 values of DBL_MAX with weights
 * 1/45: 45 fl(1/45) > 1, and the sum rounds past DBL_MAX in the readable
 * loops, which add in the order of the keys on every machine); sdpa must
 * report it in its own name, naming the row of out. */
Test(overflow, an_output_that_overflows_is_reported_by_sdpa)
{
    double q[1] = { 0 }, k[45] = { 0 }, v[45], w[45], out[1];
    for (int j = 0; j < 45; j++) v[j] = DBL_MAX;
    mm_status s = sdpa(out, w, q, k, v, NULL, 1, 45, 1, 1);
    if (rounds_below_overflow(s, out, 1)) return;
    cr_assert_eq(s, MM_ERANGE, "got %s", mm_status_name(s));
    cr_assert(strncmp(mm_last_error(), "sdpa: ", 6) == 0, "the message \"%s\" does not "
              "name sdpa", mm_last_error());
}

