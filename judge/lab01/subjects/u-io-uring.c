/* u-io-uring.c - qkv_project sets up an io_uring with the system call made
 * directly (no symbol for the vetting to see): io_uring reads and writes
 * files without open(), so the confinement refuses io_uring_setup itself,
 * and the report names the call and what it is for.
 * expect-exit: 1
 * expect: io_uring_setup (to read or write files behind the harness's back)
 * expect-re: ^qkv_project +0 +0 +[1-9] */
#define MUTANT_qkv_project
#include "base.h"
#include "hostile.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    long params[15] = { 0 };                     /* struct io_uring_params */
    raw_syscall(425 /* io_uring_setup */, 8, (long)params, 0, 0);
    return MM_OK;
}
