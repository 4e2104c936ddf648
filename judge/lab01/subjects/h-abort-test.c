/* h-abort-test.c - criterion_abort_test(), which ended a check without a
 * failure in the old harness. Refused: a test framework's symbol.
 * expect-exit: 1
 * expect: uses criterion_abort_test, part of a test framework
 */
#define MUTANT_qkv_split
#include "base.h"

void criterion_abort_test(void);

mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    criterion_abort_test();
    return MM_OK;
}
