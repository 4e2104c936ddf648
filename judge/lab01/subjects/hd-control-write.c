/* hd-control-write.c - qkv_pack finds the memory the harness shares with
 * its process (hd-shared-base.h) and writes into the control block at its
 * start, where the harness's code in the process notes what it is doing:
 * that the call is over (phase 1, call 0); then it crashes on a NULL
 * pointer. The old judge believed the forged notes: "it happened between
 * calls, not inside one". Now that page is protected from the learner's
 * code: its first write stops it, named.
 * build: unvetted
 * run-only: qkv_pack
 * expect-exit: 1
 * expect@plain: qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': it wrote into the harness's control block (byte 0 of the memory the harness shares with your code's process), which your code must not touch: a pointer far outside its buffers?: the page there is protected, so the access stopped your code at once (signal 11)
 * expect@sanitize: CRASH qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': crashed (signal 11, SIGSEGV
 * expect-re@sanitize: ^          AddressSanitizer: SEGV on a WRITE at judge/lab01/subjects/hd-control-write.c:[0-9]+ \(in qkv_pack\)$
 * expect@sanitize:           it wrote into the harness's control block (byte 0 of the memory the harness shares with your code's process), which your code must not touch
 * expect-not: between calls
 * expect-re: ^qkv_pack +0 +0 +9$ */
#include <stdint.h>
static double *volatile nowhere;
#include "hd-shared-base.h"
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    volatile int32_t *control = (volatile int32_t *)shared_base(w_qkv, d_model, d_k, d_v);
    control[0] = 1;                          /* phase: idle */
    control[1] = 0;                          /* seq: no call */
    *nowhere = 0.0;                          /* a NULL pointer */
    return MM_OK;
}
