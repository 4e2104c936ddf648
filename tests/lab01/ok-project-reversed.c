/* ok-project-reversed.c - qkv_project right, but it adds the terms of each
 * dot product in the opposite order to the library's: rounding differs in
 * the last bits, and every check still passes.
 * expect-filter: qkv_project
 * expect-exit: 0
 * expect: All 7 checks pass
 */
#define MUTANT_qkv_project
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = 0.0;
            for (int i = d_model - 1; i >= 0; i--) sum += x[t * d_model + i] * w[i * d + j];
            out[t * d + j] = sum;
        }
}

mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    if (!q || !k || !v || !x || !w_q || !w_k || !w_v) return MM_EINVAL;
    if (T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}
