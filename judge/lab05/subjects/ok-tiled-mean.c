/* ok-tiled-mean.c - the solution with sdpa_causal_tiled keeping each row's
 * output as a weighted mean, o / l, as the chapter's code does: every check
 * passes (the order of the additions is not the judge's business).
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^sdpa_causal_tiled +0 +17 +0$
 */
#define TILE_MEAN
#include "base.h"
