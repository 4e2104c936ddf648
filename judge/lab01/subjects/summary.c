/* summary.c - solution.c with --summary (make lab NN=01 LAB_ARGS=--summary):
 * exactly one line per function - its name, then how many checks are
 * pending, passed and failed, separated by tabs - and nothing else.
 * run-args: --summary
 * expect-exit: 0
 * expect-re: ^qkv_project	0	9	0$
 * expect-re: ^qkv_pack	0	9	0$
 * expect-re: ^qkv_split	0	9	0$
 * expect-re: ^qkv_project_fused	0	9	0$
 * expect-re: ^attention_param_count	0	9	0$
 * expect-not-re: ^[^	]*$ */
#include "base.h"
