/* skeleton.c - the untouched skeleton, labs/lab02-sdpa/sdpa.c as committed
 * (the build copies it to pristine-skeleton.c: the file itself when it
 * still marks every function LAB_TODO(), else git's HEAD version; see
 * judge/selftest/pristine.sh): every check is pending, none fails, and the run
 * succeeds.
 * expect-exit: 0
 * expect: 39 checks pending
 * expect-re: ^softmax_row +18 +0 +0$
 * expect-re: ^sdpa +21 +0 +0$
 * expect-not: FAIL
 */
#include "pristine-skeleton.c"
