/* r-oob-v40.c - qkv_split is right, then writes one stray element 40 past
 * the end of v. The page after every buffer is protected: the write stops
 * the call at once, the buffer and element named (the old checker's
 * 8-double guard zone missed it; LAB_SANITIZE=1 also names the line).
 * run-only: qkv_split
 * expect-exit: 1
 * expect: CRASH qkv_split, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': wrote past the end of v (element 44; v is (2, 2), elements 0 to 3)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab01/subjects/r-oob-v40.c:[0-9]+ \(in qkv_split\)
 * expect-re: ^qkv_split +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    split_rows(q, k, v, qkv, T, d_k, d_v);
    v[T * d_v + 40] = 0.0;
    return MM_OK;
}
