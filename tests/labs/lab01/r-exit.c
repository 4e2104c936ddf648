/* r-exit.c - qkv_pack ends with a leftover debugging exit(0). In plain
 * Criterion that would pass; the harness makes it a failure.
 * run-only: qkv_pack
 * expect-exit: nonzero
 * expect: qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': qkv_pack called exit(0)
 * expect-re: ^qkv_pack +0 +2 +5$
 */
#include <stdio.h>
#include <stdlib.h>
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (!w_qkv || !w_q || !w_k || !w_v) return MM_EINVAL;
    if (d_model <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++)
        for (int j = 0; j < width; j++)
            w_qkv[i * width + j] = j < d_k ? w_q[i * d_k + j]
                                 : j < 2 * d_k ? w_k[i * d_k + j - d_k]
                                 : w_v[i * d_v + j - 2 * d_k];
    printf("packed %d x %d\n", d_model, width);
    exit(0);
}
