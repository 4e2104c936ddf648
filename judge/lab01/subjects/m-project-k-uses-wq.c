/* m-project-k-uses-wq.c - qkv_project computes K with W_Q (a copy-paste slip).
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'worked example of chapter 01
 * expect: hint: your k is X W_Q: K = X W_K */
#define MUTANT_qkv_project
#include "base.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    if (!w_k) return MM_EINVAL;
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_q, T, d_model, d_k, false));
    return mm_matmul(v, x, w_v, T, d_model, d_v, false);
}
