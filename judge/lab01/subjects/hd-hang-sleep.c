/* hd-hang-sleep.c - qkv_split sleeps ten seconds "to let the output
 * settle": it does not return by the deadline, but computes nothing. The
 * driver's sample, just before the deadline, found the learner's code in a
 * system call, with no CPU time used: the judge says so, not "an endless
 * loop" (which the old judge said of every hang; its vetting refused sleep).
 * run-only: qkv_split
 * expect-exit: 1
 * expect: HANG  qkv_split, case 'worked example of chapter 01
 * expect-re: did not return within [0-9.]+ s: it was waiting, not computing \(it used 0\.0[0-9] s of CPU in [0-9.]+ s: sleep, pause, a read\?\); the harness stopped it
 * expect-not: endless loop
 * expect-re: ^qkv_split +0 +0 +9$ */
#include <unistd.h>
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    sleep(10);
    return MM_OK;
}
