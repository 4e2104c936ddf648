/* r-oob-q12.c - qkv_split writes q with a row width of d_k + 1 on its last
 * row's overflow: element T d_k + 11, 12 past the end of q (the old
 * checker passed 3 of 5 cases). Every case stops at the write.
 * run-only: qkv_split
 * expect-exit: 1
 * expect: CRASH qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': wrote past the end of q (element 17; q is (3, 2), elements 0 to 5)
 * expect-re: ^qkv_split +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    split_rows(q, k, v, qkv, T, d_k, d_v);
    q[T * d_k + 11] = q[0];                  /* a stray "last element" */
    return MM_OK;
}
