/* m-sdpa-no-alias-check.c - sdpa does not refuse an output that is also an
 * input: it returns MM_OK, having overwritten q while reading it (where
 * mm_matmul is handed an output that overlaps its inputs, mm_matmul
 * refuses it: those calls pass by luck).
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'out = q': returned MM_OK (0) for out and q the same buffer; expected MM_EINVAL (1)
 * expect: FAIL  sdpa, case 'weights = bias': returned MM_OK (0) for weights and bias the same buffer; expected MM_EINVAL (1)
 * expect: hint: an output that shares memory with another buffer is overwritten while that one is still being read
 * expect-re: ^sdpa +0 +19 +2$
 */
#define ARGS_NO_OVERLAP
#include "row.h"
