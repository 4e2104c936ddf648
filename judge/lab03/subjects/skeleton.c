/* skeleton.c - the untouched skeleton, labs/lab03-mha/mha.c as committed
 * (the build copies it to pristine-skeleton.c: the file itself when it
 * still marks every function LAB_TODO(), else git's HEAD version; see
 * judge/selftest/pristine.sh): every check is pending, none fails, and the run
 * succeeds.
 * expect-exit: 0
 * expect: 53 checks pending
 * expect-re: ^mha_split_heads +14 +0 +0$
 * expect-re: ^mha_merge_heads +15 +0 +0$
 * expect-re: ^mha_forward +24 +0 +0$
 * expect-not: FAIL
 */
#include "pristine-skeleton.c"
