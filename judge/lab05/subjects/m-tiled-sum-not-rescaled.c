/* m-tiled-sum-not-rescaled.c - sdpa_causal_tiled rescales its accumulated
 * output when a tile raises a row's maximum, but not its running sum.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: your running sum l is not rescaled when a tile raises a row's maximum
 * expect-not: hint: your accumulated output o is not rescaled
 */
#define TILE_RESCALE_SUM(l, a) (l)
#include "base.h"
