/* m-forward-no-wo.c - mha_forward returns the heads' outputs side by side,
 * never multiplied by W_O.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: your out is the heads' outputs side by side, not multiplied by W_O
 */
#define FW_OUT(out, concat) (memcpy(out, concat, (size_t)T * d * sizeof *out), MM_OK)
#include "base.h"
