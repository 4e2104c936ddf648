/* m-padding-le-length.c - mask_padding shows keys j <= length: one key
 * too many.
 * run-only: mask_padding
 * expect-exit: 1
 * expect: hint: your mask shows length + 1 keys: key j is real when j < length
 */
#define PADDING_SEES(i, j) ((j) <= length)
#include "base.h"
