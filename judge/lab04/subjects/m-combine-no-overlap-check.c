/* m-combine-no-overlap-check.c - mask_combine does not refuse buffers that
 * overlap.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: bias and other may be the same buffer, but must not overlap otherwise
 * expect-re: ^mask_combine +0 +14 +1$
 */
#define ARGS_COMBINE_NO_OVERLAP
#include "base.h"
