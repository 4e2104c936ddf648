/* skeleton.c - the untouched skeleton, labs/lab04-masking/mask.c as committed
 * (the build copies it to pristine-skeleton.c: the file itself when it
 * still marks every function LAB_TODO(), else git's HEAD version; see
 * judge/selftest/pristine.sh): every check is pending, none fails, and the run
 * succeeds.
 * expect-exit: 0
 * expect: 65 checks pending
 * expect-re: ^mask_causal +8 +0 +0$
 * expect-re: ^mask_padding +11 +0 +0$
 * expect-re: ^mask_from_bool +11 +0 +0$
 * expect-re: ^mask_combine +15 +0 +0$
 * expect-re: ^mha_forward_causal +20 +0 +0$
 * expect-not: FAIL
 */
#include "pristine-skeleton.c"
