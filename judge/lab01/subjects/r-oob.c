/* r-oob.c - qkv_split copies one element too many per row of v (j <= d_v):
 * on the last row it reads past the end of qkv (and would write past v),
 * which stops it at once, the buffer and element named.
 * run-only: qkv_split qkv_project_fused
 * expect-exit: nonzero
 * expect: CRASH qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': read past the end of qkv (element 21; qkv is (3, 7), elements 0 to 20)
 * expect-re: ^qkv_split +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < d_k; j++) q[t * d_k + j] = qkv[t * width + j];
        for (int j = 0; j < d_k; j++) k[t * d_k + j] = qkv[t * width + d_k + j];
        for (int j = 0; j <= d_v; j++) v[t * d_v + j] = qkv[t * width + 2 * d_k + j];
    }
    return MM_OK;
}
