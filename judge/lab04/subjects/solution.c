/* solution.c - lab 04 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 65 checks pass
 * expect-re: ^mask_causal +0 +8 +0$
 * expect-re: ^mask_padding +0 +11 +0$
 * expect-re: ^mask_from_bool +0 +11 +0$
 * expect-re: ^mask_combine +0 +15 +0$
 * expect-re: ^mha_forward_causal +0 +20 +0$
 */
#include "base.h"
