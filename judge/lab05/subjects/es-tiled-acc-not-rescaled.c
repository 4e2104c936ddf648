/* es-tiled-acc-not-rescaled.c - m-tiled-acc-not-rescaled.c with the report
 * in Spanish, the mistake named as the Spanish chapter 05 names it.
 * run-lang: es
 * run-only: sdpa_causal_tiled
 * expect-exit: 1
 * expect: CHECK=sdpa_causal_tiled/c1_worked_example
 * expect: pista: el reescalado olvidado cuando el máximo crece: tu salida acumulada o no se reescala cuando una tesela sube el máximo
 * expect-not: pista: la suma acumulada sin reescalar
 */
#include "m-tiled-acc-not-rescaled.c"
