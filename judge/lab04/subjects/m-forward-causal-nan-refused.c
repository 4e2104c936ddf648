/* m-forward-causal-nan-refused.c - m-forward-causal-nan-row.c multiplying by
 * W_O with mm_matmul, which refuses the NaN of row 0: the layer returns
 * MM_EINVAL, and the weights it wrote show the row of NaN.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: mm_last_error() says: mm_matmul: a[0][0] is nan
 * expect: hint: row 0 of head 0's weights is NaN
 */
#define OWN_SCORE(s, i, j) ((j) < (i) ? (s) : -INFINITY)
#define OWN_EXP(s, top) exp((s) - (top))
#include "own.h"
