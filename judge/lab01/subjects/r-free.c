/* r-free.c - qkv_pack frees a buffer it was given (the caller owns it).
 * The harness refuses that free and reports it.
 * run-only: qkv_pack
 * expect-exit: nonzero
 * expect: qkv_pack called free or realloc 1 time on memory it did not allocate */
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (PACK_BAD_ARGS) return MM_EINVAL;
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    free((double *)w_q);                      /* "done with it" */
    return MM_OK;
}
