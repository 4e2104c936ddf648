/* r-causal-no-size-check.c - mask_causal checks T > 0 but not T x T: with
 * T = INT_MAX it starts writing a mask of 2^62 doubles into a (2, 2)
 * buffer, and the protected page after bias stops it at its fifth element.
 * run-only: mask_causal
 * expect-exit: 1
 * expect: CRASH mask_causal, case 'T = INT_MAX': wrote past the end of bias (element 4; bias is (2, 2), elements 0 to 3)
 * expect: call in flight: mask_causal(bias, 2147483647)
 * expect-re: ^mask_causal +0 +7 +1$
 */
#define ARGS_NO_SIZE_PRODUCT
#include "base.h"
