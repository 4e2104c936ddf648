/* m-softmax-not-normalised.c - softmax_row stops at exp(s_j - max): the
 * weights are never divided by their sum.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'row 0 of chapter 01's worked example, scaled: s = (0, 1/sqrt 2)': s is wrong
 * expect: hint: your weights are exp(s_j - max) without dividing by their sum
 * expect-re: ^softmax_row +0 +([89]|10) +([89]|10)$
 */
#define MUTANT_softmax_row
#include "base.h"
mm_status softmax_row(double *s, int n)
{
    SOFTMAX_CHECK_ARGS();
    double m = s[0];
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) s[j] = m == -INFINITY ? 0.0 : exp(s[j] - m);
    return MM_OK;
}
