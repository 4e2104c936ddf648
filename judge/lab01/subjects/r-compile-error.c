/* r-compile-error.c - a learner's file that does not compile (a missing
 * semicolon): the first error is shown plainly, with its file and line,
 * not buried in make's output.
 * expect-exit: 1
 * expect: Your file judge/lab01/subjects/r-compile-error.c does not compile. The first error:
 * expect-re: ^    judge/lab01/subjects/r-compile-error.c:[0-9]+:[0-9]+: error: expected ';'
 * expect-re: ^    judge/lab01/subjects/r-compile-error.c: In function 'qkv_pack':
 * expect-not: checking your functions
 */
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    return MM_OK
}
