/* m-forward-no-overlap-check.c - mha_forward does not refuse an output that
 * is also an input or the other output: it returns MM_OK having written
 * over it (where mm_matmul or sdpa is handed an output that overlaps its
 * inputs, they refuse it: those calls pass by luck).
 * run-only: mha_forward
 * expect-exit: 1
 * expect: FAIL  mha_forward, case 'out = x': returned MM_OK (0) for out and x the same buffer; expected MM_EINVAL (1)
 * expect: hint: an output that shares memory with another buffer - x, bias, the layer's weights, the other output - is overwritten
 */
#define ARGS_NO_OVERLAP
#include "base.h"
