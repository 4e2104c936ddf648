/* sdpa-worked.c - data of the figure "sdpa-worked": row 0 of chapter 01's
 * worked example (tangled/examples/ch01-worked.h) without the scale and
 * with 1/sqrt(d_k), d_k = 2, computed with the library:
 *   unscaled: qkv_attend_unscaled, weights softmax(Q K^T), chapter 01
 *   scaled:   sdpa, weights softmax(Q K^T / sqrt(d_k)), chapter 02
 * Output (stdout), one line per key j of row 0:
 *   j  unscaled weight a_0j  scaled weight a_0j
 * With --facts: the sizes, the scale, both rows of weights and of outputs,
 * 10 decimals. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "examples/ch01-worked.h"

enum { T = CH01_T, D_MODEL = CH01_D, D_K = CH01_D, D_V = CH01_D };

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    double q[T * D_K], k[T * D_K], v[T * D_V];
    double w_un[T * T], out_un[T * D_V], w_sc[T * T], out_sc[T * D_V];

    need_ok(qkv_project(q, k, v, ch01_x, ch01_w_q, ch01_w_k, ch01_w_v,
                        T, D_MODEL, D_K, D_V), "qkv_project");
    need_ok(qkv_attend_unscaled(out_un, w_un, q, k, v, T, D_K, D_V),
            "qkv_attend_unscaled");
    need_ok(sdpa(out_sc, w_sc, q, k, v, NULL, T, T, D_K, D_V), "sdpa");

    if (facts) {
        printf("T=%d\nd_model=%d\nd_k=%d\nd_v=%d\nscale=%.10f\nuniform=%.10f\n",
               T, D_MODEL, D_K, D_V, 1.0 / sqrt((double)D_K), 1.0 / T);
        for (int j = 0; j < T; j++)
            printf("unscaled_w0%d=%.10f\nscaled_w0%d=%.10f\n",
                   j, w_un[j], j, w_sc[j]);
        for (int c = 0; c < D_V; c++)
            printf("unscaled_out0%d=%.10f\nscaled_out0%d=%.10f\n",
                   c, out_un[c], c, out_sc[c]);
        return 0;
    }
    printf("# sdpa-worked: row 0 of chapter 01's worked example, d_k = %d\n", D_K);
    printf("# key j, weight a_0j without the scale, with 1/sqrt(d_k)\n");
    for (int j = 0; j < T; j++)
        printf("%d %.10f %.10f\n", j, w_un[j], w_sc[j]);
    return 0;
}
