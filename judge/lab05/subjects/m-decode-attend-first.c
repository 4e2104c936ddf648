/* m-decode-attend-first.c - mha_decode_step attends over the cached keys
 * before it appends the token's own: token t does not see itself, and
 * token 0 sees nothing (its out is 0).
 * run-only: mha_decode_step
 * expect-exit: 1
 * expect: CHECK=mha_decode_step/c1_worked_layer
 * expect: CHECK=mha_decode_step/c3_first_token
 * expect: hint: the cache appended after attending: your step attends before it appends
 */
#define DECODE_ATTEND_FIRST
#include "base.h"
