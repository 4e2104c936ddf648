/* skeleton.c - the untouched skeleton, labs/lab05-speed/fast.c as committed
 * (the build copies it to pristine-skeleton.c: the file itself when it
 * still marks every function LAB_TODO(), else git's HEAD version; see
 * judge/selftest/pristine.sh): every check is pending, none fails, and the run
 * succeeds.
 * expect-exit: 0
 * expect: 45 checks pending
 * expect-re: ^softmax_online +13 +0 +0$
 * expect-re: ^sdpa_causal_tiled +17 +0 +0$
 * expect-re: ^mha_decode_step +15 +0 +0$
 * expect-not: FAIL
 */
#include "pristine-skeleton.c"
