/* r-read-before-write.c - qkv_split copies each row of qkv into a row
 * buffer from malloc, but only its q and k parts, and then reads v from
 * the part it never wrote. The hint names memory read before written.
 * run-only: qkv_split
 * expect-exit: 1
 * expect: FAIL  qkv_split, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': v is wrong
 * expect: hint: 4 elements of v are near -8765432.5, what fresh memory from malloc holds under the harness: your code read memory from malloc before writing it
 * expect-re: ^qkv_split +0 +2 +7$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *row = malloc((size_t)width * sizeof *row);
    if (!row) return MM_ENOMEM;
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < 2 * d_k; j++) row[j] = qkv[t * width + j];   /* q and k only */
        for (int j = 0; j < d_k; j++) q[t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) k[t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[t * d_v + j] = row[2 * d_k + j];
    }
    free(row);
    return MM_OK;
}
