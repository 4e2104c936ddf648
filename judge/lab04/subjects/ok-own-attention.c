/* ok-own-attention.c - the causal layer with each head's attention written
 * out (own.h: no mha_forward, the visible keys scored, the hidden ones -inf, a
 * softmax that gives 0 on a row that sees nothing): every check passes.
 * expect-exit: 0
 * expect: All 65 checks pass
 */
#include "own.h"
