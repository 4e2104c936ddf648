/* m-combine-min.c - mask_combine takes the smaller of the two elements:
 * right for masks of 0 and -inf (the first case passes), wrong for finite
 * biases.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: you took the smaller of the two: for masks of 0 and -INFINITY that is the same as adding
 * expect-not: FAIL  mask_combine, case 'the causal mask and the padding mask
 */
#define COMBINE(b, o) fmin(b, o)
#include "base.h"
