/* es-decode-attend-first.c - m-decode-attend-first.c with the report in
 * Spanish.
 * run-lang: es
 * run-only: mha_decode_step
 * expect-exit: 1
 * expect: pista: el token añadido a la caché después de atender
 */
#include "m-decode-attend-first.c"
