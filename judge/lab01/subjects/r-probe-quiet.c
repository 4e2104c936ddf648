/* r-probe-quiet.c - qkv_split cuts the blocks as K | Q | V and leaks a row
 * buffer on every call. qkv_project_fused (solved) calls it; when its
 * check fails, the harness calls qkv_split once more to locate the
 * mistake. That second call reports nothing of its own: the leak is said
 * once per check, not twice (the old checker repeated it without saying).
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect-once: qkv_project_fused, case 'non-square T=3 d_model=4 d_k=2 d_v=3': leaked memory
 * expect: hint: qkv holds X W_QKV as it should, but your qkv_split cuts it wrong on this input
 * expect-re: ^qkv_project_fused +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *row = malloc((size_t)width * sizeof *row);     /* never freed */
    if (!row) return MM_ENOMEM;
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < width; j++) row[j] = qkv[t * width + j];
        for (int j = 0; j < d_k; j++) k[t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) q[t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[t * d_v + j] = row[2 * d_k + j];
    }
    return MM_OK;
}
