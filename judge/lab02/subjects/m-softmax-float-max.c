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
#define MUTANT_softmax_row
#include "base.h"

mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY)
            return mm_fail(MM_EINVAL, "softmax_row: s[%d] is %g", j, s[j]);
    float m = (float)s[0];
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = (float)s[j];
    if (m == -INFINITY) {
        for (int j = 0; j < n; j++) s[j] = 0.0;
        return MM_OK;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        s[j] = exp(s[j] - m);
        sum += s[j];
    }
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
