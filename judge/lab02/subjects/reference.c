/* reference.c - the library's own module, tangled/minimodel/attention/sdpa.c
 * (chapter 02), built as if it were the learner's file: every check passes.
 * build: sees tangled/minimodel/attention/sdpa.c (the sandbox shows a learner's build
 *   the library's headers only)
 * expect-exit: 0
 * expect: All 39 checks pass
 * expect-re: ^total +0 +39 +0$
 */
#include "minimodel/attention/sdpa.c"
