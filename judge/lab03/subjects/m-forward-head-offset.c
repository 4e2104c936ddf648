/* m-forward-head-offset.c - head h's queries, keys and values start h d_k
 * elements into their block of the stack of heads (the offset of head h's
 * columns in a row of Q), not h T d_k: head h reads head 0's rows from row
 * h on. Weights go wrong from head 1, so the report shows them head by
 * head (and so the mistake is before W_O: no more is shown); where a case
 * asks for no weights, the heads side by side before W_O (W_O = I), wrong
 * in heads 1..
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: head h's queries, keys and values start h d_k elements into their block
 * expect: the weights of each head, which out is made from:
 * expect-re: ^ +expected weights \(6, 3\), a part +got weights$
 * expect-re: ^ +head 1 +head 1$
 * expect: the heads' outputs side by side, before W_O: your mha_forward again on this case with W_O = I
 * expect-re: ^ +head 0 +head 1 +head 2 +head 3 +head 0 +head 1 +head 2 +head 3
 * expect: the concatenation is already wrong, in the columns of heads 1 and 2 (d_k = 2 a head)
 */
#define FW_Q(h) (heads + (size_t)(h) * d_k)
#define FW_K(h) (heads + (size_t)H * hs + (size_t)(h) * d_k)
#define FW_V(h) (heads + 2 * (size_t)H * hs + (size_t)(h) * d_k)
#include "base.h"
