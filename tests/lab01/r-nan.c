/* r-nan.c - qkv_project starts each sum at NAN ("not computed yet") and
 * adds to it, so every output is NaN.
 * expect-filter: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'worked example of chapter 01: X = I, W_Q = I, W_K = [[0,1],[1,0]], W_V = diag(2,3)': q has NaN at (0, 0)
 * expect-re: ^qkv_project +0 +2 +5$
 */
#include <math.h>
#define MUTANT_qkv_project
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = NAN;
            for (int i = 0; i < d_model; i++) sum += x[t * d_model + i] * w[i * d + j];
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
