/* m-forward-no-wo.c - mha_forward returns the heads' outputs side by side,
 * never multiplied by W_O.
 * The stages say where: the weights are right, and with W_O = I out is
 * right too.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: your out is the heads' outputs side by side, not multiplied by W_O
 * expect: weights are right: the mistake is after the softmax
 * expect: with W_O = I your out is right: the mistake is in applying W_O (out = concat W_O, with the layer's w_o)
 * expect-not: the concatenation is already wrong
 */
#define FW_OUT(out, concat) (memcpy(out, concat, (size_t)T * d * sizeof *out), MM_OK)
#include "base.h"
