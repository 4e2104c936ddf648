/* solution.c - lab 02 solved as a learner would (base.h): every check passes.
 * expect-exit: 0
 * expect: All 39 checks pass
 * expect-re: ^softmax_row +0 +18 +0$
 * expect-re: ^sdpa +0 +21 +0$
 */
#include "base.h"
