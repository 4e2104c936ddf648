/* m-sdpa-no-overflow-check.c - sdpa does not look at its scores once the
 * bias is added: a finite score plus a finite bias that overflows to +inf
 * reaches softmax_row, which refuses it with MM_EINVAL - the status of a
 * bad argument of softmax_row, where sdpa's arguments were all valid
 * (MM_ERANGE).
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'q[0] = 1e308, bias[1] = 1.5e308: the score 7.1e307 plus the bias overflows': returned MM_EINVAL (1) for q[0] = 1e308, bias[1] = 1.5e308: the score 7.1e307 plus the bias overflows; expected MM_ERANGE (3)
 * expect: hint: finite inputs can still give a score that is not finite
 * expect-re: ^sdpa +0 +20 +1$
 */
#define ROW_CHECK_SCORES 0
#include "row.h"
