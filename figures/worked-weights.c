/* worked-weights.c - data of the figure "worked-weights": chapter 01's worked
 * example (tangled/examples/ch01-worked.h), computed with the library:
 *   scores Q K^T, weights = row-wise softmax (unscaled), out = weights V.
 * Output (stdout), two gnuplot data blocks:
 *   index 0  the (T, T) weight matrix, row i = query, column j = key
 *   index 1  row 0: key j, score s_0j, weight w_0j
 * With --facts: every input size and computed number, 10 decimals. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/core/matrix.h"
#include "minimodel/attention/qkv.h"
#include "examples/ch01-worked.h"

enum { T = CH01_T, D_MODEL = CH01_D, D_K = CH01_D, D_V = CH01_D };

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    const double *x = ch01_x, *w_q = ch01_w_q, *w_k = ch01_w_k, *w_v = ch01_w_v;
    double q[T * D_K], k[T * D_K], v[T * D_V];
    double scores[T * T], weights[T * T], out[T * D_V];

    need_ok(qkv_project(q, k, v, x, w_q, w_k, w_v, T, D_MODEL, D_K, D_V),
            "qkv_project");
    need_ok(mm_matmul(scores, q, k, T, D_K, T, true), "mm_matmul (Q K^T)");
    need_ok(qkv_attend_unscaled(out, weights, q, k, v, T, D_K, D_V),
            "qkv_attend_unscaled");

    if (facts) {
        printf("T=%d\nd_model=%d\nd_k=%d\nd_v=%d\n", T, D_MODEL, D_K, D_V);
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                printf("s%d%d=%.10f\n", i, j, scores[i * T + j]);
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                printf("w%d%d=%.10f\n", i, j, weights[i * T + j]);
        for (int i = 0; i < T; i++)
            printf("rowsum%d=%.10f\n", i, weights[i * T] + weights[i * T + 1]);
        for (int i = 0; i < T; i++)
            for (int c = 0; c < D_V; c++)
                printf("out%d%d=%.10f\n", i, c, out[i * D_V + c]);
        /* softmax(0, 1) from its formula, independently of the library */
        printf("softmax01_0=%.10f\n", 1.0 / (1.0 + exp(1.0)));
        printf("softmax01_1=%.10f\n", exp(1.0) / (1.0 + exp(1.0)));
        return 0;
    }
    printf("# worked-weights: softmax(Q K^T) of chapter 01's worked example\n");
    printf("# index 0: weights, row i = query position, column j = key position\n");
    print_matrix(weights, T, T);
    printf("\n\n# index 1: query row 0: key j, score s_0j, weight w_0j\n");
    for (int j = 0; j < T; j++)
        printf("%d %.10f %.10f\n", j, scores[j], weights[j]);
    return 0;
}
