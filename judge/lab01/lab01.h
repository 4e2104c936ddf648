/* lab01.h - the checks of lab 01 (the judge's side): cases and the known
 * mistakes. The reference is the library itself (qkv.h): the learner's
 * functions run in another process, reached through lab_call. */
#ifndef LAB01_H
#define LAB01_H

#include "minimodel/attention/qkv.h"
#include "harness.h"

/* qkv_case - one input of the projections: X and the three matrices, and
 * (from the reference) what the fused path makes of them */
typedef struct {
    char name[200];             /* as messages show it */
    int T, d_model, d_k, d_v;
    double *x;                  /* (T, d_model) */
    double *w_q, *w_k;          /* (d_model, d_k) */
    double *w_v;                /* (d_model, d_v) */
    double *w_qkv;              /* (d_model, 2 d_k + d_v) = [W_Q | W_K | W_V] */
    double *qkv;                /* (T, 2 d_k + d_v) = X W_QKV */
} qkv_case;

/* 0 worked example, 1 non-square; drawn from the run's seed: 2 random, 3
 * the same shape with fresh values, 4 one row (T = d_model = 1), 5 extreme
 * values, 6 long (T and d_model 256 or more) */
#define QKV_CASES 7

/* qkv_case_make - case number which (0 .. QKV_CASES-1), w_qkv and qkv included */
void qkv_case_make(qkv_case *c, int which);

/* the known mistakes of each function (lab_diagnose, ctx a qkv_case): each
 * prints the hint of the mistake that explains the learner's outputs */
lab_diagnose diagnose_project;  /* got q, k, v */
lab_diagnose diagnose_pack;     /* got w_qkv */
lab_diagnose diagnose_split;    /* got q, k, v, cut from the case's qkv */
lab_diagnose diagnose_fused;    /* got q, k, v, qkv */

/* diagnose_param_count - why attention_param_count(&count, d_model, n_heads)
 * returned status with count (the reference: want_status, want) */
void diagnose_param_count(int d_model, int n_heads, mm_status status, long count,
                          mm_status want_status, long want);

#endif
