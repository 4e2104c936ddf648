/* m-from-bool-no-overlap.c - mask_from_bool does not refuse allowed lying
 * inside bias.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: hint: bias and allowed must not share memory
 * expect-re: ^mask_from_bool +0 +10 +1$
 */
#define ARGS_BOOL_NO_OVERLAP
#include "base.h"
