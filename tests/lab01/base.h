/* base.h - lab 01 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of tests/lab01/ includes it after defining
 * MUTANT_<function> for the one function it writes itself (with one
 * mistake); solution.c defines none. A subject that defines MUTANT_product
 * writes only product(), with its mistake, and qkv_project below calls it
 * once per projection instead of mm_matmul. */
#include <stddef.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

#ifdef MUTANT_product
/* product - out (T, d) = x (T, d_model) w (d_model, d), as the subject writes it */
static void product(double *out, const double *x, const double *w, int T, int d_model, int d);
#endif

#ifndef MUTANT_qkv_project
mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    MM_TRY(mm_need_buffer("qkv_project", "q", q));
    MM_TRY(mm_need_buffer("qkv_project", "k", k));
    MM_TRY(mm_need_buffer("qkv_project", "v", v));
    MM_TRY(mm_need_buffer("qkv_project", "x", x));
    MM_TRY(mm_need_buffer("qkv_project", "w_q", w_q));
    MM_TRY(mm_need_buffer("qkv_project", "w_k", w_k));
    MM_TRY(mm_need_buffer("qkv_project", "w_v", w_v));
    MM_TRY(mm_need_positive("qkv_project", "T", T));
    MM_TRY(mm_need_positive("qkv_project", "d_model", d_model));
    MM_TRY(mm_need_positive("qkv_project", "d_k", d_k));
    MM_TRY(mm_need_positive("qkv_project", "d_v", d_v));
#ifdef MUTANT_product
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
#else
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_k, T, d_model, d_k, false));
    return mm_matmul(v, x, w_v, T, d_model, d_v, false);
#endif
}
#endif

#ifndef MUTANT_qkv_pack
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_TRY(mm_need_buffer("qkv_pack", "w_qkv", w_qkv));
    MM_TRY(mm_need_buffer("qkv_pack", "w_q", w_q));
    MM_TRY(mm_need_buffer("qkv_pack", "w_k", w_k));
    MM_TRY(mm_need_buffer("qkv_pack", "w_v", w_v));
    MM_TRY(mm_need_positive("qkv_pack", "d_model", d_model));
    MM_TRY(mm_need_positive("qkv_pack", "d_k", d_k));
    MM_TRY(mm_need_positive("qkv_pack", "d_v", d_v));
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++) {
        double *row = w_qkv + (size_t)i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_q[(size_t)i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_k[(size_t)i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[(size_t)i * d_v + j];
    }
    return MM_OK;
}
#endif

#ifndef MUTANT_qkv_split
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    MM_TRY(mm_need_buffer("qkv_split", "q", q));
    MM_TRY(mm_need_buffer("qkv_split", "k", k));
    MM_TRY(mm_need_buffer("qkv_split", "v", v));
    MM_TRY(mm_need_buffer("qkv_split", "qkv", qkv));
    MM_TRY(mm_need_positive("qkv_split", "T", T));
    MM_TRY(mm_need_positive("qkv_split", "d_k", d_k));
    MM_TRY(mm_need_positive("qkv_split", "d_v", d_v));
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        const double *row = qkv + (size_t)t * width;
        for (int j = 0; j < d_k; j++) q[(size_t)t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) k[(size_t)t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[(size_t)t * d_v + j] = row[2 * d_k + j];
    }
    return MM_OK;
}
#endif

#ifndef MUTANT_qkv_project_fused
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    MM_TRY(mm_need_buffer("qkv_project_fused", "q", q));
    MM_TRY(mm_need_buffer("qkv_project_fused", "k", k));
    MM_TRY(mm_need_buffer("qkv_project_fused", "v", v));
    MM_TRY(mm_need_buffer("qkv_project_fused", "qkv", qkv));
    MM_TRY(mm_need_buffer("qkv_project_fused", "x", x));
    MM_TRY(mm_need_buffer("qkv_project_fused", "w_qkv", w_qkv));
    MM_TRY(mm_need_positive("qkv_project_fused", "T", T));
    MM_TRY(mm_need_positive("qkv_project_fused", "d_model", d_model));
    MM_TRY(mm_need_positive("qkv_project_fused", "d_k", d_k));
    MM_TRY(mm_need_positive("qkv_project_fused", "d_v", d_v));
    MM_TRY(mm_matmul(qkv, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}
#endif

#ifndef MUTANT_attention_param_count
long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    long d = d_model, d_k = d_model / n_heads;
    return n_heads * 3 * d * d_k + d * d;
}
#endif
