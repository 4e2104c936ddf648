/* m-forward-causal-no-weights.c - mha_forward_causal passes NULL for the
 * weights to mha_forward: out is right, weights never written.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: out is right but weights was never written
 */
#define FC_WEIGHTS NULL
#include "base.h"
