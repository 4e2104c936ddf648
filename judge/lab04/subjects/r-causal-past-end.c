/* r-causal-past-end.c - mask_causal writes its rows with j running to T
 * included (j <= T, "up to the end"): the last write of the last row goes
 * one element past the end of bias. The protected page stops the call and
 * the report names the buffer and the element. In mha_forward_causal the
 * mask is its own malloc'd block, and the write past it is found after the
 * call (plain build: a canary) or at once (AddressSanitizer names the
 * line).
 * expect-exit: 1
 * expect: CRASH mask_causal, case 'the chapter's causal mask: T = 3': wrote past the end of bias (element 9; bias is (3, 3), elements 0 to 8)
 * expect@plain: mha_forward_causal wrote past the end of a block it allocated (72 bytes, with malloc/calloc/realloc)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab04/subjects/r-causal-past-end.c:[0-9]+ \(in mask_causal\)
 */
#define MUTANT_mask_causal
#include "base.h"
mm_status mask_causal(double *bias, int T)
{
    MASK_CHECK_ARGS(bias, T, T);
    for (int i = 0; i < T; i++)
        for (int j = 0; j <= T; j++) bias[(size_t)i * T + j] = j <= i ? 0.0 : -INFINITY;
    return MM_OK;
}
