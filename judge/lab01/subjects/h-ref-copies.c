/* h-ref-copies.c - the five functions handed to the reference's renamed
 * copies (ref_qkv_project, ...), which the old checker linked in beside
 * them. Refused, each name given with its line (u-ref-copies.c: linked
 * without the checks, there is nothing to reach).
 * expect-exit: 1
 * expect: uses ref_qkv_project, which belongs to the harness
 * expect: uses ref_attention_param_count, which belongs to the harness
 * expect-re: ^  judge/lab01/subjects/h-ref-copies.c:[0-9]+: uses ref_qkv_split
 */
#include "minimodel/attention/qkv.h"

#define REF(f) extern __typeof__(f) ref_##f;
REF(qkv_project) REF(qkv_pack) REF(qkv_split) REF(qkv_project_fused) REF(attention_param_count)

mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    return ref_qkv_project(q, k, v, x, w_q, w_k, w_v, T, d_model, d_k, d_v);
}

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    return ref_qkv_pack(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
}

mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    return ref_qkv_split(q, k, v, qkv, T, d_k, d_v);
}

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    return ref_qkv_project_fused(q, k, v, qkv, x, w_qkv, T, d_model, d_k, d_v);
}

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    return ref_attention_param_count(count, d_model, n_heads);
}
