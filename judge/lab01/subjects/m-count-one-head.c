/* m-count-one-head.c - attention_param_count counts the matrices of one head.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: set count = 7168; expected 16384
 * expect: hint: your count has 3 d_model d_k weights for W_Q, W_K and W_V: that is one head's
 * expect-re: ^attention_param_count +0 +4 +5$ */
#define MUTANT_attention_param_count
#include "base.h"

COUNT_AS(3 * d * d_k + d * d)
