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

#endif
