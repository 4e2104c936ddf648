/* m-forward-scale-dmodel.c - each head's attention (loops of its own) scales
 * the scores by 1/sqrt(d_model) instead of 1/sqrt(d_k).
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you scaled the scores by 1/sqrt(d_model)
 */
#include "own.h"
#define FW_HEAD(o, w, q, k, v, b) head_attention(o, w, q, k, v, b, T, d_k, 1.0 / sqrt((double)d))
#include "base.h"
