/* m-forward-one-head.c - mha_forward takes d_k as d_model: one attention
 * over the full width of Q, K, V (sdpa once, scale 1/sqrt(d_model), its
 * weights in the first (T, T) block), then W_O - single-head attention.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you computed one attention over the whole width
 */
#define FW_SPLIT(heads, qkv) qkv_split(FW_Q(0), FW_K(0), FW_V(0), qkv, T, d, d)
#define FW_HEADS(h) for (int h = 0; h < H && st == MM_OK; h = H)       /* once */
#define FW_Q(h) heads
#define FW_K(h) (heads + (size_t)T * d)
#define FW_V(h) (heads + 2 * (size_t)T * d)
#define FW_HEAD(o, w, q, k, v, b) sdpa(o, w, q, k, v, b, T, T, d, d)
#define FW_MERGE(concat, o) (memcpy(concat, o, (size_t)T * d * sizeof *o), MM_OK)
#include "base.h"
