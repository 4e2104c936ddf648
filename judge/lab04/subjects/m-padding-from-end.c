/* m-padding-from-end.c - mask_padding counts the real keys from the end:
 * the last length keys visible.
 * run-only: mask_padding
 * expect-exit: 1
 * expect: hint: you counted the real keys from the end
 */
#define PADDING_SEES(i, j) ((j) >= T_k - length)
#include "base.h"
