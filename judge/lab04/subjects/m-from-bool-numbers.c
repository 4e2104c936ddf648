/* m-from-bool-numbers.c - mask_from_bool copies the bools as numbers, 1.0
 * and 0.0.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: hint: you copied the bools as numbers, 1 for true and 0 for false
 */
#define MUTANT_mask_from_bool
#include "base.h"
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(allowed);
    BOOL_CHECK_OVERLAP();
    for (size_t e = 0; e < (size_t)T_q * T_k; e++) bias[e] = allowed[e];
    return MM_OK;
}
