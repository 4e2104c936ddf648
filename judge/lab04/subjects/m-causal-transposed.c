/* m-causal-transposed.c - mask_causal shows keys j >= i: itself and the
 * future.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask is transposed: query i sees keys j >= i
 * expect: hint: your mask_causal gives a wrong mask for T = 3
 * expect: bias has -inf at (1, 0) (3 non-finite of 9 elements)
 * expect: the non-finite element named above (1, 0): expected 0, got -inf
 * expect-not: first wrong element (0, 1)
 */
#define CAUSAL_SEES(i, j) ((j) >= (i))
#include "base.h"
