/* m-project-accumulate.c - qkv_project adds into q, k, v without setting
 * them to 0 first (in product(), which base.h's qkv_project calls).
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: hint: q holds the expected values plus 7654321.25
 * expect: without setting it to 0 first */
#define MUTANT_product
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int i = 0; i < d_model; i++)
            for (int j = 0; j < d; j++)
                out[t * d + j] += x[t * d_model + i] * w[i * d + j];
}
