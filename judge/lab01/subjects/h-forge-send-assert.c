/* h-forge-send-assert.c - forging a pass as it worked when the checks ran
 * in the learner's process: Criterion's criterion_send_assert redefined as
 * a no-op (so that no failure is recorded), and five stubs. The harness
 * refuses the file and names the symbol (u-forge-send-assert.c links it
 * anyway: the checks, in another process, fail).
 * expect-exit: 1
 * expect: Your file judge/lab01/subjects/h-forge-send-assert.c was not run: the harness refuses it.
 * expect: defines criterion_send_assert, which is not one of the lab's functions
 * expect-not: checking your functions
 */
#include "stubs.h"

void criterion_send_assert(void *stats) { (void)stats; }
