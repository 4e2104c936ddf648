/* es-pending-split.c - r-pending-split.c with the report in Spanish: the
 * pending checks and the closing line.
 * run-lang: es
 * expect-exit: 0
 * expect: 16 comprobaciones pendientes (funciones que aún llaman a LAB_TODO()), 29 superadas, ninguna falla.
 * expect-re: ^qkv_split +9 +0 +0$ */
#include "r-pending-split.c"
