/* es-compile-error.c - r-compile-error.c with the report in Spanish: the
 * message around the compiler's first error.
 * run-lang: es
 * expect-exit: 1
 * expect: Tu fichero judge/lab01/subjects/es-compile-error.c no compila. El primer error:
 * expect-re: r-compile-error.c:[0-9]+:[0-9]+: error: expected ';' */
#include "r-compile-error.c"
