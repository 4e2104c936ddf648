/* lab02.h - the checks of lab 02 (the judge's side): cases and the known
 * mistakes. The reference is the library itself (sdpa.h): the learner's
 * functions run in another process, reached through lab_call. */
#ifndef LAB02_H
#define LAB02_H

#include <stdbool.h>
#include "minimodel/attention/sdpa.h"
#include "harness.h"

/* softmax_case - one row of scores for softmax_row */
typedef struct {
    char name[256];             /* as messages show it */
    int n;
    const double *s;            /* (n): the scores given */
    const double *want;         /* (n): the reference's weights */
} softmax_case;

/* sdpa_case - one input of sdpa, and (from the reference) its answer */
typedef struct {
    char name[240];             /* as messages show it */
    int T_q, T_k, d_k, d_v;
    const double *q;            /* (T_q, d_k) */
    const double *k;            /* (T_k, d_k) */
    const double *v;            /* (T_k, d_v) */
    const double *bias;         /* (T_q, T_k), or NULL */
    bool weights;               /* the call passes a weights buffer (else NULL) */
    double *want_out;           /* (T_q, d_v), the reference's */
    double *want_w;             /* (T_q, T_k), the reference's (even when weights is NULL) */
} sdpa_case;

/* the known mistakes of each function (lab_diagnose): each prints the hint
 * of the mistake that explains the learner's outputs; ctx is a
 * softmax_case, or an sdpa_case (got[0] is out, got[1] weights if passed) */
lab_diagnose diagnose_softmax;
lab_diagnose diagnose_sdpa;

/* diagnose_sdpa_refusal - why sdpa refused the valid arguments of case c
 * (weights: the call's weights buffer, or NULL): a NaN of its own making
 * that mm_matmul refused, and the mistake that made it */
void diagnose_sdpa_refusal(const sdpa_case *c, const lab_mat *weights);

/* the hints of the contract's checks (the bad arguments), said once each
 * in mistakes.c with the catalogue of mistakes */
typedef enum {
    CH_MINUS_INF_SCORE,       /* softmax_row refused a score of -inf */
    CH_SOFTMAX_CHECK_FIRST,   /* softmax_row wrote before refusing */
    CH_SOFTMAX_BAD_SCORE,     /* softmax_row took a NaN or +inf */
    CH_MINUS_INF_BIAS,        /* sdpa refused a bias of -inf */
    CH_SDPA_CHECK_FIRST,      /* sdpa wrote before refusing */
    CH_SIZE_PRODUCT,          /* sizes whose product no buffer holds, taken */
    CH_SAME_BUFFER,           /* an output that is another buffer, taken */
    CH_OVERLAP,               /* an output overlapping another buffer, taken */
    CH_NOT_FINITE,            /* an input not finite, taken */
    CH_OVERFLOW,              /* a score that overflows, not MM_ERANGE */
    N_CONTRACT_HINTS
} contract_hint_id;
/* contract_hint - print hint h (lab_hint) in the report's language */
void contract_hint(contract_hint_id h);
/* contract_hint_text - hint h's text in the report's language */
const char *contract_hint_text(contract_hint_id h);

/* row_text - "(1000, 999, -inf)": a row of numbers (at most nine shown) as
 * messages show it; the text lives until the check ends */
const char *row_text(const double *s, int n);

#endif
