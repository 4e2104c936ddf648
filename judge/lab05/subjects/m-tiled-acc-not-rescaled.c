/* m-tiled-acc-not-rescaled.c - sdpa_causal_tiled rescales its running sum
 * when a tile raises a row's maximum, but not its accumulated output.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: your accumulated output o is not rescaled when a tile raises a row's maximum
 * expect-not: hint: your running sum l is not rescaled
 */
#define TILE_RESCALE_ACC(o, a) (o)
#include "base.h"
