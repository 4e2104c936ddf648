/* summary.c - solution.c with --summary (make lab NN=04 LAB_ARGS=--summary):
 * exactly one line per function - its name, then how many checks are
 * pending, passed and failed, separated by tabs - and nothing else.
 * run-args: --summary
 * expect-exit: 0
 * expect-re: ^mask_causal	0	8	0$
 * expect-re: ^mask_padding	0	11	0$
 * expect-re: ^mask_from_bool	0	11	0$
 * expect-re: ^mask_combine	0	15	0$
 * expect-re: ^mha_forward_causal	0	20	0$
 * expect-not-re: ^[^	]*$
 */
#include "base.h"
