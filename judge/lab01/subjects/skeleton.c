/* skeleton.c - the untouched skeleton, labs/lab01-qkv/qkv.c as committed
 * (the build copies it to pristine-skeleton.c: the file itself when it
 * still marks every function LAB_TODO(), else git's HEAD version; see
 * judge/selftest/pristine.sh): every check is pending, none fails, and the run
 * succeeds.
 * expect-exit: 0
 * expect: 45 checks pending
 * expect-re: ^qkv_project +9 +0 +0$
 * expect-re: ^qkv_pack +9 +0 +0$
 * expect-re: ^qkv_split +9 +0 +0$
 * expect-re: ^qkv_project_fused +9 +0 +0$
 * expect-re: ^attention_param_count +9 +0 +0$ */
#include "pristine-skeleton.c"
