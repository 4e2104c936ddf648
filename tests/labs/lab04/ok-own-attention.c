/* ok-own-attention.c - the causal layer with each head's attention written
 * out (own.h: no mha_forward, every key scored, the hidden ones -inf, a
 * softmax that gives 0 on a row that sees nothing): every check passes.
 * expect-exit: 0
 * expect: All 50 checks pass
 */
#include "own.h"
