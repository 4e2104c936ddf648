/* m-count-changed.c - attention_param_count sets *count = -1 before it
 * checks its arguments (the habit of a function that returns -1 on
 * failure): a failed call changes the caller's count.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=65 n_heads=4': attention_param_count(&count, 65, 4) failed with MM_EINVAL but changed count from 7654321 to -1
 * expect: hint: write *count only once every check has passed
 * expect-re: ^attention_param_count +0 +5 +4$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    *count = -1;
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    COUNT_RETURN(n_heads * 3 * d * d_k + d * d);
}
