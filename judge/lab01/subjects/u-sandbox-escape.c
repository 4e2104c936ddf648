/* u-sandbox-escape.c - right functions (base.h), plus a constructor, linked
 * without the symbol checks, that runs before the driver's main and, with
 * system calls made directly, opens the repository's Makefile and starts a
 * process. Before the sandbox both worked, before the driver's seccomp
 * filter; in the sandbox the repository is not there, and the early filter
 * stops the process at its fork, before it is ready.
 * build: unvetted
 * expect-exit: 1
 * expect-re: ^        \| Makefile: not there$
 * expect-not: Makefile: read
 * expect: the process that runs your code could not start: it ended before it was ready (signal 31, SIGSYS: a system call the sandbox forbids
 * expect-re: ^total +0 +0 +45$ */
#include "base.h"
#include "hostile.h"

enum { RAW_OPEN = 2 };

__attribute__((constructor)) static void escape(void)
{
    long fd = raw_syscall(RAW_OPEN, (long)"Makefile", 0, 0, 0);
    const char *said = fd >= 0 ? "Makefile: read\n" : "Makefile: not there\n";
    raw_syscall(RAW_WRITE, 1, (long)said, (long)strlen(said), 0);
    if (raw_syscall(RAW_FORK, 0, 0, 0, 0) == 0) raw_syscall(RAW_EXIT_GROUP, 0, 0, 0, 0);
}
