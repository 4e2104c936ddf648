/* calls.c - lab 03's functions as the driver calls them (driver.h). This
 * file is linked with the learner's object in the driver, never into the
 * judge: it only unpacks a request's buffers and integers into a call.
 *
 * mha_forward takes a layer, a struct (mha.h) that holds two pointers. The
 * judge builds the layer with the library (mha_new, mha_set_weights) and
 * sends its two weight matrices as buffers of the call, W_QKV and W_O, and
 * its sizes as integers after T; the adapter puts them back together into
 * an mha on its stack, so that the learner's mha_forward gets a layer whose
 * weights are guarded like any input (a write to them, or past them, is
 * reported by name: layer->w_qkv, layer->w_o). The call
 *     mha_forward(out, weights, layer, x, bias, T)
 * is requested, and shown in messages, as
 *     mha_forward(out, weights, layer->w_qkv, layer->w_o, x, bias, *layer, T, d_model,
 *                 n_heads)
 * and a NULL W_QKV stands for layer = NULL. *layer, when the check passes
 * it, is not the learner's: after the call the adapter writes there what
 * the struct holds then (layer.h), so that the judge sees a forward pass
 * that changed the layer's sizes or pointers.
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

static mm_status call_split(void *const b[], const long n[])
{
    return mha_split_heads(aliased(b, 2, 0), b[1], (int)n[0], (int)n[1], (int)n[2]);
}

static mm_status call_merge(void *const b[], const long n[])
{
    return mha_merge_heads(aliased(b, 2, 0), b[1], (int)n[0], (int)n[1], (int)n[2]);
}

static mm_status call_forward(void *const b[], const long n[])
{
    int d_model = (int)n[1], n_heads = (int)n[2];
    const mha was = { d_model, n_heads, n_heads > 0 ? d_model / n_heads : 0, b[2], b[3] };
    mha layer = was;
    mm_status st = mha_forward(aliased(b, 6, 0), aliased(b, 6, 1), b[2] ? &layer : NULL, b[4],
                               b[5], (int)n[0]);
    if (b[6]) layer_seen(b[6], &layer, &was);
    return st;
}

const lab_entry lab_entries[] = {
    { "mha_split_heads", call_split },
    { "mha_merge_heads", call_merge },
    { "mha_forward", call_forward },
    { NULL, NULL }
};
