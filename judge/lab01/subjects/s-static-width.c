/* s-static-width.c - qkv_split keeps the row width of its first call in a
 * static variable. A function's checks share one learner process, on cases
 * of different shapes: the second case fails, and the harness, running it
 * again alone in a fresh process, says that it passes there.
 * run-only: qkv_split
 * expect-exit: 1
 * expect: FAIL  qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 1 earlier call in the same process (the first: qkv_split(q, k, v, qkv, 2, 2, 2)). Your code keeps something from one call to the next
 * expect-re: ^qkv_split +0 +[4-6] +[3-5]$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    static int width;                        /* "it never changes" */
    SPLIT_CHECK_ARGS();
    if (!width) width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        const double *row = qkv + (size_t)t * width;
        for (int j = 0; j < d_k; j++) q[(size_t)t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) k[(size_t)t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[(size_t)t * d_v + j] = row[2 * d_k + j];
    }
    return MM_OK;
}
