/* m-sdpa-hidden-nan.c - sdpa has its own softmax (full.h), stable, but with
 * no case for a row whose every key is hidden: -inf - (-inf) = NaN, which
 * mm_matmul then refuses; with weights = NULL only the error shows, and
 * the hint says what it means.
 * expect: hint: valid arguments, so the value that is not finite is your own
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'hidden keys: bias [[0,-inf,0,-inf],[-inf,-inf,-inf,-inf],[0,0,0,-inf]] (row 1 sees no key): T_q=3 T_k=4 d_k=2 d_v=3': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: mm_matmul: a[1][0] is
 * expect: hint: a row whose every key is hidden (all its scores -inf) gives NaN
 * expect-re: ^sdpa +0 +18 +3$
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status naive_softmax(double *s, int n)
{
    double m = s[0], sum = 0.0;
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
#define FULL_SOFTMAX naive_softmax
#include "full.h"
