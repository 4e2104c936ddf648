/* m-combine-max.c - mask_combine takes the larger of the two elements.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: you took the larger of the two: max(0, -INFINITY) is 0
 */
#define COMBINE(b, o) fmax(b, o)
#include "base.h"
