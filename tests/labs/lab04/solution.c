/* solution.c - lab 04 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 50 checks pass
 * expect-re: ^mask_causal +0 +7 +0$
 * expect-re: ^mask_padding +0 +9 +0$
 * expect-re: ^mask_from_bool +0 +9 +0$
 * expect-re: ^mask_combine +0 +11 +0$
 * expect-re: ^mha_forward_causal +0 +14 +0$
 */
#include "base.h"
