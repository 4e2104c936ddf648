/* summary.c - solution.c with --summary (make lab NN=03 LAB_ARGS=--summary):
 * exactly one line per function - its name, then how many checks are
 * pending, passed and failed, separated by tabs - and nothing else.
 * run-args: --summary
 * expect-exit: 0
 * expect-re: ^mha_split_heads	0	14	0$
 * expect-re: ^mha_merge_heads	0	15	0$
 * expect-re: ^mha_forward	0	24	0$
 * expect-not-re: ^[^	]*$
 */
#include "base.h"
