/* s-already-split.c - qkv_split remembers that it "already split" and
 * returns at once on later calls: their outputs are never written. The
 * harness says so, and that the case passes alone.
 * run-only: qkv_split
 * expect-exit: 1
 * expect: FAIL  qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong (k and v are wrong too)
 * expect: hint: 6 elements of q were never written
 * expect: hint: this case passes when it is the first call in a fresh process
 * expect-re: ^qkv_split +0 +3 +6$
 */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    static int done;
    MM_NEED_BUFFER(q);
    MM_NEED_BUFFER(k);
    MM_NEED_BUFFER(v);
    MM_NEED_BUFFER(qkv);
    MM_NEED_POSITIVE(T);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    if (done) return MM_OK;
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++)
        for (int j = 0; j < width; j++) {
            double x = qkv[(size_t)t * width + j];
            if (j < d_k) q[(size_t)t * d_k + j] = x;
            else if (j < 2 * d_k) k[(size_t)t * d_k + j - d_k] = x;
            else v[(size_t)t * d_v + j - 2 * d_k] = x;
        }
    done = 1;
    return MM_OK;
}
