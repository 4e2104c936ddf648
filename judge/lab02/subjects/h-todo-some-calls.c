/* h-todo-some-calls.c - sdpa right (full.h) but calling LAB_TODO() in every
 * third call: a function that returns results in some calls and reaches
 * LAB_TODO() in others has started, so the checks that reached LAB_TODO()
 * fail instead of passing for pending (which would hide a wrong function as
 * one not yet started).
 * run-only: sdpa
 * expect-exit: 1
 * expect: reached LAB_TODO() in sdpa, which returned a result in other calls: a function you have started must not call LAB_TODO()
 * expect-re: ^sdpa +0 +[0-9]+ +[1-9][0-9]*$
 */
static int calls;
#define FULL_SCALE(d_k) (++calls % 3 == 0 ? (LAB_TODO(), 0.0) : 1.0 / sqrt((double)(d_k)))
#include "full.h"
