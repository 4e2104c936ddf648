/* h-real-exit.c - ending the checker's worker with __real_exit(0), past the
 * old harness's --wrap=exit, so that the check counts as passed. Refused:
 * the symbol belongs to the harness (and there is none to reach).
 * expect-exit: 1
 * expect: uses __real_exit: a library function returns a status (MM_EINVAL, ...) and never ends the program
 */
#include "stubs.h"

_Noreturn void __real_exit(int status);

void end_quietly(void) { __real_exit(0); }
