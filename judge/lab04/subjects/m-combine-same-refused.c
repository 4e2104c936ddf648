/* m-combine-same-refused.c - mask_combine refuses bias == other as an
 * overlap.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: bias and other may be the same buffer
 * expect-re: ^mask_combine +0 +14 +1$
 */
#define COMBINE_SAME_REFUSED
#include "base.h"
