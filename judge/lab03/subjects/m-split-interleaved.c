/* m-split-interleaved.c - mha_split_heads gives head h every n_heads-th
 * column (h, h + n_heads, ...) instead of its block of d_k columns.
 * expect-exit: 1
 * expect: hint: you gave head h every n_heads-th column
 */
#define SPLIT_M(h, t, c) ((size_t)(t) * n_heads * d_k + (size_t)(c) * n_heads + (h))
#include "base.h"
