/* r-malloc-scratch.c - qkv_project_fused sums X W_QKV into memory from
 * malloc that it never set to 0. Fresh malloc memory holds a poison value
 * in the learner's process (it is often 0 in a fresh program, which let
 * the worked example pass before): every case fails, with the hint.
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect: FAIL  qkv_project_fused, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': q is wrong (k, v and qkv are wrong too)
 * expect: hint: the wrong elements of q are the expected values plus -8765432.5, what fresh memory from malloc holds under the harness
 * expect-re: ^qkv_project_fused +0 +3 +6$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *sum = malloc((size_t)T * width * sizeof *sum);
    if (!sum) return MM_ENOMEM;
    for (int t = 0; t < T; t++)
        for (int j = 0; j < width; j++)
            for (int i = 0; i < d_model; i++)
                sum[t * width + j] += x[t * d_model + i] * w_qkv[i * width + j];
    memcpy(qkv, sum, (size_t)T * width * sizeof *sum);
    free(sum);
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}
