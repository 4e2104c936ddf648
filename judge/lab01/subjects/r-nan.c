/* r-nan.c - qkv_project starts each sum at NAN ("not computed yet") and
 * adds to it (in product(), which base.h's qkv_project calls), so every
 * output is NaN.
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': q has NaN at (0, 0)
 * expect-re: ^qkv_project +0 +2 +7$ */
#include <math.h>
#define MUTANT_product
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
