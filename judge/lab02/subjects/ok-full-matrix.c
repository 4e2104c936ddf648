/* ok-full-matrix.c - sdpa in another style (full.h): the whole (T_q, T_k)
 * score matrix first, in weights or a calloc'd block, each row through
 * softmax_row, then one product W V. Every check passes.
 * expect-exit: 0
 * expect: All 39 checks pass
 */
#include "full.h"
