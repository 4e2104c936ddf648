/* r-count-null.c - attention_param_count never checks count: a NULL count
 * crashes it. The crash names the function, the case and the call.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect@plain: CRASH attention_param_count, case 'count = NULL': crashed (signal 11, SIGSEGV
 * expect-re@sanitize: CRASH attention_param_count, case 'count = NULL': UndefinedBehaviorSanitizer: .*runtime error: store to null pointer
 * expect: call in flight: attention_param_count(NULL, 64, 4)
 * expect-re: ^attention_param_count +0 +8 +1$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    COUNT_RETURN(n_heads * 3 * d * d_k + d * d);
}
