/* m-count-per-head-dk.c - attention_param_count counts each head's W_Q, W_K
 * and W_V as d_k x d_k. That is the same number as one head's d_model x d_k
 * matrices (n_heads d_k = d_model), so one hint covers both readings; the
 * old one ("you counted one head") misfired here.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect: attention_param_count(&count, 64, 4) set count = 7168; expected 16384
 * expect: (or every head's taken as d_k x d_k)
 * expect-not: you counted the W_Q, W_K and W_V of one head
 * expect-re: ^attention_param_count +0 +4 +5$ */
#define MUTANT_attention_param_count
#include "base.h"

COUNT_AS(n_heads * 3 * d_k * d_k + d * d)
