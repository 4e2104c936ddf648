/* Generated from the book: book/en/92-programs-03.nw, the example
 * programs of chapter 03 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch03-planted.h - the 8-token example of chapter 03 with hand-made
 * features, and four heads planted by hand in MultiHeadAttention(64, 4, 1):
 * previous token, same word, the subject of the verb, the plain average. */
#ifndef EXAMPLES_CH03_PLANTED_H
#define EXAMPLES_CH03_PLANTED_H

#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mha.h"

enum { P_T = 8, P_D = 64, P_H = 4, P_DK = P_D / P_H };

/* the tokens "I work , you work , he ___" as words 0..5 */
static const int p_word[P_T] = { 0, 1, 2, 3, 1, 2, 4, 5 };
enum { P_WORD = 0, P_POS = 8, P_CLAUSE = 16, P_PRONOUN = 20, P_VERB = 21 };

/* planted_x - X (8, 64): one-hot word (columns 0-5), one-hot position
 * (8-15), one-hot clause (16-18), "a subject pronoun" (20), "a verb or
 * the blank" (21); every other column 0 */
static void planted_x(double *x)
{
    memset(x, 0, sizeof(double) * P_T * P_D);
    for (int t = 0; t < P_T; t++) {
        double *x_t = x + t * P_D;                 /* row t of X: (64) */
        int w = p_word[t];
        x_t[P_WORD + w] = 1;
        x_t[P_POS + t] = 1;
        x_t[P_CLAUSE + t / 3] = 1;                /* clauses 0-2, 3-5, 6-7 */
        x_t[P_PRONOUN] = (w == 0 || w == 3 || w == 4);  /* I, you, he */
        x_t[P_VERB] = (w == 1 || w == 5);              /* work, the blank */
    }
}

/* plant - make query feature fq of head h meet key feature fk in the
 * head's column c: q.k gains 4 * 5 = 20, a scaled score of 20 / 4 = 5 */
static void plant(double *w_q, double *w_k, int h, int c, int fq, int fk)
{
    w_q[fq * P_D + h * P_DK + c] = 4;
    w_k[fk * P_D + h * P_DK + c] = 5;
}

/* planted_layer - W_Q and W_K of every head set by hand (W_V, W_O as
 * drawn); 0 on success, else the library's status */
static mm_status planted_layer(mha *layer)
{
    size_t dd = (size_t)P_D * P_D;
    double *w = calloc(4 * dd, sizeof *w);
    if (w == NULL) return MM_ENOMEM;
    double *w_q = w, *w_k = w + dd, *w_v = w + 2 * dd, *w_o = w + 3 * dd;
    mm_status st = mha_get_weights(w_q, w_k, w_v, w_o, layer);
    memset(w_q, 0, 2 * dd * sizeof *w);        /* W_Q, W_K: only the plants */
    for (int t = 0; t + 1 < P_T; t++)          /* head 0: the previous token */
        plant(w_q, w_k, 0, t, P_POS + t + 1, P_POS + t);
    for (int word = 0; word < 6; word++)       /* head 1: the same word */
        plant(w_q, w_k, 1, word, P_WORD + word, P_WORD + word);
    plant(w_q, w_k, 2, 0, P_VERB, P_PRONOUN);  /* head 2: a verb's subject */
    for (int c = 0; c < 3; c++)                /* ... in the same clause */
        plant(w_q, w_k, 2, 1 + c, P_CLAUSE + c, P_CLAUSE + c);
    /* head 3: nothing planted; its scores are 0, its weights 1/8 */
    if (st == MM_OK) st = mha_set_weights(layer, w_q, w_k, w_v, w_o);
    free(w);
    return st;
}

#endif
