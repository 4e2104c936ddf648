/* m-causal-transposed.c - mask_causal shows keys j >= i: itself and the
 * future.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask is transposed: query i sees keys j >= i
 * expect: hint: your mask_causal gives a wrong mask for T = 3
 */
#define CAUSAL_SEES(i, j) ((j) >= (i))
#include "base.h"
