/* layer.h - the layer of a forward pass (Lab 03's mha_forward, Lab 04's
 * mha_forward_causal) in the driver, and what the learner's function left
 * in it, as the judge learns it. The call's layer is layer_of's struct,
 * made of the request's W_QKV and W_O (b[2], b[3]) and sizes. A check that
 * passes a layer adds one more buffer after the call's own, "*layer", of
 * LAYER_SEEN doubles, which the learner's function never gets; around the
 * call, layer_recorded writes there what the struct holds then: its three
 * sizes, and for each of its two pointers whether it still points at the
 * weights it was given (LAYER_SAME), is NULL (LAYER_NULL) or points
 * elsewhere (LAYER_ELSEWHERE). Shared by the judges (check.c) and the
 * drivers (calls.c) of Labs 03 and 04. */
#ifndef LAB03_LAYER_H
#define LAB03_LAYER_H

#include "minimodel/attention/mha.h"

enum { LAYER_D_MODEL, LAYER_N_HEADS, LAYER_D_K, LAYER_W_QKV, LAYER_W_O, LAYER_SEEN };
enum { LAYER_SAME, LAYER_NULL, LAYER_ELSEWHERE };

/* driver_layer - the driver's struct, and (at [1]) what it was given:
 * one, since the driver makes one call at a time */
static inline mha *driver_layer(void)
{
    static mha layer[2];
    return layer;
}

/* layer_of - the layer of a request, in driver_layer: W_QKV b[2], W_O
 * b[3], d_model n[1], n_heads n[2]; NULL for a NULL W_QKV */
static inline mha *layer_of(void *const b[], const long n[])
{
    mha *layer = driver_layer();
    int d_model = (int)n[1], n_heads = (int)n[2];
    layer[0] = layer[1] = (mha){ d_model, n_heads, n_heads > 0 ? d_model / n_heads : 0, b[2],
                                 b[3] };
    return b[2] ? layer : NULL;
}

/* layer_recorded - st, the status of a call on layer_of's struct, once
 * what the struct holds then is written into seen (LAYER_SEEN doubles),
 * if the check passed it */
static inline mm_status layer_recorded(double *seen, mm_status st)
{
    const mha *now = driver_layer(), *was = now + 1;
    if (!seen) return st;
    seen[LAYER_D_MODEL] = now->d_model;
    seen[LAYER_N_HEADS] = now->n_heads;
    seen[LAYER_D_K] = now->d_k;
    seen[LAYER_W_QKV] = now->w_qkv == was->w_qkv ? LAYER_SAME
                      : now->w_qkv ? LAYER_ELSEWHERE : LAYER_NULL;
    seen[LAYER_W_O] = now->w_o == was->w_o ? LAYER_SAME : now->w_o ? LAYER_ELSEWHERE : LAYER_NULL;
    return st;
}

#endif
