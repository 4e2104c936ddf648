/* r-from-bool-before-start.c - mask_from_bool writes one bool before the
 * start of allowed, in the bytes of its page that the harness guards: the
 * damage is found after the call, and named in bools.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect@plain: wrote before the start of allowed (element -1; allowed is (4, 4), elements 0 to 15)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab04/subjects/r-from-bool-before-start.c:[0-9]+ \(in mask_from_bool\)
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
    ((bool *)allowed)[-1] = true;                     /* "a marker" */
    return MM_OK;
}
