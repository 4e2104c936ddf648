/* m-softmax-writes-first.c - softmax_row looks for a bad score only while
 * it writes the exponentials: it returns MM_EINVAL as it should, but the
 * scores before the NaN are already overwritten.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 's = (0.5, 1, -inf, NaN)': softmax_row failed for s = (0.5, 1, -inf, NaN), as it should, but changed s: element 0 was 0.5, is now
 * expect: hint: check every score before you write any
 * expect-re: ^softmax_row +0 +17 +1$
 */
#define MUTANT_softmax_row
#include "base.h"

mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    double m = -INFINITY, sum = 0.0;
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    if (m == INFINITY) return mm_fail(MM_EINVAL, "softmax_row: +inf");
    if (m == -INFINITY) {
        int hidden = 1;
        for (int j = 0; j < n; j++) hidden &= s[j] == -INFINITY;
        if (hidden) {
            for (int j = 0; j < n; j++) s[j] = 0.0;
            return MM_OK;
        }
    }
    for (int j = 0; j < n; j++) {
        if (isnan(s[j])) return mm_fail(MM_EINVAL, "softmax_row: s[%d] is NaN", j);
        sum += s[j] = exp(s[j] - m);
    }
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
