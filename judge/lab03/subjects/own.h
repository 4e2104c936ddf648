/* own.h - one head's attention with loops of its own (no sdpa), for the
 * subjects of judge/lab03/subjects/ that do not call the library's: o (T, d_k)
 * and, if w is not NULL, w (T, T) = softmax(q k^T * scale + bias) v, with
 * the library's statuses: a bias NaN or +inf is MM_EINVAL (before anything
 * is written), a score that is not finite MM_ERANGE; a row that sees no
 * key has weights and output 0. The dot products of the scores are summed
 * in OWN_DOT (double unless defined before the include). */
#include <math.h>
#include <stdlib.h>
#include "minimodel/core/error.h"

#ifndef OWN_DOT
#define OWN_DOT double
#endif

static mm_status head_attention(double *o, double *w, const double *q, const double *k,
                                const double *v, const double *bias, int T, int d_k,
                                double scale)
{
    for (size_t e = 0; bias && e < (size_t)T * T; e++)
        if (isnan(bias[e]) || bias[e] == INFINITY)
            return mm_fail(MM_EINVAL, "head_attention: bias[%zu] is %g", e, bias[e]);
    double *row = malloc((size_t)T * sizeof *row);
    if (!row) return mm_fail(MM_ENOMEM, "head_attention: no memory");
    mm_status st = MM_OK;
    for (int i = 0; i < T && st == MM_OK; i++) {
        double top = -INFINITY, sum = 0.0;
        for (int j = 0; j < T; j++) {
            OWN_DOT dot = 0.0;
            for (int p = 0; p < d_k; p++) dot += (OWN_DOT)(q[i * d_k + p] * k[j * d_k + p]);
            row[j] = dot * scale + (bias ? bias[i * T + j] : 0.0);
            if (!isfinite(dot) || row[j] == INFINITY)
                st = mm_fail(MM_ERANGE, "head_attention: score (%d, %d) overflows", i, j);
            if (row[j] > top) top = row[j];
        }
        if (st != MM_OK) break;
        for (int j = 0; j < T; j++) sum += row[j] = top == -INFINITY ? 0.0 : exp(row[j] - top);
        for (int p = 0; p < d_k; p++) o[i * d_k + p] = 0.0;
        for (int j = 0; j < T; j++) {
            if (sum > 0) row[j] /= sum;
            if (w) w[i * T + j] = row[j];
            for (int p = 0; p < d_k; p++) o[i * d_k + p] += row[j] * v[j * d_k + p];
        }
    }
    free(row);
    return st;
}
