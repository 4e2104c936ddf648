/* m-tiled-keys-to-i0.c - sdpa_causal_tiled's key loop stops at i0: the
 * tile on the diagonal is skipped, and the first query tile sees no key
 * (0 / 0, which this code reports as MM_ERANGE).
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: hint: a tile skipped wrongly: your key loop stops at i0
 */
#define TILE_KEYS_TO(i0, nq) (i0)
#include "base.h"
