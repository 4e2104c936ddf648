/* m-tiled-mean-acc-not-rescaled.c - sdpa_causal_tiled keeps each row's
 * output as a weighted mean, o / l, as the chapter's code does, but adds
 * each tile's P V / l' without giving the old output its share l alpha / l'.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: the rescaling forgotten when the maximum grows: your accumulated output o is not rescaled
 * expect-not: hint: the running sum not rescaled
 */
#define TILE_MEAN
#define TILE_RESCALE_ACC(o, a) (o)
#include "base.h"
