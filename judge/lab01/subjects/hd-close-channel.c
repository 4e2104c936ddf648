/* hd-close-channel.c - qkv_pack is right, but "tidies up" by closing every
 * descriptor from 3 up: among them the two of the channel between the
 * harness's code in its process and the judge. close is allowed (harmless
 * to all but the learner's own process); the judge says what it did (the
 * old judge: "ended the process with exit status 5"; its vetting refused
 * close).
 * run-only: qkv_pack
 * expect-exit: 1
 * expect: CRASH qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': closed the channel to the judge: descriptor 3, on which the harness's code in your process receives the judge's requests, was closed by your code
 * expect: call in flight: qkv_pack(w_qkv, w_q, w_k, w_v, 2, 2, 2)
 * expect-not: exit status
 * expect-not: between calls
 * expect-re: ^qkv_pack +0 +2 +7$ */
#include <unistd.h>
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    PACK_CHECK_ARGS();
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    for (int fd = 3; fd < 64; fd++) close(fd);     /* "the files I opened" */
    return MM_OK;
}
