/* m-split-kqv.c - qkv_split cuts the blocks in the order K | Q | V: q gets
 * the K block and k the Q block. qkv_project_fused, which calls it, fails
 * too, with the same hint.
 * run-only: qkv_split qkv_project_fused
 * expect-exit: nonzero
 * expect: qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong (k is wrong too)
 * expect: hint: your qkv_split has the K block where Q belongs (your order is K | Q | V)
 * expect: hint: qkv holds X W_QKV as it should, but your qkv_split cuts it wrong on this input
 * expect-re: ^qkv_split +0 +2 +7$
 * expect-re: ^qkv_project_fused +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    for (int t = 0; t < T; t++) {
        const double *row = qkv + (size_t)t * (2 * d_k + d_v);   /* K | Q | V */
        memcpy(k + (size_t)t * d_k, row, d_k * sizeof *k);
        memcpy(q + (size_t)t * d_k, row + d_k, d_k * sizeof *q);
        memcpy(v + (size_t)t * d_v, row + 2 * d_k, d_v * sizeof *v);
    }
    return MM_OK;
}
