/* u-ref-copies.c - h-ref-copies.c linked without the symbol checks: the
 * learner's process holds no reference, so the link fails, plainly.
 * build: unvetted
 * expect-exit: 1
 * expect: Your file judge/lab01/subjects/u-ref-copies.c compiles, but it does not link with the lab's driver:
 * expect: undefined reference to `ref_qkv_project' */
#include "h-ref-copies.c"
