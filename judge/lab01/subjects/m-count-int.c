/* m-count-int.c - attention_param_count does its arithmetic in int, which
 * overflows for d_model = 32768 (the count is 2^32).
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count(&count, 32768, 8) set count = 0; expected 4294967296
 * expect: hint: your count, 0, is the right one, 4294967296, cut to 32 bits: some of your arithmetic is done in int
 * expect-re: ^attention_param_count +0 +6 +3$ */
#include <stdint.h>
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0) return MM_EINVAL;
    if ((long)d_model > LONG_MAX / 4 / d_model) return MM_ERANGE;
    int d_k = d_model / n_heads;
    /* what int arithmetic gives once it wraps (computed without undefined behaviour) */
    uint32_t n = (uint32_t)n_heads * 3u * (uint32_t)d_model * (uint32_t)d_k
               + (uint32_t)d_model * (uint32_t)d_model;
    *count = (int32_t)n;
    return MM_OK;
}
