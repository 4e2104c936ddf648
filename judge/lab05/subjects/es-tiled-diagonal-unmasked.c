/* es-tiled-diagonal-unmasked.c - m-tiled-diagonal-unmasked.c with the
 * report in Spanish.
 * run-lang: es
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: pista: la tesela de la diagonal sin máscara: en una tesela que cruza la diagonal
 */
#include "m-tiled-diagonal-unmasked.c"
