/* r-exit.c - mask_combine ends with a leftover debugging exit(0): the
 * harness refuses the file before running anything, naming exit and its
 * line.
 * expect-exit: 1
 * expect-re: ^  judge/lab04/subjects/r-exit.c:[0-9]+: uses exit: a library function returns a status
 * expect: Your file judge/lab04/subjects/r-exit.c was not run: the harness refuses it.
 */
#include <stdio.h>
#define MUTANT_mask_combine
#include "base.h"
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    for (size_t e = 0; e < (size_t)T_q * T_k; e++) bias[e] += other[e];
    printf("combined %d x %d\n", T_q, T_k);
    exit(0);
}
