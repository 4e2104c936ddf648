/* m-project-accumulate.c - qkv_project adds into q, k, v without setting
 * them to 0 first.
 * expect-filter: qkv_project
 * expect-exit: nonzero
 * expect: hint: q holds the expected values plus 7654321.25
 * expect: without setting it to 0 first
 */
#define MUTANT_qkv_project
#include "base.h"

static void add_product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int i = 0; i < d_model; i++)
            for (int j = 0; j < d; j++)
                out[t * d + j] += x[t * d_model + i] * w[i * d + j];
}

mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    if (!q || !k || !v || !x || !w_q || !w_k || !w_v) return MM_EINVAL;
    if (T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    add_product(q, x, w_q, T, d_model, d_k);
    add_product(k, x, w_k, T, d_model, d_k);
    add_product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}
