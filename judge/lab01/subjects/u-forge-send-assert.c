/* u-forge-send-assert.c - h-forge-send-assert.c linked without the symbol
 * checks: its criterion_send_assert reaches nothing (no Criterion in the
 * learner's process; the judge is another), and every stub's check fails.
 * build: unvetted
 * expect-exit: 1
 * expect: 45 checks FAIL (messages above), 0 pending, 0 passed.
 * expect-re: ^total +0 +0 +45$ */
#include "h-forge-send-assert.c"
