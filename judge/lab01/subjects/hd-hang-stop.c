/* hd-hang-stop.c - qkv_split stops its own process with SIGSTOP (a system
 * call made directly, since the vetting refuses raise): nothing runs in it
 * again until the deadline, and the driver's timer signal for its sample
 * cannot be handled in a stopped process. No sample came: the judge says
 * the process was stopped by a signal, not that it looped (the old judge:
 * "(an endless loop?)").
 * run-only: qkv_split
 * expect-exit: 1
 * expect-re: HANG  qkv_split, case 'worked example of chapter 01[^']*': did not return within [0-9.]+ s: its process was not running near the deadline: it was stopped by a signal \(SIGSTOP or SIGTSTP: raise\(SIGSTOP\)\?\); the harness stopped it
 * expect-not: endless loop
 * expect-re: ^qkv_split +0 +0 +9$ */
#define MUTANT_qkv_split
#include "base.h"
#include "hostile.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    raw_syscall(RAW_KILL, raw_syscall(RAW_GETPID, 0, 0, 0, 0), 19, 0, 0);   /* SIGSTOP */
    return MM_OK;
}
