/* m-softmax-refuses-hidden.c - softmax_row refuses every non-finite score,
 * -inf included: a hidden key is not an error.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'hidden keys: s = (-inf, 2, -inf, 0.5)': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: softmax_row: s[0] is -inf
 * expect: hint: -inf is not a bad score: it hides a key
 * expect-re: ^softmax_row +0 +1[2-4] +[4-6]$
 */
#define MUTANT_softmax_row
#include "base.h"

mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    for (int j = 0; j < n; j++)
        if (!isfinite(s[j])) return mm_fail(MM_EINVAL, "softmax_row: s[%d] is %g", j, s[j]);
    double m = s[0], sum = 0.0;
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
