/* m-tiled-diagonal-unmasked.c - sdpa_causal_tiled masks nothing: on a tile
 * the diagonal crosses, a query sees the keys after it.
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: the diagonal tile unmasked: on a tile the diagonal crosses
 */
#define TILE_HIDDEN(i, j) 0
#include "base.h"
