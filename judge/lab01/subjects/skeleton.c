/* skeleton.c - the untouched skeleton, labs/lab01-qkv/qkv.c as committed
 * (copied to pristine-skeleton.c by judge/selftest/pristine.sh): every
 * check is pending, none fails, and the run succeeds.
 * expect-exit: 0
 * expect: 45 checks pending
 * expect-re: ^qkv_project +9 +0 +0$
 * expect-re: ^qkv_pack +9 +0 +0$
 * expect-re: ^qkv_split +9 +0 +0$
 * expect-re: ^qkv_project_fused +9 +0 +0$
 * expect-re: ^attention_param_count +9 +0 +0$ */
#include "pristine-skeleton.c"
