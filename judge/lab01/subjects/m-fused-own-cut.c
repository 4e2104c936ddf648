/* m-fused-own-cut.c - qkv_project_fused computes qkv right but cuts q, k, v
 * out of it itself, reading it as three stacked matrices, instead of calling
 * qkv_split (which is right). The harness's probe of qkv_split says so.
 * run-only: qkv_split qkv_project_fused
 * expect-exit: nonzero
 * expect: hint: qkv holds X W_QKV as it should, but q, k and v are not cut out of it the way your qkv_split does
 * expect: hint: you read qkv as Q, then K, then V, one whole matrix after another
 * expect-re: ^qkv_split +0 +9 +0$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (!q || !k || !v || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    MM_TRY(mm_matmul(qkv, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    size_t n_k = (size_t)T * d_k;
    memcpy(q, qkv, n_k * sizeof *q);
    memcpy(k, qkv + n_k, n_k * sizeof *k);
    memcpy(v, qkv + 2 * n_k, (size_t)T * d_v * sizeof *v);
    return MM_OK;
}
