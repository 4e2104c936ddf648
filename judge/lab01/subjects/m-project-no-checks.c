/* m-project-no-checks.c - qkv_project checks its pointers but not its sizes,
 * and its own loops do nothing for a size of 0 or less (r-segv.c with
 * pointer checks in place of its size checks).
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'T = 0': returned MM_OK (0) for T = 0; expected MM_EINVAL (1)
 * expect: qkv_project, case 'd_v = -3': returned MM_OK (0) for d_v = -3
 * expect: hint: check every size before using it
 * expect-re: ^qkv_project +0 +8 +1$ */
#define REFUSED (!q || !k || !v || !x || !w_q || !w_k || !w_v)
#include "r-segv.c"
