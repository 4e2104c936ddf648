/* m-sdpa-scale-after.c - sdpa takes the softmax of the unscaled scores and
 * divides the weights by sqrt(d_k) afterwards: the rows sum to 1/sqrt(d_k).
 * Where the scale makes no difference to the ratios within a row (one key),
 * the scores the weights imply are right, and the report says the
 * normalisation is wrong.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong (weights is wrong too)
 * expect: hint: you applied the scale after the softmax: it divides the scores, softmax(q_i . k_j / sqrt(d_k)); dividing the weights instead makes a row sum to 1/sqrt(d_k) = 0.707107, not 1
 * expect: the scores your weights imply are right, row by row: the mistake is in the normalisation (each row of weights sums to 1)
 */
#define ROW_SCALE(d_k) 1.0
#define ROW_AFTER(a, n) do { for (int j = 0; j < (n); j++) (a)[j] /= sqrt((double)d_k); } while (0)
#include "row.h"
