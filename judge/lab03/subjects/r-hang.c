/* r-hang.c - mha_forward walks the heads with a step of 2 (two heads at a
 * time, around the heads again after the last pair) and stops at h ==
 * n_heads, so it never stops when n_heads is odd:
 * the first such case (3 heads) hangs. The harness stops the call at its
 * deadline and names the call in flight; the function's later checks are
 * not run (each would wait as long) and count as failed.
 * run-only: mha_forward
 * expect-exit: nonzero
 * expect: HANG  mha_forward, case 'weights set N(0, 0.5^2) (seed 102), x random (seed 12): T=7 d_model=6 n_heads=3 d_k=2': did not return within
 * expect: call in flight: mha_forward(out, weights, layer->w_qkv, layer->w_o, x, NULL, *layer, 7, 6, 3)
 * expect-re: ^mha_forward +0 +2 +22$
 */
#define FW_HEADS(g)                                                                 \
    for (int p_ = 0; p_ != H && st == MM_OK; p_ = (p_ + 2) % (2 * H))   /* a pair */    \
        for (int g = p_; g <= (p_ + 1 < H ? p_ + 1 : p_) && st == MM_OK && g < H; g++)
#include "base.h"
