/* m-forward-ignores-status.c - mha_forward ignores the status of its last
 * product, concat W_O: an overflow there comes back as MM_OK.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: returned MM_OK (0) for x[0] = 1e300, W_V = 10 I, W_O = 1e10 I: the heads' outputs times W_O overflow; expected MM_ERANGE (3)
 * expect: hint: finite inputs can still overflow
 */
#define FW_OUT(out, concat) ((void)mm_matmul(out, concat, layer->w_o, T, d, d, false), MM_OK)
#include "base.h"
