/* lab05.h - the checks of lab 05 (the judge's side): cases and the known
 * mistakes. The references are chapter 02's softmax_row, chapter 02's sdpa
 * under chapter 04's causal mask, and chapter 04's mha_forward_causal (the
 * cache's keys and values: chapter 05's own mha_decode_step); the
 * learner's functions run in another process, reached through lab_call. */
#ifndef LAB05_H
#define LAB05_H

#include <stdbool.h>
#include "minimodel/attention/fast.h"
#include "harness.h"

/* online_case - one input of softmax_online, and its answer */
typedef struct {
    char name[300];
    int n, block;
    const double *s0;           /* (n) the scores given */
    double *want;               /* (n) softmax_row's weights */
} online_case;

/* tiled_case - one input of sdpa_causal_tiled, and its answer */
typedef struct {
    char name[300];
    int T, d_k, d_v, block_q, block_k;
    const double *q, *k, *v;    /* (T, d_k), (T, d_k), (T, d_v) */
    double *want;               /* (T, d_v): sdpa with mask_causal */
} tiled_case;

/* decode_case - one step of mha_decode_step on a cache holding t tokens
 * (a sequence of steps is one such case per step), and its answer */
typedef struct {
    char name[300];
    int d_model, n_heads, d_k, T_max, t;
    const double *w_qkv, *w_o;  /* the layer's, as mha_new packs them */
    const double *x;            /* (t + 1, d_model): tokens 0 .. t */
    double *kv0;                /* (2 n_heads T_max, d_k): the cache before the step
                                   (rows of tokens 0 .. t - 1, the rest 0) */
    double *want_kv;            /* the cache after it (token t's rows too) */
    double *want_out;           /* (d_model): row t of mha_forward_causal */
} decode_case;

/* the known mistakes of each function (lab_diagnose): each prints the hint
 * of the mistake that explains the learner's output; ctx is the case
 * (got[0] is s, out; for mha_decode_step got[1] is the cache's keys and
 * values) */
lab_diagnose diagnose_online;
lab_diagnose diagnose_tiled;
lab_diagnose diagnose_decode;

/* tiled_status_hint - sdpa_causal_tiled refused a valid case c with
 * status st: if a known mistake leaves a query with no key (0 / 0), say
 * so; true if said */
bool tiled_status_hint(const tiled_case *c, mm_status st);

/* the hints of check.c's checks, said once each in mistakes.c */
typedef enum {
    CH_CHECK_FIRST,         /* a call wrote before failing as it should */
    CH_BAD_SCORE,           /* softmax_online took a NaN or +inf score */
    CH_TOO_LARGE,           /* sdpa_causal_tiled took T x d_k past any buffer */
    CH_NOT_FINITE,          /* a NaN or inf in q, k, v or x, taken */
    CH_OVERLAP,             /* outputs sharing memory with inputs, taken */
    CH_TILED_RANGE,         /* an overflowing score, not MM_ERANGE */
    CH_FULL,                /* a full cache, taken */
    CH_DECODE_RANGE,        /* x W_QKV overflows, not MM_ERANGE */
    CH_T_NOT_ADVANCED,      /* a step that succeeded left cache->T as it was */
    CH_KEPT_ON_FAILURE,     /* a step that failed changed cache->T */
    CH_CACHE_POINTERS,      /* a step changed the cache's pointers or layer */
    CH_SEQUENCE,            /* a step of a sequence went wrong after right ones */
    N_CHECK_HINTS
} check_hint_id;
/* check_hint - print hint h (lab_hint) in the report's language */
void check_hint(check_hint_id h);

#endif
