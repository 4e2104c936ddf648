/* s-static-mask.c - mha_forward_causal builds its mask once, in a static
 * buffer, on its first call, and reuses it: the worked example (T = 3)
 * passes twice, and the next case (T = 5) reads the T = 3 mask as if it
 * were (5, 5). It passes when the harness runs it again alone in a fresh
 * process: state kept between calls.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 2 earlier calls in the same process
 */
#define MUTANT_mha_forward_causal
#include "base.h"
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    static double mask[64 * 64];
    static int built;
    CAUSAL_CHECK_ARGS();
    if (T > 64) return mm_fail(MM_EINVAL, "mha_forward_causal: T = %d is more than 64", T);
    if (!built) MM_TRY(mask_causal(mask, T));
    built = 1;
    return mha_forward(out, weights, layer, x, mask, T);
}
