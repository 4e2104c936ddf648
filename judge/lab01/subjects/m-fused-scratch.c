/* m-fused-scratch.c - qkv_project_fused gets q, k, v right through a buffer
 * of its own and never fills the caller's qkv.
 * run-only: qkv_project_fused
 * expect-exit: nonzero
 * expect: qkv_project_fused, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': qkv is wrong
 * expect: hint: q, k and v are right but qkv is not X W_QKV */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (!qkv || T <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    double *mine = malloc((size_t)T * (2 * d_k + d_v) * sizeof *mine);
    if (!mine) return MM_ENOMEM;
    mm_status s = mm_matmul(mine, x, w_qkv, T, d_model, 2 * d_k + d_v, false);
    if (s == MM_OK) s = qkv_split(q, k, v, mine, T, d_k, d_v);
    free(mine);
    return s;
}
