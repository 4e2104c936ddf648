/* m-softmax-clamped.c - softmax_row without the maximum subtracted, which
 * "fixes" the overflow by capping each exponent at 700: no NaN, but the
 * three large scores all get exp(700), equal weights. No known mistake
 * gives these numbers; the probe does: the same row shifted by its maximum
 * gets the right weights from this very function, so the size of the
 * scores is what throws it.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'large scores: s = (1003, 1001, 1000), the weights of (3, 1, 0)': s is wrong
 * expect: hint: your softmax_row gives the right weights for the same row shifted by its maximum, s - max(s) = (0, -2, -3) (max(s) = 1003)
 * expect-re: ^softmax_row +0 +15 +3$
 */
#define MUTANT_softmax_row
#include "base.h"
mm_status softmax_row(double *s, int n)
{
    SOFTMAX_CHECK_ARGS();
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] > 700 ? 700 : s[j]);
    for (int j = 0; j < n; j++) s[j] = sum > 0 ? s[j] / sum : 0.0;
    return MM_OK;
}
