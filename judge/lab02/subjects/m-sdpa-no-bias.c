/* m-sdpa-no-bias.c - sdpa ignores its bias argument (so a NaN or +inf bias
 * goes unrefused too).
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'a bias [[0.5,-1,2],[1,0,-0.5]]: T_q=2 T_k=3 d_k=2 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: your sdpa ignores bias
 * expect-re: ^sdpa +0 +14 +7$
 */
#define ROW_SCORE(x, b) ((void)(b), (x) * scale)
#include "row.h"
