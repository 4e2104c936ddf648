/* u-noop-runner.c - h-noop-runner.c linked without the symbol checks: the
 * functions it defines are called by no one, and every check of the stubs
 * fails.
 * build: unvetted
 * expect-exit: 1
 * expect-re: ^total +0 +0 +45$ */
#include "h-noop-runner.c"
