/* h-forge-reply.c - qkv_pack writes a forged "returned MM_OK" reply on the
 * driver's channel to the judge (a system call made directly, past the
 * symbol checks) before the real one. The judge takes only a reply that
 * answers its own request (a sequence number and a random nonce): this
 * one is not, and the check fails, the channel named.
 * build: sees judge/harness/wire.h (the sandbox shows a learner's build only the
 *   library's headers and lab.h; the protocol is public all the same)
 * run-only: qkv_pack
 * expect-exit: 1
 * expect: qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': stopped answering the harness
 * expect-re: ^qkv_pack +0 +0 +9$ */
#include <string.h>
#include "wire.h"
#define MUTANT_qkv_pack
#include "base.h"
#include "hostile.h"

static uint32_t guess = 1;

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    lab_reply r;
    memset(&r, 0, sizeof r);
    r.magic = LAB_MAGIC;
    r.seq = guess++;
    r.kind = LAB_REPLY_RETURNED;
    raw_syscall(RAW_WRITE, LAB_FD_REP, (long)&r, sizeof r, 0);
    return MM_OK;
}
