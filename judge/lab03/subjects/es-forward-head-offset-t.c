/* es-forward-head-offset-t.c - head h's queries, keys and values start
 * h T elements into their block, not h T d_k: a mistake no hint names, so
 * the report locates it with the stages (in Spanish): each head's weights
 * apart, wrong from head 1, and where a case asks for no weights the
 * concatenation before W_O.
 * run-only: mha_forward
 * run-lang: es
 * expect-exit: 1
 * expect: los pesos de cada cabeza, con los que se hace out:
 * expect-re: ^ +cabeza 1 +cabeza 1$
 * expect: las salidas de las cabezas una al lado de otra, antes de W_O: tu mha_forward otra vez
 * expect: la concatenación ya está mal, en las columnas de las cabezas 1 y 2 (d_k = 2 por cabeza): el error está antes de W_O
 * expect-not: hint:
 */
#define FW_Q(h) (heads + (size_t)(h) * T)
#define FW_K(h) (heads + (size_t)H * hs + (size_t)(h) * T)
#define FW_V(h) (heads + 2 * (size_t)H * hs + (size_t)(h) * T)
#include "base.h"
