/* m-pack-row-stride.c - qkv_pack steps through the rows of W_QKV with the
 * width of each block instead of 2 d_k + d_v.
 * run-only: qkv_pack
 * expect-exit: nonzero
 * expect: hint: you stepped through the rows of W_QKV with the width of one block */
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (PACK_BAD_ARGS) return MM_EINVAL;
    for (int i = 0; i < d_model; i++) {
        for (int j = 0; j < d_k; j++) w_qkv[i * d_k + j] = w_q[i * d_k + j];
        for (int j = 0; j < d_k; j++) w_qkv[d_k + i * d_k + j] = w_k[i * d_k + j];
        for (int j = 0; j < d_v; j++) w_qkv[2 * d_k + i * d_v + j] = w_v[i * d_v + j];
    }
    return MM_OK;
}
