/* m-project-transposed.c - qkv_project reads each weight matrix transposed:
 * element (i, j) of W taken from w[j * d_model + i].
 * expect-filter: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong
 * expect: hint: you read the weight matrices transposed
 * expect-re: ^qkv_project +0 +[0-9]+ +[1-9][0-9]*$
 */
#define MUTANT_qkv_project
#include "base.h"

static void project(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = 0.0;
            for (int i = 0; i < d_model; i++)
                sum += x[t * d_model + i] * w[j * d_model + i];
            out[t * d + j] = sum;
        }
}

mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    if (!q || !k || !v || !x || !w_q || !w_k || !w_v) return MM_EINVAL;
    if (T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    project(q, x, w_q, T, d_model, d_k);
    project(k, x, w_k, T, d_model, d_k);
    project(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}
