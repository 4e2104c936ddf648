/* m-softmax-float-max.c - softmax_row keeps the row maximum in a float
 * ("it is only subtracted"). softmax(s - c) = softmax(s) for any c, so a
 * maximum rounded to a float gives the same weights wherever a float holds
 * it, and this passed the old checks (scores of 1010 at most). A float
 * holds at most FLT_MAX = 3.4e38: above it the maximum becomes +inf and
 * every weight 0/0 = NaN; below -FLT_MAX it becomes -inf, and the row is
 * taken for one that sees no key. The hint names the float.
 * run-only: softmax_row sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  softmax_row, case 'scores above FLT_MAX n=[0-9]: s = \(.*\) \(seed [0-9]+\)': s has NaN at
 * expect-re: ^  FAIL  softmax_row, case 'scores below -DBL_MAX/2 n=[0-9]: s = \(.*\) \(seed [0-9]+\)': s is wrong$
 * expect: hint: you kept the row maximum in a float
 * expect-re: ^  FAIL  sdpa, case 'extreme scores \(biases above FLT_MAX or below -DBL_MAX/2, queries times 1e40\): T_q=[0-9]+ T_k=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': 
 * expect-re: ^softmax_row +0 +16 +2$
 * expect-re: ^sdpa +0 +20 +1$
 */
#define SOFTMAX_MAX_T float
#include "base.h"
