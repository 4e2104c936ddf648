/* m-project-float.c - qkv_project sums in float (in product(), which
 * base.h's qkv_project calls): errors near 1e-7, far outside the tolerance.
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect-re: qkv_project, case 'random T=[0-9]+ d_model=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': q is wrong
 * expect-re: tolerance \|got - expected\| <= 1e-10 \* [0-9.]+ \+ 1e-09 \|expected\|$ */
#define MUTANT_product
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float sum = 0.0f;
            for (int i = 0; i < d_model; i++) sum += (float)(x[t * d_model + i] * w[i * d + j]);
            out[t * d + j] = sum;
        }
}
