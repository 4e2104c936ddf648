/* r-input.c - qkv_split clears qkv once it has read it (casting away const).
 * run-only: qkv_split
 * expect-exit: nonzero
 * expect: qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': changed its input qkv: element (0, 0) was
 * expect-re: ^qkv_split +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    split_rows(q, k, v, qkv, T, d_k, d_v);
    memset((double *)qkv, 0, (size_t)T * (2 * d_k + d_v) * sizeof *qkv);
    return MM_OK;
}
