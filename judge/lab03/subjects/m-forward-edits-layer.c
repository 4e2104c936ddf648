/* m-forward-edits-layer.c - mha_forward multiplies by W_O through a copy
 * of its own: it points layer->w_o at the copy (casting const away),
 * frees the copy after the product, and leaves the layer pointing at the
 * freed memory. Its values are right; the struct after each call that got
 * that far is not the layer it was given.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: mha_forward changed the layer it was given: layer->w_o pointed at the layer's weights before the call, and after it points elsewhere
 * expect: hint: the layer is a const mha *: a forward pass reads it and leaves it as it was
 * expect-re: ^mha_forward +0 +5 +19$
 */
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"

/* out_through_copy - out = concat W_O, W_O read from a copy the layer points at */
static mm_status out_through_copy(double *out, const double *concat, const mha *layer, int T)
{
    int d = layer->d_model;
    double *copy = malloc((size_t)d * d * sizeof *copy);
    if (!copy) return mm_fail(MM_ENOMEM, "mha_forward: no memory");
    memcpy(copy, layer->w_o, (size_t)d * d * sizeof *copy);
    ((mha *)layer)->w_o = copy;
    mm_status st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(copy);
    return st;
}
#define FW_OUT(out, concat) out_through_copy(out, concat, layer, T)
#include "base.h"
