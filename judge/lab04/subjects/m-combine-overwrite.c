/* m-combine-overwrite.c - mask_combine copies other into bias.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: you copied other into bias
 */
#define COMBINE(b, o) ((void)(b), (o))
#include "base.h"
