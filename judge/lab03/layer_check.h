/* layer_check.h - what the checks (check.c) of Lab 03's mha_forward and
 * Lab 04's mha_forward_causal share besides layer_case.h: the buffers of a
 * call (Lab 03's n_bufs = B_BIAS + 1, Lab 04's no bias: B_BIAS), chapter
 * 03's cases, the call, the bad arguments both refuse alike, and, after a
 * wrong out, the stages that locate the mistake: each head's weights, and
 * the heads side by side before W_O (the learner's function again, with
 * W_O = I). */
#ifndef LAB03_LAYER_CHECK_H
#define LAB03_LAYER_CHECK_H

#include <limits.h>
#include "examples/ch03-planted.h"
#include "examples/ch03-worked.h"
#include "layer_case.h"

/* the buffers of a forward pass, in the order of the call; the arguments they stand for */
enum { B_OUT, B_WEIGHTS, B_WQKV, B_WO, B_X, B_BIAS };
static const char *const buf_name[] = { "out", "weights", "layer->w_qkv", "layer->w_o", "x",
                                        "bias" };
static const char *const arg_name[] = { "out", "weights", "layer", "layer", "x", "bias" };

/* a call with b[] and T on the rooms' layer (2, 1) must return want (MM_EINVAL: and write
 * nothing); when says which call. False if the status was not want */
typedef bool layer_refused(lab_mat *const b[], long T, mm_status want, const char *when);

/* worked_layer - case c is chapter 03's worked example (its weights as c
 * says): its sizes, x and layer; x and wo get the texts of X and W_O */
static inline mha *worked_layer(mha_case *c, char x[80], char wo[120])
{
    mha *layer = NULL;
    c->T = CH03_T, c->d_model = CH03_D, c->n_heads = CH03_H;
    LAB_REF(mha_new(&layer, CH03_D, CH03_H, 1));
    LAB_REF(mha_set_weights(layer, ch03_eye, ch03_eye, ch03_eye, ch03_w_o));
    c->x = lab_fresh(CH03_T * CH03_D, ch03_x);
    lab_mat_text(x, 80, ch03_x, CH03_T, CH03_D);
    lab_mat_text(wo, 120, ch03_w_o, CH03_D, CH03_D);
    return layer;
}

/* planted_case - case c is chapter 03's eight tokens through its planted
 * heads (its weights as c says): its sizes, x and layer */
static inline mha *planted_case(mha_case *c)
{
    mha *layer = NULL;
    c->T = P_T, c->d_model = P_D, c->n_heads = P_H;
    LAB_REF(mha_new(&layer, P_D, P_H, 1));
    LAB_REF(planted_layer(layer));
    double *x = lab_fresh(P_T * P_D, NULL);
    planted_x(x);
    c->x = x;
    return layer;
}

/* case_bufs - the n_bufs buffers of a call on case c: out, weights (NULL
 * unless c->weights), the layer's two, x and the bias (NULL if none) */
static inline void case_bufs(lab_mat *b[], int n_bufs, const mha_case *c)
{
    int T = c->T, d = c->d_model;
    b[B_OUT] = lab_out("out", T, d);
    b[B_WEIGHTS] = c->weights ? lab_out("weights", c->n_heads * T, T) : NULL;
    if (c->weights) b[B_WEIGHTS]->block_rows = T;          /* shown head by head */
    b[B_WQKV] = lab_in("layer->w_qkv", d, 3 * d, c->w_qkv);
    b[B_WO] = lab_in("layer->w_o", d, d, c->w_o);
    b[B_X] = lab_in("x", T, d, c->x);
    if (n_bufs > B_BIAS) b[B_BIAS] = c->bias ? lab_in("bias", T, T, c->bias) : NULL;
}

/* layer_call - the learner's fn with its n_bufs buffers b[] (NULL layer->w_qkv: layer =
 * NULL), T and the layer's sizes; the layer's struct read back after it (layer_kept) */
static inline mm_status layer_call(const char *fn, lab_mat *const b[], int n_bufs, long T,
                                   int d_model, int n_heads, const char *const reads[2])
{
    lab_mat *all[B_BIAS + 2];
    mm_status st = lab_call(fn, with_record(all, b, n_bufs), all, 3,
                            (const long[3]){ T, d_model, n_heads });
    if (all[n_bufs]) layer_kept(all[n_bufs], fn, reads, d_model, n_heads);
    return st;
}

/* rooms_with - the n_bufs buffers of a call on (T, d_model, n_heads) = (2, 2, 1); the
 * inputs hold wqkv, wo, x, bias, or where NULL the rooms' own: W_Q = I, W_K = [[0,1],[1,0]],
 * W_V = [[2,0],[0,3]] packed, W_O = I, x = I, a bias of 0 */
static inline void rooms_with(lab_mat *b[], int n_bufs, const double *wqkv, const double *wo,
                              const double *x, const double *bias)
{
    static const double wqkv0[12] = { 1, 0, 0, 1, 2, 0, 0, 1, 1, 0, 0, 3 };
    static const double eye[4] = { 1, 0, 0, 1 }, zero[4] = { 0 };
    b[B_OUT] = lab_out("out", 2, 2);
    b[B_WEIGHTS] = lab_out("weights", 2, 2);
    b[B_WQKV] = lab_in(buf_name[B_WQKV], 2, 6, wqkv ? wqkv : wqkv0);
    b[B_WO] = lab_in(buf_name[B_WO], 2, 2, wo ? wo : eye);
    b[B_X] = lab_in("x", 2, 2, x ? x : eye);
    if (n_bufs > B_BIAS) b[B_BIAS] = lab_in("bias", 2, 2, bias ? bias : zero);
}

/* ---- where a wrong out goes wrong: the stages of a forward pass -------------------------- */

/* eye_layer - case c's layer with W_O = I (eye, d_model^2 doubles, written here): its
 * out is the heads' outputs side by side, the concatenation before W_O */
static inline mha eye_layer(const mha_case *c, double *eye)
{
    int d = c->d_model;
    for (int e = 0; e < d * d; e++) eye[e] = e % (d + 1) == 0 ? 1.0 : 0.0;
    return (mha){ d, c->n_heads, c->d_k, (double *)c->w_qkv, eye };
}

/* head_wrong - head h's columns (d_k each) of the (T, d_model) got and want differ */
static inline bool head_wrong(const mha_case *c, const double *got, const double *want, int h,
                              double scale)
{
    for (int t = 0; t < c->T; t++) {
        size_t at = (size_t)t * c->d_model + (size_t)h * c->d_k;
        if (!lab_all_same(got + at, want + at, (size_t)c->d_k, scale)) return true;
    }
    return false;
}

/* heads_list - "head 1" or "heads 1, 2 and 3": the heads whose columns of got and want
 * differ, into buf */
static inline void heads_list(char *buf, size_t size, const mha_case *c, const double *got,
                              const double *want)
{
    double scale = lab_scale(want, (size_t)c->T * c->d_model);
    int n = 0, k = 0;
    for (int h = 0; h < c->n_heads; h++) n += head_wrong(c, got, want, h, scale);
    int len = snprintf(buf, size, "%s", n == 1 ? EN_ES("head", "la cabeza")
                                               : EN_ES("heads", "las cabezas"));
    for (int h = 0; h < c->n_heads && len < (int)size; h++) {
        if (!head_wrong(c, got, want, h, scale)) continue;
        k++;
        len += snprintf(buf + len, size - len, "%s%d",
                        k == 1 ? " " : k == n ? EN_ES(" and ", " y ") : ", ", h);
    }
}

/* show_concat - case c's forward pass fn again, with W_O = I, on n_bufs buffers: its out
 * (the heads side by side before W_O) beside the reference's, want (T, d_model), and
 * which stage is wrong: the heads or W_O. Nothing if the call does not return MM_OK */
static inline void show_concat(const mha_case *c, const char *fn, int n_bufs,
                               const double *want)
{
    mha_case eye_case = *c;
    double *eye = lab_fresh((size_t)c->d_model * c->d_model, NULL);
    eye_case.w_o = eye_layer(c, eye).w_o;
    eye_case.weights = false;
    lab_mat *b[B_BIAS + 1];
    case_bufs(b, n_bufs, &eye_case);
    mm_status st;
    bool todo;
    if (!lab_probe(&st, &todo, fn, n_bufs, b, 3,
                   (const long[3]){ c->T, c->d_model, c->n_heads }) || st != MM_OK)
        return;
    lab_mat *concat = b[B_OUT];
    concat->name = "concat";
    concat->block_cols = c->d_k;
    char intro[300], heads[200];
    snprintf(intro, sizeof intro,
             EN_ES("the heads' outputs side by side, before W_O: your %s again on this case "
                   "with W_O = I, so that its out is them",
                   "las salidas de las cabezas una al lado de otra, antes de W_O: tu %s otra vez "
                   "con este caso y W_O = I, así que su out son ellas"), fn);
    if (!lab_show_values(intro, concat, want, 4)) {
        lab_detail("%s", EN_ES("with W_O = I your out is right: the mistake is in applying W_O "
                               "(out = concat W_O, with the layer's w_o)",
                               "con W_O = I tu out está bien: el error está al aplicar W_O "
                               "(out = concat W_O, con el w_o de la capa)"));
        return;
    }
    heads_list(heads, sizeof heads, c, concat->p, want);
    lab_detail(EN_ES("the concatenation is already wrong, in the columns of %s (d_k = %d a "
                     "head): the mistake is before W_O",
                     "la concatenación ya está mal, en las columnas de %s (d_k = %d por "
                     "cabeza): el error está antes de W_O"), heads, c->d_k);
}

/* show_weights - the learner's weights (n_heads T, T), head by head, beside the
 * reference's, when out was wrong; or, if they are right, that the mistake is after the
 * softmax (unless a hint said so). True if they were wrong: the mistake is before W_O */
static inline bool show_weights(const mha_case *c, const lab_mat *weights)
{
    if (!c->weights || !weights) return false;
    if (lab_show_values(EN_ES("the weights of each head, which out is made from:",
                              "los pesos de cada cabeza, con los que se hace out:"),
                        weights, c->want_w, 4))
        return true;
    if (!c->said_weights_right)
        lab_detail("%s", EN_ES("weights are right: the mistake is after the softmax",
                               "weights está bien: el error está después del softmax"));
    return false;
}

/* layer_nulls - out, the layer and x NULL in turn: each call refused */
static inline void layer_nulls(int n_bufs, layer_refused *refused)
{
    static const int must[] = { B_OUT, B_WQKV, B_X };
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        lab_mat *b[B_BIAS + 1];
        rooms_with(b, n_bufs, NULL, NULL, NULL, NULL);
        b[must[i]] = NULL;
        if (must[i] == B_WQKV) b[B_WO] = NULL;         /* layer = NULL */
        char when[48];
        lab_case_when(when, sizeof when, "%s = NULL", arg_name[must[i]]);
        ok &= refused(b, 2, MM_EINVAL, when);
    }
    if (!ok) lab_null_hint();
}

/* layer_sizes - T = 0 and -1 refused, then T = INT_MAX (when_max says
 * why it must be refused). False if T = INT_MAX was not refused: the
 * caller gives its lab's hint (each lab allocates something else) */
static inline bool layer_sizes(int n_bufs, layer_refused *refused, const char *when_max)
{
    bool ok = true;
    lab_mat *b[B_BIAS + 1];
    for (int value = 0; value >= -1; value--) {
        rooms_with(b, n_bufs, NULL, NULL, NULL, NULL);
        char when[48];
        lab_case_when(when, sizeof when, "T = %d", value);
        ok &= refused(b, value, MM_EINVAL, when);
    }
    if (!ok) lab_size_hint();
    rooms_with(b, n_bufs, NULL, NULL, NULL, NULL);
    lab_case("T = INT_MAX");
    return refused(b, INT_MAX, MM_EINVAL, when_max);
}

#endif
