/* m-forward-v-from-q.c - each head blends its queries where its values
 * belong (V_h = Q_h): a mistake the catalogue does not know, but every
 * head's weights are right, and the hint says to look after the softmax.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: every head's weights are right, so the mistake comes after the softmax
 */
#define FW_V(h) (heads + (size_t)(h) * hs)
#include "base.h"
