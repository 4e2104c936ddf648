/* lab01.h - the checks of lab 01: cases, the reference, the known mistakes */
#ifndef LAB01_H
#define LAB01_H

#include "minimodel/attention/qkv.h"
#include "harness.h"

/* The reference library, renamed so it links beside the learner's functions. */
extern __typeof__(qkv_project) ref_qkv_project;
extern __typeof__(qkv_pack) ref_qkv_pack;
extern __typeof__(qkv_split) ref_qkv_split;
extern __typeof__(qkv_project_fused) ref_qkv_project_fused;
extern __typeof__(attention_param_count) ref_attention_param_count;

/* qkv_case - one input of the projections: X and the three matrices */
typedef struct {
    char name[160];             /* as messages show it */
    int T, d_model, d_k, d_v;
    double *x;                  /* (T, d_model) */
    double *w_q, *w_k;          /* (d_model, d_k) */
    double *w_v;                /* (d_model, d_v) */
} qkv_case;

#define QKV_CASES 5             /* 0 worked example, 1 non-square, 2-4 random */

/* qkv_case_make - case number which (0 .. QKV_CASES-1) */
void qkv_case_make(qkv_case *c, int which);

/* the known mistakes: each prints its hint if it explains the learner's output
 * (got) where the reference's (want) differs; scale as for lab_close */
void diagnose_project(const qkv_case *c, const double *got[3], const double *want[3],
                      double scale);
void diagnose_pack(const qkv_case *c, const double *got, const double *want,
                   double scale);
void diagnose_split(const double *qkv, int T, int d_k, int d_v,
                    const double *got[3], const double *want[3], double scale);
void diagnose_fused(const qkv_case *c, const double *w_qkv, const double *got[4],
                    const double *want[4], double scale);
void diagnose_param_count(int d_model, int n_heads, long got, long want);

#endif
