/* m-causal-off-by-one.c - mask_causal shows keys j < i: the diagonal is
 * hidden, a token does not see itself and row 0 sees nothing. The causal
 * layer, which uses this mask_causal, is blamed on it.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask hides the diagonal: query i sees keys j < i
 * expect: hint: your mask_causal gives a wrong mask for T = 3 (see its checks), and your mha_forward_causal's results are what mha_forward gives with that mask
 */
#define CAUSAL_SEES(i, j) ((j) < (i))
#include "base.h"
