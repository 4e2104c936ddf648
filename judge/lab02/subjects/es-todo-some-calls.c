/* es-todo-some-calls.c - h-todo-some-calls.c, reported in Spanish.
 * run-lang: es
 * run-only: sdpa
 * expect-exit: 1
 * expect: se llegó a LAB_TODO() en sdpa, que en otras llamadas sí devolvió un resultado
 * expect-re: ^sdpa +0 +[0-9]+ +[1-9][0-9]*$
 */
#define MUTANT_sdpa
#include "base.h"
static int calls;
#define FULL_SCALE(d_k) (++calls % 3 == 0 ? (LAB_TODO(), 0.0) : 1.0 / sqrt((double)(d_k)))
#define FULL_SOFTMAX softmax_row
#include "full.h"
