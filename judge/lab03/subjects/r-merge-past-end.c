/* r-merge-past-end.c - mha_merge_heads is right, but then writes one
 * element past the end of m ("an end marker"): the protected page stops the
 * call and the report names the buffer and the element. In mha_forward, m
 * is its own malloc'd block, and the write past it is found after the call
 * (plain build: a canary) or at once (AddressSanitizer names the line).
 * expect-exit: 1
 * expect: CRASH mha_merge_heads, case 'the heads of chapter 03's worked example, X = [[1,0,1,0],[0,1,0,1],[1,1,0,0]], merged back': wrote past the end of m (element 12; m is (3, 4), elements 0 to 11)
 * expect@plain: mha_forward wrote past the end of a block it allocated (96 bytes, with malloc/calloc/realloc)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab03/subjects/r-merge-past-end.c:[0-9]+ \(in mha_merge_heads\)
 */
#define MUTANT_mha_merge_heads
#include "base.h"
mm_status mha_merge_heads(double *m, const double *heads, int T, int n_heads, int d_k)
{
    HEADS_CHECK_ARGS(m, heads);
    size_t i = 0;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < n_heads; h++)
            for (int c = 0; c < d_k; c++) m[i++] = heads[MERGE_HEADS(h, t, c)];
    m[i] = 0.0;                                   /* "the end marker" */
    return MM_OK;
}
