/* m-merge-reversed.c - mha_merge_heads puts the heads back in reverse order:
 * head n_heads - 1 in columns 0 .. d_k - 1.
 * expect-exit: 1
 * expect: hint: your heads are in reverse order
 */
#define MERGE_HEADS(h, t, c) (((size_t)(n_heads - 1 - (h)) * T + (t)) * d_k + (c))
#include "base.h"
