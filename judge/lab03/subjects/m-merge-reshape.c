/* m-merge-reshape.c - mha_merge_heads copies heads as it is into m, as if
 * (n_heads, T, d_k) were already (T, d_model); mha_forward, which calls it,
 * is blamed on it.
 * expect-exit: 1
 * expect: hint: you copied heads into m as it is
 * expect: hint: each head's attention is right, but your mha_merge_heads puts the heads' outputs back in the wrong places here
 */
#define MERGE_HEADS(h, t, c) (((size_t)(t) * n_heads + (h)) * d_k + (c))
#include "base.h"
