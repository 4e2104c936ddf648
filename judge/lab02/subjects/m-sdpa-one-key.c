/* m-sdpa-one-key.c - sdpa takes a shortcut for a single key ("all the
 * weight goes to it": out_i = v_0, weights 1) and forgets the bias. No old
 * case had one key; with one key hidden by a bias of -inf the weight is 0
 * and the output 0.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  sdpa, case 'one query, one key, hidden: bias \[\[-inf\]\]: T_q=1 T_k=1 d_k=[0-9] d_v=[0-9] \(seed [0-9]+\)': out is wrong \(weights is wrong too\)$
 * expect: hint: your sdpa ignores bias
 * expect-re: ^sdpa +0 +20 +1$
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status shortcut_softmax(double *a, int n)
{
    if (n > 1) return softmax_row(a, n);
    a[0] = 1.0;
    return MM_OK;
}
#define ROW_SOFTMAX shortcut_softmax
#include "row.h"
