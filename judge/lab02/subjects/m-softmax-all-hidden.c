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
#define SOFTMAX_HIDDEN_ROW 0
#include "base.h"
