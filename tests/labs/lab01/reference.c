/* reference.c - the library's own module, tangled/minimodel/attention/qkv.c,
 * compiled as if it were the learner's file: every check passes.
 * expect-exit: 0
 * expect: All 35 checks pass
 * expect-re: ^total +0 +35 +0$
 */
#include "minimodel/attention/qkv.c"
