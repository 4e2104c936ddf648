/* m-forward-merge-reshape.c - mha_forward (not its merge) multiplies the
 * heads' outputs (n_heads, T, d_k) by W_O as if they were already the
 * (T, d_model) concatenation.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you used the heads' outputs, (n_heads, T, d_k), as if they were already (T, d_model)
 */
#define FW_MERGE(concat, o) (memcpy(concat, o, (size_t)T * d * sizeof *concat), MM_OK)
#include "base.h"
