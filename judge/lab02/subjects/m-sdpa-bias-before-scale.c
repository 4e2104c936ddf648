/* m-sdpa-bias-before-scale.c - sdpa adds the bias to q . k and scales the
 * sum: (q_i . k_j + bias_ij) / sqrt(d_k). Only a finite bias shows it (a
 * bias of -inf stays -inf).
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'a bias [[0.5,-1,2],[1,0,-0.5]]: T_q=2 T_k=3 d_k=2 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: you added the bias before the scale
 * expect-re: ^sdpa +0 +19 +2$
 */
#define ROW_SCORE(x, b) (((x) + (b)) * scale)
#include "row.h"
