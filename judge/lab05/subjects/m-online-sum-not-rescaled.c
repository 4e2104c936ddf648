/* m-online-sum-not-rescaled.c - softmax_online adds each block's
 * exponentials to a running sum it never rescales when the maximum grows.
 * run-only: softmax_online
 * expect-exit: 1
 * expect: CHECK=softmax_online/c1_worked_example
 * expect: hint: the running sum not rescaled: your l is not rescaled when the maximum grows
 * expect-not: CHECK=softmax_online/e
 */
#define ONLINE_RESCALE(l, a) (l)
#include "base.h"
