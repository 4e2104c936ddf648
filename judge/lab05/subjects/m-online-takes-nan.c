/* m-online-takes-nan.c - softmax_online does not look at its scores: a NaN
 * or a +inf is taken (its weights come out NaN) instead of refused.
 * run-only: softmax_online
 * expect-exit: 1
 * expect: CHECK=softmax_online/e3_not_a_score
 * expect: hint: a score may be finite or -INFINITY (a hidden key), nothing else
 * expect-re: ^softmax_online +0 +12 +1$
 */
#define NO_ONLINE_CHECK_SCORES
#include "base.h"
