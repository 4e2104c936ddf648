/* m-count-int-square.c - attention_param_count squares d_model in int: right
 * up to d_model = 46340, wrong past it: the case (65536, 4) reaches it (the
 * old checker's largest, 32768, did not). The plain build names the
 * wrapped int; under LAB_SANITIZE=1 UBSan stops the overflow, quoted.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect@plain: attention_param_count(&count, 65536, 4) set count = 0; expected 17179869184
 * expect@plain: hint: your count, 0, is the right one, 17179869184, cut to 32 bits
 * expect-re@sanitize: CRASH attention_param_count, case 'd_model=65536 n_heads=4': UndefinedBehaviorSanitizer: judge/lab01/subjects/m-count-int-square.c:[0-9]+:[0-9]+: runtime error: signed integer overflow: 65536 \* 65536 cannot be represented in type 'int'
 * expect-re: ^attention_param_count +0 +7 +2$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0) return MM_EINVAL;
    if ((long)d_model > LONG_MAX / 4 / d_model) return MM_ERANGE;
    int square = d_model * d_model;          /* overflows int past 46340 */
    *count = 4L * square;
    return MM_OK;
}
