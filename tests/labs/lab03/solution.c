/* solution.c - lab 03 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 43 checks pass
 * expect-re: ^mha_split_heads +0 +12 +0$
 * expect-re: ^mha_merge_heads +0 +13 +0$
 * expect-re: ^mha_forward +0 +18 +0$
 */
#include "base.h"
