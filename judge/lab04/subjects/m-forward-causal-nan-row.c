/* m-forward-causal-nan-row.c - mha_forward_causal writes its own masked
 * softmax, with the mask off by one (j < i) and no case for a row that
 * sees nothing: row 0's maximum is -inf, and exp(-inf - (-inf)) is NaN. It
 * multiplies by W_O with loops of its own, so the NaN reaches out.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: out has NaN at (0, 0)
 * expect: hint: row 0 is NaN: your mask hides every key from token 0
 */
#define OWN_SCORE(s, i, j) ((j) < (i) ? (s) : -INFINITY)
#define OWN_EXP(s, top) exp((s) - (top))
#define OWN_OUT(out, concat) own_times_w_o(out, concat, layer->w_o, T, d)
static int own_times_w_o(double *out, const double *c, const double *w_o, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double acc = 0.0;
            for (int k = 0; k < d; k++) acc += c[t * d + k] * w_o[k * d + j];
            out[t * d + j] = acc;
        }
    return 0;
}
#include "own.h"
