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
#define WRAP_sdpa
#include "base.h"

mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    SDPA_CHECK_ARGS();
    if (T_k == 1) {
        for (int i = 0; i < T_q; i++) {
            if (weights) weights[i] = 1.0;
            for (int c = 0; c < d_v; c++) out[(size_t)i * d_v + c] = v[c];
        }
        return MM_OK;
    }
    return sdpa_rows(out, weights, q, k, v, bias, T_q, T_k, d_k, d_v);
}
