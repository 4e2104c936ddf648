/* m-merge-interleaved.c - mha_merge_heads puts head h's columns every
 * n_heads-th column of m: m[t][c n_heads + h] = heads[h][t][c].
 * expect-exit: 1
 * expect: hint: you gave head h every n_heads-th column
 */
#define MERGE_J(h, c) ((size_t)(h) * d_k + (c))
#define MERGE_HEADS(h, t, c) \
    (((MERGE_J(h, c) % n_heads) * T + (t)) * d_k + MERGE_J(h, c) / n_heads)
#include "base.h"
