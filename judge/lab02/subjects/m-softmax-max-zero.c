/* m-softmax-max-zero.c - softmax_row's running maximum starts at 0: rows
 * above 0 are fine, but a row whose scores are all far below 0 has every
 * exp underflow to 0, and its weights are 0/0.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'large negative scores: s = (-1000, -1001, -1010)': s has NaN at (0, 0)
 * expect: hint: every exp(s_j) of (-1000, -1001, -1010) underflows to 0 (exp is 0 below -745.13), so your weights are 0/0: subtract the row maximum, -1000 here, before exp (not 0: the maximum starts at -INFINITY or s[0])
 * expect-re: ^softmax_row +0 +16 +2$
 */
#define MUTANT_softmax_row
#include "base.h"
mm_status softmax_row(double *s, int n)
{
    SOFTMAX_CHECK_ARGS();
    double m = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    if (m == -INFINITY) return MM_OK;
    int hidden = 1;
    for (int j = 0; j < n; j++) hidden &= s[j] == -INFINITY;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++) s[j] = hidden ? 0.0 : s[j] / sum;
    return MM_OK;
}
