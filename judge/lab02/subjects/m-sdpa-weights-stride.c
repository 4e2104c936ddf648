/* m-sdpa-weights-stride.c - sdpa puts row i of weights at i * T_q: the out
 * rows are right (each is blended at once), but with fewer queries than
 * keys the rows of weights overlap, and with more, the last row runs past
 * the end of weights.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': weights is wrong
 * expect: hint: you wrote row i of weights at i * T_q: a row holds one weight per key, so row i starts at i * T_k (weights is (T_q, T_k) = (2, 4))
 * expect: CRASH sdpa, case 'more queries than keys: T_q=4 T_k=3 d_k=2 d_v=3': wrote past the end of weights
 */
#define ROW_WEIGHTS(i) (weights + (size_t)(i) * T_q)
#include "row.h"
