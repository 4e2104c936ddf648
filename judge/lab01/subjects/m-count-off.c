/* m-count-off.c - attention_param_count counts d_model x (d_model - 1)
 * matrices, wrong everywhere for a reason the catalogue does not know. At
 * (32768, 8) the old checker blamed int overflow for any wrong count; a
 * count is blamed on int only when it is the right one cut to 32 bits.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect: attention_param_count(&count, 32768, 8) set count = 4294836224; expected 4294967296
 * expect-not: cut to 32 bits
 * expect-re: ^attention_param_count +0 +3 +6$ */
#define MUTANT_attention_param_count
#include "base.h"

COUNT_AS(4 * d * (d - 1))
