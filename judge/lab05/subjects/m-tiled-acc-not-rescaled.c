/* m-tiled-acc-not-rescaled.c - sdpa_causal_tiled rescales its running sum
 * when a tile raises a row's maximum, but not its accumulated output.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: the rescaling forgotten when the maximum grows: your accumulated output o is not rescaled
 * expect-not: hint: the running sum not rescaled
 */
#define TILE_RESCALE_ACC(o, a) (o)
#include "base.h"
