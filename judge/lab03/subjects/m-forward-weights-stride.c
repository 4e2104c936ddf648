/* m-forward-weights-stride.c - head h's weights are written at weights +
 * h T, one row apart instead of one (T, T) block apart: out is right,
 * weights is not, and the hint says where head h's weights go.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: out is right but weights is not: when weights is not NULL, head h's softmax rows, (T, T), go at weights + h T T
 */
#define FW_WSLOT(h) ((size_t)(h) * T)
#include "base.h"
