/* m-forward-k-from-v.c - the keys are taken from the V block of [Q | K | V]:
 * each head attends with K = V.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: your keys are the values
 */
#define FW_K(h) (heads + (size_t)(2 * H + (h)) * hs)
#include "base.h"
