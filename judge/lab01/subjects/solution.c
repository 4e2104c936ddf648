/* solution.c - lab 01 solved in a learner's style (base.h, no mutant):
 * every check passes.
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^total +0 +45 +0$ */
#include "base.h"
