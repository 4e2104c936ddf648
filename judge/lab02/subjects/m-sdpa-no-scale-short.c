/* m-sdpa-no-scale-short.c - m-sdpa-no-scale.c's sdpa, in the report make
 * lab prints (no --all): its hint names each case's sqrt(d_k), sqrt(2) =
 * 1.41421 or sqrt(4) = 2, and is still given once - the same text but for
 * its numbers, fractions included, is the same hint.
 * run-only: sdpa
 * run-report: short
 * expect-exit: 1
 * expect-lines-at-most: 40
 * expect: hint: the scores are not scaled: divide each q_i . k_j by sqrt(d_k) = sqrt(2) = 1.41421
 * expect-once: hint: the scores are not scaled
 * expect-re: ^  FAIL  sdpa/c4_no_weights: out is wrong$
 */
#include "m-sdpa-no-scale.c"
