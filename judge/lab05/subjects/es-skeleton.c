/* es-skeleton.c - skeleton.c with the report in Spanish.
 * run-lang: es
 * expect-exit: 0
 * expect: 45 comprobaciones pendientes (funciones que aún llaman a LAB_TODO()), 0 superadas, ninguna falla.
 * expect-re: ^mha_decode_step +15 +0 +0$
 * expect: función                  pendientes  superadas   fallidas
 */
#include "pristine-skeleton.c"
