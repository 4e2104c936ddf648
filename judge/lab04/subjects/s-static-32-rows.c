/* s-static-32-rows.c - mha_forward_causal builds its mask in a static
 * buffer of 32 x 32, fresh on every call, and refuses a longer sequence
 * with MM_EINVAL: every fixed case (12 tokens at most) passes; the three
 * long random cases (T = 1024, and 256 to 320 twice) fail.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward_causal, case 'random T=[0-9]+, d_model=64, [24] heads \(seed [0-9]+\)': returned MM_EINVAL \(1\) for valid arguments; expected MM_OK
 * expect-re: ^mha_forward_causal +0 +17 +3$
 */
#define MUTANT_mha_forward_causal
#include "base.h"

enum { ROWS = 32 };
static double mask[ROWS * ROWS];

mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    CAUSAL_CHECK_ARGS();
    if (T > ROWS) return mm_fail(MM_EINVAL, "mha_forward_causal: at most %d tokens", ROWS);
    MM_TRY(mask_causal(mask, T));
    return mha_forward(out, weights, layer, x, mask, T);
}
