/* m-pack-kqv.c - qkv_pack puts the blocks in the order K | Q | V.
 * run-only: qkv_pack
 * expect-exit: nonzero
 * expect: hint: your W_QKV has the K block where Q belongs (your order is K | Q | V)
 * expect-re: ^qkv_pack +0 +[0-9]+ +[1-9][0-9]*$ */
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (PACK_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++) {
        double *row = w_qkv + i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_k[i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_q[i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[i * d_v + j];
    }
    return MM_OK;
}
