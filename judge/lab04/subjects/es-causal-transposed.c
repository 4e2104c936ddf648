/* es-causal-transposed.c - m-causal-transposed.c with the report in
 * Spanish: the element its first line names is the one marked and described.
 * run-lang: es
 * run-only: mask_causal
 * expect-exit: 1
 * expect: bias tiene -inf en (1, 0) (3 no finitos de 9 elementos)
 * expect: el elemento no finito nombrado arriba (1, 0): se esperaba 0, se obtuvo -inf
 * expect-not: primer elemento erróneo (0, 1)
 */
#include "m-causal-transposed.c"
