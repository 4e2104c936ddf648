/* h-raw-exit.c - qkv_project ends its process with the exit system call
 * made directly (no symbol: the symbol checks see nothing). The judge sees
 * the process end inside the call: every check of qkv_project fails, with
 * the call in flight; the other functions (solved) pass.
 * expect-exit: 1
 * expect: CRASH qkv_project, case 'non-square T=3 d_model=4 d_k=2 d_v=3': ended the process with exit status 0, from inside qkv_project
 * expect: call in flight: qkv_project(q, k, v, x, w_q, w_k, w_v, 3, 4, 2, 3)
 * expect-re: ^qkv_project +0 +0 +9$
 * expect-re: ^total +0 +36 +9$ */
#define MUTANT_qkv_project
#include "base.h"
#include "hostile.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    raw_syscall(RAW_EXIT_GROUP, 0, 0, 0, 0);
    return MM_OK;
}
