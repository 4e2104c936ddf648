/* lab03.h - the checks of lab 03 (the judge's side): cases and the known
 * mistakes. The reference is the library itself (mha.h): the learner's
 * functions run in another process, reached through lab_call. A stack of
 * heads (n_heads, T, d_k) is shown as an (n_heads T, d_k) matrix, head h in
 * rows h T .. h T + T - 1; the weights (n_heads, T, T) likewise. */
#ifndef LAB03_H
#define LAB03_H

#include <stdbool.h>
#include "minimodel/attention/mha.h"
#include "harness.h"
#include "layer_case.h"

/* heads_case - one input of mha_split_heads or mha_merge_heads */
typedef struct {
    char name[240];             /* as messages show it */
    int T, n_heads, d_k;
    const double *m;            /* (T, n_heads d_k) */
    const double *heads;        /* (n_heads, T, d_k): the split of m */
    bool merge;                 /* a case of mha_merge_heads (else of the split) */
} heads_case;

/* the known mistakes of each function (lab_diagnose): each prints the hint
 * of the mistake that explains the learner's outputs; ctx is a heads_case,
 * or an mha_case (got[0] is out, got[1] weights if passed) */
lab_diagnose diagnose_heads;      /* of the split or the merge, as ctx says */
lab_diagnose diagnose_forward;

/* diagnose_round_trip - merge(split(m)) was not m: with the learner's
 * split heads (n_heads, T, d_k) and merged back m2 (T, d_model), say which
 * of the two functions is to blame */
void diagnose_round_trip(const heads_case *c, const double *heads, const double *m2);

/* the hints of check.c's checks (most of them on bad arguments), said
 * once each in mistakes.c with the catalogue of mistakes */
typedef enum {
    CH_MERGE_COPIES,         /* a merge of NaN or infinite values refused */
    CH_SPLIT_COPIES,         /* a split of NaN or infinite values refused */
    CH_HEADS_CHECK_FIRST,    /* a split or merge wrote before refusing */
    CH_WIDTH_IN_INT,         /* n_heads d_k past an int, taken */
    CH_HEADS_SIZE_PRODUCT,   /* T x n_heads d_k past any buffer, taken */
    CH_LARGE_BIAS,           /* mha_forward refused a bias of +-1e300 */
    CH_LARGE_SCORES,         /* x of about 1e100 gave MM_ERANGE */
    CH_MINUS_INF_BIAS,       /* mha_forward refused a bias of -inf */
    CH_SDPA_REFUSED,         /* the learner's call of sdpa refused */
    CH_FORWARD_CHECK_FIRST,  /* mha_forward wrote before refusing */
    CH_LAYER_SIZE_PRODUCT,   /* mha_forward took T = INT_MAX */
    CH_SAME_BUFFER,          /* an output that is another buffer, taken */
    CH_OVERLAP,              /* an output overlapping another buffer, taken */
    CH_NOT_FINITE,           /* x or a bias not finite, taken */
    CH_OVERFLOW,             /* a product that overflows, not MM_ERANGE */
    N_CHECK_HINTS
} check_hint_id;
/* check_hint - print hint h (lab_hint) in the report's language */
void check_hint(check_hint_id h);
/* the two hints that print names, functions of mistakes.c so that the
 * compiler checks their formats. heads_alias_hint - a split or merge took
 * out and in (their names) sharing memory */
void heads_alias_hint(const char *out, const char *in);
/* forward_callee_hint - mha_forward failed in the learner's split or
 * merge; why, the learner's error message, starts with its name */
void forward_callee_hint(const char *why);

#endif
