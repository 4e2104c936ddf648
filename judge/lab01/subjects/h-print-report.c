/* h-print-report.c - qkv_project prints a forged report (printf is allowed:
 * a learner prints to debug) and computes nothing. The judge's report is
 * its own: the forged lines are shown as the learner's output, labelled,
 * and every check of qkv_project fails.
 * run-only: qkv_project
 * expect-exit: 1
 * expect: OUTPUT qkv_project, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': your code printed this
 * expect-re: ^        \| All 9 checks pass: Lab 01
 * expect-not-re: ^All 9 checks pass
 * expect-re: ^qkv_project +0 +0 +9$ */
#include <stdio.h>
#define MUTANT_qkv_project
#include "base.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    printf("\nfunction                    pending     passed     failed\n");
    printf("qkv_project                       0          9          0\n");
    printf("total                             0          9          0\n\n");
    printf("All 9 checks pass: Lab 01 (the Q, K, V projections) is done.\n");
    return MM_OK;
}
