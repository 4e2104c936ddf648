/* m-split-stride.c - qkv_split steps through the rows of qkv with the width
 * of each block (d_k, d_v) instead of 2 d_k + d_v. qkv_project_fused, which
 * calls it, fails too, and the harness blames qkv_split.
 * run-only: qkv_split qkv_project_fused
 * expect-exit: nonzero
 * expect: hint: you stepped through the rows of qkv with the width of one block
 * expect-re: qkv_project_fused, case 'random T=[0-9]+ d_model=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': q is wrong
 * expect: hint: qkv holds X W_QKV as it should, but your qkv_split cuts it wrong on this input */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < d_k; j++) q[t * d_k + j] = qkv[t * d_k + j];
        for (int j = 0; j < d_k; j++) k[t * d_k + j] = qkv[d_k + t * d_k + j];
        for (int j = 0; j < d_v; j++) v[t * d_v + j] = qkv[2 * d_k + t * d_v + j];
    }
    return MM_OK;
}
