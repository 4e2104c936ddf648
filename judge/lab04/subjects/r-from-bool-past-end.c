/* r-from-bool-past-end.c - mask_from_bool reads one bool past the end of
 * allowed (a loop to n included). allowed is a buffer of bytes (one bool an
 * element) with a protected page right after it: the read stops the call,
 * and the report names the buffer and the element, counted in bools.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: CRASH mask_from_bool, case 'the causal truth table: allowed = [[1,0,0,0],[1,1,0,0],[1,1,1,0],[1,1,1,1]]': read past the end of allowed (element 16; allowed is (4, 4), elements 0 to 15)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab04/subjects/r-from-bool-past-end.c:[0-9]+ \(in mask_from_bool\)
 */
#define MUTANT_mask_from_bool
#include "base.h"
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(allowed);
    size_t n = (size_t)T_q * T_k;
    int seen = 0;
    for (size_t e = 0; e <= n; e++) seen += allowed[e];     /* "how many are true" */
    for (size_t e = 0; e < n && seen >= 0; e++) bias[e] = allowed[e] ? 0.0 : -INFINITY;
    return MM_OK;
}
