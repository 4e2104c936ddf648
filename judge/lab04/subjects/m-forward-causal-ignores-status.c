/* m-forward-causal-ignores-status.c - mha_forward_causal returns MM_OK
 * whatever mha_forward returns.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: mha_forward refuses x that is not finite
 * expect: hint: mha_forward refuses outputs that share memory
 * expect: hint: mha_forward returns MM_ERANGE when a product overflows
 */
#define FC_FREE(p) (free(p), st = MM_OK)
#include "base.h"
