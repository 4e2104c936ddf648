/* hd-hang-spin.c - r-hang.c (attention_param_count never stops when n_heads
 * is odd). The driver's sample, just before the deadline, found the
 * learner's code computing, and its CPU time: then only the judge asks "an
 * endless loop?" (the old judge asked it of every call that did not return).
 * run-only: attention_param_count
 * expect-exit: 1
 * expect-re: HANG  attention_param_count, case 'd_model=12 n_heads=3': did not return within [0-9.]+ s: it was computing \(it used [0-9.]+ s of CPU in [0-9.]+ s\): an endless loop\?; the harness stopped it
 * expect-re: ^attention_param_count +0 +1 +8$ */
#include "r-hang.c"
