/* m-online-sum-reset.c - softmax_online sets the sum to each block's
 * exponentials instead of adding them: l holds only the last block.
 * run-only: softmax_online
 * expect-exit: 1
 * expect: CHECK=softmax_online/c1_worked_example
 * expect: hint: your sum l holds only the last block's exponentials
 */
#define ONLINE_RESCALE(l, a) 0.0
#include "base.h"
