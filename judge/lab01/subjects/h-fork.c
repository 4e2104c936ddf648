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
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++)
        for (int j = 0; j < width; j++)
            w_qkv[i * width + j] = j < d_k ? w_q[i * d_k + j]
                                 : j < 2 * d_k ? w_k[i * d_k + j - d_k]
                                 : w_v[i * d_v + j - 2 * d_k];
    return MM_OK;
}
