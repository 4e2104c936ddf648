/* m-forward-causal-float-long.c - the causal layer with each head's
 * attention written out (own.h), which keeps the scores in float for a
 * long sequence (T > 64), to go faster: every fixed case (12 tokens at
 * most) passes; the three long random cases (T = 1024, and 256 to 320
 * twice) fail.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward_causal, case 'random T=1024, d_model=64, [24] heads \(seed [0-9]+\)': (out|weights) is wrong
 * expect-re: ^mha_forward_causal +0 +17 +3$
 */
#define OWN_SCORE(s, i, j) ((j) <= (i) ? (T > 64 ? (double)(float)(s) : (s)) : -INFINITY)
#include "own.h"
