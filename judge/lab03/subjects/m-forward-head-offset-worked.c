/* m-forward-head-offset-worked.c - m-forward-head-offset.c on chapter 03's
 * worked example alone (fixed values: no random case can change what is
 * said): head 1's weights are wrong, so the report shows them and stops
 * there - the mistake is before W_O, and the heads before W_O are not
 * shown again; nor is it said that the weights are right.
 * run-args: --filter mha_forward/c1_worked_example
 * expect-exit: 1
 * expect: the weights of each head, which out is made from:
 * expect-re: ^ +head 1 +head 1$
 * expect-not: the heads' outputs side by side, before W_O
 * expect-not: the concatenation is already wrong
 * expect-not: weights are right: the mistake is after the softmax
 */
#include "m-forward-head-offset.c"
