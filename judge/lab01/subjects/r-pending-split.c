/* r-pending-split.c - everything written except qkv_split, which still
 * calls LAB_TODO(): qkv_project_fused, which calls it, is pending too, and
 * nothing fails.
 * expect-exit: 0
 * expect: 16 checks pending
 * expect-re: ^qkv_split +9 +0 +0$
 * expect-re: ^qkv_project_fused +7 +2 +0$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    LAB_TODO();
}
