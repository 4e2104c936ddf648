/* m-count-full-heads.c - attention_param_count gives every head full
 * d_model x d_model matrices: 53248 for (64, 4).
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count(&count, 64, 4) set count = 53248; expected 16384
 * expect: hint: each head's W_Q, W_K and W_V are d_model x d_k
 * expect-re: ^attention_param_count +0 +4 +5$ */
#define MUTANT_attention_param_count
#include "base.h"

COUNT_AS(n_heads * 3 * d * d + d * d)
