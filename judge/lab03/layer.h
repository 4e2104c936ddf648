/* layer.h - how the driver tells the judge what the learner's forward pass
 * (Lab 03's mha_forward, Lab 04's mha_forward_causal) left in the layer
 * struct it was given (calls.c builds that struct, an mha, on its stack).
 * A check that passes a layer adds one more buffer after the call's own,
 * "*layer", of LAYER_SEEN doubles; after the call the adapter writes there
 * what the struct holds then (layer_seen): its three sizes, and for each
 * of its two pointers whether it still points at the weights it was given
 * (LAYER_SAME), is NULL (LAYER_NULL) or points elsewhere (LAYER_ELSEWHERE).
 * The learner's function never gets that buffer. Shared by the judges
 * (check.c) and the drivers (calls.c) of Labs 03 and 04. */
#ifndef LAB03_LAYER_H
#define LAB03_LAYER_H

#include "minimodel/attention/mha.h"

enum { LAYER_D_MODEL, LAYER_N_HEADS, LAYER_D_K, LAYER_W_QKV, LAYER_W_O, LAYER_SEEN };
enum { LAYER_SAME, LAYER_NULL, LAYER_ELSEWHERE };

/* layer_seen - what the struct now holds, into seen (LAYER_SEEN doubles),
 * given what it was */
static inline void layer_seen(double *seen, const mha *now, const mha *was)
{
    seen[LAYER_D_MODEL] = now->d_model;
    seen[LAYER_N_HEADS] = now->n_heads;
    seen[LAYER_D_K] = now->d_k;
    seen[LAYER_W_QKV] = now->w_qkv == was->w_qkv ? LAYER_SAME
                      : now->w_qkv ? LAYER_ELSEWHERE : LAYER_NULL;
    seen[LAYER_W_O] = now->w_o == was->w_o ? LAYER_SAME : now->w_o ? LAYER_ELSEWHERE : LAYER_NULL;
}

#endif
