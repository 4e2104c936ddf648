/* m-count-no-wo.c - attention_param_count leaves out W_O: 12288 for (64, 4).
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=64 n_heads=4': attention_param_count(&count, 64, 4) set count = 12288; expected 16384
 * expect: hint: you left out W_O
 * expect-re: ^attention_param_count +0 +3 +6$ */
#define MUTANT_attention_param_count
#include "base.h"

COUNT_AS(n_heads * 3 * d * d_k)
