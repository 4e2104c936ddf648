/* m-combine-writes-first.c - mask_combine checks each pair of elements
 * and writes its sum in the same loop: a bad element at the end is found
 * after bias has been changed.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: mask_combine refused the call for bias[1][1] = NaN, as it should, but changed bias first
 * expect: hint: check every argument - and, in mask_combine, every element of both masks and every sum - before the first write
 * expect-re: ^mask_combine +0 +11 +4$
 */
#define COMBINE_WRITES_FIRST
#include "base.h"
