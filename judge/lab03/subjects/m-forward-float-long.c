/* m-forward-float-long.c - mha_forward runs each head with loops of its
 * own, and for a long sequence (T > 64) accumulates the dot products of
 * the scores in float, to go faster: every fixed case (9 tokens at most)
 * passes; the two long random cases (T >= 256) fail.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'random T=[0-9]+, d_model=64, [0-9]+ heads? \(seed [0-9]+\)': (out|weights) is wrong
 * expect-re: ^mha_forward +0 +22 +2$
 */
#include <math.h>
#include <stdlib.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"

/* float_head - one head's attention: sdpa up to 64 tokens, else the scores'
 * dot products summed in float */
static mm_status float_head(double *o, double *w, const double *q, const double *k,
                            const double *v, const double *bias, int T, int d_k)
{
    if (T <= 64) return sdpa(o, w, q, k, v, bias, T, T, d_k, d_k);
    double *row = malloc((size_t)T * sizeof *row);
    if (!row) return mm_fail(MM_ENOMEM, "float_head: no memory");
    double scale = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < T; i++) {
        double top = -INFINITY, sum = 0.0;
        for (int j = 0; j < T; j++) {
            float dot = 0.0f;
            for (int p = 0; p < d_k; p++) dot += (float)(q[i * d_k + p] * k[j * d_k + p]);
            row[j] = dot * scale + (bias ? bias[(size_t)i * T + j] : 0.0);
            if (row[j] > top) top = row[j];
        }
        for (int j = 0; j < T; j++) sum += row[j] = top == -INFINITY ? 0.0 : exp(row[j] - top);
        for (int p = 0; p < d_k; p++) o[i * d_k + p] = 0.0;
        for (int j = 0; j < T; j++) {
            if (sum > 0) row[j] /= sum;
            if (w) w[(size_t)i * T + j] = row[j];
            for (int p = 0; p < d_k; p++) o[i * d_k + p] += row[j] * v[j * d_k + p];
        }
    }
    free(row);
    return MM_OK;
}
#define FW_HEAD(o, w, q, k, v, b) float_head(o, w, q, k, v, b, T, d_k)
#include "base.h"
