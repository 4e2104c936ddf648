/* u-constructor.c - h-constructor.c linked without the symbol checks: the
 * constructor runs before the driver is ready; its forged report is shown
 * once, as the learner's output, and every check fails (the process could not start).
 * build: unvetted
 * expect-exit: 1
 * expect: the process that runs your code could not start: it ended before it was ready (exit status 0)
 * expect-re: ^        \| All 45 checks pass
 * expect-not-re: ^All 45 checks pass
 * expect-once: could not start
 * expect-re: ^total +0 +0 +45$ */
#include "h-constructor.c"
