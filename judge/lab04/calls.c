/* calls.c - lab 04's functions as the driver calls them (driver.h). This
 * file is linked with the learner's object in the driver, never into the
 * judge: it only unpacks a request's buffers and integers into a call.
 *
 * mask_from_bool's allowed is a buffer of bytes (lab_in_bytes): the
 * learner's function gets it as const bool *. mha_forward_causal takes a
 * layer, a struct (mha.h) that holds two pointers: the judge builds the
 * layer with the library (mha_new, mha_set_weights) and sends its two
 * weight matrices as buffers of the call, W_QKV and W_O, and its sizes as
 * integers after T; the adapter puts them back together into an mha on
 * its stack, so that the layer's weights are guarded like any input (a
 * write to them, or past them, is reported by name: layer->w_qkv,
 * layer->w_o). The call
 *     mha_forward_causal(out, weights, layer, x, T)
 * is requested, and shown in messages, as
 *     mha_forward_causal(out, weights, layer->w_qkv, layer->w_o, x, *layer, T, d_model,
 *                        n_heads)
 * and a NULL W_QKV stands for layer = NULL. *layer, when the check passes
 * it, is not the learner's: after the call the adapter writes there what
 * the struct holds then (../lab03/layer.h, shared with Lab 03), so that
 * the judge sees a forward pass that changed the layer's sizes or
 * pointers. A buffer may stand for another one, or for a part of it
 * (alias.h): that is how a check passes the same buffer twice. */
#include <stdbool.h>
#include <stddef.h>
#include "minimodel/attention/mask.h"
#include "driver.h"
#include "alias.h"
#include "../lab03/layer.h"

/* tag_offset - the k of a tag's second element, or 0 with *ok false */
static long tag_offset(double second, bool *ok)
{
    double k = MASK_ALIAS_TAG - second;
    *ok = k > -65536 && k < 65536 && k == (double)(long)k;
    return *ok ? (long)k : 0;
}

/* arg - what the learner's function gets for buffer argument slot, of n:
 * the buffer itself; the buffer its own tag names, plus k bytes; or a part
 * of a buffer of doubles (one of doubles[], each at least 2 elements) whose
 * host tag names slot */
static void *arg(void *const b[], int n, int slot, const int doubles[], int n_doubles)
{
    bool ok;
    for (int i = 0; i < n_doubles; i++) {
        int s = doubles[i];
        const double *p = b[s];
        if (!p) continue;
        if (s == slot) {
            for (int other = 0; other < n; other++)
                if (other != slot && p[0] == MASK_ALIAS_TAG - other) {
                    long k = tag_offset(p[1], &ok);
                    if (ok && b[other]) return (char *)b[other] + k;
                }
        } else if (p[0] == MASK_HOST_TAG - slot) {
            long k = tag_offset(p[1], &ok);
            if (ok) return (char *)b[s] + k;
        }
    }
    return b[slot];
}

static mm_status call_causal(void *const b[], const long n[])
{
    return mask_causal(b[0], (int)n[0]);
}

static mm_status call_padding(void *const b[], const long n[])
{
    return mask_padding(b[0], (int)n[0], (int)n[1], (int)n[2]);
}

static mm_status call_from_bool(void *const b[], const long n[])
{
    static const int doubles[] = { 0 };
    return mask_from_bool(arg(b, 2, 0, doubles, 1), arg(b, 2, 1, doubles, 1), (int)n[0],
                          (int)n[1]);
}

static mm_status call_combine(void *const b[], const long n[])
{
    static const int doubles[] = { 0, 1 };
    return mask_combine(arg(b, 2, 0, doubles, 2), arg(b, 2, 1, doubles, 2), (int)n[0],
                        (int)n[1]);
}

static mm_status call_forward_causal(void *const b[], const long n[])
{
    static const int doubles[] = { 0, 1 };
    int d_model = (int)n[1], n_heads = (int)n[2];
    const mha was = { d_model, n_heads, n_heads > 0 ? d_model / n_heads : 0, b[2], b[3] };
    mha layer = was;
    mm_status st = mha_forward_causal(arg(b, 5, 0, doubles, 2), arg(b, 5, 1, doubles, 2),
                                      b[2] ? &layer : NULL, b[4], (int)n[0]);
    if (b[5]) layer_seen(b[5], &layer, &was);
    return st;
}

const lab_entry lab_entries[] = {
    { "mask_causal", call_causal },
    { "mask_padding", call_padding },
    { "mask_from_bool", call_from_bool },
    { "mask_combine", call_combine },
    { "mha_forward_causal", call_forward_causal },
    { NULL, NULL }
};
