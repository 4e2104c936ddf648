/* u-forge-send-assert.c - h-forge-send-assert.c linked without the symbol
 * checks: the redefined criterion_send_assert reaches nothing (there is no
 * Criterion in the learner's process, and the judge is another process),
 * and every check of the stubs fails.
 * build: unvetted
 * expect-exit: 1
 * expect: 45 checks FAIL (messages above), 0 pending, 0 passed.
 * expect-re: ^total +0 +0 +45$ */
#include "h-forge-send-assert.c"
