/* reference.c - the library's own five functions of chapter 04, from
 * tangled/minimodel/attention/mask.c itself, built as if it were the
 * learner's file: every check passes.
 * build: sees tangled/minimodel/attention/mask.c (the sandbox shows a learner's build
 *   the library's headers only)
 * expect-exit: 0
 * expect: All 65 checks pass
 * expect-re: ^total +0 +65 +0$
 */
#include "minimodel/attention/mask.c"
