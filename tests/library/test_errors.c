/* test_errors.c - every checked error of the library returns its status and a
 * message naming the function, the argument and the value; nothing crashes. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

static double A[64], B[64], C[64], D[64], E[64], F[64], G[64];

#define EXPECT_ERROR(call, status, text)                                        \
    do {                                                                        \
        mm_status s_ = (call);                                                  \
        cr_expect_eq(s_, status, "%s returned %d, expected %d", #call, s_, status); \
        cr_expect(strstr(mm_last_error(), text) != NULL,                        \
                  "%s: message \"%s\" does not contain \"%s\"", #call,          \
                  mm_last_error(), text);                                       \
    } while (0)

Test(errors, matmul)
{
    EXPECT_ERROR(mm_matmul(NULL, A, B, 2, 2, 2, false), MM_EINVAL, "mm_matmul: c is NULL");
    EXPECT_ERROR(mm_matmul(C, NULL, B, 2, 2, 2, false), MM_EINVAL, "mm_matmul: a is NULL");
    EXPECT_ERROR(mm_matmul(C, A, NULL, 2, 2, 2, true), MM_EINVAL, "mm_matmul: b is NULL");
    EXPECT_ERROR(mm_matmul(C, A, B, 0, 2, 2, false), MM_EINVAL, "n must be positive, got 0");
    EXPECT_ERROR(mm_matmul(C, A, B, 2, -1, 2, false), MM_EINVAL, "k must be positive, got -1");
    EXPECT_ERROR(mm_matmul(C, A, B, 2, 2, 0, false), MM_EINVAL, "m must be positive, got 0");
    EXPECT_ERROR(mm_matmul(A, A, B, 2, 2, 2, false), MM_EINVAL, "same buffer as a");
    EXPECT_ERROR(mm_matmul(B, A, B, 2, 2, 2, false), MM_EINVAL, "same buffer as b");
}

Test(errors, fill_normal)
{
    mm_rng r;
    mm_rng_seed(&r, 1);
    EXPECT_ERROR(mm_fill_normal(NULL, 4, 1.0, &r), MM_EINVAL, "mm_fill_normal: w is NULL");
    EXPECT_ERROR(mm_fill_normal(A, 4, 1.0, NULL), MM_EINVAL, "mm_fill_normal: r is NULL");
    EXPECT_ERROR(mm_fill_normal(A, 0, 1.0, &r), MM_EINVAL, "n must be in 1..");
    EXPECT_ERROR(mm_fill_normal(A, 4, -1.0, &r), MM_EINVAL, "std must be in [0, DBL_MAX / 16], got -1");
    EXPECT_ERROR(mm_fill_normal(A, 4, NAN, &r), MM_EINVAL, "got nan");
    EXPECT_ERROR(mm_fill_normal(A, 4, INFINITY, &r), MM_EINVAL, "got inf");
}

Test(errors, project)
{
    EXPECT_ERROR(qkv_project(NULL, B, C, D, E, F, G, 2, 2, 2, 2), MM_EINVAL, "qkv_project: q is NULL");
    EXPECT_ERROR(qkv_project(A, B, NULL, D, E, F, G, 2, 2, 2, 2), MM_EINVAL, "qkv_project: v is NULL");
    EXPECT_ERROR(qkv_project(A, B, C, NULL, E, F, G, 2, 2, 2, 2), MM_EINVAL, "qkv_project: x is NULL");
    EXPECT_ERROR(qkv_project(A, B, C, D, E, NULL, G, 2, 2, 2, 2), MM_EINVAL, "qkv_project: w_k is NULL");
    EXPECT_ERROR(qkv_project(A, B, C, D, E, F, G, 0, 2, 2, 2), MM_EINVAL, "qkv_project: T must be positive, got 0");
    EXPECT_ERROR(qkv_project(A, B, C, D, E, F, G, 2, -3, 2, 2), MM_EINVAL, "d_model must be positive, got -3");
    EXPECT_ERROR(qkv_project(A, B, C, D, E, F, G, 2, 2, 0, 2), MM_EINVAL, "d_k must be positive, got 0");
    EXPECT_ERROR(qkv_project(A, B, C, D, E, F, G, 2, 2, 2, 0), MM_EINVAL, "d_v must be positive, got 0");
}

Test(errors, pack_split_fused)
{
    EXPECT_ERROR(qkv_pack(NULL, A, B, C, 2, 2, 2), MM_EINVAL, "qkv_pack: w_qkv is NULL");
    EXPECT_ERROR(qkv_pack(D, A, B, NULL, 2, 2, 2), MM_EINVAL, "qkv_pack: w_v is NULL");
    EXPECT_ERROR(qkv_pack(D, A, B, C, 0, 2, 2), MM_EINVAL, "qkv_pack: d_model must be positive, got 0");
    EXPECT_ERROR(qkv_split(A, B, C, NULL, 2, 2, 2), MM_EINVAL, "qkv_split: qkv is NULL");
    EXPECT_ERROR(qkv_split(A, NULL, C, D, 2, 2, 2), MM_EINVAL, "qkv_split: k is NULL");
    EXPECT_ERROR(qkv_split(A, B, C, D, -1, 2, 2), MM_EINVAL, "qkv_split: T must be positive, got -1");
    EXPECT_ERROR(qkv_project_fused(A, B, C, NULL, D, E, 2, 2, 2, 2), MM_EINVAL, "qkv_project_fused: qkv is NULL");
    EXPECT_ERROR(qkv_project_fused(A, B, C, D, E, NULL, 2, 2, 2, 2), MM_EINVAL, "qkv_project_fused: w_qkv is NULL");
    EXPECT_ERROR(qkv_project_fused(A, B, C, D, E, F, 2, 2, 2, -5), MM_EINVAL, "qkv_project_fused: d_v must be positive, got -5");
}

Test(errors, attend_unscaled)
{
    EXPECT_ERROR(qkv_attend_unscaled(NULL, A, B, C, D, 2, 2, 2), MM_EINVAL, "qkv_attend_unscaled: out is NULL");
    EXPECT_ERROR(qkv_attend_unscaled(A, NULL, B, C, D, 2, 2, 2), MM_EINVAL, "qkv_attend_unscaled: weights is NULL");
    EXPECT_ERROR(qkv_attend_unscaled(A, B, C, D, E, 0, 2, 2), MM_EINVAL, "qkv_attend_unscaled: T must be positive, got 0");
}

Test(errors, plain_softmax_overflow_is_reported_not_nan)
{
    /* T = 2, d_k = d_v = 1: score row 0 is (900, 0), and exp(900) overflows */
    const double q[2] = { 30, 0 }, k[2] = { 30, 0 }, v[2] = { 1, 2 };
    double w[4], out[2];
    EXPECT_ERROR(qkv_attend_unscaled(out, w, q, k, v, 2, 1, 1), MM_ERANGE,
                 "overflow: the exponentials of score row 0 sum to inf");
}

Test(errors, plain_softmax_underflow_is_reported_not_nan)
{
    /* score row 0 is (-900, -900): both exponentials underflow to 0 */
    const double q[2] = { -30, 1 }, k[2] = { 30, 30 }, v[2] = { 1, 2 };
    double w[4], out[2];
    EXPECT_ERROR(qkv_attend_unscaled(out, w, q, k, v, 2, 1, 1), MM_ERANGE,
                 "underflow: the exponentials of score row 0 sum to 0");
}

Test(errors, softmax_and_sdpa)
{
    EXPECT_ERROR(softmax_row(NULL, 2), MM_EINVAL, "softmax_row: s is NULL");
    EXPECT_ERROR(softmax_row(A, -4), MM_EINVAL, "softmax_row: n must be positive, got -4");
    EXPECT_ERROR(sdpa(NULL, A, B, C, D, NULL, 2, 2, 2, 2), MM_EINVAL, "sdpa: out is NULL");
    EXPECT_ERROR(sdpa(A, NULL, B, C, NULL, NULL, 2, 2, 2, 2), MM_EINVAL, "sdpa: v is NULL");
    EXPECT_ERROR(sdpa(A, B, C, D, E, NULL, 2, 0, 2, 2), MM_EINVAL,
                 "sdpa: T_k must be positive, got 0");
    EXPECT_ERROR(sdpa(A, B, C, D, E, A, 2, 2, 2, 2), MM_EINVAL,
                 "sdpa: out must not be the same buffer as bias");
    EXPECT_ERROR(sdpa(A, NULL, C, D, E, B, 2, 2, 2, 2), MM_OK, "");   /* NULL weights */
}

Test(errors, init_weights)
{
    EXPECT_ERROR(attention_init_weights(NULL, B, C, D, 2, 1), MM_EINVAL, "attention_init_weights: w_q is NULL");
    EXPECT_ERROR(attention_init_weights(A, B, C, NULL, 2, 1), MM_EINVAL, "attention_init_weights: w_o is NULL");
    EXPECT_ERROR(attention_init_weights(A, B, C, D, 0, 1), MM_EINVAL, "d_model must be positive, got 0");
}

Test(errors, success_leaves_the_message_of_the_last_failure)
{
    mm_fail(MM_EINVAL, "earlier failure %d", 3);
    cr_assert_eq(mm_matmul(C, A, B, 2, 2, 2, false), MM_OK);
    cr_assert_str_eq(mm_last_error(), "earlier failure 3");
}

Test(errors, a_size_of_zero_or_less_has_nothing_to_fit)
{
    /* the callers refuse such sizes first (MM_NEED_POSITIVE); the check
     * itself must not divide by zero, whatever it is passed */
    static const long sizes[][2] = { { 5, 0 }, { 0, 5 }, { 0, 0 }, { -3, 7 }, { 7, -3 },
                                     { LONG_MIN, 0 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        cr_assert_eq(mm_need_size_product("f", "a", sizes[i][0], "b", sizes[i][1]), MM_OK,
                     "a = %ld, b = %ld: %s", sizes[i][0], sizes[i][1], mm_last_error());
    cr_assert_eq(mm_need_size_product("f", "a", 1, "b", LONG_MAX), MM_EINVAL, "1 x LONG_MAX");
    cr_assert_eq(mm_need_size_product("f", "a", LONG_MAX, "b", 1), MM_EINVAL, "LONG_MAX x 1");
    cr_assert_eq(mm_need_size_product("f", "a", 1, "b", (long)MM_MAX_ELEMENTS), MM_OK,
                 "1 x MM_MAX_ELEMENTS fits: %s", mm_last_error());
    cr_assert_eq(mm_need_size_product("f", "a", INT_MAX, "b", INT_MAX), MM_EINVAL);
    cr_assert_str_eq(mm_last_error(), "f: a * b = 2147483647 * 2147483647 doubles do not "
                     "fit in one buffer (at most 1152921504606846975)");
}

Test(errors, a_result_that_overflows_is_named_by_its_row_and_column)
{
    /* (2, 1) x (1, 3): only row 1 overflows, so c[1][0] is the first, and
     * Q[1][0] of a (2, 3) projection */
    const double a[2] = { 1, 1e200 }, b[3] = { 1e200, 1e200, 1e200 };
    double c[6];
    cr_assert_eq(mm_matmul(c, a, b, 2, 1, 3, false), MM_ERANGE);
    cr_assert(strstr(mm_last_error(), "c[1][0] is inf") != NULL, "%s", mm_last_error());
    const double x[2] = { 1, 1e200 }, w_q[3] = { 1e200, 1e200, 1e200 },
                 w_k[3] = { 1, 1, 1 }, w_v[1] = { 1 };
    double q[6], k[6], v[2];
    cr_assert_eq(qkv_project(q, k, v, x, w_q, w_k, w_v, 2, 1, 3, 1), MM_ERANGE);
    cr_assert(strstr(mm_last_error(), "qkv_project: q[1][0] is inf") != NULL, "%s",
              mm_last_error());
}
