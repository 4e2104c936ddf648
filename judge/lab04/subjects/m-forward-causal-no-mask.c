/* m-forward-causal-no-mask.c - mha_forward_causal builds the mask, then
 * passes no bias to mha_forward: every token sees the future, and the
 * outputs of the first 7 tokens change when 5 more are appended.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mha_forward_causal gives what mha_forward gives with no mask at all
 * expect: the future leaks into the past
 * expect: hint: with the causal mask, token t sees tokens 0 .. t and nothing after
 */
#define FC_BIAS NULL
#include "base.h"
