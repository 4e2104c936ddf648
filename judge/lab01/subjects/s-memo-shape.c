/* s-memo-shape.c - qkv_project keeps its last results in static arrays and,
 * called again on the same shape, returns them without looking at the
 * inputs. Every fixed case has a shape of its own, so this passed the old
 * checks; the random cases come twice with one shape and fresh values (in
 * the same buffers), and the second gets the first one's results. The
 * harness runs that case again alone and names the state.
 * run-only: qkv_project
 * expect-exit: 1
 * expect-re: ^  FAIL  qkv_project, case 'random, the same shape again with fresh values: T=[0-9]+ d_model=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': q is wrong \(k and v are wrong too\)$
 * expect: hint: this case passes when it is the first call in a fresh process
 * expect-re: ^qkv_project +0 +8 +1$ */
#define MUTANT_qkv_project
#include "base.h"

enum { MEMO = 4096 };                       /* doubles per output */

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    static int shape[4];
    static double memo[3][MEMO];
    PROJECT_CHECK_ARGS();
    size_t n_k = (size_t)T * d_k, n_v = (size_t)T * d_v;
    bool fits = n_k <= MEMO && n_v <= MEMO;
    if (fits && shape[0] == T && shape[1] == d_model && shape[2] == d_k && shape[3] == d_v) {
        memcpy(q, memo[0], n_k * sizeof *q);
        memcpy(k, memo[1], n_k * sizeof *k);
        memcpy(v, memo[2], n_v * sizeof *v);
        return MM_OK;
    }
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_k, T, d_model, d_k, false));
    MM_TRY(mm_matmul(v, x, w_v, T, d_model, d_v, false));
    if (fits) {
        memcpy(memo[0], q, n_k * sizeof *q);
        memcpy(memo[1], k, n_k * sizeof *k);
        memcpy(memo[2], v, n_v * sizeof *v);
        shape[0] = T, shape[1] = d_model, shape[2] = d_k, shape[3] = d_v;
    }
    return MM_OK;
}
