/* m-fused-transposed.c - qkv_project_fused reads W_QKV transposed.
 * run-only: qkv_project_fused
 * expect-exit: nonzero
 * expect: hint: you read W_QKV transposed */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++)
        for (int j = 0; j < width; j++) {
            double sum = 0.0;
            for (int i = 0; i < d_model; i++) sum += x[t * d_model + i] * w_qkv[j * d_model + i];
            qkv[t * width + j] = sum;
        }
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}
