/* s-memo-shape.c - sdpa keeps its last results in static arrays and, when
 * it is called again with the same sizes, returns them without looking at
 * the inputs ("the caller asked this already"). The old cases had sizes of
 * their own, but for two calls on the same input (hidden keys, with
 * weights and without), where the answer was right; the random case comes
 * twice with one shape and fresh values, in the same buffers, and the
 * second call gets the first one's results. The harness runs that case
 * again alone and names the state. (The same memo keyed by the buffers'
 * addresses as well fails the same way in the plain build; in the
 * sanitizer's build the harness copies the buffers for each call, to new
 * addresses.)
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  sdpa, case 'random, the same shape again with fresh values: T_q=[0-9]+ T_k=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': out is wrong \(weights is wrong too\)$
 * expect: hint: this case passes when it is the first call in a fresh process
 * expect-re: ^sdpa +0 +(1[6-9]|20) +[1-5]$
 */
#include <string.h>
#define MUTANT_sdpa
#define WRAP_sdpa
#include "base.h"

enum { MEMO = 4096 };                       /* doubles per output */

mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    static int sizes[4];
    static double memo_out[MEMO], memo_w[MEMO];
    SDPA_CHECK_ARGS();
    int shape[4] = { T_q, T_k, d_k, d_v };
    size_t n_out = (size_t)T_q * d_v, n_w = (size_t)T_q * T_k;
    bool fits = n_out <= MEMO && n_w <= MEMO;
    if (fits && !memcmp(sizes, shape, sizeof sizes)) {
        memcpy(out, memo_out, n_out * sizeof *out);
        if (weights) memcpy(weights, memo_w, n_w * sizeof *weights);
        return MM_OK;
    }
    double *w = weights;
    if (fits && !w) w = memo_w;                 /* the weights are kept all the same */
    MM_TRY(sdpa_rows(out, w, q, k, v, bias, T_q, T_k, d_k, d_v));
    if (fits) {
        memcpy(memo_out, out, n_out * sizeof *out);
        if (weights) memcpy(memo_w, weights, n_w * sizeof *weights);
        memcpy(sizes, shape, sizeof sizes);
    }
    return MM_OK;
}
