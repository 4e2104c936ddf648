/* m-tiled-below-skipped.c - sdpa_causal_tiled's key loop starts at i0: only
 * the tiles on the diagonal are computed, those below it skipped.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: a tile skipped wrongly: your key loop starts at i0
 */
#define TILE_KEYS_FROM(i0) (i0)
#include "base.h"
