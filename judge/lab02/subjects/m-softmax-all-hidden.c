/* m-softmax-all-hidden.c - softmax_row has no case for a row whose every
 * score is -inf: its maximum is -inf, -inf - (-inf) is NaN, and the
 * weights are NaN instead of 0. sdpa (base.h) calls it: its hidden-keys
 * cases fail too, blamed on softmax_row.
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'every key hidden: s = (-inf, -inf, -inf)': s has NaN at (0, 0)
 * expect: hint: every score of this row is -inf (every key hidden), so its maximum is -inf too
 * expect: hint: the scores are right, but your softmax_row gets them wrong: on row 1, s = (-inf, -inf, -inf, -inf)
 * expect-re: ^softmax_row +0 +16 +2$
 * expect-re: ^sdpa +0 +18 +3$
 */
#define MUTANT_softmax_row
#include "base.h"

mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY) return mm_fail(MM_EINVAL, "softmax_row: bad score");
    double m = s[0], sum = 0.0;
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
