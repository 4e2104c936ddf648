/* reference.c - the library's own module, tangled/minimodel/attention/qkv.c,
 * as the learner's file: every check passes. Linked without the symbol
 * checks, which would refuse the chapter's other functions it defines
 * (qkv_attend_unscaled, attention_init_weights).
 * build: unvetted
 * build: sees tangled/minimodel/attention/qkv.c (the sandbox shows a learner's build
 *   the library's headers only)
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^total +0 +45 +0$ */
#include "minimodel/attention/qkv.c"
