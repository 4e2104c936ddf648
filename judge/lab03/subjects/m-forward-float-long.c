/* m-forward-float-long.c - mha_forward runs each head with loops of its
 * own, and for a long sequence (T > 64) accumulates the dot products of
 * the scores in float, to go faster: every fixed case (9 tokens at most)
 * passes; the two long random cases (T >= 256) fail.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'random T=[0-9]+, d_model=64, [0-9]+ heads? \(seed [0-9]+\)': (out|weights) is wrong
 * expect-re: ^mha_forward +0 +22 +2$
 */
#include "minimodel/attention/sdpa.h"
#define OWN_DOT float
#include "own.h"

/* float_head - one head's attention: sdpa up to 64 tokens, else own.h's in float */
static mm_status float_head(double *o, double *w, const double *q, const double *k,
                            const double *v, const double *bias, int T, int d_k)
{
    if (T <= 64) return sdpa(o, w, q, k, v, bias, T, T, d_k, d_k);
    return head_attention(o, w, q, k, v, bias, T, d_k, 1.0 / sqrt((double)d_k));
}
#define FW_HEAD(o, w, q, k, v, b) float_head(o, w, q, k, v, b, T, d_k)
#include "base.h"
