/* m-causal-flipped.c - the convention flipped in every mask: -INFINITY
 * where a key is visible, 0 where it is hidden.
 * run-only: mask_causal mask_padding
 * expect-exit: 1
 * expect: hint: your convention is flipped: 0 where a key must be hidden and -INFINITY where it is visible
 * expect-re: ^mask_causal +0 +3 +5$
 */
#define SEEN (-INFINITY)
#define HIDDEN 0.0
#include "base.h"
