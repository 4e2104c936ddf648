/* h-nonstatic-helper.c - qkv_project's helper product() is not static: a
 * learner's file defines the lab's functions and nothing else global. The
 * refusal names the helper, its line, and the fix.
 * expect-exit: 1
 * expect-re: ^  judge/lab01/subjects/h-nonstatic-helper.c:[0-9]+: defines product, which is not one of the lab's functions \(qkv_project qkv_pack qkv_split qkv_project_fused attention_param_count\): a helper of yours must be static
 */
#define MUTANT_qkv_project
#include "base.h"

void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = 0.0;
            for (int i = 0; i < d_model; i++) sum += x[t * d_model + i] * w[i * d + j];
            out[t * d + j] = sum;
        }
}

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    PROJECT_CHECK_ARGS();
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}
