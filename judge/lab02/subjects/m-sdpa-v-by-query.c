/* m-sdpa-v-by-query.c - sdpa blends row i of V (the query's index) for
 * every key: out_i = (sum_j a_ij) v_i = v_i. Where T_q > T_k it reads past
 * the end of v, and the harness stops the call and names it.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong
 * expect: hint: you blended row i of V (the query's index) where row j belongs (the key's)
 * expect: CRASH sdpa, case 'more queries than keys: T_q=4 T_k=3 d_k=2 d_v=3': read past the end of v
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status blend_by_query(double *out_i, const double *a, const double *v, int i,
                                int T_k, int d_v)
{
    for (int x = 0; x < d_v; x++) {
        double sum = 0.0;
        for (int j = 0; j < T_k; j++) sum += a[j] * v[i * d_v + x];
        out_i[x] = sum;
    }
    return MM_OK;
}
#define ROW_BLEND(out_i, a, i) blend_by_query(out_i, a, v, i, T_k, d_v)
#include "row.h"
