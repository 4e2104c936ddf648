/* r-leak.c - qkv_project_fused allocates its own qkv product and never
 * frees it.
 * run-only: qkv_project_fused
 * expect-exit: nonzero
 * expect: qkv_project_fused, case 'non-square T=3 d_model=4 d_k=2 d_v=3': leaked memory: qkv_project_fused allocated 1 block (168 bytes)
 * expect-re: ^qkv_project_fused +0 +2 +7$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    size_t n = (size_t)T * (2 * d_k + d_v);
    double *product = malloc(n * sizeof *product);
    if (!product) return MM_ENOMEM;
    MM_TRY(mm_matmul(product, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    memcpy(qkv, product, n * sizeof *qkv);
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}
