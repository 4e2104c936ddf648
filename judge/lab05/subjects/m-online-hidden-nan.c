/* m-online-hidden-nan.c - softmax_online folds a block of hidden keys like
 * any other: alpha = e^(-inf - (-inf)) is NaN, and so is every weight of a
 * row that starts with one. The worked example passes; the hidden block fails.
 * run-only: softmax_online
 * expect-exit: 1
 * expect-not: CHECK=softmax_online/c1_worked_example
 * expect: CHECK=softmax_online/c5_hidden_block
 * expect: hint: a block whose scores are all -INFINITY turns your fold into NaN
 */
#define ONLINE_SKIP(bm) 0
#include "base.h"
