/* es-todo-some-calls.c - h-todo-some-calls.c, reported in Spanish.
 * run-lang: es
 * run-only: sdpa
 * expect-exit: 1
 * expect: se llegó a LAB_TODO() en sdpa, que en otras llamadas sí devolvió un resultado
 * expect-re: ^sdpa +0 +[0-9]+ +[1-9][0-9]*$
 */
#include "h-todo-some-calls.c"
