/* h-noop-runner.c - Criterion's runner redefined to run nothing, so that no
 * check fails. Refused: the symbols are named (u-noop-runner.c: linked
 * anyway, the judge's own runner is in another process).
 * expect-exit: 1
 * expect: defines criterion_run_all_tests, which is not one of the lab's functions
 * expect: defines criterion_initialize, which is not one of the lab's functions
 */
#include "stubs.h"

void *criterion_initialize(void) { return 0; }
int criterion_run_all_tests(void *set) { (void)set; return 1; }
