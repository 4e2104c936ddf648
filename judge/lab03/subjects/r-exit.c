/* r-exit.c - mha_merge_heads ends with a leftover debugging exit(0): the
 * harness refuses the file before running anything, naming exit and its
 * line.
 * expect-exit: 1
 * expect-re: ^  judge/lab03/subjects/r-exit.c:[0-9]+: uses exit: a library function returns a status
 * expect: Your file judge/lab03/subjects/r-exit.c was not run: the harness refuses it.
 */
#include <stdio.h>
#define MUTANT_mha_merge_heads
#include "base.h"
mm_status mha_merge_heads(double *m, const double *heads, int T, int n_heads, int d_k)
{
    HEADS_CHECK_ARGS(m, heads);
    size_t i = 0;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < n_heads; h++)
            for (int c = 0; c < d_k; c++) m[i++] = heads[MERGE_HEADS(h, t, c)];
    printf("merged %d x %d\n", T, n_heads * d_k);
    exit(0);
}
