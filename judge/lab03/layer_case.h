/* layer_case.h - a case of a multi-head attention layer, as the judges of
 * Lab 03 (mha_forward) and Lab 04 (mha_forward_causal) both check it: the
 * case, the fixed layers' shapes, how a case's layer, answer buffers and
 * name are made, and what a forward pass must leave in the layer's struct
 * (layer.h). The functions are static inline, so that a file that uses
 * none of them (mistakes.c) is not warned about them. */
#ifndef LAB03_LAYER_CASE_H
#define LAB03_LAYER_CASE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "harness.h"
#include "layer.h"

/* mha_case - one input of the forward pass, and (from the reference) its answer */
typedef struct {
    char name[300];             /* as messages show it */
    int T, d_model, n_heads, d_k;
    const double *x;            /* (T, d_model) */
    const double *bias;         /* (T, T), or NULL (always NULL in Lab 04) */
    const double *w_qkv;        /* (d_model, 3 d_model): the layer's, as mha_new packs it */
    const double *w_o;          /* (d_model, d_model) */
    bool weights;               /* the call passes a weights buffer (else NULL) */
    double *want_out;           /* (T, d_model), the reference's */
    double *want_w;             /* (n_heads, T, T), the reference's (even when weights is NULL) */
    bool said_weights_right;    /* a hint said that every head's weights are right */
} mha_case;

/* layer_shape - a fixed layer: its shape, and where its weights come from */
typedef struct {
    int T, d_model, n_heads;
    uint64_t seed;            /* of mha_new */
    double set_std;           /* 0: mha_new's weights; else all four drawn N(0, set_std^2) */
    uint64_t x_seed;          /* x drawn N(0, 2^2) */
    bool weights;
} layer_shape;

/* seed_text - " (seed 123456789)": the run's seed, as a random case's name ends */
static inline const char *seed_text(void)
{
    static char buf[48];
    snprintf(buf, sizeof buf, EN_ES(" (seed %llu)", " (semilla %llu)"),
             (unsigned long long)lab_seed());
    return buf;
}

/* set_weights - the layer's four matrices from w (4 d_model^2: W_Q, W_K, W_V, W_O) */
static inline void set_weights(mha *layer, const double *w)
{
    size_t dd = (size_t)layer->d_model * layer->d_model;
    LAB_REF(mha_set_weights(layer, w, w + dd, w + 2 * dd, w + 3 * dd));
}

/* random_layer - a layer (d_model, n_heads) whose four matrices are drawn
 * N(0, std^2) from the run's seed and salt */
static inline mha *random_layer(int d_model, int n_heads, double std, uint64_t salt)
{
    mha *layer = NULL;
    LAB_REF(mha_new(&layer, d_model, n_heads, 1));
    set_weights(layer, lab_random(4 * (size_t)d_model * d_model, std, salt));
    return layer;
}

/* shape_layer - case c on the fixed layer s: its sizes, x, and the layer;
 * extra (of size) says where the weights and x come from */
static inline mha *shape_layer(mha_case *c, const layer_shape *s, char *extra, size_t size)
{
    mha *layer = NULL;
    c->T = s->T, c->d_model = s->d_model, c->n_heads = s->n_heads, c->weights = s->weights;
    LAB_REF(mha_new(&layer, s->d_model, s->n_heads, s->seed));
    int len;
    if (s->set_std > 0) {
        set_weights(layer, lab_normals(4 * (size_t)s->d_model * s->d_model, s->set_std,
                                       100 + s->seed));
        len = snprintf(extra, size, EN_ES("weights set N(0, %g^2) (seed %d)",
                                          "pesos fijados N(0, %g^2) (semilla %d)"),
                       s->set_std, (int)(100 + s->seed));
    } else {
        len = snprintf(extra, size, EN_ES("initial weights of MultiHeadAttention(%d, %d, seed %d)",
                                          "pesos iniciales de MultiHeadAttention(%d, %d, semilla "
                                          "%d)"),
                       s->d_model, s->n_heads, (int)s->seed);
    }
    snprintf(extra + len, size - len, EN_ES(", x random (seed %d)", ", x aleatoria (semilla %d)"),
             (int)s->x_seed);
    c->x = lab_normals((size_t)s->T * s->d_model, 2.0, s->x_seed);
    return layer;
}

/* random_name - the name of a case drawn from the run's seed: what it is, its shape, the seed */
static inline void random_name(mha_case *c, const char *what)
{
    int H = c->n_heads;
    snprintf(c->name, sizeof c->name,
             EN_ES("%srandom T=%d, d_model=%d, %d head%s%s", "%saleatorio T=%d, d_model=%d, "
                   "%d cabeza%s%s"),
             what, c->T, c->d_model, H, H == 1 ? "" : "s", seed_text());
}

/* case_name - c's name: what it is (if what is not NULL), extra, and its shape */
static inline void case_name(mha_case *c, const char *what, const char *extra)
{
    if (!what) return;
    size_t len = (size_t)snprintf(c->name, sizeof c->name, "%s%s%s", what,
                                  what[0] && extra[0] ? "; " : "", extra);
    if (len < sizeof c->name)
        snprintf(c->name + len, sizeof c->name - len, ": T=%d d_model=%d n_heads=%d d_k=%d%s",
                 c->T, c->d_model, c->n_heads, c->d_k, c->weights ? "" : ", weights = NULL");
}

/* take_layer - the case's d_k, its copy of the layer's weights, and the
 * reference's answer buffers (filled by the lab's forward pass) */
static inline void take_layer(mha_case *c, const mha *layer)
{
    size_t dd = (size_t)c->d_model * c->d_model;
    c->d_k = c->d_model / c->n_heads;
    c->w_qkv = lab_fresh(3 * dd, layer->w_qkv);
    c->w_o = lab_fresh(dd, layer->w_o);
    c->want_out = lab_fresh((size_t)c->T * c->d_model, NULL);
    c->want_w = lab_fresh((size_t)c->n_heads * c->T * c->T, NULL);
}

/* with_record - the call's n buffers b[] (b[2] the layer's w_qkv, NULL for
 * layer = NULL) and, after them when a layer is passed, the record of its
 * struct (layer.h), into all; the number of buffers */
static inline int with_record(lab_mat *all[], lab_mat *const b[], int n)
{
    memcpy(all, b, n * sizeof *b);
    all[n] = b[2] ? lab_out("*layer", 1, LAYER_SEEN) : NULL;
    return b[2] ? n + 1 : n;
}

/* layer_kept - after a call of fn on a layer (d_model, n_heads): what its
 * struct held then (seen, from calls.c: layer.h) must be what it held
 * before; each field that changed is a failure that names it. reads[2]
 * says, in English and Spanish, who reads the layer. Its hint is said
 * here, not in a lab's mistakes.c: both labs' judges give it, and each
 * links only its own mistakes.c */
static inline void layer_kept(const lab_mat *seen, const char *fn, const char *const reads[2],
                              int d_model, int n_heads)
{
    const double *v = seen->p;
    if (v[0] == LAB_UNWRITTEN) lab_bug("the driver did not say what the layer held");
    static const char *const size_name[3] = { "d_model", "n_heads", "d_k" };
    const double was[3] = { d_model, n_heads, d_model / n_heads };
    bool changed = false;
    for (int f = LAYER_D_MODEL; f <= LAYER_D_K; f++)
        if (v[f] != was[f]) {
            lab_fail(EN_ES("%s changed the layer it was given: layer->%s was %g before the call "
                           "and is %g after it",
                           "%s cambió la capa que recibió: layer->%s era %g antes de la llamada "
                           "y es %g después"), fn, size_name[f], was[f], v[f]);
            changed = true;
        }
    for (int f = LAYER_W_QKV; f <= LAYER_W_O; f++)
        if (v[f] != LAYER_SAME) {
            lab_fail(EN_ES("%s changed the layer it was given: layer->%s pointed at the layer's "
                           "weights before the call, and after it %s",
                           "%s cambió la capa que recibió: layer->%s apuntaba a los pesos de la "
                           "capa antes de la llamada, y después %s"),
                     fn, f == LAYER_W_QKV ? "w_qkv" : "w_o",
                     v[f] == LAYER_NULL ? EN_ES("is NULL", "es NULL")
                                        : EN_ES("points elsewhere", "apunta a otro sitio"));
            changed = true;
        }
    if (changed)
        lab_hint(EN_ES("the layer is a const mha *: %s reads it and leaves it as it was - its "
                       "sizes, its two pointers and the weights they point at - since the "
                       "caller runs the same layer on the next sequence and frees it with "
                       "mha_free. Keep what you work out in variables and buffers of your own",
                       "la capa es un const mha *: %s la lee y la deja como estaba - sus "
                       "tamaños, sus dos punteros y los pesos a los que apuntan - porque quien "
                       "llama usa la misma capa con la siguiente secuencia y la libera con "
                       "mha_free. Guarda lo que calcules en variables y búferes tuyos"),
                 reads[lab_es()]);
}

#endif
