/* calls.c - lab 03's functions as the driver calls them: the adapters of
 * its descriptor, lab03.def (driver.h). This file is linked with the
 * learner's object in the driver, never into the judge.
 *
 * mha_forward takes a layer, a struct that holds two pointers: its call
 * gets layer_of's, made of buffers and integers of the request (layer.h),
 * so that the layer's weights are guarded like any input (a write to
 * them, or past them, is reported by name: layer->w_qkv, layer->w_o). The
 * call
 *     mha_forward(out, weights, layer, x, bias, T)
 * is requested, and shown in messages, as
 *     mha_forward(out, weights, layer->w_qkv, layer->w_o, x, bias, *layer, T, d_model,
 *                 n_heads)
 * and a NULL W_QKV stands for layer = NULL; *layer, when the check passes
 * it, is the record of what the call left in the struct.
 *
 * One thing more, for the checks that an output must not be the same
 * buffer as an input: the harness gives every buffer of a call pages of its
 * own, so a check cannot pass one buffer twice. Instead it marks the output
 * that must coincide with another argument: its first two elements hold
 * MHA_ALIAS_TAG - b and MHA_ALIAS_TAG - off, and the learner's function
 * then gets buffer number b, off elements in, in that place (alias.h). No
 * other call starts an output that way (outputs arrive holding
 * LAB_UNWRITTEN), and the second element is read only when the first
 * matches, so a one-element output is never read past its end. */
#include <stddef.h>
#include "minimodel/attention/mha.h"
#include "driver.h"
#include "alias.h"
#include "layer.h"
#include "lab03.def"

/* aliased - the argument buffer b[slot] stands for (of n buffers): itself,
 * or the buffer its tag names, at the offset its tag gives */
static void *aliased(void *const b[], int n, int slot)
{
    const double *p = b[slot];
    if (!p) return NULL;
    for (int other = 0; other < n; other++) {
        if (other == slot || p[0] != MHA_ALIAS_TAG - other) continue;
        for (int off = 0; off < 8; off++)
            if (p[1] == MHA_ALIAS_TAG - off && b[other]) return (double *)b[other] + off;
    }
    return b[slot];
}

/* mha_forward's adapter makes the call of lab03.def through layer_recorded,
 * which then writes the record b[6]; (mha_forward) is the learner's */
#define mha_forward(...) layer_recorded(b[6], (mha_forward)(__VA_ARGS__))

LAB_DRIVER_TABLES(LAB03);
