/* s-forward-memo-layer.c - mha_forward remembers its last out, keyed by
 * the layer it was given (its address) and the sizes (T, d_model,
 * n_heads), and gives it back for such a call without computing. The
 * fixed cases that share a layer and sizes also share their values, so
 * they pass; the long random case and the one-token case, each called
 * again with the same shape and fresh values, fail the second time, and
 * pass when run alone in a fresh process.
 * run-only: mha_forward
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward, case 'the same shape again, fresh values and a bias N\(0, 1\) that hides about a tenth of the keys, weights = NULL: random T=[0-9]+, d_model=64, [0-9]+ heads? \(seed [0-9]+\)': out is wrong
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 13 earlier calls in the same process
 * expect-re: ^mha_forward +0 +22 +2$
 */
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/core/matrix.h"

enum { MEMO_CAP = 1 << 15 };
static struct {
    const mha *layer;
    int T, d_model, n_heads;
    double out[MEMO_CAP];
} memo;

/* remembered - whether the memo holds out for this layer and T (then copied into out) */
static bool remembered(double *out, const mha *layer, int T)
{
    if (memo.layer != layer || memo.T != T || memo.d_model != layer->d_model ||
        memo.n_heads != layer->n_heads)
        return false;
    memcpy(out, memo.out, (size_t)T * layer->d_model * sizeof *out);
    return true;
}

/* remember - out = concat W_O, kept in the memo when it fits */
static mm_status remember(double *out, const double *concat, const mha *layer, int T)
{
    size_t n = (size_t)T * layer->d_model;
    mm_status st = mm_matmul(out, concat, layer->w_o, T, layer->d_model, layer->d_model, false);
    if (st == MM_OK && n <= MEMO_CAP) {
        memcpy(memo.out, out, n * sizeof *out);
        memo.layer = layer, memo.T = T, memo.d_model = layer->d_model;
        memo.n_heads = layer->n_heads;
    }
    return st;
}
#define FW_PROLOGUE() do {                                                          \
    FORWARD_CHECK_ARGS();                                                           \
    if (remembered(out, layer, T)) return MM_OK;                                    \
} while (0)
#define FW_OUT(out, concat) remember(out, concat, layer, T)
#include "base.h"
