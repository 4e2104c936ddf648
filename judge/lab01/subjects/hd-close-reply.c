/* hd-close-reply.c - qkv_split closes descriptor 4 (LAB_FD_REP, the one the
 * harness's code in its process replies on) and spins: the judge's end of
 * the channel shows it closed while the call runs, and the judge names the
 * channel, not an ending of the process or a hang (the old judge: "stopped
 * answering the harness: the channel ... was closed or written to").
 * run-only: qkv_split
 * expect-exit: 1
 * expect: qkv_split, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': closed the channel to the judge: descriptor 4, on which the harness's code in your process sends its replies, was closed by your code (close(4)
 * expect: call in flight: qkv_split(q, k, v, qkv, 2, 2, 2)
 * expect-not: HANG
 * expect-not: written to
 * expect-re: ^qkv_split +0 +0 +9$ */
#include <unistd.h>
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    close(4);
    for (volatile unsigned long n = 0;; n++) {}
    return MM_OK;
}
