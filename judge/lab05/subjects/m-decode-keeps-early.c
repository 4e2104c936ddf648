/* m-decode-keeps-early.c - mha_decode_step sets cache->T = t + 1 before
 * x W_QKV, which can still overflow: the step fails, and the cache has
 * kept a token it never stored.
 * run-only: mha_decode_step
 * expect-exit: 1
 * expect: CHECK=mha_decode_step/e5_overflow
 * expect: hint: a step that fails keeps nothing
 * expect-re: ^mha_decode_step +0 +14 +1$
 */
#define DECODE_KEEP_EARLY
#include "base.h"
