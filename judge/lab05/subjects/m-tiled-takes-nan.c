/* m-tiled-takes-nan.c - sdpa_causal_tiled does not check that q, k and v
 * are finite: a NaN in q or v, a +inf in k, goes through to out.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/e4_not_finite
 * expect: hint: the inputs must be finite: MM_NEED_FINITE(q, T, d_k)
 * expect-re: ^sdpa_causal_tiled +0 +16 +1$
 */
#define NO_TILED_CHECK_FINITE
#include "base.h"
