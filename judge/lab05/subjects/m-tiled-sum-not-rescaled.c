/* m-tiled-sum-not-rescaled.c - sdpa_causal_tiled rescales its accumulated
 * output when a tile raises a row's maximum, but not its running sum.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: the running sum not rescaled: your l is not multiplied by alpha
 * expect-not: hint: the rescaling forgotten
 */
#define TILE_RESCALE_SUM(l, a) (l)
#include "base.h"
