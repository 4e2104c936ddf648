/* m-tiled-mean-sum-not-rescaled.c - sdpa_causal_tiled keeps each row's
 * output as a weighted mean, o / l, and forgets to rescale the running sum:
 * l' = l + sum, so the old output's share l alpha / l' is wrong too.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: the running sum not rescaled: your l is not multiplied by alpha
 * expect-not: hint: the rescaling forgotten
 */
#define TILE_MEAN
#define TILE_RESCALE_SUM(l, a) (l)
#include "base.h"
