/* m-softmax-refuses-hidden.c - softmax_row refuses every non-finite score,
 * -inf included: a hidden key is not an error.
 * run-only: softmax_row
 * expect-exit: 1
 * expect: FAIL  softmax_row, case 'hidden keys: s = (-inf, 2, -inf, 0.5)': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: softmax_row: s[0] is -inf
 * expect: hint: -inf is not a bad score: it hides a key
 * expect-re: ^softmax_row +0 +1[2-4] +[4-6]$
 */
#define SOFTMAX_BAD(x) (!isfinite(x))
#define SOFTMAX_HIDDEN_ROW 0
#include "base.h"
