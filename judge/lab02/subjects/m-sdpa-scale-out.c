/* m-sdpa-scale-out.c - sdpa takes the softmax of the unscaled scores and
 * divides the output by sqrt(d_k): the weights are unscaled softmax rows.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong (weights is wrong too)
 * expect: hint: you divided the output by sqrt(d_k), not the scores
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status blend_scaled(double *out_i, const double *a, const double *v, int T_k, int d_v,
                              int d_k)
{
    MM_TRY(mm_matmul(out_i, a, v, 1, T_k, d_v, false));
    for (int x = 0; x < d_v; x++) out_i[x] /= sqrt((double)d_k);
    return MM_OK;
}
#define ROW_SCALE(d_k) 1.0
#define ROW_BLEND(out_i, a, i) blend_scaled(out_i, a, v, T_k, d_v, d_k)
#include "row.h"
