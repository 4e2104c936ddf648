/* m-project-no-checks.c - qkv_project checks its pointers but not its sizes,
 * and its own loops do nothing for a size of 0 or less.
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'T = 0': returned MM_OK (0) for T = 0; expected MM_EINVAL (1)
 * expect: qkv_project, case 'd_v = -3': returned MM_OK (0) for d_v = -3
 * expect: hint: check every size before using it
 * expect-re: ^qkv_project +0 +8 +1$ */
#define MUTANT_qkv_project
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
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
    if (!q || !k || !v || !x || !w_q || !w_k || !w_v) return MM_EINVAL;
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}
