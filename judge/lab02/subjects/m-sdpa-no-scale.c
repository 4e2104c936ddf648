/* m-sdpa-no-scale.c - sdpa leaves the scores unscaled: softmax(Q K^T) V,
 * chapter 01's plain attention. On the worked example, out row 0 is
 * chapter 01's (0.5379, 2.1932), not chapter 02's (0.6605, 2.0093).
 * The scores the weights imply are sqrt(d_k) times the expected ones, and
 * the report says so under them.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': out is wrong (weights is wrong too)
 * expect: hint: the scores are not scaled: divide each q_i . k_j by sqrt(d_k) = sqrt(2) = 1.41421 before the softmax
 * expect: [0.660477]  2.00928     [0.537883]  2.19318*
 * expect: the scores before the softmax, each row minus its largest (-inf: a weight of 0): q k^T / sqrt(d_k) + bias expected, got those your weights imply (log w):
 * expect-re: ^ +expected scores \(2, 2\) +got scores$
 * expect-re: ^ +\[-0\.707107\] +0 +\[ +-1\] +0 *$
 * expect: your scores are sqrt(d_k) = 1.41421 times the expected ones: they were not divided by sqrt(d_k)
 */
#define ROW_SCALE(d_k) 1.0
#include "row.h"
