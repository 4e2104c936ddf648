/* calls.c - lab 04's functions as the driver calls them: the adapters of
 * its descriptor, lab04.def (driver.h). This file is linked with the
 * learner's object in the driver, never into the judge.
 *
 * mask_from_bool's allowed is a buffer of bytes (lab_in_bytes): the
 * learner's function gets it as const bool *. mha_forward_causal's layer
 * is passed as Lab 03's mha_forward's is (../lab03/calls.c, layer.h): the call
 *     mha_forward_causal(out, weights, layer, x, T)
 * is requested, and shown in messages, as
 *     mha_forward_causal(out, weights, layer->w_qkv, layer->w_o, x, *layer, T, d_model,
 *                        n_heads)
 * A buffer may stand for another one, or for a part of it (alias.h): that
 * is how a check passes the same buffer twice. */
#include <stdbool.h>
#include <stddef.h>
#include "minimodel/attention/mask.h"
#include "driver.h"
#include "alias.h"
#include "../lab03/layer.h"
#include "lab04.def"

/* tag_offset - the k of a tag's second element, or 0 with *ok false */
static long tag_offset(double second, bool *ok)
{
    double k = MASK_ALIAS_TAG - second;
    *ok = k > -65536 && k < 65536 && k == (double)(long)k;
    return *ok ? (long)k : 0;
}

/* aliased - what the learner's function gets for buffer argument slot, of
 * n: the buffer itself; the buffer its own tag names, plus k bytes; or a
 * part of a buffer of doubles (the first n_doubles, each at least 2
 * elements) whose host tag names slot */
static void *aliased(void *const b[], int n, int slot, int n_doubles)
{
    bool ok;
    for (int s = 0; s < n_doubles; s++) {
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

/* mha_forward_causal's adapter makes the call of lab04.def through
 * layer_recorded, which then writes the record b[5]; (mha_forward_causal)
 * is the learner's */
#define mha_forward_causal(...) layer_recorded(b[5], (mha_forward_causal)(__VA_ARGS__))

LAB_DRIVER_TABLES(LAB04);
