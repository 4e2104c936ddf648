/* m-split-stacked.c - qkv_split reads qkv as Q, then K, then V, three whole
 * matrices one after another.
 * run-only: qkv_split
 * expect-exit: nonzero
 * expect: hint: you read qkv as Q, then K, then V, one whole matrix after another */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    size_t n_k = (size_t)T * d_k;
    memcpy(q, qkv, n_k * sizeof *q);
    memcpy(k, qkv + n_k, n_k * sizeof *k);
    memcpy(v, qkv + 2 * n_k, (size_t)T * d_v * sizeof *v);
    return MM_OK;
}
