/* solution.c - lab 02 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 30 checks pass
 * expect-re: ^softmax_row +0 +13 +0$
 * expect-re: ^sdpa +0 +17 +0$
 */
#include "base.h"
