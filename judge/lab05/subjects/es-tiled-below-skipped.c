/* es-tiled-below-skipped.c - m-tiled-below-skipped.c with the report in
 * Spanish: the tiles are the chapter's teselas, feminine.
 * run-lang: es
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: pista: la tesela saltada por error: tu bucle de keys empieza en i0, así que solo calcula las teselas de la diagonal
 */
#include "m-tiled-below-skipped.c"
