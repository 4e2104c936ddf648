/* h-spin-signals.c - qkv_project ignores SIGALRM, SIGPROF, SIGINT, SIGTERM
 * and SIGVTALRM (system calls made directly, past the symbol checks), stops
 * every interval timer and spins: a timeout built on a signal to the
 * learner's process would never fire. The judge kills its process group at
 * the deadline, names the call in flight, skips qkv_project's other checks
 * (each would wait as long) and checks the other functions; no process is
 * left (judge/judge.mk also interrupts and kills the judge while it spins).
 * expect-exit: 1
 * expect: HANG  qkv_project, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': did not return within
 * expect: call in flight: qkv_project(q, k, v, x, w_q, w_k, w_v, 2, 2, 2, 2)
 * expect: (the other checks of this function are not run, and count as failed: fix this first)
 * expect-once: HANG
 * expect-re: ^qkv_project +0 +0 +9$
 * expect-re: ^qkv_pack +0 +9 +0$ */
#define MUTANT_qkv_project
#include "base.h"
#include "hostile.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    const int sigs[] = { 2, 14, 15, 26, 27 };       /* INT, ALRM, TERM, VTALRM, PROF */
    for (int i = 0; i < 5; i++) raw_ignore(sigs[i]);
    raw_stop_timers();
    for (volatile unsigned long n = 0;; n++) {}
}
