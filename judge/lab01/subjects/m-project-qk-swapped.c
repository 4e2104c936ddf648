/* m-project-qk-swapped.c - qkv_project gives Q and K each other's matrix:
 * q = X W_K and k = X W_Q.
 * run-only: qkv_project
 * expect-exit: nonzero
 * expect: qkv_project, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': q is wrong (k is wrong too)
 * expect: hint: you swapped the matrices: your q is X W_K and your k is X W_Q; Q = X W_Q, K = X W_K, V = X W_V
 * expect-re: ^qkv_project +0 +2 +7$ */
#define MUTANT_qkv_project
#include "base.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    MM_TRY(mm_matmul(q, x, w_k, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_q, T, d_model, d_k, false));
    return mm_matmul(v, x, w_v, T, d_model, d_v, false);
}
