/* m-pack-stacked.c - qkv_pack copies W_Q, W_K and W_V one after another, as
 * if W_QKV were the three matrices stacked.
 * run-only: qkv_pack
 * expect-exit: nonzero
 * expect: hint: you copied W_Q, W_K and W_V one after another */
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (PACK_BAD_ARGS) return MM_EINVAL;
    size_t n_k = (size_t)d_model * d_k, n_v = (size_t)d_model * d_v;
    memcpy(w_qkv, w_q, n_k * sizeof *w_qkv);
    memcpy(w_qkv + n_k, w_k, n_k * sizeof *w_qkv);
    memcpy(w_qkv + 2 * n_k, w_v, n_v * sizeof *w_qkv);
    return MM_OK;
}
