/* r-output-flood.c - qkv_pack is right but prints 42 MB of debugging lines
 * on the worked example. The report shows the start of it, labelled as the
 * learner's output, and says how much more there was; every check passes.
 * run-only: qkv_pack
 * expect-exit: 0
 * expect: OUTPUT qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': your code printed this
 * expect-re: ^        \| packing row 0 of W_QKV, again$
 * expect-re: ^        \(4[0-9]{7} more bytes not shown\)$
 * expect: All 9 checks pass */
#include <stdio.h>
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    PACK_CHECK_ARGS();
    if (d_model == 2)
        for (long i = 0; i < 42000000 / 30; i++) printf("packing row 0 of W_QKV, again\n");
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    return MM_OK;
}
