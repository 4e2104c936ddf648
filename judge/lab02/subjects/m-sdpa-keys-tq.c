/* m-sdpa-keys-tq.c - sdpa scores, softmaxes and blends T_q keys where there
 * are T_k (the two swapped): right on every square case; with fewer
 * queries than keys it ignores the last keys (and leaves their weights
 * unwritten); with more, it reads past the end of k.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: you went over T_q = 2 keys where there are T_k = 4
 * expect: CRASH sdpa, case 'more queries than keys: T_q=4 T_k=3 d_k=2 d_v=3': read past the end of k
 * expect-not: FAIL  sdpa, case 'worked example
 */
#define ROW_KEYS T_q
#include "row.h"
