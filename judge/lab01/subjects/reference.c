/* reference.c - the library's own module, tangled/minimodel/attention/qkv.c,
 * built as if it were the learner's file: every check passes. It is linked
 * without the symbol checks, which would refuse it: besides the lab's five
 * functions it defines the chapter's others (qkv_attend_unscaled,
 * attention_init_weights), which a learner's file may not.
 * build: unvetted
 * build: sees tangled/minimodel/attention/qkv.c (the sandbox shows a learner's build
 *   the library's headers only)
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^total +0 +45 +0$ */
#include "minimodel/attention/qkv.c"
