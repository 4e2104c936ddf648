/* m-sdpa-global-max.c - sdpa's own softmax (full.h) subtracts the maximum
 * of the whole score matrix, not each row's: fine while the rows are close,
 * but in the case with large scores row 1 lies 1990 below row 0, every exp
 * of it underflows to 0, and its weights are 0/0, which mm_matmul refuses
 * (MM_EINVAL, for valid arguments); the weights written before show it. With hidden keys, the
 * row that sees no key is 0/0 too, and said as such.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'large scores: row 0 (1000, 999, 990), row 1 (-1000, -999, -990): T_q=2 T_k=3 d_k=4 d_v=2': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: mm_matmul: a[1][0] is
 * expect: hint: you subtracted the maximum of the whole score matrix (1000), not each row's: row 1 lies 1990 below it
 * expect: hint: a row whose every key is hidden (all its scores -inf) gives NaN
 * expect-re: ^sdpa +0 +17 +4$
 */
#define MUTANT_sdpa
#include "base.h"

static mm_status global_softmax(double *w, int T_q, int T_k)
{
    double m = -INFINITY;
    for (int i = 0; i < T_q * T_k; i++)
        if (w[i] > m) m = w[i];
    for (int i = 0; i < T_q; i++) {
        double *row = w + i * T_k, sum = 0.0;
        if (m == -INFINITY) {
            for (int j = 0; j < T_k; j++) row[j] = 0.0;
            continue;
        }
        for (int j = 0; j < T_k; j++) sum += row[j] = exp(row[j] - m);
        for (int j = 0; j < T_k; j++) row[j] /= sum;
    }
    return MM_OK;
}
#define FULL_MATRIX_SOFTMAX global_softmax
#include "full.h"
