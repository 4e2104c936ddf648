/* summary.c - solution.c with --summary (make lab NN=02 LAB_ARGS=--summary):
 * exactly one line per function - its name, then how many checks are
 * pending, passed and failed, separated by tabs - and nothing else.
 * run-args: --summary
 * expect-exit: 0
 * expect-re: ^softmax_row	0	18	0$
 * expect-re: ^sdpa	0	21	0$
 * expect-not-re: ^[^	]*$
 */
#include "base.h"
