/* hd-int-min-div.c - attention_param_count makes a check of its own on a
 * negative n_heads before refusing bad sizes: (INT_MIN + d_model % 64) /
 * (n_heads / 4), for (64, -4) INT_MIN / -1, whose quotient, 2147483648, does
 * not fit in an int: the processor traps (SIGFPE) as for a division by
 * zero. The judge names both causes (the old one asked only "an integer
 * division by zero?"); in the sanitizer build UBSan stops it first, and the
 * judge explains its report.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect@plain: CRASH attention_param_count, case 'd_model=64 n_heads=-4': crashed (signal 8, SIGFPE, an arithmetic exception: an integer division by zero, or one that overflows (INT_MIN / -1))
 * expect-re@sanitize: CRASH attention_param_count, case 'd_model=64 n_heads=-4': UndefinedBehaviorSanitizer: judge/lab01/subjects/hd-int-min-div.c:[0-9]+:[0-9]+: runtime error: division of -2147483648 by -1 cannot be represented in type 'int'
 * expect@sanitize: (the most negative value of a signed type divided by -1 overflows: INT_MIN / -1 would be 2147483648, one past INT_MAX; so does INT_MIN % -1)
 * expect: call in flight: attention_param_count(&count, 64, -4)
 * expect-re: ^attention_param_count +0 +8 +1$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    if (n_heads < 0) {                                  /* "sanity" */
        volatile int quotient = (INT_MIN + d_model % 64) / (n_heads / 4);
        if (quotient == 0) return MM_EINVAL;
    }
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    COUNT_RETURN(4 * d * d_k * n_heads);
}
