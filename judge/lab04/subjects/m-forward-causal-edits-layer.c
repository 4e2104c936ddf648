/* m-forward-causal-edits-layer.c - mha_forward_causal clears the layer
 * after its work, as if it were done with it (casting const away):
 * layer->w_qkv = NULL and layer->n_heads = 0. Its values are right; the
 * struct after every call that got that far is not the layer it was given.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: mha_forward_causal changed the layer it was given: layer->n_heads was 2 before the call and is 0 after it
 * expect: mha_forward_causal changed the layer it was given: layer->w_qkv pointed at the layer's weights before the call, and after it is NULL
 * expect: hint: the layer is a const mha *: the causal layer reads it and leaves it as it was
 * expect-re: ^mha_forward_causal +0 +2 +18$
 */
#define FC_FREE(p) (free(p), ((mha *)layer)->w_qkv = NULL, ((mha *)layer)->n_heads = 0)
#include "base.h"
