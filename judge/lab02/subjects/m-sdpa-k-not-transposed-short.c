/* m-sdpa-k-not-transposed-short.c - m-sdpa-k-not-transposed.c's sdpa, in
 * the report make lab prints (no --all): the first failing check in full,
 * each later one a line with its hint once; the attention's failures, then
 * the contract's under their heading; how to see more.
 * run-only: sdpa
 * run-report: short
 * expect-exit: 1
 * expect-lines-at-most: 40
 * expect: 4 of 4 elements of out (2, 2) wrong
 * expect: this check alone: make lab NN=02 CHECK=sdpa/c2_fewer_queries
 * expect-once: this check alone:
 * expect-re: ^  FAIL  sdpa/c3_more_queries: out is wrong \(weights is wrong too\)$
 * expect-once: hint: you read K as if it were stored transposed, (d_k, T_k)
 * expect-order: more failing checks >> The contract (bad arguments: checks eN):
 * expect-order: The contract (bad arguments: checks eN): >> FAIL  sdpa/e6_overflow: returned MM_OK (0)
 * expect-once: The contract (bad arguments: checks eN):
 * expect: every case of every check, make lab NN=02 ALL=1.
 * expect-re: ^  cases \(cN\) +0 +[0-9]+ +[0-9]+$
 * expect-re: ^  contract \(eN\) +0 +5 +1$
 * expect-re: ^total +0 +[0-9]+ +[0-9]+$
 */
#include "m-sdpa-k-not-transposed.c"
