/* es-pending-split.c - r-pending-split.c with the report in Spanish: the
 * pending checks and the closing line.
 * run-lang: es
 * expect-exit: 0
 * expect: 12 comprobaciones pendientes (funciones que aún llaman a LAB_TODO()), 24 superadas, ninguna falla.
 * expect-re: ^qkv_split +7 +0 +0$
 */
#include "r-pending-split.c"
