/* s-cached-weights.c - qkv_project copies the weights on its first call and
 * reuses the copy ("the weights do not change"): later cases are computed
 * with the first case's weights. The harness names the state.
 * run-only: qkv_project
 * expect-exit: 1
 * expect: FAIL  qkv_project, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong
 * expect: hint: this case passes when it is the first call in a fresh process
 * expect-re: ^qkv_project +0 +3 +6$ */
#define MUTANT_qkv_project
#include "base.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    static double cache[3][64 * 64];
    static int cached;
    PROJECT_CHECK_ARGS();
    if (!cached) {
        for (int i = 0; i < d_model * d_k; i++) cache[0][i] = w_q[i], cache[1][i] = w_k[i];
        for (int i = 0; i < d_model * d_v; i++) cache[2][i] = w_v[i];
        cached = 1;
    }
    MM_TRY(mm_matmul(q, x, cache[0], T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, cache[1], T, d_model, d_k, false));
    return mm_matmul(v, x, cache[2], T, d_model, d_v, false);
}
