/* m-padding-rows.c - mask_padding hides queries (rows i >= length), not
 * keys.
 * run-only: mask_padding
 * expect-exit: 1
 * expect: hint: your mask hides queries (rows i >= length) instead of keys
 */
#define PADDING_SEES(i, j) ((i) < length)
#include "base.h"
