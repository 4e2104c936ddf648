/* m-count-int.c - attention_param_count does its arithmetic in int, which
 * overflows for d_model = 32768 (the count is 2^32).
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count(32768, 8) returned
 * expect: hint: the count is 4294967296, more than an int holds
 * expect-re: ^attention_param_count +0 +4 +1$
 */
#include <stdint.h>
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    int d_k = d_model / n_heads;
    /* what int arithmetic gives once it wraps (computed without undefined behaviour) */
    uint32_t count = (uint32_t)n_heads * 3u * (uint32_t)d_model * (uint32_t)d_k
                   + (uint32_t)d_model * (uint32_t)d_model;
    return (int32_t)count;
}
