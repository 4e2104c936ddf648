/* m-softmax-one-score.c - softmax_row takes a shortcut for a row of one
 * score ("its weight is 1") before it looks at the score. The old checks
 * had one such row, of a finite score; a single -inf hides the only key
 * (weight 0), and a single NaN must be refused.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'one score, hidden: s = (-inf)': s is wrong
 * expect: hint: every score of this row is -inf (every key hidden): the row sees no key, so its weights are all 0, even when it has one score
 * expect: FAIL  softmax_row, case 's = (NaN)': returned MM_OK (0) for s = (NaN); expected MM_EINVAL (1)
 * expect-re: ^softmax_row +0 +16 +2$
 */
#define SOFTMAX_FIRST if (n == 1) { s[0] = 1.0; return MM_OK; }
#include "base.h"
