/* lab04.h - the checks of lab 04 (the judge's side): cases and the known
 * mistakes. The reference is the library itself (mask.h): the learner's
 * functions run in another process, reached through lab_call. The weights
 * of the causal layer (n_heads, T, T) are shown as an (n_heads T, T)
 * matrix, head h in rows h T .. h T + T - 1. */
#ifndef LAB04_H
#define LAB04_H

#include <stdbool.h>
#include "minimodel/attention/mask.h"
#include "harness.h"
#include "../lab03/layer_case.h"

/* the four mask functions, in lab04.def's order: lab_functions[fn] names fn */
typedef enum { FN_CAUSAL, FN_PADDING, FN_FROM_BOOL, FN_COMBINE } mask_fn;

/* mask_case - one input of a mask function, and (from the reference) its answer */
typedef struct {
    char name[300];             /* as messages show it */
    mask_fn fn;
    int T_q, T_k;               /* mask_causal: T_q = T_k = T */
    int length;                 /* mask_padding */
    const unsigned char *allowed;   /* mask_from_bool: (T_q, T_k) bools */
    const double *bias0;        /* mask_combine: bias before the call */
    const double *other;        /* mask_combine: (T_q, T_k); the same as bias0 when same */
    bool same;                  /* mask_combine: other is bias itself */
    double *want;               /* (T_q, T_k), the reference's */
} mask_case;

/* causal_case - one input of mha_forward_causal (its bias NULL), and (from
 * the reference) its answer */
typedef mha_case causal_case;

/* the known mistakes of each function (lab_diagnose): each prints the hint
 * of the mistake that explains the learner's outputs; ctx is a mask_case
 * (got[0] is bias), or a causal_case (got[0] is out, got[1] weights if
 * passed) */
lab_diagnose diagnose_mask;
lab_diagnose diagnose_causal;

/* combine_status_hint - mask_combine on case c returned got, where the
 * reference returns want: if reading bias, or other, transposed gives got
 * (an overflow found where the right sums have none, or one missed), say
 * so; true if that was said */
bool combine_status_hint(const mask_case *c, mm_status want, mm_status got);

/* show_hidden_rows - after a wrong mask: when want (T, T) has a row that
 * hides every key and got holds no NaN or +inf, run chapter 03's
 * mha_forward with got as its bias and say what that row of the weights
 * becomes, next to what -INFINITY gives (0) */
void show_hidden_rows(const double *want, const double *got, int T);

/* the hints of check.c's checks (most of them on bad arguments), said
 * once each in mistakes.c with the catalogue of mistakes */
typedef enum {
    CH_CHECK_FIRST,            /* a call wrote before failing as it should */
    CH_SELF_NOT_OVERLAP,       /* mask_combine refused other = bias */
    CH_MINUS_INF_MASK,         /* mask_combine refused a valid case */
    CH_FINITE_SUM,             /* mask_combine: MM_ERANGE, no sum overflows */
    CH_LENGTH_RANGE,           /* mask_padding refused length 0 or T_k */
    CH_MASK_SIZE_PRODUCT,      /* a mask of INT_MAX x INT_MAX, taken */
    CH_LENGTH_REFUSED,         /* a length < 0 or > T_k, taken */
    CH_BOOL_OVERLAP,           /* allowed overlapping bias, taken */
    CH_SUM_OVERFLOW,           /* a sum that overflows, not MM_ERANGE */
    CH_BAD_MASK_VALUE,         /* a NaN or +inf in a mask, taken */
    CH_SUM_OVERFLOW_ANYWHERE,  /* the drawn overflowing pair, not MM_ERANGE */
    CH_PLUS_INF_MASK,          /* the drawn +inf in bias, taken */
    CH_COMBINE_OVERLAP,        /* bias and other overlapping, taken */
    CH_FINITE_HIDDEN,          /* a hidden key with a tiny weight, not 0 */
    CH_FUTURE_KEY,             /* the layer looked at a hidden key's overflow */
    CH_INNER_NAN,              /* the layer refused a NaN of its own */
    CH_MASK_CALL_FAILED,       /* the layer's call of mask_causal failed */
    CH_PREFIX,                 /* appended tokens changed earlier ones */
    CH_CAUSAL_SIZE_PRODUCT,    /* the causal layer took T = INT_MAX */
    CH_PASS_X_STATUS,          /* the causal layer took x not finite */
    CH_PASS_ALIAS_STATUS,      /* the causal layer took outputs sharing memory */
    CH_PASS_RANGE_STATUS,      /* the causal layer's overflow, not MM_ERANGE */
    CH_ONE_TOKEN,              /* one token's score overflows, not MM_ERANGE */
    N_CHECK_HINTS
} check_hint_id;
/* check_hint - print hint h (lab_hint) in the report's language */
void check_hint(check_hint_id h);
/* nan_row_hint - the causal layer refused its own NaN, and row row of
 * head head's weights is all NaN (a function, so that the compiler checks
 * the hint's format) */
void nan_row_hint(int row, int head);

#endif
