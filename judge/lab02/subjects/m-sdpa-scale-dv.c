/* m-sdpa-scale-dv.c - sdpa divides the scores by sqrt(d_v), the width of
 * V, instead of sqrt(d_k). The worked example has d_k = d_v and passes;
 * the case with fewer queries than keys (d_k = 3, d_v = 2) shows it, with
 * a hint of its own. Where d_v = 1 the division does nothing, and the
 * hint of unscaled scores says so, never without it.
 * The scores the weights imply name the slip too.
 * run-only: sdpa
 * expect-exit: 1
 * expect-not: FAIL  sdpa, case 'worked example
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: you divided the scores by sqrt(d_v) = sqrt(2): the scale is 1/sqrt(d_k) = 1/sqrt(3) = 0.57735, with d_k the length of q_i and k_j
 * expect-not-re: hint: the scores are not scaled: .* before the softmax$
 * expect: your scores are sqrt(d_k / d_v) times the expected ones: they were divided by sqrt(d_v) = 1.41421, not by sqrt(d_k) = 1.73205
 */
#define ROW_SCALE(d_k) (1.0 / sqrt((double)d_v))
#include "row.h"
