/* m-forward-head0-short.c - m-forward-head0.c's mha_forward, in the
 * report make lab prints (no --all): the first failing check in full,
 * each later one a line, a hint repeated (but for its numbers) given once,
 * as many such lines as keep the report near 40 lines, then how many more
 * fail and how to see them.
 * run-only: mha_forward
 * run-report: short
 * expect-exit: 1
 * expect-lines-at-most: 40
 * expect: 12 of 12 elements of out (3, 4) wrong
 * expect: this check alone: make lab NN=03 CHECK=mha_forward/c1_worked_example
 * expect-once: this check alone:
 * expect-re: ^  FAIL  mha_forward/c2_initial_weights: out is wrong \(weights is wrong too\)$
 * expect-re: ^  FAIL  mha_forward/c5_dk_one: out is wrong \(weights is wrong too\)$
 * expect-once: hint: every head used head 0's queries, keys and values
 * expect-not: h d_k .. h d_k + 2,
 * expect-not: c13_random_long
 * expect-re: ^  \.\.\. and [0-9]+ more failing checks$
 * expect: one check in full, make lab NN=03 CHECK=FUNCTION/NAME;
 * expect: every case of every check, make lab NN=03 ALL=1.
 * expect-not: The contract (bad arguments
 * expect-re: ^  cases \(cN\) +0 +[0-9]+ +1[0-9]$
 */
#include "m-forward-head0.c"
