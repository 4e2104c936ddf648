/* layer.h - how the driver tells the judge what the learner's mha_forward
 * left in the layer struct it was given (calls.c builds that struct, an
 * mha, on its stack). A check that passes a layer adds one more buffer
 * after the call's own, "*layer", of LAYER_SEEN doubles; after the call
 * the adapter writes there what the struct holds then: its three sizes,
 * and for each of its two pointers whether it still points at the
 * weights it was given (LAYER_SAME), is NULL (LAYER_NULL) or points
 * elsewhere (LAYER_ELSEWHERE). The learner's function never gets that
 * buffer. Shared by the judge (check.c) and the driver (calls.c). */
#ifndef LAB03_LAYER_H
#define LAB03_LAYER_H

enum { LAYER_D_MODEL, LAYER_N_HEADS, LAYER_D_K, LAYER_W_QKV, LAYER_W_O, LAYER_SEEN };
enum { LAYER_SAME, LAYER_NULL, LAYER_ELSEWHERE };

#endif
