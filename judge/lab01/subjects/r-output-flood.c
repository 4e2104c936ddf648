/* r-output-flood.c - qkv_pack is right but prints 42 MB of debugging lines
 * on the worked example. The report shows the start of it, labelled as the
 * learner's output, and says how much more there was; every check passes.
 * run-only: qkv_pack
 * expect-exit: 0
 * expect: OUTPUT qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': your code printed this
 * expect-re: ^        \| packing row 0 of W_QKV, again$
 * expect-re: ^        \(4[0-9]{7} more bytes not shown\)$
 * expect: All 9 checks pass
 */
#include <stdio.h>
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    if (d_model == 2)
        for (long i = 0; i < 42000000 / 30; i++) printf("packing row 0 of W_QKV, again\n");
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++)
        for (int j = 0; j < width; j++)
            w_qkv[i * width + j] = j < d_k ? w_q[i * d_k + j]
                                 : j < 2 * d_k ? w_k[i * d_k + j - d_k]
                                 : w_v[i * d_v + j - 2 * d_k];
    return MM_OK;
}
