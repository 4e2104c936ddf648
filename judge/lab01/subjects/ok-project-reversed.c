/* ok-project-reversed.c - qkv_project right, but its product() (which
 * base.h's qkv_project calls) adds the terms of each dot product in the
 * opposite order to the library's: rounding differs in the last bits, and
 * every check still passes.
 * run-only: qkv_project
 * expect-exit: 0
 * expect: All 9 checks pass */
#define MUTANT_product
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
