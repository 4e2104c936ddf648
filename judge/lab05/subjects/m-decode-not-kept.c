/* m-decode-not-kept.c - mha_decode_step computes out and stores the
 * token's key and value, but leaves cache->T as it was: the next step
 * overwrites that row, and the token is lost.
 * run-only: mha_decode_step
 * expect-exit: 1
 * expect: CHECK=mha_decode_step/c1_worked_layer
 * expect: the step returned MM_OK, but cache->T is 0 after it
 * expect: hint: a step that succeeds keeps its token: cache->T = t + 1 at the end
 * expect-re: ^  contract \(eN\) +0 +5 +0$
 */
#define DECODE_KEEP(cache, t) ((void)(cache), (void)(t))
#include "base.h"
