/* h-fork.c - qkv_pack forks a child that calls _exit(0) at once (harmless,
 * but the old checker called it a hang and left orphans). Refused: fork and
 * _exit are named (u-fork.c: linked anyway, the system call is refused at
 * run time).
 * expect-exit: 1
 * expect: uses fork: a lab function starts no process, program or thread
 * expect: uses _exit
 */
#include <unistd.h>
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (fork() == 0) _exit(0);
    PACK_CHECK_ARGS();
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    return MM_OK;
}
