/* m-combine-no-overflow-check.c - mask_combine adds 1e308 and 1e308 without
 * a word.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: two finite values can add up to an infinity
 * expect-re: ^mask_combine +0 +13 +2$
 */
#define COMBINE_OVERFLOWS(b, o) 0
#include "base.h"
