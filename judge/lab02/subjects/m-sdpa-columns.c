/* m-sdpa-columns.c - sdpa (full.h: the whole score matrix first) takes the
 * softmax of each column, over the queries. The worked example is
 * symmetric and passes; the first non-square case shows it.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: you took the softmax over each column (over the queries)
 * expect-not: FAIL  sdpa, case 'worked example
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status column_softmax(double *w, int T_q, int T_k)
{
    for (int j = 0; j < T_k; j++) {
        double m = -INFINITY, sum = 0.0;
        for (int i = 0; i < T_q; i++)
            if (w[i * T_k + j] > m) m = w[i * T_k + j];
        for (int i = 0; i < T_q; i++) sum += w[i * T_k + j] = m == -INFINITY ? 0 : exp(w[i * T_k + j] - m);
        for (int i = 0; i < T_q; i++) w[i * T_k + j] = sum > 0 ? w[i * T_k + j] / sum : 0.0;
    }
    return MM_OK;
}
#define FULL_MATRIX_SOFTMAX column_softmax
#include "full.h"
