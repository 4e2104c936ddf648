/* m-from-bool-transposed.c - mask_from_bool reads allowed[j][i] for
 * element (i, j).
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: hint: you read the table transposed, allowed[j][i]
 */
#define BOOL_SEES(i, j) (allowed[(size_t)(j) * T_q + (i)])
#include "base.h"
