/* m-sdpa-k-not-transposed.c - sdpa scores with mm_matmul(..., false): K
 * read as if stored (d_k, T_k). The worked example's K is symmetric, so it
 * passes; the first non-square case shows it.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: you read K as if it were stored transposed, (d_k, T_k)
 * expect-not: FAIL  sdpa, case 'worked example
 */
#define ROW_SCORES(a, q_i) mm_matmul(a, q_i, k, 1, d_k, T_k, false)
#include "row.h"
