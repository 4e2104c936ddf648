/* m-forward-each-reshaped.c - mha_forward cuts [Q | K | V] into Q, K and V
 * (qkv_split) and takes each of them, (T, d_model), as its n_heads heads
 * (n_heads, T, d_k) as it is: a reshape without the transpose.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you cut Q, K and V into heads as a plain reshape
 */
#define FW_SPLIT(heads, qkv) \
    qkv_split(heads, heads + (size_t)T * d, heads + 2 * (size_t)T * d, qkv, T, d, d)
#include "base.h"
