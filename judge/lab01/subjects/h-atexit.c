/* h-atexit.c - a constructor that registers an exit handler calling
 * _exit(0), so that a worker failing with exit(1) ends with 0 (it left the
 * old checker's make target green). Refused: the constructor, atexit and
 * _exit are named (u-atexit.c: linked anyway, nothing of it reaches the
 * verdict).
 * expect-exit: 1
 * expect: has a constructor or destructor (section .init_array)
 * expect: uses atexit: a library function returns a status
 * expect: uses _exit: a library function returns a status
 */
#include <stdlib.h>
#include <unistd.h>
#define MUTANT_qkv_pack
#include "base.h"

static void succeed(void) { _exit(0); }

__attribute__((constructor)) static void install(void) { atexit(succeed); }

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    return MM_OK;
}
