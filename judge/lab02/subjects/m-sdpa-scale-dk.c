/* m-sdpa-scale-dk.c - sdpa divides the scores by d_k, not sqrt(d_k).
 * The scores the weights imply are 1/sqrt(d_k) times the expected ones.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong (weights is wrong too)
 * expect: hint: you divided the scores by d_k = 2: the scale is 1/sqrt(d_k) = 1/1.41421
 * expect: your scores are 1/sqrt(d_k) = 1/1.41421 times the expected ones: they were divided by d_k (or by sqrt(d_k) twice), not by sqrt(d_k)
 */
#define ROW_SCALE(d_k) (1.0 / (d_k))
#include "row.h"
