/* m-combine-refuses-minus-inf.c - mask_combine refuses any element that is
 * not finite, -inf included.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: -inf is a hidden key, not an error
 */
#define COMBINE_BAD(b, o) (!isfinite(b) || !isfinite(o))
#include "base.h"
