/* solution.c - lab 05 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^softmax_online +0 +13 +0$
 * expect-re: ^sdpa_causal_tiled +0 +17 +0$
 * expect-re: ^mha_decode_step +0 +15 +0$
 */
#include "base.h"
