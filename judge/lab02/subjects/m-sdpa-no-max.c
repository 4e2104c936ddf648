/* m-sdpa-no-max.c - sdpa has its own softmax (full.h), without the row
 * maximum subtracted; its softmax_row is right. On the large scores exp
 * overflows (inf/inf) and underflows (0/0): the probe finds softmax_row
 * right on the same scores, so the hint is about sdpa's own softmax. A
 * row that sees no key is 0/0 too, and said as such.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'large scores: row 0 (1000, 999, 990), row 1 (-1000, -999, -990): T_q=2 T_k=3 d_k=4 d_v=2': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: mm_matmul: a[0][0] is
 * expect: hint: your softmax inside sdpa does not subtract the row maximum
 * expect-not: your softmax_row gets them wrong
 * expect: hint: a row whose every key is hidden (all its scores -inf) gives NaN
 * expect-re: ^sdpa +0 +16 +5$
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status plain_softmax(double *s, int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j]);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
#define FULL_SOFTMAX plain_softmax
#include "full.h"
