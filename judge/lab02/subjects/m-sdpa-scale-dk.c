/* m-sdpa-scale-dk.c - sdpa divides the scores by d_k, not sqrt(d_k).
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong (weights is wrong too)
 * expect: hint: you divided the scores by d_k = 2: the scale is 1/sqrt(d_k) = 1/1.41421
 */
#define ROW_SCALE(d_k) (1.0 / (d_k))
#include "row.h"
