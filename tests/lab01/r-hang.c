/* r-hang.c - attention_param_count counts head by head with a step of 2,
 * so it never stops when n_heads is odd. The harness stops the check at
 * its timeout and names the call in flight.
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: HANG  attention_param_count, case 'd_model=12 n_heads=3': did not return within
 * expect: call in flight: attention_param_count(12, 3)
 * expect-re: ^attention_param_count +0 +4 +1$
 */
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    long d = d_model, d_k = d_model / n_heads, count = d * d;
    for (int h = 0; h != n_heads; h += 2) {  /* two heads at a time */
        if (mm_need_positive("attention_param_count", "d_k", d_k) != MM_OK) return -1;
        count += 2 * 3 * d * d_k;
    }
    return count;
}
