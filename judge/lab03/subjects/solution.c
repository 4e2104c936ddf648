/* solution.c - lab 03 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 53 checks pass
 * expect-re: ^mha_split_heads +0 +14 +0$
 * expect-re: ^mha_merge_heads +0 +15 +0$
 * expect-re: ^mha_forward +0 +24 +0$
 */
#include "base.h"
