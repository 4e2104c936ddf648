/* es-skeleton.c - skeleton.c with the report in Spanish.
 * run-lang: es
 * expect-exit: 0
 * expect: 39 comprobaciones pendientes (funciones que aún llaman a LAB_TODO()), 0 superadas, ninguna falla.
 * expect-re: ^softmax_row +18 +0 +0$
 */
#include "pristine-skeleton.c"
