/* r-from-bool-changes-allowed.c - mask_from_bool turns the table into a
 * bias, then "cleans up" by setting allowed to false everywhere (a cast
 * drops the const): allowed is an input of bytes, and a change to it is
 * reported with the element, as 0 and 1.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: changed its input allowed: element (0, 0) was 1, is now 0 (inputs are read-only)
 */
#define MUTANT_mask_from_bool
#include "base.h"
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(allowed);
    BOOL_CHECK_OVERLAP();
    size_t n = (size_t)T_q * T_k;
    for (size_t e = 0; e < n; e++) bias[e] = allowed[e] ? 0.0 : -INFINITY;
    memset((bool *)allowed, 0, n * sizeof *allowed);
    return MM_OK;
}
