/* m-forward-head0.c - every head attends with head 0's queries, keys and
 * values, so all the heads give the same output.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: every head used head 0's queries, keys and values
 */
#define FW_Q(h) (heads)
#define FW_K(h) (heads + (size_t)H * hs)
#define FW_V(h) (heads + 2 * (size_t)H * hs)
#include "base.h"
