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

#endif
