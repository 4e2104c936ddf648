/* m-forward-causal-no-size-check.c - mha_forward_causal allocates T * T *
 * 8 bytes without checking T x T first: with T = INT_MAX the size wraps
 * around, malloc fails, and the call returns MM_ENOMEM instead of
 * MM_EINVAL.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: returned MM_ENOMEM
 * expect: hint: check T x T before you allocate the mask
 */
#define ARGS_CAUSAL_NO_SIZE
#include "base.h"
