/* h-kill-judge.c - attention_param_count sends SIGKILL to its parent, the
 * judge (system calls made directly, past the symbol checks). Refused at
 * run time: the call is named, and the judge goes on.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect: made a system call that a lab function may not make: kill (to send a signal to another process)
 * expect-re: ^attention_param_count +0 +0 +9$ */
#define MUTANT_attention_param_count
#include "base.h"
#include "hostile.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    long parent = raw_syscall(110, 0, 0, 0, 0);          /* getppid */
    raw_syscall(RAW_KILL, parent, 9, 0, 0);
    return MM_OK;
}
