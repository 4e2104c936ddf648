/* m-forward-v-from-q.c - each head blends its queries where its values
 * belong (V_h = Q_h): a mistake the catalogue does not know, but every
 * head's weights are right, and the hint says to look after the softmax.
 * The hint says the weights are right, so the stages do not say it again;
 * the heads side by side before W_O are wrong, in every head.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: every head's weights are right, so the mistake comes after the softmax
 * expect-not: weights are right: the mistake is after the softmax
 * expect: the concatenation is already wrong, in the columns of heads 0 and 1 (d_k = 3 a head): the mistake is before W_O
 */
#define FW_V(h) (heads + (size_t)(h) * hs)
#include "base.h"
