/* es-static-width.c - s-static-width.c with the report in Spanish: the
 * hint of state kept between calls, in full once, then short.
 * run-lang: es
 * run-only: qkv_split
 * expect-exit: 1
 * expect: pista: este caso pasa cuando es la primera llamada en un proceso nuevo; aquí llegó tras 1 llamada anterior en el mismo proceso
 * expect: pista: este caso también pasa solo, en un proceso nuevo: estado guardado entre llamadas (mira arriba)
 * expect: primer elemento erróneo (1, 0): se esperaba 4, se obtuvo 1 */
#include "s-static-width.c"
