/* m-count-divisible.c - attention_param_count does not check that n_heads
 * divides d_model: (65, 4) gives 16705 instead of -1.
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count(65, 4) returned 16705; expected -1 (the arguments are invalid)
 * expect: hint: 65 is not divisible by 4
 * expect-re: ^attention_param_count +0 +4 +1$
 */
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0) return -1;
    long d = d_model, d_k = d_model / n_heads;
    return n_heads * 3 * d * d_k + d * d;
}
