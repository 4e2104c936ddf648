/* m-combine-multiply.c - mask_combine multiplies the masks.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: you multiplied the masks: 0 * -INFINITY is NaN
 */
#define COMBINE(b, o) ((b) * (o))
#include "base.h"
