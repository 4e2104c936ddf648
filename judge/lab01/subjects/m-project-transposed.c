/* m-project-transposed.c - qkv_project reads each weight matrix transposed
 * (in product(), which base.h's qkv_project calls): element (i, j) of W
 * taken from w[j * d_model + i].
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong
 * expect: hint: you read the weight matrices transposed
 * expect-re: ^qkv_project +0 +[0-9]+ +[1-9][0-9]*$ */
#define MUTANT_product
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = 0.0;
            for (int i = 0; i < d_model; i++)
                sum += x[t * d_model + i] * w[j * d_model + i];
            out[t * d + j] = sum;
        }
}
