/* summary.c - solution.c with --summary (make lab NN=05 LAB_ARGS=--summary):
 * exactly one line per function - its name, then how many checks are
 * pending, passed and failed, separated by tabs - and nothing else.
 * run-args: --summary
 * expect-exit: 0
 * expect-re: ^softmax_online	0	13	0$
 * expect-re: ^sdpa_causal_tiled	0	17	0$
 * expect-re: ^mha_decode_step	0	15	0$
 * expect-not-re: ^[^	]*$
 */
#include "base.h"
