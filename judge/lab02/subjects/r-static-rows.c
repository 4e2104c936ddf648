/* r-static-rows.c - when the caller passes no weights, sdpa keeps the
 * whole score matrix in a static array sized for 32 queries of 32 keys
 * (full.h's way, without calloc), and refuses anything larger with
 * MM_ENOMEM. The old cases had at most 6 queries and 6 keys; the long
 * case, with 256 or more of each and weights = NULL, is refused.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  sdpa, case 'long sequences: T_q=[0-9]+ T_k=[0-9]+ d_k=[0-9] d_v=[0-9], weights = NULL \(seed [0-9]+\)': returned MM_ENOMEM \(2\) for valid arguments; expected MM_OK \(0\); mm_last_error\(\) says: sdpa: at most 32 x 32 scores
 * expect-re: ^sdpa +0 +20 +1$
 */
#define MUTANT_sdpa
#include "base.h"

enum { MAX_T = 32 };

mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    static double scores[MAX_T * MAX_T];
    SDPA_CHECK_ARGS();
    if (!weights && (T_q > MAX_T || T_k > MAX_T))
        return mm_fail(MM_ENOMEM, "sdpa: at most %d x %d scores", MAX_T, MAX_T);
    double *w = weights ? weights : scores;
    double scale = 1.0 / sqrt((double)d_k);
    mm_status st = MM_OK;
    if (mm_matmul(w, q, k, T_q, d_k, T_k, true) != MM_OK)
        st = mm_fail(MM_ERANGE, "sdpa: a score overflows");
    for (int i = 0; i < T_q * T_k && st == MM_OK; i++) {
        w[i] = w[i] * scale + (bias ? bias[i] : 0.0);
        if (w[i] == INFINITY) st = mm_fail(MM_ERANGE, "sdpa: score %d overflows", i);
    }
    for (int i = 0; i < T_q && st == MM_OK; i++) st = softmax_row(w + (size_t)i * T_k, T_k);
    if (st == MM_OK) st = mm_matmul(out, w, v, T_q, T_k, d_v, false);
    return st;
}
