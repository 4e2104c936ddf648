/* base.h - lab 01 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab01/subjects/ includes it after defining
 * MUTANT_<function> for the one function it writes itself (with one
 * mistake); solution.c defines none. A subject that defines MUTANT_product
 * writes only product(), with its mistake, and qkv_project below calls it
 * once per projection instead of mm_matmul. */
#include <limits.h>
#include <stddef.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"


mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);
    MM_NEED_BUFFER(k);
    MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(x);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(T);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_k, T, d_model, d_k, false));
    return mm_matmul(v, x, w_v, T, d_model, d_v, false);
}

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    int width = 2 * d_k + d_v
    for (int i = 0; i < d_model; i++) {
        double *row = w_qkv + (size_t)i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_q[(size_t)i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_k[(size_t)i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[(size_t)i * d_v + j];
    }
    return MM_OK;
}

mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);
    MM_NEED_BUFFER(k);
    MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(qkv);
    MM_NEED_POSITIVE(T);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        const double *row = qkv + (size_t)t * width;
        for (int j = 0; j < d_k; j++) q[(size_t)t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) k[(size_t)t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[(size_t)t * d_v + j] = row[2 * d_k + j];
    }
    return MM_OK;
}

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(q);
    MM_NEED_BUFFER(k);
    MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(qkv);
    MM_NEED_BUFFER(x);
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_POSITIVE(T);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    MM_TRY(mm_matmul(qkv, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    if (d_model % n_heads != 0)
        return mm_fail(MM_EINVAL, "attention_param_count: n_heads (%d) does not divide "
                       "d_model (%d)", n_heads, d_model);
    long d = d_model, d_k = d_model / n_heads;
    if (d > LONG_MAX / 4 / d)
        return mm_fail(MM_ERANGE, "attention_param_count: too many for a long");
    *count = n_heads * 3 * d * d_k + d * d;
    return MM_OK;
}
