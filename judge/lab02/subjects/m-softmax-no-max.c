/* m-softmax-no-max.c - softmax_row without the maximum subtracted: right on
 * small scores; exp(1003) overflows (inf/inf = NaN), and exp(-1000)
 * underflows to 0 (a sum of 0 it turns into weights of 0: no known
 * mistake, but the probe on the shifted row says what it is). sdpa (base.h) calls it: its large case fails too, and
 * the probe of softmax_row on the right scores puts the blame there.
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'large scores: s = (1003, 1001, 1000), the weights of (3, 1, 0)': s has NaN at (0, 0)
 * expect: hint: exp(s_j) overflows to inf for the scores of (1003, 1001, 1000) (exp is inf above 709.78), so your weights are inf/inf = NaN: subtract the row maximum, 1003 here
 * expect: hint: your softmax_row gives the right weights for the same row shifted by its maximum, s - max(s) = (0, -1, -10) (max(s) = -1000)
 * expect: hint: the scores are right, but your softmax_row gets them wrong: on row 0, s = (1000, 999, 990)
 * expect-re: ^softmax_row +0 +14 +4$
 * expect-re: ^sdpa +0 +19 +2$
 */
#define MUTANT_softmax_row
#include "base.h"
mm_status softmax_row(double *s, int n)
{
    SOFTMAX_CHECK_ARGS();
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j]);
    for (int j = 0; j < n; j++) s[j] = sum > 0 ? s[j] / sum : 0.0;
    return MM_OK;
}
