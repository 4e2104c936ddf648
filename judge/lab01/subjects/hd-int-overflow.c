/* hd-int-overflow.c - m-count-int-square.c (d_model squared in int). In the
 * sanitizer build UBSan stops the overflow, and the judge adds what its
 * report means for an int (the old judge quoted the report alone); in the
 * plain build the lab's catalogue names the wrapped count.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect@plain: hint: your count, 0, is the right one, 17179869184, cut to 32 bits
 * expect-re@sanitize: CRASH attention_param_count, case 'd_model=65536 n_heads=4': UndefinedBehaviorSanitizer: judge/lab01/subjects/m-count-int-square.c:[0-9]+:[0-9]+: runtime error: signed integer overflow: 65536 \* 65536 cannot be represented in type 'int'
 * expect@sanitize: (a signed integer overflowed: the exact result does not fit in its type - an int holds -2147483648 to 2147483647 -; do that arithmetic in a wider type (long, int64_t), or check the values before it)
 * expect-re: ^attention_param_count +0 +7 +2$ */
#include "m-count-int-square.c"
